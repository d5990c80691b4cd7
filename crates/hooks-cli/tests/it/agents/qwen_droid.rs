//! `hooks bridge qwen` and `hooks bridge droid` inside the real Qwen Code and Factory
//! Droid, after `hooks install AGENT` in the run's project: the engine's native guard,
//! written for the canonical shell tool `Bash`, refuses `rm -r` through Qwen Code's
//! `run_shell_command` and Droid's `Execute`, the victim survives and the model is told
//! why; a harmless command runs; `hooks uninstall` gives the settings file back byte for
//! byte. Both agents read a hook's answer as Claude Code does, with Droid honouring only
//! `hookSpecificOutput.permissionDecision` and exit 2 on PreToolUse, so a deny in another
//! form would let the command run here.

use super::bridge::bridged;
use super::{Agent, AgentRun, GUARD_REASON, guard, shell_then_done};

/// The guard refuses `rm -r victim` inside `agent`, whose model gets the guard's reason,
/// and lets `touch made` run; the guard saw the canonical shell tool each time.
fn guards(agent: Agent) {
    let before = settings(agent);
    let (run, out) = bridged(agent, "rm -r victim", before);
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(out.tool_result().contains(GUARD_REASON), "{out}");
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap_or_default();
    assert!(
        log.contains("\"tool_name\":\"Bash\""),
        "the guard was not asked about the canonical shell tool: {log}\n{out}"
    );
    let (run, out) = bridged(agent, "touch made", before);
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert!(!out.tool_result().contains(GUARD_REASON), "{out}");
}

/// The project's settings file the bridge is installed beside: Qwen Code writes a
/// settings file without a `$version` back in its current version, so the project's
/// has one (else uninstall could not give back the file as it was).
fn settings(agent: Agent) -> Option<&'static str> {
    (agent == Agent::Qwen).then_some("{\n  \"$version\": 4\n}\n")
}

#[test]
fn qwen_code_runs_the_engines_guard_through_the_bridge() {
    guards(Agent::Qwen);
}

#[test]
fn factory_droid_runs_the_engines_guard_through_the_bridge() {
    guards(Agent::Droid);
}

/// The agents' own hooks, as they are written for them (Qwen Code's matcher on its own
/// tool name, Droid's on `Execute`), are called with the agent's stdin: the facts the
/// dialects are built on, checked against the pinned versions.
#[test]
fn each_agent_calls_its_own_hooks_with_its_own_tool_names() {
    for (agent, tool) in [
        (Agent::Qwen, "run_shell_command"),
        (Agent::Droid, "Execute"),
    ] {
        let run = AgentRun::new(agent, shell_then_done("rm -r victim"));
        run.write("victim/keep.txt", "precious");
        run.add_hook("PreToolUse", Some(tool), &guard(&run));
        let out = run.run();
        out.assert_success();
        assert!(
            run.project().join("victim/keep.txt").exists(),
            "{agent:?}: rm -r ran:\n{out}"
        );
        let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap_or_default();
        assert!(
            log.contains(&format!("\"tool_name\":\"{tool}\""))
                && log.contains("\"hook_event_name\":\"PreToolUse\""),
            "{agent:?}: {log}\n{out}"
        );
    }
}
