//! Cline's events as Cline writes them, made canonical (`hooks_core::cline::read_event`),
//! one row per Cline event: the extension's proto3 JSON (`apps/vscode/proto/cline/hooks.proto`,
//! summarised in the protocol notes) and the SDK's, as the `cline` CLI 3.0.65 was seen to
//! send it. Each canonical event is also given back to a Cline hook
//! (`EventContext::to_json`) and must be Cline's own object again.

use hooks_core::{Dialect, EventCatalog, EventContext, cline};
use serde_json::{Value, json};

/// The common fields of the extension's payloads.
fn ext(hook: &str, key: &str, data: Value) -> Value {
    let mut v = json!({
        "clineVersion": "3.38.0",
        "hookName": hook,
        "timestamp": "1777629600000",
        "taskId": "task-1",
        "workspaceRoots": ["/work/app"],
        "userId": "u-7",
        "model": {"provider": "anthropic", "slug": "claude-sonnet"},
    });
    if !key.is_empty() {
        v[key] = data;
    }
    v
}

/// The canonical fields every row of [`ext`] has.
fn common(event: &str, more: Value) -> Value {
    let mut v = json!({
        "hook_event_name": event,
        "session_id": "task-1",
        "task_id": "task-1",
        "cwd": "/work/app",
        "workspace_roots": ["/work/app"],
        "cline_version": "3.38.0",
        "user_id": "u-7",
        "timestamp": "1777629600000",
        "model": {"provider": "anthropic", "slug": "claude-sonnet"},
    });
    for (k, x) in more.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

/// One row: Cline's payload, and the canonical event it is. With `round_trip`, the
/// canonical event given to a Cline hook is the payload again.
#[track_caller]
fn check(payload: Value, canonical: Value, round_trip: bool) {
    let got = cline::read_event(&payload).expect("a Cline payload");
    assert_eq!(got, canonical);
    let read_through_profile = Dialect::Cline.profile().reshape.unwrap()(&payload);
    assert_eq!(read_through_profile.as_ref(), Some(&got));
    if round_trip {
        let name = got["hook_event_name"].as_str().unwrap();
        let event = EventCatalog::new().resolve(name).unwrap();
        let ctx = EventContext::from_value(event, got.clone()).unwrap();
        assert_eq!(
            ctx.to_json(Dialect::Cline),
            payload,
            "given back to a Cline hook"
        );
    }
}

#[test]
fn the_extensions_events_are_canonical() {
    check(
        ext(
            "PreToolUse",
            "preToolUse",
            json!({"toolName": "execute_command", "parameters": {"command": "rm -r victim", "requires_approval": "true"}}),
        ),
        common(
            "PreToolUse",
            json!({"cline_tool_name": "execute_command", "tool_name": "Bash", "tool_input": {"command": "rm -r victim", "requires_approval": "true"}}),
        ),
        true,
    );
    check(
        ext(
            "PreToolUse",
            "preToolUse",
            json!({"toolName": "read_file", "parameters": {"path": "src/main.rs"}}),
        ),
        common(
            "PreToolUse",
            json!({"cline_tool_name": "read_file", "tool_name": "Read", "tool_input": {"file_path": "src/main.rs"}}),
        ),
        true,
    );
    check(
        ext(
            "PreToolUse",
            "preToolUse",
            json!({"toolName": "search_files", "parameters": {"regex": "TODO", "path": "."}}),
        ),
        common(
            "PreToolUse",
            json!({"cline_tool_name": "search_files", "tool_name": "Grep", "tool_input": {"pattern": "TODO", "path": "."}}),
        ),
        true,
    );
    check(
        ext(
            "PreToolUse",
            "preToolUse",
            json!({"toolName": "use_mcp_tool", "parameters": {"server_name": "github", "tool_name": "create_issue", "arguments": "{\"title\":\"x\"}"}}),
        ),
        common(
            "PreToolUse",
            json!({"cline_tool_name": "use_mcp_tool", "tool_name": "mcp__github__create_issue", "tool_input": {"title": "x"}}),
        ),
        true,
    );
    check(
        ext(
            "PostToolUse",
            "postToolUse",
            json!({"toolName": "execute_command", "parameters": {"command": "cargo test"}, "result": "ok", "success": true, "executionTimeMs": 7000}),
        ),
        common(
            "PostToolUse",
            json!({"cline_tool_name": "execute_command", "tool_name": "Bash", "tool_input": {"command": "cargo test"}, "tool_response": "ok", "duration_ms": 7000}),
        ),
        true,
    );
    // `success` false: the tool failed (proto3 leaves the false out of Cline's own JSON,
    // so the round trip is not checked here).
    check(
        ext(
            "PostToolUse",
            "postToolUse",
            json!({"toolName": "execute_command", "parameters": {"command": "false"}, "result": "exit 1", "success": false}),
        ),
        common(
            "PostToolUseFailure",
            json!({"cline_tool_name": "execute_command", "tool_name": "Bash", "tool_input": {"command": "false"}, "error": "exit 1"}),
        ),
        false,
    );
    check(
        ext(
            "UserPromptSubmit",
            "userPromptSubmit",
            json!({"prompt": "fix the build", "attachments": ["a.png"]}),
        ),
        common(
            "UserPromptSubmit",
            json!({"prompt": "fix the build", "attachments": ["a.png"]}),
        ),
        true,
    );
    for (hook, key) in [
        ("TaskStart", "taskStart"),
        ("TaskCancel", "taskCancel"),
        ("TaskComplete", "taskComplete"),
    ] {
        check(
            ext(
                hook,
                key,
                json!({"taskMetadata": {"taskId": "task-1", "ulid": "01J"}}),
            ),
            common(
                hook,
                json!({"task_metadata": {"taskId": "task-1", "ulid": "01J"}}),
            ),
            true,
        );
    }
    check(
        ext(
            "TaskResume",
            "taskResume",
            json!({"taskMetadata": {"taskId": "task-1"}, "previousState": {"lastMessageTs": "1"}}),
        ),
        common(
            "TaskResume",
            json!({"task_metadata": {"taskId": "task-1"}, "previous_state": {"lastMessageTs": "1"}}),
        ),
        true,
    );
    check(
        ext(
            "PreCompact",
            "preCompact",
            json!({"taskId": "task-1", "contextSize": 120000, "compactionStrategy": "auto", "tokensIn": 10}),
        ),
        common(
            "PreCompact",
            json!({"context_size": 120000, "compaction_strategy": "auto", "tokens_in": 10}),
        ),
        true,
    );
    check(
        ext(
            "Notification",
            "notification",
            json!({"event": "task_waiting", "source": "cline", "message": "waiting", "waitingForUserInput": true}),
        ),
        common(
            "Notification",
            json!({"notification_type": "task_waiting", "source": "cline", "message": "waiting", "waiting_for_user_input": true}),
        ),
        true,
    );
}

/// The SDK's payload, as the `cline` CLI 3.0.65 sent it to `.clinerules/hooks/PreToolUse`
/// (seen in a run against the loopback model server): SDK hook names, an ISO timestamp,
/// `tool_call` with the real input beside the legacy `preToolUse` strings, and the SDK's
/// `run_commands` tool.
#[test]
fn the_cli_sdk_events_are_canonical() {
    let base = |hook: &str| {
        json!({"clineVersion": "", "timestamp": "2026-12-03T13:59:00.393Z", "taskId": "conv_1",
            "sessionContext": {"rootSessionId": "1796306338956_a8ujt"},
            "workspaceRoots": ["/tmp/ws"], "workspaceInfo": {"rootPath": "/tmp/ws", "hint": "ws"},
            "userId": "unknown", "agent_id": "agent_1", "parent_agent_id": null, "hookName": hook, "iteration": 1})
    };
    let canonical = |event: &str, more: Value| {
        let mut v = json!({"hook_event_name": event, "session_id": "conv_1", "task_id": "conv_1",
            "cwd": "/tmp/ws", "workspace_roots": ["/tmp/ws"], "user_id": "unknown",
            "timestamp": "2026-12-03T13:59:00.393Z"});
        for (k, x) in more.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let mut pre = base("tool_call");
    pre["tool_call"] = json!({"id": "call_1", "name": "run_commands", "input": {"commands": ["rm -r victim", "ls"]}});
    pre["preToolUse"] = json!({"toolName": "run_commands", "parameters": {"commands": "[\"rm -r victim\",\"ls\"]"}});
    check(
        pre.clone(),
        canonical(
            "PreToolUse",
            json!({"cline_tool_name": "run_commands", "tool_name": "Bash", "tool_input": {"command": "rm -r victim\nls"}, "tool_use_id": "call_1"}),
        ),
        false,
    );
    // Without the SDK's `tool_call`, the legacy strings are decoded.
    pre.as_object_mut().unwrap().remove("tool_call");
    check(
        pre,
        canonical(
            "PreToolUse",
            json!({"cline_tool_name": "run_commands", "tool_name": "Bash", "tool_input": {"command": "rm -r victim\nls"}}),
        ),
        false,
    );
    let mut post = base("tool_result");
    post["tool_result"] = json!({"id": "call_1", "name": "run_commands", "input": {"commands": ["ls"]}, "output": [{"query": "ls", "result": "", "success": true}], "durationMs": 92});
    post["postToolUse"] = json!({"toolName": "run_commands", "parameters": {"commands": "[\"ls\"]"}, "result": "[]", "success": true, "executionTimeMs": 92});
    check(
        post,
        canonical(
            "PostToolUse",
            json!({"cline_tool_name": "run_commands", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call_1", "tool_response": "[]", "duration_ms": 92}),
        ),
        false,
    );
    for (hook, event) in [
        ("agent_start", "TaskStart"),
        ("agent_resume", "TaskResume"),
        ("agent_abort", "TaskCancel"),
        ("agent_end", "TaskComplete"),
        ("agent_error", "StopFailure"),
        ("session_shutdown", "SessionEnd"),
    ] {
        check(base(hook), canonical(event, json!({})), false);
    }
    let mut prompt = base("prompt_submit");
    prompt["userPromptSubmit"] = json!({"prompt": "hi", "attachments": []});
    check(
        prompt,
        canonical("UserPromptSubmit", json!({"prompt": "hi"})),
        false,
    );
}

/// What is not Cline's shape is left alone.
#[test]
fn other_payloads_are_not_read() {
    for payload in [
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"}),
        json!(null),
        json!({"hookName": 3}),
    ] {
        assert_eq!(cline::read_event(&payload), None, "{payload}");
    }
}
