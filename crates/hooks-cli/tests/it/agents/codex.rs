//! Codex CLI (`codex exec`) against the scripted model server, with hooks in its own
//! `$CODEX_HOME/hooks.json`: what the harness shows of a real run.

use serde_json::Value;

use super::{
    Agent, AgentRun, GUARD_REASON, Step, assert_a_hung_hook_is_killed, guard, shell_then_done,
};

#[test]
fn a_pre_tool_use_guard_refuses_rm_r_and_the_model_gets_its_reason() {
    let mut run = AgentRun::new(Agent::Codex, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    run.codex_bypass_hook_trust();
    let out = run.run();
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "the guard did not stop rm -r:\n{out}"
    );
    let result = out.tool_result();
    assert!(
        result.contains("Command blocked by PreToolUse hook"),
        "{result}"
    );
    assert!(result.contains(GUARD_REASON), "{result}");
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    let input: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(input["hook_event_name"], "PreToolUse");
    assert_eq!(input["tool_name"], "Bash");
    assert!(
        input["tool_input"]["command"]
            .as_str()
            .unwrap()
            .contains("rm -r victim"),
        "{input}"
    );
}

#[test]
fn a_harmless_command_passes_the_guard_and_runs() {
    let mut run = AgentRun::new(Agent::Codex, shell_then_done("touch made"));
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    run.codex_bypass_hook_trust();
    let out = run.run();
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert!(!out.tool_result().contains(GUARD_REASON));
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    assert!(log.contains("touch made"), "the guard was not asked: {log}");
}

/// Codex runs only the hooks it trusts, and says nothing about the others: what `hooks
/// install codex` has to write trust state for.
#[test]
fn an_untrusted_hook_is_skipped_silently() {
    let run = AgentRun::new(Agent::Codex, shell_then_done("touch made"));
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    let out = run.run();
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert!(
        !run.root().join("guard.log").exists(),
        "an untrusted hook ran:\n{out}"
    );
}

#[test]
fn session_start_and_prompt_hooks_add_context_the_model_receives() {
    let mut run = AgentRun::new(Agent::Codex, vec![Step::Text("Hello.".to_owned())]);
    run.add_hook(
        "SessionStart",
        None,
        "echo 'Context from SessionStart: the build uses make.'",
    );
    run.add_hook(
        "UserPromptSubmit",
        None,
        "echo 'Context from UserPromptSubmit: be brief.'",
    );
    run.codex_bypass_hook_trust().prompt("Say hello.");
    let out = run.run();
    out.assert_success();
    let turn = out.turn(0).to_string();
    assert!(
        turn.contains("Context from SessionStart: the build uses make."),
        "{turn}"
    );
    assert!(
        turn.contains("Context from UserPromptSubmit: be brief."),
        "{turn}"
    );
}

#[test]
fn a_run_past_its_timeout_is_killed_with_every_process_it_started() {
    assert_a_hung_hook_is_killed(Agent::Codex, "SessionStart");
}
