//! Execution for the hooks engine.
//!
//! This crate runs matched [`hooks_core::HookSpec`]s: command hooks in their own process
//! group with capped output and group kill on timeout, HTTP hooks through one reused
//! client, MCP tool hooks over rmcp, prompt hooks through a host-supplied evaluator, and
//! fixed permission decisions. Its dispatcher runs the hooks an event matches, bounded and
//! concurrent, and folds their outcomes with [`hooks_core::aggregate`]. It is the only crate
//! of the workspace that starts processes.

mod audit;
mod clock;
mod command;
mod dispatch;
mod error;
mod executor;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "mcp")]
mod mcp;
mod notify;
mod permission;
mod prompt;
mod queue;
mod runner;
mod sandbox;
mod spawn;
mod stop_loop;
mod timeouts;

pub use audit::AuditLog;
pub use command::{
    CommandExecutor, CommandExecutorBuilder, DEFAULT_KILL_GRACE, DEFAULT_ORPHAN_GRACE,
    DEFAULT_OUTPUT_CAP,
};
pub use dispatch::{
    DEFAULT_ASYNC_CAPACITY, DEFAULT_ASYNC_CONCURRENCY, DEFAULT_MAX_CONCURRENCY,
    DEFAULT_STOP_LOOP_CAP, Dispatcher, DispatcherBuilder,
};
pub use error::Error;
pub use executor::{Executor, ExecutorExt, HookRun, WithTimeout};
#[cfg(feature = "http")]
pub use http::{DEFAULT_MAX_RESPONSE_BYTES, EnvLookup, HttpConfig, HttpExecutor};
#[cfg(feature = "mcp")]
pub use mcp::{McpExecutor, McpServerConfig};
pub use notify::{JsonRpcSink, NotificationSink, autohand_notification};
pub use permission::PermissionExecutor;
pub use prompt::{BoxError, PromptEvaluator, PromptExecutor, PromptRequest, PromptVerdict};
pub use sandbox::{BubblewrapSandbox, Sandbox, SandboxCommand};
pub use timeouts::{MAX_TIMEOUT, Timeouts};
