//! Subagent hooks: the [`SubagentHooks`] trait, its context, retry decision and result,
//! and the registry that composes several hook objects.

use std::fmt;

use async_trait::async_trait;

/// How a parent agent runs a subagent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExecutionMode {
    /// The parent waits for the subagent's answer.
    Sync,
    /// The subagent runs alongside the parent on a copy of its context; the host spawns
    /// the dispatch future and the parent goes on.
    Fork,
    /// The subagent is a long-lived teammate; the dispatcher also fires `TeammateIdle`
    /// when it is about to go idle, and a block keeps it working.
    Teammate,
}

impl ExecutionMode {
    /// The mode's name in hook input: `sync`, `fork` or `teammate`.
    pub fn as_str(self) -> &'static str {
        match self {
            ExecutionMode::Sync => "sync",
            ExecutionMode::Fork => "fork",
            ExecutionMode::Teammate => "teammate",
        }
    }
}

impl fmt::Display for ExecutionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a subagent hook sees.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubagentHookContext {
    /// The agent that dispatched the subagent.
    pub parent_agent: String,
    /// The subagent being dispatched (after a delegation, the alternative agent).
    pub subagent_name: String,
    /// How the subagent runs.
    pub execution_mode: ExecutionMode,
    /// The task handed to the subagent.
    pub task: String,
    /// The attempt at this subagent, counting from 1 (a delegate starts again at 1).
    pub attempt: u32,
}

impl SubagentHookContext {
    /// A context for `attempt` (1-based) of `subagent_name` on `task`.
    pub fn new(
        parent_agent: impl Into<String>,
        subagent_name: impl Into<String>,
        execution_mode: ExecutionMode,
        task: impl Into<String>,
        attempt: u32,
    ) -> SubagentHookContext {
        SubagentHookContext {
            parent_agent: parent_agent.into(),
            subagent_name: subagent_name.into(),
            execution_mode,
            task: task.into(),
            attempt,
        }
    }
}

/// What to do after a subagent failed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SubagentRetryDecision {
    /// Dispatch the same subagent again after `delay_secs` seconds (bounded by the
    /// dispatcher's `max_retries`; past it, the dispatch fails).
    Retry {
        /// Seconds to wait before the next attempt.
        delay_secs: u64,
    },
    /// Give up and hand the error to the parent.
    Fail,
    /// Dispatch the task to another subagent instead (bounded by the delegation depth;
    /// an agent already in the chain is a loop and fails the dispatch).
    Delegate {
        /// The subagent to dispatch to.
        alternative_agent: String,
    },
}

impl SubagentRetryDecision {
    /// The decision of a hook with no opinion: retry at once, as far as the dispatcher's
    /// `max_retries` allows. It is the weakest decision, so it never outvotes another hook.
    pub const DEFAULT: SubagentRetryDecision = SubagentRetryDecision::Retry { delay_secs: 0 };

    /// Combines an earlier-registered hook's decision (`self`) with a later one's by the
    /// registry's rule: `Fail` beats `Delegate` beats `Retry`; between two delegations
    /// the earlier-registered one names the agent; between two retries the longer delay
    /// wins.
    #[must_use]
    pub fn combine(self, later: SubagentRetryDecision) -> SubagentRetryDecision {
        match (self, later) {
            (SubagentRetryDecision::Fail, _) | (_, SubagentRetryDecision::Fail) => {
                SubagentRetryDecision::Fail
            }
            (d @ SubagentRetryDecision::Delegate { .. }, _)
            | (_, d @ SubagentRetryDecision::Delegate { .. }) => d,
            (
                SubagentRetryDecision::Retry { delay_secs: a },
                SubagentRetryDecision::Retry { delay_secs: b },
            ) => SubagentRetryDecision::Retry {
                delay_secs: a.max(b),
            },
        }
    }
}

impl Default for SubagentRetryDecision {
    fn default() -> SubagentRetryDecision {
        SubagentRetryDecision::DEFAULT
    }
}

/// A subagent's answer to its parent.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubagentResult {
    /// The subagent that produced the answer (the last delegate, after delegations).
    pub agent: String,
    /// Its final output.
    pub output: String,
    /// How it ran.
    pub execution_mode: ExecutionMode,
    /// The attempt that succeeded, at `agent` (1-based).
    pub attempts: u32,
    /// The agents the task went through before `agent`, in order (empty without
    /// delegation).
    pub delegated_from: Vec<String>,
    /// How many times a `SubagentStop` (or, for teammates, `TeammateIdle`) hook kept the
    /// subagent going in the successful attempt.
    pub continuations: u32,
    /// Set when stop hooks were still blocking at the cap and the stop was let through;
    /// says why.
    pub stop_cap_reason: Option<String>,
    /// What the `SubagentStop` hooks that let this answer through added to it (their
    /// `additional_context`, a prompt hook's text), in declaration order: the result
    /// injection for the parent.
    pub additional_context: Vec<String>,
}

/// Lifecycle callbacks around each subagent dispatch made by the
/// [`SubagentDispatcher`](crate::SubagentDispatcher).
///
/// Every method has a no-op default, so an implementor overrides only what it needs.
/// The trait is object safe; dispatchers hold `Arc<dyn SubagentHooks>`.
#[async_trait]
pub trait SubagentHooks: Send + Sync {
    /// Called before each attempt is dispatched.
    async fn before_dispatch(&self, ctx: &SubagentHookContext) {
        let _ = ctx;
    }

    /// Called after an attempt succeeded, with the result the parent will get.
    async fn after_dispatch(&self, ctx: &SubagentHookContext, result: &SubagentResult) {
        let _ = (ctx, result);
    }

    /// Called after an attempt failed, with the error; decides what happens next. The
    /// default is [`SubagentRetryDecision::DEFAULT`].
    async fn on_failure(&self, ctx: &SubagentHookContext, error: &str) -> SubagentRetryDecision {
        let _ = (ctx, error);
        SubagentRetryDecision::DEFAULT
    }
}

/// Several [`SubagentHooks`] composed into one.
///
/// # Composition rule
///
/// Every hook is called, one at a time, in registration order, for every callback. For
/// [`on_failure`](SubagentHooks::on_failure) all hooks are asked and their answers
/// combine by [`SubagentRetryDecision::combine`]:
///
/// 1. `Fail` from any hook wins;
/// 2. otherwise, if any hook asked to `Delegate`, the first such hook in registration
///    order names the alternative agent;
/// 3. otherwise the answer is `Retry`, with the longest `delay_secs` any hook asked for.
///
/// An empty registry answers [`SubagentRetryDecision::DEFAULT`].
pub type SubagentHookRegistry = crate::registry::Registry<dyn SubagentHooks>;

#[async_trait]
impl SubagentHooks for SubagentHookRegistry {
    async fn before_dispatch(&self, ctx: &SubagentHookContext) {
        for hooks in &self.hooks {
            hooks.before_dispatch(ctx).await;
        }
    }

    async fn after_dispatch(&self, ctx: &SubagentHookContext, result: &SubagentResult) {
        for hooks in &self.hooks {
            hooks.after_dispatch(ctx, result).await;
        }
    }

    async fn on_failure(&self, ctx: &SubagentHookContext, error: &str) -> SubagentRetryDecision {
        let mut decision = SubagentRetryDecision::DEFAULT;
        for hooks in &self.hooks {
            decision = decision.combine(hooks.on_failure(ctx, error).await);
        }
        decision
    }
}
