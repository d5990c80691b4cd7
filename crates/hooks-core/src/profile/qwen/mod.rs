//! Qwen Code: `settings.json` hooks (system, user, project) in Claude Code's shape and
//! event names, with Qwen Code's tool names (`run_shell_command`, `read_file`, ..; Gemini
//! CLI's, which it started from), timeouts in seconds (1000 or more read as milliseconds),
//! `bash -c`, and Claude Code's reading of a hook's answer, which it follows (exit 2 with
//! the reason on stderr, `hookSpecificOutput.permissionDecision`, `decision: "block"`).
//! Observed in `@qwen-code/qwen-code` 0.24.4 (`../shared/E2E-AGENTS.md`).

use std::time::Duration;

use serde_json::Value;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::push_table;
use crate::event::BuiltinEvent;
use crate::profile::row::{Events, FileShape, HookList, Profile, Switch};
use crate::profile::shared::claude_stdin_in;
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::QWEN_TOOLS;

/// The Qwen Code profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Qwen,
    name: "qwen",
    display_name: "Qwen Code",
    time_unit: TimeUnit::SecondsOrLegacyMillis,
    default_timeout,
    shell: Some("bash"),
    sandboxed_by_default: false,
    sandbox_context_file: false,
    documents_timestamp: true,
    fills_session_and_cwd: false,
    env_file: false,
    // Qwen Code's events that the catalog has; its SessionDelete, TodoCreated and
    // TodoCompleted are not in it.
    events: Events::Canonical(&[
        BuiltinEvent::PreToolUse,
        BuiltinEvent::PostToolUse,
        BuiltinEvent::PostToolUseFailure,
        BuiltinEvent::PostToolBatch,
        BuiltinEvent::PermissionRequest,
        BuiltinEvent::PermissionDenied,
        BuiltinEvent::SessionStart,
        BuiltinEvent::SessionEnd,
        BuiltinEvent::UserPromptSubmit,
        BuiltinEvent::UserPromptExpansion,
        BuiltinEvent::Stop,
        BuiltinEvent::StopFailure,
        BuiltinEvent::Notification,
        BuiltinEvent::PreCompact,
        BuiltinEvent::PostCompact,
        BuiltinEvent::InstructionsLoaded,
        BuiltinEvent::SubagentStart,
        BuiltinEvent::SubagentStop,
        BuiltinEvent::MessageDisplay,
    ]),
    event_names: &[],
    matcher_fields: &[],
    tools: &QWEN_TOOLS,
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
    project_dir_vars: &["QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"],
    env,
    reshape: None,
    // Qwen Code reads a hook's answer as Claude Code does, and honours its answer forms.
    read_answer: super::claude::PROFILE.read_answer,
    reply: super::claude::PROFILE.reply,
};

/// Qwen Code's 60 s, whatever the hook.
const fn default_timeout(_handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    Duration::from_secs(60)
}

/// Qwen Code's variables: the project root under three names, and the session's id.
const VARS: &[(&str, &[&str])] = &[
    ("QWEN_PROJECT_DIR", &["project_dir"]),
    ("CLAUDE_PROJECT_DIR", &["project_dir"]),
    ("GEMINI_PROJECT_DIR", &["project_dir"]),
    ("QWEN_CODE_SESSION_ID", &["session_id"]),
];

fn provides_var(name: &str) -> bool {
    VARS.iter().any(|(n, _)| *n == name)
}

fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    push_table(ctx, VARS, out);
}

/// Claude Code's stdin, with the tool in Qwen Code's name.
fn stdin(ctx: &EventContext) -> Value {
    Value::Object(claude_stdin_in(ctx, Dialect::Qwen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shell_call_reaches_a_qwen_hook_under_qwens_tool_name() {
        let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}))
            .session_id("s")
            .cwd("/w");
        let input = stdin(&ctx);
        assert_eq!(input["hook_event_name"], "PreToolUse");
        assert_eq!(input["tool_name"], "run_shell_command");
        assert_eq!(input["tool_input"]["command"], "ls");
        let mut vars = Vec::new();
        env(&ctx.with("project_dir", "/p"), &mut vars);
        assert!(vars.contains(&("QWEN_PROJECT_DIR".to_owned(), "/p".to_owned())));
        assert!(vars.contains(&("QWEN_CODE_SESSION_ID".to_owned(), "s".to_owned())));
    }
}
