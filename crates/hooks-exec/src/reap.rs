//! Ending every process a command hook started, not only its process group, and saying
//! exactly which ones survived.
//!
//! A hook leads its own process group, but what it starts can leave it: a job-control
//! shell (`set -m`) puts each job in a group of its own, `setsid` starts a new session, and
//! a process whose parent exits is adopted by init. So when a run is ended (a timeout, a
//! cancellation, or output left open after the hook exited) the engine reads the process
//! table and signals, besides the group:
//!
//! - the hook's main process while it is still the engine's child,
//! - every process holding the other end of the hook's stdout or stderr pipe (the engine
//!   keeps its own ends open until the run is over, so they name the run's pipes),
//! - every process carrying the run's mark, `HOOKS_RUN=<engine pid>.<run>`: the engine
//!   sets it in the hook's environment and everything the hook starts inherits it, however
//!   it is re-parented or regrouped,
//! - and every descendant of those (by parent links), which catches processes that
//!   cleared their environment while their parent lives.
//!
//! Each process is signalled through a pidfd opened after checking its start time, so a
//! pid reused in between is never signalled. After SIGKILL the engine checks that each
//! process it signalled is gone, and the outcome names those that are not.
//!
//! None of this runs for a hook that exits and closes its output: the normal path reads no
//! process table.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::os::fd::RawFd;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rustix::process::{Pid, Signal};

/// The variable marking every process of one run.
pub(crate) const RUN_MARK: &str = "HOOKS_RUN";

/// How often the survivors of a SIGKILL are looked at again, within the grace period, at
/// most; the first look again comes after [`SURVIVOR_POLL_FIRST`], then the wait doubles.
const SURVIVOR_POLL: Duration = Duration::from_millis(10);

/// The first wait before looking at the survivors of a SIGKILL again.
const SURVIVOR_POLL_FIRST: Duration = Duration::from_millis(1);

/// How many times SIGKILL is sent to what is found, while each pass finds processes the
/// last one did not (a hook forking as fast as it is killed).
const KILL_PASSES: usize = 4;

/// The value of [`RUN_MARK`] for a new run: unique in this process and across processes.
pub(crate) fn next_mark() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// One line of the process table.
#[derive(Clone, Debug)]
struct Proc {
    pid: i32,
    ppid: i32,
    pgrp: i32,
    /// Start time, in clock ticks since boot: with the pid, it names one process.
    start: u64,
    /// The state letter (`R`, `S`, `Z`, ...).
    state: char,
    comm: String,
}

impl Proc {
    fn is_running(&self) -> bool {
        !matches!(self.state, 'Z' | 'X' | 'x')
    }
}

/// Reads `/proc/PID/stat` of `pid`.
fn stat(pid: i32) -> Option<Proc> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `PID (COMM) STATE PPID PGRP ...`: COMM may hold spaces and parentheses, so it ends
    // at the last `)`.
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text.get(open + 1..close)?.to_owned();
    let mut fields = text.get(close + 1..)?.split_ascii_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    // Field 22 is the start time; 4 fields (state to pgrp) are read, so it is 18 further.
    let start = fields.nth(17)?.parse().ok()?;
    Some(Proc {
        pid,
        ppid,
        pgrp,
        start,
        state,
        comm,
    })
}

/// Every process on the table.
fn table() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(stat)
        .collect()
}

/// What `/proc/self/fd/FD` reads for each of `fds` (`pipe:[INODE]`).
fn pipe_names(fds: &[RawFd]) -> Vec<PathBuf> {
    fds.iter()
        .filter_map(|fd| std::fs::read_link(format!("/proc/self/fd/{fd}")).ok())
        .filter(|name| name.as_os_str().as_encoded_bytes().starts_with(b"pipe:"))
        .collect()
}

/// Whether `pid` has one of the pipes `names` open.
fn holds(pid: i32, names: &[PathBuf]) -> bool {
    if names.is_empty() {
        return false;
    }
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.filter_map(Result::ok)
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .any(|name| names.contains(&name))
}

/// Whether `pid`'s environment holds `needle` (`NAME=value`).
fn carries(pid: i32, needle: &[u8]) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == needle))
}

