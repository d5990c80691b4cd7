//! The DAG runner: every decision path, call order compared as a whole, retry bounds,
//! delays on a paused clock, concurrency bounds, graph errors and cancellation.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hooks_orchestration::{
    BoxError, CancellationToken, Error, RetryDecision, RunReport, Task, TaskExecutor,
    TaskHookContext, TaskOutcome, TaskRunner, async_trait,
};
use tokio::time::Instant;

use crate::support::{Log, Scripted, TaskRecorder, WatchedTimer, timer};

fn completed(id: &str, attempts: u32) -> TaskOutcome {
    TaskOutcome::Completed {
        output: format!("{id} done"),
        attempts,
    }
}

/// Runs `tasks` with `runner` and the scripted executor; returns the report, the whole
/// log and the virtual time that passed.
async fn run(
    runner: &TaskRunner,
    log: &Log,
    tasks: Vec<Task>,
    script: &[(&'static str, &[&'static str])],
) -> (RunReport, Vec<String>, Duration) {
    let start = Instant::now();
    let report = runner
        .run(
            tasks,
            &Scripted::new(log, script),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    (report, log.take(), start.elapsed())
}

#[track_caller]
fn check_outcomes(report: &RunReport, expect: &[(&str, TaskOutcome)]) {
    let got: Vec<(&str, &TaskOutcome)> = report
        .tasks
        .iter()
        .map(|t| (t.id.as_str(), &t.outcome))
        .collect();
    let want: Vec<(&str, &TaskOutcome)> = expect.iter().map(|(i, o)| (*i, o)).collect();
    assert_eq!(got, want);
}

#[tokio::test(start_paused = true)]
async fn retry_then_succeed() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Retry { delay_secs: 5 }]);
    let runner = TaskRunner::new(timer()).with_hooks(hooks);
    let tasks = vec![Task::new("a", "A").with_max_retries(2)];
    let (report, calls, elapsed) = run(&runner, &log, tasks, &[("a", &["boom", "ok"])]).await;
    check_outcomes(&report, &[("a", completed("a", 2))]);
    assert_eq!(
        calls,
        [
            "h.before a#1",
            "exec a#1",
            "h.on_failure a#1: boom",
            "h.before a#2",
            "exec a#2",
            "h.after a#2 -> a done",
        ]
    );
    assert_eq!(elapsed, Duration::from_secs(5), "the delay is honoured");
}

#[tokio::test(start_paused = true)]
async fn retry_until_max_then_fail_and_dependents_fail() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Retry { delay_secs: 1 }]);
    let runner = TaskRunner::new(timer()).with_hooks(hooks);
    let tasks = vec![
        Task::new("a", "A").with_max_retries(2),
        Task::new("b", "B").depends_on("a"),
        Task::new("c", "C").depends_on("b"),
        Task::new("d", "D"),
    ];
    let (report, calls, elapsed) = run(&runner, &log, tasks, &[("a", &["boom"])]).await;
    check_outcomes(
        &report,
        &[
            (
                "a",
                TaskOutcome::Failed {
                    error: "boom".into(),
                    attempts: 3,
                },
            ),
            (
                "b",
                TaskOutcome::DependencyFailed {
                    dependency: "a".into(),
                },
            ),
            (
                "c",
                TaskOutcome::DependencyFailed {
                    dependency: "b".into(),
                },
            ),
            ("d", completed("d", 1)),
        ],
    );
    assert_eq!(
        calls,
        [
            // `a` runs until its retry delay before `d` is first polled.
            "h.before a#1",
            "exec a#1",
            "h.on_failure a#1: boom",
            "h.before d#1",
            "exec d#1",
            "h.after d#1 -> d done",
            "h.before a#2",
            "exec a#2",
            "h.on_failure a#2: boom",
            "h.before a#3",
            "exec a#3",
            "h.on_failure a#3: boom",
        ]
    );
    assert_eq!(
        elapsed,
        Duration::from_secs(2),
        "two retries, one second each"
    );
    assert!(!report.is_success());
}

