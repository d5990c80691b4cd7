//! The subagent dispatcher: runs a subagent through a host-supplied runner, calls the
//! subagent hooks around each attempt, retries and delegates as they decide, and emits the
//! config-level subagent events.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use hooks_core::{
    Aggregate, BoxError, BoxFuture, BuiltinEvent, CancellationToken, EventContext, EventSink,
    StopBlockCap,
};
use serde_json::{Map, Value};

use crate::bridge::{self, Bridge};

use crate::error::{Error, error_text};
use crate::runner::DEFAULT_MAX_RETRY_DELAY;
use crate::subagent::{
    ExecutionMode, SubagentHookContext, SubagentHookRegistry, SubagentHooks, SubagentResult,
    SubagentRetryDecision,
};
use crate::task::DEFAULT_MAX_RETRIES;
use crate::timer::{Timer, sleep_or_cancel};

/// Runs one turn of a subagent: the host's work (a model loop, a forked context, a
/// teammate process).
#[async_trait]
pub trait SubagentRunner: Send + Sync {
    /// Runs the subagent: `Ok(final answer)` or `Err(error)`, any error (`?` on the host's
    /// own errors works; `"message".into()` makes one). Hooks, events and
    /// [`Error::SubagentFailed`] see the error's message with its sources. `cancel` is the
    /// parent's token; the dispatcher also drops this future when it fires.
    async fn run(&self, run: &SubagentRun, cancel: &CancellationToken) -> Result<String, BoxError>;
}

/// What the runner is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubagentRun {
    /// The hook context of this attempt (agent, mode, task, attempt).
    pub context: SubagentHookContext,
    /// The id given to this attempt in hook input (`agent_id`).
    pub agent_id: String,
    /// Context `SubagentStart` hooks added for the subagent, in declaration order.
    pub additional_context: Vec<String>,
    /// 0 on the first turn; `n` when a stop hook kept the subagent going `n` times.
    pub continuation: u32,
    /// On a continuation: why the stop hook kept the subagent going.
    pub feedback: Option<String>,
    /// On a continuation: the answer the stop hook did not accept.
    pub previous_output: Option<String>,
}

/// A dispatch request from a parent agent.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubagentRequest {
    /// The agent dispatching.
    pub parent_agent: String,
    /// The subagent to dispatch to.
    pub subagent_name: String,
    /// How it runs.
    pub execution_mode: ExecutionMode,
    /// The task handed to it.
    pub task: String,
    /// The team a teammate belongs to (`team_name` in `TeammateIdle`); defaults to the
    /// parent agent's name.
    pub team_name: Option<String>,
}

impl SubagentRequest {
    /// A request from `parent_agent` to `subagent_name`.
    pub fn new(
        parent_agent: impl Into<String>,
        subagent_name: impl Into<String>,
        execution_mode: ExecutionMode,
        task: impl Into<String>,
    ) -> SubagentRequest {
        SubagentRequest {
            parent_agent: parent_agent.into(),
            subagent_name: subagent_name.into(),
            execution_mode,
            task: task.into(),
            team_name: None,
        }
    }

    /// Sets the team name.
    #[must_use]
    pub fn with_team(mut self, team: impl Into<String>) -> SubagentRequest {
        self.team_name = Some(team.into());
        self
    }
}

/// The default bound on delegations in one dispatch.
pub const DEFAULT_MAX_DELEGATION_DEPTH: u32 = 3;

/// The default bound on consecutive stop-hook blocks that keep one subagent going: Claude
/// Code's 8 ([`hooks_core::DEFAULT_STOP_BLOCK_CAP`]).
pub const DEFAULT_MAX_STOP_BLOCKS: u32 = hooks_core::DEFAULT_STOP_BLOCK_CAP;

