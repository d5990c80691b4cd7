//! The hook command `hooks install` writes (`hooks-bridge claude`, which hands the event to
//! the resident engine when one serves and runs `hooks bridge claude` otherwise) as an
//! agent runs it, a whole process per event (start-up included), side by side with what
//! the agent would run without the engine, measured in the same run with the two sides
//! alternating (so both see the same machine load):
//!
//! - `bridge_no_hooks`: an event that matches no hook, against `/bin/true` (target 2.0x).
//! - `bridge_one_hook`: an event with one `sh -c` command hook, against that `sh -c` plus
//!   one `/bin/true` (the unavoidable extra process; target 1.15x).
//! - `bridge_20_hooks`, `bridge_1000_hooks`: the same with 20 and 1,000 configured hooks of
//!   which one matches, against the same baseline.
//!
//! - `daemon_no_hooks`, `daemon_one_hook`: the first two with the resident engine running
//!   (`hooks daemon run` in the temporary home), which the client hands each call to
//!   (targets 1.3x and 1.15x).
//!
//! The client is `$HOOKS_BENCH_CLIENT` when set (`cargo xtask bench` sets it to the
//! statically linked build the packages ship, beside a link to `hooks`), else the one
//! Cargo built (linked dynamically, a little slower to start).
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
    let run = dir.path().join("run");
    std::fs::create_dir_all(&run).expect("runtime dir");
    std::fs::set_permissions(&run, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .expect("private runtime dir");
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

/// `program args` in the project of `dir`, with its home, state, runtime directory and
/// trust store there and nothing of the machine's daemon settings.
fn isolated(dir: &Path, program: &Path, args: &[&str]) -> Command {
    let home = dir.join("home");
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir.join("proj"))
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("HOOKS_TRUST_STORE", dir.join("trust.json"))
        .env("XDG_RUNTIME_DIR", dir.join("run"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOKS_DAEMON")
        .env_remove("HOOKS_DAEMON_SOCKET");
    command
}

/// Starts `program args` with `stdin`, in `dir`'s isolated environment, waits, and gives
/// what it wrote on stdout.
fn run(dir: &Path, program: &Path, args: &[&str], stdin: &str) -> Vec<u8> {
    let mut child = isolated(dir, program, args)
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

/// The hook command's program: `$HOOKS_BENCH_CLIENT`, else Cargo's `hooks-bridge`.
fn client_bin() -> PathBuf {
    std::env::var_os("HOOKS_BENCH_CLIENT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_hooks-bridge")))
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

/// The resident engine serving `dir`'s home, started as the bench's other processes are;
/// ready once it says it serves.
fn daemon(dir: &Path) -> std::process::Child {
    use std::io::BufRead;
    let mut child = isolated(dir, &hooks_bin(), &["daemon", "run"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the daemon");
    let mut line = String::new();
    std::io::BufReader::new(child.stderr.take().expect("stderr"))
        .read_line(&mut line)
        .expect("the daemon's first line");
    assert!(line.contains("serving"), "the daemon did not start: {line}");
    child
}

/// How many calls the daemon serving `dir` has answered.
fn served(dir: &Path) -> u64 {
    let out = run(dir, &hooks_bin(), &["daemon", "status", "--json"], "");
    let state: serde_json::Value = serde_json::from_slice(&out).expect("status JSON");
    state["served"].as_u64().unwrap_or(0)
}

/// One group: `engine` (the bridge) against `baseline`, alternating. The bridge must
/// answer with its exit code 0 and nothing on stdout (the hooks allowed the call): a
/// config that did not load would answer a deny, and the row would time the wrong thing.
fn compare(
    c: &mut Criterion,
    group: &str,
    (hooks, matching, resident): (usize, bool, bool),
    baseline: &dyn Fn(&Path, &str),
) {
    let dir = home(hooks, matching);
    let path = dir.path();
    let mut resident = resident.then(|| daemon(path));
    let proj = path.join("proj");
    let stdin = payload(&proj, 0);
    let bin = client_bin();
    let answer = run(path, &bin, &["claude"], &stdin);
    assert!(
        answer.is_empty(),
        "{group}: the bridge did not allow the call: {}",
        String::from_utf8_lossy(&answer)
    );
    let calls = std::cell::Cell::new(0);
    let engine = || {
        calls.set(calls.get() + 1);
        run(path, &bin, &["claude"], &payload(&proj, calls.get()));
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
    if let Some(mut child) = resident.take() {
        // Every call went through the daemon, none was answered by the bridge alone.
        assert_eq!(
            served(path),
            calls.get() + 1,
            "{group}: calls the daemon did not answer"
        );
        let _ = child.kill();
        let _ = child.wait();
    }
}

fn bench(c: &mut Criterion) {
    let truth = PathBuf::from("/bin/true");
    let sh = PathBuf::from("/bin/sh");
    // A config with one hook, for another tool: the event matches no hook.
    let just_true = |dir: &Path, stdin: &str| {
        run(dir, &truth, &[], stdin);
    };
    compare(c, "bridge_no_hooks", (1, false, false), &just_true);
    let sh_and_true = |dir: &Path, stdin: &str| {
        run(dir, &sh, &["-c", HOOK], stdin);
        run(dir, &truth, &[], stdin);
    };
    compare(c, "bridge_one_hook", (1, true, false), &sh_and_true);
    compare(c, "bridge_20_hooks", (20, true, false), &sh_and_true);
    compare(c, "bridge_1000_hooks", (1000, true, false), &sh_and_true);
    compare(c, "daemon_no_hooks", (1, false, true), &just_true);
    compare(c, "daemon_one_hook", (1, true, true), &sh_and_true);
}

criterion_group!(benches, bench);
criterion_main!(benches);
