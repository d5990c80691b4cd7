//! The sandbox: a sandboxed hook cannot write outside its directory or reach the network,
//! the same hook unsandboxed can; the dialect default; a host's own sandbox.

use std::sync::Arc;
use std::time::Duration;

use hooks_core::{
    Action, BuiltinEvent, CommandAction, CommandLine, Dialect, FailureKind, HookSpec, HookStatus,
};
use hooks_exec::{CommandExecutor, Error, Sandbox, SandboxCommand};
use tokio::net::TcpListener;

use crate::support::{Fixture, run, run_with};

fn hook(dialect: Dialect, sandbox: Option<bool>, argv: &[&str]) -> HookSpec {
    let mut action = CommandAction::new(CommandLine::Argv(
        argv.iter().map(|s| (*s).to_owned()).collect(),
    ));
    action.sandbox = sandbox;
    HookSpec::new(BuiltinEvent::PreToolUse, Action::Command(action)).with_dialect(dialect)
}

#[tokio::test]
async fn a_sandboxed_hook_writes_only_its_own_directory() {
    let work = Fixture::new();
    let outside = Fixture::new();
    let script = format!(
        "echo in > inside.txt && touch '{}/escaped.txt'",
        outside.dir()
    );
    let argv = ["sh", "-c", script.as_str()];

    let outcome = run(&hook(Dialect::Native, Some(true), &argv), &work.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Failed, "{outcome:?}");
    assert_eq!(outcome.run.failure.unwrap().kind, FailureKind::NonZeroExit);
    assert_eq!(work.read("inside.txt"), "in\n");
    assert!(!outside.file("escaped.txt").exists());

    // System paths are there to run programs, but read-only.
    let outcome = run(
        &hook(
            Dialect::Native,
            Some(true),
            &["sh", "-c", "touch /etc/hooks-sandbox-test"],
        ),
        &work.pre_tool(),
    )
    .await;
    assert_eq!(outcome.run.status, HookStatus::Failed, "{outcome:?}");
    assert!(!std::path::Path::new("/etc/hooks-sandbox-test").exists());

    // The same hook unsandboxed writes where it likes.
    let outcome = run(&hook(Dialect::Native, Some(false), &argv), &work.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
    assert!(outside.file("escaped.txt").exists());
}

/// Run as root (as CI and this suite's usual machine do), a sandboxed hook that remounts a
/// read-only path writable and writes there changes nothing on the host: the sandbox holds
/// no capability, whoever runs the engine, and the hook cannot get a full set back in a
/// user namespace of its own. Not run as root, the same attack fails too (or the sandbox
/// cannot start at all, where user namespaces are not allowed).
#[tokio::test]
async fn a_sandboxed_hook_cannot_remount_a_read_only_path_writable_even_as_root() {
    let work = Fixture::new();
    let guarded = Fixture::new();
    let target = guarded.file("guarded.txt");
    std::fs::write(&target, "original\n").unwrap();
    let exec = CommandExecutor::builder()
        .sandbox(Arc::new(
            hooks_exec::BubblewrapSandbox::default().read_only(guarded.path()),
        ))
        .build();
    let dir = guarded.dir();
    // Each step is tried whatever the one before did; the hook reports what worked in its
    // working directory, the one place it may write.
    let attack = format!(
        "mount -o remount,rw,bind '{dir}' || mount -o remount,rw '{dir}'; \
         echo hacked > '{dir}/guarded.txt'"
    );
    let script = format!(
        "{{ mount -o remount,rw,bind '{dir}' && echo remounted; \
           mount -o remount,rw '{dir}' && echo remounted; \
           mount -o remount,rw,bind /usr && echo usr-remounted; \
           echo hacked > '{dir}/guarded.txt' && echo written; \
           unshare -U true && echo userns; \
           unshare -Urm sh -c \"{attack}\" && echo userns-written; \
           grep CapEff /proc/self/status; }} > report.txt 2>&1"
    );
    let outcome = run_with(
        &exec,
        &hook(Dialect::Native, Some(true), &["sh", "-c", script.as_str()]),
        &work.pre_tool(),
        Duration::from_secs(30),
    )
    .await;
    let report = std::fs::read_to_string(work.file("report.txt"));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "original\n",
        "{report:?} {outcome:?}"
    );
    let Ok(report) = report else {
        // Only an ordinary user may be refused user namespaces: then nothing ran at all.
        assert!(!rustix::process::geteuid().is_root(), "{outcome:?}");
        assert_ne!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
        return;
    };
    let worked: Vec<&str> = report
        .lines()
        .filter(|l| {
            [
                "remounted",
                "usr-remounted",
                "written",
                "userns",
                "userns-written",
            ]
            .contains(l)
        })
        .collect();
    assert_eq!(worked, Vec::<&str>::new(), "{report}");
    assert!(report.contains("CapEff:\t0000000000000000"), "{report}");
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
}

