//! The dispatcher: finds the hooks an event matches, runs them (concurrently and bounded,
//! sequential groups and Fabro's blocking hooks in order, async hooks in the background),
//! and folds their outcomes.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, RwLock};

use futures_util::StreamExt;
use hooks_core::CancellationToken;
use hooks_core::{
    Aggregate, AggregateEntry, Blocking, BoxFuture, DedupeKey, DedupeScope, EventContext,
    EventSink, Fields, HookIndex, HookOutcome, HookPos, HookSpec, HookStatus, STOP_BLOCK_CAP_VAR,
    StopBlockCap, aggregate_context, find_duplicates,
};

use crate::audit::AuditLog;
use crate::channel::ChannelHome;
use crate::clock::now_rfc3339;
use crate::command::CommandExecutor;
use crate::error::Error;
use crate::executor::{Executor, ExecutorExt};
use crate::notify::NotificationSink;
use crate::permission::PermissionExecutor;
use crate::prepare::Prepare;
use crate::prompt::{PromptEvaluator, PromptExecutor};
use crate::queue::{AsyncQueue, Job};
use crate::runner::Runner;
use crate::stop_loop::{StopLoop, StopStreaks};
use crate::timeouts::Timeouts;

/// The default bound on the hooks of one event running at once.
pub const DEFAULT_MAX_CONCURRENCY: usize = 8;

/// The default capacity of the async queue (runs waiting for a slot).
pub const DEFAULT_ASYNC_CAPACITY: usize = 64;

/// The default number of async hooks running at once.
pub const DEFAULT_ASYNC_CONCURRENCY: usize = 4;

/// The default stop-loop cap, Claude Code's: 8 consecutive blocked stops keep the agent
/// going, the ninth is overridden ([`hooks_core::DEFAULT_STOP_BLOCK_CAP`]).
pub const DEFAULT_STOP_LOOP_CAP: u32 = hooks_core::DEFAULT_STOP_BLOCK_CAP;

/// Runs the hooks an event matches and folds their outcomes into one [`Aggregate`].
///
/// # What a dispatch does
///
/// 1. The [`NotificationSink`], if any, hears of the event.
/// 2. The hooks the event matches are looked up in the [`HookIndex`] (declaration order).
/// 3. **Async hooks** (`async`, Fabro `blocking = false`) go to a bounded background queue
///    and never delay the event. Their outcomes go to the notification sink. When the
///    queue is full the hook is dropped: the drop is counted
///    ([`Dispatcher::async_dropped`]), reported to the sink, and named in the aggregate's
///    messages. Async hooks do not appear in the aggregate's `hooks`.
/// 4. **Identical command hooks** run once: the same command line, working directory,
///    environment, sandbox setting, dialect, timeout, failure policy and layer (the rule
///    is [`hooks_core::DedupeKey`]'s, shared with config merging). A copy that differs in
///    any of them is a different hook and runs too. Each duplicate reports the same
///    outcome under its own id. Hooks in sequential groups are never merged.
/// 5. The rest run **concurrently**, at most `max_concurrency` (8 by default) at a time.
///    The hooks of one **sequential group** form one unit: they run one after another in
///    declaration order, each seeing the previous hook's rewritten `tool_input`. A hook
///    that blocks the event (a deny or block, or a failure under `on_failure: block`)
///    ends its group; the group's later hooks are reported as skipped.
///    **Fabro's blocking hooks** ([`HookSpec::is_fabro_blocking`]) of the event form one
///    such unit too, as Fabro runs them: one after another in declaration order, stopping
///    at the first that blocks (a `block`, or a failure: Fabro's command hooks fail
///    closed); the later ones do not run and are reported as skipped. A `skip` or
///    `override` does not stop them. Native and other dialects' hooks keep running
///    concurrently.
/// 6. Each outcome gets its duration, and the outcomes are folded by
///    [`hooks_core::aggregate`] in declaration order, whatever order they finished in.
/// 7. **Stop-loop cap** ([`hooks_core::StopBlockCap`], Claude Code's rule): on `Stop` and
///    `SubagentStop`, consecutive blocked dispatches are counted per session (and agent):
///    a block with `stop_hook_active` false starts a count at 1, one with it true adds
///    one, a dispatch that does not block resets it. The block that takes the count past
///    the cap (8 by default, or `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`) is overridden: the
///    decision becomes none and a message says why. Stops whose emitter bounds the loop
///    itself ([`EventContext::stop_loop_owned`]) are not counted.
///
/// Every hook runs in a `hook` tracing span (event, hook id, dialect, type, timeout, and
/// at the end status, decision and duration) and, with an [`AuditLog`], writes one line.
///
/// **Cancellation** ([`Dispatcher::dispatch_with_cancel`]): running hooks are stopped
/// (command hooks' process groups are killed) and end `failed` with
/// [`FailureKind::Cancelled`](hooks_core::FailureKind::Cancelled); hooks not yet started
/// are reported as skipped.
///
/// The dispatcher is cheap to clone (an `Arc`); clones share the index, the queue and the
/// counters. Dropping the last clone stops its async hooks.
#[derive(Clone)]
pub struct Dispatcher {
    inner: Arc<Inner>,
}

