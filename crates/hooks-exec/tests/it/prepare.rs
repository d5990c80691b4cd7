//! The prepare step: a hook is turned into the hook to run right before each run, and a
//! hook that cannot be prepared fails closed.

use std::sync::Arc;

use hooks_core::{
    Action, BuiltinEvent, CommandLine, Decision, EventContext, FailurePolicy, HookIndex, HookSpec,
    HookStatus, Redactor,
};
use hooks_exec::{Dispatcher, Prepare, Prepared};
use serde_json::json;

/// Replaces the token `SECRET` in scripts with a value (to be masked), and refuses hooks
/// whose script mentions `MISSING`.
struct FillIn;

impl Prepare for FillIn {
    fn prepare(&self, spec: &HookSpec) -> Result<Option<Prepared>, String> {
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
        Ok(Some(
            Prepared::new(ready).with_redactor(Redactor::new().with("SECRET", "s3cr3t")),
        ))
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
    assert_eq!(outcome.effects.decision, Decision::None, "{outcome:?}");
    assert_eq!(outcome.hooks[0].run.status, HookStatus::Ok);
}

#[tokio::test]
async fn a_hook_that_cannot_be_prepared_fails_closed_even_when_fail_open() {
    let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("echo MISSING"))
        .with_id("needs-token")
        .with_on_failure(FailurePolicy::Allow);
    let outcome = dispatcher(vec![spec]).dispatch(&ctx()).await;
    assert_eq!(outcome.effects.decision, Decision::Block);
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("hook `needs-token` needs secret `MISSING`, which is not set")
    );
    assert_eq!(outcome.hooks[0].run.status, HookStatus::Blocked);
}

#[tokio::test]
async fn hooks_left_as_they_are_run_unchanged() {
    let spec = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::script("echo plain >&2; exit 2"),
    )
    .with_id("plain");
    let outcome = dispatcher(vec![spec]).dispatch(&ctx()).await;
    assert_eq!(outcome.effects.reason.as_deref(), Some("plain"));
}

#[tokio::test]
async fn what_a_prepared_hook_yields_is_masked_before_it_leaves_the_runner() {
    let specs = vec![
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::script("echo \"no SECRET here\" >&2; exit 2"),
        )
        .with_id("echo"),
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::script("echo \"SECRET\" >&2; exit 1"),
        )
        .with_id("fail"),
    ];
    let outcome = dispatcher(specs).dispatch(&ctx()).await;
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("no [secret SECRET] here")
    );
    assert_eq!(
        outcome.hooks[1]
            .run
            .failure
            .as_ref()
            .map(|f| f.message.as_str()),
        Some("exited with code 1: [secret SECRET]")
    );
}
