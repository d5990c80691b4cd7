//! Codex's user layer where Codex keeps it: `$CODEX_HOME` (here outside the home
//! directory), not only `~/.codex`. Its `hooks.json` and `config.toml` are discovered
//! there (in Codex's dialect), and `hooks bridge codex` leaves their hooks to Codex, which
//! runs them itself, while another agent's bridge runs them.

use serde_json::{Value, json};

use crate::support::{Env, Run};

/// A Codex guard that refuses every shell command, leaving a mark when it runs.
const CODEX_HOOKS: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "touch \"$MARK\"; echo 'codex home guard' >&2; exit 2", "timeout": 5}]}]}}"#;

fn env() -> Env {
    let env = Env::in_project();
    env.write("codex/hooks.json", CODEX_HOOKS);
    env.write(
        "codex/config.toml",
        "# Codex's config\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\n",
    );
    env
}

/// `hooks ARGS` with `CODEX_HOME` set to the environment's `codex/`.
fn run(env: &Env, args: &[&str], stdin: &str) -> Run {
    env.finish(
        env.command()
            .env("CODEX_HOME", env.path().join("codex"))
            .env("MARK", env.path().join("ran"))
            .args(args)
            .write_stdin(stdin),
    )
}

#[test]
fn codex_home_files_are_discovered() {
    let env = env();
    let list = run(&env, &["list", "--json"], "");
    assert_eq!(list.code, 0, "{}", list.stderr);
    let hooks = list.json();
    let text = hooks.to_string();
    assert!(text.contains("codex/hooks.json"), "{hooks:#}");
    assert!(text.contains("codex/config.toml"), "{hooks:#}");
    assert!(text.contains("codex home guard"), "{hooks:#}");
}

#[test]
fn the_codex_bridge_leaves_codex_home_hooks_to_codex() {
    let env = env();
    let payload = |event: &str, tool: &str| {
        json!({"session_id": "s", "cwd": env.path().join("proj").display().to_string(),
            "hook_event_name": event, "tool_name": tool, "tool_input": {"command": "ls"}})
        .to_string()
    };
    let codex = run(&env, &["bridge", "codex"], &payload("PreToolUse", "Bash"));
    assert_eq!((codex.code, codex.stdout.as_str()), (0, ""), "{codex:?}");
    assert!(
        !env.path().join("ran").exists(),
        "the bridge ran Codex's own hook"
    );
    let claude = run(&env, &["bridge", "claude"], &payload("PreToolUse", "Bash"));
    assert_eq!(
        claude.json()["hookSpecificOutput"]["permissionDecisionReason"],
        Value::from("codex home guard"),
        "{claude:?}"
    );
    assert!(env.path().join("ran").exists());
}

/// A Codex plugin installed in Codex's cache (`plugins/cache/<marketplace>/<plugin>/
/// <version>/hooks/hooks.json`) reads as Codex's, and its hooks get the plugin's root and
/// data directory (`plugins/data/<marketplace>/<plugin>`) as Codex gives them:
/// `PLUGIN_ROOT`, `PLUGIN_DATA` and their `CLAUDE_` names, `${PLUGIN_ROOT}` in the command.
#[test]
fn codex_plugin_hooks_get_their_root_and_data() {
    use std::os::unix::fs::PermissionsExt;
    let env = env();
    let root = env.path().join("codex/plugins/cache/acme/tool/1.0.0");
    let script = env.write(
        "codex/plugins/cache/acme/tool/1.0.0/hooks/record.sh",
        "#!/bin/sh\nprintf '%s\\n%s\\n%s\\n%s\\n' \"$PLUGIN_ROOT\" \"$PLUGIN_DATA\" \"$CLAUDE_PLUGIN_ROOT\" \"$CLAUDE_PLUGIN_DATA\" > \"$MARK\"\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = env.write(
        "codex/plugins/cache/acme/tool/1.0.0/hooks/hooks.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/hooks/record.sh"}]}]}}"#,
    );
    let file = file.display().to_string();
    let run = run(
        &env,
        &["run", "SessionStart", "-c", &file, "-p", "-"],
        r#"{"source": "startup"}"#,
    );
    assert_eq!(run.code, 0, "{run:?}");
    let got = std::fs::read_to_string(env.path().join("ran"))
        .unwrap_or_else(|e| panic!("the plugin hook did not run ({e}): {run:?}"));
    let data = env.path().join("codex/plugins/data/acme/tool");
    let (root, data) = (root.display().to_string(), data.display().to_string());
    assert_eq!(
        got.lines().collect::<Vec<_>>(),
        [root.as_str(), data.as_str(), root.as_str(), data.as_str()]
    );
}

