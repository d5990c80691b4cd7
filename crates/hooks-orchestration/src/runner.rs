//! The DAG task runner: runs a task graph with bounded concurrency, calls the task hooks
//! around each attempt and emits the config-level task and stage events.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use hooks_core::{Aggregate, BoxError, CancellationToken, EventSink, StageEvent};
use serde_json::{Map, Value};

use crate::bridge::{self, Bridge};

use crate::error::{Error, error_text};
use crate::graph::TaskGraph;
use crate::task::{RetryDecision, Task, TaskHookContext, TaskHookRegistry, TaskHooks};
use crate::timer::{Timer, sleep_or_cancel};

/// Runs one attempt of a task: the host's work.
#[async_trait]
pub trait TaskExecutor: Send + Sync {
    /// The executor's name, used as [`TaskHookContext::executor`] for tasks that name no
    /// executor of their own.
    fn name(&self) -> Option<&str> {
        None
    }

    /// Runs one attempt: `Ok(output)` or `Err(error)`, any error (`?` on the host's own
    /// errors works; `"message".into()` makes one). Hooks, events and the report see the
    /// error's message with its sources. `cancel` fires when the run is cancelled; the
    /// runner also drops this future then, so cooperating is only needed for work the
    /// executor spawned elsewhere.
    async fn execute(
        &self,
        ctx: &TaskHookContext,
        cancel: &CancellationToken,
    ) -> Result<String, BoxError>;
}

/// How one task of a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskOutcome {
    /// The task produced `output` on attempt `attempts`.
    Completed {
        /// What the last attempt returned.
        output: String,
        /// The number of attempts made.
        attempts: u32,
    },
    /// The hooks skipped the task after a failure (`reason` is that failure), or a
    /// `stage_start` hook skipped it before it ran. Its dependents run.
    Skipped {
        /// Why.
        reason: String,
        /// The number of attempts made.
        attempts: u32,
    },
    /// The task failed: a hook answered `Fail`, or it failed with no retry left.
    Failed {
        /// The last attempt's error.
        error: String,
        /// The number of attempts made.
        attempts: u32,
    },
    /// A `TaskCreated` hook blocked the task: it never ran.
    Rejected {
        /// The hook's reason.
        reason: String,
    },
    /// The task did not run because `dependency` failed, was rejected or did not run.
    DependencyFailed {
        /// The direct dependency that did not complete.
        dependency: String,
    },
    /// The run was cancelled (or stopped by a hook) before the task finished.
    Cancelled {
        /// The number of attempts started.
        attempts: u32,
    },
}

impl TaskOutcome {
    /// Whether dependents may run after this outcome: completed or skipped.
    pub fn is_done(&self) -> bool {
        matches!(
            self,
            TaskOutcome::Completed { .. } | TaskOutcome::Skipped { .. }
        )
    }
}

/// One task's line in a [`RunReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskReport {
    /// The task's id.
    pub id: String,
    /// How it ended.
    pub outcome: TaskOutcome,
    /// What the task's `TaskCreated` hooks added (their `additional_context`, a prompt
    /// hook's text), in declaration order; the executor had it in
    /// [`TaskHookContext::additional_context`].
    pub created_context: Vec<String>,
    /// What the `TaskCompleted` hooks that accepted the task's result added to it: the
    /// result injection, for whoever reads the output. Empty unless the task completed.
    pub completed_context: Vec<String>,
}

/// The result of a run: every task's outcome, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunReport {
    /// One report per task, in input order.
    pub tasks: Vec<TaskReport>,
    /// Whether the caller's token cancelled the run.
    pub cancelled: bool,
    /// Set when a config-level hook answered `continue: false`: its stop reason.
    pub stopped: Option<String>,
}

impl RunReport {
    /// A task's outcome by id.
    pub fn outcome(&self, id: &str) -> Option<&TaskOutcome> {
        self.tasks.iter().find(|t| t.id == id).map(|t| &t.outcome)
    }

    /// Whether every task completed or was skipped.
    pub fn is_success(&self) -> bool {
        self.tasks.iter().all(|t| t.outcome.is_done())
    }
}