struct Inner {
    index: RwLock<Arc<HookIndex>>,
    runner: Arc<Runner>,
    queue: AsyncQueue,
    stop_loop: StopLoop,
    max_concurrency: usize,
    hand_off_async: bool,
}

impl fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatcher")
            .field("hooks", &self.index().len())
            .field("max_concurrency", &self.inner.max_concurrency)
            .field("async_pending", &self.async_pending())
            .field("async_dropped", &self.async_dropped())
            .finish_non_exhaustive()
    }
}

impl Dispatcher {
    /// A dispatcher over `index` with every default: the command, prompt (inject only) and
    /// permission executors, no http or mcp executor, no audit log, no notification sink.
    pub fn new(index: HookIndex) -> Dispatcher {
        Dispatcher::from_builder(DispatcherBuilder::default().index(index))
    }

    /// A builder.
    pub fn builder() -> DispatcherBuilder {
        DispatcherBuilder::default()
    }

    /// The stop-loop cap this dispatcher applies (see [`DispatcherBuilder::stop_loop_cap`]),
    /// for a runner that keeps agents going itself and should use the same one.
    pub fn stop_loop_cap(&self) -> StopBlockCap {
        self.inner.stop_loop.cap()
    }

    /// The current index.
    pub fn index(&self) -> Arc<HookIndex> {
        Arc::clone(
            &self
                .inner
                .index
                .read()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    /// Replaces the index (a config reload). Dispatches in flight finish with the index
    /// they started with; the next ones use the new one.
    pub fn set_index(&self, index: impl Into<Arc<HookIndex>>) {
        *self
            .inner
            .index
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = index.into();
    }

    /// The timeouts hooks run with.
    pub fn timeouts(&self) -> &Timeouts {
        &self.inner.runner.timeouts
    }

    /// How many async hooks were dropped because the queue was full.
    pub fn async_dropped(&self) -> u64 {
        self.inner.queue.dropped()
    }

    /// How many async hooks are queued or running.
    pub fn async_pending(&self) -> usize {
        self.inner.queue.pending()
    }

    /// Waits until every queued async hook has run. Call it before a short-lived host
    /// exits, or its async hooks are stopped with it.
    pub async fn flush_async(&self) {
        self.inner.queue.flush().await;
    }

    /// Dispatches `ctx`'s event and returns the folded outcome of its hooks.
    pub async fn dispatch(&self, ctx: &EventContext) -> Aggregate {
        self.dispatch_with_cancel(ctx, &CancellationToken::new())
            .await
    }

    /// Dispatches like [`Dispatcher::dispatch`]; cancelling `cancel` stops the hooks
    /// still running (their processes are killed) and skips those not started.
    pub async fn dispatch_with_cancel(
        &self,
        ctx: &EventContext,
        cancel: &CancellationToken,
    ) -> Aggregate {
        let inner = &*self.inner;
        if let Some(sink) = &inner.runner.sink {
            sink.event(ctx);
        }
        let index = self.index();
        let matched = index.matching(ctx);
        let stamped = stamp(ctx, matched.iter().map(|&hook| index.spec(hook)));
        let ctx = stamped.as_ref().unwrap_or(ctx);
        let mut messages = Vec::new();
        let mut plan = Plan::default();
        let mut shared_ctx: Option<Arc<EventContext>> = None;
        for &hook in &matched {
            let spec = index.spec(hook);
            if spec.is_async && inner.hand_off_async {
                // The host runs them elsewhere (see `DispatcherBuilder::hand_off_async`).
                continue;
            }
            if spec.is_async {
                let ctx = Arc::clone(shared_ctx.get_or_insert_with(|| Arc::new(ctx.clone())));
                let job = Job {
                    index: Arc::clone(&index),
                    hook,
                    ctx: Arc::clone(&ctx),
                };
                if let Err(total) = inner.queue.submit(job) {
                    messages.push(format!(
                        "async hook `{}` was dropped: the background queue is full ({total} dropped so far)",
                        spec.display_id()
                    ));
                    if let Some(sink) = &inner.runner.sink {
                        sink.async_dropped(&ctx, spec, total);
                    }
                }
            } else {
                plan.add(hook, spec);
            }
        }

        let mut entries: Vec<AggregateEntry> = futures_util::stream::iter(plan.units())
            .map(|unit| self.run_unit(&index, unit, ctx, cancel))
            .buffer_unordered(inner.max_concurrency)
            .flat_map(futures_util::stream::iter)
            .map(|(hook, outcome)| AggregateEntry::new(index.spec(hook), hook, outcome))
            .collect()
            .await;
        let limits = inner
            .stop_loop
            .limit_hooks(ctx, &mut entries, |hook| index.spec(hook).loop_limit);
        let mut result = aggregate_context(ctx, entries);
        result.effects.messages.extend(messages);
        inner.stop_loop.apply(ctx, limits, &mut result);
        result
    }

    /// Runs one hook for `ctx`, as a dispatch would (its executor, timeout, tracing span and
    /// audit line), without matching, deduplication or aggregation: for `hooks test`.
    pub async fn run_hook(
        &self,
        spec: &HookSpec,
        ctx: &EventContext,
        cancel: &CancellationToken,
    ) -> HookOutcome {
        let stamped = stamp(ctx, [spec]);
        let ctx = stamped.as_ref().unwrap_or(ctx);
        self.inner.runner.run(spec, ctx, cancel).await
    }

    async fn run_unit(
        &self,
        index: &HookIndex,
        unit: Unit,
        ctx: &EventContext,
        cancel: &CancellationToken,
    ) -> Vec<(HookPos, HookOutcome)> {
        match unit {
            Unit::Single { hook, duplicates } => {
                let outcome = self.run_one(index.spec(hook), ctx, cancel).await;
                let mut out = Vec::with_capacity(1 + duplicates.len());
                out.extend(duplicates.into_iter().map(|d| (d, outcome.clone())));
                out.push((hook, outcome));
                out
            }
            Unit::Sequential { group, hooks } => {
                self.run_in_order(index, &hooks, ctx, cancel, Order::Group(&group))
                    .await
            }
            Unit::FabroBlocking { hooks } => {
                self.run_in_order(index, &hooks, ctx, cancel, Order::Fabro)
                    .await
            }
        }
    }

    /// Runs `hooks` one after another in declaration order; the first that blocks the
    /// event ends the run, and the later ones are reported as skipped.
    async fn run_in_order(
        &self,
        index: &HookIndex,
        hooks: &[HookPos],
        ctx: &EventContext,
        cancel: &CancellationToken,
        order: Order<'_>,
    ) -> Vec<(HookPos, HookOutcome)> {
        let mut local: Option<EventContext> = None;
        let mut out = Vec::with_capacity(hooks.len());
        let mut stopped_by: Option<String> = None;
        for &hook in hooks {
            let spec = index.spec(hook);
            if let Some(by) = &stopped_by {
                let why = match order {
                    Order::Group(group) => format!(
                        "hook `{by}` earlier in sequential group `{group}` blocked the event"
                    ),
                    Order::Fabro => format!(
                        "blocking hook `{by}`, declared earlier, blocked the event (Fabro stops at the first block)"
                    ),
                };
                out.push((hook, HookOutcome::skipped(why)));
                continue;
            }
            let outcome = self
                .run_one(spec, local.as_ref().unwrap_or(ctx), cancel)
                .await;
            if Blocking::of(ctx).blocks(spec.is_fabro_blocking(), spec.on_failure, &outcome) {
                stopped_by = Some(spec.display_id());
            } else if let Order::Group(_) = order
                && matches!(outcome.run.status, HookStatus::Ok | HookStatus::Blocked)
                && ctx.event().honours(Fields::UPDATED_INPUT)
                && let Some(input) = &outcome.effects.updated_input
            {
                // Each hook of a sequential group sees the previous one's rewrite.
                local
                    .get_or_insert_with(|| ctx.clone())
                    .set_tool_input(input.clone());
            }
            out.push((hook, outcome));
        }
        out
    }

    async fn run_one(
        &self,
        spec: &HookSpec,
        ctx: &EventContext,
        cancel: &CancellationToken,
    ) -> HookOutcome {
        if cancel.is_cancelled() {
            return HookOutcome::skipped("the dispatch was cancelled before this hook started");
        }
        self.inner.runner.run(spec, ctx, cancel).await
    }

    fn from_builder(builder: DispatcherBuilder) -> Dispatcher {
        let guard = |exec: Arc<dyn Executor>| -> Arc<dyn Executor> {
            Arc::new(exec.with_timeout(std::time::Duration::MAX))
        };
        let runner = Arc::new(Runner {
            command: match &builder.project_dir {
                Some(dir) => builder.command.with_project_dir(dir),
                None => builder.command,
            },
            http: builder.http.map(guard),
            mcp: builder.mcp.map(guard),
            prompt: PromptExecutor::new(builder.evaluator),
            permission: PermissionExecutor,
            timeouts: builder.timeouts,
            audit: builder.audit,
            sink: builder.sink,
            prepare: builder.prepare,
            channels: ChannelHome::default(),
        });
        Dispatcher {
            inner: Arc::new(Inner {
                index: RwLock::new(
                    builder
                        .index
                        .unwrap_or_else(|| Arc::new(HookIndex::new(Vec::new()))),
                ),
                queue: AsyncQueue::new(
                    Arc::clone(&runner),
                    builder.async_capacity,
                    builder.async_concurrency,
                ),
                runner,
                stop_loop: StopLoop::new(builder.stop_loop_cap, builder.stop_streaks),
                max_concurrency: builder.max_concurrency,
                hand_off_async: builder.hand_off_async,
            }),
        }
    }
}

impl EventSink for Dispatcher {
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate> {
        Box::pin(async move { Dispatcher::dispatch(self, &ctx).await })
    }
}

/// `ctx` with the dispatch time recorded, when one of `specs` is of a dialect that documents
/// a `timestamp` and neither the host nor an earlier dispatch gave one: `None` (no copy)
/// otherwise. Taken once per dispatch, so every hook of it sees the same time.
fn stamp<'a>(
    ctx: &EventContext,
    specs: impl IntoIterator<Item = &'a HookSpec>,
) -> Option<EventContext> {
    if ctx.get("timestamp").is_some() || ctx.dispatched_at().is_some() {
        return None;
    }
    specs
        .into_iter()
        .any(|spec| spec.dialect.documents_timestamp())
        .then(|| {
            let mut stamped = ctx.clone();
            stamped.set_dispatched_at(now_rfc3339());
            stamped
        })
}

/// One thing to run concurrently with the others.
enum Unit {
    /// One hook, and the later-declared hooks identical to it.
    Single {
        hook: HookPos,
        duplicates: Vec<HookPos>,
    },
    /// A sequential group, in declaration order.
    Sequential { group: String, hooks: Vec<HookPos> },
    /// The event's Fabro blocking hooks ([`HookSpec::is_fabro_blocking`]) outside any
    /// sequential group, in declaration order: Fabro runs them one after another and
    /// stops at the first block.
    FabroBlocking { hooks: Vec<HookPos> },
}

/// How hooks run one after another.
#[derive(Clone, Copy)]
enum Order<'a> {
    /// A sequential group: each hook sees the previous one's rewritten input.
    Group(&'a str),
    /// Fabro's blocking hooks.
    Fabro,
}

/// The units of one dispatch, in declaration order of their first hook.
#[derive(Default)]
struct Plan<'a> {
    /// The synchronous hooks matched, in declaration order.
    hooks: Vec<(HookPos, &'a HookSpec)>,
}

impl<'a> Plan<'a> {
    fn add(&mut self, hook: HookPos, spec: &'a HookSpec) {
        self.hooks.push((hook, spec));
    }