/// Where to look for the processes of one run.
struct Roots<'a> {
    /// The main process, while it is the engine's unreaped child.
    leader: Option<i32>,
    /// The group the main process leads.
    pgid: Option<i32>,
    /// The run's mark.
    mark: &'a str,
    /// The run's output pipes, as `/proc/PID/fd/N` reads them.
    pipes: &'a [PathBuf],
}

/// The processes of one run on `procs`: the main process, its group, those carrying the
/// mark or holding the run's pipes, and the descendants of all of those.
fn members(procs: &[Proc], roots: &Roots<'_>) -> Vec<Proc> {
    let needle = format!("{RUN_MARK}={}", roots.mark);
    let own = i32::try_from(std::process::id()).unwrap_or(0);
    let mut children: HashMap<i32, Vec<usize>> = HashMap::new();
    for (i, p) in procs.iter().enumerate() {
        children.entry(p.ppid).or_default().push(i);
    }
    let mut found = vec![false; procs.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, p) in procs.iter().enumerate() {
        if p.pid == own {
            continue;
        }
        // The engine's other children (other hooks' main processes, MCP servers, the
        // host's own) are never the run's: one that is starting may hold a copy of the
        // engine's descriptors for an instant, until it execs.
        let root = Some(p.pid) == roots.leader
            || Some(p.pgrp) == roots.pgid
            || (p.is_running()
                && p.ppid != own
                && (carries(p.pid, needle.as_bytes()) || holds(p.pid, roots.pipes)));
        if root {
            found[i] = true;
            stack.push(i);
        }
    }
    while let Some(i) = stack.pop() {
        for &child in children.get(&procs[i].pid).map_or(&[][..], Vec::as_slice) {
            if !found[child] && procs[child].pid != own {
                found[child] = true;
                stack.push(child);
            }
        }
    }
    procs
        .iter()
        .zip(found)
        .filter(|(p, found)| *found && p.is_running())
        .map(|(p, _)| p.clone())
        .collect()
}

/// Sends `signal` to `p` if it is still the process that was read (same start time).
fn signal(p: &Proc, signal: Signal) {
    let Some(pid) = Pid::from_raw(p.pid) else {
        return;
    };
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{PidfdFlags, pidfd_open, pidfd_send_signal};
        // The pidfd pins the process; the start time read after opening it says it is the
        // one seen on the table, not a new one that got its pid.
        let Ok(fd) = pidfd_open(pid, PidfdFlags::empty()) else {
            return;
        };
        if stat(p.pid).is_some_and(|now| now.start == p.start)
            && let Err(err) = pidfd_send_signal(&fd, signal)
            && err != rustix::io::Errno::SRCH
        {
            tracing::warn!(pid = p.pid, %err, "cannot signal a process a hook started");
        }
    }
    #[cfg(not(target_os = "linux"))]
    if stat(p.pid).is_some_and(|now| now.start == p.start)
        && let Err(err) = rustix::process::kill_process(pid, signal)
        && err != rustix::io::Errno::SRCH
    {
        tracing::warn!(pid = p.pid, %err, "cannot signal a process a hook started");
    }
}

/// The processes of one run that were signalled, to end them and check they are gone.
#[derive(Debug)]
pub(crate) struct RunProcesses {
    mark: String,
    /// The main process, while the engine has not reaped it (its pid is not reused).
    leader: Option<i32>,
    /// The group the main process leads.
    pgid: Option<i32>,
    /// The engine's ends of the run's output pipes (open until the run is over).
    pipes: Vec<RawFd>,
    /// Every process signalled so far, by pid: its start time and name.
    signalled: BTreeMap<i32, (u64, String)>,
}

impl RunProcesses {
    /// The processes of the run marked `mark`, whose main process is `leader`.
    pub(crate) fn new(mark: String, leader: Option<u32>) -> RunProcesses {
        let leader = leader.and_then(|id| i32::try_from(id).ok());
        RunProcesses {
            mark,
            leader,
            pgid: leader,
            pipes: Vec::new(),
            signalled: BTreeMap::new(),
        }
    }

    /// The engine's ends of the run's stdout and stderr pipes; they must stay open while
    /// this is used.
    pub(crate) fn set_pipes(&mut self, fds: Vec<RawFd>) {
        self.pipes = fds;
    }