/// Runs task graphs.
///
/// # What happens to a task
///
/// 1. Before anything runs, the graph is validated (a cycle, a duplicate id or an unknown
///    dependency is an [`Error`]), then `TaskCreated` is emitted for every task in input
///    order. A blocked `TaskCreated` rolls the task back: it never runs and is reported
///    [`TaskOutcome::Rejected`] with the hook's reason; its dependents do not run. The
///    context its hooks add goes to the executor ([`TaskHookContext::additional_context`])
///    and the report ([`TaskReport::created_context`]).
/// 2. A task starts once all its dependencies completed or were skipped, at most
///    `max_concurrency` at a time; among ready tasks, input order decides.
/// 3. Each attempt: `stage_start` (a block fails the attempt; a Fabro `skip` skips the
///    task), [`TaskHooks::before_execute`], the executor, then on success `TaskCompleted`
///    (a block fails the attempt: the task is not complete; the context of one that accepts
///    is [`TaskReport::completed_context`]), [`TaskHooks::after_execute`] and
///    `stage_complete`.
/// 4. A failed attempt goes to [`TaskHooks::on_failure`]. `Retry` emits
///    `stage_retrying`, waits `delay_secs` (capped by `max_retry_delay`) on the host's
///    [`Timer`] and runs attempt `n + 1`, but only while `retry_count < max_retries`
///    ([`DEFAULT_MAX_RETRIES`](crate::DEFAULT_MAX_RETRIES) unless the task sets it);
///    past that the task fails whatever the hooks said. `Skip` marks the task skipped and
///    its dependents run (skip means "not needed"). `Fail` fails the task, and its
///    dependents, transitively, are reported [`TaskOutcome::DependencyFailed`]. Both emit
///    `stage_failed` (with `skipped: true` for a skip).
/// 5. Cancelling the token stops everything at once: running attempts and pending retry
///    delays are dropped, nothing new starts, and unfinished tasks are reported
///    [`TaskOutcome::Cancelled`]. A config-level hook answering `continue: false` stops
///    the run the same way and [`RunReport::stopped`] says why.
#[derive(Clone)]
pub struct TaskRunner {
    hooks: TaskHookRegistry,
    bridge: Bridge,
    timer: Arc<dyn Timer>,
    max_concurrency: usize,
    max_retry_delay: Duration,
}

impl std::fmt::Debug for TaskRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskRunner")
            .field("hooks", &self.hooks)
            .field("max_concurrency", &self.max_concurrency)
            .field("max_retry_delay", &self.max_retry_delay)
            .finish_non_exhaustive()
    }
}

/// The default bound on tasks running at once.
pub const DEFAULT_MAX_CONCURRENCY: usize = 4;

/// The default cap on one retry delay: a hook asking for more waits this long.
pub const DEFAULT_MAX_RETRY_DELAY: Duration = Duration::from_secs(3600);

impl TaskRunner {
    /// A runner that waits on `timer`, with no hooks, a [`NoopSink`](hooks_core::NoopSink),
    /// [`DEFAULT_MAX_CONCURRENCY`] and [`DEFAULT_MAX_RETRY_DELAY`].
    pub fn new(timer: Arc<dyn Timer>) -> TaskRunner {
        TaskRunner {
            hooks: TaskHookRegistry::new(),
            bridge: Bridge::default(),
            timer,
            max_concurrency: DEFAULT_MAX_CONCURRENCY,
            max_retry_delay: DEFAULT_MAX_RETRY_DELAY,
        }
    }

    /// Registers a hook object after the ones already registered (see
    /// [`TaskHookRegistry`] for how their decisions combine).
    #[must_use]
    pub fn with_hooks(mut self, hooks: Arc<dyn TaskHooks>) -> TaskRunner {
        self.hooks.register(hooks);
        self
    }

    /// Sends the config-level events to `sink`.
    #[must_use]
    pub fn with_sink(mut self, sink: Arc<dyn EventSink>) -> TaskRunner {
        self.bridge.set_sink(sink);
        self
    }

    /// Fields every emitted event carries unless the event sets them itself
    /// (`session_id`, `cwd`, `run_id`, ...).
    #[must_use]
    pub fn with_event_fields(mut self, fields: Map<String, Value>) -> TaskRunner {
        self.bridge.set_fields(fields);
        self
    }

    /// At most `n` tasks run at once (`0` counts as `1`).
    #[must_use]
    pub fn with_max_concurrency(mut self, n: usize) -> TaskRunner {
        self.max_concurrency = n.max(1);
        self
    }

    /// Caps one retry delay.
    #[must_use]
    pub fn with_max_retry_delay(mut self, max: Duration) -> TaskRunner {
        self.max_retry_delay = max;
        self
    }

    /// Validates `tasks` and runs them with `executor` until every task has an outcome or
    /// `cancel` fires. The only errors are graph errors, found before anything runs.
    pub async fn run(
        &self,
        tasks: Vec<Task>,
        executor: &dyn TaskExecutor,
        cancel: &CancellationToken,
    ) -> Result<RunReport, Error> {
        let graph = TaskGraph::new(tasks)?;
        Ok(self.run_graph(&graph, executor, cancel).await)
    }

