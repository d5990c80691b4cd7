//! Task and subagent lifecycle hooks for the hooks engine.
//!
//! Three hook systems can watch one agent at once; this crate holds two of them and the
//! bridge to the third:
//!
//! - [`TaskHooks`]: callbacks around each attempt of a task in a DAG, driven by the
//!   [`TaskRunner`]; [`TaskHooks::on_failure`] answers a [`RetryDecision`].
//! - [`SubagentHooks`]: callbacks around each subagent dispatch, driven by the
//!   [`SubagentDispatcher`] around a host's [`SubagentRunner`];
//!   [`SubagentHooks::on_failure`] answers a [`SubagentRetryDecision`].
//! - Config-level hooks: the runner and the dispatcher emit `TaskCreated`,
//!   `TaskCompleted`, `SubagentStart`, `SubagentStop`, `TeammateIdle` and Fabro's
//!   `stage_start` / `stage_complete` / `stage_failed` / `stage_retrying` through an
//!   [`EventSink`] (the `hooks` facade plugs the exec dispatcher in), and honour the blocks
//!   those events allow.
//!
//! Several hook objects compose: [`TaskHookRegistry`] and [`SubagentHookRegistry`] call
//! them all in registration order and combine their decisions by a documented rule.
//!
//! The crate depends on no async runtime: retry delays go through a host-supplied
//! [`Timer`], cancellation through a [`CancellationToken`], and bounded concurrency through
//! `futures-util`. `docs/orchestration.md` shows how a tokio host plugs in.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use async_trait::async_trait;
//! use hooks_orchestration::{
//!     BoxError, BoxFuture, CancellationToken, RetryDecision, Task, TaskExecutor, TaskHookContext,
//!     TaskHooks, TaskOutcome, TaskRunner, Timer,
//! };
//!
//! struct TokioTimer;
//! impl Timer for TokioTimer {
//!     fn sleep(&self, d: std::time::Duration) -> BoxFuture<'static, ()> {
//!         Box::pin(tokio::time::sleep(d))
//!     }
//! }
//!
//! struct RetryOnce;
//! #[async_trait]
//! impl TaskHooks for RetryOnce {
//!     async fn on_failure(&self, _ctx: &TaskHookContext, _error: &str) -> RetryDecision {
//!         RetryDecision::Retry { delay_secs: 1 }
//!     }
//! }
//!
//! struct Flaky;
//! #[async_trait]
//! impl TaskExecutor for Flaky {
//!     async fn execute(
//!         &self,
//!         ctx: &TaskHookContext,
//!         _cancel: &CancellationToken,
//!     ) -> Result<String, BoxError> {
//!         // The build flakes once; everything else works.
//!         if ctx.task.id == "build" && ctx.attempt == 1 {
//!             Err("flaked".into())
//!         } else {
//!             Ok(format!("{} ok", ctx.task.id))
//!         }
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread", start_paused = true)]
//! # async fn main() {
//! let runner = TaskRunner::new(Arc::new(TokioTimer)).with_hooks(Arc::new(RetryOnce));
//! let tasks = vec![
//!     Task::new("build", "Build").with_max_retries(1),
//!     Task::new("test", "Test").depends_on("build"),
//! ];
//! let report = runner.run(tasks, &Flaky, &CancellationToken::new()).await.unwrap();
//! assert_eq!(
//!     report.outcome("build"),
//!     Some(&TaskOutcome::Completed { output: "build ok".into(), attempts: 2 })
//! );
//! assert!(report.is_success());
//! # }
//! ```

mod bridge;
mod dispatcher;
mod error;
mod graph;
mod registry;
mod runner;
mod subagent;
mod task;
mod timer;

pub use dispatcher::{
    DEFAULT_MAX_DELEGATION_DEPTH, DEFAULT_MAX_STOP_BLOCKS, SubagentDispatcher, SubagentRequest,
    SubagentRun, SubagentRunner,
};
pub use error::Error;
pub use graph::TaskGraph;
pub use hooks_core::{BoxError, BoxFuture, CancellationToken, Cancelled, EventSink, NoopSink};
pub use registry::Registry;

/// The core model this crate builds on (event contexts, aggregates, decisions).
pub use hooks_core as core;
pub use runner::{
    DEFAULT_MAX_CONCURRENCY, DEFAULT_MAX_RETRY_DELAY, RunReport, TaskExecutor, TaskOutcome,
    TaskReport, TaskRunner,
};
pub use subagent::{
    ExecutionMode, SubagentHookContext, SubagentHookRegistry, SubagentHooks, SubagentResult,
    SubagentRetryDecision,
};
pub use task::{
    DEFAULT_MAX_RETRIES, RetryDecision, Task, TaskHookContext, TaskHookRegistry, TaskHooks,
};
pub use timer::Timer;

/// Re-exported so that hook implementors need no direct dependency: `#[async_trait]`.
pub use async_trait::async_trait;
