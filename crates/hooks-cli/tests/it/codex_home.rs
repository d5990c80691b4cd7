//! Codex's user layer where Codex keeps it: `$CODEX_HOME` (here outside the home
//! directory), not only `~/.codex`. Its `hooks.json` and `config.toml` are discovered
//! there (in Codex's dialect), and `hooks bridge codex` leaves their hooks to Codex, which
//! runs them itself, while another agent's bridge runs them.

use serde_json::{Value, json};

use crate::support::{Env, Run};

/// A Codex guard that refuses every shell command, leaving a mark when it runs.
const CODEX_HOOKS: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "touch \"$MARK\"; echo 'codex home guard' >&2; exit 2", "timeout": 5}]}]}}"#;

fn env() -> Env {
    let env = Env::new().in_dir("proj");
    std::fs::create_dir_all(env.path().join("proj/.git")).unwrap();
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
