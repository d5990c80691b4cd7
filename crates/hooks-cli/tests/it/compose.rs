//! The engine in every agent at once: every agent's bridge installed at user and project
//! scope in one home, and each agent's pre-tool event through its bridge, under a process
//! cap (`cage`) and a time limit. The guard runs exactly once per event, the deny comes back
//! in that agent's own form, no fork is refused and nothing is left running. Then the
//! mechanisms one by one: a bridge path with spaces and shell metacharacters, a user's
//! script that calls `hooks bridge` itself (the nesting mark), two bridges called for one
//! event (folded into one dispatch, also when the first dies), and a bridge call with a bad
//! argument (a deny in every agent's form).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::cage::{Cage, run_within};
use crate::support::{Env, env_with, mkfifo};

/// The agents' bridges.
const AGENTS: [&str; 9] = [
    "claude", "cline", "codex", "cursor", "gemini", "opencode", "qwen", "droid", "copilot",
];

/// How long one caged bridge call may take before the test calls it hung.
const LIMIT: Duration = Duration::from_secs(20);

/// A user config whose guard counts its runs in `guard.log` and refuses `rm -r`.
fn guard_config(env: &Env) -> String {
    format!(
        r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    on_failure: block
    command: |
      echo ran >> '{}'
      case "$(cat)" in *"rm -r"*) echo "refusing rm -r" >&2; exit 2;; esac
"#,
        env.path().join("guard.log").display()
    )
}

