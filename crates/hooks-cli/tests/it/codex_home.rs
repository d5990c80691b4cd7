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
