//! Codex: `hooks.json` and `[[hooks.Event]]` in `config.toml`, Claude Code's event names,
//! timeouts in seconds (600 s, SessionEnd 1 s), `/bin/bash -c`, its tool names (`Bash`,
//! `apply_patch`), the stdin of its hook events (`codex-rs/hooks/src/events/*.rs`: `model`,
//! `turn_id`, no `timestamp`), no event variables, every copy of a hook run, and its strict
//! reading of a hook's answer (`answers.rs`), and the reading of the stdin Codex writes
//! into the canonical context (`input.rs`), the inverse of its stdin builder.

mod answers;
mod input;
mod reply;

use std::time::Duration;

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent as E, BuiltinEvent};
use crate::profile::row::{Events, FileShape, HookList, Profile};
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::CODEX_TOOLS;

pub use reply::reply;

/// The Codex profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Codex,
    name: "codex",
    display_name: "Codex",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: Some("/bin/bash"),
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Canonical(&[
        E::PreToolUse,
        E::PermissionRequest,
        E::PostToolUse,
        E::SessionStart,
        E::SessionEnd,
        E::UserPromptSubmit,
        E::Stop,
        E::StopFailure,
        E::SubagentStart,
        E::SubagentStop,
        E::PreCompact,
        E::PostCompact,
    ]),
    event_names: &[],
    matcher_fields: &[],
    tools: &CODEX_TOOLS,
    merges_tool_input: false,
    dedupes_copies: false,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Nested,
        all_switch: None,
        hook_switch: false,
    },
    provides_var,
    stdin,
    stdin_named: None,
    read_event: Some(input::read_event),
    project_dir_vars: &[],
    env,
    reshape: None,
    read_answer: answers::parse,
    reply: Some(|ctx, agg| reply(ctx.event(), agg)),
};

/// Codex's 600 s, and 1 s for SessionEnd.
const fn default_timeout(_handler: HandlerType, event: Option<BuiltinEvent>) -> Duration {
    match event {
        Some(BuiltinEvent::SessionEnd) => Duration::from_secs(1),
        _ => Duration::from_secs(600),
    }
}

/// Codex gives its hooks no variable about the event (and no `CLAUDE_PROJECT_DIR`).
fn provides_var(_name: &str) -> bool {
    false
}

fn env(_ctx: &EventContext, _out: &mut Vec<(String, String)>) {}

fn stdin(ctx: &EventContext) -> Value {
    input_json(ctx, ctx.event().info().name_in(Dialect::Codex))
}

/// The stdin JSON of a Codex hook: `hook_event_name` (the canonical name, which Codex
/// shares), then the context's fields (`session_id`, `transcript_path`, `cwd`, `model`,
/// `turn_id`, `permission_mode`, the event's own) with the tool name in Codex's vocabulary
/// (`apply_patch` for an edit, `Bash` for the shell). Codex sends no `timestamp`.
fn input_json(ctx: &EventContext, event_name: &str) -> Value {
    let mut out = Map::with_capacity(ctx.fields().len() + 1);
    out.insert(
        "hook_event_name".to_owned(),
        Value::String(event_name.to_owned()),
    );
    for (k, v) in ctx.fields() {
        match (k.as_str(), v) {
            ("timestamp", _) => {}
            ("tool_name", Value::String(name)) => {
                out.insert(
                    k.clone(),
                    Value::String(CODEX_TOOLS.from_canonical(name).into_owned()),
                );
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pre_tool_use_input() {
        let ctx = EventContext::pre_tool_use("Write", json!({"file_path": "a"}))
            .with("turn_id", "t-1")
            .timestamp("2026-01-01T00:00:00Z");
        assert_eq!(
            input_json(&ctx, "PreToolUse"),
            json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                "tool_input": {"file_path": "a"}, "turn_id": "t-1"})
        );
    }
}
