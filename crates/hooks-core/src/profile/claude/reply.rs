//! Claude Code's answer: `hookSpecificOutput` for the per-event fields, a top-level
//! `decision: "block"` where the event takes one, exit code 2 with stderr where only the
//! exit code blocks, and the user's message as `systemMessage` (hooks reference §JSON
//! output; `../shared/PROTOCOLS.md` §1.7, §1.8, §10).

use serde_json::{Map, Value, json};

use crate::aggregate::Aggregate;
use crate::event::{BuiltinEvent, Event};
use crate::outcome::{Decision, ElicitationAction};
use crate::reply::{Reply, block_reason, context, put, put_stop, user_message};

/// How an event's block is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockForm {
    /// `hookSpecificOutput.permissionDecision: "deny"` with its reason (PreToolUse).
    Permission,
    /// `hookSpecificOutput.decision.behavior: "deny"` (PermissionRequest).
    Behavior,
    /// Top-level `decision: "block"` and `reason`.
    Decision,
    /// Exit code 2 with the reason on stderr (the events whose JSON takes no decision).
    Exit2,
    /// A non-zero exit fails the event (WorktreeCreate).
    Fail,
    /// The event cannot be blocked.
    None,
}

fn block_form(event: Option<BuiltinEvent>) -> BlockForm {
    use BuiltinEvent as B;
    match event {
        Some(B::PreToolUse) => BlockForm::Permission,
        Some(B::PermissionRequest) => BlockForm::Behavior,
        Some(
            B::PostToolUse
            | B::PostToolBatch
            | B::UserPromptSubmit
            | B::UserPromptExpansion
            | B::Stop
            | B::SubagentStop
            | B::TaskCreated
            | B::ConfigChange,
        ) => BlockForm::Decision,
        Some(
            B::TaskCompleted
            | B::TeammateIdle
            | B::PreCompact
            | B::Elicitation
            | B::ElicitationResult,
        ) => BlockForm::Exit2,
        Some(B::WorktreeCreate) => BlockForm::Fail,
        // Every other built-in event takes no block in Claude Code, nor does a host's own.
        _ => BlockForm::None,
    }
}

