//! The stop-loop cap: a Stop (or SubagentStop) hook that keeps blocking would keep the agent
//! running forever; after N consecutive blocks the engine lets the stop happen.

use std::collections::HashMap;
use std::sync::Mutex;

use hooks_core::{Aggregate, BuiltinEvent, Decision, EventContext};

/// Counts consecutive blocked stops per session (and subagent).
#[derive(Debug)]
pub(crate) struct StopLoop {
    cap: u32,
    streaks: Mutex<HashMap<String, u32>>,
}

impl StopLoop {
    pub(crate) fn new(cap: u32) -> StopLoop {
        StopLoop {
            cap,
            streaks: Mutex::new(HashMap::new()),
        }
    }

    /// Updates the streak of `ctx`'s session with `aggregate`, and lifts the block when it
    /// is the cap-th consecutive one and the agent says a Stop hook already kept it going
    /// (`stop_hook_active`).
    pub(crate) fn apply(&self, ctx: &EventContext, aggregate: &mut Aggregate) {
        let event = match ctx.event().builtin() {
            Some(e @ (BuiltinEvent::Stop | BuiltinEvent::SubagentStop)) => e,
            _ => return,
        };
        if self.cap == 0 {
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
        // A block with `stop_hook_active` false starts a new streak.
        let streak = if active {
            streaks.get(&key).copied().unwrap_or(0) + 1
        } else {
            1
        };
        if active && streak >= self.cap {
            streaks.remove(&key);
            let reason = aggregate.effects.reason.take();
            aggregate.effects.decision = Decision::None;
            aggregate.effects.messages.push(format!(
                "stop-loop cap: the {} hooks blocked {streak} consecutive times while \
                 stop_hook_active was set; letting the agent stop{}",
                event.name(),
                reason
                    .map(|r| format!(" (last reason: {r})"))
                    .unwrap_or_default()
            ));
        } else {
            streaks.insert(key, streak);
        }
    }
}
