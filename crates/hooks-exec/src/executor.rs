//! The executor trait: one small trait every hook type implements, and what a run gets.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use hooks_core::CancellationToken;
use hooks_core::{EventContext, FailureKind, HookOutcome, HookSpec};

/// Everything an executor needs for one hook run.
#[derive(Clone, Copy, Debug)]
pub struct HookRun<'a> {
    /// The hook.
    pub spec: &'a HookSpec,
    /// The event's context, as this hook sees it (in a sequential group, with the previous
    /// hook's rewritten input).
    pub ctx: &'a EventContext,
    /// The hook's effective timeout (its own, or the engine's default), already clamped.
    pub timeout: Duration,
    /// Cancelled when the host cancels the dispatch; the executor must stop promptly and
    /// release everything it started (processes, connections).
    pub cancel: &'a CancellationToken,
}

/// Runs one kind of hook.
///
/// An executor never panics and never hangs past `run.timeout` or `run.cancel`: every way a
/// hook can go wrong is a [`HookOutcome`] with a failure (`timed_out`, `failed` with a
/// [`FailureKind`](hooks_core::FailureKind)), to which the dispatcher applies the hook's
/// failure policy.
#[async_trait]
pub trait Executor: Send + Sync {
    /// Runs the hook and reports what it answered.
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome;
}

/// How much longer than a run's timeout [`ExecutorExt::with_timeout`] waits before it gives
/// up on an executor that does not end by itself.
const ENFORCE_MARGIN: Duration = Duration::from_millis(250);

/// Combinators for every [`Executor`].
pub trait ExecutorExt: Executor + Sized {
    /// Caps the executor's timeout at `limit` and enforces it (and cancellation) from the
    /// outside: if the executor has not answered a short margin after the timeout or the
    /// cancellation, its future is dropped and the run ends `timed_out` or cancelled.
    /// `Duration::MAX` enforces each run's own timeout unchanged.
    fn with_timeout(self, limit: Duration) -> WithTimeout<Self> {
        WithTimeout { inner: self, limit }
    }

    /// The executor as a shareable trait object.
    fn into_arc(self) -> Arc<dyn Executor>
    where
        Self: 'static,
    {
        Arc::new(self)
    }
}

impl<E: Executor> ExecutorExt for E {}

/// An executor whose timeout is capped and enforced from the outside; see
/// [`ExecutorExt::with_timeout`].
#[derive(Clone, Debug)]
pub struct WithTimeout<E> {
    inner: E,
    limit: Duration,
}

#[async_trait]
impl<E: Executor> Executor for WithTimeout<E> {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        let timeout = run.timeout.min(self.limit);
        let run = HookRun { timeout, ..run };
        let overrun = timeout.saturating_add(ENFORCE_MARGIN);
        tokio::select! {
            outcome = self.inner.execute(run) => outcome,
            () = tokio::time::sleep(overrun) => HookOutcome::failed(
                FailureKind::Timeout,
                format!("did not answer within {}", humantime::format_duration(timeout)),
            ),
            () = async {
                run.cancel.cancelled().await;
                tokio::time::sleep(ENFORCE_MARGIN).await;
            } => HookOutcome::failed(FailureKind::Cancelled, "the dispatch was cancelled"),
        }
    }
}

#[async_trait]
impl<E: Executor + ?Sized> Executor for Arc<E> {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        (**self).execute(run).await
    }
}