/// Claude Code's answer to `event` saying what `agg` says.
///
/// - PreToolUse: `permissionDecision` `deny` (block and deny), `ask`, `defer` or
///   `allow`, with the reason; a rewrite is `updatedInput`, which Claude Code applies only
///   with `allow` or `ask`, so a rewrite without a decision is written with `allow`
///   (Claude Code's own deny and ask rules still apply after a hook's `allow`).
/// - PermissionRequest: `decision.behavior` `deny` with `message`, or `allow` with
///   `updatedInput` and `updatedPermissions`; `ask` and no decision leave the prompt.
/// - Events that take a top-level `decision`: `decision: "block"` and `reason`; those
///   blocked only by exit code: exit 2 with the reason on stderr; WorktreeCreate: exit 1.
/// - Context is `hookSpecificOutput.additionalContext` on the events that take it; the
///   user's message (the hooks' `systemMessage` and the reports of failed hooks) is
///   `systemMessage`; `continue: false` and `stopReason` pass through.
pub fn reply(event: &Event, agg: &Aggregate) -> Reply {
    let builtin = event.builtin();
    let blocked = agg.is_blocked();
    let form = block_form(builtin);
    match (blocked, form) {
        (true, BlockForm::Exit2) => return Reply::exit_2(&block_reason(agg)),
        (true, BlockForm::Fail) => {
            return Reply {
                stderr: format!("{}\n", block_reason(agg)),
                exit_code: 1,
                ..Reply::default()
            };
        }
        _ => {}
    }
    if builtin == Some(BuiltinEvent::WorktreeCreate) {
        // A command hook answers WorktreeCreate with the path alone, as its last line.
        return match &agg.effects.worktree_path {
            Some(path) => Reply {
                stdout: format!("{path}\n"),
                ..Reply::default()
            },
            None => Reply::proceed(),
        };
    }
    let mut top = Map::new();
    let mut specific = Map::new();
    let effects = &agg.effects;
    match form {
        BlockForm::Permission => {
            let decision = match effects.decision {
                Decision::Block | Decision::Deny => Some("deny"),
                Decision::Ask => Some("ask"),
                Decision::Defer => Some("defer"),
                Decision::Allow => Some("allow"),
                Decision::None if effects.updated_input.is_some() => Some("allow"),
                Decision::None => None,
            };
            put(&mut specific, "permissionDecision", decision);
            if blocked {
                specific.insert(
                    "permissionDecisionReason".to_owned(),
                    Value::String(block_reason(agg)),
                );
            } else {
                put(
                    &mut specific,
                    "permissionDecisionReason",
                    effects.reason.clone(),
                );
                if effects.decision != Decision::Defer {
                    put(&mut specific, "updatedInput", effects.updated_input.clone());
                }
            }
        }
        BlockForm::Behavior => {
            let decision = if blocked {
                Some(json!({"behavior": "deny", "message": block_reason(agg)}))
            } else if effects.decision == Decision::Allow {
                let mut allow = Map::new();
                allow.insert("behavior".to_owned(), "allow".into());
                put(&mut allow, "updatedInput", effects.updated_input.clone());
                if !effects.updated_permissions.is_empty() {
                    allow.insert(
                        "updatedPermissions".to_owned(),
                        Value::Array(effects.updated_permissions.clone()),
                    );
                }
                Some(Value::Object(allow))
            } else {
                None
            };
            put(&mut specific, "decision", decision);
        }
        BlockForm::Decision if blocked => {
            top.insert("decision".to_owned(), "block".into());
            top.insert("reason".to_owned(), Value::String(block_reason(agg)));
        }
        BlockForm::Decision | BlockForm::Exit2 | BlockForm::Fail | BlockForm::None => {}
    }
    if takes_context(builtin) {
        put(&mut specific, "additionalContext", context(agg));
    }
    put(&mut specific, "retry", effects.retry);
    put(
        &mut specific,
        "updatedToolOutput",
        effects.updated_tool_output.clone(),
    );
    put(
        &mut specific,
        "updatedMCPToolOutput",
        effects.updated_mcp_tool_output.clone(),
    );
    put(&mut specific, "sessionTitle", effects.session_title.clone());
    put(
        &mut specific,
        "initialUserMessage",
        effects.initial_user_message.clone(),
    );
    put(&mut specific, "watchPaths", effects.watch_paths.clone());
    put(
        &mut specific,
        "classifierContext",
        effects.classifier_context.clone(),
    );
    put(
        &mut specific,
        "displayContent",
        effects.display_content.clone(),
    );
    if effects.reload_skills {
        specific.insert("reloadSkills".to_owned(), Value::Bool(true));
    }
    if let Some(answer) = &effects.elicitation {
        let action = match answer.action {
            ElicitationAction::Accept => "accept",
            ElicitationAction::Decline => "decline",
            ElicitationAction::Cancel => "cancel",
        };
        specific.insert("action".to_owned(), action.into());
        put(&mut specific, "content", answer.content.clone());
    }
    put_stop(&mut top, agg);
    put(&mut top, "systemMessage", user_message(agg));
    if effects.suppress_output {
        top.insert("suppressOutput".to_owned(), Value::Bool(true));
    }
    if effects.suppress_original_prompt {
        top.insert("suppressOriginalPrompt".to_owned(), Value::Bool(true));
    }
    put(
        &mut top,
        "terminalSequence",
        effects.terminal_sequence.clone(),
    );
    if !specific.is_empty() {
        specific.insert("hookEventName".to_owned(), event.name().into());
        top.insert("hookSpecificOutput".to_owned(), Value::Object(specific));
    }
    Reply::json(top)
}

/// Whether Claude Code reads `hookSpecificOutput.additionalContext` on this event.
fn takes_context(event: Option<BuiltinEvent>) -> bool {
    use BuiltinEvent as B;
    matches!(
        event,
        Some(
            B::PreToolUse
                | B::PostToolUse
                | B::PostToolUseFailure
                | B::PostToolBatch
                | B::UserPromptSubmit
                | B::UserPromptExpansion
                | B::SessionStart
                | B::Setup
                | B::SubagentStart
                | B::Stop
                | B::SubagentStop
        )
    )
}
