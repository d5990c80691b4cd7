//! `hooks bridge copilot` inside the real GitHub Copilot CLI, offline against the scripted
//! model server: `hooks install copilot` (the user's `$COPILOT_HOME/hooks/`, which Copilot
//! loads in prompt mode without trusting the folder) makes the engine's native guard stop
//! `rm -r`, the model being told why in Copilot's words, while a harmless command runs;
//! and with Claude Code's bridge installed in the project's `.claude/settings.json` too
//! (which Copilot also runs), each event still runs the engine's hooks once.

use serde_json::json;

use super::bridge::{bridged_script, hooks};
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

/// The events whose calls are counted.
const COUNTED: [&str; 6] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionEnd",
];

/// The events the guard's log saw, one line each: `event session tool command`.
fn guard_calls(run: &AgentRun) -> Vec<String> {
    std::fs::read_to_string(run.root().join("calls.log"))
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Claude Code's bridge in the project's `.claude/settings.json` and Copilot's in its user
/// hooks: Copilot runs both (the folder trusted, so its repository hooks load), the first
/// call of each event dispatches and the second answers with its decision, so a hook of the
/// engine runs once per event, and the guard still denies. Under a process cap.
#[test]
fn with_claude_codes_bridge_too_each_event_runs_the_hooks_once() {
    let mut run = AgentRun::new(Agent::Copilot, shell("rm -r victim"));
    run.arg("--trust-folder");
    run.caged(512);
    run.write("victim/keep.txt", "precious");
    let log = run.root().join("calls.log");
    let count = run.script(
        "count.sh",
        &format!(
            "tr -d '\\n' >> '{}'\necho >> '{}'\n",
            log.display(),
            log.display()
        ),
    );
    let mut config = format!(
        "hooks:\n  - id: no-rm-r\n    event: PreToolUse\n    matcher: Bash\n    on_failure: block\n    command: {}\n",
        guard(&run)
    );
    for event in COUNTED {
        config.push_str(&format!(
            "  - id: count-{event}\n    event: {event}\n    command: {}\n",
            count.display()
        ));
    }
    super::bridge::home_file(&run, ".config/hooks/hooks.yaml", &config);
    hooks(&run, &["install", "claude"]);
    hooks(&run, &["install", "copilot"]);
    let out = run.run();
    out.assert_success();
    assert_eq!(run.refused_forks().unwrap_or(0), 0, "forks refused:\n{out}");
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(
        out.tool_result()
            .contains(&format!("Denied by preToolUse hook: {GUARD_REASON}")),
        "{out}"
    );
    let guard_runs = std::fs::read_to_string(run.root().join("guard.log"))
        .unwrap_or_default()
        .lines()
        .count();
    assert_eq!(guard_runs, 1, "the guard ran other than once:\n{out}");
    // Copilot called both bridges on every event but the denied one (a deny ends its
    // PreToolUse hooks): each of the engine's counting hooks ran once.
    let calls = guard_calls(&run);
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "Stop",
        "SessionEnd",
    ] {
        let n = calls
            .iter()
            .filter(|c| c.contains(&format!("\"hook_event_name\":\"{event}\"")))
            .count();
        assert_eq!(n, 1, "{event} ran {n} times: {calls:#?}\n{out}");
    }
    let audit = std::fs::read_to_string(run.home().join(".local/state/hooks/audit.jsonl"))
        .unwrap_or_default();
    let folded = audit
        .lines()
        .filter(|l| l.contains("answered with the decision of another call of the same event"))
        .count();
    assert_eq!(folded, 4, "{audit}");
    eprintln!("copilot run with both bridges: {:?}", out.elapsed);
}

/// Claude Code's bridge alone, in the project's `.claude/settings.json`: Copilot (the
/// folder trusted) calls it with Claude Code's PascalCase event and `COPILOT_CLI=1`, the
/// bridge answers as Copilot's, in the PascalCase form Copilot reads there, and the guard
/// stops `rm -r` with its reason.
#[test]
fn claude_codes_bridge_called_by_copilot_answers_as_copilots() {
    let mut run = AgentRun::new(Agent::Copilot, shell("rm -r victim"));
    run.arg("--trust-folder");
    run.write("victim/keep.txt", "precious");
    guard_config(&run);
    hooks(&run, &["install", "claude"]);
    let out = run.run();
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(
        out.tool_result()
            .contains(&format!("Denied by preToolUse hook: {GUARD_REASON}")),
        "{out}"
    );
    let audit = std::fs::read_to_string(run.home().join(".local/state/hooks/audit.jsonl"))
        .unwrap_or_default();
    assert!(audit.contains("\"agent\":\"copilot\""), "{audit}");
}
