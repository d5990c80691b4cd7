//! The audit log: one JSON line per hook run, with no command, environment or payload.

use std::path::PathBuf;

use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, Decision, EventContext, HookIndex, HookSpec,
    Layer, Provenance,
};
use hooks_exec::{AuditLog, Dispatcher, Error};
use serde_json::{Value, json};

use crate::support::{Fixture, SharedBuf};

/// Replaces the fields that change between runs with placeholders, after checking them.
fn redact(mut line: Value) -> Value {
    let obj = line.as_object_mut().unwrap();
    assert!(humantime::parse_rfc3339(obj["ts"].as_str().unwrap()).is_ok());
    obj.insert("ts".into(), "[ts]".into());
    assert!(obj["duration_ms"].is_u64());
    obj.insert("duration_ms".into(), "[duration]".into());
    line
}

#[tokio::test]
async fn every_hook_run_is_one_line() {
    let fx = Fixture::new();
    let buf = SharedBuf::default();
    let mut secret = CommandAction::new(CommandLine::Script(
        "echo \"$API_TOKEN\" > /dev/null; echo '{\"decision\":\"deny\",\"reason\":\"not today\"}'"
            .to_owned(),
    ));
    secret
        .env
        .push(("API_TOKEN".to_owned(), "hunter2-secret".to_owned()));
    let specs = vec![
        HookSpec::new(BuiltinEvent::PreToolUse, Action::Command(secret))
            .with_id("guard")
            .with_provenance(Provenance {
                file: Some(PathBuf::from(".claude/settings.json")),
                line: Some(4),
                column: Some(9),
                layer: Layer::Project,
            }),
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::script("echo oops >&2; exit 3"),
        )
        .with_id("broken"),
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::permission(Decision::Allow),
        )
        .with_id("allow"),
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::script("yes | head -c 2000000"),
        )
        .with_id("chatty"),
    ];
    let d = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .audit_log(AuditLog::to_writer(buf.clone()))
        .build()
        .unwrap();
    let ctx = EventContext::pre_tool_use("Bash", json!({"command": "cat secrets.txt"}))
        .session_id("s-1")
        .cwd(fx.dir());
    d.dispatch(&ctx).await;

    let text = buf.text();
    assert!(
        !text.contains("hunter2"),
        "a secret reached the audit log: {text}"
    );
    assert!(
        !text.contains("secrets.txt"),
        "the payload reached the audit log: {text}"
    );
    assert!(
        !text.contains("API_TOKEN"),
        "the command reached the audit log: {text}"
    );
    // Hooks run concurrently: lines come in finish order. Sort them by hook id.
    let mut lines: Vec<Value> = buf.json_lines().into_iter().map(redact).collect();
    lines.sort_by_key(|l| l["hook"].as_str().unwrap().to_owned());
    insta::assert_json_snapshot!("audit_lines", lines);
}

#[tokio::test]
async fn the_audit_log_appends_to_a_file() {
    let fx = Fixture::new();
    let path = fx.file("audit.jsonl");
    let spec =
        HookSpec::new(BuiltinEvent::Stop, Action::permission(Decision::None)).with_id("noop");
    for _ in 0..2 {
        let d = Dispatcher::builder()
            .index(HookIndex::new(vec![spec.clone()]))
            .audit_log(AuditLog::open(&path).unwrap())
            .build()
            .unwrap();
        d.dispatch(&EventContext::stop(false)).await;
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 2);
    for line in text.lines() {
        let line: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            (line["event"].as_str(), line["hook"].as_str()),
            (Some("Stop"), Some("noop"))
        );
    }

    let err = AuditLog::open(fx.file("missing/dir/audit.jsonl")).unwrap_err();
    assert!(matches!(err, Error::Io { .. }));
    assert!(err.to_string().contains("missing/dir/audit.jsonl"), "{err}");
}
