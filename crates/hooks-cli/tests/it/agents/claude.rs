//! Claude Code (`claude -p`) against the scripted model server, with hooks in its own
//! project settings (`.claude/settings.json`): what the harness shows of a real run.

use serde_json::Value;

use super::{
    Agent, AgentRun, GUARD_REASON, Step, assert_a_hung_hook_is_killed, guard, shell_then_done,
};

/// The stream-json `result` line of a run.
fn result_line(stdout: &str) -> Value {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "result")
        .unwrap_or_else(|| panic!("no result line in:\n{stdout}"))
}

#[test]
fn a_pre_tool_use_guard_refuses_rm_r_and_the_model_gets_its_reason() {
    let run = AgentRun::new(Agent::Claude, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    let out = run.run();
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "the guard did not stop rm -r:\n{out}"
    );
    let result = out.tool_result();
    assert!(result.contains(GUARD_REASON), "{result}");
    let turn = out.turn(1).to_string();
    assert!(turn.contains(r#""is_error":true"#), "{turn}");
    // The agent gave the guard its real PreToolUse input.
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    let input: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(input["hook_event_name"], "PreToolUse");
    assert_eq!(input["tool_name"], "Bash");
    assert_eq!(input["tool_input"]["command"], "rm -r victim");
    let denials = &result_line(&out.stdout)["permission_denials"];
    assert_eq!(denials[0]["tool_name"], "Bash", "{denials}");
}

#[test]
fn a_harmless_command_passes_the_guard_and_runs() {
    let run = AgentRun::new(Agent::Claude, shell_then_done("touch made"));
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    let out = run.run();
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert!(!out.tool_result().contains(GUARD_REASON));
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    assert!(log.contains("touch made"), "the guard was not asked: {log}");
    assert_eq!(
        result_line(&out.stdout)["permission_denials"],
        serde_json::json!([])
    );
}

/// Plain stdout of SessionStart and UserPromptSubmit hooks is context for the model; the
/// hooks find the `hooks` binary under test on `PATH`, as the bridge's entries will.
#[test]
fn session_start_and_prompt_hooks_add_context_the_model_receives() {
    let mut run = AgentRun::new(Agent::Claude, vec![Step::Text("Hello.".to_owned())]);
    run.add_hook(
        "SessionStart",
        None,
        "echo \"Context from SessionStart: $(hooks --version)\"",
    );
    run.add_hook(
        "UserPromptSubmit",
        None,
        "echo 'Context from UserPromptSubmit: be brief.'",
    );
    run.prompt("Say hello.");
    let version = run.hooks_command(&["--version"]).output().unwrap();
    assert!(version.status.success());
    let version = String::from_utf8(version.stdout).unwrap();
    let out = run.run();
    out.assert_success();
    let turn = out.turn(0).to_string();
    let context = format!("Context from SessionStart: {}", version.trim());
    assert!(turn.contains(&context), "no {context:?} in {turn}");
    assert!(
        turn.contains("Context from UserPromptSubmit: be brief."),
        "{turn}"
    );
    assert!(turn.contains("Say hello."), "{turn}");
}

#[test]
fn a_run_past_its_timeout_is_killed_with_every_process_it_started() {
    assert_a_hung_hook_is_killed(Agent::Claude, "SessionStart");
}
