//! GitHub Copilot CLI's hooks (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`, `hooks`
//! in its settings files): two spellings of its events in the same files, each with its
//! own stdin and its own answer. A camelCase event (`preToolUse`) gets
//! `{sessionId, timestamp (ms), cwd, toolName, toolArgs, ...}` with Copilot's tool names
//! (`bash`) and no event name, and is answered with top-level fields
//! (`permissionDecision`); a PascalCase event (`PreToolUse`) gets Claude Code's snake_case
//! fields with Claude Code's tool names (`Bash`) and reads `hookSpecificOutput` too.
//! Timeouts are in seconds (`timeoutSec`, default 30); hooks run in `bash`.
//!
//! Source: runs of `@github/copilot` 1.0.102 against a scripted model server (the
//! project's notes on the agents), and Copilot's hooks reference for what was not run.

mod answers;
mod reply;

use std::time::Duration;

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::push_table;
use crate::event::{BuiltinEvent as E, BuiltinEvent};
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::COPILOT_TOOLS;

pub use reply::reply;

/// The GitHub Copilot CLI profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Copilot,
    name: "copilot",
    display_name: "GitHub Copilot CLI",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: Some("bash"),
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Named,
    // The camelCase names first: a hook registered on a canonical event is given
    // Copilot's own form.
    event_names: EVENT_NAMES,
    matcher_fields: &[],
    tools: &COPILOT_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::ByEvent,
        all_switch: Some(Switch {
            path: &["disableAllHooks"],
            true_is_off: true,
        }),
        hook_switch: false,
    },
    provides_var,
    stdin,
    stdin_named: Some(stdin_named),
    read_event: None,
    project_dir_vars: &["COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
    env,
    reshape: Some(reshape),
    read_answer: answers::parse,
    reply: Some(reply),
};

/// Copilot's event names: its camelCase ones, then the PascalCase ones it also runs
/// (Claude Code's names; those observed in a run).
const EVENT_NAMES: &[(BuiltinEvent, &str)] = &[
    (E::PreToolUse, "preToolUse"),
    (E::PostToolUse, "postToolUse"),
    (E::PostToolUseFailure, "postToolUseFailure"),
    (E::PermissionRequest, "permissionRequest"),
    (E::UserPromptSubmit, "userPromptSubmitted"),
    (E::Stop, "agentStop"),
    (E::SubagentStart, "subagentStart"),
    (E::SubagentStop, "subagentStop"),
    (E::SessionStart, "sessionStart"),
    (E::SessionEnd, "sessionEnd"),
    (E::PreCompact, "preCompact"),
    (E::Notification, "notification"),
    (E::StopFailure, "errorOccurred"),
    (E::PreToolUse, "PreToolUse"),
    (E::PostToolUse, "PostToolUse"),
    (E::PostToolUseFailure, "PostToolUseFailure"),
    (E::PermissionRequest, "PermissionRequest"),
    (E::UserPromptSubmit, "UserPromptSubmit"),
    (E::Stop, "Stop"),
    (E::SessionStart, "SessionStart"),
    (E::SessionEnd, "SessionEnd"),
];

/// Whether `name` is one of Copilot's PascalCase event names (Claude Code's form), whose
/// hooks get Claude Code's fields and whose answers may be `hookSpecificOutput`.
pub fn is_pascal(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// The canonical event of a Copilot event name, in either spelling, with the name as
/// Copilot spells it.
pub fn event(name: &str) -> Option<(BuiltinEvent, &'static str)> {
    EVENT_NAMES.iter().find(|(_, n)| *n == name).copied()
}

/// Every event name Copilot has, in both spellings.
pub fn names() -> impl Iterator<Item = &'static str> {
    EVENT_NAMES.iter().map(|(_, n)| *n)
}

/// Copilot's camelCase name of a canonical event, if Copilot has the event.
pub fn camel_name(event: BuiltinEvent) -> Option<&'static str> {
    EVENT_NAMES
        .iter()
        .find(|(e, n)| *e == event && !is_pascal(n))
        .map(|(_, n)| *n)
}

/// Every camelCase event name, with its canonical event.
pub fn camel_events() -> impl Iterator<Item = (BuiltinEvent, &'static str)> {
    EVENT_NAMES.iter().copied().filter(|(_, n)| !is_pascal(n))
}

/// Copilot's 30 s (`timeoutSec`'s default), whatever the hook.
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(30)
}

/// Copilot's variables: `COPILOT_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` (the project
/// root: the event's `project_dir`, else the executor's), and `COPILOT_CLI=1`.
const VARS: &[(&str, &[&str])] = &[
    ("COPILOT_PROJECT_DIR", &["project_dir"]),
    ("CLAUDE_PROJECT_DIR", &["project_dir"]),
];

fn provides_var(name: &str) -> bool {
    name == "COPILOT_CLI" || VARS.iter().any(|(n, _)| *n == name)
}

fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    push_table(ctx, VARS, out);
    out.push(("COPILOT_CLI".to_owned(), "1".to_owned()));
}

/// Copilot's camelCase keys and the canonical (snake_case) keys they carry. `toolArgs` is
/// the tool events' `tool_input`, `toolInput` permissionRequest's; `hookName` names the
/// event where Copilot sends it (permissionRequest).
const KEYS: &[(&str, &str)] = &[
    ("sessionId", "session_id"),
    ("toolName", "tool_name"),
    ("toolArgs", "tool_input"),
    ("toolInput", "tool_input"),
    ("toolResult", "tool_response"),
    ("transcriptPath", "transcript_path"),
    ("stopReason", "stop_reason"),
    ("initialPrompt", "initial_prompt"),
    ("hookName", "hook_event_name"),
];

