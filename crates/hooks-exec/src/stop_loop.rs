//! The dispatcher's stop-loop count: consecutive blocked stops per session (and subagent),
//! with the block past the cap ([`hooks_core::StopBlockCap`], Claude Code's rule) overridden.
//! The counts live in a [`StopStreaks`] store: in memory by default, or one the host keeps
//! across processes (the `hooks bridge` command's state store).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use hooks_core::{
    Aggregate, AggregateEntry, Blocking, BuiltinEvent, Decision, EventContext, FailurePolicy,
    HookPos, HookStatus, StopBlockCap,
};

/// What [`StopLoop::limit_hooks`] found: the stop's streak key and block number (`None`
/// when the event is not a stop the loop counts), the messages of the blocks it dropped,
/// whether any blocking hook has a limit of its own, and, for a counted stop, whether the
/// engine's cap still applies (false: every hook that blocks has its own limit).
#[derive(Debug, Default)]
pub(crate) struct HookLimits {
    next: Option<(String, u32)>,
    messages: Vec<String>,
    own: bool,
    engine_cap: bool,
}

/// Where the dispatcher keeps its counts of consecutive blocked stops, by key (the event,
/// the session and the subagent). The default keeps them in memory, for one process; a
/// host that starts one process per event (an agent calling `hooks bridge`) keeps them in
/// a store that outlives the process, so that the cap holds across its invocations.
pub trait StopStreaks: Send + Sync {
    /// The streak recorded for `key` (0 when none).
    fn get(&self, key: &str) -> u32;
    /// Records `count` for `key`; `0` forgets the key.
    fn set(&self, key: &str, count: u32);
}

/// The in-memory store: counts for the life of the dispatcher.
#[derive(Debug, Default)]
struct InMemory(Mutex<HashMap<String, u32>>);

impl StopStreaks for InMemory {
    fn get(&self, key: &str) -> u32 {
        let map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.get(key).copied().unwrap_or(0)
    }

    fn set(&self, key: &str, count: u32) {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if count == 0 {
            map.remove(key);
        } else {
            map.insert(key.to_owned(), count);
        }
    }
}

/// Counts consecutive blocked stops per session (and subagent).
pub(crate) struct StopLoop {
    cap: StopBlockCap,
    streaks: Arc<dyn StopStreaks>,
}

impl fmt::Debug for StopLoop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StopLoop")
            .field("cap", &self.cap)
            .finish_non_exhaustive()
    }
}

impl StopLoop {
    pub(crate) fn new(cap: StopBlockCap, streaks: Option<Arc<dyn StopStreaks>>) -> StopLoop {
        StopLoop {
            cap,
            streaks: streaks.unwrap_or_else(|| Arc::new(InMemory::default())),
        }
    }

    pub(crate) fn cap(&self) -> StopBlockCap {
        self.cap
    }

    /// The key of `ctx`'s streak and the number its block would have in it (1 for a
    /// turn's first block), or `None` when the event is not a stop this loop counts.
    fn next_block(&self, ctx: &EventContext) -> Option<(String, u32)> {
        let event = match ctx.event().builtin() {
            Some(e @ (BuiltinEvent::Stop | BuiltinEvent::SubagentStop)) => e,
            _ => return None,
        };
        if ctx.stop_loop_owned() {
            return None;
        }
        let key = format!(
            "{}\u{0}{}\u{0}{}",
            event.name(),
            ctx.get_str("session_id").unwrap_or_default(),
            ctx.get_str("agent_id").unwrap_or_default()
        );
        let active = ctx
            .get("stop_hook_active")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false);
        let block = if active {
            self.streaks.get(&key).saturating_add(1)
        } else {
            1
        };
        Some((key, block))
    }

    /// Applies the hooks' own limits (Cursor's `loop_limit`, [`HookSpec::loop_limit`]) to
    /// a stop's outcomes before they are folded: a hook whose limit the stop's block number
    /// in the session's streak goes past has its block dropped (its decision, or, for a
    /// fail-closed failure, its failure policy), with a message saying so. The one streak
    /// counts for every limit; `limit_of` gives a hook's own limit by its index.
    pub(crate) fn limit_hooks(
        &self,
        ctx: &EventContext,
        entries: &mut [AggregateEntry],
        limit_of: impl Fn(HookPos) -> Option<StopBlockCap>,
    ) -> HookLimits {
        let mut out = HookLimits::default();
        let Some((key, block)) = self.next_block(ctx) else {
            return out;
        };
        out.next = Some((key, block));
        let blocking = Blocking::of(ctx);
        let mut others_block = false;
        for entry in entries.iter_mut() {
            if !blocking.blocks(entry.decides, entry.on_failure, &entry.outcome) {
                continue;
            }
            let Some(limit) = limit_of(entry.index) else {
                others_block = true;
                continue;
            };
            out.own = true;
            if !limit.overrides(block) {
                continue;
            }
            let reason = entry.outcome.effects.reason.take();
            if entry.outcome.effects.decision.is_blocking() {
                entry.outcome.effects.decision = Decision::None;
                if entry.outcome.run.status == HookStatus::Blocked {
                    entry.outcome.run.status = HookStatus::Ok;
                }
            } else {
                entry.on_failure = FailurePolicy::Allow;
            }
            out.messages.push(limit.hook_message(
                ctx.event().name(),
                &entry.id,
                block,
                reason.as_deref(),
            ));
        }
        out.engine_cap = others_block || !out.own;
        out
    }

    /// Updates the streak of `ctx`'s session with `aggregate`, and overrides the block that
    /// goes past the cap (unless only hooks with limits of their own block: `limits` from
    /// [`StopLoop::limit_hooks`], for the same `ctx`, judged those and holds the streak's
    /// key and the block's number).
    ///
    /// A streak is the blocks of one turn: a block with `stop_hook_active` false (or
    /// absent) is the turn's first and starts the streak at 1; a block with it true (the
    /// agent is going on because of a stop hook) extends it; a dispatch that does not block
    /// ends it. So only blocks with `stop_hook_active: true` ever add to a streak or are
    /// overridden, and agents that say every stop is a new turn are never capped. Stops
    /// whose emitter bounds the loop itself ([`EventContext::stop_loop_owned`]) are not
    /// counted.
    pub(crate) fn apply(&self, ctx: &EventContext, limits: HookLimits, aggregate: &mut Aggregate) {
        aggregate.effects.messages.extend(limits.messages);
        if self.cap == StopBlockCap::NONE && !limits.own {
            return;
        }
        let Some((key, block)) = limits.next else {
            return;
        };
        let streaks = &self.streaks;
        if !aggregate.is_blocked() {
            if streaks.get(&key) != 0 {
                streaks.set(&key, 0);
            }
            return;
        }
        if limits.engine_cap && self.cap.overrides(block) {
            streaks.set(&key, 0);
            let reason = aggregate.effects.reason.take();
            aggregate.effects.decision = Decision::None;
            aggregate.effects.messages.push(self.cap.message(
                ctx.event().name(),
                block,
                reason.as_deref(),
            ));
        } else {
            streaks.set(&key, block);
        }
    }
}
