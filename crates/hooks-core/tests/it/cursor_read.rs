//! Events arriving in Cursor's own payload shape, read into the canonical event and fields
//! by Cursor's profile (`Profile::read_event`): one row per Cursor event, with the payload
//! Cursor documents for it (cursor.com/docs/agent/hooks, summarised in the project's
//! protocol notes §4.3). Each row is also written back with Cursor's stdin builder
//! (`cursor::input_json`), which must give Cursor's payload again: the reader is its
//! inverse, so a Cursor hook is given what Cursor sent.

use hooks_core::{BuiltinEvent, EventContext, cursor};
use serde_json::{Map, Value, json};

/// Cursor's common fields with `extra` (the event's own) and its name.
fn cursor_payload(name: &str, extra: Value) -> Map<String, Value> {
    let mut p = json!({
        "conversation_id": "c-1",
        "generation_id": "g-1",
        "model": "claude-sonnet",
        "hook_event_name": name,
        "cursor_version": "2.0.77",
        "workspace_roots": ["/p"],
        "user_email": null,
        "transcript_path": null,
    });
    for (k, v) in extra.as_object().unwrap() {
        p[k] = v.clone();
    }
    p.as_object().unwrap().clone()
}

/// One row: Cursor's `name` with its own fields `extra` is the canonical `event` whose
/// fields include `want`; written back for a hook registered on `name`, it is Cursor's
/// payload again.
#[track_caller]
fn check(name: &str, extra: Value, event: BuiltinEvent, want: Value) {
    let read = cursor::read_event;
    let original = cursor_payload(name, extra);
    let mut fields = original.clone();
    let got = read(name, &mut fields).unwrap_or_else(|| panic!("{name}: not read"));
    assert_eq!(got.builtin(), Some(event), "{name}: event");
    for (k, v) in want.as_object().unwrap() {
        assert_eq!(fields.get(k), Some(v), "{name}: `{k}` in {fields:?}");
    }
    // Read twice (the bridge's background process reads its copy again): the same.
    let mut again = fields.clone();
    read(name, &mut again).unwrap();
    assert_eq!(again, fields, "{name}: reading is idempotent");
    let ctx = EventContext::from_value(got, Value::Object(fields)).unwrap();
    let home = cursor::event(name).unwrap();
    let written = cursor::input_json(&ctx, home);
    assert_eq!(written, Value::Object(original), "{name}: written back");
}

