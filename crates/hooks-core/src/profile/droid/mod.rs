//! Factory Droid: `settings.json` hooks (`~/.factory/`, a project's `.factory/`) in Claude
//! Code's shape and event names, with Droid's tool names (`Execute` for the shell, `Create`
//! for a new file), `sh -c`, and Claude Code's reading of a hook's answer. Droid itself
//! honours only `hookSpecificOutput.permissionDecision` and exit 2 on PreToolUse (it
//! ignores `decision: "block"` there), which is the form the Claude Code answer gives.
//! Observed in `droid` 0.225.2 (`../shared/E2E-AGENTS.md`).

use std::time::Duration;

use serde_json::Value;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::push_table;
use crate::event::BuiltinEvent;
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::profile::shared::claude_stdin_in;
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::DROID_TOOLS;

/// The Factory Droid profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Droid,
    name: "droid",
    display_name: "Factory Droid",
    time_unit: TimeUnit::Seconds { strings: false },
    default_timeout,
    shell: None,
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Canonical(&[
        BuiltinEvent::PreToolUse,
        BuiltinEvent::PostToolUse,
        BuiltinEvent::SessionStart,
        BuiltinEvent::SessionEnd,
        BuiltinEvent::UserPromptSubmit,
        BuiltinEvent::Stop,
        BuiltinEvent::Notification,
        BuiltinEvent::PreCompact,
        BuiltinEvent::SubagentStop,
    ]),
    event_names: &[],
    matcher_fields: &[],
    tools: &DROID_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: false,
    prompt_verdict_by_event: false,
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
    project_dir_vars: &["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
    env,
    reshape: None,
    read_answer: super::claude::PROFILE.read_answer,
    reply: super::claude::PROFILE.reply,
};

/// 60 s, whatever the hook: Droid's own default was not observed (the engine's choice, as
/// for Cursor).
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(60)
}

/// Droid's variables: the project root under three names.
const VARS: &[(&str, &[&str])] = &[
    ("FACTORY_PROJECT_DIR", &["project_dir"]),
    ("DROID_PROJECT_DIR", &["project_dir"]),
    ("CLAUDE_PROJECT_DIR", &["project_dir"]),
];

fn provides_var(name: &str) -> bool {
    VARS.iter().any(|(n, _)| *n == name)
}

fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    push_table(ctx, VARS, out);
}

/// Claude Code's stdin, with the tool in Droid's name.
fn stdin(ctx: &EventContext) -> Value {
    Value::Object(claude_stdin_in(ctx, Dialect::Droid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shell_call_reaches_a_droid_hook_as_execute() {
        let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"})).cwd("/w");
        let input = stdin(&ctx);
        assert_eq!(input["hook_event_name"], "PreToolUse");
        assert_eq!(input["tool_name"], "Execute");
        let mut vars = Vec::new();
        env(&ctx.with("project_dir", "/p"), &mut vars);
        assert_eq!(vars.len(), 3);
    }
}