    /// Groups the hooks into units: sequential groups, and single hooks with the copies
    /// that share their run (see [`hooks_core::find_duplicates`]).
    fn units(self) -> Vec<Unit> {
        let keys: Vec<Option<DedupeKey<'a>>> = if self.hooks.len() < 2 {
            Vec::new()
        } else {
            self.hooks
                .iter()
                .map(|(_, spec)| {
                    // Fabro runs each of its blocking hooks, in order: none is merged.
                    if spec.is_fabro_blocking() {
                        None
                    } else {
                        DedupeKey::new(spec, DedupeScope::Dispatch)
                    }
                })
                .collect()
        };
        let copies = find_duplicates(&keys);
        let mut units: Vec<Unit> = Vec::with_capacity(self.hooks.len());
        let mut groups: HashMap<&str, usize> = HashMap::new();
        let mut fabro: Option<usize> = None;
        // Position in `self.hooks` -> its unit, for the hooks that run.
        let mut unit_of: Vec<Option<usize>> = vec![None; self.hooks.len()];
        for (pos, (hook, spec)) in self.hooks.iter().enumerate() {
            if spec.sequential.is_none() && spec.is_fabro_blocking() {
                match fabro {
                    Some(unit) => {
                        if let Unit::FabroBlocking { hooks } = &mut units[unit] {
                            hooks.push(*hook);
                        }
                    }
                    None => {
                        fabro = Some(units.len());
                        units.push(Unit::FabroBlocking { hooks: vec![*hook] });
                    }
                }
            } else if let Some(group) = spec.sequential.as_deref() {
                match groups.get(group) {
                    Some(&unit) => {
                        if let Unit::Sequential { hooks, .. } = &mut units[unit] {
                            hooks.push(*hook);
                        }
                    }
                    None => {
                        groups.insert(group, units.len());
                        units.push(Unit::Sequential {
                            group: group.to_owned(),
                            hooks: vec![*hook],
                        });
                    }
                }
            } else if copies.get(pos).copied().flatten().is_none() {
                unit_of[pos] = Some(units.len());
                units.push(Unit::Single {
                    hook: *hook,
                    duplicates: Vec::new(),
                });
            }
        }
        for (pos, runner) in copies.iter().enumerate() {
            if let Some(runner) = runner
                && let Some(unit) = unit_of[*runner]
                && let Unit::Single { duplicates, .. } = &mut units[unit]
            {
                duplicates.push(self.hooks[pos].0);
            }
        }
        units
    }
}

