//! Tests for event contexts: builders, stdin JSON per dialect, environment variables.

use hooks_core::{
    BuiltinEvent, Dialect, EventCatalog, EventContext, EventInfo, StageEvent, env_vars,
};
use serde_json::json;

fn pairs(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

#[test]
fn pre_tool_use_stdin_json_is_claude_compatible() {
    let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls -la"}))
        .session_id("abc123")
        .cwd("/repo")
        .transcript_path("/tmp/t.jsonl")
        .permission_mode("default")
        .with("tool_use_id", "toolu_1");
    insta::assert_json_snapshot!(ctx.to_json(Dialect::Claude));
}

#[test]
fn hook_event_name_follows_the_dialect() {
    let ctx = EventContext::pre_tool_use("Bash", json!({}));
    let name = |d| {
        ctx.to_json(d)["hook_event_name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(name(Dialect::Claude), "PreToolUse");
    assert_eq!(name(Dialect::Native), "PreToolUse");
    assert_eq!(name(Dialect::Autohand), "pre-tool");
    assert_eq!(name(Dialect::Fabro), "pre_tool_use");
}

#[test]
fn echo_hooks_also_get_event_and_timestamp() {
    let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}))
        .timestamp("2026-05-29T10:30:00Z");
    let v = ctx.to_json(Dialect::Echo);
    assert_eq!(v["event"], "PreToolUse");
    assert_eq!(v["timestamp"], "2026-05-29T10:30:00Z");
    assert!(ctx.to_json(Dialect::Claude).get("event").is_none());
}

#[test]
fn the_event_key_each_dialect_reads() {
    // (dialect, its `event` key: echo-agent's canonical name, Fabro's own spelling)
    let cases = [
        (Dialect::Echo, Some("StageStart")),
        (Dialect::Fabro, Some("stage_start")),
        (Dialect::Native, None),
        (Dialect::Claude, None),
        (Dialect::Autohand, None),
    ];
    // A payload's own `event` is the engine's to write, in the hook's dialect.
    let ctx = EventContext::from_value(
        BuiltinEvent::StageStart,
        json!({"event": "bogus", "run_id": "run-1", "workflow_name": "ci", "node_id": "implement"}),
    )
    .unwrap();
    for (dialect, want) in cases {
        let v = ctx.to_json(dialect);
        assert_eq!(v.get("event").and_then(|e| e.as_str()), want, "{dialect}");
        assert_eq!(v["workflow_name"], "ci", "{dialect}");
    }
}

#[test]
fn fabro_workflow_reads_workflow_name_then_workflow() {
    let cases = [
        (json!({"workflow_name": "ci"}), Some("ci")),
        (json!({"workflow": "nightly"}), Some("nightly")),
        (
            json!({"workflow_name": "ci", "workflow": "nightly"}),
            Some("ci"),
        ),
        (json!({}), None),
    ];
    for (payload, want) in cases {
        let ctx = EventContext::from_value(BuiltinEvent::RunStart, payload.clone()).unwrap();
        let vars = env_vars(&ctx, Dialect::Fabro);
        let got = vars
            .iter()
            .find(|(k, _)| k == "FABRO_WORKFLOW")
            .map(|(_, v)| v.as_str());
        assert_eq!(got, want, "{payload}");
    }
}

