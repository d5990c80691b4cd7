//! What a Gemini CLI hook is given: the stdin JSON of Gemini CLI's `HookInput` for each
//! event (`packages/core/src/hooks/types.ts`, `docs/hooks/reference.md`) and the
//! environment of its `hookRunner.ts`.

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::event::BuiltinEvent;
use crate::tools::GEMINI_TOOLS;

/// The fields every Gemini CLI hook input has (besides `hook_event_name` and
/// `timestamp`, which the builder writes).
const COMMON: [&str; 3] = ["session_id", "transcript_path", "cwd"];

/// The fields of each event's input, after the common ones; `None`: an event Gemini CLI
/// does not have, whose fields are all passed on.
fn event_fields(event: Option<BuiltinEvent>) -> Option<&'static [&'static str]> {
    use BuiltinEvent as E;
    Some(match event? {
        E::PreToolUse => &[
            "tool_name",
            "tool_input",
            "mcp_context",
            "original_request_name",
        ],
        E::PostToolUse => &[
            "tool_name",
            "tool_input",
            "tool_response",
            "mcp_context",
            "original_request_name",
        ],
        E::UserPromptSubmit => &["prompt"],
        E::Stop => &["prompt", "prompt_response", "stop_hook_active"],
        E::BeforeModel | E::BeforeToolSelection => &["llm_request"],
        E::AfterModel => &["llm_request", "llm_response"],
        E::SessionStart => &["source"],
        E::SessionEnd => &["reason"],
        E::PreCompact => &["trigger"],
        E::Notification => &["notification_type", "message", "details"],
        _ => return None,
    })
}

/// The stdin JSON of a Gemini CLI hook: `session_id`, `transcript_path`, `cwd`,
/// `hook_event_name` (Gemini CLI's name, `BeforeTool`), `timestamp` (the context's, else
/// the dispatch time), then the event's own fields, with the tool name in Gemini CLI's
/// vocabulary (`run_shell_command`). Fields Gemini CLI does not send (Claude Code's
/// `permission_mode`, `tool_use_id`) are left out; an event Gemini CLI does not have
/// passes every field on.
pub(crate) fn input_json(ctx: &EventContext, event_name: &str) -> Value {
    let mut out = Map::new();
    let fields = ctx.fields();
    let copy = |out: &mut Map<String, Value>, key: &str| {
        if let Some(value) = fields.get(key) {
            let value = match (key, value) {
                ("tool_name", Value::String(name)) => {
                    Value::String(GEMINI_TOOLS.from_canonical(name).into_owned())
                }
                _ => value.clone(),
            };
            out.insert(key.to_owned(), value);
        }
    };
    for key in COMMON {
        copy(&mut out, key);
    }
    out.insert(
        "hook_event_name".to_owned(),
        Value::String(event_name.to_owned()),
    );
    match fields.get("timestamp") {
        Some(at) => {
            out.insert("timestamp".to_owned(), at.clone());
        }
        None => {
            if let Some(at) = ctx.dispatched_at() {
                out.insert("timestamp".to_owned(), Value::String(at.to_owned()));
            }
        }
    }
    match event_fields(ctx.event().builtin()) {
        Some(keys) => {
            for key in keys {
                copy(&mut out, key);
            }
        }
        None => {
            let keys: Vec<&String> = fields.keys().collect();
            for key in keys {
                if !out.contains_key(key.as_str()) {
                    copy(&mut out, key);
                }
            }
        }
    }
    Value::Object(out)
}

/// The environment Gemini CLI gives a hook: `GEMINI_PROJECT_DIR`, `GEMINI_CWD` and
/// `CLAUDE_PROJECT_DIR` (all the input's `cwd`, as `hookRunner.ts` sets them) and
/// `GEMINI_SESSION_ID`.
pub(crate) fn env_vars(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    if let Some(cwd) = ctx.working_dir() {
        for name in ["GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"] {
            out.push((name.to_owned(), cwd.to_owned()));
        }
    }
    if let Some(id) = ctx.get_str("session_id") {
        out.push(("GEMINI_SESSION_ID".to_owned(), id.to_owned()));
    }
}

/// A Gemini CLI BeforeTool answer's `tool_input` merged into the tool's arguments, as
/// Gemini CLI merges it (the hook's keys over the model's): the whole input the tool runs
/// with. `None` when the hook gave no object.
pub(crate) fn merged_input(original: Option<&Value>, partial: &Value) -> Option<Value> {
    let Value::Object(partial) = partial else {
        return None;
    };
    let mut merged = match original {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    for (k, v) in partial {
        merged.insert(k.clone(), v.clone());
    }
    Some(Value::Object(merged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn before_tool_input() {
        let mut ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}))
            .session_id("s")
            .cwd("/w")
            .permission_mode("default")
            .with("tool_use_id", "t");
        ctx.set_dispatched_at("2026-01-01T00:00:00Z");
        let got = input_json(&ctx, "BeforeTool");
        assert_eq!(
            got,
            json!({"session_id": "s", "cwd": "/w", "hook_event_name": "BeforeTool",
                "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"}})
        );
    }

    #[test]
    fn env_and_merge() {
        let ctx = EventContext::session_start("startup")
            .session_id("s")
            .cwd("/w");
        let mut env = Vec::new();
        env_vars(&ctx, &mut env);
        assert_eq!(env.len(), 4);
        assert_eq!(
            merged_input(Some(&json!({"a": 1, "b": 2})), &json!({"b": 3})),
            Some(json!({"a": 1, "b": 3}))
        );
    }
}