#[tokio::test(start_paused = true)]
async fn retries_are_bounded_whatever_the_hooks_say() {
    let log = Log::default();
    // The hook always asks for a retry; the task allows none.
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Retry { delay_secs: 1 }]);
    let runner = TaskRunner::new(timer()).with_hooks(hooks);
    let (report, calls, elapsed) = run(
        &runner,
        &log,
        vec![Task::new("a", "A").with_max_retries(0)],
        &[("a", &["boom"])],
    )
    .await;
    check_outcomes(
        &report,
        &[(
            "a",
            TaskOutcome::Failed {
                error: "boom".into(),
                attempts: 1,
            },
        )],
    );
    assert_eq!(
        calls,
        ["h.before a#1", "exec a#1", "h.on_failure a#1: boom"]
    );
    assert_eq!(elapsed, Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn no_hooks_retry_at_once_as_far_as_max_retries_allows() {
    let log = Log::default();
    let runner = TaskRunner::new(timer());
    let tasks = vec![Task::new("a", "A").with_max_retries(3)];
    let (report, calls, elapsed) = run(&runner, &log, tasks, &[("a", &["x", "y", "ok"])]).await;
    check_outcomes(&report, &[("a", completed("a", 3))]);
    assert_eq!(calls, ["exec a#1", "exec a#2", "exec a#3"]);
    assert_eq!(elapsed, Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn skip_marks_skipped_and_dependents_run() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Skip]);
    let runner = TaskRunner::new(timer()).with_hooks(hooks);
    let tasks = vec![
        Task::new("a", "A").with_max_retries(5),
        Task::new("b", "B").depends_on("a"),
    ];
    let (report, calls, _) = run(&runner, &log, tasks, &[("a", &["not needed"])]).await;
    check_outcomes(
        &report,
        &[
            (
                "a",
                TaskOutcome::Skipped {
                    reason: "not needed".into(),
                    attempts: 1,
                },
            ),
            ("b", completed("b", 1)),
        ],
    );
    assert_eq!(
        calls,
        [
            "h.before a#1",
            "exec a#1",
            "h.on_failure a#1: not needed",
            "h.before b#1",
            "exec b#1",
            "h.after b#1 -> b done",
        ]
    );
    assert!(report.is_success());
}

#[tokio::test(start_paused = true)]
async fn fail_fails_the_task_and_its_dependents_at_once() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Fail]);
    let runner = TaskRunner::new(timer()).with_hooks(hooks);
    // Retries are allowed, but Fail ends the task on the first failure. `d` depends on
    // both a failed and a completed task.
    let tasks = vec![
        Task::new("a", "A").with_max_retries(5),
        Task::new("b", "B"),
        Task::new("c", "C").depends_on("a"),
        Task::new("d", "D").depends_on("b").depends_on("c"),
    ];
    let (report, calls, _) = run(&runner, &log, tasks, &[("a", &["fatal"])]).await;
    check_outcomes(
        &report,
        &[
            (
                "a",
                TaskOutcome::Failed {
                    error: "fatal".into(),
                    attempts: 1,
                },
            ),
            ("b", completed("b", 1)),
            (
                "c",
                TaskOutcome::DependencyFailed {
                    dependency: "a".into(),
                },
            ),
            (
                "d",
                TaskOutcome::DependencyFailed {
                    dependency: "c".into(),
                },
            ),
        ],
    );
    assert!(!calls.iter().any(|l| l.contains(" c#") || l.contains(" d#")));
}

#[tokio::test(start_paused = true)]
async fn hooks_see_true_attempts_and_retry_counts() {
    struct Seen(std::sync::Mutex<Vec<(u32, u32, Option<String>)>>);
    #[async_trait]
    impl hooks_orchestration::TaskHooks for Seen {
        async fn before_execute(&self, ctx: &TaskHookContext) {
            self.0
                .lock()
                .unwrap()
                .push((ctx.attempt, ctx.task.retry_count, ctx.executor.clone()));
        }
    }
    let seen = Arc::new(Seen(Default::default()));
    let runner = TaskRunner::new(timer()).with_hooks(seen.clone());
    let log = Log::default();
    let tasks = vec![
        Task::new("a", "A")
            .with_max_retries(2)
            .with_executor("builder"),
    ];
    run(&runner, &log, tasks, &[("a", &["x", "y", "ok"])]).await;
    let b = Some("builder".to_owned());
    assert_eq!(
        *seen.0.lock().unwrap(),
        [(1, 0, b.clone()), (2, 1, b.clone()), (3, 2, b)]
    );
}

#[tokio::test(start_paused = true)]
async fn retry_delay_is_capped() {
    let log = Log::default();
    let hooks = TaskRecorder::new(
        "h",
        &log,
        vec![RetryDecision::Retry {
            delay_secs: 1_000_000,
        }],
    );
    let runner = TaskRunner::new(timer())
        .with_hooks(hooks)
        .with_max_retry_delay(Duration::from_secs(30));
    let tasks = vec![Task::new("a", "A").with_max_retries(1)];
    let (report, _, elapsed) = run(&runner, &log, tasks, &[("a", &["x", "ok"])]).await;
    check_outcomes(&report, &[("a", completed("a", 2))]);
    assert_eq!(elapsed, Duration::from_secs(30));
}

