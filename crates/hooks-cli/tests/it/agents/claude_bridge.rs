//! `hooks bridge claude` inside the real Claude Code, after `hooks install claude`: an
//! always-blocking Stop hook of the engine's config is capped by the engine's count, kept
//! across Claude Code's separate bridge calls in the state store; and a hook written in
//! Cursor's dialect (a `.cursor/hooks.json` `beforeShellExecution` guard reading the
//! top-level `command` Cursor sends) guards Claude Code's `Bash` tool.

use super::bridge::{home_file, hooks, install_run_uninstall};
use super::{Agent, AgentRun, Step, shell_then_done};

/// Claude Code overrides a Stop hook that keeps blocking too (its
/// `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`, default 8); the engine reads the same variable. With
/// the cap at 3 for both, the engine's answer to the fourth Stop call no longer blocks and
/// says why (its `systemMessage`, which Claude Code shows), so the engine's count across
/// the bridge's processes, not Claude Code's, ends the loop: one turn and three
/// continuations reach the model.
#[test]
fn claude_code_stop_blocks_are_capped_by_the_engine_across_bridge_calls() {
    let mut run = AgentRun::new(Agent::Claude, vec![Step::Text("Finished.".to_owned())]);
    run.env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "3");
    home_file(
        &run,
        ".config/hooks/hooks.yaml",
        "hooks:\n  - id: never-done\n    event: Stop\n    command: echo '{\"decision\":\"block\",\"reason\":\"keep going\"}'\n",
    );
    let out = install_run_uninstall(&run, None);
    out.assert_success();
    assert_eq!(out.turns().len(), 4, "{out}");
    assert!(
        out.stdout.contains(
            "stop-loop cap: the Stop hooks blocked 4 consecutive times, more than the cap of 3"
        ),
        "the engine's cap did not end the loop:\n{out}"
    );
}

/// The Cursor fixture project's `.cursor/` (a `beforeShellExecution` git guard in the form
/// of Cursor's documented example, and an audit hook), copied into the run's project and
/// trusted (`hooks trust`), is run by the bridge on Claude Code's `Bash` calls, with
/// Cursor's stdin: `git init` is refused, the model gets the guard's `agentMessage`.
#[test]
fn a_cursor_shell_guard_guards_claude_codes_bash_through_the_bridge() {
    let run = AgentRun::new(Agent::Claude, shell_then_done("git init by-git"));
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cursor");
    crate::agent_scripts::copy_dir(&fixture, &run.project());
    hooks(&run, &["trust", ".cursor/hooks.json"]);
    let out = install_run_uninstall(&run, None);
    out.assert_success();
    assert!(!run.project().join("by-git").exists(), "git ran:\n{out}");
    assert!(
        out.tool_result()
            .contains("Raw git commands are blocked by a project hook; use the gh tool instead."),
        "{out}"
    );
}
