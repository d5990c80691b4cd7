//! The clock the runner and the dispatcher wait on, supplied by the host.
//!
//! Orchestration never depends on an async runtime, so retry delays go through this small
//! trait; a tokio host implements it with `tokio::time::sleep` (see `docs/orchestration.md`).

use std::time::Duration;

use hooks_core::{BoxFuture, CancellationToken};

/// Sleeps for a while, on the host's runtime.
///
/// A tokio host:
///
/// ```
/// struct TokioTimer;
/// impl hooks_orchestration::Timer for TokioTimer {
///     fn sleep(&self, d: std::time::Duration) -> hooks_orchestration::BoxFuture<'static, ()> {
///         Box::pin(tokio::time::sleep(d))
///     }
/// }
/// ```
pub trait Timer: Send + Sync {
    /// A future that completes after `duration`. Dropping it must stop the wait.
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()>;
}

/// Waits `delay` on `timer` unless `cancel` fires first; `false` if it was cancelled.
/// A zero delay does not touch the timer.
pub(crate) async fn sleep_or_cancel(
    timer: &dyn Timer,
    delay: Duration,
    cancel: &CancellationToken,
) -> bool {
    if delay.is_zero() {
        return !cancel.is_cancelled();
    }
    cancel
        .run_until_cancelled(timer.sleep(delay))
        .await
        .is_some()
}
