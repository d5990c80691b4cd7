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

/// The sessions of the lines of `path` (missing: none), checking that each is one whole
/// JSON line.
fn sessions_in(path: &std::path::Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    assert!(text.is_empty() || text.ends_with('\n'), "{text}");
    text.lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not one whole line ({e}): {line}"));
            line["session_id"].as_str().unwrap().to_owned()
        })
        .collect()
}

/// Past its size limit the file is renamed to `<name>.1` (replacing the one before) and a
/// new one is started, while several writers (as several bridge processes do) append to it
/// at once: no file passes the limit, every line is whole, and no line is lost but the
/// oldest (of each writer, what is left is its latest lines, none missing between them).
#[test]
fn the_audit_log_is_rotated_past_its_limit_without_losing_a_line() {
    const WRITERS: usize = 4;
    const LINES: usize = 50;
    const LIMIT: u64 = 8_000;
    let fx = Fixture::new();
    let path = fx.file("audit.jsonl");
    let spec =
        HookSpec::new(BuiltinEvent::Stop, Action::permission(Decision::None)).with_id("noop");
    std::thread::scope(|scope| {
        for writer in 0..WRITERS {
            let (path, spec) = (&path, &spec);
            scope.spawn(move || {
                // Each writer opens the file itself, as a process of its own would.
                let d = Dispatcher::builder()
                    .index(HookIndex::new(vec![spec.clone()]))
                    .audit_log(AuditLog::open(path).unwrap().max_size(LIMIT))
                    .build()
                    .unwrap();
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                for line in 0..LINES {
                    let ctx = EventContext::stop(false).session_id(format!("w{writer}-{line:03}"));
                    runtime.block_on(d.dispatch(&ctx));
                }
            });
        }
    });
    let rotated = fx.file("audit.jsonl.1");
    for file in [&path, &rotated] {
        let size = std::fs::metadata(file).unwrap().len();
        assert!(size <= LIMIT, "{} has {size} bytes", file.display());
    }
    assert!(!fx.file("audit.jsonl.2").exists());
    let mut kept = sessions_in(&rotated);
    kept.extend(sessions_in(&path));
    // 200 lines of about 250 bytes: several rotations, and more than one file's worth kept.
    assert!(kept.len() > LIMIT as usize / 400, "{kept:?}");
    for writer in 0..WRITERS {
        let mut lines: Vec<usize> = kept
            .iter()
            .filter_map(|s| s.strip_prefix(&format!("w{writer}-")))
            .map(|n| n.parse().unwrap())
            .collect();
        lines.sort_unstable();
        let Some(&first) = lines.first() else {
            continue;
        };
        assert_eq!(
            lines,
            (first..LINES).collect::<Vec<_>>(),
            "writer {writer} lost a line: {kept:?}"
        );
    }
    // The newest lines are in the file itself.
    assert!(!sessions_in(&path).is_empty());
}

/// A writer whose file another one rotated away (another process's log, opened on the same
/// path) follows the path to the new file: its lines never go to `<name>.1`, where the next
/// rotation would drop them.
#[tokio::test]
async fn a_writer_follows_a_rotation_made_by_another() {
    let fx = Fixture::new();
    let path = fx.file("audit.jsonl");
    let spec =
        HookSpec::new(BuiltinEvent::Stop, Action::permission(Decision::None)).with_id("noop");
    let writer = |limit: u64| {
        Dispatcher::builder()
            .index(HookIndex::new(vec![spec.clone()]))
            .audit_log(AuditLog::open(&path).unwrap().max_size(limit))
            .build()
            .unwrap()
    };
    // Two lines fit, three do not.
    let (a, b) = (writer(600), writer(600));
    let line = |s: &str| EventContext::stop(false).session_id(s);
    a.dispatch(&line("a-1")).await;
    a.dispatch(&line("a-2")).await;
    b.dispatch(&line("b-1")).await;
    assert_eq!(sessions_in(&fx.file("audit.jsonl.1")), ["a-1", "a-2"]);
    assert_eq!(sessions_in(&path), ["b-1"]);
    // `a` still holds the file now named `audit.jsonl.1`; its line goes to the new one.
    a.dispatch(&line("a-3")).await;
    assert_eq!(sessions_in(&fx.file("audit.jsonl.1")), ["a-1", "a-2"]);
    assert_eq!(sessions_in(&path), ["b-1", "a-3"]);
    // A file removed from under the writers (by hand, or another tool) is started again.
    std::fs::remove_file(&path).unwrap();
    b.dispatch(&line("b-2")).await;
    assert_eq!(sessions_in(&path), ["b-2"]);
}
