//! The soak run (row 8 of the benchmark report): events at a fixed rate (10,000 a second by
//! default) through the [`Dispatcher`] for a fixed time (10 s by default), each matching an
//! async logging hook (a command that appends the event JSON to a log file).
//!
//! It checks what the async queue promises under overload:
//! - memory stays flat: the process's resident set, sampled every 250 ms, grows by at most
//!   10% (or 4 MiB, whichever is larger) from the first third of the run to the last;
//! - overflow is counted: the dispatcher's drop counter equals the drops the events'
//!   aggregates reported;
//! - nothing the queue accepted is lost: after `flush_async`, every accepted event is in the
//!   log exactly once, and no dropped one is.
//!
//! Not a criterion benchmark: `cargo xtask bench` runs it as
//! `cargo bench -p agentic-hooks-exec --bench soak -- --seconds S --out FILE` and reads the JSON it
//! writes. `--rate N` changes the rate.

// The log is checked by reading the file the hooks wrote; printing the result is the point.
#![allow(clippy::print_stdout)]

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hooks_core::{
    Action, BuiltinEvent, Dialect, EventContext, HookIndex, HookOutcome, HookSpec, HookStatus,
};
use hooks_exec::{Dispatcher, NotificationSink};
use serde_json::json;

/// Counts what the async hooks returned.
#[derive(Default)]
struct Counts {
    ok: AtomicU64,
    failed: AtomicU64,
    dropped: AtomicU64,
}

impl NotificationSink for Counts {
    fn async_outcome(&self, _: &EventContext, _: &HookSpec, outcome: &HookOutcome) {
        if outcome.run.status == HookStatus::Ok {
            self.ok.fetch_add(1, Ordering::Relaxed);
        } else {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn async_dropped(&self, _: &EventContext, _: &HookSpec, _: u64) {
        self.dropped.fetch_add(1, Ordering::Relaxed);
    }
}

struct Args {
    seconds: f64,
    rate: u64,
    out: Option<PathBuf>,
}

fn args() -> Args {
    let mut args = Args {
        seconds: 10.0,
        rate: 10_000,
        out: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seconds" => {
                args.seconds = it.next().and_then(|v| v.parse().ok()).expect("--seconds N")
            }
            "--rate" => args.rate = it.next().and_then(|v| v.parse().ok()).expect("--rate N"),
            "--out" => args.out = it.next().map(PathBuf::from),
            // cargo adds `--bench`; criterion-style flags are not ours.
            _ => {}
        }
    }
    args
}

/// The resident set of this process, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

fn main() {
    let args = args();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("log.jsonl");
    let counts = Arc::new(Counts::default());
    // The logging hook appends its stdin (one line of event JSON) with one write, which
    // O_APPEND keeps whole among concurrent writers.
    let script = format!(
        "IFS= read -r line; printf '%s\\n' \"$line\" >> '{}'",
        log.display()
    );
    let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script(script))
        .with_id("logger")
        .with_dialect(Dialect::Native)
        .with_async(true);
    let dispatcher = Dispatcher::builder()
        .index(HookIndex::new(vec![spec]))
        .notification_sink(Arc::clone(&counts) as Arc<dyn NotificationSink>)
        .build()
        .expect("dispatcher");

    let result = rt.block_on(async {
        let stop = Arc::new(tokio::sync::Notify::new());
        let sampler = {
            let stop = Arc::clone(&stop);
            tokio::spawn(async move {
                let mut samples = Vec::new();
                let mut tick = tokio::time::interval(Duration::from_millis(250));
                loop {
                    tokio::select! {
                        _ = tick.tick() => samples.push(rss_kib()),
                        () = stop.notified() => break samples,
                    }
                }
            })
        };

        let total = (args.seconds * args.rate as f64) as u64;
        let start = Instant::now();
        let mut tick = tokio::time::interval(Duration::from_millis(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut sent: u64 = 0;
        let mut accepted: HashSet<u64> = HashSet::new();
        let mut reported_drops: u64 = 0;
        while sent < total {
            tick.tick().await;
            let due = ((start.elapsed().as_secs_f64() * args.rate as f64) as u64).min(total);
            while sent < due {
                let ctx =
                    EventContext::pre_tool_use("Bash", json!({"seq": sent})).session_id("soak");
                let outcome = dispatcher.dispatch(&ctx).await;
                if outcome
                    .effects
                    .messages
                    .iter()
                    .any(|m| m.contains("was dropped"))
                {
                    reported_drops += 1;
                } else {
                    accepted.insert(sent);
                }
                sent += 1;
            }
        }
        let sending = start.elapsed();
        stop.notify_one();
        let samples = sampler.await.expect("sampler");
        let flushed = tokio::time::timeout(Duration::from_secs(120), dispatcher.flush_async())
            .await
            .is_ok();
        (sent, sending, accepted, reported_drops, samples, flushed)
    });
    let (sent, sending, accepted, reported_drops, samples, flushed) = result;

    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let mut logged: HashSet<u64> = HashSet::new();
    let mut duplicates = 0u64;
    let mut garbled = 0u64;
    for line in text.lines() {
        let seq = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v["tool_input"]["seq"].as_u64());
        match seq {
            Some(seq) if !logged.insert(seq) => duplicates += 1,
            Some(_) => {}
            None => garbled += 1,
        }
    }
    let lost = accepted.difference(&logged).count() as u64;
    let unexpected = logged.difference(&accepted).count() as u64;

    let third = samples.len() / 3;
    let first = samples[..third.max(1)].iter().copied().max().unwrap_or(0);
    let last = samples[samples.len() - third.max(1)..]
        .iter()
        .copied()
        .max()
        .unwrap_or(0);
    let peak = samples.iter().copied().max().unwrap_or(0);
    let allowed_growth = (first / 10).max(4 * 1024);
    let flat = last <= first + allowed_growth;
    let dropped = dispatcher.async_dropped();
    let counted = dropped == reported_drops
        && counts.dropped.load(Ordering::Relaxed) == dropped
        && accepted.len() as u64 + dropped == sent;
    let ok = counts.ok.load(Ordering::Relaxed);
    let failed = counts.failed.load(Ordering::Relaxed);
    let nothing_lost = flushed
        && lost == 0
        && unexpected == 0
        && duplicates == 0
        && garbled == 0
        && ok == accepted.len() as u64
        && failed == 0;
    let report = json!({
        "seconds": args.seconds,
        "rate_target": args.rate,
        "events": sent,
        "rate_achieved": sent as f64 / sending.as_secs_f64(),
        "accepted": accepted.len(),
        "dropped": dropped,
        "dropped_reported": reported_drops,
        "completed_ok": ok,
        "completed_failed": failed,
        "logged": logged.len(),
        "lost": lost,
        "unexpected": unexpected,
        "duplicates": duplicates,
        "garbled": garbled,
        "flushed": flushed,
        "rss_first_third_kib": first,
        "rss_last_third_kib": last,
        "rss_peak_kib": peak,
        "memory_flat": flat,
        "overflow_counted": counted,
        "nothing_lost": nothing_lost,
        "pass": flat && counted && nothing_lost,
    });
    let text = serde_json::to_string_pretty(&report).expect("JSON");
    if let Some(out) = &args.out {
        if let Some(parent) = out.parent() {
            std::fs::create_dir_all(parent).expect("create the output directory");
        }
        std::fs::write(out, &text).expect("write the result");
    }
    println!("{text}");
}