#[tokio::test]
async fn a_sandboxed_hook_cannot_reach_the_network_unless_allowed() {
    let work = Fixture::new();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo hello >&3");
    let argv = ["bash", "-c", script.as_str()];

    let outcome = run(&hook(Dialect::Native, Some(true), &argv), &work.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Failed, "{outcome:?}");
    let message = outcome.run.failure.unwrap().message;
    assert!(
        message.contains("Connection refused") || message.contains("Network is unreachable"),
        "{message}"
    );

    // Unsandboxed, the same hook connects.
    let accept = tokio::spawn(async move {
        let (stream, _) = listener.accept().await.unwrap();
        (listener, stream)
    });
    let outcome = run(&hook(Dialect::Native, Some(false), &argv), &work.pre_tool()).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
    let (listener, _stream) = tokio::time::timeout(Duration::from_secs(10), accept)
        .await
        .unwrap()
        .unwrap();

    // And sandboxed with the network allowed, too.
    let accept = tokio::spawn(async move { listener.accept().await.unwrap() });
    let exec = CommandExecutor::builder().sandbox_network(true).build();
    let outcome = run_with(
        &exec,
        &hook(Dialect::Native, Some(true), &argv),
        &work.pre_tool(),
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
    tokio::time::timeout(Duration::from_secs(10), accept)
        .await
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn fabro_hooks_are_sandboxed_by_default() {
    let work = Fixture::new();
    let outside = Fixture::new();
    let script = format!("touch '{}/escaped.txt'", outside.dir());
    let argv = ["sh", "-c", script.as_str()];
    let fabro = run(&hook(Dialect::Fabro, None, &argv), &work.pre_tool()).await;
    assert_eq!(fabro.run.status, HookStatus::Failed, "{fabro:?}");
    assert!(!outside.file("escaped.txt").exists());
    let claude = run(&hook(Dialect::Claude, None, &argv), &work.pre_tool()).await;
    assert_eq!(claude.run.status, HookStatus::Ok, "{claude:?}");
    assert!(outside.file("escaped.txt").exists());
    assert!(CommandExecutor::default().is_sandboxed(&hook(Dialect::Fabro, None, &argv)));
    assert!(!CommandExecutor::default().is_sandboxed(&hook(Dialect::Fabro, Some(false), &argv)));
}

#[tokio::test]
async fn a_sandboxed_hook_that_overruns_is_killed() {
    let work = Fixture::new();
    let outcome = run_with(
        &CommandExecutor::default(),
        &hook(
            Dialect::Native,
            Some(true),
            &["sh", "-c", "sleep 1000 & sleep 1000"],
        ),
        &work.pre_tool(),
        Duration::from_secs(1),
    )
    .await;
    assert_eq!(outcome.run.status, HookStatus::TimedOut, "{outcome:?}");
}

#[tokio::test]
async fn a_script_given_by_absolute_path_runs_in_the_sandbox() {
    let work = Fixture::new();
    let scripts = Fixture::new();
    let script = scripts.script(
        "guard.sh",
        r#"echo '{"decision":"deny","reason":"sandboxed guard"}'"#,
    );
    let outcome = run(
        &hook(Dialect::Native, Some(true), &[script.to_str().unwrap()]),
        &work.pre_tool(),
    )
    .await;
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("sandboxed guard"),
        "{outcome:?}"
    );
}

/// A host's own sandbox: here it only marks the environment, through `env`.
#[derive(Debug)]
struct MarkingSandbox;

impl Sandbox for MarkingSandbox {
    fn wrap(&self, command: &SandboxCommand<'_>) -> Result<Vec<String>, Error> {
        let mut argv = vec![
            "env".to_owned(),
            format!("IN_SANDBOX={}", command.cwd.display()),
        ];
        argv.extend(command.argv.iter().cloned());
        Ok(argv)
    }
}

/// A sandbox that cannot run anything.
#[derive(Debug)]
struct BrokenSandbox;

impl Sandbox for BrokenSandbox {
    fn wrap(&self, _: &SandboxCommand<'_>) -> Result<Vec<String>, Error> {
        Err(Error::sandbox("the container is gone"))
    }
}

#[tokio::test]
async fn hosts_plug_in_their_own_sandbox() {
    let work = Fixture::new();
    let exec = CommandExecutor::builder()
        .sandbox(Arc::new(MarkingSandbox))
        .build();
    let spec = hook(
        Dialect::Native,
        Some(true),
        &["sh", "-c", "echo \"$IN_SANDBOX\" > marker"],
    );
    let outcome = run_with(&exec, &spec, &work.pre_tool(), Duration::from_secs(30)).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:?}");
    assert_eq!(work.read("marker").trim(), work.dir());

    let exec = CommandExecutor::builder()
        .sandbox(Arc::new(BrokenSandbox))
        .build();
    let outcome = run_with(&exec, &spec, &work.pre_tool(), Duration::from_secs(30)).await;
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Spawn);
    assert_eq!(
        failure.message,
        "cannot sandbox the hook: the container is gone"
    );
}

#[tokio::test]
async fn a_missing_bubblewrap_is_a_clear_failure() {
    let work = Fixture::new();
    let exec = CommandExecutor::builder()
        .sandbox(Arc::new(
            hooks_exec::BubblewrapSandbox::default().program("/nonexistent/bwrap"),
        ))
        .build();
    let outcome = run_with(
        &exec,
        &hook(Dialect::Native, Some(true), &["true"]),
        &work.pre_tool(),
        Duration::from_secs(30),
    )
    .await;
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::Spawn);
    assert_eq!(
        failure.message,
        "cannot sandbox the hook: `/nonexistent/bwrap` (bubblewrap) is not installed: \
         install it (`apt-get install bubblewrap`) or run the hook with `sandbox = false`"
    );
}
