//! The reliability suite: command hooks that try to break the engine, run through the
//! [`Dispatcher`] as a host runs them. Each test asserts the reported outcome (status,
//! failure kind, the decision under the hook's failure policy), that the host's engine
//! still answers the next event, and, through a [`Leftovers`] guard, that no process the
//! test started is left alive. Processes that leave the hook's group, session or lineage
//! are checked by pid; a host holding every descriptor runs in a copy of the binary.
//!
//! Executor-level tests of the same behaviours are in `command.rs` (group kill on timeout,
//! SIGTERM then SIGKILL, the orphan grace, output caps, spawn failures); this suite runs them
//! end to end through dispatch, with the failure policy, in numbers (200 hooks, 1,000
//! events), and checks the process table afterwards. HTTP and MCP peers are in
//! `reliability_peers.rs`, hot reload through the facade in `reliability_reload.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use hooks_core::{
    Action, Aggregate, BuiltinEvent, CommandAction, CommandLine, Decision, Dialect, EventContext,
    FailurePolicy, HookIndex, HookSpec,
};
use hooks_exec::{CommandExecutor, Dispatcher};

use crate::support::{Fixture, is_running, wait_gone};

/// The environment variable that marks the processes of one test.
const MARK: &str = "HOOKS_RELIABILITY_MARK";

/// Marks every process one test starts (an environment variable its hooks, and everything
/// they start, inherit) and checks at the end that none of them is still running, by
/// reading the process table (`/proc/*/environ`).
pub(crate) struct Leftovers {
    mark: String,
}

impl Leftovers {
    pub(crate) fn new() -> Leftovers {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        Leftovers {
            mark: format!(
                "{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ),
        }
    }

    /// The variable to put in the environment of what the test starts.
    pub(crate) fn env(&self) -> (String, String) {
        (MARK.to_owned(), self.mark.clone())
    }

    /// A command hook running `script` under `sh -c`, marked.
    pub(crate) fn script(&self, event: BuiltinEvent, script: &str) -> HookSpec {
        self.command(event, CommandLine::Script(script.to_owned()))
    }

    /// A command hook running `command`, marked.
    pub(crate) fn command(&self, event: BuiltinEvent, command: CommandLine) -> HookSpec {
        let mut action = CommandAction::new(command);
        action.env = vec![self.env()];
        HookSpec::new(event, Action::Command(action)).with_dialect(Dialect::Native)
    }

    /// The running processes carrying this test's mark (zombies have no environment, so
    /// they do not count: they are gone, only not yet reaped).
    pub(crate) fn running(&self) -> Vec<i32> {
        let needle = format!("{MARK}={}", self.mark);
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == needle.as_bytes()))
            })
            .filter(|&pid| is_running(pid))
            .collect()
    }

    /// Kills what the engine leaves running by design (a background process that
    /// detached from the hook's output), so the suite leaves nothing behind.
    pub(crate) fn kill_running(&self) -> usize {
        let pids = self.running();
        for &pid in &pids {
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        pids.len()
    }

    /// Fails if a marked process is still running. A process killed just before may take a
    /// moment to exit: each one found is waited for (a pidfd, at most 10 s) first.
    pub(crate) async fn assert_none_left(&self) {
        for pid in self.running() {
            wait_gone(pid).await;
        }
        let left: Vec<String> = self
            .running()
            .into_iter()
            .map(|pid| {
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                format!(
                    "{pid}: {}",
                    String::from_utf8_lossy(&cmdline).replace('\0', " ")
                )
            })
            .collect();
        assert!(left.is_empty(), "processes left running: {left:#?}");
    }
}

/// A hook's answer: deny, with a reason.
const DENY: &str = r#"echo '{"decision":"deny","reason":"hostile but answered"}'"#;

/// Short graces so the suite stays fast: they are deadlines, never synchronisation.
fn executor() -> CommandExecutor {
    CommandExecutor::builder()
        .kill_grace(Duration::from_millis(200))
        .orphan_grace(Duration::from_millis(200))
        .build()
}

fn dispatcher(specs: Vec<HookSpec>) -> Dispatcher {
    Dispatcher::builder()
        .index(HookIndex::new(specs))
        .command_executor(executor())
        .build()
        .unwrap()
}

