//! The background queue for async hooks: bounded, never delaying the event, with overflow
//! counted and reported.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use hooks_core::CancellationToken;
use hooks_core::{Action, EventContext, HookIndex, HookOutcome, HookPos, HookSpec};
use tokio::sync::{Notify, Semaphore, mpsc};

use crate::runner::Runner;

/// One async hook to run: the hook (by its index and declaration index) and its event.
pub(crate) struct Job {
    pub(crate) index: Arc<HookIndex>,
    pub(crate) hook: HookPos,
    pub(crate) ctx: Arc<EventContext>,
}

/// Counts queued and running jobs, and wakes flushers when none are left.
#[derive(Debug, Default)]
struct Pending {
    count: AtomicUsize,
    idle: Notify,
}

impl Pending {
    fn done(&self) {
        if self.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.idle.notify_waiters();
        }
    }
}

/// A bounded queue of async hook runs, served by one worker task that runs up to
/// `concurrency` of them at once. The worker starts with the first job.
pub(crate) struct AsyncQueue {
    capacity: usize,
    concurrency: usize,
    tx: OnceLock<Option<mpsc::Sender<Job>>>,
    runner: Arc<Runner>,
    dropped: AtomicU64,
    pending: Arc<Pending>,
    /// Cancelled when the queue (its dispatcher) is dropped: running jobs are stopped and
    /// queued ones skipped.
    cancel: CancellationToken,
}

impl AsyncQueue {
    pub(crate) fn new(runner: Arc<Runner>, capacity: usize, concurrency: usize) -> AsyncQueue {
        AsyncQueue {
            capacity,
            concurrency,
            tx: OnceLock::new(),
            runner,
            dropped: AtomicU64::new(0),
            pending: Arc::new(Pending::default()),
            cancel: CancellationToken::new(),
        }
    }

    /// Queues `job` without waiting; if the queue is full (or there is no runtime to run it
    /// on), the job is dropped and the total number of drops so far returned.
    pub(crate) fn submit(&self, job: Job) -> Result<(), u64> {
        let Some(tx) = self.tx.get_or_init(|| self.start()) else {
            return Err(self.dropped.fetch_add(1, Ordering::Relaxed) + 1);
        };
        self.pending.count.fetch_add(1, Ordering::AcqRel);
        match tx.try_send(job) {
            Ok(()) => Ok(()),
            Err(_) => {
                self.pending.done();
                Err(self.dropped.fetch_add(1, Ordering::Relaxed) + 1)
            }
        }
    }

    /// How many jobs were dropped.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// How many jobs are queued or running.
    pub(crate) fn pending(&self) -> usize {
        self.pending.count.load(Ordering::Acquire)
    }

    /// Waits until no job is queued or running.
    pub(crate) async fn flush(&self) {
        loop {
            let idle = self.pending.idle.notified();
            let mut idle = std::pin::pin!(idle);
            idle.as_mut().enable();
            if self.pending() == 0 {
                return;
            }
            idle.await;
        }
    }

    fn start(&self) -> Option<mpsc::Sender<Job>> {
        let handle = match tokio::runtime::Handle::try_current() {
            Ok(handle) => handle,
            Err(err) => {
                tracing::warn!(%err, "async hooks need a Tokio runtime; they are dropped");
                return None;
            }
        };
        let (tx, rx) = mpsc::channel(self.capacity);
        handle.spawn(worker(
            rx,
            Arc::clone(&self.runner),
            Arc::new(Semaphore::new(self.concurrency)),
            Arc::clone(&self.pending),
            self.cancel.clone(),
        ));
        Some(tx)
    }
}

impl Drop for AsyncQueue {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// Takes a job only when a run slot is free, so a full set of running jobs leaves the
/// queue's capacity to absorb bursts, and overflow beyond it is dropped, not buffered.
async fn worker(
    mut rx: mpsc::Receiver<Job>,
    runner: Arc<Runner>,
    slots: Arc<Semaphore>,
    pending: Arc<Pending>,
    cancel: CancellationToken,
) {
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            break;
        };
        let Some(job) = rx.recv().await else {
            break;
        };
        let runner = Arc::clone(&runner);
        let pending = Arc::clone(&pending);
        let cancel = cancel.clone();
        tokio::spawn(async move {
            let spec = job.index.spec(job.hook);
            let outcome = if cancel.is_cancelled() {
                HookOutcome::skipped("the dispatcher was dropped before this async hook ran")
            } else {
                runner.run(spec, &job.ctx, &cancel).await
            };
            if let Some(sink) = &runner.sink {
                sink.async_outcome(&job.ctx, spec, &outcome);
                if let Some(message) = rewake_message(spec, &outcome) {
                    sink.rewake(&job.ctx, spec, message);
                }
            }
            drop(slot);
            pending.done();
        });
    }
}

/// The reminder an `asyncRewake` hook wakes the agent with: set when it exited 2 (the
/// command executor put its stderr, or stdout, in the reason).
fn rewake_message<'o>(spec: &HookSpec, outcome: &'o HookOutcome) -> Option<&'o str> {
    let rewake = matches!(&spec.action, Action::Command(c) if c.rewake);
    (rewake && outcome.run.exit_code == Some(2))
        .then_some(outcome.effects.reason.as_deref())
        .flatten()
}
