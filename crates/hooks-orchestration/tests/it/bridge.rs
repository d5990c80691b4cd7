//! The bridge to config-level hooks: the events a run emits, in order, with the hooks'
//! calls; blocks, skips and stops from the sink honoured where the event allows.

use std::sync::atomic::{AtomicUsize, Ordering};

use hooks_orchestration::core::BuiltinEvent;
use hooks_orchestration::{CancellationToken, RetryDecision, Task, TaskOutcome, TaskRunner};
use serde_json::json;

use crate::support::{Log, RecordingSink, Reply, Scripted, TaskRecorder, timer};

#[tokio::test(start_paused = true)]
async fn a_run_emits_task_and_stage_events_around_the_hooks() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Retry { delay_secs: 2 }]);
    let sink = RecordingSink::proceeding(&log);
    let runner = TaskRunner::new(timer())
        .with_hooks(hooks)
        .with_sink(sink.clone())
        .with_max_concurrency(1);
    let tasks = vec![
        Task::new("a", "A").with_max_retries(1),
        Task::new("b", "B").depends_on("a").with_max_retries(0),
        Task::new("c", "C").depends_on("b"),
    ];
    let executor = Scripted::new(&log, &[("a", &["flaky", "ok"]), ("b", &["broken"])]);
    let report = runner
        .run(tasks, &executor, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        report.outcome("b"),
        Some(&TaskOutcome::Failed {
            error: "broken".into(),
            attempts: 1
        })
    );
    assert_eq!(
        log.take(),
        [
            "TaskCreated a",
            "TaskCreated b",
            "TaskCreated c",
            "StageStart a#1",
            "h.before a#1",
            "exec a#1",
            "h.on_failure a#1: flaky",
            "StageRetrying a#1",
            "StageStart a#2",
            "h.before a#2",
            "exec a#2",
            "TaskCompleted a#2",
            "h.after a#2 -> a done",
            "StageComplete a#2",
            "StageStart b#1",
            "h.before b#1",
            "exec b#1",
            "h.on_failure b#1: broken",
            "StageFailed b#1",
        ]
    );
    let contexts = sink.contexts.lock().unwrap();
    let retrying = contexts
        .iter()
        .find(|c| c.event().builtin() == Some(BuiltinEvent::StageRetrying))
        .unwrap();
    assert_eq!(
        retrying.fields().clone(),
        json!({
            "node_id": "a", "handler_type": "task", "task_subject": "A", "attempt": 1,
            "error": "flaky", "next_attempt": 2, "delay_secs": 2
        })
        .as_object()
        .unwrap()
        .clone()
    );
    let completed = contexts
        .iter()
        .find(|c| c.event().builtin() == Some(BuiltinEvent::TaskCompleted))
        .unwrap();
    assert_eq!(completed.get_str("task_output"), Some("a done"));
    let failed = contexts.last().unwrap();
    assert_eq!(failed.get("skipped"), Some(&json!(false)));
}

