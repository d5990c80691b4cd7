//! Task hooks: the [`TaskHooks`] trait, its context and retry decision, and the registry
//! that composes several hook objects.

use async_trait::async_trait;

/// The default bound on retries: of a task ([`Task::new`]) and of a subagent at one agent
/// (`SubagentDispatcher::new`). A hook's `Retry` re-runs the work, as echo-agent's hooks
/// expect, at most this many times unless the host sets another bound; `0` turns retries
/// off.
pub const DEFAULT_MAX_RETRIES: u32 = 3;

/// One node of a task graph.
///
/// Built with [`Task::new`] and the builder methods; the runner keeps `retry_count` up to
/// date in the copy it hands to hooks (the number of retries already made, so
/// `attempt - 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Task {
    /// The task's id, unique in its graph; dependencies name it.
    pub id: String,
    /// A one-line title (`task_subject` in hook input).
    pub subject: String,
    /// A longer description (`task_description` in hook input), if any.
    pub description: Option<String>,
    /// Retries already made for this task (attempts so far minus one).
    pub retry_count: u32,
    /// The most retries the runner makes, whatever the hooks answer.
    pub max_retries: u32,
    /// Ids of the tasks that must finish before this one starts.
    pub dependencies: Vec<String>,
    /// The agent assigned to the task, if any; [`TaskHookContext::executor`] falls back to
    /// the executor's own name.
    pub executor: Option<String>,
}

impl Task {
    /// A task with no dependencies, no assigned executor and at most
    /// [`DEFAULT_MAX_RETRIES`] retries.
    pub fn new(id: impl Into<String>, subject: impl Into<String>) -> Task {
        Task {
            id: id.into(),
            subject: subject.into(),
            description: None,
            retry_count: 0,
            max_retries: DEFAULT_MAX_RETRIES,
            dependencies: Vec::new(),
            executor: None,
        }
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Task {
        self.description = Some(description.into());
        self
    }

    /// Sets the most retries the runner makes, whatever the hooks answer (`0`: none).
    #[must_use]
    pub fn with_max_retries(mut self, max_retries: u32) -> Task {
        self.max_retries = max_retries;
        self
    }

    /// Adds a dependency.
    #[must_use]
    pub fn depends_on(mut self, id: impl Into<String>) -> Task {
        self.dependencies.push(id.into());
        self
    }

    /// Assigns the task to an agent.
    #[must_use]
    pub fn with_executor(mut self, executor: impl Into<String>) -> Task {
        self.executor = Some(executor.into());
        self
    }
}

/// What a task hook sees.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskHookContext {
    /// The task, with `retry_count` as of this attempt.
    pub task: Task,
    /// The attempt, counting from 1.
    pub attempt: u32,
    /// The agent executing the task, if known.
    pub executor: Option<String>,
    /// Context the task's `TaskCreated` hooks added (their `additional_context`, a
    /// prompt hook's text), in declaration order: for the agent that executes the task.
    pub additional_context: Vec<String>,
}

impl TaskHookContext {
    /// The context of `attempt` (1-based) of `task`: `task.retry_count` is set to
    /// `attempt - 1`; no additional context.
    pub fn new(mut task: Task, attempt: u32, executor: Option<String>) -> TaskHookContext {
        task.retry_count = attempt.saturating_sub(1);
        TaskHookContext {
            task,
            attempt,
            executor,
            additional_context: Vec::new(),
        }
    }

    /// Sets the context `TaskCreated` hooks added.
    #[must_use]
    pub fn with_additional_context(mut self, context: Vec<String>) -> TaskHookContext {
        self.additional_context = context;
        self
    }
}

/// What to do after a task attempt failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RetryDecision {
    /// Run the task again after `delay_secs` seconds (bounded by the task's
    /// `max_retries`; past it, the task fails).
    Retry {
        /// Seconds to wait before the next attempt.
        delay_secs: u64,
    },
    /// Give the task up as not needed: it is marked skipped and the graph goes on.
    Skip,
    /// Mark the task failed; its dependents do not run.
    Fail,
}

impl RetryDecision {
    /// The decision of a hook with no opinion: retry at once, as far as the task's
    /// `max_retries` allows. It is the weakest decision, so it never outvotes another hook.
    pub const DEFAULT: RetryDecision = RetryDecision::Retry { delay_secs: 0 };

    /// Combines two decisions by the registry's rule: `Fail` beats `Skip` beats `Retry`,
    /// and between two retries the longer delay wins.
    #[must_use]
    pub fn combine(self, other: RetryDecision) -> RetryDecision {
        match (self, other) {
            (RetryDecision::Fail, _) | (_, RetryDecision::Fail) => RetryDecision::Fail,
            (RetryDecision::Skip, _) | (_, RetryDecision::Skip) => RetryDecision::Skip,
            (RetryDecision::Retry { delay_secs: a }, RetryDecision::Retry { delay_secs: b }) => {
                RetryDecision::Retry {
                    delay_secs: a.max(b),
                }
            }
        }
    }
}

impl Default for RetryDecision {
    fn default() -> RetryDecision {
        RetryDecision::DEFAULT
    }
}

/// Lifecycle callbacks around each attempt of a task run by the [`TaskRunner`].
///
/// Every method has a no-op default, so an implementor overrides only what it needs.
/// The trait is object safe; runners hold `Arc<dyn TaskHooks>`.
///
/// [`TaskRunner`]: crate::TaskRunner
#[async_trait]
pub trait TaskHooks: Send + Sync {
    /// Called before each attempt runs.
    async fn before_execute(&self, ctx: &TaskHookContext) {
        let _ = ctx;
    }

    /// Called after an attempt succeeded and the task completed, with its output.
    async fn after_execute(&self, ctx: &TaskHookContext, result: &str) {
        let _ = (ctx, result);
    }

    /// Called after an attempt failed, with the error; decides what happens next. The
    /// default is [`RetryDecision::DEFAULT`] (retry at once while the task's
    /// `max_retries` allows, then fail).
    async fn on_failure(&self, ctx: &TaskHookContext, error: &str) -> RetryDecision {
        let _ = (ctx, error);
        RetryDecision::DEFAULT
    }
}

/// Several [`TaskHooks`] composed into one.
///
/// # Composition rule
///
/// Every hook is called, one at a time, in registration order, for every callback (a
/// later hook runs after the earlier one's future finished). For
/// [`on_failure`](TaskHooks::on_failure) all hooks are asked (none is short-circuited, so
/// each sees every failure) and their answers combine by [`RetryDecision::combine`]:
///
/// 1. `Fail` from any hook wins;
/// 2. otherwise `Skip` from any hook wins;
/// 3. otherwise the answer is `Retry`, with the longest `delay_secs` any hook asked for.
///
/// An empty registry answers [`RetryDecision::DEFAULT`].
pub type TaskHookRegistry = crate::registry::Registry<dyn TaskHooks>;

#[async_trait]
impl TaskHooks for TaskHookRegistry {
    async fn before_execute(&self, ctx: &TaskHookContext) {
        for hooks in &self.hooks {
            hooks.before_execute(ctx).await;
        }
    }

    async fn after_execute(&self, ctx: &TaskHookContext, result: &str) {
        for hooks in &self.hooks {
            hooks.after_execute(ctx, result).await;
        }
    }

    async fn on_failure(&self, ctx: &TaskHookContext, error: &str) -> RetryDecision {
        let mut decision = RetryDecision::DEFAULT;
        for hooks in &self.hooks {
            decision = decision.combine(hooks.on_failure(ctx, error).await);
        }
        decision
    }
}