/// A camelCase payload (one without `hook_event_name`) in Claude Code's shape: its keys
/// renamed by [`KEYS`], the others kept. `None` for a payload that names its event
/// (PascalCase, already Claude-shaped) or is not an object.
fn reshape(payload: &Value) -> Option<Value> {
    let fields = payload.as_object()?;
    if fields.contains_key("hook_event_name") {
        return None;
    }
    let mut out = Map::with_capacity(fields.len());
    for (key, value) in fields {
        let key = KEYS
            .iter()
            .find(|(camel, _)| camel == key)
            .map_or(key.as_str(), |(_, snake)| *snake);
        out.insert(key.to_owned(), value.clone());
    }
    Some(Value::Object(out))
}

/// A hook registered on the canonical event gets the camelCase form.
fn stdin(ctx: &EventContext) -> Value {
    camel_json(ctx)
}

fn stdin_named(ctx: &EventContext, name: &str) -> Value {
    if is_pascal(name) {
        pascal_json(ctx, name)
    } else {
        camel_json(ctx)
    }
}

/// The camelCase stdin: the context's fields with their camelCase keys (`tool_input` is
/// `toolInput` on permissionRequest, `toolArgs` elsewhere), the tool named as Copilot
/// names it, and no event name (Copilot's camelCase hooks are told their event by their
/// place in the file).
fn camel_json(ctx: &EventContext) -> Value {
    let permission = ctx.event().builtin() == Some(BuiltinEvent::PermissionRequest);
    let mut out = Map::with_capacity(ctx.fields().len() + 1);
    if permission {
        out.insert("hookName".to_owned(), "permissionRequest".into());
    }
    for (key, value) in ctx.fields() {
        let camel = match key.as_str() {
            "tool_input" if permission => "toolInput",
            "tool_input" => "toolArgs",
            "hook_event_name" => continue,
            other => KEYS
                .iter()
                .find(|(camel, snake)| *snake == other && *camel != "toolInput")
                .map_or(other, |(camel, _)| *camel),
        };
        let value = match (camel, value) {
            ("toolName", Value::String(name)) => {
                Value::String(COPILOT_TOOLS.from_canonical(name).into_owned())
            }
            _ => value.clone(),
        };
        out.insert(camel.to_owned(), value);
    }
    Value::Object(out)
}

/// The PascalCase stdin: Claude Code's shape, `hook_event_name` the name the hook was
/// registered under, then the context's fields (tool names canonical, as Copilot gives
/// them there).
fn pascal_json(ctx: &EventContext, name: &str) -> Value {
    let mut out = Map::with_capacity(ctx.fields().len() + 1);
    out.insert("hook_event_name".to_owned(), name.into());
    for (key, value) in ctx.fields() {
        out.insert(key.clone(), value.clone());
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_camel_payload_is_reshaped_and_given_back() {
        let camel = json!({"sessionId": "s", "timestamp": 1_796_592_517_162_u64, "cwd": "/w",
            "toolName": "bash", "toolArgs": {"command": "rm -r victim"}});
        let claude = reshape(&camel).expect("camelCase");
        assert_eq!(
            claude,
            json!({"session_id": "s", "timestamp": 1_796_592_517_162_u64, "cwd": "/w",
                "tool_name": "bash", "tool_input": {"command": "rm -r victim"}})
        );
        assert_eq!(reshape(&json!({"hook_event_name": "PreToolUse"})), None);
        let mut ctx = PROFILE
            .read_context(BuiltinEvent::PreToolUse.into(), claude)
            .expect("context");
        assert_eq!(ctx.tool_name(), Some("Bash"));
        assert_eq!(stdin_named(&ctx, "preToolUse"), camel);
        ctx.set("timestamp", "2026-12-06T21:29:17.734Z");
        assert_eq!(
            stdin_named(&ctx, "PreToolUse"),
            json!({"hook_event_name": "PreToolUse", "session_id": "s",
                "timestamp": "2026-12-06T21:29:17.734Z", "cwd": "/w",
                "tool_name": "Bash", "tool_input": {"command": "rm -r victim"}})
        );
    }

    #[test]
    fn permission_request_names_itself_and_its_input() {
        let ctx = EventContext::permission_request("Bash", json!({"command": "ls"}));
        assert_eq!(
            stdin(&ctx),
            json!({"hookName": "permissionRequest", "toolName": "bash",
                "toolInput": {"command": "ls"}})
        );
        let back = reshape(&stdin(&ctx)).expect("camelCase");
        assert_eq!(back["hook_event_name"], "permissionRequest");
        assert_eq!(back["tool_input"], json!({"command": "ls"}));
    }

    #[test]
    fn names_in_both_spellings() {
        assert_eq!(event("agentStop"), Some((BuiltinEvent::Stop, "agentStop")));
        assert_eq!(event("Stop"), Some((BuiltinEvent::Stop, "Stop")));
        assert_eq!(camel_name(BuiltinEvent::Stop), Some("agentStop"));
        assert_eq!(camel_name(BuiltinEvent::Setup), None);
        assert!(is_pascal("PreToolUse") && !is_pascal("preToolUse"));
        let mut env_vars = Vec::new();
        env(&EventContext::stop(false).with("project_dir", "/p"), &mut env_vars);
        assert_eq!(
            env_vars,
            [
                ("COPILOT_PROJECT_DIR".to_owned(), "/p".to_owned()),
                ("CLAUDE_PROJECT_DIR".to_owned(), "/p".to_owned()),
                ("COPILOT_CLI".to_owned(), "1".to_owned()),
            ]
        );
    }
}