#[test]
fn every_cursor_event_is_read_into_canonical_fields() {
    use BuiltinEvent as E;
    check(
        "beforeShellExecution",
        json!({"command": "git push", "cwd": "/p/src"}),
        E::PreToolUse,
        json!({"session_id": "c-1", "cwd": "/p/src", "tool_name": "Bash", "tool_input": {"command": "git push"}}),
    );
    check(
        "afterShellExecution",
        json!({"command": "ls", "cwd": "/p", "output": "a\nb\n", "duration": 12}),
        E::PostToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a\nb\n"}}),
    );
    check(
        "beforeMCPExecution",
        json!({"tool_name": "query", "tool_input": "{\"sql\":\"SELECT 1\"}", "url": "http://localhost:3000"}),
        E::PreToolUse,
        json!({"tool_name": "mcp__unknown__query", "tool_input": {"sql": "SELECT 1"}, "cwd": "/p"}),
    );
    check(
        "afterMCPExecution",
        json!({"tool_name": "query", "tool_input": "{\"sql\":\"SELECT 1\"}", "result_json": "{\"rows\":1}", "duration": 3}),
        E::PostToolUse,
        json!({"tool_name": "mcp__unknown__query", "tool_response": {"rows": 1}}),
    );
    check(
        "beforeReadFile",
        json!({"file_path": "/p/.env", "content": "KEY=1", "attachments": [{"type": "rule", "filePath": "/p/.cursorrules"}]}),
        E::PreToolUse,
        json!({"tool_name": "Read", "tool_input": {"file_path": "/p/.env"}}),
    );
    check(
        "afterFileEdit",
        json!({"file_path": "/p/a.ts", "edits": [{"old_string": "1", "new_string": "2"}]}),
        E::PostToolUse,
        json!({"tool_name": "Edit", "tool_input": {"file_path": "/p/a.ts", "old_string": "1", "new_string": "2"}}),
    );
    check(
        "afterFileEdit",
        json!({"file_path": "/p/a.ts", "edits": [{"old_string": "1", "new_string": "2"}, {"old_string": "3", "new_string": "4"}]}),
        E::PostToolUse,
        json!({"tool_name": "MultiEdit", "tool_input": {"file_path": "/p/a.ts", "edits": [{"old_string": "1", "new_string": "2"}, {"old_string": "3", "new_string": "4"}]}}),
    );
    check(
        "preToolUse",
        json!({"tool_name": "Shell", "tool_input": {"command": "ls"}, "tool_use_id": "t-1", "cwd": "/p", "agent_message": "listing"}),
        E::PreToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
    );
    check(
        "postToolUse",
        json!({"tool_name": "Read", "tool_input": {"file_path": "/p/a"}, "tool_output": "text", "tool_use_id": "t-1", "cwd": "/p", "duration": 5}),
        E::PostToolUse,
        json!({"tool_name": "Read", "tool_response": "text"}),
    );
    check(
        "postToolUseFailure",
        json!({"tool_name": "Shell", "tool_input": {"command": "false"}, "tool_use_id": "t-1", "cwd": "/p", "error_message": "exit 1", "failure_type": "error", "duration": 5, "is_interrupt": false}),
        E::PostToolUseFailure,
        json!({"tool_name": "Bash", "error": "exit 1"}),
    );
    check(
        "beforeSubmitPrompt",
        json!({"prompt": "fix it", "attachments": []}),
        E::UserPromptSubmit,
        json!({"prompt": "fix it", "session_id": "c-1", "cwd": "/p"}),
    );
    check(
        "stop",
        json!({"status": "completed", "loop_count": 0}),
        E::Stop,
        json!({"stop_hook_active": false}),
    );
    check(
        "stop",
        json!({"status": "completed", "loop_count": 2}),
        E::Stop,
        json!({"stop_hook_active": true}),
    );
    // Cursor's stop hook also runs when the agent errs: that stop is StopFailure.
    check(
        "stop",
        json!({"status": "error", "loop_count": 0}),
        E::StopFailure,
        json!({"status": "error"}),
    );
    check(
        "subagentStart",
        json!({"subagent_type": "explore", "prompt": "look"}),
        E::SubagentStart,
        json!({"agent_type": "explore"}),
    );
    check(
        "subagentStop",
        json!({"subagent_type": "explore", "status": "completed", "result": "found it", "duration": 9, "agent_transcript_path": "/t"}),
        E::SubagentStop,
        json!({"agent_type": "explore", "last_assistant_message": "found it"}),
    );
    check(
        "sessionStart",
        json!({"session_id": "c-1", "is_background_agent": false, "composer_mode": "agent"}),
        E::SessionStart,
        json!({"session_id": "c-1", "source": "startup"}),
    );
    check(
        "sessionEnd",
        json!({"session_id": "c-1", "is_background_agent": false, "reason": "user_close", "duration_ms": 100, "final_status": "completed"}),
        E::SessionEnd,
        json!({"reason": "user_close"}),
    );
    check(
        "preCompact",
        json!({"trigger": "auto", "context_usage_percent": 91, "context_tokens": 1000, "context_window_size": 1100, "message_count": 40, "messages_to_compact": 30, "is_first_compaction": true}),
        E::PreCompact,
        json!({"trigger": "auto", "session_id": "c-1"}),
    );
    check(
        "afterAgentResponse",
        json!({"text": "done"}),
        E::AfterAgentResponse,
        json!({"text": "done", "session_id": "c-1"}),
    );
    check(
        "afterAgentThought",
        json!({"text": "hmm", "duration_ms": 50}),
        E::AfterAgentThought,
        json!({"text": "hmm"}),
    );
    check(
        "beforeTabFileRead",
        json!({"file_path": "/p/a", "content": "x"}),
        E::BeforeTabFileRead,
        json!({"file_path": "/p/a", "cwd": "/p"}),
    );
    check(
        "afterTabFileEdit",
        json!({"file_path": "/p/a", "edits": [{"old_string": "a", "new_string": "b", "range": {"start_line_number": 1, "start_column": 1, "end_line_number": 1, "end_column": 2}, "old_line": "a", "new_line": "b"}]}),
        E::AfterTabFileEdit,
        json!({"file_path": "/p/a"}),
    );
}

#[test]
fn names_that_are_not_cursors_are_left_alone() {
    let read = cursor::read_event;
    let mut fields = cursor_payload("PreToolUse", json!({"command": "ls"}));
    let before = fields.clone();
    assert!(read("PreToolUse", &mut fields).is_none());
    assert_eq!(fields, before);
}
