//! What the hooks-exec benchmarks share: the event every round trip carries (about 1 KiB
//! of JSON), the hook's answer, the runtime they run on, and checks that each side of a
//! comparison did the work.

// Each benchmark target includes this module and uses part of it.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use hooks_core::{Decision, EventContext};
use serde_json::json;

/// The answer every benchmark hook gives: Claude Code's allow, with a reason.
pub(crate) const ANSWER: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"benchmark"}}"#;

/// A PreToolUse event for `Bash` whose JSON, as a Claude hook reads it, is about 1 KiB.
pub(crate) fn event_1k() -> EventContext {
    // The command is padded so that the whole stdin document lands near 1 KiB.
    let command = format!("cargo test --workspace -- {}", "x".repeat(800));
    EventContext::pre_tool_use(
        "Bash",
        json!({"command": command, "description": "run the tests"}),
    )
    .session_id("bench-session")
    .transcript_path("/tmp/bench/transcript.jsonl")
    .permission_mode("default")
    .cwd(std::env::temp_dir().to_string_lossy().into_owned())
}

/// A current-thread runtime with IO and timers: one thread drives the hook, as in an agent's
/// event loop, and the ratio is not muddied by work stealing.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// Fails the benchmark if a side did not get the answer: a broken hook must not pass for
/// a fast one.
#[track_caller]
pub(crate) fn expect_allow(decision: Decision, detail: &impl std::fmt::Debug) {
    assert_eq!(
        decision,
        Decision::Allow,
        "the hook did not answer: {detail:?}"
    );
}

/// Times `iters` runs of `measured` (each returns the time it counts), running `other`
/// untimed after each one. Both functions of a comparison are measured this way, each with
/// the other as `other`, so both see the same machine: a burst of load elsewhere slows
/// the two sides alike, and their ratio holds on a noisy machine.
pub(crate) fn interleaved(
    iters: u64,
    mut measured: impl FnMut() -> Duration,
    mut other: impl FnMut(),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        total += measured();
        other();
    }
    total
}

/// How long `f` took.
pub(crate) fn timed(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}
