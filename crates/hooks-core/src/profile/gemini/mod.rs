//! Gemini CLI: `settings.json` hooks (system, user, project) and extensions'
//! `hooks/hooks.json`, its own event names (`BeforeTool`, `AfterAgent`, ...) and events
//! (BeforeModel, AfterModel, BeforeToolSelection), timeouts in milliseconds, `bash -c`,
//! its tool names (`run_shell_command`), the stdin of its `HookInput` with a `timestamp`
//! (`packages/core/src/hooks/types.ts`, `docs/hooks/reference.md`), the environment of its
//! `hookRunner.ts`, and its reading of a hook's answer ([`answers`]).

mod answers;

use std::time::Duration;

use serde_json::{Map, Value};

use super::{Events, FileShape, HookList, Profile, Switch};
use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent as E, BuiltinEvent};
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::GEMINI_TOOLS;

/// The Gemini CLI profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Gemini,
    name: "gemini",
    display_name: "Gemini CLI",
    time_unit: TimeUnit::Millis,
    default_timeout,
    shell: Some("bash"),
    sandboxed_by_default: false,
    documents_timestamp: true,
    env_file: false,
    events: Events::Named,
    event_names: &[
        (E::PreToolUse, "BeforeTool"),
        (E::PostToolUse, "AfterTool"),
        (E::UserPromptSubmit, "BeforeAgent"),
        (E::Stop, "AfterAgent"),
        (E::BeforeModel, "BeforeModel"),
        (E::AfterModel, "AfterModel"),
        (E::BeforeToolSelection, "BeforeToolSelection"),
        (E::SessionStart, "SessionStart"),
        (E::SessionEnd, "SessionEnd"),
        (E::PreCompact, "PreCompress"),
        (E::Notification, "Notification"),
    ],
    matcher_fields: &[],
    tools: &GEMINI_TOOLS,
    merges_tool_input: true,
    dedupes_copies: true,
    file: FileShape {
        hooks: HookList::Nested,
        all_switch: Some(Switch {
            path: &["hooksConfig", "enabled"],
            true_is_off: false,
        }),
        hook_switch: false,
    },
    provides_var,
    stdin,
    stdin_named: None,
    read_event: None,
    project_dir_vars: &[],
    env: env_vars,
    read_answer: answers::parse,
    reply: Some(crate::reply::gemini),
};

/// Gemini CLI's 60000 ms, whatever the hook (`docs/hooks/reference.md`).
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_millis(60_000)
}

/// The variables of [`env_vars`].
const VARS: [&str; 4] = [
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "CLAUDE_PROJECT_DIR",
    "GEMINI_SESSION_ID",
];

fn provides_var(name: &str) -> bool {
    VARS.contains(&name)
}

fn stdin(ctx: &EventContext) -> Value {
    input_json(ctx, ctx.event().info().name_in(Dialect::Gemini))
}

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
fn input_json(ctx: &EventContext, event_name: &str) -> Value {
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
fn env_vars(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    if let Some(cwd) = ctx.working_dir() {
        for name in ["GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"] {
            out.push((name.to_owned(), cwd.to_owned()));
        }
    }
    if let Some(id) = ctx.get_str("session_id") {
        out.push(("GEMINI_SESSION_ID".to_owned(), id.to_owned()));
    }
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
            crate::profile::merged_input(Some(&json!({"a": 1, "b": 2})), &json!({"b": 3})),
            Some(json!({"a": 1, "b": 3}))
        );
    }
}
