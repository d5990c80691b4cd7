//! Command hook benchmarks (rows 2-5 of the benchmark report), each side by side with a
//! baseline measured in the same run:
//!
//! - `command_round_trip`: one `sh -c` hook, the ~1 KiB event JSON in, JSON out, parsed into
//!   an outcome, through the [`Dispatcher`], against raw `tokio::process` doing the same
//!   spawn, write, read and parse (`hooks_core::parse_output`).
//! - `node_round_trip`: the same round trip through the engine, against Node.js doing it the
//!   way the TypeScript agents do (`child_process.spawn(cmd, {shell: true})`, see
//!   `node_round_trip.mjs`). Node times its own loop, so its start-up is not counted.
//! - `parallel_8x50ms`: an event matching 8 hooks of 50 ms each, against an event matching
//!   one such hook (both through the engine).
//! - `timeout_20ms`: a hook that overruns its 20 ms timeout: the time from the deadline to
//!   the outcome (killed, reaped, reported), against raw `tokio::process` with
//!   `tokio::time::timeout`, `killpg` and `wait`.
//!
//! The two sides of each comparison alternate (see `support::interleaved`), so both see the
//! same machine load.
//!
//! The hook script does not read its stdin: the pipe buffer takes the 1 KiB whole, so the
//! write completes on both sides, and what is measured is the engine rather than the
//! shell's byte-at-a-time `read`.
//!
//! `cargo xtask bench` runs these and prints medians and ratios.

// The baselines start processes themselves, as a host without the engine would.
#![allow(clippy::disallowed_methods)]

mod support;

use std::hint::black_box;
use std::process::Stdio;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use hooks_core::{
    Action, BuiltinEvent, Dialect, EventContext, HookIndex, HookSpec, HookStatus, Matcher,
    parse_output,
};
use hooks_exec::Dispatcher;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use support::{ANSWER, event_1k, expect_allow, interleaved, runtime, timed};

/// The hook: answers allow.
fn answer_script() -> String {
    format!("printf '%s\\n' '{ANSWER}'")
}

/// A Claude-dialect PreToolUse hook on `Bash` running `script`.
fn bash_hook(script: &str) -> HookSpec {
    HookSpec::new(BuiltinEvent::PreToolUse, Action::script(script))
        .with_matcher(Matcher::parse("Bash").expect("valid matcher"))
        .with_dialect(Dialect::Claude)
}

/// What the raw baseline does for one hook: spawn `sh -c` in its own process group, write
/// the event JSON while reading stdout and stderr, wait, parse.
async fn raw_round_trip(ctx: &EventContext, script: &str) -> hooks_core::HookOutcome {
    let mut payload = serde_json::to_vec(&ctx.to_json(Dialect::Claude)).expect("event JSON");
    payload.push(b'\n');
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .expect("spawn sh");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let write = async move {
        // The script may exit before reading; a broken pipe is not an error here.
        let _ = stdin.write_all(&payload).await;
    };
    let read_out = async move {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).await.expect("read stdout");
        buf
    };
    let read_err = async move {
        let mut buf = Vec::new();
        stderr.read_to_end(&mut buf).await.expect("read stderr");
        buf
    };
    let ((), out, err, status) = tokio::join!(write, read_out, read_err, child.wait());
    let status = status.expect("wait");
    parse_output(ctx.event(), status.code(), &out, &err)
}

/// One round trip through the engine.
async fn engine_round_trip(dispatcher: &Dispatcher, ctx: &EventContext) {
    let outcome = dispatcher.dispatch(ctx).await;
    expect_allow(outcome.effects.decision, &outcome);
}

/// Node's loop of `iters` round trips, timed by node.
fn node_round_trips(iters: u64, payload_file: &std::path::Path, script: &str) -> Duration {
    let driver =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/node_round_trip.mjs");
    let output = std::process::Command::new("node")
        .arg(&driver)
        .arg(iters.to_string())
        .arg(payload_file)
        .arg(script)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `node` ({e}): row 3 compares with Node.js; install nodejs")
        });
    assert!(
        output.status.success(),
        "the node driver failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let nanos: u64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("node prints nanoseconds");
    Duration::from_nanos(nanos)
}

