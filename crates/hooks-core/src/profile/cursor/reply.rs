//! Cursor's answer (`../shared/PROTOCOLS.md` §4.3-4.5, §10; cursor.com/docs/agent/hooks):
//! a JSON object on stdout with exit code 0, in the fields each Cursor event reads, and exit
//! code 2 where only the exit code blocks.
//!
//! Cursor has several names for one canonical event (`preToolUse`, `beforeShellExecution`,
//! `beforeMCPExecution` and `beforeReadFile` are all PreToolUse), and the answer is written
//! so that each of them reads it: a tool decision is both `permission` (the before-events'
//! field) and `decision` (`preToolUse`'s), with `agent_message` and `reason` for the model
//! and `user_message` for the user.

use serde_json::{Map, Value};

use crate::aggregate::Aggregate;
use crate::event::{BuiltinEvent, Event};
use crate::outcome::Decision;
use crate::reply::{Reply, block_reason, context, put, refusal, user_message};

/// Cursor's answer to `event` saying what `agg` says.
///
/// - PreToolUse (`preToolUse`, `beforeShellExecution`, `beforeMCPExecution`,
///   `beforeReadFile`): always a decision, because Cursor refuses a `beforeMCPExecution`
///   or `beforeReadFile` answer that is not JSON: `permission` `deny` (a block, a deny, or
///   a hook stopping the agent, which Cursor cannot do there), `ask` or `allow` (no
///   opinion is `allow`, Cursor's own approval still applies), `decision` `deny` or
///   `allow` beside it; the reason as `agent_message` and `reason`, the user's message as
///   `user_message` (else the reason); a rewrite as `updated_input`.
/// - BeforeTabFileRead: `permission` `allow` or `deny` (an `ask` is a deny: Tab has no
///   one to ask).
/// - UserPromptSubmit (`beforeSubmitPrompt`): `continue: false` with `user_message` when
///   blocked or stopped.
/// - Stop, SubagentStop: a block is `followup_message`, the reason, which Cursor submits
///   as the next user message.
/// - SubagentStart: `decision` `allow` or `deny` with `reason`.
/// - SessionStart: `additional_context`, `env`, and `continue: false` with `user_message`.
/// - PreCompact: `user_message`; a block is exit 2 with the reason on stderr.
/// - PostToolUse: `updated_mcp_tool_output`.
/// - Every other event (PostToolUseFailure, SessionEnd, StopFailure, the after-events):
///   nothing, as Cursor reads nothing there.
pub fn reply(event: &Event, agg: &Aggregate) -> Reply {
    use BuiltinEvent as B;
    let effects = &agg.effects;
    let blocked = agg.is_blocked();
    let refusal = refusal(agg, "the agent");
    let mut top = Map::new();
    match event.builtin() {
        Some(B::PreToolUse) => {
            let (permission, reason) = match (&refusal, effects.decision) {
                (Some(why), _) => ("deny", Some(why.clone())),
                (None, Decision::Ask) => ("ask", effects.reason.clone()),
                (None, _) => ("allow", effects.reason.clone()),
            };
            top.insert("permission".to_owned(), permission.into());
            if permission != "ask" {
                top.insert("decision".to_owned(), permission.into());
            }
            let user =
                user_message(agg).or_else(|| reason.clone().filter(|_| permission != "allow"));
            put(&mut top, "user_message", user);
            put(&mut top, "agent_message", reason.clone());
            put(&mut top, "reason", reason);
            if refusal.is_none() && effects.decision != Decision::Defer {
                put(&mut top, "updated_input", effects.updated_input.clone());
            }
        }
        Some(B::BeforeTabFileRead) => {
            let deny = refusal.is_some() || effects.decision == Decision::Ask;
            top.insert(
                "permission".to_owned(),
                if deny { "deny" } else { "allow" }.into(),
            );
            if deny {
                let reason = refusal
                    .clone()
                    .or_else(|| effects.reason.clone())
                    .unwrap_or_else(|| block_reason(agg));
                put(&mut top, "user_message", user_message(agg).or(Some(reason)));
            }
        }
        Some(B::UserPromptSubmit) if refusal.is_some() => {
            top.insert("continue".to_owned(), Value::Bool(false));
            put(&mut top, "user_message", refusal);
        }
        Some(B::Stop | B::SubagentStop) if blocked => {
            top.insert(
                "followup_message".to_owned(),
                Value::String(block_reason(agg)),
            );
        }
        Some(B::SubagentStart) => {
            if blocked {
                top.insert("decision".to_owned(), "deny".into());
                top.insert("reason".to_owned(), Value::String(block_reason(agg)));
            } else if effects.decision == Decision::Allow {
                top.insert("decision".to_owned(), "allow".into());
            }
        }
        Some(B::SessionStart) => {
            put(&mut top, "additional_context", context(agg));
            if !effects.env.is_empty() {
                let env: Map<String, Value> = effects
                    .env
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect();
                top.insert("env".to_owned(), Value::Object(env));
            }
            if refusal.is_some() {
                top.insert("continue".to_owned(), Value::Bool(false));
            }
            put(&mut top, "user_message", user_message(agg).or(refusal));
        }
        Some(B::PreCompact) if blocked => return Reply::exit_2(&block_reason(agg)),
        Some(B::PreCompact) => put(&mut top, "user_message", user_message(agg)),
        Some(B::PostToolUse) => {
            put(
                &mut top,
                "updated_mcp_tool_output",
                effects.updated_mcp_tool_output.clone(),
            );
        }
        // Cursor reads no answer on its other events, nor does it have a host's own.
        _ => {}
    }
    Reply::json(top)
}