#[test]
fn builders_set_their_fields() {
    let cases = [
        (
            EventContext::session_start("resume"),
            json!({"hook_event_name": "SessionStart", "source": "resume"}),
        ),
        (
            EventContext::stop(true),
            json!({"hook_event_name": "Stop", "stop_hook_active": true}),
        ),
        (
            EventContext::user_prompt_submit("hi"),
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}),
        ),
        (
            EventContext::notification("idle_prompt", "waiting"),
            json!({"hook_event_name": "Notification", "notification_type": "idle_prompt", "message": "waiting"}),
        ),
        (
            EventContext::subagent_start("a1", "Explore"),
            json!({"hook_event_name": "SubagentStart", "agent_id": "a1", "agent_type": "Explore"}),
        ),
        (
            EventContext::subagent_stop("a1", "Explore", false),
            json!({"hook_event_name": "SubagentStop", "agent_id": "a1", "agent_type": "Explore", "stop_hook_active": false}),
        ),
        (
            EventContext::task_created("t1", "write tests"),
            json!({"hook_event_name": "TaskCreated", "task_id": "t1", "task_subject": "write tests"}),
        ),
        (
            EventContext::task_completed("t1", "write tests"),
            json!({"hook_event_name": "TaskCompleted", "task_id": "t1", "task_subject": "write tests"}),
        ),
        (
            EventContext::post_tool_use("Read", json!({"file_path": "a"}), json!("ok")),
            json!({"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": "a"}, "tool_response": "ok"}),
        ),
        (
            EventContext::post_tool_use_failure("Bash", json!({}), "boom"),
            json!({"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": {}, "error": "boom"}),
        ),
        (
            EventContext::permission_request("Bash", json!({})),
            json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash", "tool_input": {}}),
        ),
        (
            EventContext::session_end("exit"),
            json!({"hook_event_name": "SessionEnd", "reason": "exit"}),
        ),
        (
            EventContext::file_changed("/repo/src/a.ts", "modify"),
            json!({"hook_event_name": "FileChanged", "file_path": "/repo/src/a.ts", "file_name": "a.ts", "change_type": "modify"}),
        ),
        (
            EventContext::run_start("r1", "ci"),
            json!({"hook_event_name": "RunStart", "run_id": "r1", "workflow_name": "ci"}),
        ),
        (
            EventContext::run_complete("r1", "ci"),
            json!({"hook_event_name": "RunComplete", "run_id": "r1", "workflow_name": "ci"}),
        ),
        (
            EventContext::run_failed("r1", "ci", "boom"),
            json!({"hook_event_name": "RunFailed", "run_id": "r1", "workflow_name": "ci", "error": "boom"}),
        ),
        (
            EventContext::stage(StageEvent::Retrying, "build", "agent"),
            json!({"hook_event_name": "StageRetrying", "node_id": "build", "handler_type": "agent"}),
        ),
        (
            EventContext::edge_selected("review", "fix"),
            json!({"hook_event_name": "EdgeSelected", "node_id": "review", "edge_from": "review", "edge_to": "fix"}),
        ),
    ];
    for (ctx, expect) in cases {
        assert_eq!(ctx.to_json(Dialect::Native), expect);
    }
}

#[test]
fn json_escape_hatch_takes_any_object() {
    let ctx = EventContext::from_value(
        BuiltinEvent::PreCompact,
        json!({"trigger": "auto", "hook_event_name": "Bogus", "custom_instructions": ""}),
    )
    .unwrap();
    assert_eq!(
        ctx.to_json(Dialect::Claude),
        json!({"hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": ""})
    );
    assert!(
        EventContext::from_value(BuiltinEvent::Stop, json!(null))
            .unwrap()
            .fields()
            .is_empty()
    );
    let err = EventContext::from_value(BuiltinEvent::Stop, json!([1])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid hook: an event payload must be a JSON object, not an array"
    );
}

#[test]
fn engine_keys_cannot_be_set_by_hand() {
    let ctx = EventContext::stop(false).with("hook_event_name", "PreToolUse");
    assert_eq!(ctx.to_json(Dialect::Claude)["hook_event_name"], "Stop");
}

#[test]
fn file_path_falls_back_to_the_tool_input() {
    assert_eq!(
        EventContext::pre_tool_use("Write", json!({"file_path": "a.ts"})).file_path(),
        Some("a.ts")
    );
    assert_eq!(
        EventContext::pre_tool_use("write_file", json!({"path": "b.ts"})).file_path(),
        Some("b.ts")
    );
    assert_eq!(
        EventContext::pre_tool_use("NotebookEdit", json!({"notebook_path": "c.ipynb"})).file_path(),
        Some("c.ipynb")
    );
    assert_eq!(
        EventContext::pre_tool_use("Bash", json!({"command": "ls"})).file_path(),
        None
    );
    assert_eq!(
        EventContext::file_changed("d.ts", "create").file_path(),
        Some("d.ts")
    );
}

#[test]
fn matcher_subjects_follow_the_event() {
    let ctx = EventContext::session_start("startup").with("session_type", "startup");
    let subjects: Vec<(&str, String)> = ctx
        .matcher_subjects()
        .map(|(f, v)| (f, v.into_owned()))
        .collect();
    assert_eq!(
        subjects,
        [
            ("source", "startup".to_owned()),
            ("session_type", "startup".to_owned())
        ]
    );
    let ctx = EventContext::new(BuiltinEvent::AutomodeIteration).with("automode_iteration", 3);
    assert_eq!(
        ctx.matcher_subjects()
            .map(|(_, v)| v.into_owned())
            .collect::<Vec<_>>(),
        ["3"]
    );
    assert_eq!(EventContext::stop(true).matcher_subjects().count(), 0);
}