/// The one hook's report as `status kind -> decision`, the event's decision.
fn render(agg: &Aggregate) -> String {
    assert_eq!(agg.hooks.len(), 1, "{agg:#?}");
    let hook = &agg.hooks[0];
    let kind = hook.run.failure.as_ref().map_or("-", |f| f.kind.as_str());
    format!(
        "{} {kind} -> {}",
        hook.run.status.as_str(),
        agg.effects.decision.as_str()
    )
}

/// Checks the outcome of one hostile hook and that its failure message (or the event's
/// reason) says `needle`.
#[track_caller]
fn check(agg: &Aggregate, expect: &str, needle: &str) {
    assert_eq!(render(agg), expect, "{agg:#?}");
    let said = format!(
        "{} {} {}",
        agg.hooks[0]
            .run
            .failure
            .as_ref()
            .map_or("", |f| f.message.as_str()),
        agg.effects.reason.as_deref().unwrap_or(""),
        agg.effects.messages.join(" "),
    );
    assert!(said.contains(needle), "`{needle}` not in: {said}");
}

/// Runs one hostile hook on a PreToolUse event with `policy`, then checks the host's engine
/// still answers a well-behaved hook. Returns the hostile hook's aggregate.
async fn hostile(
    guard: &Leftovers,
    fx: &Fixture,
    spec: HookSpec,
    policy: FailurePolicy,
    timeout: Duration,
) -> Aggregate {
    let spec = spec
        .with_matcher(hooks_core::Matcher::parse("Bash").unwrap())
        .with_on_failure(policy)
        .with_timeout(timeout);
    let agg = dispatcher(vec![spec]).dispatch(&fx.pre_tool()).await;
    host_still_answers(guard, fx).await;
    agg
}

async fn host_still_answers(guard: &Leftovers, fx: &Fixture) {
    let sane = guard.script(BuiltinEvent::PreToolUse, DENY);
    let agg = dispatcher(vec![sane]).dispatch(&fx.pre_tool()).await;
    assert_eq!(
        agg.effects.decision,
        Decision::Deny,
        "the host stopped answering: {agg:#?}"
    );
}

/// A timeout long enough for any healthy hook on a loaded machine.
const PATIENT: Duration = Duration::from_secs(30);
/// A timeout for hooks that are meant to overrun it.
const SHORT: Duration = Duration::from_millis(300);

#[tokio::test]
async fn a_hanging_hook_times_out_and_its_group_is_killed() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    // The hook and a child of it, both hanging.
    let hang = guard.script(BuiltinEvent::PreToolUse, "sleep 1000 & sleep 1000");
    let agg = hostile(&guard, &fx, hang.clone(), FailurePolicy::Allow, SHORT).await;
    check(&agg, "timed_out timeout -> none", "timed out after 300ms");
    let agg = hostile(&guard, &fx, hang, FailurePolicy::Block, SHORT).await;
    check(&agg, "timed_out timeout -> block", "timed out after 300ms");
    // One that ignores SIGTERM gets SIGKILL after the grace.
    let stubborn = guard.script(BuiltinEvent::PreToolUse, "trap '' TERM; sleep 1000 & wait");
    let agg = hostile(&guard, &fx, stubborn, FailurePolicy::Block, SHORT).await;
    check(
        &agg,
        "timed_out timeout -> block",
        "its 2 processes were killed",
    );
    guard.assert_none_left().await;
}

#[tokio::test]
async fn grandchildren_holding_the_output_are_killed_after_the_hook_exits() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        &format!("sleep 1000 & (sleep 1000 & sleep 1000) & {DENY}"),
    );
    let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
    // The hook's own answer counts; the leftovers are named and killed.
    check(
        &agg,
        "blocked - -> deny",
        "left processes holding its output open",
    );
    guard.assert_none_left().await;
}

#[tokio::test]
async fn grandchildren_that_detach_do_not_delay_the_hook_and_are_left_by_design() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        &format!("sleep 1000 >/dev/null 2>&1 </dev/null & {DENY}"),
    );
    let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
    check(&agg, "blocked - -> deny", "hostile but answered");
    // A background process that let go of the hook's output is the host's business (as
    // in Claude Code: hooks start servers this way); docs/exec.md says so. The suite
    // cleans it up itself.
    assert_eq!(guard.kill_running(), 1);
    guard.assert_none_left().await;
}