    /// The main process was reaped: its pid may be reused, so it no longer names the run.
    /// Records that both output pipes reached their end: no process holds them any
    /// more, so later passes need not look for their holders.
    pub(crate) fn output_closed(&mut self) {
        self.pipes.clear();
    }

    pub(crate) fn leader_reaped(&mut self) {
        self.leader = None;
    }

    /// Signals every process of the run now on the table and its whole group; with
    /// SIGKILL, again while new ones turn up.
    pub(crate) fn signal_all(&mut self, sig: Signal) {
        // Scanning every process's descriptors is the costly part of a pass, and SIGTERM
        // is only the polite first step: the holders of the output are looked for when
        // SIGKILL follows (if the output is still open by then).
        let pipes = if sig == Signal::KILL {
            pipe_names(&self.pipes)
        } else {
            Vec::new()
        };
        let roots = Roots {
            leader: self.leader,
            pgid: self.pgid,
            mark: &self.mark,
            pipes: &pipes,
        };
        let passes = if sig == Signal::KILL { KILL_PASSES } else { 1 };
        for pass in 0..passes {
            // The table is read before anything is signalled, so that each process the
            // signal ends is counted.
            let found = members(&table(), &roots);
            if pass == 0
                && let Some(pgid) = self.pgid.and_then(Pid::from_raw)
            {
                // The whole group at once, including what forks while the rest is read.
                let _ = rustix::process::kill_process_group(pgid, sig);
            }
            let mut new = 0;
            for p in found {
                signal(&p, sig);
                if self
                    .signalled
                    .insert(p.pid, (p.start, p.comm.clone()))
                    .is_none()
                {
                    new += 1;
                }
            }
            if new == 0 {
                break;
            }
        }
    }

    /// Which signalled processes still run after waiting at most `grace` for them to end,
    /// and which were never signalled because they turned up only now (those get SIGKILL
    /// and are counted too).
    pub(crate) async fn report(&mut self, grace: Duration) -> Report {
        self.signal_all(Signal::KILL);
        let deadline = tokio::time::Instant::now() + grace;
        // Most signalled processes are gone within a millisecond: look again soon, then
        // less often.
        let mut poll = SURVIVOR_POLL_FIRST;
        loop {
            let survivors: Vec<(i32, String)> = self
                .signalled
                .iter()
                .filter(|(pid, (start, _))| {
                    stat(**pid).is_some_and(|p| p.start == *start && p.is_running())
                })
                .map(|(pid, (_, comm))| (*pid, comm.clone()))
                .collect();
            if survivors.is_empty() || tokio::time::Instant::now() >= deadline {
                return Report {
                    signalled: self.signalled.len(),
                    survivors,
                };
            }
            tokio::time::sleep(poll).await;
            poll = (poll * 2).min(SURVIVOR_POLL);
        }
    }
}

/// What became of the processes of a run that was ended.
#[derive(Debug)]
pub(crate) struct Report {
    signalled: usize,
    survivors: Vec<(i32, String)>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.signalled;
        let plural = |n: usize| if n == 1 { "process" } else { "processes" };
        if self.survivors.is_empty() {
            let verb = if n == 1 { "was" } else { "were" };
            return write!(f, "its {n} {} {verb} killed", plural(n));
        }
        let k = self.survivors.len();
        write!(f, "{k} of its {n} {} survived SIGKILL:", plural(n))?;
        for (i, (pid, comm)) in self.survivors.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}pid {pid} ({comm})")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_names_what_survived() {
        let report = |signalled, survivors: &[(i32, &str)]| {
            Report {
                signalled,
                survivors: survivors
                    .iter()
                    .map(|(p, c)| (*p, (*c).to_owned()))
                    .collect(),
            }
            .to_string()
        };
        assert_eq!(report(1, &[]), "its 1 process was killed");
        assert_eq!(report(3, &[]), "its 3 processes were killed");
        assert_eq!(
            report(3, &[(41, "sleep"), (42, "a b")]),
            "2 of its 3 processes survived SIGKILL: pid 41 (sleep), pid 42 (a b)"
        );
    }

    #[test]
    fn the_table_reads_this_process() {
        let me = i32::try_from(std::process::id()).unwrap();
        let p = stat(me).unwrap();
        assert_eq!(p.pid, me);
        assert!(p.is_running());
        assert!(p.start > 0);
    }
}