/// Builds a [`Dispatcher`].
pub struct DispatcherBuilder {
    index: Option<Arc<HookIndex>>,
    command: CommandExecutor,
    http: Option<Arc<dyn Executor>>,
    mcp: Option<Arc<dyn Executor>>,
    evaluator: Option<Arc<dyn PromptEvaluator>>,
    timeouts: Timeouts,
    max_concurrency: usize,
    async_capacity: usize,
    async_concurrency: usize,
    stop_loop_cap: StopBlockCap,
    stop_streaks: Option<Arc<dyn StopStreaks>>,
    hand_off_async: bool,
    project_dir: Option<std::path::PathBuf>,
    audit: Option<AuditLog>,
    sink: Option<Arc<dyn NotificationSink>>,
    prepare: Option<Arc<dyn Prepare>>,
}

impl fmt::Debug for DispatcherBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DispatcherBuilder")
            .field("max_concurrency", &self.max_concurrency)
            .field("async_capacity", &self.async_capacity)
            .field("async_concurrency", &self.async_concurrency)
            .field("stop_loop_cap", &self.stop_loop_cap)
            .finish_non_exhaustive()
    }
}

impl Default for DispatcherBuilder {
    fn default() -> DispatcherBuilder {
        DispatcherBuilder {
            index: None,
            command: CommandExecutor::default(),
            http: None,
            mcp: None,
            evaluator: None,
            timeouts: Timeouts::default(),
            max_concurrency: DEFAULT_MAX_CONCURRENCY,
            async_capacity: DEFAULT_ASYNC_CAPACITY,
            async_concurrency: DEFAULT_ASYNC_CONCURRENCY,
            stop_loop_cap: StopBlockCap::from_env_value(
                std::env::var(STOP_BLOCK_CAP_VAR).ok().as_deref(),
            ),
            stop_streaks: None,
            hand_off_async: false,
            project_dir: None,
            audit: None,
            sink: None,
            prepare: None,
        }
    }
}