fn round_trips(c: &mut Criterion) {
    let rt = runtime();
    let ctx = event_1k();
    let script = answer_script();
    let dispatcher = Dispatcher::new(HookIndex::new(vec![bash_hook(&script)]));
    let engine = || rt.block_on(engine_round_trip(&dispatcher, black_box(&ctx)));
    let raw = || {
        let outcome = rt.block_on(raw_round_trip(black_box(&ctx), &script));
        expect_allow(outcome.effects.decision, &outcome);
    };

    // Row 2: the engine against raw tokio::process.
    let mut group = c.benchmark_group("command_round_trip");
    group.sample_size(50);
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| interleaved(iters, || timed(engine), raw))
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| interleaved(iters, || timed(raw), engine))
    });
    group.finish();

    // Row 3: the engine against Node.js doing it the TypeScript agents' way. Node runs its
    // loop in one process, so the two sides alternate by batches of `iters`.
    let payload = tempfile::NamedTempFile::new().expect("temp file");
    let mut json = serde_json::to_vec(&ctx.to_json(Dialect::Claude)).expect("event JSON");
    json.push(b'\n');
    std::fs::write(payload.path(), &json).expect("write payload");
    let node = |iters| node_round_trips(iters, payload.path(), &script);
    let engine_batch = |iters| timed(|| (0..iters).for_each(|_| engine()));
    let mut group = c.benchmark_group("node_round_trip");
    group.sample_size(30);
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| {
            let took = engine_batch(iters);
            node(iters);
            took
        })
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| {
            engine_batch(iters);
            node(iters)
        })
    });
    group.finish();
}

fn parallel(c: &mut Criterion) {
    let rt = runtime();
    let ctx = event_1k();
    // Each hook's command differs (a comment), so the engine does not merge them as
    // identical commands: 8 real processes run.
    let slow = |i: usize| bash_hook(&format!("sleep 0.05; {} # hook {i}", answer_script()));
    let eight = Dispatcher::new(HookIndex::new((0..8).map(slow).collect()));
    let one = Dispatcher::new(HookIndex::new(vec![slow(0)]));
    let run_eight = || {
        let outcome = rt.block_on(eight.dispatch(black_box(&ctx)));
        assert_eq!(outcome.hooks.len(), 8, "{outcome:?}");
        expect_allow(outcome.effects.decision, &outcome);
    };
    let run_one = || rt.block_on(engine_round_trip(&one, black_box(&ctx)));

    // Row 4: 8 matching hooks of 50 ms against one.
    let mut group = c.benchmark_group("parallel_8x50ms");
    group.sample_size(20).sampling_mode(SamplingMode::Flat);
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| interleaved(iters, || timed(run_eight), run_one))
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| interleaved(iters, || timed(run_one), run_eight))
    });
    group.finish();
}

/// How long the hooks of the timeout row overrun by.
const DEADLINE: Duration = Duration::from_millis(20);

/// The time past `DEADLINE` that `run` took.
fn past_deadline(run: impl FnOnce()) -> Duration {
    timed(run).saturating_sub(DEADLINE)
}

fn timeout(c: &mut Criterion) {
    let rt = runtime();
    let ctx = event_1k();
    let hang = "sleep 10";
    let dispatcher = Dispatcher::new(HookIndex::new(vec![bash_hook(hang).with_timeout(DEADLINE)]));
    let engine = || {
        let outcome = rt.block_on(dispatcher.dispatch(&ctx));
        assert_eq!(
            outcome.hooks[0].run.status,
            HookStatus::TimedOut,
            "{outcome:?}"
        );
    };
    let raw = || {
        rt.block_on(async {
            let mut child = tokio::process::Command::new("sh")
                .arg("-c")
                .arg(hang)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(0)
                .kill_on_drop(true)
                .spawn()
                .expect("spawn sh");
            let pid = child.id().expect("pid");
            let waited = tokio::time::timeout(DEADLINE, child.wait()).await;
            assert!(waited.is_err(), "the hook ended before its deadline");
            let group =
                rustix::process::Pid::from_raw(i32::try_from(pid).expect("pid")).expect("pid");
            rustix::process::kill_process_group(group, rustix::process::Signal::KILL)
                .expect("killpg");
            let status = child.wait().await.expect("wait");
            assert!(!status.success());
        })
    };

    // Row 5: from the deadline to the outcome. Both sides start the clock before the
    // spawn, so the spawn (about 1 ms) is counted against them.
    let mut group = c.benchmark_group("timeout_20ms");
    group.sample_size(20).sampling_mode(SamplingMode::Flat);
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| interleaved(iters, || past_deadline(engine), raw))
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| interleaved(iters, || past_deadline(raw), engine))
    });
    group.finish();
}

criterion_group!(benches, round_trips, parallel, timeout);
criterion_main!(benches);