#[tokio::test(start_paused = true)]
async fn dependencies_run_first_and_ready_tasks_start_in_input_order() {
    let log = Log::default();
    let runner = TaskRunner::new(timer()).with_max_concurrency(1);
    let tasks = vec![
        Task::new("deploy", "Deploy")
            .depends_on("test")
            .depends_on("lint"),
        Task::new("test", "Test").depends_on("build"),
        Task::new("build", "Build"),
        Task::new("lint", "Lint"),
    ];
    let (report, calls, _) = run(&runner, &log, tasks, &[]).await;
    assert!(report.is_success());
    // Once `build` is done, `test` (input position 1) goes before `lint` (position 3).
    assert_eq!(
        calls,
        [
            "exec build#1",
            "exec test#1",
            "exec lint#1",
            "exec deploy#1"
        ]
    );
}

/// An executor that takes one virtual second per task and records the most tasks it saw
/// in flight at once.
struct Slow {
    now: AtomicUsize,
    peak: AtomicUsize,
}

#[async_trait]
impl TaskExecutor for Slow {
    async fn execute(
        &self,
        ctx: &TaskHookContext,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(n, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(1)).await;
        self.now.fetch_sub(1, Ordering::SeqCst);
        Ok(ctx.task.id.clone())
    }
}

#[tokio::test(start_paused = true)]
async fn concurrency_is_bounded() {
    for (limit, tasks, seconds) in [(1, 4, 4), (2, 6, 3), (4, 6, 2), (8, 6, 1)] {
        let slow = Slow {
            now: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        };
        let runner = TaskRunner::new(timer()).with_max_concurrency(limit);
        let graph = (0..tasks)
            .map(|i| Task::new(format!("t{i}"), "T"))
            .collect();
        let start = Instant::now();
        let report = runner
            .run(graph, &slow, &CancellationToken::new())
            .await
            .unwrap();
        assert!(report.is_success());
        assert_eq!(
            slow.peak.load(Ordering::SeqCst),
            limit.min(tasks),
            "limit {limit}"
        );
        assert_eq!(
            start.elapsed(),
            Duration::from_secs(seconds),
            "limit {limit}"
        );
    }
}

#[track_caller]
fn check_graph_error(tasks: Vec<Task>, expect: Error, message: &str) {
    let err = hooks_orchestration::TaskGraph::new(tasks).unwrap_err();
    assert_eq!(err, expect);
    assert_eq!(err.to_string(), message);
}

#[test]
fn graph_errors() {
    check_graph_error(
        vec![
            Task::new("a", "A").depends_on("c"),
            Task::new("b", "B").depends_on("a"),
            Task::new("c", "C").depends_on("b"),
        ],
        Error::Cycle {
            path: vec!["a".into(), "c".into(), "b".into(), "a".into()],
        },
        "the task graph has a cycle: a -> c -> b -> a",
    );
    check_graph_error(
        vec![Task::new("a", "A").depends_on("a")],
        Error::Cycle {
            path: vec!["a".into(), "a".into()],
        },
        "the task graph has a cycle: a -> a",
    );
    check_graph_error(
        vec![
            Task::new("build", "B"),
            Task::new("test", "T").depends_on("biuld"),
        ],
        Error::UnknownDependency {
            task: "test".into(),
            dependency: "biuld".into(),
            suggestion: Some("build".into()),
        },
        "task `test` depends on `biuld`, which is not in the graph (did you mean `build`?)",
    );
    check_graph_error(
        vec![Task::new("a", "A"), Task::new("a", "again")],
        Error::DuplicateTask { id: "a".into() },
        "two tasks have the id `a`; task ids must be unique",
    );
}

#[test]
fn a_long_chain_is_no_cycle() {
    let mut tasks = vec![Task::new("t0", "T")];
    for i in 1..100_000 {
        tasks.push(Task::new(format!("t{i}"), "T").depends_on(format!("t{}", i - 1)));
    }
    let graph = hooks_orchestration::TaskGraph::new(tasks).unwrap();
    let order: Vec<&str> = graph
        .topological_order()
        .iter()
        .take(3)
        .map(|t| t.id.as_str())
        .collect();
    assert_eq!(order, ["t0", "t1", "t2"]);
}

#[tokio::test(start_paused = true)]
async fn a_cycle_is_an_error_before_anything_runs() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![]);
    let sink = crate::support::RecordingSink::proceeding(&log);
    let runner = TaskRunner::new(timer()).with_hooks(hooks).with_sink(sink);
    let tasks = vec![
        Task::new("ok", "runs if anything does"),
        Task::new("a", "A").depends_on("b"),
        Task::new("b", "B").depends_on("a"),
    ];
    let err = runner
        .run(tasks, &Scripted::new(&log, &[]), &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Cycle { .. }), "{err}");
    assert_eq!(
        log.take(),
        Vec::<String>::new(),
        "no hook, event or task ran"
    );
}