/// The pids a hook wrote to `name` in the fixture, one a line.
fn pids(fx: &Fixture, name: &str) -> Vec<i32> {
    fx.read(name)
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// Which of `pids` still run once `within` has passed, looking at `/proc` until then (a
/// deadline, not a delay: it returns as soon as none runs).
async fn still_running(pids: &[i32], within: Duration) -> Vec<i32> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let running: Vec<i32> = pids.iter().copied().filter(|&p| is_running(p)).collect();
        if running.is_empty() || tokio::time::Instant::now() >= deadline {
            return running;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Checks that every process a hook recorded in `name` is gone, soon after the dispatch
/// answered (they all sleep far longer than the bound).
async fn assert_gone(fx: &Fixture, name: &str, count: usize) {
    let pids = pids(fx, name);
    assert_eq!(pids.len(), count, "{pids:?}");
    let left = still_running(&pids, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "the hook's processes {left:?} survived it");
}

#[tokio::test]
async fn a_grandchild_escaping_the_group_with_the_output_open_is_killed_with_the_hook() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    // `setsid` puts the grandchild out of the hook's process group and session, still
    // holding stdout; when the hook exits, init adopts it.
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        &format!("setsid sleep 1000 & echo $! > pid; {DENY}"),
    );
    let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
    assert_gone(&fx, "pid", 1).await;
    // The answer the hook printed before it exited still counts, and the message says
    // exactly what was done.
    check(&agg, "blocked - -> deny", "hostile but answered");
    assert!(
        agg.effects.messages.iter().any(
            |m| m.ends_with("left processes holding its output open; its 1 process was killed")
        ),
        "{agg:#?}"
    );
    guard.assert_none_left().await;
}

#[tokio::test]
async fn jobs_of_a_job_control_shell_die_with_the_hook() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    // `set -m` puts each background job in a process group of its own.
    let script = "set -m; sleep 31 & echo $! >> pids; sleep 32 & echo $! >> pids; wait";
    let spec = guard.command(
        BuiltinEvent::PreToolUse,
        CommandLine::Argv(vec!["bash".into(), "-c".into(), script.into()]),
    );
    let agg = hostile(
        &guard,
        &fx,
        spec,
        FailurePolicy::Allow,
        Duration::from_secs(1),
    )
    .await;
    assert_gone(&fx, "pids", 2).await;
    check(
        &agg,
        "timed_out timeout -> none",
        "timed out after 1s; its 3 processes were killed",
    );
    guard.assert_none_left().await;
}

#[tokio::test]
async fn a_new_session_started_by_a_hanging_hook_dies_with_it() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        "setsid sleep 33 & echo $! > pid; sleep 34",
    );
    let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, SHORT).await;
    assert_gone(&fx, "pid", 1).await;
    check(&agg, "timed_out timeout -> block", "processes were killed");
    guard.assert_none_left().await;
}

#[tokio::test]
async fn a_process_that_clears_its_mark_and_leaves_the_lineage_is_found_by_its_output() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    // Out of the group, the session, the lineage (its parent exits) and without the run's
    // mark: only the output pipe it holds still ties it to the hook.
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        &format!("(env -u HOOKS_RUN setsid sleep 1000 & echo $! > pid); {DENY}"),
    );
    let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
    assert_gone(&fx, "pid", 1).await;
    check(&agg, "blocked - -> deny", "its 1 process was killed");
    guard.assert_none_left().await;
}

#[tokio::test]
async fn a_hook_that_closes_its_output_and_keeps_running_times_out() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        &format!("{DENY}; exec >&- 2>&-; sleep 1000"),
    );
    let agg = hostile(&guard, &fx, spec.clone(), FailurePolicy::Allow, SHORT).await;
    check(&agg, "timed_out timeout -> none", "timed out");
    let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, SHORT).await;
    check(&agg, "timed_out timeout -> block", "timed out");
    guard.assert_none_left().await;
}

/// The peak resident set of this process, in KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[tokio::test]
async fn floods_of_100_mb_are_drained_without_being_stored() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    const FLOOD: &str = "yes flood | head -c 104857600";
    let specs = vec![
        guard.script(BuiltinEvent::UserPromptSubmit, FLOOD),
        guard.script(BuiltinEvent::UserPromptSubmit, &format!("{FLOOD} >&2")),
    ];
    let before = peak_rss_kib();
    let ctx = EventContext::user_prompt_submit("hi").cwd(fx.dir());
    let agg = dispatcher(specs).dispatch(&ctx).await;
    let grown = peak_rss_kib().saturating_sub(before);
    // 200 MB stored would raise the peak by far more; what is kept is 1 MiB a stream.
    // (Other tests share this process, hence a loose bound.)
    assert!(grown < 128 * 1024, "peak memory grew by {grown} KiB");
    assert_eq!(agg.hooks.len(), 2);
    for hook in &agg.hooks {
        assert_eq!(hook.run.status.as_str(), "ok", "{hook:?}");
        assert!(hook.run.truncated(), "{hook:?}");
    }
    let kept: usize = agg.effects.additional_context.iter().map(String::len).sum();
    assert!(kept <= hooks_exec::DEFAULT_OUTPUT_CAP, "{kept}");
    host_still_answers(&guard, &fx).await;
    guard.assert_none_left().await;
}

