//! `hooks bridge gemini` inside the real Gemini CLI, after `hooks install gemini`: the
//! engine's guard lets a harmless command run, a rewrite of the engine's hooks (written in
//! the canonical tool's names) is what Gemini CLI's tools run, context of UserPromptSubmit
//! and SessionStart hooks reaches the model, a follow-up call an AfterTool hook asks for
//! runs, and an always-blocking Stop hook is capped across Gemini CLI's separate bridge
//! calls; each time `hooks uninstall gemini` gives the settings file back byte for byte.

use serde_json::json;

use super::bridge::{bridged, bridged_script, home_file};
use super::{Agent, AgentRun, GUARD_REASON, Step};

/// The workspace settings the bridge is installed beside.
const SETTINGS: &str = "{\"hooksConfig\": {\"enabled\": true}}\n";

/// Runs Gemini CLI in `run` with the engine's user config `hooks_yaml`, the bridge
/// installed (and uninstalled after).
fn bridged_gemini(run: AgentRun, hooks_yaml: &str) -> (AgentRun, super::AgentOutput) {
    bridged_script(run, Some(SETTINGS), |run| {
        home_file(run, ".config/hooks/hooks.yaml", hooks_yaml);
    })
}

/// The engine's guard is asked, with the event read into the canonical vocabulary (the
/// shell tool is `Bash`), allows `touch made`, and the command runs.
#[test]
fn a_harmless_command_passes_the_engines_guard() {
    let (run, out) = bridged(Agent::Gemini, "touch made", Some(SETTINGS));
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert!(!out.tool_result().contains(GUARD_REASON), "{out}");
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap_or_default();
    assert!(
        log.contains("\"tool_name\":\"Bash\"") && log.contains("touch made"),
        "the guard was not asked about the canonical shell tool: {log}\n{out}"
    );
}

/// A rewrite of the engine's hooks is what Gemini CLI's tools run: the shell command
/// replaced, and an edit's `replace_all` (the canonical `Edit`'s name) written back as
/// `replace`'s `allow_multiple`, so both occurrences change (without it Gemini CLI's
/// `replace` refuses a text found twice). The context of a UserPromptSubmit (BeforeAgent)
/// and a SessionStart hook reaches the first model request.
#[test]
fn rewrites_and_context_of_the_engines_hooks_reach_gemini_cli() {
    let edit = json!({"file_path": "notes.txt", "instruction": "Rename old to new.",
        "old_string": "old", "new_string": "new"});
    let mut all = edit.clone();
    all["replace_all"] = json!(true);
    let rewrite = |tool: &str, input: &serde_json::Value| {
        let answer = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "updatedInput": input}});
        format!(
            "  - id: rewrite-{tool}\n    event: PreToolUse\n    matcher: {tool}\n    command: echo '{answer}'\n"
        )
    };
    let config = [
        "hooks:\n".to_owned(),
        rewrite("Bash", &json!({"command": "touch rewritten"})),
        rewrite("Edit", &all),
        "  - id: brief\n    event: UserPromptSubmit\n    command: \"echo 'Context from the engine: be brief.'\"\n".to_owned(),
        "  - id: make\n    event: SessionStart\n    command: \"echo 'Context from the engine: the build uses make.'\"\n".to_owned(),
    ]
    .concat();
    let script = vec![
        Step::Shell("touch original".to_owned()),
        Step::Tool("replace".to_owned(), edit),
        Step::Text("Finished.".to_owned()),
    ];
    let run = AgentRun::new(Agent::Gemini, script);
    run.write("notes.txt", "old one\nold two\n");
    let (run, out) = bridged_gemini(run, &config);
    out.assert_success();
    assert!(run.project().join("rewritten").exists(), "{out}");
    assert!(!run.project().join("original").exists(), "{out}");
    let notes = std::fs::read_to_string(run.project().join("notes.txt")).unwrap();
    assert_eq!(notes, "new one\nnew two\n", "{out}");
    let first = out.turn(0).to_string();
    for context in [
        "Context from the engine: be brief.",
        "Context from the engine: the build uses make.",
    ] {
        assert!(first.contains(context), "{context} is not in {first}");
    }
}

/// Gemini CLI answers an AfterAgent deny by sending its reason as a new prompt, up to its
/// 100 turns. Through the bridge, whose state store counts the blocks across its separate
/// calls (Gemini CLI sends `stop_hook_active: true` on each retry), the ninth block is
/// overridden (the cap of 8) and Gemini CLI stops: one first turn and eight retries reach
/// the model.
#[test]
fn stop_blocks_are_capped_across_bridge_calls() {
    let (_run, out) = bridged_gemini(
        AgentRun::new(Agent::Gemini, vec![Step::Text("Finished.".to_owned())]),
        "hooks:\n  - id: never-done\n    event: Stop\n    command: echo '{\"decision\":\"block\",\"reason\":\"keep going\"}'\n",
    );
    out.assert_success();
    let turns = out.turns();
    assert_eq!(turns.len(), 9, "{out}");
    assert!(turns[1].to_string().contains("keep going"), "{out}");
}

/// An AfterTool follow-up call asked for by the engine's hook
/// (`tailToolCallRequest`) is run by Gemini CLI after the first call, in its place.
#[test]
fn a_follow_up_tool_call_of_the_engines_hook_runs_in_gemini_cli() {
    let answer = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "tailToolCallRequest": {"name": "run_shell_command", "args": {"command": "touch tailed"}}}});
    let config = format!(
        "hooks:\n  - id: follow-up\n    event: PostToolUse\n    matcher: Bash\n    if: \"Bash(touch first)\"\n    command: echo '{answer}'\n"
    );
    let run = AgentRun::new(
        Agent::Gemini,
        vec![
            Step::Shell("touch first".to_owned()),
            Step::Text("Finished.".to_owned()),
        ],
    );
    let (run, out) = bridged_gemini(run, &config);
    out.assert_success();
    assert!(run.project().join("first").exists(), "{out}");
    assert!(run.project().join("tailed").exists(), "{out}");
}