    /// Runs a graph validated beforehand.
    pub async fn run_graph(
        &self,
        graph: &TaskGraph,
        executor: &dyn TaskExecutor,
        cancel: &CancellationToken,
    ) -> RunReport {
        let mut run = Run {
            runner: self,
            graph,
            executor,
            cancel: cancel.child_token(),
            stopped: Mutex::new(None),
            created: vec![Vec::new(); graph.len()],
            completed: Mutex::new(vec![Vec::new(); graph.len()]),
        };
        let mut state = Schedule::new(graph);

        let mut created = vec![Vec::new(); graph.len()];
        for (i, slot) in created.iter_mut().enumerate() {
            let ctx = run.context(i, 1);
            // A cancellation interrupts a slow TaskCreated hook too.
            let Some(agg) = run
                .cancel
                .run_until_cancelled(self.bridge.emit(bridge::task_created(&ctx)))
                .await
            else {
                break;
            };
            if run.should_stop(&agg) {
                break;
            }
            if agg.is_blocked() {
                state.settle(
                    i,
                    TaskOutcome::Rejected {
                        reason: bridge::block_reason(&agg),
                    },
                );
            }
            *slot = agg.effects.additional_context;
        }
        run.created = created;

        let mut running = FuturesUnordered::new();
        loop {
            while running.len() < self.max_concurrency && !run.cancel.is_cancelled() {
                let Some(i) = state.ready.pop_first() else {
                    break;
                };
                let run = &run;
                running.push(async move { (i, run.task(i).await) });
            }
            let Some((i, outcome)) = running.next().await else {
                break;
            };
            state.settle(i, outcome);
        }
        drop(running);

        let completed =
            std::mem::take(&mut *run.completed.lock().unwrap_or_else(PoisonError::into_inner));
        let tasks = graph
            .tasks()
            .iter()
            .zip(state.outcomes)
            .zip(std::mem::take(&mut run.created).into_iter().zip(completed))
            .map(
                |((task, outcome), (created_context, completed_context))| TaskReport {
                    id: task.id.clone(),
                    outcome: outcome.unwrap_or(TaskOutcome::Cancelled { attempts: 0 }),
                    created_context,
                    completed_context,
                },
            )
            .collect();
        let stopped = run
            .stopped
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        RunReport {
            tasks,
            cancelled: cancel.is_cancelled(),
            stopped,
        }
    }
}

/// The bookkeeping of a run: outcomes, unmet dependency counts and the ready set.
struct Schedule<'g> {
    graph: &'g TaskGraph,
    outcomes: Vec<Option<TaskOutcome>>,
    remaining: Vec<usize>,
    ready: BTreeSet<usize>,
}

impl<'g> Schedule<'g> {
    fn new(graph: &'g TaskGraph) -> Schedule<'g> {
        let remaining: Vec<usize> = (0..graph.len())
            .map(|i| graph.dependencies_of(i).len())
            .collect();
        let ready = (0..graph.len()).filter(|&i| remaining[i] == 0).collect();
        Schedule {
            graph,
            outcomes: vec![None; graph.len()],
            remaining,
            ready,
        }
    }

    /// Records `outcome` for task `i` and updates its dependents: a done task releases
    /// them, any other outcome makes them (transitively) `DependencyFailed`.
    fn settle(&mut self, i: usize, outcome: TaskOutcome) {
        let mut work = vec![(i, outcome)];
        while let Some((i, outcome)) = work.pop() {
            self.ready.remove(&i);
            let done = outcome.is_done();
            // Dependents of a cancelled task are cancelled too: they stay without an
            // outcome and the run reports them cancelled at the end.
            let cancelled = matches!(outcome, TaskOutcome::Cancelled { .. });
            self.outcomes[i] = Some(outcome);
            for &d in self.graph.dependents_of(i) {
                if self.outcomes[d].is_some() || cancelled {
                    continue;
                }
                if done {
                    self.remaining[d] -= 1;
                    if self.remaining[d] == 0 {
                        self.ready.insert(d);
                    }
                } else if !work.iter().any(|&(w, _)| w == d) {
                    let dependency = self.graph.tasks()[i].id.clone();
                    work.push((d, TaskOutcome::DependencyFailed { dependency }));
                }
            }
        }
    }
}

/// One run in progress: what every task future borrows.
struct Run<'a> {
    runner: &'a TaskRunner,
    graph: &'a TaskGraph,
    executor: &'a dyn TaskExecutor,
    cancel: CancellationToken,
    stopped: Mutex<Option<String>>,
    /// Per task: the context its `TaskCreated` hooks added.
    created: Vec<Vec<String>>,
    /// Per task: the context the `TaskCompleted` hooks that accepted its result added.
    completed: Mutex<Vec<Vec<String>>>,
}

/// How one attempt ended: with the task's outcome, or with a failure for `on_failure`.
enum Attempt {
    Done(TaskOutcome),
    Failed(String),
}

