//! Fabro: `[[run.hooks]]` in layered TOML run configs, snake_case event names, duration
//! strings, sandboxed `bash` commands by default, `FABRO_*` variables, and its
//! executor's reading of a hook's answer.

use std::time::Duration;

use serde_json::Value;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::env::push_table;
use crate::event::{BuiltinEvent as E, BuiltinEvent, Event, MatcherFields};
use crate::outcome::{FailureKind, HookOutcome};
use crate::output::{
    Stdout, note, parse_block, parse_output, parse_success, read_object, read_stdout,
};
use crate::profile::row::{Events, FileShape, HookList, Profile};
use crate::profile::shared::claude_stdin;
use crate::timeouts::{HandlerType, TimeUnit};

/// The Fabro profile.
pub(super) const PROFILE: Profile = Profile {
    dialect: Dialect::Fabro,
    name: "fabro",
    display_name: "Fabro",
    time_unit: TimeUnit::DurationString,
    default_timeout,
    shell: Some("bash"),
    sandboxed_by_default: true,
    sandbox_context_file: true,
    documents_timestamp: false,
    fills_session_and_cwd: false,
    env_file: false,
    events: Events::Named,
    event_names: &[
        (E::PreToolUse, "pre_tool_use"),
        (E::PostToolUse, "post_tool_use"),
        (E::PostToolUseFailure, "post_tool_use_failure"),
        (E::RunStart, "run_start"),
        (E::RunComplete, "run_complete"),
        (E::RunFailed, "run_failed"),
        (E::StageStart, "stage_start"),
        (E::StageComplete, "stage_complete"),
        (E::StageFailed, "stage_failed"),
        (E::StageRetrying, "stage_retrying"),
        (E::EdgeSelected, "edge_selected"),
        (E::ParallelStart, "parallel_start"),
        (E::ParallelComplete, "parallel_complete"),
        (E::SandboxReady, "sandbox_ready"),
        (E::SandboxCleanup, "sandbox_cleanup"),
        (E::CheckpointSaved, "checkpoint_saved"),
    ],
    matcher_fields: &[
        // Fabro's tool-event matchers also see the node.
        (E::PreToolUse, MatcherFields::Add(&["node_id"])),
        (E::PostToolUse, MatcherFields::Add(&["node_id"])),
        (E::PostToolUseFailure, MatcherFields::Add(&["node_id"])),
    ],
    tools: &crate::tools::CLAUDE_TOOLS,
    merges_tool_input: false,
    dedupes_copies: true,
    blocking_hooks: true,
    prompt_verdict_by_event: false,
    file: FileShape {
        hooks: HookList::Flat(&["run", "hooks"]),
        all_switch: None,
        hook_switch: false,
    },
    provides_var,
    stdin,
    stdin_named: None,
    read_event: None,
    project_dir_vars: &[],
    env,
    reshape: None,
    read_answer,
    reply: None,
};

/// Fabro's documented variables (besides `FABRO_EVENT`).
const VARS: &[(&str, &[&str])] = &[
    ("FABRO_RUN_ID", &["run_id"]),
    ("FABRO_WORKFLOW", &["workflow_name", "workflow"]),
    ("FABRO_NODE_ID", &["node_id"]),
];

/// Fabro's `60000` ms, with `30000` for prompt hooks.
const fn default_timeout(handler: HandlerType, _event: Option<BuiltinEvent>) -> Duration {
    use HandlerType as H;
    Duration::from_millis(match handler {
        H::Prompt => 30_000,
        H::Command | H::Http | H::McpTool | H::Agent | H::Inject | H::Permission => 60_000,
    })
}

fn provides_var(name: &str) -> bool {
    name == "FABRO_EVENT" || VARS.iter().any(|(n, _)| *n == name)
}

/// Claude Code's shape plus `event` in Fabro's spelling (`stage_start`), the key Fabro's
/// own hook context has.
fn stdin(ctx: &EventContext) -> Value {
    let name = ctx.event().info().name_in(Dialect::Fabro);
    Value::Object(claude_stdin(ctx, Dialect::Fabro, Some(("event", name))))
}

/// `FABRO_EVENT` (the snake_case name), `FABRO_RUN_ID`, `FABRO_WORKFLOW` (the context's
/// `workflow_name`, Fabro's key, else `workflow`), `FABRO_NODE_ID`. The command executor
/// adds `FABRO_HOOK_CONTEXT` for sandboxed hooks.
pub(super) fn env(ctx: &EventContext, out: &mut Vec<(String, String)>) {
    out.push((
        "FABRO_EVENT".to_owned(),
        ctx.event().info().name_in(Dialect::Fabro).to_owned(),
    ));
    push_table(ctx, VARS, out);
}

/// Fabro's reading (see [`parse_output_in`](crate::parse_output_in)).
fn read_answer(event: &Event, exit_code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    let mut outcome = match exit_code {
        Some(0) => {
            let outcome = parse_success(event, stdout, true);
            match outcome.run.failure {
                Some(failure) if failure.kind == FailureKind::MalformedOutput => note(format!(
                    "stdout is not a decision, so the hook proceeds: {}",
                    failure.message
                )),
                _ => outcome,
            }
        }
        Some(2) => match fabro_decision(event, stdout) {
            Some(outcome) => outcome,
            None => parse_block(event, stdout, stderr),
        },
        _ => parse_output(event, exit_code, stdout, stderr),
    };
    outcome.run.exit_code = exit_code;
    outcome
}

/// Stdout as a Fabro decision: a JSON object with a `decision` field that reads without
/// error; `None` when it is not one.
fn fabro_decision(event: &Event, stdout: &[u8]) -> Option<HookOutcome> {
    match read_stdout(stdout) {
        Ok(Stdout::Object(map)) if map.get("decision").is_some_and(|d| !d.is_null()) => {
            read_object(event, &map).ok()
        }
        Ok(_) | Err(_) => None,
    }
}
