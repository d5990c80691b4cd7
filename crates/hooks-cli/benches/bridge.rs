//! `hooks bridge claude` as an agent runs it, a whole process per event (start-up
//! included), side by side with what the agent would run without the engine, measured in
//! the same run with the two sides alternating (so both see the same machine load):
//!
//! - `bridge_no_hooks`: an event that matches no hook, against `/bin/true` (target 2.0x).
//! - `bridge_one_hook`: an event with one `sh -c` command hook, against that `sh -c` plus
//!   one `/bin/true` (the unavoidable extra process; target 1.15x).
//! - `bridge_20_hooks`, `bridge_1000_hooks`: the same with 20 and 1,000 configured hooks of
//!   which one matches, against the same baseline.
//!
//! Each process gets the Claude Code PreToolUse stdin JSON and is waited for. The config is
//! a user-layer native file in a temporary home; the state store is there too.
//!
//! `cargo xtask bench` runs these and prints medians and ratios.

// The benchmark starts the processes an agent would start.
#![allow(clippy::disallowed_methods)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};

/// The hook every matching config runs: reads nothing, answers nothing (allow).
const HOOK: &str = "true";

/// Claude Code's PreToolUse stdin for `ls`, the tool call numbered `call`: every call has
/// a tool-use id of its own, as an agent's do, so the bridge dispatches each one (a call
/// with the id of one it answered within the minute is answered with that call's decision,
/// without loading any config).
fn payload(dir: &Path, call: u64) -> String {
    format!(
        r#"{{"session_id":"bench","transcript_path":"/dev/null","cwd":"{}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"ls","description":"List"}},"tool_use_id":"toolu_{call:08}"}}"#,
        dir.display()
    )
}

/// A temporary home whose user config holds `hooks` hooks, one of them on `Bash` when
/// `matching`. The command is quoted: YAML reads a bare `true` as a boolean, which the
/// loader refuses (the bridge would answer a broken config, running no hook).
fn home(hooks: usize, matching: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("home/.config/hooks");
    std::fs::create_dir_all(&config).expect("config dir");
    std::fs::create_dir_all(dir.path().join("proj/.git")).expect("project");
    let mut text = String::from("hooks:\n");
    for i in 0..hooks {
        let matcher = if matching && i == hooks / 2 {
            "Bash".to_owned()
        } else {
            format!("Tool{i}")
        };
        text.push_str(&format!(
            "  - id: h{i}\n    event: PreToolUse\n    matcher: {matcher}\n    command: \"{HOOK}\"\n"
        ));
    }
    std::fs::write(config.join("hooks.yaml"), text).expect("config");
    dir
}

/// Starts `program args` with `stdin`, in `dir`'s isolated environment, waits, and gives
/// what it wrote on stdout.
fn run(dir: &Path, program: &Path, args: &[&str], stdin: &str) -> Vec<u8> {
    let home = dir.join("home");
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir.join("proj"))
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("HOOKS_TRUST_STORE", dir.join("trust.json"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    if let Some(mut pipe) = child.stdin.take() {
        // A baseline that does not read its stdin may close it first.
        let _ = pipe.write_all(stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{} failed", program.display());
    out.stdout
}

fn hooks_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hooks"))
}

/// Alternates the measured side with the other, timing only the measured one.
fn interleaved(iters: u64, mut measured: impl FnMut(), mut other: impl FnMut()) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        measured();
        total += start.elapsed();
        other();
    }
    total
}

/// One group: `engine` (the bridge) against `baseline`, alternating. The bridge must
/// answer with its exit code 0 and nothing on stdout (the hooks allowed the call): a
/// config that did not load would answer a deny, and the row would time the wrong thing.
fn compare(
    c: &mut Criterion,
    group: &str,
    (hooks, matching): (usize, bool),
    baseline: &dyn Fn(&Path, &str),
) {
    let dir = home(hooks, matching);
    let path = dir.path();
    let proj = path.join("proj");
    let stdin = payload(&proj, 0);
    let bin = hooks_bin();
    let answer = run(path, &bin, &["bridge", "claude"], &stdin);
    assert!(
        answer.is_empty(),
        "{group}: the bridge did not allow the call: {}",
        String::from_utf8_lossy(&answer)
    );
    let calls = std::cell::Cell::new(0);
    let engine = || {
        calls.set(calls.get() + 1);
        run(
            path,
            &bin,
            &["bridge", "claude"],
            &payload(&proj, calls.get()),
        );
    };
    let base = || baseline(path, &stdin);
    let mut g = c.benchmark_group(group);
    g.sampling_mode(SamplingMode::Flat).sample_size(30);
    g.bench_function("engine", |b| {
        b.iter_custom(|n| interleaved(n, engine, base))
    });
    g.bench_function("baseline", |b| {
        b.iter_custom(|n| interleaved(n, base, engine))
    });
    g.finish();
}

fn bench(c: &mut Criterion) {
    let truth = PathBuf::from("/bin/true");
    let sh = PathBuf::from("/bin/sh");
    // A config with one hook, for another tool: the event matches no hook.
    compare(c, "bridge_no_hooks", (1, false), &|dir, stdin| {
        run(dir, &truth, &[], stdin);
    });
    let sh_and_true = |dir: &Path, stdin: &str| {
        run(dir, &sh, &["-c", HOOK], stdin);
        run(dir, &truth, &[], stdin);
    };
    compare(c, "bridge_one_hook", (1, true), &sh_and_true);
    compare(c, "bridge_20_hooks", (20, true), &sh_and_true);
    compare(c, "bridge_1000_hooks", (1000, true), &sh_and_true);
}

criterion_group!(benches, bench);
criterion_main!(benches);
