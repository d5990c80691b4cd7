//! Codex's answer. Codex reads hook output strictly (`../shared/PROTOCOLS.md` §2.6-2.8,
//! §10): every object rejects unknown keys, `hookSpecificOutput` needs `hookEventName` and
//! is invalid on Stop, `ask` and `allow` without `updatedInput` are invalid, and
//! `decision: "deny"` is ignored; an invalid answer is a failed hook and the action
//! proceeds. So the bridge writes only what Codex accepts on each event, and denies a
//! tool call by exit code 2 with the reason on stderr, the form every Codex build honours.

use serde_json::{Map, Value, json};

use crate::aggregate::Aggregate;
use crate::event::{BuiltinEvent, Event};
use crate::outcome::Decision;
use crate::reply::{Reply, block_reason, context, put, put_stop, user_message};

/// Codex's answer to `event` saying what `agg` says.
///
/// - PreToolUse: a block or deny (or `continue: false`, which Codex rejects there) is exit
///   2 with the reason on stderr; a rewrite is `permissionDecision: "allow"` with
///   `updatedInput`; `ask`, `defer` and `allow` alone are not written (Codex's own approval
///   policy decides); context is `additionalContext`.
/// - PermissionRequest: `decision.behavior` `deny` with `message`, or `allow`.
/// - PostToolUse, UserPromptSubmit, Stop, SubagentStop: `decision: "block"` with the
///   reason (on Stop the continuation prompt); `continue: false` and `stopReason`.
/// - SessionStart, SubagentStart, PostToolUse, UserPromptSubmit: `additionalContext`.
/// - Every event: the user's message as `systemMessage`.
pub fn reply(event: &Event, agg: &Aggregate) -> Reply {
    use BuiltinEvent as B;
    let builtin = event.builtin();
    let effects = &agg.effects;
    let blocked = agg.is_blocked();
    let mut top = Map::new();
    let mut specific = Map::new();
    match builtin {
        Some(B::PreToolUse) => {
            if blocked || !effects.continue_ {
                let reason = if blocked {
                    block_reason(agg)
                } else {
                    effects
                        .stop_reason
                        .clone()
                        .unwrap_or_else(|| "a PreToolUse hook stopped the agent".to_owned())
                };
                return Reply::exit_2(&reason);
            }
            if let (Some(input), false) = (
                &effects.updated_input,
                matches!(effects.decision, Decision::Defer),
            ) {
                specific.insert("permissionDecision".to_owned(), "allow".into());
                specific.insert("updatedInput".to_owned(), input.clone());
            }
            put(&mut specific, "additionalContext", context(agg));
        }
        Some(B::PermissionRequest) => {
            let decision = if blocked {
                Some(json!({"behavior": "deny", "message": block_reason(agg)}))
            } else if effects.decision == Decision::Allow {
                Some(json!({"behavior": "allow"}))
            } else {
                None
            };
            put(&mut specific, "decision", decision);
        }
        Some(B::PostToolUse | B::UserPromptSubmit) => {
            if blocked {
                top.insert("decision".to_owned(), "block".into());
                top.insert("reason".to_owned(), Value::String(block_reason(agg)));
            }
            put_stop(&mut top, agg);
            put(&mut specific, "additionalContext", context(agg));
        }
        Some(B::Stop | B::SubagentStop) => {
            if blocked {
                top.insert("decision".to_owned(), "block".into());
                top.insert("reason".to_owned(), Value::String(block_reason(agg)));
            }
            put_stop(&mut top, agg);
        }
        Some(B::SessionStart | B::SubagentStart) => {
            put(&mut specific, "additionalContext", context(agg));
        }
        Some(B::PreCompact | B::PostCompact) => put_stop(&mut top, agg),
        // Codex has no other event that takes more than the universal message.
        _ => {}
    }
    put(&mut top, "systemMessage", user_message(agg));
    if !specific.is_empty() {
        specific.insert("hookEventName".to_owned(), event.name().into());
        top.insert("hookSpecificOutput".to_owned(), Value::Object(specific));
    }
    Reply::json(top)
}
