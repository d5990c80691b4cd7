//! Shared test doubles: a paused-clock timer, a shared call log, recording hooks, a
//! scripted executor and subagent runner, and a recording event sink with scripted answers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hooks_orchestration::core::{Aggregate, Decision, EventContext};
use hooks_orchestration::{
    BoxError, BoxFuture, CancellationToken, EventSink, RetryDecision, SubagentHookContext,
    SubagentHooks, SubagentResult, SubagentRetryDecision, SubagentRun, SubagentRunner,
    TaskExecutor, TaskHookContext, TaskHooks, Timer, async_trait,
};
use tokio::sync::oneshot;

/// One log shared by hooks, executors, runners and sinks, so that a test sees the whole
/// order of calls.
#[derive(Clone, Default)]
pub(crate) struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    pub(crate) fn push(&self, line: impl Into<String>) {
        self.0.lock().unwrap().push(line.into());
    }

    pub(crate) fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// The tokio adapter from docs/orchestration.md; tests run with a paused clock.
pub(crate) struct TokioTimer;

impl Timer for TokioTimer {
    fn sleep(&self, d: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(d))
    }
}

/// A timer that logs each sleep and tells the test when the first one started.
pub(crate) struct WatchedTimer {
    pub(crate) log: Log,
    pub(crate) started: Mutex<Option<oneshot::Sender<()>>>,
}

impl WatchedTimer {
    pub(crate) fn new(log: &Log) -> (Arc<WatchedTimer>, oneshot::Receiver<()>) {
        let (tx, rx) = oneshot::channel();
        let timer = WatchedTimer {
            log: log.clone(),
            started: Mutex::new(Some(tx)),
        };
        (Arc::new(timer), rx)
    }
}

impl Timer for WatchedTimer {
    fn sleep(&self, d: Duration) -> BoxFuture<'static, ()> {
        self.log.push(format!("sleep {}s", d.as_secs()));
        if let Some(tx) = self.started.lock().unwrap().take() {
            let _ = tx.send(());
        }
        Box::pin(tokio::time::sleep(d))
    }
}

pub(crate) fn timer() -> Arc<dyn Timer> {
    Arc::new(TokioTimer)
}

/// Task hooks that log every call as `<name>.<callback> <task>#<attempt>` and answer
/// `on_failure` from a script (the last entry repeats; no script: the trait default).
pub(crate) struct TaskRecorder {
    pub(crate) name: &'static str,
    pub(crate) log: Log,
    pub(crate) decisions: Vec<RetryDecision>,
    pub(crate) calls: Mutex<usize>,
}

impl TaskRecorder {
    pub(crate) fn new(name: &'static str, log: &Log, decisions: Vec<RetryDecision>) -> Arc<Self> {
        Arc::new(TaskRecorder {
            name,
            log: log.clone(),
            decisions,
            calls: Mutex::new(0),
        })
    }
}

fn at(ctx: &TaskHookContext) -> String {
    format!("{}#{}", ctx.task.id, ctx.attempt)
}

#[async_trait]
impl TaskHooks for TaskRecorder {
    async fn before_execute(&self, ctx: &TaskHookContext) {
        self.log.push(format!("{}.before {}", self.name, at(ctx)));
    }

    async fn after_execute(&self, ctx: &TaskHookContext, result: &str) {
        self.log
            .push(format!("{}.after {} -> {result}", self.name, at(ctx)));
    }

    async fn on_failure(&self, ctx: &TaskHookContext, error: &str) -> RetryDecision {
        self.log
            .push(format!("{}.on_failure {}: {error}", self.name, at(ctx)));
        let mut calls = self.calls.lock().unwrap();
        let i = (*calls).min(self.decisions.len().saturating_sub(1));
        *calls += 1;
        self.decisions.get(i).copied().unwrap_or_default()
    }
}

/// An executor that answers each task's attempts from a script: `"ok"` succeeds with
/// `<id> done`, anything else fails with that text; the last entry repeats; a task
/// without a script succeeds. `"hang"` never finishes.
pub(crate) struct Scripted {
    pub(crate) log: Log,
    pub(crate) script: HashMap<&'static str, Vec<&'static str>>,
}

impl Scripted {
    pub(crate) fn new(log: &Log, script: &[(&'static str, &[&'static str])]) -> Scripted {
        Scripted {
            log: log.clone(),
            script: script.iter().map(|(k, v)| (*k, v.to_vec())).collect(),
        }
    }
}

#[async_trait]
impl TaskExecutor for Scripted {
    async fn execute(
        &self,
        ctx: &TaskHookContext,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        self.log.push(format!("exec {}", at(ctx)));
        let answer = self
            .script
            .get(ctx.task.id.as_str())
            .and_then(|s| s.get((ctx.attempt as usize - 1).min(s.len() - 1)).copied())
            .unwrap_or("ok");
        match answer {
            "ok" => Ok(format!("{} done", ctx.task.id)),
            "hang" => std::future::pending().await,
            error => Err(error.into()),
        }
    }
}

