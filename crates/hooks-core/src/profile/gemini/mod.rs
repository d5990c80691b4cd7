//! Gemini CLI: `settings.json` hooks (system, user, project) and extensions'
//! `hooks/hooks.json`, its own event names (`BeforeTool`, `AfterAgent`, ...) and events
//! (BeforeModel, AfterModel, BeforeToolSelection), timeouts in milliseconds, `bash -c`,
//! its tool names (`run_shell_command`), the stdin of its `HookInput` with a `timestamp`
//! (`packages/core/src/hooks/types.ts`, `docs/hooks/reference.md`), the environment of its
//! `hookRunner.ts`, and its reading of a hook's answer (`answers.rs`).

mod answers;
pub(crate) mod events;
mod input;
mod reply;

use std::time::Duration;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent as E, BuiltinEvent};
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::GEMINI_TOOLS;

pub use reply::reply;

/// The Gemini CLI profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Gemini,
    name: "gemini",
    display_name: "Gemini CLI",
    time_unit: TimeUnit::Millis,
    default_timeout,
    shell: Some("bash"),
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: true,
    fills_session_and_cwd: false,
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
    blocking_hooks: false,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Nested,
        all_switch: Some(Switch {
            path: &["hooksConfig", "enabled"],
            true_is_off: false,
        }),
        hook_switch: false,
    },
    provides_var,
    stdin: input::stdin,
    stdin_named: None,
    read_event: Some(input::read_event),
    project_dir_vars: &[],
    env: env_vars,
    reshape: None,
    read_answer: answers::parse,
    reply: Some(reply),
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
    fn env_and_merge() {
        let ctx = EventContext::session_start("startup")
            .session_id("s")
            .cwd("/w");
        let mut env = Vec::new();
        env_vars(&ctx, &mut env);
        assert_eq!(env.len(), 4);
        assert_eq!(
            crate::output::merged_input(Some(&json!({"a": 1, "b": 2})), &json!({"b": 3})),
            Some(json!({"a": 1, "b": 3}))
        );
    }
}