#[tokio::test]
async fn malformed_output_follows_the_failure_policy() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let cases = [
        // Invalid UTF-8 that starts like JSON.
        (r"printf '{\377\376}'", "malformed_output", "UTF-8"),
        // Partial JSON.
        (r#"printf '{"decision": "de'"#, "malformed_output", ""),
        // A JSON array.
        ("echo '[1, 2, 3]'", "malformed_output", "got an array"),
        // 10 MB of JSON, cut at the 1 MiB cap.
        (
            r#"printf '{"reason":"'; yes x | tr -d '\n' | head -c 10485760; printf '"}'"#,
            "malformed_output",
            "stdout was cut at 1048576 bytes",
        ),
    ];
    for (script, kind, needle) in cases {
        let spec = guard.script(BuiltinEvent::PreToolUse, script);
        let agg = hostile(&guard, &fx, spec.clone(), FailurePolicy::Allow, PATIENT).await;
        check(&agg, &format!("failed {kind} -> none"), needle);
        let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
        check(&agg, &format!("failed {kind} -> block"), needle);
    }
    guard.assert_none_left().await;
}

#[tokio::test]
async fn hooks_killed_by_a_signal_are_crashes() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    for (signal, number) in [("KILL", 9), ("SEGV", 11)] {
        let spec = guard.script(BuiltinEvent::PreToolUse, &format!("kill -{signal} $$"));
        let agg = hostile(&guard, &fx, spec.clone(), FailurePolicy::Allow, PATIENT).await;
        check(&agg, "failed crash -> none", &format!("signal {number}"));
        let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
        check(&agg, "failed crash -> block", &format!("signal {number}"));
    }
    guard.assert_none_left().await;
}

#[tokio::test]
async fn hooks_that_cannot_start_follow_the_failure_policy() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let no_exec = fx.write_mode("no-exec.sh", "#!/bin/sh\necho hi\n", 0o644);
    let bad_interpreter = fx.write_mode("bad.sh", "#!/nonexistent/interpreter\necho hi\n", 0o755);
    let path = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let cases = [
        (
            CommandLine::Argv(vec!["/nonexistent/hook".into()]),
            "no such file",
        ),
        (CommandLine::Argv(vec![path(&no_exec)]), "permission denied"),
        (
            CommandLine::Argv(vec![path(&bad_interpreter)]),
            "interpreter `/nonexistent/interpreter` was not found",
        ),
        (CommandLine::Script("/nonexistent/hook".into()), "exit 127"),
        (CommandLine::Script(path(&no_exec)), "exit 126"),
        (CommandLine::Script(path(&bad_interpreter)), "exit 127"),
    ];
    for (command, needle) in cases {
        let spec = guard.command(BuiltinEvent::PreToolUse, command);
        let agg = hostile(&guard, &fx, spec.clone(), FailurePolicy::Allow, PATIENT).await;
        check(&agg, "failed spawn -> none", needle);
        let agg = hostile(&guard, &fx, spec, FailurePolicy::Block, PATIENT).await;
        check(&agg, "failed spawn -> block", needle);
    }
    guard.assert_none_left().await;
}

#[tokio::test]
async fn two_hundred_hooks_on_one_event_answer_in_declaration_order() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let specs: Vec<HookSpec> = (0..200)
        .map(|i| guard.script(BuiltinEvent::UserPromptSubmit, &format!("echo context-{i}")))
        .collect();
    let ctx = EventContext::user_prompt_submit("hi").cwd(fx.dir());
    let agg = dispatcher(specs).dispatch(&ctx).await;
    assert_eq!(agg.hooks.len(), 200);
    assert!(
        agg.hooks.iter().all(|h| h.run.status.as_str() == "ok"),
        "{agg:#?}"
    );
    let expected: Vec<String> = (0..200).map(|i| format!("context-{i}")).collect();
    assert_eq!(agg.effects.additional_context, expected);
    guard.assert_none_left().await;
}