/// Dispatches subagents.
///
/// # What happens in a dispatch
///
/// Each attempt: [`SubagentHooks::before_dispatch`], `SubagentStart` (the context its
/// hooks add goes to the runner), the runner, then `SubagentStop` (for teammates,
/// `TeammateIdle` first). A block from a stop event keeps the subagent going: the runner
/// is called again with the hook's reason as [`SubagentRun::feedback`], at most
/// `max_stop_blocks` times in a row; then the stop is let through and
/// [`SubagentResult::stop_cap_reason`] says why. This dispatcher is the one owner of that
/// loop's cap: its `SubagentStop` events are marked
/// ([`EventContext::set_stop_loop_owned`]), so an engine's own stop-loop cap does not count
/// them as well. The context of the `SubagentStop` that let
/// the answer through is [`SubagentResult::additional_context`]. On success,
/// [`SubagentHooks::after_dispatch`] sees the result.
///
/// A failed attempt emits `SubagentStop` with the `error` (a block is meaningless there
/// and is ignored), then asks [`SubagentHooks::on_failure`]:
/// - `Retry` waits `delay_secs` (capped by `max_retry_delay`) and dispatches attempt
///   `n + 1`, while fewer than `max_retries` ([`DEFAULT_MAX_RETRIES`] unless set) retries
///   were made at this agent; then the
///   dispatch fails with [`Error::SubagentFailed`].
/// - `Delegate` dispatches the same task to the named agent, starting again at attempt 1,
///   while the chain stays within `max_delegation_depth` delegations
///   ([`Error::DelegationDepth`]) and never revisits an agent ([`Error::DelegationLoop`]).
/// - `Fail` ends the dispatch with [`Error::SubagentFailed`].
///
/// The parent's [`CancellationToken`] reaches every part: a running subagent, a retry
/// delay, a delegate ([`Error::Cancelled`]). A config-level hook answering
/// `continue: false` ends the dispatch with [`Error::Stopped`].
///
/// The execution mode is passed to hooks, events and the runner; [`dispatch`](Self::dispatch)
/// returns a `'static` future, so a `Fork` or `Teammate` dispatch can be spawned on the
/// host's runtime while the parent goes on, and a `Sync` one awaited in place.
#[derive(Clone)]
pub struct SubagentDispatcher {
    hooks: SubagentHookRegistry,
    runner: Arc<dyn SubagentRunner>,
    bridge: Bridge,
    timer: Arc<dyn Timer>,
    max_retries: u32,
    max_delegation_depth: u32,
    stop_cap: StopBlockCap,
    max_retry_delay: Duration,
    next_id: Arc<AtomicU64>,
}

impl std::fmt::Debug for SubagentDispatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubagentDispatcher")
            .field("hooks", &self.hooks)
            .field("max_retries", &self.max_retries)
            .field("max_delegation_depth", &self.max_delegation_depth)
            .field("stop_cap", &self.stop_cap)
            .field("max_retry_delay", &self.max_retry_delay)
            .finish_non_exhaustive()
    }
}

impl SubagentDispatcher {
    /// A dispatcher over `runner` that waits on `timer`, with no hooks, a
    /// [`NoopSink`](hooks_core::NoopSink), [`DEFAULT_MAX_RETRIES`],
    /// [`DEFAULT_MAX_DELEGATION_DEPTH`],
    /// [`DEFAULT_MAX_STOP_BLOCKS`] and [`DEFAULT_MAX_RETRY_DELAY`].
    pub fn new(runner: Arc<dyn SubagentRunner>, timer: Arc<dyn Timer>) -> SubagentDispatcher {
        SubagentDispatcher {
            hooks: SubagentHookRegistry::new(),
            runner,
            bridge: Bridge::default(),
            timer,
            max_retries: DEFAULT_MAX_RETRIES,
            max_delegation_depth: DEFAULT_MAX_DELEGATION_DEPTH,
            stop_cap: StopBlockCap::at_most(DEFAULT_MAX_STOP_BLOCKS),
            max_retry_delay: DEFAULT_MAX_RETRY_DELAY,
            next_id: Arc::new(AtomicU64::new(1)),
        }
    }

