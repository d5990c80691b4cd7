//! Autohand: `config.json` hooks, kebab-case event names with `family:phase` names, 5 s in
//! milliseconds, the JSON Input Structure and `HOOK_*` variables of `input.rs`, and
//! JSON-only stdout.

mod input;

use std::time::Duration;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::env_text;
use crate::event::{BuiltinEvent as E, BuiltinEvent, Event};
use crate::outcome::HookOutcome;
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::timeouts::{HandlerType, TimeUnit};

use input::{FIELDS, From};

/// The Autohand profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Autohand,
    name: "autohand",
    display_name: "Autohand",
    time_unit: TimeUnit::Millis,
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: true,
    env_file: false,
    events: Events::Named,
    event_names: &[
        (E::PreToolUse, "pre-tool"),
        (E::PostToolUse, "post-tool"),
        (E::PermissionRequest, "permission-request"),
        (E::SessionStart, "session-start"),
        (E::SessionEnd, "session-end"),
        (E::UserPromptSubmit, "pre-prompt"),
        (E::Stop, "stop"),
        (E::Stop, "post-response"),
        (E::Notification, "notification"),
        (E::FileChanged, "file-modified"),
        (E::SessionError, "session-error"),
        (E::PreClear, "pre-clear"),
        (E::ModeChange, "mode-change"),
        (E::SubagentStop, "subagent-stop"),
        (E::TaskCompleted, "task-completed"),
        (E::TeammateIdle, "teammate-idle"),
        (E::TeamCreated, "team-created"),
        (E::TeammateSpawned, "teammate-spawned"),
        (E::TaskAssigned, "task-assigned"),
        (E::TeamShutdown, "team-shutdown"),
        (E::AutomodeStart, "automode:start"),
        (E::AutomodeIteration, "automode:iteration"),
        (E::AutomodeCheckpoint, "automode:checkpoint"),
        (E::AutomodePause, "automode:pause"),
        (E::AutomodeResume, "automode:resume"),
        (E::AutomodeCancel, "automode:cancel"),
        (E::AutomodeComplete, "automode:complete"),
        (E::AutomodeError, "automode:error"),
        (E::ReviewStart, "review:start"),
        (E::ReviewEnd, "review:end"),
        (E::ReviewPaused, "review:paused"),
        (E::ReviewFailed, "review:failed"),
        (E::ReviewCompleted, "review:completed"),
        (E::ContextCompact, "context:compact"),
        (E::ContextOverflow, "context:overflow"),
        (E::ContextWarning, "context:warning"),
        (E::ContextCritical, "context:critical"),
        (E::PreLearn, "pre-learn"),
        (E::PostLearn, "post-learn"),
        (E::GoalWritten, "goal-written:completed"),
    ],
    matcher_fields: &[],
    tools: &crate::tools::CLAUDE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Flat(&["hooks", "hooks"]),
        all_switch: Some(Switch {
            path: &["hooks", "enabled"],
            true_is_off: false,
        }),
        hook_switch: true,
    },
    provides_var,
    stdin: input::input_json,
    stdin_named: None,
    read_event: None,
    project_dir_vars: &[],
    env,
    reshape: None,
    read_answer,
    reply: None,
};

/// Autohand's 5000 ms, for every handler type.
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(5)
}

fn provides_var(name: &str) -> bool {
    FIELDS.iter().any(|f| f.var == Some(name))
        || matches!(name, "HOOK_EVENT" | "HOOK_ARGS" | "HOOK_PATH")
}

/// `HOOK_EVENT` (the kebab-case name), `HOOK_WORKSPACE`, `HOOK_SESSION_ID`, `HOOK_TOOL`,
/// `HOOK_ARGS` (the tool input as JSON), `HOOK_PATH` (the event's file path, or the tool
/// input's), and the rest of Autohand's documented `HOOK_*` set, each present when its
/// context field is.
pub(super) fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    out.push((
        "HOOK_EVENT".to_owned(),
        ctx.event().info().name_in(Dialect::Autohand).to_owned(),
    ));
    for field in FIELDS {
        if let (Some(name), From::Fields(from)) = (field.var, field.from)
            && let Some(text) = input::read(ctx, from).and_then(env_text)
        {
            out.push((name.to_owned(), text));
        }
    }
    if let Some(args) = ctx.tool_input().and_then(env_text) {
        out.push(("HOOK_ARGS".to_owned(), args));
    }
    if let Some(path) = ctx.file_path() {
        out.push(("HOOK_PATH".to_owned(), path.to_owned()));
    }
}

/// Autohand reads only JSON from a hook's stdout: plain text an Autohand hook prints on
/// exit 0 is a message (shown to the user and logged), never context for the model.
fn read_answer(event: &Event, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    crate::output::read_output(event, code, stdout, stderr, false)
}
