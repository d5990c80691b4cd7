//! The process-wide budget of hooks running as processes at once, sized from the descriptor
//! limit and a ceiling, and the wait for descriptors or processes when the kernel runs out
//! of them.
//!
//! Every command hook holds a few descriptors while it runs (three pipes and a pidfd, twice
//! the pipes while it starts). Without a bound shared by every dispatch, enough events in
//! flight exhaust `RLIMIT_NOFILE`: the spawn fails with `EMFILE`, and a guard that fails
//! open waves the tool call through. So every run of a command hook, whichever dispatcher,
//! queue or executor clone starts it, first takes a permit from one budget and holds it
//! until its process and pipes are gone. The budget is the ceiling
//! ([`DEFAULT_MAX_PROCESSES`], or `$HOOKS_MAX_PROCESSES`), never more than the descriptors
//! allow: `(soft RLIMIT_NOFILE - reserve) / DESCRIPTORS_PER_HOOK` (at least 1). Without a
//! ceiling, a high descriptor limit would let thousands of hook processes (and their
//! memory) run at once. A spawn that still fails for lack of descriptors or processes
//! (`EMFILE`, `ENFILE`, `EAGAIN`: the host itself holds many) is back-pressure, not a hook
//! failure: the run waits for another hook to finish, or a short backoff, and tries again
//! until its own timeout has passed.

use std::sync::OnceLock;
use std::time::Duration;

use rustix::process::{Resource, getrlimit};
use tokio::sync::{Notify, Semaphore, SemaphorePermit};

/// The descriptors one running hook may hold: its three pipe ends and a pidfd, plus the
/// three other pipe ends while it starts, plus a prompt channel's listening socket (and,
/// once the hook runs and the other pipe ends are closed, one connection to it).
const DESCRIPTORS_PER_HOOK: u64 = 8;

/// The fewest descriptors left to the rest of the engine (the runtime, sockets of HTTP and
/// MCP hooks, the audit log, the server's own streams); a quarter of the limit if larger.
const MIN_RESERVE: u64 = 64;

/// The most hooks the budget ever allows, whatever the limit (an unlimited soft limit).
const MAX_BUDGET: u64 = 4096;

/// The first and the longest wait between two spawns that failed for lack of resources.
const FIRST_BACKOFF: Duration = Duration::from_millis(5);
const MAX_BACKOFF: Duration = Duration::from_millis(200);

/// The budget shared by every command hook of this process.
pub(crate) struct Budget {
    permits: Semaphore,
    /// Woken each time a permit is released, for runs waiting to retry a spawn.
    released: Notify,
}

/// A slot of the budget; releasing it wakes runs waiting to retry a spawn.
pub(crate) struct Slot {
    _permit: Option<SemaphorePermit<'static>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        budget().released.notify_waiters();
    }
}

/// The most command hooks of one process running at once unless
/// [`MAX_PROCESSES_VAR`] says otherwise (and the descriptor limit allows fewer).
pub const DEFAULT_MAX_PROCESSES: usize = 32;

/// The variable that sets the most command hooks of one process running at once: a
/// positive integer (other values are ignored, with a warning), never more than the
/// descriptor limit allows.
pub const MAX_PROCESSES_VAR: &str = "HOOKS_MAX_PROCESSES";

/// The budget, sized on first use from the soft descriptor limit and the ceiling.
pub(crate) fn budget() -> &'static Budget {
    static BUDGET: OnceLock<Budget> = OnceLock::new();
    BUDGET.get_or_init(|| {
        let configured = std::env::var(MAX_PROCESSES_VAR).ok();
        let size = size_for(
            getrlimit(Resource::Nofile).current,
            ceiling(configured.as_deref()),
        );
        tracing::debug!(size, "command hooks running at once");
        Budget {
            permits: Semaphore::new(size),
            released: Notify::new(),
        }
    })
}

/// The ceiling `value` of [`MAX_PROCESSES_VAR`] sets: a positive integer, else (unset,
/// empty, zero, negative or not a number) [`DEFAULT_MAX_PROCESSES`], with a warning when it
/// was set to something else.
fn ceiling(value: Option<&str>) -> usize {
    let Some(text) = value.filter(|v| !v.trim().is_empty()) else {
        return DEFAULT_MAX_PROCESSES;
    };
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 => n,
        _ => {
            tracing::warn!(
                value = text,
                default = DEFAULT_MAX_PROCESSES,
                "{MAX_PROCESSES_VAR} is not a positive integer; using the default"
            );
            DEFAULT_MAX_PROCESSES
        }
    }
}