    /// Registers a hook object after the ones already registered (see
    /// [`SubagentHookRegistry`] for how their decisions combine).
    #[must_use]
    pub fn with_hooks(mut self, hooks: Arc<dyn SubagentHooks>) -> SubagentDispatcher {
        self.hooks.register(hooks);
        self
    }

    /// Sends the config-level events to `sink`.
    #[must_use]
    pub fn with_sink(mut self, sink: Arc<dyn EventSink>) -> SubagentDispatcher {
        self.bridge.set_sink(sink);
        self
    }

    /// Fields every emitted event carries unless the event sets them itself.
    #[must_use]
    pub fn with_event_fields(mut self, fields: Map<String, Value>) -> SubagentDispatcher {
        self.bridge.set_fields(fields);
        self
    }

    /// At most `n` retries per agent, whatever the hooks answer (default
    /// [`DEFAULT_MAX_RETRIES`]; `0`: none).
    #[must_use]
    pub fn with_max_retries(mut self, n: u32) -> SubagentDispatcher {
        self.max_retries = n;
        self
    }

    /// At most `n` delegations per dispatch (`0` disables delegation).
    #[must_use]
    pub fn with_max_delegation_depth(mut self, n: u32) -> SubagentDispatcher {
        self.max_delegation_depth = n;
        self
    }

    /// At most `n` consecutive stop-hook blocks keep a subagent going (default
    /// [`DEFAULT_MAX_STOP_BLOCKS`]; `0`: none does).
    #[must_use]
    pub fn with_max_stop_blocks(mut self, n: u32) -> SubagentDispatcher {
        self.stop_cap = StopBlockCap::at_most(n);
        self
    }

    /// The stop-loop cap as a [`StopBlockCap`], which can also be no cap at all: what an
    /// engine passes on so that its subagents are capped as its own stops are.
    #[must_use]
    pub fn with_stop_block_cap(mut self, cap: StopBlockCap) -> SubagentDispatcher {
        self.stop_cap = cap;
        self
    }

    /// Caps one retry delay.
    #[must_use]
    pub fn with_max_retry_delay(mut self, max: Duration) -> SubagentDispatcher {
        self.max_retry_delay = max;
        self
    }