#[tokio::test]
async fn a_thousand_events_in_flight_each_get_their_own_answer() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    // Native hooks get the prompt as `HOOK_INSTRUCTION`; the hook answers it back.
    let spec = guard.script(
        BuiltinEvent::UserPromptSubmit,
        r#"printf '%s\n' "$HOOK_INSTRUCTION""#,
    );
    let dispatcher = dispatcher(vec![spec]);
    let contexts: Vec<EventContext> = (0..1000)
        .map(|i| EventContext::user_prompt_submit(format!("event-{i}")).cwd(fx.dir()))
        .collect();
    let aggs =
        futures_util::future::join_all(contexts.iter().map(|c| dispatcher.dispatch(c))).await;
    for (i, agg) in aggs.iter().enumerate() {
        assert_eq!(
            agg.effects.additional_context,
            vec![format!("event-{i}")],
            "{agg:#?}"
        );
    }
    guard.assert_none_left().await;
}

#[tokio::test]
async fn the_guard_sees_a_marked_process_until_it_is_gone() {
    // The process-table check itself must be able to fail: a marked process it misses
    // would make every test above pass vacuously.
    let guard = Leftovers::new();
    let fx = Fixture::new();
    let spec = guard.script(
        BuiltinEvent::PreToolUse,
        "sleep 1000 >/dev/null 2>&1 </dev/null & echo $! > pid",
    );
    let agg = dispatcher(vec![spec]).dispatch(&fx.pre_tool()).await;
    assert_eq!(agg.hooks[0].run.status.as_str(), "ok", "{agg:#?}");
    let pid: i32 = fx.read("pid").trim().parse().unwrap();
    assert_eq!(guard.running(), vec![pid]);
    assert_eq!(guard.kill_running(), 1);
    assert!(wait_gone(pid).await);
    assert!(guard.running().is_empty());
}

/// Set in the copy of this test binary that runs a test under exhausted descriptors.
const EXHAUSTED: &str = "HOOKS_RELIABILITY_EXHAUSTED";

#[tokio::test]
async fn a_host_holding_every_descriptor_delays_a_guard_but_never_lets_it_fail_open() {
    if std::env::var_os(EXHAUSTED).is_some() {
        return exhausted_host().await;
    }
    // The scenario fills its process's descriptor table, so it runs in a copy of this
    // binary (with a small limit, to fill fast), never beside the other tests.
    let exe = std::env::current_exe().unwrap();
    // Reason: the test starts a copy of itself; only that needs a process of its own.
    #[allow(clippy::disallowed_methods)]
    let mut command = tokio::process::Command::new("sh");
    command
        .arg("-c")
        .arg(r#"ulimit -n 256 && exec "$0" "$@""#)
        .arg(exe)
        .args([
            "--exact",
            "reliability::a_host_holding_every_descriptor_delays_a_guard_but_never_lets_it_fail_open",
            "--nocapture",
        ])
        .env(EXHAUSTED, "1")
        .kill_on_drop(true);
    let out = tokio::time::timeout(PATIENT, command.output())
        .await
        .expect("the exhausted copy hung")
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
}

/// Holds every descriptor this process may open while guards start, and gives them back
/// 200 ms later (a host's burst): each guard must still run and deny.
async fn exhausted_host() {
    let (guard, fx) = (Leftovers::new(), Fixture::new());
    let deny = guard
        .script(BuiltinEvent::PreToolUse, "echo 'no, even now' >&2; exit 2")
        .with_on_failure(FailurePolicy::Allow)
        .with_timeout(PATIENT);
    let dispatcher = dispatcher(vec![deny]);
    let ctx = fx.pre_tool();
    let mut held = Vec::new();
    loop {
        match std::fs::File::open("/dev/null") {
            Ok(file) => held.push(file),
            Err(err) => {
                assert_eq!(err.raw_os_error(), Some(24), "{err}");
                break;
            }
        }
    }
    let release = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        drop(held);
    });
    let aggs = futures_util::future::join_all((0..4).map(|_| dispatcher.dispatch(&ctx))).await;
    release.await.unwrap();
    for agg in &aggs {
        assert_eq!(agg.effects.decision, Decision::Block, "{agg:#?}");
        assert_eq!(
            agg.effects.reason.as_deref(),
            Some("no, even now"),
            "{agg:#?}"
        );
    }
    guard.assert_none_left().await;
}
