//! `hooks install codex --migrate` and `hooks uninstall codex`: the hooks of Codex's own
//! `hooks.json` and of the `[[hooks.Event]]` tables of its `config.toml` move into the
//! engine's native config (user layer), where the bridge runs them once, and uninstall
//! gives back both Codex files byte for byte, comments and order of `config.toml`
//! included.

use serde_json::json;

use crate::support::Env;

/// Codex's `config.toml`: comments, settings, a guard in `[[hooks.PreToolUse]]`, the trust
/// Codex keeps for it, and a setting after the hooks.
const CONFIG_TOML: &str = r#"# my Codex settings
model = "o4"

# refuse recursive deletes
[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "case \"$(cat)\" in *'rm -r'*) echo 'codex toml guard' >&2; exit 2;; esac"
timeout = 5

[hooks.state."/somewhere/config.toml:pre_tool_use:0:0"]
trusted_hash = "sha256:00"

[analytics]
enabled = false # keep this comment
"#;

/// Codex's `hooks.json`: a description and a Stop hook that keeps Codex going.
const HOOKS_JSON: &str = r#"{
  "description": "my Codex hooks",
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"tests fail\"}'", "timeout": 5}]}]
  }
}
"#;

fn payload(env: &Env, event: &str, extra: serde_json::Value) -> String {
    let mut p = json!({"session_id": "s-1", "cwd": env.path().join("proj").display().to_string(),
        "hook_event_name": event, "turn_id": "t", "model": "gpt-5.5"});
    for (k, v) in extra.as_object().unwrap() {
        p[k] = v.clone();
    }
    p.to_string()
}

#[test]
fn migrate_moves_codex_hooks_into_the_native_config_and_uninstall_restores_both_files() {
    let env = Env::in_project();
    let config = env.write("home/.codex/config.toml", CONFIG_TOML);
    let hooks_json = env.write("home/.codex/hooks.json", HOOKS_JSON);
    let native = env.path().join("home/.config/hooks/hooks.yaml");

    // `hooks migrate codex` moves a Codex file it is given, and none by default.
    let unnamed = env.run(&["migrate", "codex"]);
    assert!(
        unnamed.code != 0 && unnamed.stderr.contains("name the Codex file"),
        "{unnamed:?}"
    );
    let run = env.run(&["install", "codex", "--migrate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("undo: `hooks migrate codex --undo"),
        "{run:?}"
    );
    let moved = std::fs::read_to_string(&native).unwrap();
    assert!(moved.contains("codex toml guard"), "{moved}");
    assert!(moved.contains("tests fail"), "{moved}");
    // Codex's files keep every other byte; their hooks are the bridge's entries now.
    let toml = std::fs::read_to_string(&config).unwrap();
    assert!(!toml.contains("codex toml guard"), "{toml}");
    assert!(
        toml.starts_with("# my Codex settings\nmodel = \"o4\"\n"),
        "{toml}"
    );
    assert!(
        toml.contains("enabled = false # keep this comment"),
        "{toml}"
    );
    assert!(
        toml.contains("[hooks.state.\"/somewhere/config.toml:pre_tool_use:0:0\"]"),
        "{toml}"
    );
    let json_now = std::fs::read_to_string(&hooks_json).unwrap();
    assert!(!json_now.contains("tests fail"), "{json_now}");
    assert!(json_now.contains("bridge codex"), "{json_now}");

    // The moved hooks run once, through the bridge, and mean what they meant in Codex.
    let guard = env.run_with_stdin(
        &["bridge", "codex"],
        &payload(
            &env,
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -r victim"}}),
        ),
    );
    assert_eq!(guard.code, 2, "{guard:?}");
    assert!(guard.stderr.contains("codex toml guard"), "{guard:?}");
    let stop = env.run_with_stdin(
        &["bridge", "codex"],
        &payload(&env, "Stop", json!({"stop_hook_active": false})),
    );
    assert_eq!(
        stop.json(),
        json!({"decision": "block", "reason": "tests fail"}),
        "{stop:?}"
    );

    let run = env.run(&["uninstall", "codex"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), CONFIG_TOML);
    assert_eq!(std::fs::read_to_string(&hooks_json).unwrap(), HOOKS_JSON);
    assert!(
        !native.exists(),
        "the native config the migration made is left"
    );
}

/// `--scope project` writes the project's `.codex/hooks.json` only when Codex would read
/// it (the project trusted in Codex's user config), with Codex's trust of the entries in
/// the user config; otherwise it says why and installs into Codex's user layer.
#[test]
fn the_project_layer_is_used_only_for_projects_codex_trusts() {
    let env = Env::in_project();
    env.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - id: g\n    event: PreToolUse\n    command: 'true'\n",
    );
    let project_file = env.path().join("proj/.codex/hooks.json");
    let user_file = env.path().join("home/.codex/hooks.json");

    let run = env.run(&["install", "codex", "--scope", "project"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("only for projects its user config trusts"),
        "{run:?}"
    );
    assert!(user_file.exists() && !project_file.exists(), "{run:?}");
    assert_eq!(
        env.run(&["uninstall", "codex", "--scope", "project"]).code,
        0
    );
    assert!(!user_file.exists());

    let real = std::fs::canonicalize(env.path().join("proj")).unwrap();
    let trusted = format!(
        "# trust\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
        real.display()
    );
    let config = env.write("home/.codex/config.toml", &trusted);
    let run = env.run(&["install", "codex", "--scope", "project"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(project_file.exists() && !user_file.exists(), "{run:?}");
    let with_trust = std::fs::read_to_string(&config).unwrap();
    assert!(
        with_trust.contains(&format!(
            "{}:pre_tool_use:0:0",
            std::fs::canonicalize(&project_file).unwrap().display()
        )),
        "{with_trust}"
    );
    assert_eq!(
        env.run(&["uninstall", "codex", "--scope", "project"]).code,
        0
    );
    assert!(!project_file.exists());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), trusted);
}
