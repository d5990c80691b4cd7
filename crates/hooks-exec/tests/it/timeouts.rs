//! Default timeouts per dialect and hook type, and the ceiling.

use std::time::Duration;

use hooks_core::{Action, BuiltinEvent, Decision, Dialect, HookSpec, PromptAction, PromptMode};
use hooks_exec::{MAX_TIMEOUT, Timeouts};

fn prompt(mode: PromptMode) -> Action {
    Action::Prompt(PromptAction {
        prompt: "ok?".to_owned(),
        mode,
        model: None,
        max_tool_rounds: None,
        continue_on_block: false,
    })
}

/// Checks the timeout a hook of `dialect` doing `action`, with its own `timeout`, gets.
#[track_caller]
fn check(timeouts: &Timeouts, dialect: Dialect, action: Action, own: Option<u64>, expect: u64) {
    check_on(
        timeouts,
        BuiltinEvent::PreToolUse,
        dialect,
        action,
        own,
        expect * 1000,
    );
}

/// The same on `event`, in milliseconds.
#[track_caller]
fn check_on(
    timeouts: &Timeouts,
    event: BuiltinEvent,
    dialect: Dialect,
    action: Action,
    own: Option<u64>,
    expect_ms: u64,
) {
    let mut spec = HookSpec::new(event, action).with_dialect(dialect);
    spec.timeout = own.map(Duration::from_secs);
    assert_eq!(timeouts.effective(&spec), Duration::from_millis(expect_ms));
}

#[test]
fn defaults_follow_each_dialect_and_are_clamped() {
    let t = Timeouts::default();
    let cmd = || Action::script("true");
    // Claude documents 600 s; the ceiling is 300 s.
    check(&t, Dialect::Claude, cmd(), None, 300);
    check(&t, Dialect::Claude, prompt(PromptMode::Evaluate), None, 30);
    check(&t, Dialect::Claude, prompt(PromptMode::Agent), None, 60);
    check(&t, Dialect::Echo, cmd(), None, 10);
    check(&t, Dialect::Autohand, cmd(), None, 5);
    check(&t, Dialect::Fabro, cmd(), None, 60);
    check(&t, Dialect::Fabro, prompt(PromptMode::Evaluate), None, 30);
    check(&t, Dialect::Fabro, prompt(PromptMode::Agent), None, 60);
    check(&t, Dialect::Native, cmd(), None, 10);
    check(&t, Dialect::Native, prompt(PromptMode::Evaluate), None, 30);
    check(&t, Dialect::Native, prompt(PromptMode::Agent), None, 60);
    check(
        &t,
        Dialect::Native,
        Action::permission(Decision::Allow),
        None,
        10,
    );
    // Claude Code's per-event defaults for command, http and mcp_tool hooks.
    let claude = |event, action, ms| check_on(&t, event, Dialect::Claude, action, None, ms);
    claude(BuiltinEvent::UserPromptSubmit, cmd(), 30_000);
    claude(BuiltinEvent::MessageDisplay, cmd(), 10_000);
    claude(BuiltinEvent::SessionEnd, cmd(), 1_500);
    claude(
        BuiltinEvent::UserPromptSubmit,
        prompt(PromptMode::Agent),
        60_000,
    );
    claude(BuiltinEvent::Stop, cmd(), 300_000);
    // A hook's own timeout wins, within the ceiling.
    check(&t, Dialect::Autohand, cmd(), Some(42), 42);
    check(&t, Dialect::Native, cmd(), Some(3600), 300);
    assert_eq!(t.max(), MAX_TIMEOUT);

    let t = Timeouts::default()
        .with_default(Dialect::Autohand, Duration::from_secs(7))
        .with_max(Duration::from_secs(20));
    check(&t, Dialect::Autohand, cmd(), None, 7);
    check(&t, Dialect::Fabro, cmd(), None, 20);
    check(&t, Dialect::Echo, cmd(), Some(30), 20);
}
