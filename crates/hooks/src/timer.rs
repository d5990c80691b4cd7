//! The tokio clock for the task runner and the subagent dispatcher, so that a tokio host
//! writes no adapter of its own.

use std::time::Duration;

use hooks_orchestration::{BoxFuture, Timer};

/// The [`Timer`] of a tokio host: retry delays are `tokio::time::sleep`, so they honour a
/// paused clock (`#[tokio::test(start_paused = true)]`) and are cancelled by dropping.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use std::sync::Arc;
/// use hooks::orchestration::{TaskRunner, TokioTimer};
///
/// let runner = TaskRunner::new(Arc::new(TokioTimer));
/// # let _ = runner;
/// # }
/// ```
///
/// Orchestration itself stays runtime-free; another runtime implements [`Timer`] with its
/// own sleep (see `docs/orchestration.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
// ANCHOR: timer
pub struct TokioTimer;

impl Timer for TokioTimer {
    fn sleep(&self, duration: Duration) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(duration))
    }
}
// ANCHOR_END: timer
