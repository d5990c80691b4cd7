//! Gemini CLI's answer (`../shared/PROTOCOLS.md` §3.6-3.8, §10): a JSON object on stdout
//! with exit code 0, whatever the decision. Gemini CLI reads a top-level `decision`
//! (`deny` blocks, `ask` forces the confirmation) with `reason`, and ignores Claude Code's
//! `hookSpecificOutput.permissionDecision`; its per-event fields are in
//! `hookSpecificOutput` (`tool_input` for a rewrite, `additionalContext`).
//!
//! A rewrite is written in Gemini CLI's own argument names for the tool (the engine holds
//! the canonical tool's: `path` of `Grep` is `dir_path` of `grep_search`), and whole:
//! Gemini CLI 0.61's scheduler builds the call from `tool_input` alone (its older path
//! merges it over the model's arguments with `Object.assign`, which the whole input
//! satisfies too), and the engine's `updated_input` is already the whole input, a Gemini
//! CLI hook's partial `tool_input` merged over the arguments when it was read.

use serde_json::{Map, Value};

use super::events::event_name;
use super::input::tool_input_for_gemini;
use crate::aggregate::Aggregate;
use crate::context::EventContext;
use crate::event::BuiltinEvent;
use crate::outcome::Decision;
use crate::reply::{Reply, block_reason, context, put, put_stop, user_message};

/// Gemini CLI's answer to the event of `ctx` saying what `agg` says.
///
/// - BeforeTool, AfterTool, BeforeAgent, AfterAgent: a block or deny is `decision:
///   "deny"` with the reason (on AfterAgent the reason is the retry prompt); `ask` is
///   `decision: "ask"`; `allow` is `decision: "allow"` (which does not bypass Gemini's own
///   policy).
/// - BeforeTool: a rewrite is `hookSpecificOutput.tool_input`, the whole input in the
///   argument names of Gemini CLI's tool.
/// - AfterTool, BeforeAgent, SessionStart: `hookSpecificOutput.additionalContext`.
/// - AfterTool: a hook's `tailToolCallRequest`, for Gemini CLI to run.
/// - Every event: `continue: false` with `stopReason`, the user's message as
///   `systemMessage`.
pub fn reply(ctx: &EventContext, agg: &Aggregate) -> Reply {
    use BuiltinEvent as B;
    let event = ctx.event();
    let builtin = event.builtin();
    let effects = &agg.effects;
    let mut top = Map::new();
    let mut specific = Map::new();
    let decides = matches!(
        builtin,
        Some(
            B::PreToolUse | B::PostToolUse | B::PostToolUseFailure | B::UserPromptSubmit | B::Stop
        )
    );
    if decides {
        let decision = match effects.decision {
            Decision::Block | Decision::Deny => Some("deny"),
            Decision::Ask => Some("ask"),
            Decision::Allow => Some("allow"),
            Decision::Defer | Decision::None => None,
        };
        put(&mut top, "decision", decision);
        if agg.is_blocked() {
            top.insert("reason".to_owned(), Value::String(block_reason(agg)));
        } else if decision.is_some() {
            put(&mut top, "reason", effects.reason.clone());
        }
    }
    if builtin == Some(B::PreToolUse) && !agg.is_blocked() {
        let tool = ctx.tool_name().unwrap_or_default();
        put(
            &mut specific,
            "tool_input",
            effects
                .updated_input
                .as_ref()
                .map(|input| tool_input_for_gemini(tool, input)),
        );
    }
    if matches!(
        builtin,
        Some(B::PostToolUse | B::PostToolUseFailure | B::UserPromptSubmit | B::SessionStart)
    ) {
        put(&mut specific, "additionalContext", context(agg));
    }
    if matches!(builtin, Some(B::PostToolUse | B::PostToolUseFailure)) {
        put(
            &mut specific,
            "tailToolCallRequest",
            effects.tail_tool_call.clone(),
        );
    }
    put_stop(&mut top, agg);
    put(&mut top, "systemMessage", user_message(agg));
    if effects.suppress_output {
        top.insert("suppressOutput".to_owned(), Value::Bool(true));
    }
    if !specific.is_empty() {
        let name = builtin.and_then(event_name).unwrap_or_else(|| event.name());
        specific.insert("hookEventName".to_owned(), name.into());
        top.insert("hookSpecificOutput".to_owned(), Value::Object(specific));
    }
    Reply::json(top)
}
