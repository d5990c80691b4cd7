//! The dispatcher's stop-loop count: consecutive blocked stops per session (and subagent),
//! with the block past the cap ([`hooks_core::StopBlockCap`], Claude Code's rule) overridden.
//! The counts live in a [`StopStreaks`] store: in memory by default, or one the host keeps
//! across processes (the `hooks bridge` command's state store).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use hooks_core::{Aggregate, BuiltinEvent, Decision, EventContext, StopBlockCap};

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

    /// Updates the streak of `ctx`'s session with `aggregate`, and overrides the block that
    /// goes past the cap.
    ///
    /// A streak is the blocks of one turn: a block with `stop_hook_active` false (or
    /// absent) is the turn's first and starts the streak at 1; a block with it true (the
    /// agent is going on because of a stop hook) extends it; a dispatch that does not block
    /// ends it. So only blocks with `stop_hook_active: true` ever add to a streak or are
    /// overridden, and agents that say every stop is a new turn are never capped. Stops
    /// whose emitter bounds the loop itself ([`EventContext::stop_loop_owned`]) are not
    /// counted.
    pub(crate) fn apply(&self, ctx: &EventContext, aggregate: &mut Aggregate) {
        let event = match ctx.event().builtin() {
            Some(e @ (BuiltinEvent::Stop | BuiltinEvent::SubagentStop)) => e,
            _ => return,
        };
        if self.cap == StopBlockCap::NONE || ctx.stop_loop_owned() {
            return;
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
        let streaks = &self.streaks;
        if !aggregate.is_blocked() {
            if streaks.get(&key) != 0 {
                streaks.set(&key, 0);
            }
            return;
        }
        let block = if active {
            streaks.get(&key).saturating_add(1)
        } else {
            1
        };
        if self.cap.overrides(block) {
            streaks.set(&key, 0);
            let reason = aggregate.effects.reason.take();
            aggregate.effects.decision = Decision::None;
            aggregate.effects.messages.push(self.cap.message(
                event.name(),
                block,
                reason.as_deref(),
            ));
        } else {
            streaks.set(&key, block);
        }
    }
}
