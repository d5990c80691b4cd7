//! Cline's answer (`../shared/PROTOCOLS.md` §5.5, §10): a JSON object on stdout with exit
//! code 0, whatever the decision, because Cline takes any other exit code (2 included) for
//! a hook error and goes ahead. Cline reads `cancel`, `contextModification` and
//! `errorMessage` (the extension's `hook-factory.ts`; the SDK's `hook-file-hooks.ts`, which
//! the `cline` CLI runs, also reads `context`, `review` and `overrideInput`).

use serde_json::{Map, Value};

use crate::aggregate::Aggregate;
use crate::context::EventContext;
use crate::event::BuiltinEvent;
use crate::reply::{Reply, context, put, refusal, user_message};

use super::{TOOL_NAME_KEY, cline_name, tool_input};

/// Cline's answer to the event of `ctx` saying what `agg` says.
///
/// - A block or deny, or a hook asking the agent to stop: `cancel: true` with the reason as
///   `errorMessage`. Cline has no narrower refusal: a cancel on PreToolUse stops the task,
///   not only the tool (current Cline rejects the older `shouldContinue`).
/// - Otherwise `cancel: false`, and the hooks' context as `contextModification`, which Cline
///   gives the model. A rewrite on PreToolUse is `overrideInput`, the whole input in the
///   shape of the tool Cline named (the SDK, which the `cline` CLI runs, replaces the
///   tool's input with it; the extension does not read it). An ask has no form Cline
///   reads: Cline's own approval decides.
/// - The message for the user, when nothing is cancelled, goes to stderr, which Cline
///   logs: its `errorMessage` without a cancel is read by the SDK as context for the model.
pub fn reply(ctx: &EventContext, agg: &Aggregate) -> Reply {
    let effects = &agg.effects;
    let mut top = Map::new();
    let refusal = refusal(agg, "the task");
    top.insert("cancel".to_owned(), Value::Bool(refusal.is_some()));
    if let Some(reason) = refusal {
        top.insert("errorMessage".to_owned(), Value::String(reason));
        return Reply::json(top);
    }
    put(&mut top, "contextModification", context(agg));
    if ctx.event().builtin() == Some(BuiltinEvent::PreToolUse)
        && let Some(input) = &effects.updated_input
    {
        let canonical = ctx.tool_name().unwrap_or_default();
        let tool = ctx
            .get_str(TOOL_NAME_KEY)
            .map_or_else(|| cline_name(canonical), str::to_owned);
        top.insert(
            "overrideInput".to_owned(),
            Value::Object(tool_input(&tool, canonical, input)),
        );
    }
    let mut reply = Reply::json(top);
    if let Some(message) = user_message(agg) {
        reply.stderr = format!("{message}\n");
    }
    reply
}