    /// Dispatches `request`; the future owns what it needs, so it can be spawned.
    pub fn dispatch(
        &self,
        request: SubagentRequest,
        cancel: &CancellationToken,
    ) -> BoxFuture<'static, Result<SubagentResult, Error>> {
        let this = self.clone();
        let cancel = cancel.clone();
        Box::pin(async move {
            let current = Mutex::new(request.subagent_name.clone());
            match cancel
                .run_until_cancelled(this.run(&request, &current, &cancel))
                .await
            {
                Some(result) => result,
                None => Err(Error::Cancelled {
                    agent: current.into_inner().unwrap_or_else(PoisonError::into_inner),
                }),
            }
        })
    }

    /// The delegation and retry loops. `current` names the agent at work, for the error
    /// a cancellation gives.
    async fn run(
        &self,
        request: &SubagentRequest,
        current: &Mutex<String>,
        cancel: &CancellationToken,
    ) -> Result<SubagentResult, Error> {
        let mut chain: Vec<String> = Vec::new();
        let mut agent = request.subagent_name.clone();
        loop {
            let mut attempt = 1;
            let decision = loop {
                let ctx = SubagentHookContext::new(
                    request.parent_agent.clone(),
                    agent.clone(),
                    request.execution_mode,
                    request.task.clone(),
                    attempt,
                );
                let error = match self.attempt(&ctx, request, &chain, cancel).await? {
                    Ok(result) => return Ok(result),
                    Err(error) => error,
                };
                match self.hooks.on_failure(&ctx, &error).await {
                    SubagentRetryDecision::Retry { delay_secs } if attempt <= self.max_retries => {
                        let delay = Duration::from_secs(delay_secs).min(self.max_retry_delay);
                        if !sleep_or_cancel(&*self.timer, delay, cancel).await {
                            return Err(Error::Cancelled { agent });
                        }
                        attempt += 1;
                    }
                    SubagentRetryDecision::Retry { .. } | SubagentRetryDecision::Fail => {
                        return Err(Error::SubagentFailed {
                            agent,
                            attempts: attempt,
                            error,
                        });
                    }
                    SubagentRetryDecision::Delegate { alternative_agent } => {
                        break alternative_agent;
                    }
                }
            };
            chain.push(agent);
            if chain.contains(&decision) {
                return Err(Error::DelegationLoop {
                    chain,
                    agent: decision,
                });
            }
            if chain.len() > self.max_delegation_depth as usize {
                return Err(Error::DelegationDepth {
                    chain,
                    agent: decision,
                    limit: self.max_delegation_depth,
                });
            }
            agent = decision;
            current
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone_from(&agent);
        }
    }

    async fn emit(&self, ctx: EventContext) -> Result<Aggregate, Error> {
        let agg = self.bridge.emit(ctx).await;
        match bridge::stop_reason(&agg) {
            Some(reason) => Err(Error::Stopped { reason }),
            None => Ok(agg),
        }
    }

    /// One attempt: `Ok(Ok(result))` on success, `Ok(Err(error))` on a failure the hooks
    /// decide about, `Err` when a hook stopped the agent.
    async fn attempt(
        &self,
        ctx: &SubagentHookContext,
        request: &SubagentRequest,
        chain: &[String],
        cancel: &CancellationToken,
    ) -> Result<Result<SubagentResult, String>, Error> {
        self.hooks.before_dispatch(ctx).await;
        let agent_id = format!(
            "{}-{}",
            ctx.subagent_name,
            self.next_id.fetch_add(1, Ordering::Relaxed)
        );
        let start = self.emit(bridge::subagent_start(ctx, &agent_id)).await?;
        let mut run = SubagentRun {
            context: ctx.clone(),
            agent_id,
            additional_context: start.effects.additional_context,
            continuation: 0,
            feedback: None,
            previous_output: None,
        };
        let team = request.team_name.as_deref().unwrap_or(&ctx.parent_agent);
        loop {
            let output = match self.runner.run(&run, cancel).await {
                Ok(output) => output,
                Err(error) => {
                    let error = error_text(&*error);
                    self.emit(bridge::subagent_stop(
                        ctx,
                        &run.agent_id,
                        run.continuation > 0,
                        Err(&error),
                    ))
                    .await?;
                    return Ok(Err(error));
                }
            };
            let mut block = None;
            let mut additional_context = Vec::new();
            if ctx.execution_mode == ExecutionMode::Teammate {
                let agg = self
                    .emit(bridge::teammate_idle(ctx, &run.agent_id, team, &output))
                    .await?;
                block = agg.is_blocked().then(|| bridge::block_reason(&agg));
            }
            if block.is_none() {
                let agg = self
                    .emit(bridge::subagent_stop(
                        ctx,
                        &run.agent_id,
                        run.continuation > 0,
                        Ok(&output),
                    ))
                    .await?;
                block = agg.is_blocked().then(|| bridge::block_reason(&agg));
                additional_context = agg.effects.additional_context;
            }
            let mut stop_cap_reason = None;
            if let Some(reason) = block {
                let nth = run.continuation.saturating_add(1);
                if !self.stop_cap.overrides(nth) {
                    run.continuation = nth;
                    run.feedback = Some(reason);
                    run.previous_output = Some(output);
                    continue;
                }
                stop_cap_reason = Some(self.stop_cap.message(
                    BuiltinEvent::SubagentStop.name(),
                    nth,
                    Some(&reason),
                ));
            }
            let result = SubagentResult {
                agent: ctx.subagent_name.clone(),
                output,
                execution_mode: ctx.execution_mode,
                attempts: ctx.attempt,
                delegated_from: chain.to_vec(),
                continuations: run.continuation,
                stop_cap_reason,
                additional_context,
            };
            self.hooks.after_dispatch(ctx, &result).await;
            return Ok(Ok(result));
        }
    }
}
