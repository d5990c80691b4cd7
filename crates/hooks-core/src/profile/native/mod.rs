//! The native dialect: this engine's own format (YAML, TOML or JSON), canonical event
//! names, and every other dialect's environment so that any dialect's script runs in it.

use std::time::Duration;

use serde_json::Value;

use super::{autohand, claude, fabro};
use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent, Event};
use crate::outcome::HookOutcome;
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::profile::shared::claude_stdin;
use crate::timeouts::{HandlerType, TimeUnit};

/// The native profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Native,
    name: "native",
    display_name: "native",
    time_unit: TimeUnit::Seconds { strings: true },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: true,
    events: Events::All,
    event_names: &[],
    matcher_fields: &[],
    tools: &crate::tools::CLAUDE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::FlatOrNested,
        all_switch: Some(Switch {
            path: &["disable_all_hooks"],
            true_is_off: true,
        }),
        hook_switch: true,
    },
    provides_var,
    stdin,
    stdin_named: None,
    read_event: None,
    project_dir_vars: &["CLAUDE_PROJECT_DIR"],
    env,
    reshape: None,
    read_answer,
    reply: None,
};

/// The format's documented 10 s, and Claude Code's numbers for model-backed hooks, which
/// a 10 s budget would often cut short.
const fn default_timeout(handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    use HandlerType as H;
    Duration::from_millis(match handler {
        H::Command | H::Http | H::McpTool | H::Inject | H::Permission => 10_000,
        H::Prompt => 30_000,
        H::Agent => 60_000,
    })
}

fn provides_var(name: &str) -> bool {
    (claude::PROFILE.provides_var)(name)
        || (autohand::PROFILE.provides_var)(name)
        || (fabro::PROFILE.provides_var)(name)
}

fn stdin(ctx: &EventContext) -> Value {
    Value::Object(claude_stdin(ctx, Dialect::Native, None))
}

/// Claude Code's variables, then Autohand's, then Fabro's.
fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    (claude::PROFILE.env)(ctx, out);
    (autohand::PROFILE.env)(ctx, out);
    (fabro::PROFILE.env)(ctx, out);
}

/// The common reading, where plain text on exit 0 may be context.
fn read_answer(event: &Event, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    crate::output::read_output(event, code, stdout, stderr, true)
}