/// How the recording sink answers one event.
#[derive(Clone, Debug)]
pub(crate) enum Reply {
    Proceed,
    Block(&'static str),
    Skip,
    Stop(&'static str),
    Context(&'static str),
}

/// A sink that logs each event as `<Event> <subject>[#attempt]` and answers by a rule.
pub(crate) struct RecordingSink {
    pub(crate) log: Log,
    pub(crate) rule: Box<dyn Fn(&EventContext) -> Reply + Send + Sync>,
    pub(crate) contexts: Mutex<Vec<EventContext>>,
}

impl RecordingSink {
    pub(crate) fn new(
        log: &Log,
        rule: impl Fn(&EventContext) -> Reply + Send + Sync + 'static,
    ) -> Arc<RecordingSink> {
        Arc::new(RecordingSink {
            log: log.clone(),
            rule: Box::new(rule),
            contexts: Mutex::new(Vec::new()),
        })
    }

    pub(crate) fn proceeding(log: &Log) -> Arc<RecordingSink> {
        RecordingSink::new(log, |_| Reply::Proceed)
    }
}

/// The log line for an event.
pub(crate) fn describe(ctx: &EventContext) -> String {
    let subject = ["task_id", "node_id", "teammate_name", "agent_type"]
        .iter()
        .find_map(|k| ctx.get_str(k))
        .unwrap_or("?");
    match ctx.get("attempt") {
        Some(a) => format!("{} {subject}#{a}", ctx.event().name()),
        None => format!("{} {subject}", ctx.event().name()),
    }
}

impl EventSink for RecordingSink {
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate> {
        self.log.push(describe(&ctx));
        let mut agg = Aggregate::empty(ctx.event());
        match (self.rule)(&ctx) {
            Reply::Proceed => {}
            Reply::Block(reason) => {
                agg.effects.decision = Decision::Block;
                agg.effects.reason = Some(reason.to_owned());
            }
            Reply::Skip => agg.effects.skip = true,
            Reply::Stop(reason) => {
                agg.effects.continue_ = false;
                agg.effects.stop_reason = Some(reason.to_owned());
            }
            Reply::Context(text) => agg.effects.additional_context.push(text.to_owned()),
        }
        self.contexts.lock().unwrap().push(ctx);
        Box::pin(std::future::ready(agg))
    }
}

/// Subagent hooks that log every call as `<name>.<callback> <agent>#<attempt>` and answer
/// `on_failure` from a script (the last entry repeats; no script: the trait default).
pub(crate) struct SubagentRecorder {
    pub(crate) name: &'static str,
    pub(crate) log: Log,
    pub(crate) decisions: Vec<SubagentRetryDecision>,
    pub(crate) calls: Mutex<usize>,
}

impl SubagentRecorder {
    pub(crate) fn new(
        name: &'static str,
        log: &Log,
        decisions: Vec<SubagentRetryDecision>,
    ) -> Arc<SubagentRecorder> {
        Arc::new(SubagentRecorder {
            name,
            log: log.clone(),
            decisions,
            calls: Mutex::new(0),
        })
    }
}

fn sub_at(ctx: &SubagentHookContext) -> String {
    format!("{}#{}", ctx.subagent_name, ctx.attempt)
}

#[async_trait]
impl SubagentHooks for SubagentRecorder {
    async fn before_dispatch(&self, ctx: &SubagentHookContext) {
        self.log
            .push(format!("{}.before {}", self.name, sub_at(ctx)));
    }

    async fn after_dispatch(&self, ctx: &SubagentHookContext, result: &SubagentResult) {
        self.log.push(format!(
            "{}.after {} -> {}",
            self.name,
            sub_at(ctx),
            result.output
        ));
    }

    async fn on_failure(&self, ctx: &SubagentHookContext, error: &str) -> SubagentRetryDecision {
        self.log
            .push(format!("{}.on_failure {}: {error}", self.name, sub_at(ctx)));
        let mut calls = self.calls.lock().unwrap();
        let i = (*calls).min(self.decisions.len().saturating_sub(1));
        *calls += 1;
        self.decisions.get(i).cloned().unwrap_or_default()
    }
}

/// A subagent runner scripted per agent like [`Scripted`]: `"ok"` answers
/// `<agent> answer`, `"hang"` never finishes, anything else fails with that text. Each
/// run is logged with its continuation and feedback.
pub(crate) struct ScriptedRunner {
    pub(crate) log: Log,
    pub(crate) script: HashMap<&'static str, Vec<&'static str>>,
    pub(crate) runs: Mutex<Vec<SubagentRun>>,
}

impl ScriptedRunner {
    pub(crate) fn new(
        log: &Log,
        script: &[(&'static str, &[&'static str])],
    ) -> Arc<ScriptedRunner> {
        Arc::new(ScriptedRunner {
            log: log.clone(),
            script: script.iter().map(|(k, v)| (*k, v.to_vec())).collect(),
            runs: Mutex::new(Vec::new()),
        })
    }
}

#[async_trait]
impl SubagentRunner for ScriptedRunner {
    async fn run(
        &self,
        run: &SubagentRun,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        let ctx = &run.context;
        let mut line = format!("run {}", sub_at(ctx));
        if run.continuation > 0 {
            line += &format!(
                " (continuation {}: {})",
                run.continuation,
                run.feedback.as_deref().unwrap_or("")
            );
        }
        self.log.push(line);
        self.runs.lock().unwrap().push(run.clone());
        let answer = self
            .script
            .get(ctx.subagent_name.as_str())
            .and_then(|s| s.get((ctx.attempt as usize - 1).min(s.len() - 1)).copied())
            .unwrap_or("ok");
        match answer {
            "ok" => Ok(format!("{} answer", ctx.subagent_name)),
            "hang" => std::future::pending().await,
            error => Err(error.into()),
        }
    }
}
