//! The answer the bridge's plugin acts on in OpenCode: a JSON object on stdout with exit
//! code 0 (nothing on stdout: go on), read by the plugin (`agentic-hooks.js`, shipped
//! with the bridge) and turned into what OpenCode's plugin hooks can do.
//!
//! - `tool.execute.before`: `{"decision": "deny", "reason": R}` makes the plugin throw
//!   `new Error(R)`, so the tool does not run and the model gets `R` as the tool's result,
//!   verbatim; `{"args": {...}}` (a rewrite, the whole input in the argument names of
//!   OpenCode's tool) is written into the call's arguments in place, which is what OpenCode
//!   runs.
//! - `tool.execute.after`: `{"context": C}` is appended to the tool's output, which is what
//!   the model reads (a block's reason first: the call already ran, so its output is
//!   where the model learns why it should not have).
//! - The session events: nothing; the plugin does not wait on them.
//!
//! OpenCode cannot ask the user from a plugin (its `permission.ask` hook is never called
//! in 1.18.33), so an `ask` is answered as a deny, with its reason: a call a hook wants
//! confirmed does not run unconfirmed. A stop (`continue: false`) of a tool call is a
//! deny too. What OpenCode's plugin hooks have no place for (a message for the user, a
//! Stop hook's block, a SessionStart hook's context) is not written.

use serde_json::{Map, Value};

use super::input::tool_input_for_opencode;
use crate::aggregate::Aggregate;
use crate::context::EventContext;
use crate::event::BuiltinEvent;
use crate::outcome::Decision;
use crate::reply::{Reply, block_reason, context, put, refusal};

/// The answer to the event of `ctx` saying what `agg` says, for the bridge's plugin.
pub fn reply(ctx: &EventContext, agg: &Aggregate) -> Reply {
    let mut top = Map::new();
    match ctx.event().builtin() {
        Some(BuiltinEvent::PreToolUse) => {
            let refused = refusal(agg, "the agent").or_else(|| {
                (agg.effects.decision == Decision::Ask).then(|| {
                    let why = agg.effects.reason.clone().unwrap_or_default();
                    let why = why.trim();
                    if why.is_empty() {
                        "a hook asks to confirm this call, and OpenCode's plugins cannot ask: it is denied".to_owned()
                    } else {
                        format!("{why} (a hook asks to confirm this call, and OpenCode's plugins cannot ask: it is denied)")
                    }
                })
            });
            match refused {
                Some(reason) => {
                    top.insert("decision".to_owned(), Value::from("deny"));
                    top.insert("reason".to_owned(), Value::String(reason));
                }
                None => {
                    let tool = ctx.tool_name().unwrap_or_default();
                    put(
                        &mut top,
                        "args",
                        agg.effects
                            .updated_input
                            .as_ref()
                            .map(|input| tool_input_for_opencode(tool, input)),
                    );
                }
            }
        }
        Some(BuiltinEvent::PostToolUse) => {
            let reason = agg.is_blocked().then(|| block_reason(agg));
            let parts: Vec<String> = reason.into_iter().chain(context(agg)).collect();
            if !parts.is_empty() {
                top.insert("context".to_owned(), Value::String(parts.join("\n\n")));
            }
        }
        _ => {}
    }
    Reply::json(top)
}
