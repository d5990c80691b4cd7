//! The subagent dispatcher: each decision path, the delegation limits, cancellation,
//! stop-hook continuations, each execution mode, and the events it emits.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hooks_orchestration::core::BuiltinEvent;
use hooks_orchestration::{
    CancellationToken, Error, ExecutionMode, SubagentDispatcher, SubagentRequest, SubagentResult,
    SubagentRetryDecision,
};
use tokio::time::Instant;

use crate::support::{
    Log, RecordingSink, Reply, ScriptedRunner, SubagentRecorder, WatchedTimer, timer,
};

fn request(agent: &str, mode: ExecutionMode) -> SubagentRequest {
    SubagentRequest::new("lead", agent, mode, "summarise the diff")
}

fn delegate(agent: &str) -> SubagentRetryDecision {
    SubagentRetryDecision::Delegate {
        alternative_agent: agent.to_owned(),
    }
}

/// A dispatcher over a scripted runner, with one recording hook and a recording sink that
/// answers by `rule`.
fn dispatcher(
    log: &Log,
    script: &[(&'static str, &[&'static str])],
    decisions: Vec<SubagentRetryDecision>,
    rule: impl Fn(&hooks_orchestration::core::EventContext) -> Reply + Send + Sync + 'static,
) -> (SubagentDispatcher, Arc<ScriptedRunner>, Arc<RecordingSink>) {
    let runner = ScriptedRunner::new(log, script);
    let sink = RecordingSink::new(log, rule);
    let d = SubagentDispatcher::new(runner.clone(), timer())
        .with_hooks(SubagentRecorder::new("h", log, decisions))
        .with_sink(sink.clone());
    (d, runner, sink)
}

fn proceed(_: &hooks_orchestration::core::EventContext) -> Reply {
    Reply::Proceed
}

