//! Qwen Code's and Factory Droid's settings files as the engine finds them: a project's
//! `.qwen/settings.json` waits for trust, a user's `~/.factory/settings.json` does not;
//! each hook is matched in its agent's tool names, whichever agent sends the event.

use serde_json::Value;

use crate::support::Env;

/// A shell call as Qwen Code sends it.
const QWEN_SHELL: &str = r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":".","tool_name":"run_shell_command","tool_input":{"command":"rm -r victim"}}"#;

#[test]
fn qwen_and_droid_files_are_found_trusted_and_matched_in_their_tool_names() {
    let env = Env::in_project();
    env.write(
        "proj/.qwen/settings.json",
        r#"{"$version": 4, "hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "echo 'qwen guard' >&2; exit 2", "timeout": 5}]}]}}"#,
    );
    env.write(
        "home/.factory/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [
            {"type": "command", "command": "cat > droid-stdin.json"}]}]}}"#,
    );
    let list = env.run(&["list", "--json"]);
    assert_eq!(list.code, 0, "{list:?}");
    let files = list.json()["files"].clone();
    let file = |dialect: &str| -> Value {
        files
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["dialect"] == dialect)
            .cloned()
            .unwrap_or_else(|| panic!("no {dialect} file in {files:#}"))
    };
    assert_eq!(file("qwen")["layer"], "project");
    assert_eq!(file("qwen")["needs_trust"], true);
    assert_eq!(file("droid")["layer"], "user");
    assert_eq!(file("droid")["needs_trust"], false);

    // Untrusted, the project's Qwen Code guard does not run; Droid's user hook does, on
    // the same shell call (its `Execute`), and is given Droid's names.
    let run = env.run_with_stdin(
        &["run", "PreToolUse", "--from", "qwen", "--json"],
        QWEN_SHELL,
    );
    assert_eq!(run.json()["decision"], "none", "{run:?}");
    let stdin = std::fs::read_to_string(env.path().join("proj/droid-stdin.json")).unwrap();
    assert!(stdin.contains("\"tool_name\":\"Execute\""), "{stdin}");

    let trust = env.run(&["trust", ".qwen/settings.json"]);
    assert_eq!(trust.code, 0, "{trust:?}");
    let run = env.run_with_stdin(
        &["run", "PreToolUse", "--from", "qwen", "--json"],
        QWEN_SHELL,
    );
    assert_eq!(run.json()["decision"], "block", "{run:?}");
    assert_eq!(run.json()["reason"], "qwen guard", "{run:?}");
}
