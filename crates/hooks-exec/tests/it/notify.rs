//! The JSON-RPC notification sink: Autohand's method names and params, one notification
//! per line, to sync and async writers; async hook results and drops.

use std::sync::Arc;

use hooks_core::{Action, BuiltinEvent, EventContext, HookIndex, HookSpec};
use hooks_exec::{
    Dispatcher, Error, JsonRpcSink, NotificationSink, autohand_notification, autohand_notifications,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::support::SharedBuf;

const TS: &str = "2026-01-02T03:04:05.678Z";

/// Replaces `params.timestamp` (and `durationMs`) with placeholders, after checking the
/// timestamp is RFC 3339.
fn redact(mut message: Value) -> Value {
    let params = message["params"].as_object_mut().unwrap();
    let ts = params["timestamp"].as_str().unwrap();
    assert!(humantime::parse_rfc3339(ts).is_ok(), "{ts}");
    params.insert("timestamp".into(), "[timestamp]".into());
    if params.contains_key("durationMs") {
        params.insert("durationMs".into(), "[duration]".into());
    }
    message
}

#[test]
fn events_become_autohand_notifications() {
    let contexts = vec![
        EventContext::pre_tool_use("run_command", json!({"command": "npm test"}))
            .with("tool_use_id", "call-1"),
        EventContext::post_tool_use(
            "run_command",
            json!({"command": "npm test"}),
            json!("ok: 12 passed"),
        )
        .with("tool_use_id", "call-1")
        .with("duration", 1520),
        EventContext::post_tool_use_failure("write_file", json!({"path": "a.txt"}), "disk full")
            .with("tool_use_id", "call-2"),
        EventContext::file_changed("src/main.rs", "modify").with("tool_use_id", "call-3"),
        EventContext::user_prompt_submit("fix the tests")
            .with("mentioned_files", json!(["src/a.rs"])),
        EventContext::stop(false)
            .with("tokens_used", 1200)
            .with("tool_calls_count", 4)
            .with("turn_duration", 9000),
        EventContext::stop(false),
        EventContext::session_start("resume"),
        EventContext::session_end("quit").with("duration", 60000),
        EventContext::new(BuiltinEvent::SessionError)
            .with("error", "rate limited")
            .with("error_code", "429")
            .with("error_context", json!({"provider": "x"})),
        EventContext::subagent_stop("sub-1", "reviewer", false)
            .with("subagent_name", "code-reviewer")
            .with("subagent_success", false)
            .with("subagent_duration", 3000)
            .with("subagent_error", "gave up"),
        EventContext::permission_request(
            "run_command",
            json!({"command": "rm -rf build", "path": "build"}),
        ),
        EventContext::notification("idle", "Waiting for input"),
    ];
    let lines: Vec<Value> = contexts
        .into_iter()
        .map(|ctx| autohand_notification(&ctx.timestamp(TS)).unwrap())
        .collect();
    insta::assert_json_snapshot!("autohand_notifications", lines);

    // Events Autohand has no notification for write nothing.
    assert!(autohand_notification(&EventContext::new(BuiltinEvent::PreCompact)).is_none());
    // Without a timestamp in the context, it is now.
    let message = autohand_notification(&EventContext::session_start("startup")).unwrap();
    assert_eq!(
        redact(message),
        json!({"jsonrpc": "2.0", "method": "autohand.hook.sessionStart", "params": {"sessionType": "startup", "timestamp": "[timestamp]"}})
    );
}

/// The methods the sink writes for `ctx`, in order.
#[track_caller]
fn check_methods(ctx: EventContext, expect: &[&str]) {
    let buf = SharedBuf::default();
    let sink = JsonRpcSink::new(buf.clone());
    let ctx = ctx.timestamp(TS);
    sink.event(&ctx);
    let lines = buf.json_lines();
    let methods: Vec<&str> = lines
        .iter()
        .map(|l| l["method"].as_str().unwrap())
        .collect();
    assert_eq!(methods, expect);
    // An alias carries the params of the notification it follows.
    for pair in lines.windows(2) {
        assert_eq!(pair[0]["params"], pair[1]["params"]);
    }
    assert_eq!(
        autohand_notifications(&ctx),
        lines,
        "the sink writes what autohand_notifications gives"
    );
}

/// Autohand documents `autohand.hook.postResponse` as the alias of `stop`: every completed
/// turn sends both, `stop` first, with the same params. Other events send one.
#[test]
fn a_completed_turn_is_stop_then_post_response() {
    let stop = ["autohand.hook.stop", "autohand.hook.postResponse"];
    check_methods(EventContext::stop(false), &stop);
    check_methods(
        EventContext::stop(true)
            .with("tokens_used", 1200)
            .with("tool_calls_count", 4)
            .with("turn_duration", 9000),
        &stop,
    );
    check_methods(
        EventContext::pre_tool_use("run_command", json!({"command": "ls"})),
        &["autohand.hook.preTool"],
    );
    check_methods(
        EventContext::subagent_stop("sub-1", "reviewer", false),
        &["autohand.hook.subagentStop"],
    );
    check_methods(
        EventContext::session_end("quit"),
        &["autohand.hook.sessionEnd"],
    );
    check_methods(EventContext::new(BuiltinEvent::PreCompact), &[]);
}

#[test]
fn the_sink_writes_one_notification_per_line() {
    let buf = SharedBuf::default();
    let sink = JsonRpcSink::new(buf.clone());
    sink.event(&EventContext::session_start("startup").timestamp(TS));
    sink.event(&EventContext::new(BuiltinEvent::PreCompact));
    sink.event(&EventContext::notification("idle", "hi").timestamp(TS));
    let text = buf.text();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.ends_with('\n'));
    let methods: Vec<_> = buf
        .json_lines()
        .iter()
        .map(|l| l["method"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        methods,
        ["autohand.hook.sessionStart", "autohand.hook.notification"]
    );
    assert_eq!(sink.write_errors(), 0);
}

#[tokio::test]
async fn the_sink_writes_to_an_async_writer() {
    let (writer, reader) = tokio::io::duplex(64 * 1024);
    let sink = JsonRpcSink::from_async_writer(writer).unwrap();
    sink.event(&EventContext::pre_tool_use("Bash", json!({"command": "ls"})).timestamp(TS));
    sink.event(&EventContext::stop(false).timestamp(TS));
    let mut lines = BufReader::new(reader).lines();
    let first: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    let second: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(first["method"], "autohand.hook.preTool");
    assert_eq!(first["params"]["args"], json!({"command": "ls"}));
    assert_eq!(second["method"], "autohand.hook.stop");
    assert_eq!(sink.dropped(), 0);
}

#[test]
fn an_async_writer_needs_a_runtime() {
    let (writer, _reader) = tokio::io::duplex(16);
    let err = JsonRpcSink::from_async_writer(writer).unwrap_err();
    assert!(matches!(err, Error::NoRuntime { .. }), "{err}");
}

#[tokio::test]
async fn async_hook_results_and_drops_are_notified() {
    let buf = SharedBuf::default();
    let specs = vec![
        HookSpec::new(
            BuiltinEvent::SessionEnd,
            Action::script("echo '{\"systemMessage\":\"bye\"}'"),
        )
        .with_id("farewell")
        .with_async(true),
        HookSpec::new(BuiltinEvent::SessionEnd, Action::script("exit 3"))
            .with_id("broken")
            .with_async(true),
    ];
    let d = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .notification_sink(Arc::new(JsonRpcSink::new(buf.clone())))
        .build()
        .unwrap();
    d.dispatch(&EventContext::session_end("quit").timestamp(TS))
        .await;
    d.flush_async().await;
    let mut lines: Vec<Value> = buf.json_lines().into_iter().map(redact).collect();
    // The two async hooks finish in any order; sort them by id.
    lines[1..].sort_by_key(|l| l["params"]["hookId"].as_str().unwrap().to_owned());
    insta::assert_json_snapshot!("async_hook_notifications", lines);

    // A drop.
    let buf = SharedBuf::default();
    let sink = JsonRpcSink::new(buf.clone());
    let spec = HookSpec::new(BuiltinEvent::Stop, Action::script("true")).with_id("slow");
    sink.async_dropped(&EventContext::stop(false), &spec, 7);
    insta::assert_json_snapshot!("async_hook_dropped", redact(buf.json_lines().remove(0)));
}
