//! Cline's answer (`../shared/PROTOCOLS.md` §5.5, §10): a JSON object on stdout with exit
//! code 0, whatever the decision, because Cline takes any other exit code (2 included) for
//! a hook error and goes ahead. Cline reads `cancel`, `contextModification` and
//! `errorMessage` (the extension's `hook-factory.ts`; the SDK's `hook-file-hooks.ts`, which
//! the `cline` CLI runs, also reads `context`, `review` and `overrideInput`).

use serde_json::{Map, Value};

use super::{Reply, block_reason, context, put, user_message};
use crate::aggregate::Aggregate;
use crate::event::Event;

/// Cline's answer to `event` saying what `agg` says.
///
/// - A block or deny, or a hook asking the agent to stop: `cancel: true` with the reason as
///   `errorMessage`. Cline has no narrower refusal: a cancel on PreToolUse stops the task,
///   not only the tool (current Cline rejects the older `shouldContinue`).
/// - Otherwise `cancel: false`, and the hooks' context as `contextModification`, which Cline
///   gives the model (an ask or a rewrite has no form Cline reads as such: Cline's own
///   approval decides, and the tool runs with its input).
/// - The message for the user, when nothing is cancelled, goes to stderr, which Cline
///   logs: its `errorMessage` without a cancel is read by the SDK as context for the model.
pub fn cline(_event: &Event, agg: &Aggregate) -> Reply {
    let effects = &agg.effects;
    let mut top = Map::new();
    let cancel = agg.is_blocked() || !effects.continue_;
    top.insert("cancel".to_owned(), Value::Bool(cancel));
    if cancel {
        let reason = if agg.is_blocked() {
            block_reason(agg)
        } else {
            effects
                .stop_reason
                .clone()
                .filter(|r| !r.trim().is_empty())
                .unwrap_or_else(|| format!("a {} hook stopped the task", agg.event))
        };
        top.insert("errorMessage".to_owned(), Value::String(reason));
        return Reply::json(top);
    }
    put(&mut top, "contextModification", context(agg));
    let mut reply = Reply::json(top);
    if let Some(message) = user_message(agg) {
        reply.stderr = format!("{message}\n");
    }
    reply
}
