//! What an Autohand hook is given: the keys of Autohand's JSON Input Structure (stdin) and
//! its `HOOK_*` variables, from one table naming, for each, the context fields it is read
//! from (first present and not null wins).

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::dialect::Dialect;

/// Where a field's value comes from.
#[derive(Clone, Copy)]
pub(super) enum From {
    /// The event's name in Autohand's spelling.
    EventName,
    /// The first of these context fields present and not null.
    Fields(&'static [&'static str]),
}

/// One field of what an Autohand hook is given.
pub(super) struct Field {
    /// Its key in the stdin JSON, if Autohand documents one there.
    pub(super) key: Option<&'static str>,
    /// Its environment variable, if Autohand documents one.
    pub(super) var: Option<&'static str>,
    /// Where its value comes from.
    pub(super) from: From,
}

const fn both(key: &'static str, var: &'static str, from: &'static [&'static str]) -> Field {
    Field {
        key: Some(key),
        var: Some(var),
        from: From::Fields(from),
    }
}

const fn key(key: &'static str, from: &'static [&'static str]) -> Field {
    Field {
        key: Some(key),
        var: None,
        from: From::Fields(from),
    }
}

const fn var(var: &'static str, from: &'static [&'static str]) -> Field {
    Field {
        key: None,
        var: Some(var),
        from: From::Fields(from),
    }
}

/// The fields in the order of Autohand's JSON Input Structure. `HOOK_EVENT`, `HOOK_ARGS`
/// and `HOOK_PATH` are computed by the environment module (the kebab-case name, the tool
/// input as JSON, the event's or the tool input's file path).
pub(super) const FIELDS: &[Field] = &[
    both("session_id", "HOOK_SESSION_ID", &["session_id"]),
    both("cwd", "HOOK_WORKSPACE", &["cwd"]),
    Field {
        key: Some("hook_event_name"),
        var: None,
        from: From::EventName,
    },
    both("tool_name", "HOOK_TOOL", &["tool_name"]),
    key("tool_input", &["tool_input"]),
    both("tool_use_id", "HOOK_TOOL_CALL_ID", &["tool_use_id"]),
    both("tool_response", "HOOK_OUTPUT", &["tool_response"]),
    both("tool_success", "HOOK_SUCCESS", &["tool_success"]),
    key("file_path", &["file_path"]),
    both("change_type", "HOOK_CHANGE_TYPE", &["change_type"]),
    both(
        "instruction",
        "HOOK_INSTRUCTION",
        &["instruction", "prompt"],
    ),
    both(
        "mentioned_files",
        "HOOK_MENTIONED_FILES",
        &["mentioned_files"],
    ),
    both("tokens_used", "HOOK_TOKENS", &["tokens_used"]),
    key("tokens_usage_status", &["tokens_usage_status"]),
    both(
        "tool_calls_count",
        "HOOK_TOOL_CALLS_COUNT",
        &["tool_calls_count"],
    ),
    both(
        "turn_tool_calls",
        "HOOK_TURN_TOOL_CALLS",
        &["turn_tool_calls"],
    ),
    both("turn_duration", "HOOK_TURN_DURATION", &["turn_duration"]),
    both("duration", "HOOK_DURATION", &["duration"]),
    both("error", "HOOK_ERROR", &["error"]),
    both("error_code", "HOOK_ERROR_CODE", &["error_code"]),
    both(
        "session_type",
        "HOOK_SESSION_TYPE",
        &["session_type", "source"],
    ),
    both(
        "session_end_reason",
        "HOOK_SESSION_END_REASON",
        &["session_end_reason", "reason"],
    ),
    both(
        "subagent_id",
        "HOOK_SUBAGENT_ID",
        &["subagent_id", "agent_id"],
    ),
    both("subagent_name", "HOOK_SUBAGENT_NAME", &["subagent_name"]),
    both(
        "subagent_type",
        "HOOK_SUBAGENT_TYPE",
        &["subagent_type", "agent_type"],
    ),
    both(
        "subagent_success",
        "HOOK_SUBAGENT_SUCCESS",
        &["subagent_success"],
    ),
    both("subagent_error", "HOOK_SUBAGENT_ERROR", &["subagent_error"]),
    both(
        "subagent_duration",
        "HOOK_SUBAGENT_DURATION",
        &["subagent_duration"],
    ),
    both(
        "permission_type",
        "HOOK_PERMISSION_TYPE",
        &["permission_type"],
    ),
    both(
        "notification_type",
        "HOOK_NOTIFICATION_TYPE",
        &["notification_type"],
    ),
    both(
        "notification_message",
        "HOOK_NOTIFICATION_MSG",
        &["notification_message", "message"],
    ),
    both(
        "automode_session_id",
        "HOOK_AUTOMODE_SESSION_ID",
        &["automode_session_id"],
    ),
    both(
        "automode_prompt",
        "HOOK_AUTOMODE_PROMPT",
        &["automode_prompt"],
    ),
    both(
        "automode_iteration",
        "HOOK_AUTOMODE_ITERATION",
        &["automode_iteration"],
    ),
    both(
        "automode_max_iterations",
        "HOOK_AUTOMODE_MAX_ITERATIONS",
        &["automode_max_iterations"],
    ),
    both(
        "automode_actions",
        "HOOK_AUTOMODE_ACTIONS",
        &["automode_actions"],
    ),
    both(
        "automode_files_created",
        "HOOK_AUTOMODE_FILES_CREATED",
        &["automode_files_created"],
    ),
    both(
        "automode_files_modified",
        "HOOK_AUTOMODE_FILES_MODIFIED",
        &["automode_files_modified"],
    ),
    both(
        "automode_cancel_reason",
        "HOOK_AUTOMODE_CANCEL_REASON",
        &["automode_cancel_reason"],
    ),
    both(
        "automode_checkpoint_commit",
        "HOOK_AUTOMODE_CHECKPOINT",
        &["automode_checkpoint_commit"],
    ),
    both(
        "automode_total_cost",
        "HOOK_AUTOMODE_COST",
        &["automode_total_cost"],
    ),
    both("review_path", "HOOK_REVIEW_PATH", &["review_path"]),
    both("review_scope", "HOOK_REVIEW_SCOPE", &["review_scope"]),
    both(
        "review_instructions",
        "HOOK_REVIEW_INSTRUCTIONS",
        &["review_instructions"],
    ),
    both("review_error", "HOOK_REVIEW_ERROR", &["review_error"]),
    var("HOOK_GOAL_ID", &["goal_id"]),
    var("HOOK_GOAL_OBJECTIVE", &["goal_objective"]),
    var("HOOK_GOAL_SOURCE", &["goal_source"]),
    both("team_name", "HOOK_TEAM_NAME", &["team_name"]),
    both("teammate_name", "HOOK_TEAMMATE_NAME", &["teammate_name"]),
    both(
        "teammate_agent_name",
        "HOOK_TEAMMATE_AGENT",
        &["teammate_agent_name"],
    ),
    both("teammate_pid", "HOOK_TEAMMATE_PID", &["teammate_pid"]),
    both("team_task_id", "HOOK_TEAM_TASK_ID", &["team_task_id"]),
    both(
        "team_task_owner",
        "HOOK_TEAM_TASK_OWNER",
        &["team_task_owner"],
    ),
    both(
        "team_task_result",
        "HOOK_TEAM_TASK_RESULT",
        &["team_task_result"],
    ),
    both(
        "team_member_count",
        "HOOK_TEAM_MEMBER_COUNT",
        &["team_member_count"],
    ),
    both(
        "team_tasks_completed",
        "HOOK_TEAM_TASKS_COMPLETED",
        &["team_tasks_completed"],
    ),
    both(
        "team_tasks_total",
        "HOOK_TEAM_TASKS_TOTAL",
        &["team_tasks_total"],
    ),
    both(
        "additional_workspaces",
        "HOOK_ADDITIONAL_WORKSPACES",
        &["additional_workspaces"],
    ),
];

/// The value of a field read from context fields, if one is present and not null.
pub(super) fn read<'a>(ctx: &'a EventContext, fields: &[&str]) -> Option<&'a Value> {
    fields
        .iter()
        .find_map(|f| ctx.get(f).filter(|v| !v.is_null()))
}

/// The stdin JSON of an Autohand hook: every key of Autohand's JSON Input Structure, in its
/// order, `null` where the event has no value for it, then the context's other fields as
/// the host sent them.
pub(super) fn input_json(ctx: &EventContext) -> Value {
    let fields = ctx.fields();
    let mut out = Map::with_capacity(FIELDS.len() + fields.len());
    for field in FIELDS {
        let Some(key) = field.key else { continue };
        let value = match field.from {
            From::EventName => Value::String(ctx.event().info().name_in(Dialect::Autohand).into()),
            From::Fields(from) => read(ctx, from).cloned().unwrap_or(Value::Null),
        };
        out.insert(key.to_owned(), value);
    }
    for (k, v) in fields {
        if !out.contains_key(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}