/// How many times the guard ran.
fn guard_runs(env: &Env) -> usize {
    std::fs::read_to_string(env.path().join("guard.log"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// `agent`'s own pre-tool event for `rm -r victim`, in session `session`.
fn pre_tool(env: &Env, agent: &str, session: &str) -> String {
    let root = env.path().join("proj").display().to_string();
    let shell = |event: &str, tool: &str| {
        json!({"session_id": session, "transcript_path": "/dev/null", "cwd": root,
            "hook_event_name": event, "tool_name": tool,
            "tool_input": {"command": "rm -r victim"}, "tool_use_id": format!("{session}-t1")})
    };
    match agent {
        "claude" | "codex" => shell("PreToolUse", "Bash"),
        "qwen" => shell("PreToolUse", "run_shell_command"),
        "droid" => shell("PreToolUse", "Execute"),
        // Copilot's camelCase call: no event name (the bridge's command line gives it) and
        // no tool-use id, the event's time in milliseconds.
        "copilot" => json!({"sessionId": session, "timestamp": 1_796_592_517_162_u64,
            "cwd": root, "toolName": "bash", "toolArgs": {"command": "rm -r victim"}}),
        "gemini" => shell("BeforeTool", "run_shell_command"),
        "cursor" => json!({"conversation_id": session, "generation_id": "g-1",
            "workspace_roots": [root], "hook_event_name": "beforeShellExecution",
            "command": "rm -r victim", "cwd": root}),
        "cline" => json!({"clineVersion": "", "taskId": session, "workspaceRoots": [root],
            "hookName": "tool_call",
            "tool_call": {"id": "call_1", "name": "run_commands",
                "input": {"commands": ["rm -r victim"]}},
            "preToolUse": {"toolName": "run_commands",
                "parameters": {"commands": "[\"rm -r victim\"]"}}}),
        // What the bridge's OpenCode plugin writes for OpenCode's `bash`.
        "opencode" => json!({"hook_event_name": "tool.execute.before", "session_id": session,
            "cwd": root, "tool_name": "bash", "tool_input": {"command": "rm -r victim"},
            "tool_use_id": format!("{session}-t1")}),
        other => panic!("no payload for {other}"),
    }
    .to_string()
}

/// The bridge's command line for `agent`'s pre-tool event, as its install writes it
/// (Copilot's names the camelCase event, which its stdin does not).
fn bridge_args(agent: &str) -> Vec<&str> {
    match agent {
        "copilot" => vec!["bridge", agent, "preToolUse"],
        _ => vec!["bridge", agent],
    }
}

/// Whether `agent`'s answer (exit code, stdout) is a deny in its own protocol.
#[track_caller]
fn assert_denied(agent: &str, code: Option<i32>, stdout: &str, stderr: &str) {
    let json = || -> Value {
        serde_json::from_str(stdout)
            .unwrap_or_else(|e| panic!("{agent}: stdout is not JSON ({e}): {stdout:?}\n{stderr}"))
    };
    match agent {
        "claude" | "qwen" | "droid" => assert_eq!(
            json()["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "{stderr}"
        ),
        "codex" => assert_eq!(code, Some(2), "{stdout}\n{stderr}"),
        "gemini" => assert_eq!(json()["decision"], "deny", "{stderr}"),
        "cursor" => assert_eq!(json()["permission"], "deny", "{stderr}"),
        "cline" => assert_eq!(json()["cancel"], true, "{stderr}"),
        "opencode" => assert_eq!(json()["decision"], "deny", "{stderr}"),
        "copilot" => assert_eq!(json()["permissionDecision"], "deny", "{stderr}"),
        other => panic!("no deny form for {other}"),
    }
    if agent != "codex" {
        assert_eq!(code, Some(0), "{agent}: {stdout}\n{stderr}");
    }
}

/// Whether a finished bridge's output is a deny in `agent`'s protocol.
#[track_caller]
fn denied_output(agent: &str, out: &std::process::Output) {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert_denied(
        agent,
        out.status.code(),
        &text(&out.stdout),
        &text(&out.stderr),
    );
}

/// Runs `hooks ARGS` in `cage` with `stdin`, in `env`, within [`LIMIT`].
fn caged(
    env: &Env,
    cage: &Cage,
    binary: &Path,
    args: &[&str],
    stdin: &str,
) -> (Option<i32>, String, String, Duration) {
    let mut cmd = cage.command(binary, args);
    env.isolate(&mut cmd);
    run_within(&mut cmd, stdin, LIMIT)
}

/// The test's `hooks` binary.
fn hooks_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("hooks")
}

/// Installs every agent's bridge at user and project scope, with the binary at `binary`.
// The test starts the binary at its other path itself, as a real child process.
#[allow(clippy::disallowed_methods)]
fn install_everywhere(env: &Env, binary: &Path) {
    for agent in AGENTS {
        for scope in ["user", "project"] {
            let mut cmd = std::process::Command::new(binary);
            env.isolate(&mut cmd);
            let out = cmd
                .args(["install", agent, "--scope", scope])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "install {agent} --scope {scope}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Every agent's pre-tool event through its bridge, with every bridge installed: the guard
/// ran once, the deny is the agent's, no fork was refused, nothing is left running.
#[track_caller]
fn every_agent_denies_once(env: &Env, binary: &Path) {
    every_agent_denies_once_through(env, binary, "bridge", "s");
}

/// The same through `program`: `hooks` with `first` = `"bridge"`, or the hook command
/// `hooks-bridge` with `first` empty; the sessions' names start with `sessions`.
#[track_caller]
fn every_agent_denies_once_through(env: &Env, program: &Path, first: &str, sessions: &str) {
    let before = guard_runs(env);
    for (n, agent) in AGENTS.into_iter().enumerate() {
        let cage = Cage::new(64);
        let session = format!("{sessions}-{agent}");
        let mut args = bridge_args(agent);
        if first.is_empty() {
            args.remove(0);
        }
        let (code, stdout, stderr, took) =
            caged(env, &cage, program, &args, &pre_tool(env, agent, &session));
        assert!(took < LIMIT, "{agent}: no answer within {LIMIT:?}");
        assert_denied(agent, code, &stdout, &stderr);
        assert_eq!(
            guard_runs(env),
            before + n + 1,
            "{agent}: the guard ran other than once"
        );
        assert_eq!(cage.refused().unwrap_or(0), 0, "{agent}: forks refused");
        let left = cage.left_running(Duration::from_secs(10));
        assert!(left.is_empty(), "{agent}: left running: {left:?}");
    }
}

#[test]
fn every_agent_installed_everywhere_runs_the_guard_once() {
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    install_everywhere(&env, &hooks_bin());
    every_agent_denies_once(&env, &hooks_bin());
    // What the installs wrote: the hook command beside `hooks`, which runs `hooks bridge`
    // (no daemon serves this home); through each client it may be (cargo's, the
    // packages').
    let settings = std::fs::read_to_string(env.path().join("home/.claude/settings.json")).unwrap();
    assert!(settings.contains("hooks-bridge"), "{settings}");
    for (n, client) in crate::support::clients().iter().enumerate() {
        every_agent_denies_once_through(&env, client, "", &format!("c{n}"));
    }
    // `hooks list` shows the other agents' entries as what they are.
    let hooks = list_hooks(&env);
    let bridges: Vec<&Value> = hooks.iter().filter(|h| h["state"] == "bridge").collect();
    assert!(bridges.len() >= 7, "{hooks:?}");
    assert!(
        bridges
            .iter()
            .any(|h| h["reason"] == "the bridge of Gemini CLI: runs these same hooks"),
        "{hooks:?}"
    );
    assert_eq!(
        hooks.iter().filter(|h| h["state"] == "enabled").count(),
        1,
        "{hooks:?}"
    );
    // `hooks doctor` counts them as the other agents' bridges, which run these same hooks.
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains(
            "bridge entries of Codex, Cursor, Factory Droid, Gemini CLI, GitHub Copilot CLI, Qwen Code: not run, they run these same hooks"
        ),
        "{}",
        doctor.stdout
    );
}

/// Every hook `hooks list --json` shows, of every event.
fn list_hooks(env: &Env) -> Vec<Value> {
    let list = env.run(&["list", "--json"]);
    list.json()["events"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", list.stdout))
        .iter()
        .flat_map(|e| e["hooks"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// The binary installed from a directory whose name has spaces and shell metacharacters:
/// the entries the install writes are still recognised, and a hand-written entry calling
/// it through a symlink of another name too.
/// With every bridge installed and the resident engine serving the home, every agent's
/// pre-tool event through each client the hook command may be: the daemon answers every
/// call, the guard runs once per event (in the daemon's worker), the deny is the agent's,
/// and no client call forks past its cap.
#[test]
// The test starts the daemon itself, as a real child process.
#[allow(clippy::disallowed_methods)]
fn every_agent_through_the_daemon_runs_the_guard_once() {
    use std::io::BufRead as _;
    use std::os::unix::fs::PermissionsExt as _;
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    install_everywhere(&env, &hooks_bin());
    let runtime = env.path().join("run");
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    let served = || {
        let mut cmd = std::process::Command::new(hooks_bin());
        env.isolate(&mut cmd);
        let (_, stdout, _, _) = run_within(
            cmd.args(["daemon", "status", "--json"])
                .env("XDG_RUNTIME_DIR", &runtime),
            "",
            LIMIT,
        );
        serde_json::from_str::<Value>(&stdout).unwrap_or_default()["served"]
            .as_u64()
            .unwrap_or(0)
    };
    let mut cmd = std::process::Command::new(hooks_bin());
    env.isolate(&mut cmd);
    /// Ends the daemon when the test ends, passed or not.
    struct Daemon(std::process::Child);
    impl Drop for Daemon {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut daemon = Daemon(
        cmd.args(["daemon", "run"])
            .env("XDG_RUNTIME_DIR", &runtime)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufReader::new(daemon.0.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving"), "the daemon did not start: {line}");
    let before = guard_runs(&env);
    let mut calls = 0;
    for (n, client) in crate::support::clients().iter().enumerate() {
        for agent in AGENTS {
            let cage = Cage::new(64);
            let mut args = bridge_args(agent);
            args.remove(0);
            let mut cmd = cage.command(client, &args);
            env.isolate(&mut cmd);
            cmd.env("XDG_RUNTIME_DIR", &runtime);
            let stdin = pre_tool(&env, agent, &format!("d{n}-{agent}"));
            let (code, stdout, stderr, took) = run_within(&mut cmd, &stdin, LIMIT);
            assert!(took < LIMIT, "{agent}: no answer within {LIMIT:?}");
            assert_denied(agent, code, &stdout, &stderr);
            calls += 1;
            assert_eq!(
                guard_runs(&env),
                before + calls,
                "{agent} ({}): the guard ran other than once",
                client.display()
            );
            assert_eq!(cage.refused().unwrap_or(0), 0, "{agent}: forks refused");
        }
    }
    let answered = served();
    drop(daemon);
    // Every call was the daemon's (relayed to a worker, or taken on a worker's own
    // socket), none answered by a bridge alone.
    assert_eq!(answered, calls as u64, "calls the daemon did not answer");
}

#[test]
fn a_bridge_path_with_spaces_and_metacharacters() {
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    let dir = env.path().join("my tools; $(touch pwned) & 'q'");
    std::fs::create_dir_all(&dir).unwrap();
    let binary = dir.join("hooks");
    if std::fs::hard_link(hooks_bin(), &binary).is_err() {
        std::fs::copy(hooks_bin(), &binary).unwrap();
    }
    install_everywhere(&env, &binary);
    let link = dir.join("agent hooks");
    std::os::unix::fs::symlink(&binary, &link).unwrap();
    let settings = env.path().join("home/.claude/settings.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    value["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"hooks": [{"type": "command", "command": format!("'{}' bridge claude", link.display().to_string().replace('\'', "'\\''"))}]}));
    std::fs::write(&settings, value.to_string()).unwrap();
    every_agent_denies_once(&env, &binary);
    assert!(!env.path().join("proj/pwned").exists());
    assert!(!env.path().join("pwned").exists());
    let via_link = list_hooks(&env)
        .iter()
        .find(|h| {
            h["action"]
                .as_str()
                .is_some_and(|c| c.contains("agent hooks"))
        })
        .cloned()
        .unwrap_or_else(|| panic!("{:?}", list_hooks(&env)));
    assert_eq!(via_link["state"], "bridge", "{via_link}");
}

/// A user's own script that calls `hooks bridge` among other work is not recognised as a
/// bridge entry: it runs as a hook, and the bridge it starts sees the nesting mark and
/// answers "proceed" without dispatching (said in the audit log).
#[test]
fn a_users_script_that_calls_the_bridge_does_not_recurse() {
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    let script = env.write(
        "home/bin/audit-and-bridge.sh",
        &format!(
            "#!/bin/sh\necho script >> '{}'\n'{}' bridge claude\n",
            env.path().join("script.log").display(),
            hooks_bin().display()
        ),
    );
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("sh '{}'", script.display())}]}]}});
    env.write("home/.claude/settings.json", &settings.to_string());
    for agent in ["gemini", "codex", "cursor"] {
        let cage = Cage::new(64);
        let before = guard_runs(&env);
        let (code, stdout, stderr, took) = caged(
            &env,
            &cage,
            &hooks_bin(),
            &["bridge", agent],
            &pre_tool(&env, agent, &format!("u-{agent}")),
        );
        assert!(took < LIMIT, "{agent}: no answer within {LIMIT:?}");
        assert_denied(agent, code, &stdout, &stderr);
        assert_eq!(guard_runs(&env), before + 1, "{agent}");
        assert_eq!(cage.refused().unwrap_or(0), 0, "{agent}: forks refused");
        assert!(cage.left_running(Duration::from_secs(10)).is_empty());
    }
    let ran = std::fs::read_to_string(env.path().join("script.log")).unwrap();
    assert_eq!(
        ran.lines().count(),
        3,
        "the user's script runs once per event"
    );
    let audit =
        std::fs::read_to_string(env.path().join("home/.local/state/hooks/audit.jsonl")).unwrap();
    let nested: Vec<&str> = audit
        .lines()
        .filter(|l| l.contains("\"status\":\"not_dispatched\"") && l.contains("HOOKS_DEPTH=1"))
        .collect();
    assert_eq!(nested.len(), 3, "{audit}");
}

/// `hooks run` started by a hook of the engine does not dispatch again: a hook that calls
/// `hooks run` on its own event ends, and the guard runs once.
#[test]
fn hooks_run_inside_a_hook_does_not_dispatch() {
    let env = Env::in_project();
    let config = format!(
        "{}  - id: again\n    event: PreToolUse\n    command: |\n      '{}' run PreToolUse -p '{{\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"rm -r victim\"}}}}' --json > '{}'\n",
        guard_config(&env),
        hooks_bin().display(),
        env.path().join("inner.json").display()
    );
    env.write("home/.config/hooks/hooks.yaml", &config);
    let cage = Cage::new(64);
    let (code, stdout, stderr, _) = caged(
        &env,
        &cage,
        &hooks_bin(),
        &[
            "run",
            "PreToolUse",
            "-p",
            &pre_tool(&env, "claude", "r-1"),
            "--json",
        ],
        "",
    );
    assert_eq!(code, Some(2), "{stdout}\n{stderr}");
    assert_eq!(guard_runs(&env), 1);
    let inner: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path().join("inner.json")).unwrap())
            .unwrap();
    assert_eq!(inner["decision"], "none", "{inner}");
    assert_eq!(inner["notes"][0]["kind"], "nested", "{inner}");
    assert_eq!(cage.refused().unwrap_or(0), 0);
}

/// A guard that holds the event until the test lets it go: it writes its process group to
/// `started` (a FIFO) and waits on `release` (another).
fn held_guard(env: &Env) -> String {
    mkfifo(env, "started");
    mkfifo(env, "release");
    format!(
        r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    on_failure: block
    timeout: 60
    command: |
      echo ran >> '{log}'
      echo $$ > '{started}'
      cat '{release}' > /dev/null
      case "$(cat)" in *"rm -r"*) echo "refusing rm -r" >&2; exit 2;; esac
"#,
        log = env.path().join("guard.log").display(),
        started = env.path().join("started").display(),
        release = env.path().join("release").display(),
    )
}

