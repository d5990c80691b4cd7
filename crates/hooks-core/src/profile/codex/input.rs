//! The stdin Codex writes for a hook event, read into the canonical context: the inverse
//! of the profile's stdin builder. Codex names its fields as Claude Code does (`session_id`,
//! `transcript_path`, `cwd`, `permission_mode`, `tool_name`, `tool_input`, `tool_use_id`,
//! `tool_response`, `prompt`, `source`, `reason`, `stop_hook_active`,
//! `last_assistant_message`, `agent_id`, `agent_type`, `agent_transcript_path`, `trigger`,
//! `error`, `error_details`) and adds its own (`model`, `turn_id`), all kept as they are;
//! what differs is its tools: their names (`exec_command`, `shell`, `apply_patch`) become
//! the canonical ones through [`CODEX_TOOLS`], and a shell tool's arguments (`exec_command
//! {"cmd": ..}`, `shell {"command": [argv]}`) become the canonical shell input
//! (`{"command": "<script>"}`), its other arguments kept. Codex 0.171.0 already sends
//! `Bash {"command": ..}` for its shell; the model-facing names are read too, so that a
//! Codex that sends them (older builds, the `unified_exec` path) is guarded alike.

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::event::Event;
use crate::tools::CODEX_TOOLS;

/// The context the stdin `fields` Codex wrote for `event` stand for: `hook_event_name`
/// dropped (the event is `event`), the tool canonical.
pub(super) fn read_event(event: Event, mut fields: Map<String, Value>) -> EventContext {
    canonical_tool(&mut fields);
    EventContext::from_fields(event, fields)
}

/// Makes the payload's `tool_name` canonical and, for a shell tool, its `tool_input` the
/// canonical shell input.
fn canonical_tool(fields: &mut Map<String, Value>) {
    let Some(Value::String(name)) = fields.get("tool_name") else {
        return;
    };
    let canonical = CODEX_TOOLS.to_canonical(name).into_owned();
    if canonical == "Bash"
        && let Some(Value::Object(input)) = fields.get_mut("tool_input")
    {
        shell_input(input);
    }
    fields.insert("tool_name".to_owned(), Value::String(canonical));
}

/// The canonical shell input in place: `cmd` (`exec_command`) or an argv `command`
/// (`shell`, `local_shell`) becomes a `command` string; other keys stay.
fn shell_input(input: &mut Map<String, Value>) {
    if !input.contains_key("command")
        && let Some(cmd) = input.remove("cmd")
    {
        input.insert("command".to_owned(), cmd);
    }
    if let Some(Value::Array(argv)) = input.get("command") {
        let words: Option<Vec<&str>> = argv.iter().map(Value::as_str).collect();
        if let Some(words) = words {
            let script = script_of(&words);
            input.insert("command".to_owned(), Value::String(script));
        }
    }
}

/// The script an argv runs: the script of `SHELL -c SCRIPT` / `SHELL -lc SCRIPT`, else the
/// words joined as a shell command line.
fn script_of(argv: &[&str]) -> String {
    if let [shell, flag, script] = argv
        && is_shell(shell)
        && matches!(*flag, "-c" | "-lc")
    {
        return (*script).to_owned();
    }
    argv.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// Whether `program` is a POSIX shell (`bash`, `/bin/sh`, `zsh`, ..).
fn is_shell(program: &str) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh")
}

