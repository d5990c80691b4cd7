//! Composition of several hook objects: every hook called in registration order, and the
//! documented rule for combining their decisions.

use std::sync::Arc;

use hooks_orchestration::{
    ExecutionMode, RetryDecision, SubagentHookContext, SubagentHookRegistry, SubagentHooks,
    SubagentRetryDecision, Task, TaskHookContext, TaskHookRegistry, TaskHooks,
};

use crate::support::{Log, SubagentRecorder, TaskRecorder};

use RetryDecision::{Fail, Retry, Skip};

/// Registers one recording hook per decision, asks the registry, and checks the combined
/// answer and that every hook was asked, in order.
#[track_caller]
fn check_task(decisions: &[RetryDecision], expect: RetryDecision) {
    const NAMES: [&str; 4] = ["h0", "h1", "h2", "h3"];
    let log = Log::default();
    let mut registry = TaskHookRegistry::new();
    for (name, d) in NAMES.iter().zip(decisions) {
        registry.register(TaskRecorder::new(name, &log, vec![*d]));
    }
    let ctx = TaskHookContext::new(Task::new("t", "T"), 1, None);
    let got = futures_block_on(registry.on_failure(&ctx, "e"));
    assert_eq!(got, expect, "decisions {decisions:?}");
    let asked: Vec<String> = NAMES[..decisions.len()]
        .iter()
        .map(|n| format!("{n}.on_failure t#1: e"))
        .collect();
    assert_eq!(log.take(), asked);
}

/// The tests are synchronous: these futures never wait on anything.
fn futures_block_on<F: std::future::Future>(fut: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(fut)
}

#[test]
fn task_decisions_combine() {
    check_task(&[], Retry { delay_secs: 0 });
    check_task(&[Retry { delay_secs: 3 }], Retry { delay_secs: 3 });
    check_task(
        &[
            Retry { delay_secs: 3 },
            Retry { delay_secs: 7 },
            Retry { delay_secs: 5 },
        ],
        Retry { delay_secs: 7 },
    );
    check_task(&[Retry { delay_secs: 3 }, Skip], Skip);
    check_task(&[Skip, Retry { delay_secs: 3 }], Skip);
    check_task(&[Skip, Fail, Retry { delay_secs: 1 }], Fail);
    check_task(&[Retry { delay_secs: 9 }, Fail], Fail);
    check_task(&[Fail, Skip], Fail);
}

#[test]
fn the_default_decision_never_outvotes() {
    struct Quiet;
    impl TaskHooks for Quiet {}
    let log = Log::default();
    for other in [Retry { delay_secs: 4 }, Skip, Fail] {
        let mut registry = TaskHookRegistry::new();
        registry.register(Arc::new(Quiet));
        registry.register(TaskRecorder::new("h", &log, vec![other]));
        registry.register(Arc::new(Quiet));
        let ctx = TaskHookContext::new(Task::new("t", "T"), 1, None);
        assert_eq!(futures_block_on(registry.on_failure(&ctx, "e")), other);
    }
}

#[test]
fn every_task_callback_reaches_every_hook_in_registration_order() {
    let log = Log::default();
    let mut registry = TaskHookRegistry::new();
    registry
        .register(TaskRecorder::new("first", &log, vec![]))
        .register(TaskRecorder::new("second", &log, vec![]));
    assert_eq!(registry.len(), 2);
    let ctx = TaskHookContext::new(Task::new("t", "T"), 2, None);
    futures_block_on(async {
        registry.before_execute(&ctx).await;
        registry.after_execute(&ctx, "out").await;
    });
    assert_eq!(
        log.take(),
        [
            "first.before t#2",
            "second.before t#2",
            "first.after t#2 -> out",
            "second.after t#2 -> out",
        ]
    );
}

fn delegate(agent: &str) -> SubagentRetryDecision {
    SubagentRetryDecision::Delegate {
        alternative_agent: agent.to_owned(),
    }
}

fn retry(delay_secs: u64) -> SubagentRetryDecision {
    SubagentRetryDecision::Retry { delay_secs }
}

#[track_caller]
fn check_subagent(decisions: &[SubagentRetryDecision], expect: SubagentRetryDecision) {
    const NAMES: [&str; 4] = ["s0", "s1", "s2", "s3"];
    let log = Log::default();
    let mut registry = SubagentHookRegistry::new();
    for (name, d) in NAMES.iter().zip(decisions) {
        registry.register(SubagentRecorder::new(name, &log, vec![d.clone()]));
    }
    let ctx = SubagentHookContext::new("p", "a", ExecutionMode::Sync, "t", 1);
    let got = futures_block_on(registry.on_failure(&ctx, "e"));
    assert_eq!(got, expect, "decisions {decisions:?}");
    let asked: Vec<String> = NAMES[..decisions.len()]
        .iter()
        .map(|n| format!("{n}.on_failure a#1: e"))
        .collect();
    assert_eq!(log.take(), asked);
}

#[test]
fn subagent_decisions_combine() {
    use SubagentRetryDecision::Fail;
    check_subagent(&[], retry(0));
    check_subagent(&[retry(2), retry(8)], retry(8));
    check_subagent(&[retry(2), delegate("b")], delegate("b"));
    check_subagent(&[delegate("b"), retry(2)], delegate("b"));
    check_subagent(&[delegate("b"), delegate("c")], delegate("b"));
    check_subagent(&[retry(1), delegate("c"), delegate("b")], delegate("c"));
    check_subagent(&[delegate("b"), Fail], Fail);
    check_subagent(&[Fail, delegate("b"), retry(3)], Fail);
}

#[test]
fn every_subagent_callback_reaches_every_hook_in_registration_order() {
    struct Quiet;
    impl SubagentHooks for Quiet {}
    let log = Log::default();
    let mut registry = SubagentHookRegistry::new();
    registry
        .register(SubagentRecorder::new("first", &log, vec![]))
        .register(Arc::new(Quiet))
        .register(SubagentRecorder::new("second", &log, vec![delegate("z")]));
    let ctx = SubagentHookContext::new("p", "a", ExecutionMode::Fork, "t", 1);
    let decision = futures_block_on(async {
        registry.before_dispatch(&ctx).await;
        registry.on_failure(&ctx, "e").await
    });
    assert_eq!(decision, delegate("z"));
    assert_eq!(
        log.take(),
        [
            "first.before a#1",
            "second.before a#1",
            "first.on_failure a#1: e",
            "second.on_failure a#1: e",
        ]
    );
}