impl Run<'_> {
    fn context(&self, i: usize, attempt: u32) -> TaskHookContext {
        let task = &self.graph.tasks()[i];
        let executor = task
            .executor
            .clone()
            .or_else(|| self.executor.name().map(str::to_owned));
        TaskHookContext::new(task.clone(), attempt, executor)
            .with_additional_context(self.created.get(i).cloned().unwrap_or_default())
    }

    /// Whether `agg` asked the agent to stop; if so, records the first reason and cancels
    /// the run.
    fn should_stop(&self, agg: &Aggregate) -> bool {
        let Some(reason) = bridge::stop_reason(agg) else {
            return false;
        };
        self.stopped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(reason);
        self.cancel.cancel();
        true
    }

    async fn emit(&self, ctx: hooks_core::EventContext) -> Option<Aggregate> {
        let agg = self.runner.bridge.emit(ctx).await;
        (!self.should_stop(&agg)).then_some(agg)
    }

    /// Runs task `i` to its outcome; cancellation drops whatever it was waiting on.
    async fn task(&self, i: usize) -> TaskOutcome {
        let attempts = AtomicU32::new(0);
        match self
            .cancel
            .run_until_cancelled(self.attempts(i, &attempts))
            .await
        {
            Some(Some(outcome)) => outcome,
            Some(None) | None => TaskOutcome::Cancelled {
                attempts: attempts.load(Ordering::Relaxed),
            },
        }
    }

    /// The attempt loop of one task. `None` means a hook stopped the run.
    async fn attempts(&self, i: usize, started: &AtomicU32) -> Option<TaskOutcome> {
        let hooks = &self.runner.hooks;
        let task = &self.graph.tasks()[i];
        let mut attempt = 1;
        loop {
            let ctx = self.context(i, attempt);
            let error = match self.attempt(i, &ctx, started).await? {
                Attempt::Done(outcome) => return Some(outcome),
                Attempt::Failed(error) => error,
            };
            let decision = hooks.on_failure(&ctx, &error).await;
            let (outcome, skipped) = match decision {
                RetryDecision::Retry { delay_secs } if ctx.task.retry_count < task.max_retries => {
                    let delay = Duration::from_secs(delay_secs).min(self.runner.max_retry_delay);
                    self.emit(
                        bridge::stage(StageEvent::Retrying, &ctx)
                            .with("error", error.as_str())
                            .with("next_attempt", attempt + 1)
                            .with("delay_secs", delay.as_secs()),
                    )
                    .await?;
                    if !sleep_or_cancel(&*self.runner.timer, delay, &self.cancel).await {
                        return None;
                    }
                    attempt += 1;
                    continue;
                }
                RetryDecision::Retry { .. } | RetryDecision::Fail => (
                    TaskOutcome::Failed {
                        error: error.clone(),
                        attempts: attempt,
                    },
                    false,
                ),
                RetryDecision::Skip => (
                    TaskOutcome::Skipped {
                        reason: error.clone(),
                        attempts: attempt,
                    },
                    true,
                ),
            };
            self.emit(
                bridge::stage(StageEvent::Failed, &ctx)
                    .with("error", error)
                    .with("skipped", skipped),
            )
            .await?;
            return Some(outcome);
        }
    }

    /// One attempt, from `stage_start` to `stage_complete`. `None` means a hook stopped
    /// the run.
    async fn attempt(
        &self,
        i: usize,
        ctx: &TaskHookContext,
        started: &AtomicU32,
    ) -> Option<Attempt> {
        started.store(ctx.attempt, Ordering::Relaxed);
        let agg = self.emit(bridge::stage(StageEvent::Start, ctx)).await?;
        if agg.is_blocked() {
            return Some(Attempt::Failed(format!(
                "blocked by a stage_start hook: {}",
                bridge::block_reason(&agg)
            )));
        }
        if agg.effects.skip {
            return Some(Attempt::Done(TaskOutcome::Skipped {
                reason: "skipped by a stage_start hook".to_owned(),
                attempts: ctx.attempt - 1,
            }));
        }
        let hooks = &self.runner.hooks;
        hooks.before_execute(ctx).await;
        let output = match self.executor.execute(ctx, &self.cancel).await {
            Ok(output) => output,
            Err(error) => return Some(Attempt::Failed(error_text(&*error))),
        };
        let agg = self.emit(bridge::task_completed(ctx, &output)).await?;
        if agg.is_blocked() {
            return Some(Attempt::Failed(format!(
                "blocked by a TaskCompleted hook: {}",
                bridge::block_reason(&agg)
            )));
        }
        if let Some(slot) = self
            .completed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(i)
        {
            *slot = agg.effects.additional_context;
        }
        hooks.after_execute(ctx, &output).await;
        self.emit(bridge::stage(StageEvent::Complete, ctx)).await?;
        Some(Attempt::Done(TaskOutcome::Completed {
            output,
            attempts: ctx.attempt,
        }))
    }
}
