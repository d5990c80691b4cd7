//! `hooks bridge cline` through the real binary, with Cline's stdin as Cline writes it: the
//! extension's proto3 JSON (`apps/vscode/proto/cline/hooks.proto`, the hooks docs'
//! examples, `docs/customization/hooks.mdx`) and the SDK's, as the `cline` CLI 3.0.65 sent
//! it; the answer is Cline's (`cancel`, `contextModification`, `errorMessage`, always exit
//! 0: Cline takes any other exit code for a hook error and goes ahead, `hook-factory.ts`).
//! Then `hooks install cline` / `uninstall cline`, Cline's own hook files never run twice,
//! and `hooks run --from cline` with Cline's payload.

use serde_json::{Value, json};

use crate::support::{Env, env_with};

/// A user config (no trust needed): a fail-closed guard on the canonical shell tool, a
/// rewrite, context on UserPromptSubmit and PostToolUse.
const CONFIG: &str = concat!(
    crate::bridge::guard_rewrite_context!(),
    r#"  - id: read-guard
    event: PreToolUse
    matcher: Read
    command: |
      case "$(cat)" in *".env"*) echo '{"decision":"block","reason":"no secrets"}';; esac
"#
);

/// The extension's stdin for `hook` with its event object `data` under `key`.
fn extension(env: &Env, hook: &str, key: &str, data: Value) -> String {
    let mut p = json!({
        "clineVersion": "3.38.0",
        "hookName": hook,
        "timestamp": "1777629600000",
        "taskId": "task-1",
        "workspaceRoots": [env.path().join("proj").display().to_string()],
        "userId": "u-7",
        "model": {"provider": "anthropic", "slug": "claude-sonnet"},
    });
    p[key] = data;
    p.to_string()
}

/// The SDK's stdin of a shell tool call, as the `cline` CLI 3.0.65 wrote it.
fn sdk_tool_call(env: &Env, command: &str) -> String {
    let root = env.path().join("proj").display().to_string();
    json!({"clineVersion": "", "timestamp": "2026-12-03T13:59:00.393Z", "taskId": "conv_1",
        "sessionContext": {"rootSessionId": "1796306338956_a8ujt"}, "workspaceRoots": [root],
        "workspaceInfo": {"rootPath": root, "hint": "proj"}, "userId": "unknown",
        "agent_id": "agent_1", "parent_agent_id": null, "hookName": "tool_call", "iteration": 1,
        "tool_call": {"id": "call_1", "name": "run_commands", "input": {"commands": [command]}},
        "preToolUse": {"toolName": "run_commands",
            "parameters": {"commands": json!([command]).to_string()}}})
    .to_string()
}

/// Runs `hooks bridge cline` with `stdin`: Cline's answer is on stdout with exit 0.
#[track_caller]
fn check(env: &Env, stdin: &str, stdout: Value) {
    let run = env.run_with_stdin(&["bridge", "cline"], stdin);
    assert_eq!(run.code, 0, "{stdin}\nstderr: {}", run.stderr);
    assert_eq!(run.json(), stdout, "{stdin}\nstderr: {}", run.stderr);
}

fn exec(command: &str) -> Value {
    json!({"toolName": "execute_command", "parameters": {"command": command, "requires_approval": "false"}})
}

