//! Cline's CLI (`cline` 3.0.65, which runs Cline's SDK) against the scripted model server as
//! an OpenAI-compatible provider: its own hook files (`.clinerules/hooks/PreToolUse`) get
//! its real stdin and their answers mean what they mean in Cline, and, after `hooks install
//! cline`, the engine's hooks run through `hooks bridge cline` as Cline's hook files.

use std::path::Path;

use serde_json::{Value, json};

use super::{AgentOutput, AgentRun, guard, shell_then_done};
use crate::agents::Agent;

/// The `run_result` line of Cline's `--json` output.
fn run_result(out: &AgentOutput) -> Value {
    out.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["type"] == "run_result")
        .unwrap_or_else(|| panic!("no run_result line in:\n{out}"))
}

fn hooks(run: &AgentRun, args: &[&str]) -> String {
    let out = run.hooks_command(args).output().unwrap();
    assert!(out.status.success(), "hooks {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The engine's user config (no trust needed) with `hooks` (YAML list items).
fn engine_config(run: &AgentRun, hooks: &str) {
    let path = run.home().join(".config/hooks/hooks.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("hooks:\n{hooks}")).unwrap();
}

/// Cline ran, and a cancel stopped its task before `rm -r victim` ran: the directory is
/// there and the run ended `aborted`.
#[track_caller]
fn assert_the_task_stopped_before_rm(run: &AgentRun, out: &AgentOutput) {
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert_eq!(run_result(out)["finishReason"], "aborted", "{out}");
}

/// The first line a hook logged to `log`, as JSON.
fn first_input(log: &Path) -> Value {
    let text =
        std::fs::read_to_string(log).unwrap_or_else(|e| panic!("the hook was not called ({e})"));
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// Cline's own hook file, run by Cline: it gets the SDK's payload (`hookName: tool_call`,
/// the `run_commands` tool, and the legacy `preToolUse` with JSON-encoded parameters), and
/// its `cancel: true` stops the task before the tool runs: the directory survives and the
/// model is not asked again.
#[test]
fn clines_own_hook_file_gets_its_stdin_and_its_cancel_stops_the_task() {
    let run = AgentRun::new(Agent::Cline, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    let log = run.root().join("hook.log");
    run.add_hook(
        "PreToolUse",
        None,
        &format!(
            "cat >> '{}'; echo; echo '{{\"cancel\": true, \"errorMessage\": \"not today\"}}'",
            log.display()
        ),
    );
    let out = run.run();
    assert_the_task_stopped_before_rm(&run, &out);
    assert_eq!(out.turns().len(), 1, "the model was asked again:\n{out}");
    let input = first_input(&log);
    assert_eq!(input["hookName"], "tool_call", "{input}");
    assert_eq!(input["tool_call"]["name"], "run_commands", "{input}");
    assert_eq!(
        input["tool_call"]["input"],
        json!({"commands": ["rm -r victim"]})
    );
    assert_eq!(input["preToolUse"]["toolName"], "run_commands", "{input}");
    assert_eq!(
        input["preToolUse"]["parameters"]["commands"],
        "[\"rm -r victim\"]"
    );
    let root = std::fs::canonicalize(run.project()).unwrap();
    assert_eq!(
        input["workspaceRoots"],
        json!([root.display().to_string()]),
        "{input}"
    );
    assert!(input["taskId"].as_str().is_some_and(|t| !t.is_empty()));
}

/// The engine's native guard on the canonical shell tool, failing closed.
fn guard_config(run: &AgentRun) -> String {
    format!(
        "  - id: no-rm-r\n    event: PreToolUse\n    matcher: Bash\n    on_failure: block\n    command: {}\n",
        guard(run)
    )
}

/// Installs the bridge for every event, runs Cline on `command`, uninstalls, and checks
/// that uninstall took the hook files away.
/// `config` gives the engine's hooks (YAML list items) for the run.
fn bridged(command: &str, config: impl Fn(&AgentRun) -> String) -> (AgentRun, AgentOutput) {
    let run = AgentRun::new(Agent::Cline, shell_then_done(command));
    run.write("victim/keep.txt", "precious");
    engine_config(&run, &config(&run));
    let installed = hooks(&run, &["install", "cline"]);
    assert!(installed.contains("PreToolUse"), "{installed}");
    let hook_file = run.project().join(".clinerules/hooks/PreToolUse");
    assert!(hook_file.exists(), "{installed}");
    let out = run.run();
    hooks(&run, &["uninstall", "cline"]);
    assert!(
        !run.project().join(".clinerules/hooks").exists(),
        "uninstall left the hooks directory"
    );
    (run, out)
}

/// The engine's native guard (fail closed), written for Claude Code's `Bash`, refuses
/// Cline's `run_commands` through the bridge: the guard gets the canonical event, and the
/// bridge's `cancel: true` stops the task before `rm -r` runs.
#[test]
fn the_engines_guard_refuses_rm_r_through_the_bridge() {
    let (run, out) = bridged("rm -r victim", guard_config);
    assert_the_task_stopped_before_rm(&run, &out);
    assert_eq!(out.turns().len(), 1, "the model was asked again:\n{out}");
    let input = first_input(&run.root().join("guard.log"));
    assert_eq!(input["hook_event_name"], "PreToolUse", "{input}");
    assert_eq!(input["tool_name"], "Bash", "{input}");
    assert_eq!(input["tool_input"]["command"], "rm -r victim", "{input}");
    assert!(input["session_id"].as_str().is_some_and(|s| !s.is_empty()));
}

/// A harmless command passes the same guard and runs; the model gets its result.
#[test]
fn a_harmless_command_passes_the_bridge_and_runs() {
    let (run, out) = bridged("touch made", guard_config);
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert_eq!(run_result(&out)["finishReason"], "completed", "{out}");
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    assert!(log.contains("touch made"), "the guard was not asked: {log}");
    let _ = out.tool_result();
}

/// Context from an engine hook on PreToolUse reaches the model through the bridge's
/// `contextModification`.
#[test]
fn context_from_an_engine_hook_reaches_the_model() {
    let (run, out) = bridged("touch made", |run| {
        let script = run.script(
            "context.sh",
            r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "CTX-FROM-THE-ENGINE"}}'"#,
        );
        format!(
            "  - id: ctx\n    event: PreToolUse\n    matcher: Bash\n    command: {}\n",
            script.display()
        )
    });
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    let turn = out.turn(1).to_string();
    assert!(turn.contains("CTX-FROM-THE-ENGINE"), "{turn}");
}

/// A rewrite from an engine hook is what Cline's tool runs: the bridge answers with
/// `overrideInput` in the shape of the tool Cline named (`run_commands {commands}`),
/// which Cline's SDK puts in place of the model's input.
#[test]
fn a_rewrite_from_an_engine_hook_is_what_runs() {
    let (run, out) = bridged("touch original", |run| {
        let script = run.script(
            "rewrite.sh",
            r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "touch rewritten"}}}'"#,
        );
        format!(
            "  - id: rewrite\n    event: PreToolUse\n    matcher: Bash\n    command: {}\n",
            script.display()
        )
    });
    out.assert_success();
    assert!(run.project().join("rewritten").exists(), "{out}");
    assert!(!run.project().join("original").exists(), "{out}");
    assert_eq!(run_result(&out)["finishReason"], "completed", "{out}");
}

/// A hook written for another agent guards Cline's shell: a Claude Code guard in the
/// user's `~/.claude/settings.json` (matcher `Bash`, exit 2 with the reason) refuses
/// Cline's `run_commands` through `hooks bridge cline`.
#[test]
fn a_claude_code_guard_refuses_rm_r_in_cline() {
    let run = AgentRun::new(Agent::Cline, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    let guard = guard(&run);
    let settings = run.home().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": guard}]}]}})
        .to_string(),
    )
    .unwrap();
    hooks(&run, &["install", "cline", "--all-events"]);
    let out = run.run();
    hooks(&run, &["uninstall", "cline"]);
    assert_the_task_stopped_before_rm(&run, &out);
    let input = first_input(&run.root().join("guard.log"));
    assert_eq!(input["tool_name"], "Bash", "{input}");
    assert_eq!(input["hook_event_name"], "PreToolUse", "{input}");
}
