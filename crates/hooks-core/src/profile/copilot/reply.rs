//! GitHub Copilot CLI's answer, always exit 0 (Copilot drops a hook's stderr, so an exit
//! 2 would reach the model only as "hook exited with code 2"), in the form of the
//! spelling the agent called with ([`EventContext::sent_as`]): Claude Code's
//! `hookSpecificOutput` for a PascalCase event, Copilot's top-level fields otherwise.

use serde_json::{Map, Value};

use crate::aggregate::Aggregate;
use crate::context::EventContext;
use crate::event::BuiltinEvent;
use crate::outcome::Decision;
use crate::reply::{Reply, block_reason, context, put, refusal};

/// Copilot's answer to the event of `ctx` saying what `agg` says.
///
/// A PascalCase call (`PreToolUse`, `Stop`, ...) is answered as Claude Code is, which
/// Copilot reads there (a deny is `hookSpecificOutput.permissionDecision`). A camelCase
/// call (and one whose spelling is not known) gets Copilot's own fields:
/// - preToolUse: `permissionDecision` `deny` (a block, or a hook stopping the agent) with
///   `permissionDecisionReason`, which the model is told as "Denied by preToolUse hook:
///   REASON"; `ask` (which Copilot turns into a deny in prompt mode) and `allow` with
///   the reason; a rewrite as `modifiedArgs`; context as `additionalContext`, which
///   Copilot gives the model as a message of its own.
/// - permissionRequest: `behavior` `deny` with `message`, or `allow`.
/// - agentStop, subagentStop, userPromptSubmitted: `decision: "block"` with `reason`.
/// - postToolUse, sessionStart, subagentStart, notification: `additionalContext`.
/// - Every other event: nothing.
pub fn reply(ctx: &EventContext, agg: &Aggregate) -> Reply {
    if ctx.sent_as().is_some_and(super::is_pascal) {
        return crate::profile::claude::reply(ctx.event(), agg);
    }
    use BuiltinEvent as B;
    let effects = &agg.effects;
    let mut top = Map::new();
    match ctx.event().builtin() {
        Some(B::PreToolUse) => {
            let (decision, reason) = match (refusal(agg, "the agent"), effects.decision) {
                (Some(why), _) => (Some("deny"), Some(why)),
                (None, Decision::Ask) => (Some("ask"), effects.reason.clone()),
                (None, Decision::Allow) => (Some("allow"), effects.reason.clone()),
                (None, _) => (None, None),
            };
            put(&mut top, "permissionDecision", decision);
            put(&mut top, "permissionDecisionReason", reason);
            if decision != Some("deny") {
                put(&mut top, "modifiedArgs", effects.updated_input.clone());
            }
            put(&mut top, "additionalContext", context(agg));
        }
        Some(B::PermissionRequest) => {
            if let Some(why) = refusal(agg, "the agent") {
                top.insert("behavior".to_owned(), "deny".into());
                top.insert("message".to_owned(), Value::String(why));
            } else if effects.decision == Decision::Allow {
                top.insert("behavior".to_owned(), "allow".into());
            }
        }
        Some(B::Stop | B::SubagentStop | B::UserPromptSubmit) if agg.is_blocked() => {
            top.insert("decision".to_owned(), "block".into());
            top.insert("reason".to_owned(), Value::String(block_reason(agg)));
        }
        Some(B::PostToolUse | B::SessionStart | B::SubagentStart | B::Notification) => {
            put(&mut top, "additionalContext", context(agg));
        }
        _ => {}
    }
    Reply::json(top)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::event::Event;

    fn denied(event: BuiltinEvent) -> Aggregate {
        let mut agg = Aggregate::empty(&Event::from(event));
        agg.effects.decision = Decision::Block;
        agg.effects.reason = Some("no rm".to_owned());
        agg
    }

    #[test]
    fn a_deny_in_each_spelling() {
        let mut ctx = EventContext::pre_tool_use("Bash", json!({"command": "rm -r v"}));
        let agg = denied(BuiltinEvent::PreToolUse);
        let camel = reply(&ctx, &agg);
        assert_eq!(camel.exit_code, 0);
        let out: Value = serde_json::from_str(&camel.stdout).expect("json");
        assert_eq!(
            out,
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no rm"})
        );
        ctx.set_sent_as("PreToolUse");
        let pascal: Value = serde_json::from_str(&reply(&ctx, &agg).stdout).expect("json");
        assert_eq!(pascal["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            pascal["hookSpecificOutput"]["permissionDecisionReason"],
            "no rm"
        );
    }

    #[test]
    fn no_opinion_is_nothing_and_a_stop_block_continues() {
        let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
        let agg = Aggregate::empty(ctx.event());
        assert_eq!(reply(&ctx, &agg), Reply::proceed());
        let stop = EventContext::stop(false);
        let out: Value =
            serde_json::from_str(&reply(&stop, &denied(BuiltinEvent::Stop)).stdout).expect("json");
        assert_eq!(out, json!({"decision": "block", "reason": "no rm"}));
    }
}