/// How many hooks may run at once under a soft descriptor limit of `limit` (`None`:
/// unlimited) and a ceiling of `ceiling`: the smaller of the two, at least 1.
fn size_for(limit: Option<u64>, ceiling: usize) -> usize {
    let limit = limit.unwrap_or(u64::MAX);
    let reserve = MIN_RESERVE.max(limit / 4);
    let hooks = (limit.saturating_sub(reserve) / DESCRIPTORS_PER_HOOK).clamp(1, MAX_BUDGET);
    usize::try_from(hooks).unwrap_or(1).min(ceiling).max(1)
}

impl Budget {
    /// Waits for a slot. Every slot is held by a run bounded by its own timeout, so the
    /// wait ends. (The semaphore is never closed; were it closed, the run would go ahead
    /// without a slot rather than be lost.)
    pub(crate) async fn slot(&'static self) -> Slot {
        Slot {
            _permit: self.permits.acquire().await.ok(),
        }
    }

    /// Waits until another hook releases its slot, or `backoff` passed (the resources may
    /// be held outside the engine), and returns the next backoff.
    pub(crate) async fn wait_for_release(&self, backoff: Duration) -> Duration {
        let _ = tokio::time::timeout(backoff, self.released.notified()).await;
        (backoff * 2).min(MAX_BACKOFF)
    }
}

/// The first wait after a spawn failed for lack of resources.
pub(crate) const fn first_backoff() -> Duration {
    FIRST_BACKOFF
}

/// Whether a spawn failed because the process or the system ran out of descriptors or
/// processes: worth waiting for, not the hook's fault.
pub(crate) fn is_exhaustion(err: &std::io::Error) -> bool {
    let Some(code) = err.raw_os_error() else {
        return false;
    };
    let errno = rustix::io::Errno::from_raw_os_error(code);
    errno == rustix::io::Errno::MFILE
        || errno == rustix::io::Errno::NFILE
        || errno == rustix::io::Errno::AGAIN
}

#[cfg(test)]
mod tests {
    use super::{DEFAULT_MAX_PROCESSES, ceiling, size_for};

    #[track_caller]
    fn check(limit: Option<u64>, ceiling: usize, expect: usize) {
        assert_eq!(
            size_for(limit, ceiling),
            expect,
            "{limit:?}, ceiling {ceiling}"
        );
    }

    #[test]
    fn the_budget_follows_the_descriptor_limit_under_the_ceiling() {
        // The descriptors allow (limit - max(64, limit / 4)) / 8; the ceiling caps it.
        check(Some(1024), 4096, 96);
        check(Some(256), 4096, 24);
        check(Some(20_000), 4096, 1875);
        check(Some(64), 4096, 1);
        check(Some(0), 4096, 1);
        check(None, usize::MAX, 4096);
        // The default ceiling holds wherever the descriptors would allow more.
        check(Some(1024), DEFAULT_MAX_PROCESSES, 32);
        check(None, DEFAULT_MAX_PROCESSES, 32);
        check(Some(20_000), DEFAULT_MAX_PROCESSES, 32);
        // It never allows more than the descriptors do.
        check(Some(256), DEFAULT_MAX_PROCESSES, 24);
        check(Some(64), DEFAULT_MAX_PROCESSES, 1);
        check(Some(1024), 500, 96);
        // A ceiling lower than both wins; there is always one slot.
        check(Some(1024), 3, 3);
        check(Some(1024), 0, 1);
    }

    #[test]
    fn the_ceiling_is_a_positive_integer_or_the_default() {
        for (value, expect) in [
            (None, DEFAULT_MAX_PROCESSES),
            (Some(""), DEFAULT_MAX_PROCESSES),
            (Some("8"), 8),
            (Some(" 200 "), 200),
            (Some("1"), 1),
            (Some("0"), DEFAULT_MAX_PROCESSES),
            (Some("-4"), DEFAULT_MAX_PROCESSES),
            (Some("many"), DEFAULT_MAX_PROCESSES),
            (Some("2.5"), DEFAULT_MAX_PROCESSES),
        ] {
            assert_eq!(ceiling(value), expect, "{value:?}");
        }
    }
}