impl DispatcherBuilder {
    /// The hooks (an empty index by default).
    #[must_use]
    pub fn index(mut self, index: impl Into<Arc<HookIndex>>) -> DispatcherBuilder {
        self.index = Some(index.into());
        self
    }

    /// The command executor (its output caps, kill grace, sandbox).
    #[must_use]
    pub fn command_executor(mut self, executor: CommandExecutor) -> DispatcherBuilder {
        self.command = executor;
        self
    }

    /// A step run on each hook right before it runs (the facade fills in secrets there);
    /// a hook it cannot prepare fails closed. See [`Prepare`].
    #[must_use]
    pub fn prepare(mut self, prepare: Arc<dyn Prepare>) -> DispatcherBuilder {
        self.prepare = Some(prepare);
        self
    }

    /// The executor of `http` hooks. Without one, an http hook fails with a message saying
    /// so. Its timeout and cancellation are also enforced from the outside.
    #[must_use]
    pub fn http_executor(mut self, executor: Arc<dyn Executor>) -> DispatcherBuilder {
        self.http = Some(executor);
        self
    }

    /// The executor of `mcp_tool` hooks. Without one, an mcp_tool hook fails with a message
    /// saying so. Its timeout and cancellation are also enforced from the outside.
    #[must_use]
    pub fn mcp_executor(mut self, executor: Arc<dyn Executor>) -> DispatcherBuilder {
        self.mcp = Some(executor);
        self
    }

