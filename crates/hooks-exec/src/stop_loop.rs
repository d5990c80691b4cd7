//! The dispatcher's stop-loop count: consecutive blocked stops per session (and subagent),
//! with the block past the cap ([`hooks_core::StopBlockCap`], Claude Code's rule) overridden.

use std::collections::HashMap;
use std::sync::Mutex;

use hooks_core::{Aggregate, BuiltinEvent, Decision, EventContext, StopBlockCap};

/// Counts consecutive blocked stops per session (and subagent).
#[derive(Debug)]
pub(crate) struct StopLoop {
    cap: StopBlockCap,
    streaks: Mutex<HashMap<String, u32>>,
}

impl StopLoop {
    pub(crate) fn new(cap: StopBlockCap) -> StopLoop {
        StopLoop {
            cap,
            streaks: Mutex::new(HashMap::new()),
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
        let mut streaks = self
            .streaks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !aggregate.is_blocked() {
            streaks.remove(&key);
            return;
        }
        let block = if active {
            streaks.get(&key).copied().unwrap_or(0).saturating_add(1)
        } else {
            1
        };
        if self.cap.overrides(block) {
            streaks.remove(&key);
            let reason = aggregate.effects.reason.take();
            aggregate.effects.decision = Decision::None;
            aggregate.effects.messages.push(self.cap.message(
                event.name(),
                block,
                reason.as_deref(),
            ));
        } else {
            streaks.insert(key, block);
        }
    }
}
