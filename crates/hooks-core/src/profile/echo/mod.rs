//! echo-agent: YAML (`echo-agent.yaml`, SKILL.md frontmatter) with Claude Code's event
//! names and handler shape, a documented `timestamp`, and 10 s for every hook.

use std::time::Duration;

use serde_json::Value;

use super::claude;
use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent, Event};
use crate::outcome::HookOutcome;
use crate::profile::row::{Events, FileShape, HookList, Profile};
use crate::profile::shared::claude_stdin;
use crate::timeouts::{HandlerType, TimeUnit};

/// The echo-agent profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Echo,
    name: "echo",
    display_name: "echo-agent",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: true,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Canonical(&[
        BuiltinEvent::PreToolUse,
        BuiltinEvent::PostToolUse,
        BuiltinEvent::PostToolUseFailure,
        BuiltinEvent::PermissionRequest,
        BuiltinEvent::PermissionDenied,
        BuiltinEvent::SessionStart,
        BuiltinEvent::SessionEnd,
        BuiltinEvent::Stop,
        BuiltinEvent::StopFailure,
        BuiltinEvent::Notification,
        BuiltinEvent::UserPromptSubmit,
        BuiltinEvent::PreCompact,
        BuiltinEvent::PostCompact,
        BuiltinEvent::ConfigChange,
        BuiltinEvent::InstructionsLoaded,
        BuiltinEvent::PostToolBatch,
        BuiltinEvent::SubagentStart,
        BuiltinEvent::SubagentStop,
        BuiltinEvent::TaskCreated,
        BuiltinEvent::TaskCompleted,
    ]),
    event_names: &[],
    matcher_fields: &[],
    tools: &crate::tools::CLAUDE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Nested,
        all_switch: None,
        hook_switch: false,
    },
    provides_var: claude::provides_context_var,
    stdin,
    stdin_named: None,
    read_event: None,
    project_dir_vars: &["CLAUDE_PROJECT_DIR"],
    env: claude::push_context_vars,
    reshape: None,
    read_answer,
    reply: None,
};

/// echo-agent's 10 s, for every handler type.
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(10)
}

/// Claude Code's shape plus `event` (the canonical name) and `timestamp` last: the
/// context's own, else the dispatch time (echo-agent documents `event`, `tool_name`,
/// `tool_input`, `session_id`, `timestamp`).
fn stdin(ctx: &EventContext) -> Value {
    let mut out = claude_stdin(ctx, Dialect::Echo, Some(("event", ctx.event().name())));
    if !out.contains_key("timestamp")
        && let Some(at) = ctx.dispatched_at()
    {
        out.insert("timestamp".to_owned(), Value::String(at.to_owned()));
    }
    Value::Object(out)
}

/// The common reading, where plain text on exit 0 may be context.
fn read_answer(event: &Event, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    crate::output::read_output(event, code, stdout, stderr, true)
}