/// Installs `<plugin>@acme` 1.0.0 in `$CODEX_HOME`'s plugin cache, with a manifest and a
/// SessionStart hook that records the plugin's variables in `$MARK.<plugin>`.
fn install_plugin(env: &Env, plugin: &str) {
    use std::os::unix::fs::PermissionsExt;
    let root = format!("codex/plugins/cache/acme/{plugin}/1.0.0");
    env.write(
        &format!("{root}/.codex-plugin/plugin.json"),
        &format!(r#"{{"name": "{plugin}", "version": "1.0.0"}}"#),
    );
    let script = env.write(
        &format!("{root}/hooks/record.sh"),
        "#!/bin/sh\nprintf '%s\\n%s\\n' \"$PLUGIN_ROOT\" \"$PLUGIN_DATA\" > \"$MARK.$1\"\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    env.write(
        &format!("{root}/hooks/hooks.json"),
        &format!(
            r#"{{"hooks": {{"SessionStart": [{{"hooks": [{{"type": "command", "command": "${{PLUGIN_ROOT}}/hooks/record.sh {plugin}"}}]}}]}}}}"#
        ),
    );
}

/// The hooks of the plugins Codex's `config.toml` enables are discovered (no `-c`) and run
/// with their plugin's variables; a plugin switched off there, or installed but not
/// listed, is not run. `hooks bridge codex` leaves them to Codex; another agent's bridge
/// runs them.
#[test]
fn enabled_codex_plugins_hooks_are_discovered() {
    let env = env();
    env.write(
        "codex/config.toml",
        "[plugins.\"tool@acme\"]\nenabled = true\n[plugins.\"off@acme\"]\nenabled = false\n",
    );
    for plugin in ["tool", "off", "unlisted"] {
        install_plugin(&env, plugin);
    }
    let mark = |plugin: &str| env.path().join(format!("ran.{plugin}"));
    let run_start = run(
        &env,
        &["run", "SessionStart", "-p", "-"],
        r#"{"source": "startup"}"#,
    );
    assert_eq!(run_start.code, 0, "{run_start:?}");
    let got = std::fs::read_to_string(mark("tool"))
        .unwrap_or_else(|e| panic!("the enabled plugin's hook did not run ({e}): {run_start:?}"));
    let root = env.path().join("codex/plugins/cache/acme/tool/1.0.0");
    let data = env.path().join("codex/plugins/data/acme/tool");
    assert_eq!(
        got.lines().collect::<Vec<_>>(),
        [root.display().to_string(), data.display().to_string()]
    );
    assert!(!mark("off").exists(), "a disabled plugin's hook ran");
    assert!(!mark("unlisted").exists(), "an unlisted plugin's hook ran");
    std::fs::remove_file(mark("tool")).unwrap();
    let payload = json!({"session_id": "s", "cwd": env.path().join("proj").display().to_string(),
        "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    let codex = run(&env, &["bridge", "codex"], &payload);
    assert_eq!(codex.code, 0, "{codex:?}");
    assert!(
        !mark("tool").exists(),
        "the Codex bridge ran Codex's own plugin hook"
    );
    let claude = run(&env, &["bridge", "claude"], &payload);
    assert_eq!(claude.code, 0, "{claude:?}");
    assert!(mark("tool").exists(), "{claude:?}");
}

/// A `$CODEX_HOME` that is a symbolic link: discovery reads its files where the link
/// leads, and they are still told as Codex's (the bridge leaves them to Codex).
#[test]
fn a_linked_codex_home_is_still_codexs() {
    let env = env();
    let link = env.path().join("codex-link");
    std::os::unix::fs::symlink(env.path().join("codex"), &link).unwrap();
    let payload = json!({"session_id": "s", "cwd": env.path().join("proj").display().to_string(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}})
    .to_string();
    let codex = env.finish(
        env.command()
            .env("CODEX_HOME", &link)
            .env("MARK", env.path().join("ran"))
            .args(["bridge", "codex"])
            .write_stdin(payload.as_str()),
    );
    assert_eq!((codex.code, codex.stdout.as_str()), (0, ""), "{codex:?}");
    assert!(
        !env.path().join("ran").exists(),
        "the bridge ran Codex's own hook"
    );
}