#[tokio::test(start_paused = true)]
async fn cancellation_during_a_retry_delay() {
    let log = Log::default();
    let hooks = TaskRecorder::new("h", &log, vec![RetryDecision::Retry { delay_secs: 60 }]);
    let (watched, sleeping) = WatchedTimer::new(&log);
    let runner = TaskRunner::new(watched).with_hooks(hooks);
    let tasks = vec![
        Task::new("a", "A").with_max_retries(3),
        Task::new("b", "B").depends_on("a"),
    ];
    let cancel = CancellationToken::new();
    let executor = Scripted::new(&log, &[("a", &["boom"])]);
    let start = Instant::now();
    let (report, ()) = tokio::join!(runner.run(tasks, &executor, &cancel), async {
        sleeping.await.unwrap();
        cancel.cancel();
    });
    let report = report.unwrap();
    check_outcomes(
        &report,
        &[
            ("a", TaskOutcome::Cancelled { attempts: 1 }),
            ("b", TaskOutcome::Cancelled { attempts: 0 }),
        ],
    );
    assert!(report.cancelled);
    assert_eq!(
        log.take(),
        [
            "h.before a#1",
            "exec a#1",
            "h.on_failure a#1: boom",
            "sleep 60s"
        ],
        "no second attempt"
    );
    assert_eq!(
        start.elapsed(),
        Duration::ZERO,
        "the pending retry was dropped"
    );
}

#[tokio::test(start_paused = true)]
async fn cancellation_stops_running_tasks_and_starts_nothing_new() {
    let log = Log::default();
    let runner = TaskRunner::new(timer()).with_max_concurrency(2);
    let tasks = vec![
        Task::new("a", "A"),
        Task::new("b", "B"),
        Task::new("c", "C"),
        Task::new("d", "D").depends_on("a"),
    ];
    let cancel = CancellationToken::new();
    let executor = Scripted::new(&log, &[("a", &["hang"]), ("b", &["hang"])]);
    let (report, ()) = tokio::join!(runner.run(tasks, &executor, &cancel), async {
        tokio::time::sleep(Duration::from_secs(10)).await;
        cancel.cancel();
    });
    let report = report.unwrap();
    check_outcomes(
        &report,
        &[
            ("a", TaskOutcome::Cancelled { attempts: 1 }),
            ("b", TaskOutcome::Cancelled { attempts: 1 }),
            ("c", TaskOutcome::Cancelled { attempts: 0 }),
            ("d", TaskOutcome::Cancelled { attempts: 0 }),
        ],
    );
    assert_eq!(log.take(), ["exec a#1", "exec b#1"]);
}

#[tokio::test(start_paused = true)]
async fn an_already_cancelled_token_runs_nothing() {
    let log = Log::default();
    let runner = TaskRunner::new(timer());
    let cancel = CancellationToken::new();
    cancel.cancel();
    let report = runner
        .run(
            vec![Task::new("a", "A")],
            &Scripted::new(&log, &[]),
            &cancel,
        )
        .await
        .unwrap();
    check_outcomes(&report, &[("a", TaskOutcome::Cancelled { attempts: 0 })]);
    assert!(log.take().is_empty());
}

#[test]
fn the_run_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let runner = TaskRunner::new(timer());
    let log = Log::default();
    let executor = Scripted::new(&log, &[]);
    let cancel = CancellationToken::new();
    let fut = runner.run(vec![], &executor, &cancel);
    assert_send(&fut);
}

#[tokio::test(start_paused = true)]
async fn cancellation_interrupts_a_hung_task_created_hook() {
    struct Hung;
    impl hooks_orchestration::EventSink for Hung {
        fn dispatch(
            &self,
            _ctx: hooks_orchestration::core::EventContext,
        ) -> hooks_orchestration::BoxFuture<'_, hooks_orchestration::core::Aggregate> {
            Box::pin(std::future::pending())
        }
    }
    let log = Log::default();
    let runner = TaskRunner::new(timer()).with_sink(Arc::new(Hung));
    let cancel = CancellationToken::new();
    let executor = Scripted::new(&log, &[]);
    let (report, ()) = tokio::join!(
        runner.run(vec![Task::new("a", "A")], &executor, &cancel),
        async {
            tokio::time::sleep(Duration::from_secs(1)).await;
            cancel.cancel();
        }
    );
    let report = report.unwrap();
    check_outcomes(&report, &[("a", TaskOutcome::Cancelled { attempts: 0 })]);
    assert!(log.take().is_empty());
}