/// Reads what the held guard wrote to `started` (its pid), within [`LIMIT`].
fn wait_started(env: &Env) -> i32 {
    let path = env.path().join("started");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read_to_string(path).unwrap_or_default());
    });
    let text = rx.recv_timeout(LIMIT).expect("the guard did not start");
    text.trim().parse().expect("a pid")
}

/// Lets the held guard go on.
fn release(env: &Env) {
    std::fs::write(env.path().join("release"), "go\n").unwrap();
}

/// Lets the held guard go on, and checks that the Claude Code bridge `child` then denied.
#[track_caller]
fn released_and_denied(env: &Env, child: std::process::Child) {
    release(env);
    denied_output("claude", &child.wait_with_output().unwrap());
}

/// Waits until process `pid` has the claim directory's file open (it waits for the first
/// call's lock), within [`LIMIT`].
fn wait_claiming(env: &Env, pid: u32) {
    let claims = env.path().join("home/.local/state/hooks/claims");
    let deadline = Instant::now() + LIMIT;
    loop {
        let open = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .map(|fds| {
                fds.flatten().any(|fd| {
                    std::fs::read_link(fd.path()).is_ok_and(|target| target.starts_with(&claims))
                })
            })
            .unwrap_or(false);
        if open {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the second call never claimed the event"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Starts `hooks bridge AGENT` with `stdin`, its output piped.
fn start_bridge(env: &Env, agent: &str, stdin: &str) -> std::process::Child {
    use std::io::Write;
    let mut child = env
        .std_command()
        .args(["bridge", agent])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child
}

/// Two bridges called at once for the same event (the agent runs both entries) run the
/// hooks once: the second waits for the first and answers with its decision, each in its
/// own agent's protocol.
#[test]
fn two_bridges_for_one_event_run_the_hooks_once() {
    let env = env_with("");
    env.write("home/.config/hooks/hooks.yaml", &held_guard(&env));
    let stdin = pre_tool(&env, "claude", "fold-1");
    let first = start_bridge(&env, "claude", &stdin);
    wait_started(&env);
    let second = start_bridge(&env, "codex", &stdin);
    wait_claiming(&env, second.id());
    release(&env);
    let first = first.wait_with_output().unwrap();
    let second = second.wait_with_output().unwrap();
    denied_output("claude", &first);
    denied_output("codex", &second);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("refusing rm -r"), "{stderr}");
    assert_eq!(guard_runs(&env), 1);
    // A later call of another event (another tool-use id) runs the hooks again.
    let other = pre_tool(&env, "claude", "fold-2");
    let third = start_bridge(&env, "claude", &other);
    wait_started(&env);
    released_and_denied(&env, third);
    assert_eq!(guard_runs(&env), 2);
}

/// Cursor also runs Claude Code's settings: its event through Claude Code's bridge entry
/// (told by its `cursor_version`) is read as Cursor's (its `Shell` tool is `Bash`) and
/// answered in Cursor's form, and the same event through Cursor's own entry (the same
/// tool-use id) is answered with that decision, the guard having run once.
#[test]
fn cursors_call_through_claude_codes_entry_is_cursors_and_runs_once() {
    let env = env_with("");
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    let root = env.path().join("proj").display().to_string();
    let event = json!({"conversation_id": "c-1", "generation_id": "g-1", "cursor_version": "2.1.0",
        "workspace_roots": [root], "hook_event_name": "preToolUse", "tool_name": "Shell",
        "tool_input": {"command": "rm -r victim"}, "tool_use_id": "tu-1", "cwd": root})
    .to_string();
    for agent in ["claude", "cursor"] {
        let run = env.run_with_stdin(&["bridge", agent], &event);
        assert_denied("cursor", Some(run.code), &run.stdout, &run.stderr);
    }
    assert_eq!(guard_runs(&env), 1);
}

/// GitHub Copilot CLI calls its own bridge entry with its camelCase event (the event named
/// on the line) and Claude Code's with the PascalCase one (`COPILOT_CLI=1`), one after the
/// other, with the same time of the event and no tool-use id: the hooks run once, each
/// call answered in its own form.
#[test]
fn copilots_two_calls_of_one_event_run_the_hooks_once() {
    let env = env_with("");
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    let root = env.path().join("proj").display().to_string();
    let camel = json!({"sessionId": "cp-1", "timestamp": 1_796_609_036_951_i64, "cwd": root,
        "toolName": "bash", "toolArgs": {"command": "ls"}});
    let pascal = json!({"hook_event_name": "PreToolUse", "session_id": "cp-1",
        "timestamp": "2026-12-07T02:03:56.951Z", "cwd": root, "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    let call = |args: &[&str], stdin: &Value| {
        let out = env
            .std_command()
            .args(args)
            .env("COPILOT_CLI", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(stdin.to_string().as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(call(&["bridge", "copilot", "preToolUse"], &camel), "");
    assert_eq!(call(&["bridge", "claude"], &pascal), "");
    assert_eq!(guard_runs(&env), 1);
    // Another event (another time) runs them again; a deny comes in each call's form.
    let deny = |v: &Value, at: Value| {
        let mut v = v.clone();
        v["timestamp"] = at;
        let input = if v.get("toolArgs").is_some() {
            "toolArgs"
        } else {
            "tool_input"
        };
        v[input]["command"] = json!("rm -r victim");
        v
    };
    let camel_out = call(
        &["bridge", "copilot", "preToolUse"],
        &deny(&camel, json!(1_796_609_040_000_i64)),
    );
    let pascal_out = call(
        &["bridge", "claude"],
        &deny(&pascal, json!("2026-12-07T02:04:00.000Z")),
    );
    assert_eq!(guard_runs(&env), 2);
    let camel_out: Value = serde_json::from_str(&camel_out).unwrap();
    assert_eq!(camel_out["permissionDecision"], "deny", "{camel_out}");
    assert_eq!(camel_out["permissionDecisionReason"], "refusing rm -r");
    let pascal_out: Value = serde_json::from_str(&pascal_out).unwrap();
    assert_eq!(
        pascal_out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{pascal_out}"
    );
}

/// A first call that dies while it holds the event does not wedge the second: the lock
/// goes with it, and the second runs the hooks itself.
#[test]
fn a_first_call_that_dies_does_not_wedge_the_second() {
    let env = env_with("");
    env.write("home/.config/hooks/hooks.yaml", &held_guard(&env));
    let stdin = pre_tool(&env, "claude", "crash-1");
    let mut first = start_bridge(&env, "claude", &stdin);
    let guard = wait_started(&env);
    let second = start_bridge(&env, "claude", &stdin);
    wait_claiming(&env, second.id());
    first.kill().unwrap();
    first.wait().unwrap();
    // The first call's guard (in a process group of its own) goes too.
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_raw(guard).unwrap(),
        rustix::process::Signal::KILL,
    );
    wait_started(&env);
    released_and_denied(&env, second);
    assert_eq!(guard_runs(&env), 2);
}

/// A bridge call with a bad argument (a stale install, a renamed flag) denies the tool call
/// in every agent's protocol, and `HOOKS_BRIDGE_ON_ERROR=allow` lets it through.
#[test]
fn a_bad_argument_denies_in_every_agents_form() {
    let env = env_with("");
    for agent in AGENTS {
        let stdin = pre_tool(&env, agent, "bad-args");
        let run = env.run_with_stdin(&["bridge", agent, "--no-such-flag"], &stdin);
        let code = Some(run.code);
        if agent == "copilot" {
            // Its camelCase event is not known without the command line: exit 2, which
            // Copilot reads as a deny (without the reason).
            assert_eq!(code, Some(2), "{run:?}");
        } else {
            assert_denied(agent, code, &run.stdout, &run.stderr);
        }
        assert!(
            format!("{}{}", run.stdout, run.stderr).contains("--no-such-flag"),
            "{agent}: {run:?}"
        );
        // The same through the hook command the install writes (each client it may be),
        // under a process cap.
        for client in crate::support::clients() {
            let cage = Cage::new(16);
            let (code, stdout, stderr, took) =
                caged(&env, &cage, &client, &[agent, "--no-such-flag"], &stdin);
            assert!(took < LIMIT, "{agent}: no answer within {LIMIT:?}");
            if agent == "copilot" {
                assert_eq!(code, Some(2), "{stdout}\n{stderr}");
            } else {
                assert_denied(agent, code, &stdout, &stderr);
            }
            assert_eq!(cage.refused().unwrap_or(0), 0, "{agent}: forks refused");
        }
        let allowed = env.finish(
            env.command()
                .args(["bridge", agent, "--no-such-flag"])
                .env("HOOKS_BRIDGE_ON_ERROR", "allow")
                .write_stdin(stdin),
        );
        assert!(!allowed.stdout.contains("deny"), "{agent}: {allowed:?}");
        assert_eq!(allowed.code, 0, "{agent}: {allowed:?}");
    }
    // No agent named: Claude Code's protocol, whose exit 2 the others read as a deny too.
    let run = env.run_with_stdin(&["bridge"], &pre_tool(&env, "claude", "bad-args"));
    assert_denied("claude", Some(run.code), &run.stdout, &run.stderr);
    let run = env.run_with_stdin(&["bridge", "claude", "--no-such-flag"], "not json");
    assert_eq!(run.code, 2, "{run:?}");
}

/// 500 hooks on one event inside a cage of 128 processes: the engine's bounds (hooks of
/// one event at once, command hooks of the process at once) keep every fork within the
/// cap, and the one deny among them still counts.
#[test]
fn five_hundred_hooks_fit_a_cage_of_128() {
    let env = env_with("");
    let mut config = String::from("hooks:\n");
    for n in 0..500 {
        if n == 377 {
            config.push_str(&format!(
                "  - id: h{n}\n    event: PreToolUse\n    on_failure: block\n    command: echo 'refusing, hook {n}' >&2; exit 2\n"
            ));
        } else {
            config.push_str(&format!(
                "  - id: h{n}\n    event: PreToolUse\n    command: cat > /dev/null; exit 0 # {n}\n"
            ));
        }
    }
    env.write("home/.config/hooks/hooks.yaml", &config);
    let cage = Cage::new(128);
    let (code, stdout, stderr, took) = caged(
        &env,
        &cage,
        &hooks_bin(),
        &["bridge", "claude"],
        &pre_tool(&env, "claude", "many-1"),
    );
    assert!(took < LIMIT, "no answer within {LIMIT:?}");
    assert_denied("claude", code, &stdout, &stderr);
    assert!(stdout.contains("refusing, hook 377"), "{stdout}");
    assert_eq!(cage.refused().unwrap_or(0), 0, "forks refused");
    assert!(cage.left_running(Duration::from_secs(10)).is_empty());
}

/// An argument that is not UTF-8, to `hooks bridge` and to each client: a deny in Claude
/// Code's form (the agent's name is unreadable, so the call is refused), never a panic;
/// and `hooks` elsewhere says what it could not use, with no panic either.
#[test]
fn an_argument_that_is_not_utf8_is_refused_not_a_panic() {
    use std::os::unix::ffi::OsStrExt as _;
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", &guard_config(&env));
    let bad = std::ffi::OsStr::from_bytes(b"cl\xffaude");
    let stdin = pre_tool(&env, "claude", "not-utf8");
    let mut programs = vec![(hooks_bin(), vec![std::ffi::OsStr::new("bridge"), bad])];
    for client in crate::support::clients() {
        programs.push((client, vec![bad]));
    }
    for (program, args) in programs {
        let cage = Cage::new(16);
        let mut cmd = cage.command(&program, &[]);
        cmd.args(&args);
        env.isolate(&mut cmd);
        let (code, stdout, stderr, took) = run_within(&mut cmd, &stdin, LIMIT);
        assert!(took < LIMIT, "{}: no answer", program.display());
        assert!(
            !stderr.contains("panicked"),
            "{}: {stderr}",
            program.display()
        );
        assert_denied("claude", code, &stdout, &stderr);
    }
    let mut cmd = cage_free_hooks(&env);
    cmd.args([std::ffi::OsStr::new("validate"), bad]);
    let (code, _, stderr, _) = run_within(&mut cmd, "", LIMIT);
    assert_ne!(code, Some(0), "{stderr}");
    assert!(code.is_some(), "hung");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `hooks` in `env`, as a plain child process.
// The test starts the binary itself, as a real child process.
#[allow(clippy::disallowed_methods)]
fn cage_free_hooks(env: &Env) -> std::process::Command {
    let mut cmd = std::process::Command::new(hooks_bin());
    env.isolate(&mut cmd);
    cmd
}
