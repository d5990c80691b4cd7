//! Test fixtures for hooks run as real processes: a temporary directory with scripts and
//! FIFOs, readiness signals the hooks write, and a check that a process is gone.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hooks_core::CancellationToken;
use hooks_core::{EventContext, HookOutcome, HookSpec};
use hooks_exec::{CommandExecutor, Executor, HookRun};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, PidfdFlags, pidfd_open};
use serde_json::json;

/// A temporary directory holding a test's scripts, FIFOs and the files hooks write.
pub(crate) struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    pub(crate) fn new() -> Fixture {
        Fixture {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The directory as a string, for contexts and scripts.
    pub(crate) fn dir(&self) -> String {
        self.path().to_str().unwrap().to_owned()
    }

    /// `name` inside the directory.
    pub(crate) fn file(&self, name: &str) -> PathBuf {
        self.path().join(name)
    }

    /// Writes an executable `#!/bin/sh` script and returns its path.
    pub(crate) fn script(&self, name: &str, body: &str) -> PathBuf {
        self.write_mode(name, &format!("#!/bin/sh\n{body}\n"), 0o755)
    }

    /// Writes a file with `mode` and returns its path.
    pub(crate) fn write_mode(&self, name: &str, content: &str, mode: u32) -> PathBuf {
        let path = self.file(name);
        std::fs::write(&path, content).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }

    /// Creates a FIFO: a hook opening it for writing blocks until the test reads it, so it
    /// is a readiness signal with no polling.
    pub(crate) fn fifo(&self, name: &str) -> PathBuf {
        let path = self.file(name);
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &path,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        path
    }

    /// Reads a file a hook wrote.
    pub(crate) fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap()
    }

    /// A PreToolUse context for `Bash` whose working directory is the fixture.
    pub(crate) fn pre_tool(&self) -> EventContext {
        EventContext::pre_tool_use("Bash", json!({"command": "ls"}))
            .session_id("s-1")
            .cwd(self.dir())
    }
}

/// Reads everything a hook writes to the FIFO at `path` (blocks until a writer opened and
/// closed it).
pub(crate) async fn read_fifo(path: &Path) -> String {
    let path = path.to_owned();
    let read = tokio::task::spawn_blocking(move || std::fs::read_to_string(path));
    tokio::time::timeout(Duration::from_secs(30), read)
        .await
        .expect("the hook never signalled readiness")
        .unwrap()
        .unwrap()
}

/// Waits (at most 10 s) until process `pid` has exited; false if it is still running then.
/// Uses a pidfd, which becomes readable when the process exits: a signal, not a poll loop.
pub(crate) async fn wait_gone(pid: i32) -> bool {
    let Some(pid) = Pid::from_raw(pid) else {
        return true;
    };
    let fd = match pidfd_open(pid, PidfdFlags::empty()) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::SRCH) => return true,
        Err(err) => panic!("pidfd_open: {err}"),
    };
    tokio::task::spawn_blocking(move || {
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        let timeout = Timespec {
            tv_sec: 10,
            tv_nsec: 0,
        };
        poll(&mut fds, Some(&timeout)).unwrap() == 1
    })
    .await
    .unwrap()
}

/// Whether process `pid` runs now (exists and is not a zombie).
pub(crate) fn is_running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            // The state is the first field after the parenthesised command name.
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Runs `spec` once with `exec`, with `timeout`.
pub(crate) async fn run_with(
    exec: &CommandExecutor,
    spec: &HookSpec,
    ctx: &EventContext,
    timeout: Duration,
) -> HookOutcome {
    let cancel = CancellationToken::new();
    exec.execute(HookRun {
        spec,
        ctx,
        timeout,
        cancel: &cancel,
    })
    .await
}

/// Runs `spec` once with the default command executor and a 30 s timeout.
pub(crate) async fn run(spec: &HookSpec, ctx: &EventContext) -> HookOutcome {
    run_with(
        &CommandExecutor::default(),
        spec,
        ctx,
        Duration::from_secs(30),
    )
    .await
}

/// A writer into shared memory, to read back what an audit log or a sink wrote.
#[derive(Clone, Default)]
pub(crate) struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedBuf {
    /// Everything written so far, as text.
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }

    /// Every line written so far, parsed as JSON.
    pub(crate) fn json_lines(&self) -> Vec<serde_json::Value> {
        self.text()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

impl std::io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