/// `word` as one shell word: as it is when it holds only safe characters, else in single
/// quotes.
fn quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if safe {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::error::Error;

    /// Codex's stdin for `event` read as the bridge reads it.
    fn read(event: Event, stdin: Value) -> Result<EventContext, Error> {
        Dialect::Codex.profile().read_context(event, stdin)
    }
    use crate::event::BuiltinEvent;
    use serde_json::json;

    const SESSION: &str = "01a23c37-d18d-79b3-8b80-e2baa0217c6b";
    const TURN: &str = "01a23c37-d1b7-74b3-bd6a-6ae5192bd996";

    /// The fields every event of Codex 0.171.0 carried in a recorded run (SessionEnd: no
    /// `model` or `permission_mode`; SessionStart: no `turn_id`), with `extra`.
    fn codex_stdin(event: &str, extra: Value) -> Value {
        let mut out = json!({"session_id": SESSION, "transcript_path": "/h/.codex/sessions/r.jsonl",
            "cwd": "/p", "hook_event_name": event, "model": "gpt-5.5",
            "permission_mode": "bypassPermissions", "turn_id": TURN});
        for (k, v) in extra.as_object().unwrap() {
            out[k] = v.clone();
        }
        out
    }

    /// Reading Codex's stdin `extra` for `event` gives a context whose fields are the
    /// common ones plus `expected`, and Codex's stdin builder writes the same stdin back
    /// but for what the reading made canonical (`canonical_only`: the tool's name or input
    /// in Codex's model-facing spelling).
    #[track_caller]
    fn check(event: BuiltinEvent, extra: Value, expected: Value) {
        let stdin = codex_stdin(event.info().name(), extra);
        let ctx = read(event.into(), stdin.clone()).unwrap();
        let mut want = stdin.as_object().unwrap().clone();
        want.remove("hook_event_name");
        for (k, v) in expected.as_object().unwrap() {
            want.insert(k.clone(), v.clone());
        }
        assert_eq!(Value::Object(ctx.fields().clone()), Value::Object(want));
        // The inverse: Codex's stdin builder gives back what Codex sends for the
        // canonical context (its names for the tools, no timestamp).
        let back = (Dialect::Codex.profile().stdin)(&ctx);
        let again = read(event.into(), back).unwrap();
        assert_eq!(again.fields(), ctx.fields());
    }

    #[test]
    fn every_event_reads_into_the_canonical_fields() {
        use BuiltinEvent as E;
        let none = json!({});
        check(E::SessionStart, json!({"source": "startup"}), none.clone());
        check(E::SessionEnd, json!({"reason": "other"}), none.clone());
        check(
            E::UserPromptSubmit,
            json!({"prompt": "Do the task."}),
            none.clone(),
        );
        check(
            E::PreToolUse,
            json!({"tool_name": "Bash", "tool_input": {"command": "touch a"}, "tool_use_id": "call_1"}),
            none.clone(),
        );
        check(
            E::PreToolUse,
            json!({"tool_name": "exec_command", "tool_input": {"cmd": "rm -r victim", "yield_time_ms": 1000}}),
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -r victim", "yield_time_ms": 1000}}),
        );
        check(
            E::PreToolUse,
            json!({"tool_name": "shell", "tool_input": {"command": ["bash", "-lc", "rm -r victim"], "workdir": "/p"}}),
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -r victim", "workdir": "/p"}}),
        );
        check(
            E::PreToolUse,
            json!({"tool_name": "local_shell", "tool_input": {"command": ["rm", "-r", "my victim"]}}),
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -r 'my victim'"}}),
        );
        check(
            E::PreToolUse,
            json!({"tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch"}}),
            json!({"tool_name": "Edit"}),
        );
        check(
            E::PreToolUse,
            json!({"tool_name": "mcp__fs__read", "tool_input": {"path": "a"}}),
            none.clone(),
        );
        check(
            E::PermissionRequest,
            json!({"tool_name": "Bash", "tool_input": {"command": "make", "description": "build"}}),
            none.clone(),
        );
        check(
            E::PostToolUse,
            json!({"tool_name": "Bash", "tool_input": {"command": "touch a"}, "tool_response": "", "tool_use_id": "call_1"}),
            none.clone(),
        );
        check(
            E::Stop,
            json!({"stop_hook_active": false, "last_assistant_message": "Finished."}),
            none.clone(),
        );
        check(
            E::SubagentStart,
            json!({"agent_id": "a1", "agent_type": "explorer"}),
            none.clone(),
        );
        check(
            E::SubagentStop,
            json!({"agent_id": "a1", "agent_type": "explorer", "agent_transcript_path": "/t",
                "stop_hook_active": true, "last_assistant_message": "done"}),
            none.clone(),
        );
        check(E::PreCompact, json!({"trigger": "auto"}), none.clone());
        check(E::PostCompact, json!({"trigger": "manual"}), none.clone());
        check(
            E::StopFailure,
            json!({"error": "rate_limit", "error_details": "429", "last_assistant_message": null}),
            none,
        );
    }

    #[test]
    fn the_canonical_fields_are_what_hooks_see() {
        let stdin = codex_stdin(
            "PreToolUse",
            json!({"tool_name": "exec_command", "tool_input": {"cmd": "git push"}}),
        );
        let ctx = read(BuiltinEvent::PreToolUse.into(), stdin).unwrap();
        assert_eq!(ctx.tool_name(), Some("Bash"));
        assert_eq!(ctx.get_str("turn_id"), Some(TURN));
        assert_eq!(ctx.get_str("model"), Some("gpt-5.5"));
        // A Claude Code hook is given the canonical shell input.
        let claude = (Dialect::Claude.profile().stdin)(&ctx);
        assert_eq!(claude["tool_input"], json!({"command": "git push"}));
    }

    #[test]
    fn a_payload_that_is_not_an_object_is_an_error() {
        let err = read(BuiltinEvent::Stop.into(), json!([1])).unwrap_err();
        assert!(err.to_string().contains("must be a JSON object"), "{err}");
    }
}