#[test]
fn set_tool_input_replaces_the_input() {
    let mut ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
    ctx.set_tool_input(json!({"command": "ls -1"}));
    assert_eq!(ctx.tool_input(), Some(&json!({"command": "ls -1"})));
}

#[test]
fn autohand_environment() {
    let ctx = EventContext::pre_tool_use(
        "write_file",
        json!({"path": "src/index.ts", "content": "x"}),
    )
    .session_id("s1")
    .cwd("/ws")
    .with("tool_use_id", "call_123")
    .with("tool_success", json!(null));
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Autohand)),
        [
            ("HOOK_EVENT", "pre-tool"),
            ("HOOK_SESSION_ID", "s1"),
            ("HOOK_WORKSPACE", "/ws"),
            ("HOOK_TOOL", "write_file"),
            ("HOOK_TOOL_CALL_ID", "call_123"),
            ("HOOK_ARGS", r#"{"path":"src/index.ts","content":"x"}"#),
            ("HOOK_PATH", "src/index.ts"),
        ]
    );
}

#[test]
fn autohand_environment_for_stop_and_session_events() {
    let ctx = EventContext::new(BuiltinEvent::Stop)
        .with("tokens_used", 1200)
        .with("tool_calls_count", 4)
        .with("duration", 5321);
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Autohand)),
        [
            ("HOOK_EVENT", "stop"),
            ("HOOK_TOKENS", "1200"),
            ("HOOK_TOOL_CALLS_COUNT", "4"),
            ("HOOK_DURATION", "5321")
        ]
    );
    let ctx = EventContext::session_start("resume");
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Autohand)),
        [
            ("HOOK_EVENT", "session-start"),
            ("HOOK_SESSION_TYPE", "resume")
        ]
    );
    let ctx = EventContext::new(BuiltinEvent::SubagentStop)
        .with("subagent_success", true)
        .with("subagent_name", "explorer");
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Autohand)),
        [
            ("HOOK_EVENT", "subagent-stop"),
            ("HOOK_SUBAGENT_NAME", "explorer"),
            ("HOOK_SUBAGENT_SUCCESS", "true")
        ]
    );
}

#[test]
fn fabro_environment() {
    let ctx = EventContext::stage(StageEvent::Start, "build", "agent").run("run-1", "ci");
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Fabro)),
        [
            ("FABRO_EVENT", "stage_start"),
            ("FABRO_RUN_ID", "run-1"),
            ("FABRO_WORKFLOW", "ci"),
            ("FABRO_NODE_ID", "build"),
        ]
    );
}

#[test]
fn claude_environment() {
    // The `cwd` follows the agent (a `cd`, a worktree): it is never the project root, which
    // the command executor gives when the event names none.
    let ctx = EventContext::stop(false).cwd("/repo/worktree");
    assert_eq!(pairs(&env_vars(&ctx, Dialect::Claude)), []);
    let ctx = ctx
        .with("project_dir", "/root")
        .with("plugin_root", "/plugins/x");
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Echo)),
        [
            ("CLAUDE_PROJECT_DIR", "/root"),
            ("CLAUDE_PLUGIN_ROOT", "/plugins/x")
        ]
    );
}

#[test]
fn native_environment_is_the_union() {
    let ctx = EventContext::stop(false).cwd("/repo");
    let names: Vec<String> = env_vars(&ctx, Dialect::Native)
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(names, ["HOOK_EVENT", "HOOK_WORKSPACE", "FABRO_EVENT"]);
}

#[test]
fn custom_events_get_their_names_in_the_environment() {
    let mut catalog = EventCatalog::new();
    let ev = catalog
        .register(EventInfo::new("DeployStart").alias(Dialect::Autohand, "deploy-start"))
        .unwrap();
    let ctx = EventContext::new(ev);
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Autohand)),
        [("HOOK_EVENT", "deploy-start")]
    );
    assert_eq!(
        pairs(&env_vars(&ctx, Dialect::Fabro)),
        [("FABRO_EVENT", "DeployStart")]
    );
}