#[tokio::test(start_paused = true)]
async fn a_task_created_block_rolls_the_task_back() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![]);
    // A config-level hook that refuses one task by id.
    let sink = RecordingSink::new(&log, |ctx| {
        if ctx.event().builtin() == Some(BuiltinEvent::TaskCreated)
            && ctx.get_str("task_id") == Some("deploy")
        {
            Reply::Block("no deploys on Fridays")
        } else {
            Reply::Proceed
        }
    });
    let runner = TaskRunner::new(timer()).with_hooks(hooks).with_sink(sink);
    let tasks = vec![
        Task::new("deploy", "Deploy"),
        Task::new("notify", "Notify").depends_on("deploy"),
        Task::new("docs", "Docs"),
    ];
    let report = runner
        .run(tasks, &Scripted::new(&log, &[]), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        report.outcome("deploy"),
        Some(&TaskOutcome::Rejected {
            reason: "no deploys on Fridays".into()
        })
    );
    assert_eq!(
        report.outcome("notify"),
        Some(&TaskOutcome::DependencyFailed {
            dependency: "deploy".into()
        })
    );
    assert_eq!(
        log.take(),
        [
            "TaskCreated deploy",
            "TaskCreated notify",
            "TaskCreated docs",
            "StageStart docs#1",
            "h.before docs#1",
            "exec docs#1",
            "TaskCompleted docs#1",
            "h.after docs#1 -> docs done",
            "StageComplete docs#1",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_task_completed_block_is_a_failed_attempt() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Retry { delay_secs: 0 }]);
    // The first TaskCompleted is refused, the second accepted.
    let seen = AtomicUsize::new(0);
    let sink = RecordingSink::new(&log, move |ctx| {
        if ctx.event().builtin() == Some(BuiltinEvent::TaskCompleted)
            && seen.fetch_add(1, Ordering::SeqCst) == 0
        {
            Reply::Block("tests are missing")
        } else {
            Reply::Proceed
        }
    });
    let runner = TaskRunner::new(timer()).with_hooks(hooks).with_sink(sink);
    let tasks = vec![Task::new("a", "A").with_max_retries(1)];
    let report = runner
        .run(tasks, &Scripted::new(&log, &[]), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        report.outcome("a"),
        Some(&TaskOutcome::Completed {
            output: "a done".into(),
            attempts: 2
        })
    );
    assert_eq!(
        log.take(),
        [
            "TaskCreated a",
            "StageStart a#1",
            "h.before a#1",
            "exec a#1",
            "TaskCompleted a#1",
            "h.on_failure a#1: blocked by a TaskCompleted hook: tests are missing",
            "StageRetrying a#1",
            "StageStart a#2",
            "h.before a#2",
            "exec a#2",
            "TaskCompleted a#2",
            "h.after a#2 -> a done",
            "StageComplete a#2",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_task_completed_block_without_retries_fails_the_task() {
    let log = Log::default();
    let sink = RecordingSink::new(&log, |ctx| {
        if ctx.event().builtin() == Some(BuiltinEvent::TaskCompleted) {
            Reply::Block("not good enough")
        } else {
            Reply::Proceed
        }
    });
    let runner = TaskRunner::new(timer()).with_sink(sink);
    let report = runner
        .run(
            vec![Task::new("a", "A").with_max_retries(0)],
            &Scripted::new(&log, &[]),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(
        report.outcome("a"),
        Some(&TaskOutcome::Failed {
            error: "blocked by a TaskCompleted hook: not good enough".into(),
            attempts: 1
        })
    );
}

#[tokio::test(start_paused = true)]
async fn stage_start_skip_and_block() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Fail]);
    let sink = RecordingSink::new(&log, |ctx| {
        match (ctx.event().builtin(), ctx.get_str("node_id")) {
            (Some(BuiltinEvent::StageStart), Some("optional")) => Reply::Skip,
            (Some(BuiltinEvent::StageStart), Some("guarded")) => Reply::Block("sandbox not ready"),
            _ => Reply::Proceed,
        }
    });
    let runner = TaskRunner::new(timer())
        .with_hooks(hooks)
        .with_sink(sink)
        .with_max_concurrency(1);
    let tasks = vec![
        Task::new("optional", "O"),
        Task::new("after", "A").depends_on("optional"),
        Task::new("guarded", "G"),
    ];
    let report = runner
        .run(tasks, &Scripted::new(&log, &[]), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        report.outcome("optional"),
        Some(&TaskOutcome::Skipped {
            reason: "skipped by a stage_start hook".into(),
            attempts: 0
        })
    );
    assert_eq!(
        report.outcome("guarded"),
        Some(&TaskOutcome::Failed {
            error: "blocked by a stage_start hook: sandbox not ready".into(),
            attempts: 1
        })
    );
    assert_eq!(
        log.take(),
        [
            "TaskCreated optional",
            "TaskCreated after",
            "TaskCreated guarded",
            "StageStart optional#1",
            // The skip released `after`, which comes before `guarded` in input order.
            "StageStart after#1",
            "h.before after#1",
            "exec after#1",
            "TaskCompleted after#1",
            "h.after after#1 -> after done",
            "StageComplete after#1",
            "StageStart guarded#1",
            "h.on_failure guarded#1: blocked by a stage_start hook: sandbox not ready",
            "StageFailed guarded#1",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn continue_false_stops_the_run() {
    let log = Log::default();
    let sink = RecordingSink::new(&log, |ctx| {
        if ctx.event().builtin() == Some(BuiltinEvent::StageComplete) {
            Reply::Stop("budget exhausted")
        } else {
            Reply::Proceed
        }
    });
    let runner = TaskRunner::new(timer())
        .with_sink(sink)
        .with_max_concurrency(1);
    let tasks = vec![Task::new("a", "A"), Task::new("b", "B")];
    let report = runner
        .run(tasks, &Scripted::new(&log, &[]), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(report.stopped.as_deref(), Some("budget exhausted"));
    assert!(!report.cancelled, "the caller's token was not cancelled");
    assert_eq!(
        report.outcome("b"),
        Some(&TaskOutcome::Cancelled { attempts: 0 })
    );
    assert_eq!(
        log.take(),
        [
            "TaskCreated a",
            "TaskCreated b",
            "StageStart a#1",
            "exec a#1",
            "TaskCompleted a#1",
            "StageComplete a#1",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn common_fields_reach_every_event() {
    let log = Log::default();
    let sink = RecordingSink::proceeding(&log);
    let fields = json!({"session_id": "s-1", "cwd": "/repo", "node_id": "base"});
    let runner = TaskRunner::new(timer())
        .with_sink(sink.clone())
        .with_event_fields(fields.as_object().unwrap().clone());
    runner
        .run(
            vec![Task::new("a", "A").with_description("the A task")],
            &Scripted::new(&log, &[]),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    let contexts = sink.contexts.lock().unwrap();
    assert_eq!(contexts.len(), 4);
    for ctx in contexts.iter() {
        assert_eq!(ctx.get_str("session_id"), Some("s-1"), "{ctx:?}");
        assert_eq!(ctx.get_str("cwd"), Some("/repo"));
    }
    assert_eq!(
        contexts[1].get_str("node_id"),
        Some("a"),
        "the event's own field wins"
    );
    assert_eq!(
        contexts[0].fields().clone(),
        json!({
            "task_id": "a", "task_subject": "A", "task_description": "the A task",
            "dependencies": [], "max_retries": 3, "session_id": "s-1", "cwd": "/repo",
            "node_id": "base"
        })
        .as_object()
        .unwrap()
        .clone()
    );
}

#[tokio::test(start_paused = true)]
async fn a_noop_sink_by_default_changes_nothing() {
    let log = Log::default();
    let runner = TaskRunner::new(timer());
    let report = runner
        .run(
            vec![Task::new("a", "A")],
            &Scripted::new(&log, &[]),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert!(report.is_success());
    assert_eq!(log.take(), ["exec a#1"]);
}