    /// The host's model, for prompt hooks that ask one. Without one, such hooks fail with a
    /// message saying so (inject-mode prompt hooks need none).
    #[must_use]
    pub fn prompt_evaluator(mut self, evaluator: Arc<dyn PromptEvaluator>) -> DispatcherBuilder {
        self.evaluator = Some(evaluator);
        self
    }

    /// Default timeouts and their ceiling.
    #[must_use]
    pub fn timeouts(mut self, timeouts: Timeouts) -> DispatcherBuilder {
        self.timeouts = timeouts;
        self
    }

    /// How many hooks of one event run at once (8 by default; at least 1).
    #[must_use]
    pub fn max_concurrency(mut self, n: usize) -> DispatcherBuilder {
        self.max_concurrency = n;
        self
    }

    /// The async queue: how many runs may wait (64 by default) and how many run at once
    /// (4 by default); both at least 1.
    #[must_use]
    pub fn async_queue(mut self, capacity: usize, concurrency: usize) -> DispatcherBuilder {
        self.async_capacity = capacity;
        self.async_concurrency = concurrency;
        self
    }

    /// How many consecutive blocked stops keep the agent going; the next block is
    /// overridden and the stop happens. `0` turns the cap off. The default is the value of
    /// `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` when the builder is made (read as Claude Code
    /// reads it, see [`StopBlockCap::from_env_value`]), else 8; this call overrides it.
    #[must_use]
    pub fn stop_loop_cap(mut self, cap: u32) -> DispatcherBuilder {
        self.stop_loop_cap = match cap {
            0 => StopBlockCap::NONE,
            n => StopBlockCap::at_most(n),
        };
        self
    }

    /// Keeps the stop-loop counts in `streaks` instead of in memory, so that the cap holds
    /// across dispatchers (one per process, when an agent starts one process per event).
    #[must_use]
    pub fn stop_streaks(mut self, streaks: Arc<dyn StopStreaks>) -> DispatcherBuilder {
        self.stop_streaks = Some(streaks);
        self
    }

    /// With `true`, async hooks are neither queued nor run by this dispatcher: the host
    /// runs them elsewhere (`hooks bridge` hands them to a detached background process, so
    /// that the agent's process answers and ends at once). They are not in the aggregate
    /// either way.
    #[must_use]
    pub fn hand_off_async(mut self, hand_off: bool) -> DispatcherBuilder {
        self.hand_off_async = hand_off;
        self
    }

    /// The project root command hooks get as `CLAUDE_PROJECT_DIR` (see
    /// [`CommandExecutorBuilder::project_dir`](crate::CommandExecutorBuilder::project_dir)),
    /// whichever command executor is given.
    #[must_use]
    pub fn project_dir(mut self, dir: impl Into<std::path::PathBuf>) -> DispatcherBuilder {
        self.project_dir = Some(dir.into());
        self
    }

    /// Writes one line per hook run to `log`.
    #[must_use]
    pub fn audit_log(mut self, log: AuditLog) -> DispatcherBuilder {
        self.audit = Some(log);
        self
    }

    /// Reports events, async outcomes and async drops to `sink`.
    #[must_use]
    pub fn notification_sink(mut self, sink: Arc<dyn NotificationSink>) -> DispatcherBuilder {
        self.sink = Some(sink);
        self
    }

    /// The dispatcher, or which setting is out of range.
    pub fn build(self) -> Result<Dispatcher, Error> {
        for (setting, value) in [
            ("max_concurrency", self.max_concurrency),
            ("async_queue capacity", self.async_capacity),
            ("async_queue concurrency", self.async_concurrency),
        ] {
            if value == 0 {
                return Err(Error::InvalidSetting {
                    setting,
                    message: "must be at least 1".to_owned(),
                });
            }
        }
        Ok(Dispatcher::from_builder(self))
    }
}
