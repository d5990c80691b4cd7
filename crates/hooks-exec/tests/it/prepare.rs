//! The prepare step: a hook is turned into the hook to run right before each run, and a
//! hook that cannot be prepared fails closed.

use std::sync::Arc;

use hooks_core::{
    Action, BuiltinEvent, CommandLine, Decision, EventContext, FailurePolicy, HookIndex, HookSpec,
    HookStatus,
};
use hooks_exec::{Dispatcher, Prepare};
use serde_json::json;

/// Replaces the token `SECRET` in scripts with a value, and refuses hooks whose script
/// mentions `MISSING`.
struct FillIn;

impl Prepare for FillIn {
    fn prepare(&self, spec: &HookSpec) -> Result<Option<HookSpec>, String> {
        let Action::Command(cmd) = &spec.action else {
            return Ok(None);
        };
        let CommandLine::Script(script) = &cmd.command else {
            return Ok(None);
        };
        if script.contains("MISSING") {
            return Err(format!(
                "hook `{}` needs secret `MISSING`, which is not set",
                spec.display_id()
            ));
        }
        if !script.contains("SECRET") {
            return Ok(None);
        }
        let mut ready = spec.clone();
        ready.action = Action::script(script.replace("SECRET", "s3cr3t"));
        Ok(Some(ready))
    }
}

fn dispatcher(specs: Vec<HookSpec>) -> Dispatcher {
    Dispatcher::builder()
        .index(HookIndex::new(specs))
        .prepare(Arc::new(FillIn))
        .build()
        .unwrap()
}

fn ctx() -> EventContext {
    EventContext::pre_tool_use("Bash", json!({"command": "ls"}))
}

#[tokio::test]
async fn the_prepared_hook_is_the_one_that_runs() {
    let spec = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::script("test \"SECRET\" = s3cr3t || exit 2"),
    )
    .with_id("check");
    let outcome = dispatcher(vec![spec]).dispatch(&ctx()).await;
    assert_eq!(outcome.decision, Decision::None, "{outcome:?}");
    assert_eq!(outcome.hooks[0].status, HookStatus::Ok);
}

#[tokio::test]
async fn a_hook_that_cannot_be_prepared_fails_closed_even_when_fail_open() {
    let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("echo MISSING"))
        .with_id("needs-token")
        .with_on_failure(FailurePolicy::Allow);
    let outcome = dispatcher(vec![spec]).dispatch(&ctx()).await;
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(
        outcome.reason.as_deref(),
        Some("hook `needs-token` needs secret `MISSING`, which is not set")
    );
    assert_eq!(outcome.hooks[0].status, HookStatus::Blocked);
}

#[tokio::test]
async fn hooks_left_as_they_are_run_unchanged() {
    let spec = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::script("echo plain >&2; exit 2"),
    )
    .with_id("plain");
    let outcome = dispatcher(vec![spec]).dispatch(&ctx()).await;
    assert_eq!(outcome.reason.as_deref(), Some("plain"));
}
