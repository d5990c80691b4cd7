//! Gemini CLI (`gemini --yolo -p`) against the scripted model server, with hooks in its own
//! workspace settings (`.gemini/settings.json`): what the harness shows of a real run.

use serde_json::Value;

use super::{Agent, AgentRun, GUARD_REASON, Step, guard, shell_then_done};

#[test]
fn a_before_tool_guard_refuses_rm_r_and_the_model_gets_its_reason() {
    let run = AgentRun::new(Agent::Gemini, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    run.add_hook("BeforeTool", Some("run_shell_command"), &guard(&run));
    let out = run.run();
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "the guard did not stop rm -r:\n{out}"
    );
    let result = out.tool_result();
    assert!(
        result.contains(&format!("Tool execution blocked: {GUARD_REASON}")),
        "{result}"
    );
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    let input: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(input["hook_event_name"], "BeforeTool");
    assert_eq!(input["tool_name"], "run_shell_command");
    assert_eq!(input["tool_input"]["command"], "rm -r victim");
}

#[test]
fn a_harmless_command_passes_the_guard_and_runs() {
    let run = AgentRun::new(Agent::Gemini, shell_then_done("touch made"));
    run.add_hook("BeforeTool", Some("run_shell_command"), &guard(&run));
    let out = run.run();
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert!(!out.tool_result().contains(GUARD_REASON));
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    assert!(log.contains("touch made"), "the guard was not asked: {log}");
}

#[test]
fn session_start_and_before_agent_hooks_add_context_the_model_receives() {
    let mut run = AgentRun::new(Agent::Gemini, vec![Step::Text("Hello.".to_owned())]);
    let context = |event: &str, text: &str| {
        format!(
            r#"echo '{{"hookSpecificOutput":{{"hookEventName":"{event}","additionalContext":"{text}"}}}}'"#
        )
    };
    run.add_hook(
        "SessionStart",
        None,
        &context(
            "SessionStart",
            "Context from SessionStart: the build uses make.",
        ),
    );
    run.add_hook(
        "BeforeAgent",
        None,
        &context("BeforeAgent", "Context from BeforeAgent: be brief."),
    );
    run.prompt("Say hello.");
    let out = run.run();
    out.assert_success();
    let turn = out.turn(0).to_string();
    assert!(
        turn.contains("Context from SessionStart: the build uses make."),
        "{turn}"
    );
    assert!(
        turn.contains("Context from BeforeAgent: be brief."),
        "{turn}"
    );
}