#[test]
fn cline_cases() {
    let env = env_with(CONFIG);
    let e = &env;
    let cancel = |reason: &str| json!({"cancel": true, "errorMessage": reason});
    let go = json!({"cancel": false});
    // The extension's PreToolUse: the guard refuses, Cline cancels.
    check(
        e,
        &extension(e, "PreToolUse", "preToolUse", exec("rm -r victim")),
        cancel("refusing rm -r"),
    );
    check(
        e,
        &extension(e, "PreToolUse", "preToolUse", exec("ls")),
        go.clone(),
    );
    // A rewrite is `overrideInput`, in the shape of the tool Cline named (the SDK reads
    // it; the extension, which sent this event, leaves it).
    check(
        e,
        &extension(e, "PreToolUse", "preToolUse", exec("npm test")),
        json!({"cancel": false, "overrideInput": {"command": "bun test"}}),
    );
    // `read_file`'s `path` is the canonical `Read`'s `file_path`.
    check(
        e,
        &extension(
            e,
            "PreToolUse",
            "preToolUse",
            json!({"toolName": "read_file", "parameters": {"path": ".env"}}),
        ),
        cancel("no secrets"),
    );
    // The SDK's, as the CLI sends it: `run_commands` is the shell tool too.
    check(
        e,
        &sdk_tool_call(e, "rm -r victim"),
        cancel("refusing rm -r"),
    );
    check(e, &sdk_tool_call(e, "ls"), go.clone());
    // The SDK's rewrite goes back as its `commands` list.
    check(
        e,
        &sdk_tool_call(e, "npm test"),
        json!({"cancel": false, "overrideInput": {"commands": ["bun test"]}}),
    );
    check(
        e,
        &extension(
            e,
            "UserPromptSubmit",
            "userPromptSubmit",
            json!({"prompt": "fix the build"}),
        ),
        json!({"cancel": false, "contextModification": "today is Monday"}),
    );
    check(
        e,
        &extension(
            e,
            "TaskStart",
            "taskStart",
            json!({"taskMetadata": {"taskId": "task-1"}}),
        ),
        go.clone(),
    );
    check(
        e,
        &extension(
            e,
            "PostToolUse",
            "postToolUse",
            json!({"toolName": "execute_command", "parameters": {"command": "false"}, "result": "exit 1", "success": false, "executionTimeMs": 12}),
        ),
        go,
    );
}

