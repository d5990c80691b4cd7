//! OpenCode: no hook files of its own. Its hooks are JavaScript plugins, and the engine
//! reaches it through one of them, the bridge's plugin (`agentic-hooks.js`), which calls
//! `hooks bridge opencode` from OpenCode's plugin hooks: `tool.execute.before` and
//! `tool.execute.after` around every tool call, and its `event` hook's `session.created`,
//! `session.idle` and `session.deleted`. The plugin writes each as one Claude-shaped JSON
//! object on the bridge's stdin, under OpenCode's own name (`hook_event_name:
//! "tool.execute.before"`), with OpenCode's tool (`bash`) and arguments (`filePath`) as it
//! got them; this row reads that into the canonical context (`input.rs`) and writes the
//! answer the plugin acts on (`reply.rs`).
//!
//! Source: OpenCode 1.18.33 run offline (its plugin hooks, the tool list it sends its
//! model), summarised in the project's notes on the agents.

mod input;
mod reply;

use std::time::Duration;

use crate::dialect::Dialect;
use crate::event::{BuiltinEvent as E, BuiltinEvent, Event};
use crate::outcome::HookOutcome;
use crate::profile::row::{Events, FileShape, HookList, Profile};
use crate::timeouts::{HandlerType, TimeUnit};

pub use input::{TOOL_ARGS, tool_input_for_opencode};
pub use reply::reply;

/// The OpenCode profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Opencode,
    name: "opencode",
    display_name: "OpenCode",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Named,
    event_names: EVENT_NAMES,
    matcher_fields: &[],
    tools: &crate::tools::OPENCODE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Files,
        all_switch: None,
        hook_switch: false,
    },
    provides_var: |_| false,
    stdin: input::stdin,
    stdin_named: None,
    read_event: Some(input::read_event),
    project_dir_vars: &[],
    env: |_, _| {},
    reshape: None,
    read_answer,
    reply: Some(reply),
};

/// The events the bridge's plugin sends, by OpenCode's names: its plugin hooks around a
/// tool call, and the session events its `event` hook reports (`session.idle`: the agent
/// finished its turn, Claude Code's Stop; `session.deleted`: the session is gone).
const EVENT_NAMES: &[(BuiltinEvent, &str)] = &[
    (E::PreToolUse, "tool.execute.before"),
    (E::PostToolUse, "tool.execute.after"),
    (E::SessionStart, "session.created"),
    (E::Stop, "session.idle"),
    (E::SessionEnd, "session.deleted"),
];

/// OpenCode's name of a canonical event, if the bridge's plugin sends it.
pub fn name_of(event: BuiltinEvent) -> Option<&'static str> {
    EVENT_NAMES
        .iter()
        .find(|(e, _)| *e == event)
        .map(|(_, name)| *name)
}

/// 60 s for every hook: OpenCode has no hook of its own to take a default from; this is
/// the engine's time for a hook converted into its dialect (none is written in it).
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(60)
}

/// An answer read as Claude Code's: the bridge's plugin is OpenCode's only hook, and no
/// hook is written in OpenCode's dialect, so the engine's common reading is kept.
fn read_answer(event: &Event, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    crate::output::read_output(event, code, stdout, stderr, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_one_name() {
        for (event, name) in EVENT_NAMES {
            assert_eq!(name_of(*event), Some(*name));
            assert_eq!(PROFILE.event_name(*event), Some(*name));
        }
        assert_eq!(name_of(E::UserPromptSubmit), None);
    }
}
