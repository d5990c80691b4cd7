//! A process cap for tests that could fork without bound (a bridge installed in several
//! agents): a pids cgroup where the test runs as root (cgroup v1's `pids` hierarchy or a
//! v2 group), `RLIMIT_NPROC` otherwise, so that a bug fails the test (refused forks, a
//! timeout) instead of taking the machine down. The caged command is started through
//! `sh`, which moves itself into the cage (or lowers its limit) before it execs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A cap of `max` processes that caged commands run under.
pub(crate) struct Cage {
    /// The cgroup's directory, when there is one.
    group: Option<PathBuf>,
    /// The `ulimit -u` a non-root cage sets.
    nproc: u64,
}

impl Cage {
    /// A new cage of `max` processes.
    pub(crate) fn new(max: u64) -> Cage {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let root = rustix::process::geteuid().is_root();
        if !root {
            // RLIMIT_NPROC counts every process of the user: the cap is what runs now
            // plus `max`.
            return Cage {
                group: None,
                nproc: user_processes() + max,
            };
        }
        let name = format!(
            "hooks-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let v1 = Path::new("/sys/fs/cgroup/pids");
        let v2 = Path::new("/sys/fs/cgroup");
        let parent = if v1.join("cgroup.procs").exists() {
            v1
        } else if v2.join("cgroup.controllers").exists() {
            v2
        } else {
            panic!(
                "no pids cgroup to cap the test's processes in (root needs one: RLIMIT_NPROC does not hold root)"
            )
        };
        let group = parent.join(name);
        std::fs::create_dir(&group)
            .unwrap_or_else(|e| panic!("cannot make the cgroup {}: {e}", group.display()));
        std::fs::write(group.join("pids.max"), max.to_string())
            .unwrap_or_else(|e| panic!("cannot cap {}: {e}", group.display()));
        Cage {
            group: Some(group),
            nproc: 0,
        }
    }

    /// `program args..` to be started in the cage: a `sh` that enters it, then execs.
    // The test starts the caged process itself, as a real child process.
    #[allow(clippy::disallowed_methods)]
    pub(crate) fn command(&self, program: &Path, args: &[&str]) -> Command {
        let enter = match &self.group {
            Some(group) => format!("echo $$ > '{}/cgroup.procs' || exit 97", group.display()),
            // bash's name for the limit is -u, dash's -p.
            None => format!(
                "ulimit -u {n} 2>/dev/null || ulimit -p {n} || exit 97",
                n = self.nproc
            ),
        };
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("{enter}; exec \"$0\" \"$@\""))
            .arg(program)
            .args(args);
        cmd
    }

    /// How many forks the cap refused (`max` in `pids.events`); `None` without a cgroup
    /// (a refused fork then shows as a failed hook or a timeout).
    pub(crate) fn refused(&self) -> Option<u64> {
        let group = self.group.as_ref()?;
        let events = std::fs::read_to_string(group.join("pids.events")).ok()?;
        events
            .lines()
            .find_map(|l| l.strip_prefix("max "))
            .and_then(|n| n.trim().parse().ok())
    }

    /// The processes left in the cage, waiting up to `within` for them to end (a bridge's
    /// detached worker ends by itself); empty without a cgroup.
    pub(crate) fn left_running(&self, within: Duration) -> Vec<String> {
        let Some(group) = &self.group else {
            return Vec::new();
        };
        let deadline = Instant::now() + within;
        loop {
            let procs = std::fs::read_to_string(group.join("cgroup.procs")).unwrap_or_default();
            let left: Vec<String> = procs.lines().map(str::to_owned).collect();
            if left.is_empty() || Instant::now() >= deadline {
                return left
                    .iter()
                    .map(|pid| {
                        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
                            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
                            .unwrap_or_default();
                        format!("{pid}: {cmdline}")
                    })
                    .collect();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Cage {
    fn drop(&mut self) {
        let Some(group) = &self.group else {
            return;
        };
        // Whatever is left is killed, so the group can be removed.
        if let Ok(procs) = std::fs::read_to_string(group.join("cgroup.procs")) {
            for pid in procs.lines().filter_map(|p| p.parse::<i32>().ok()) {
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::fs::remove_dir(group).is_err() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The processes of this user now.
fn user_processes() -> u64 {
    let me = rustix::process::getuid().as_raw();
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
                .filter(|e| {
                    use std::os::unix::fs::MetadataExt;
                    e.metadata().is_ok_and(|m| m.uid() == me)
                })
                .count() as u64
        })
        .unwrap_or(0)
}

/// Runs `cmd` with `stdin`, killed after `limit`: its exit code (`None` when killed),
/// stdout, stderr and how long it took.
pub(crate) fn run_within(
    cmd: &mut Command,
    stdin: &str,
    limit: Duration,
) -> (Option<i32>, String, String, Duration) {
    use std::io::Write;
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    let pid = child.id();
    let (done, waited) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let out = child.wait_with_output();
        let _ = done.send(());
        out
    });
    if waited.recv_timeout(limit).is_err()
        && let Some(pid) = rustix::process::Pid::from_raw(pid as i32)
    {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
    let out = waiter.join().unwrap().unwrap();
    let elapsed = start.elapsed();
    let code = if elapsed >= limit {
        None
    } else {
        out.status.code()
    };
    (
        code,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed,
    )
}