/// Cline runs the hook files of its hooks directories itself: the bridge does not run them
/// again (here the user's `~/Documents/Cline/Hooks/PreToolUse`), while another agent's
/// bridge does.
#[test]
fn clines_own_hook_files_do_not_run_twice() {
    let env = env_with("hooks: []\n");
    let hook = env.write(
        "home/Documents/Cline/Hooks/PreToolUse",
        "#!/bin/sh\ntouch \"$HOME/ran\"\necho '{\"cancel\": true, \"errorMessage\": \"cline file guard\"}'\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    check(
        &env,
        &extension(&env, "PreToolUse", "preToolUse", exec("ls")),
        json!({"cancel": false}),
    );
    assert!(
        !env.path().join("home/ran").exists(),
        "the bridge ran Cline's own hook"
    );
    let claude = json!({"session_id": "s", "cwd": env.path().join("proj"), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let run = env.run_with_stdin(&["bridge", "claude"], &claude.to_string());
    assert!(run.stdout.contains("cline file guard"), "{run:?}");
    assert!(env.path().join("home/ran").exists());
}

/// `$CLINE_DIR` moves Cline's home: its `hooks/PreToolUse` is a Cline hook file the
/// engine runs (it is not one when `CLINE_DIR` is unset, and `~/.cline/hooks/` is not
/// searched when it is set), `hooks bridge cline` leaves it to Cline, and Cline's
/// `hooksEnabled` switch is read from its `data/globalState.json`.
#[test]
fn cline_dir_moves_clines_hooks_directory() {
    use std::os::unix::fs::PermissionsExt;
    let env = env_with("hooks: []\n");
    let guard = |env: &Env, rel: &str, message: &str| {
        let hook = env.write(
            rel,
            &format!("#!/bin/sh\ntouch \"$HOME/ran\"\necho '{{\"cancel\": true, \"errorMessage\": \"{message}\"}}'\n"),
        );
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    guard(&env, "cline-home/hooks/PreToolUse", "cline dir guard");
    guard(&env, "home/.cline/hooks/PreToolUse", "default home guard");
    let cline_dir = env.path().join("cline-home");
    let payload = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}).to_string();
    let run = |args: &[&str], stdin: &str, dir: Option<&std::path::Path>| {
        let mut cmd = env.command();
        if let Some(dir) = dir {
            cmd.env("CLINE_DIR", dir);
        }
        env.finish(cmd.args(args).write_stdin(stdin))
    };
    let moved = run(
        &["run", "PreToolUse", "-p", "-"],
        &payload,
        Some(&cline_dir),
    );
    assert_eq!(moved.code, 2, "{moved:?}");
    assert!(
        moved.stdout.contains("reason: cline dir guard"),
        "{moved:?}"
    );
    assert!(!moved.stdout.contains("home/.cline/hooks"), "{moved:?}");
    let default = run(&["run", "PreToolUse", "-p", "-"], &payload, None);
    assert!(
        default.stdout.contains("reason: default home guard"),
        "{default:?}"
    );
    assert!(!default.stdout.contains("cline-home"), "{default:?}");
    let list = run(&["list", "--json"], "", Some(&cline_dir));
    assert!(
        list.stdout.contains("cline-home/hooks/PreToolUse") && list.stdout.contains("\"cline\""),
        "{list:?}"
    );
    std::fs::remove_file(env.path().join("home/ran")).unwrap();
    let bridge = run(
        &["bridge", "cline"],
        &extension(&env, "PreToolUse", "preToolUse", exec("ls")),
        Some(&cline_dir),
    );
    assert_eq!(
        (bridge.code, bridge.json()),
        (0, json!({"cancel": false})),
        "{bridge:?}"
    );
    assert!(
        !env.path().join("home/ran").exists(),
        "the bridge ran Cline's own hook"
    );
    // Through a link to Cline's home too.
    let link = env.path().join("cline-link");
    std::os::unix::fs::symlink(&cline_dir, &link).unwrap();
    let linked = run(
        &["bridge", "cline"],
        &extension(&env, "PreToolUse", "preToolUse", exec("ls")),
        Some(&link),
    );
    assert_eq!(linked.json(), json!({"cancel": false}), "{linked:?}");
    assert!(
        !env.path().join("home/ran").exists(),
        "the bridge ran Cline's own hook through a linked CLINE_DIR"
    );
    env.write(
        "cline-home/data/globalState.json",
        "{\"hooksEnabled\": false}\n",
    );
    let off = run(
        &["run", "PreToolUse", "-p", "-"],
        &payload,
        Some(&cline_dir),
    );
    assert_eq!(
        off.code, 0,
        "hooksEnabled false in $CLINE_DIR/data: {off:?}"
    );
}

/// `hooks run PreToolUse --from cline` takes Cline's own payload.
#[test]
fn hooks_run_reads_clines_payload() {
    let env = env_with(CONFIG);
    let payload = extension(&env, "PreToolUse", "preToolUse", exec("rm -r victim"));
    let run = env.run(&[
        "run",
        "PreToolUse",
        "--from",
        "cline",
        "--json",
        "-p",
        &payload,
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.json()["decision"], "block", "{run:?}");
    let payload = sdk_tool_call(&env, "ls");
    let run = env.run(&["run", "PreToolUse", "--from", "cline", "-p", &payload]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[cfg(unix)]
fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `hooks install cline` writes one executable script per event with a hook (0755) that
/// execs the bridge; installing twice changes nothing; the engine's discovery does not run
/// the scripts; the doctor shows them; uninstall removes exactly them.
#[test]
fn install_and_uninstall_cline() {
    let env = env_with(CONFIG);
    let run = env.run(&["install", "cline"]);
    assert_eq!(run.code, 0, "{run:?}");
    let dir = env.path().join("proj/.clinerules/hooks");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["PreToolUse", "UserPromptSubmit"]);
    let script = std::fs::read_to_string(dir.join("PreToolUse")).unwrap();
    assert!(script.starts_with("#!/bin/sh\n"), "{script}");
    assert!(
        script.trim_end().ends_with(&format!(
            "\nexec {}",
            crate::support::installed_command("cline")
        )),
        "{script}"
    );
    assert!(script.contains("\nexec "), "{script}");
    assert_eq!(mode(&dir.join("PreToolUse")), 0o755);
    let again = env.run(&["install", "cline"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout.contains("already installed"), "{again:?}");
    // The installed files are the engine itself: discovery gives no hook for them.
    assert_eq!(env.run(&["trust", ".clinerules/hooks/PreToolUse"]).code, 0);
    let list = env.run(&["list"]);
    assert!(list.stdout.contains("guard"), "{}", list.stdout);
    assert!(
        list.stdout
            .contains(".clinerules/hooks/PreToolUse (cline, project, 0 hooks)"),
        "{}",
        list.stdout
    );
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains("PreToolUse: calls this binary; runs guard, npm-to-bun, read-guard"),
        "{}",
        doctor.stdout
    );
    assert!(
        doctor.stdout.contains("2 bridge files, 0 other hooks"),
        "{}",
        doctor.stdout
    );
    let run = env.run(&["uninstall", "cline"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("removed PreToolUse, UserPromptSubmit"),
        "{run:?}"
    );
    assert!(!dir.exists(), "uninstall left {}", dir.display());
}

/// A hook file of the user's with an event's name is never replaced: install refuses,
/// naming it, and writes nothing. A bridge file changed since install is left by uninstall,
/// which says so, as are the user's files.
#[test]
fn install_never_replaces_a_users_hook_file() {
    let env = env_with(CONFIG);
    let theirs = env.write(
        "proj/.clinerules/hooks/UserPromptSubmit",
        "#!/bin/sh\necho mine\n",
    );
    let run = env.run(&["install", "cline"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("UserPromptSubmit"), "{run:?}");
    assert!(run.stderr.contains("Nothing was written"), "{run:?}");
    assert!(
        !env.path()
            .join("proj/.clinerules/hooks/PreToolUse")
            .exists()
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    std::fs::remove_file(&theirs).unwrap();
    let run = env.run(&["install", "cline", "--all-events"]);
    assert_eq!(run.code, 0, "{run:?}");
    let task_start = env.path().join("proj/.clinerules/hooks/TaskStart");
    let mut edited = std::fs::read_to_string(&task_start).unwrap();
    edited.push_str("# mine now\n");
    std::fs::write(&task_start, &edited).unwrap();
    env.write("proj/.clinerules/hooks/notes.txt", "keep me\n");
    let run = env.run(&["uninstall", "cline"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("left TaskStart (changed since"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("not the bridge's: notes.txt"),
        "{run:?}"
    );
    assert_eq!(std::fs::read_to_string(&task_start).unwrap(), edited);
    assert!(
        !env.path()
            .join("proj/.clinerules/hooks/PreToolUse")
            .exists()
    );
    assert_eq!(env.run(&["install", "cline", "--migrate"]).code, 1);
}

/// A user who switched Cline's hooks off (`hooksEnabled: false` in Cline's
/// `globalState.json`) does not get them run by the engine's discovery of Cline's hook
/// files; with the switch on (or no such file) they run.
#[test]
fn clines_hooks_enabled_switch_is_honoured() {
    let env = env_with("hooks: []\n");
    let hook = env.write(
        "home/Documents/Cline/Hooks/PreToolUse",
        "#!/bin/sh\necho '{\"cancel\": true, \"errorMessage\": \"cline file guard\"}'\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let payload = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}).to_string();
    let run = |env: &Env| env.run(&["run", "PreToolUse", "-p", &payload]).code;
    assert_eq!(run(&env), 2, "Cline's hook file should run");
    env.write(
        "home/.cline/data/globalState.json",
        "{\"hooksEnabled\": true}\n",
    );
    assert_eq!(run(&env), 2, "hooksEnabled true");
    env.write(
        "home/.cline/data/globalState.json",
        "{\"mode\": \"act\", \"hooksEnabled\": false}\n",
    );
    assert_eq!(run(&env), 0, "hooksEnabled false: Cline's hook file ran");
    let validate = env.run(&["validate"]);
    assert!(
        validate.stdout.contains("Cline's hooks are switched off")
            || validate.stderr.contains("Cline's hooks are switched off"),
        "{validate:?}"
    );
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("Cline's hooks are switched off"),
        "{}",
        doctor.stdout
    );
    // `$CLINE_DATA_DIR` names Cline's data directory.
    let data = env.path().join("cline-data");
    env.write("cline-data/globalState.json", "{\"hooksEnabled\": true}\n");
    let code = env
        .finish(env.command().env("CLINE_DATA_DIR", &data).args([
            "run",
            "PreToolUse",
            "-p",
            &payload,
        ]))
        .code;
    assert_eq!(code, 2, "CLINE_DATA_DIR's switch is on");
}
