//! `hooks bridge copilot` inside the real GitHub Copilot CLI, offline against the scripted
//! model server: `hooks install copilot` (the user's `$COPILOT_HOME/hooks/`, which Copilot
//! loads in prompt mode without trusting the folder) makes the engine's native guard stop
//! `rm -r`, the model being told why in Copilot's words, while a harmless command runs;
//! and with Claude Code's bridge installed in the project's `.claude/settings.json` too
//! (which Copilot also runs), each event still runs the engine's hooks once.

use serde_json::json;

use super::bridge::{bridged_script, hooks, install_run_uninstall};
use super::{Agent, AgentRun, GUARD_REASON, Step, guard};

/// Copilot's script: one call of its shell tool `bash` running `command`, then a text.
fn shell(command: &str) -> Vec<Step> {
    vec![
        Step::Tool(
            "bash".to_owned(),
            json!({"command": command, "description": "run it"}),
        ),
        Step::Text("Finished.".to_owned()),
    ]
}

/// The engine's user config (no trust needed): the guard on the canonical shell tool.
fn guard_config(run: &AgentRun) {
    super::bridge::home_file(
        run,
        ".config/hooks/hooks.yaml",
        &format!(
            "hooks:\n  - id: no-rm-r\n    event: PreToolUse\n    matcher: Bash\n    on_failure: block\n    command: {}\n",
            guard(run)
        ),
    );
}

#[test]
fn copilot_runs_the_engines_guard_through_the_bridge() {
    let (run, out) = bridged_script(
        AgentRun::new(Agent::Copilot, shell("rm -r victim")),
        None,
        guard_config,
    );
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    let told = out.tool_result();
    assert!(
        told.contains(&format!("Denied by preToolUse hook: {GUARD_REASON}")),
        "{out}"
    );
    let (run, out) = bridged_script(
        AgentRun::new(Agent::Copilot, shell("touch made")),
        None,
        guard_config,
    );
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    eprintln!("copilot run: {:?}", out.elapsed);
}

#[allow(dead_code)]
fn unused(run: &AgentRun) {
    hooks(run, &["doctor"]);
    let _ = install_run_uninstall;
}