#[tokio::test(start_paused = true)]
async fn a_sync_dispatch_in_order() {
    let log = Log::default();
    let (d, _, sink) = dispatcher(&log, &[], vec![], proceed);
    let result = d
        .dispatch(
            request("reviewer", ExecutionMode::Sync),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(result.agent, "reviewer");
    assert_eq!(result.output, "reviewer answer");
    assert_eq!(result.attempts, 1);
    assert_eq!(
        log.take(),
        [
            "h.before reviewer#1",
            "SubagentStart reviewer#1",
            "run reviewer#1",
            "SubagentStop reviewer#1",
            "h.after reviewer#1 -> reviewer answer",
        ]
    );
    let contexts = sink.contexts.lock().unwrap();
    let stop = &contexts[1];
    assert_eq!(stop.get_str("agent_id"), contexts[0].get_str("agent_id"));
    assert_eq!(stop.get_str("parent_agent"), Some("lead"));
    assert_eq!(stop.get_str("execution_mode"), Some("sync"));
    assert_eq!(stop.get_str("task"), Some("summarise the diff"));
    assert_eq!(
        stop.get_str("last_assistant_message"),
        Some("reviewer answer")
    );
    assert_eq!(
        stop.get("stop_hook_active"),
        Some(&serde_json::json!(false))
    );
}

#[tokio::test(start_paused = true)]
async fn retry_then_succeed() {
    let log = Log::default();
    let (d, _, _) = dispatcher(
        &log,
        &[("a", &["timeout", "ok"])],
        vec![SubagentRetryDecision::Retry { delay_secs: 2 }],
        proceed,
    );
    let d = d.with_max_retries(3);
    let start = Instant::now();
    let result = d
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(result.attempts, 2);
    assert_eq!(start.elapsed(), Duration::from_secs(2));
    assert_eq!(
        log.take(),
        [
            "h.before a#1",
            "SubagentStart a#1",
            "run a#1",
            "SubagentStop a#1",
            "h.on_failure a#1: timeout",
            "h.before a#2",
            "SubagentStart a#2",
            "run a#2",
            "SubagentStop a#2",
            "h.after a#2 -> a answer",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn retry_is_bounded() {
    let log = Log::default();
    let (d, runner, _) = dispatcher(
        &log,
        &[("a", &["down"])],
        vec![SubagentRetryDecision::Retry { delay_secs: 1 }],
        proceed,
    );
    let err = d
        .with_max_retries(2)
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        Error::SubagentFailed {
            agent: "a".into(),
            attempts: 3,
            error: "down".into()
        }
    );
    assert_eq!(runner.runs.lock().unwrap().len(), 3);
    assert_eq!(
        err.to_string(),
        "subagent `a` failed after 3 attempt(s): down"
    );
}

#[tokio::test(start_paused = true)]
async fn fail_propagates_at_once() {
    let log = Log::default();
    let (d, _, _) = dispatcher(
        &log,
        &[("a", &["bad request"])],
        vec![SubagentRetryDecision::Fail],
        proceed,
    );
    let err = d
        .with_max_retries(5)
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        Error::SubagentFailed {
            agent: "a".into(),
            attempts: 1,
            error: "bad request".into()
        }
    );
}

#[tokio::test(start_paused = true)]
async fn delegate_dispatches_to_the_alternative() {
    let log = Log::default();
    let (d, _, _) = dispatcher(
        &log,
        &[("primary", &["overloaded"])],
        vec![delegate("backup")],
        proceed,
    );
    let result = d
        .dispatch(
            request("primary", ExecutionMode::Sync),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(result.agent, "backup");
    assert_eq!(result.output, "backup answer");
    assert_eq!(result.delegated_from, ["primary"]);
    assert_eq!(result.attempts, 1, "a delegate starts again at attempt 1");
    assert_eq!(
        log.take(),
        [
            "h.before primary#1",
            "SubagentStart primary#1",
            "run primary#1",
            "SubagentStop primary#1",
            "h.on_failure primary#1: overloaded",
            "h.before backup#1",
            "SubagentStart backup#1",
            "run backup#1",
            "SubagentStop backup#1",
            "h.after backup#1 -> backup answer",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_delegation_loop_is_stopped() {
    let log = Log::default();
    // a fails and delegates to b; b fails and delegates back to a.
    let (d, runner, _) = dispatcher(
        &log,
        &[("a", &["no"]), ("b", &["no"])],
        vec![delegate("b"), delegate("a")],
        proceed,
    );
    let err = d
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        Error::DelegationLoop {
            chain: vec!["a".into(), "b".into()],
            agent: "a".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "delegation loop: a -> b -> a; `a` already had this task"
    );
    assert_eq!(runner.runs.lock().unwrap().len(), 2);
}

#[tokio::test(start_paused = true)]
async fn delegating_to_oneself_is_a_loop() {
    let log = Log::default();
    let (d, _, _) = dispatcher(&log, &[("a", &["no"])], vec![delegate("a")], proceed);
    let err = d
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::DelegationLoop { .. }), "{err}");
}

#[tokio::test(start_paused = true)]
async fn delegation_depth_is_limited() {
    let log = Log::default();
    // Every agent fails; the hook walks a chain a -> b -> c -> d -> e.
    let (d, runner, _) = dispatcher(
        &log,
        &[
            ("a", &["no"]),
            ("b", &["no"]),
            ("c", &["no"]),
            ("d", &["no"]),
        ],
        vec![delegate("b"), delegate("c"), delegate("d"), delegate("e")],
        proceed,
    );
    let err = d
        .with_max_delegation_depth(2)
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        Error::DelegationDepth {
            chain: vec!["a".into(), "b".into(), "c".into()],
            agent: "d".into(),
            limit: 2
        }
    );
    let ran: Vec<String> = runner
        .runs
        .lock()
        .unwrap()
        .iter()
        .map(|r| r.context.subagent_name.clone())
        .collect();
    assert_eq!(ran, ["a", "b", "c"]);
}

#[tokio::test(start_paused = true)]
async fn cancellation_during_a_retry_delay() {
    let log = Log::default();
    let runner = ScriptedRunner::new(&log, &[("a", &["flaky"])]);
    let (watched, sleeping) = WatchedTimer::new(&log);
    let d = SubagentDispatcher::new(runner, watched)
        .with_hooks(SubagentRecorder::new(
            "h",
            &log,
            vec![SubagentRetryDecision::Retry { delay_secs: 30 }],
        ))
        .with_max_retries(5);
    let cancel = CancellationToken::new();
    let start = Instant::now();
    let (result, ()) = tokio::join!(
        d.dispatch(request("a", ExecutionMode::Sync), &cancel),
        async {
            sleeping.await.unwrap();
            cancel.cancel();
        }
    );
    assert_eq!(result.unwrap_err(), Error::Cancelled { agent: "a".into() });
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert_eq!(
        log.take(),
        [
            "h.before a#1",
            "run a#1",
            "h.on_failure a#1: flaky",
            "sleep 30s"
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn the_parents_cancellation_reaches_a_delegate() {
    let log = Log::default();
    let (d, _, _) = dispatcher(
        &log,
        &[("a", &["no"]), ("b", &["hang"])],
        vec![delegate("b")],
        proceed,
    );
    let parent = CancellationToken::new();
    let (result, ()) = tokio::join!(
        d.dispatch(request("a", ExecutionMode::Sync), &parent),
        async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            parent.cancel();
        }
    );
    assert_eq!(result.unwrap_err(), Error::Cancelled { agent: "b".into() });
    assert!(log.take().contains(&"run b#1".to_owned()));
}

/// A sink rule that blocks the first `n` stop events (`event`).
fn block_first(
    event: BuiltinEvent,
    n: usize,
) -> impl Fn(&hooks_orchestration::core::EventContext) -> Reply + Send + Sync + 'static {
    let seen = AtomicUsize::new(0);
    move |ctx| {
        if ctx.event().builtin() == Some(event) && seen.fetch_add(1, Ordering::SeqCst) < n {
            Reply::Block("keep going: tests still fail")
        } else {
            Reply::Proceed
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_subagent_stop_block_keeps_the_subagent_going() {
    let log = Log::default();
    let (d, runner, sink) = dispatcher(
        &log,
        &[],
        vec![],
        block_first(BuiltinEvent::SubagentStop, 1),
    );
    let result = d
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(result.continuations, 1);
    assert_eq!(result.stop_cap_reason, None);
    assert_eq!(
        log.take(),
        [
            "h.before a#1",
            "SubagentStart a#1",
            "run a#1",
            "SubagentStop a#1",
            "run a#1 (continuation 1: keep going: tests still fail)",
            "SubagentStop a#1",
            "h.after a#1 -> a answer",
        ]
    );
    let runs = runner.runs.lock().unwrap();
    assert_eq!(runs[1].previous_output.as_deref(), Some("a answer"));
    let stops: Vec<_> = sink
        .contexts
        .lock()
        .unwrap()
        .iter()
        .filter_map(|c| c.get("stop_hook_active").cloned())
        .collect();
    assert_eq!(stops, [serde_json::json!(false), serde_json::json!(true)]);
}

#[tokio::test(start_paused = true)]
async fn stop_blocks_are_capped() {
    let log = Log::default();
    let (d, runner, _) = dispatcher(
        &log,
        &[],
        vec![],
        block_first(BuiltinEvent::SubagentStop, usize::MAX),
    );
    let result = d
        .with_max_stop_blocks(2)
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        runner.runs.lock().unwrap().len(),
        3,
        "one run and two continuations"
    );
    assert_eq!(result.continuations, 2);
    assert_eq!(
        result.stop_cap_reason.as_deref(),
        Some(
            "stop-loop cap: the SubagentStop hooks blocked 3 consecutive times, more than the \
             cap of 2 (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP); the block is overridden and the agent \
             stops (last reason: keep going: tests still fail)"
        )
    );
}

#[tokio::test(start_paused = true)]
async fn a_stop_block_after_a_failure_is_ignored() {
    let log = Log::default();
    let (d, runner, _) = dispatcher(
        &log,
        &[("a", &["crashed"])],
        vec![SubagentRetryDecision::Fail],
        block_first(BuiltinEvent::SubagentStop, usize::MAX),
    );
    let err = d
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(matches!(err, Error::SubagentFailed { .. }));
    assert_eq!(runner.runs.lock().unwrap().len(), 1);
}

#[tokio::test(start_paused = true)]
async fn subagent_start_context_reaches_the_runner() {
    let log = Log::default();
    let (d, runner, _) = dispatcher(&log, &[], vec![], |ctx| {
        if ctx.event().builtin() == Some(BuiltinEvent::SubagentStart) {
            Reply::Context("the repo uses rustfmt defaults")
        } else {
            Reply::Proceed
        }
    });
    d.dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        runner.runs.lock().unwrap()[0].additional_context,
        ["the repo uses rustfmt defaults"]
    );
}

#[tokio::test(start_paused = true)]
async fn a_teammate_is_kept_working_by_teammate_idle() {
    let log = Log::default();
    let (d, _, sink) = dispatcher(
        &log,
        &[],
        vec![],
        block_first(BuiltinEvent::TeammateIdle, 1),
    );
    let result = d
        .dispatch(
            request("tester", ExecutionMode::Teammate).with_team("crew"),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(result.execution_mode, ExecutionMode::Teammate);
    assert_eq!(result.continuations, 1);
    assert_eq!(
        log.take(),
        [
            "h.before tester#1",
            "SubagentStart tester#1",
            "run tester#1",
            "TeammateIdle tester#1",
            "run tester#1 (continuation 1: keep going: tests still fail)",
            "TeammateIdle tester#1",
            "SubagentStop tester#1",
            "h.after tester#1 -> tester answer",
        ]
    );
    let contexts = sink.contexts.lock().unwrap();
    assert_eq!(contexts[1].get_str("team_name"), Some("crew"));
    assert_eq!(contexts[1].get_str("execution_mode"), Some("teammate"));
}

#[tokio::test(start_paused = true)]
async fn a_fork_runs_alongside_the_parent() {
    let log = Log::default();
    let (d, _, _) = dispatcher(&log, &[], vec![], proceed);
    let parent = CancellationToken::new();
    // The dispatch future is 'static: the parent spawns it and goes on.
    let handle = tokio::spawn(d.dispatch(request("explorer", ExecutionMode::Fork), &parent));
    log.push("parent goes on");
    let result: SubagentResult = handle.await.unwrap().unwrap();
    assert_eq!(result.execution_mode, ExecutionMode::Fork);
    assert_eq!(
        log.take(),
        [
            "parent goes on",
            "h.before explorer#1",
            "SubagentStart explorer#1",
            "run explorer#1",
            "SubagentStop explorer#1",
            "h.after explorer#1 -> explorer answer",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn continue_false_stops_the_dispatch() {
    let log = Log::default();
    let (d, runner, _) = dispatcher(&log, &[], vec![], |ctx| {
        if ctx.event().builtin() == Some(BuiltinEvent::SubagentStart) {
            Reply::Stop("quota reached")
        } else {
            Reply::Proceed
        }
    });
    let err = d
        .dispatch(request("a", ExecutionMode::Sync), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(
        err,
        Error::Stopped {
            reason: "quota reached".into()
        }
    );
    assert!(runner.runs.lock().unwrap().is_empty());
}
