//! Claude Code: `settings.json` hooks, the de-facto wire standard. Its event names are the
//! canonical ones, its tool names the canonical tool names; what it gives a hook and how
//! it reads a hook's answer follow its current hooks reference (`answers.rs`).

mod answers;
mod reply;

use std::time::Duration;

use serde_json::Value;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::push_table;
use crate::event::{BuiltinEvent, MatcherFields};
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::profile::shared::claude_stdin;
use crate::timeouts::{HandlerType, TimeUnit};

pub use reply::reply;

/// The Claude Code profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Claude,
    name: "claude",
    display_name: "Claude Code",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: true,
    events: Events::Canonical(&[
        BuiltinEvent::PreToolUse,
        BuiltinEvent::PostToolUse,
        BuiltinEvent::PostToolUseFailure,
        BuiltinEvent::PostToolBatch,
        BuiltinEvent::PermissionRequest,
        BuiltinEvent::PermissionDenied,
        BuiltinEvent::SessionStart,
        BuiltinEvent::SessionEnd,
        BuiltinEvent::Setup,
        BuiltinEvent::UserPromptSubmit,
        BuiltinEvent::Stop,
        BuiltinEvent::StopFailure,
        BuiltinEvent::Notification,
        BuiltinEvent::PreCompact,
        BuiltinEvent::PostCompact,
        BuiltinEvent::ConfigChange,
        BuiltinEvent::InstructionsLoaded,
        BuiltinEvent::FileChanged,
        BuiltinEvent::CwdChanged,
        BuiltinEvent::WorktreeCreate,
        BuiltinEvent::WorktreeRemove,
        BuiltinEvent::Elicitation,
        BuiltinEvent::ElicitationResult,
        BuiltinEvent::SubagentStart,
        BuiltinEvent::SubagentStop,
        BuiltinEvent::TaskCreated,
        BuiltinEvent::TaskCompleted,
        BuiltinEvent::TeammateIdle,
        BuiltinEvent::UserPromptExpansion,
        BuiltinEvent::MessageDisplay,
        BuiltinEvent::DirectoryAdded,
    ]),
    event_names: &[],
    matcher_fields: &[
        // Claude Code ignores a matcher on these events.
        (BuiltinEvent::TaskCreated, MatcherFields::Only(&[])),
        (BuiltinEvent::TaskCompleted, MatcherFields::Only(&[])),
        (BuiltinEvent::TeammateIdle, MatcherFields::Only(&[])),
    ],
    tools: &crate::tools::CLAUDE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: true,
    file: FileShape {
        hooks: HookList::Nested,
        all_switch: Some(Switch {
            path: &["disableAllHooks"],
            true_is_off: true,
        }),
        hook_switch: false,
    },
    provides_var,
    stdin,
    stdin_named: None,
    read_event: None,
    project_dir_vars: &["CLAUDE_PROJECT_DIR"],
    env: push_context_vars,
    reshape: None,
    read_answer: answers::parse,
    reply: Some(|ctx, agg| reply(ctx.event(), agg)),
};

/// Claude Code's context variables. `CLAUDE_PROJECT_DIR` is the project root, never the
/// event's `cwd` (which follows the agent's `cd` and worktrees): a host that names it per
/// event sets `project_dir`; otherwise the command executor gives its own project root.
/// `CLAUDE_ENV_FILE` is a file the executor creates, so it is not computed here.
const VARS: &[(&str, &[&str])] = &[
    ("CLAUDE_PROJECT_DIR", &["project_dir"]),
    ("CLAUDE_PLUGIN_ROOT", &["plugin_root"]),
];

/// The hooks reference's numbers: 600 s for a command, HTTP or MCP hook, except
/// UserPromptSubmit's 30 s and MessageDisplay's 10 s; 30 s for a prompt, 60 s for an
/// agent; SessionEnd hooks share a 1.5 s budget, whatever they are.
const fn default_timeout(handler: HandlerType, event: Option<BuiltinEvent>) -> Duration {
    use HandlerType as H;
    Duration::from_millis(match (handler, event) {
        (_, Some(BuiltinEvent::SessionEnd)) => 1_500,
        (H::Command | H::Http | H::McpTool, Some(BuiltinEvent::UserPromptSubmit)) => 30_000,
        (H::Command | H::Http | H::McpTool, Some(BuiltinEvent::MessageDisplay)) => 10_000,
        (H::Command | H::Http | H::McpTool, _) => 600_000,
        (H::Prompt, _) => 30_000,
        (H::Agent, _) => 60_000,
        (H::Inject | H::Permission, _) => 10_000,
    })
}

fn provides_var(name: &str) -> bool {
    provides_context_var(name) || name == "CLAUDE_ENV_FILE"
}

/// Whether `name` is one of Claude Code's context variables (echo-agent's hooks get them
/// too).
pub(super) fn provides_context_var(name: &str) -> bool {
    VARS.iter().any(|(n, _)| *n == name)
}

/// `CLAUDE_PROJECT_DIR` when the context names a `project_dir` (else the command executor
/// gives its project root, never the `cwd`) and `CLAUDE_PLUGIN_ROOT` when the context
/// names a `plugin_root` (a plugin's hooks get theirs from the loader).
pub(super) fn push_context_vars(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    push_table(ctx, VARS, out);
}

fn stdin(ctx: &EventContext) -> Value {
    Value::Object(claude_stdin(ctx, Dialect::Claude, None))
}
