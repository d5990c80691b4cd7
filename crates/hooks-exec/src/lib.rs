//! Execution for the hooks engine.
//!
//! This crate runs matched [`hooks_core::HookSpec`]s: command hooks in their own process
//! group with capped output and group kill on timeout, HTTP hooks through one reused
//! client, MCP tool hooks over rmcp, prompt hooks through a host-supplied evaluator, and
//! fixed permission decisions. Its dispatcher runs the hooks an event matches, bounded and
//! concurrent, and folds their outcomes with [`hooks_core::aggregate`]. It is the only crate
//! of the workspace that starts processes.

mod command;
mod error;
mod executor;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "mcp")]
mod mcp;
mod sandbox;
mod spawn;
mod timeouts;

pub use command::{
    CommandExecutor, CommandExecutorBuilder, DEFAULT_KILL_GRACE, DEFAULT_ORPHAN_GRACE,
    DEFAULT_OUTPUT_CAP,
};
pub use error::Error;
pub use executor::{Executor, ExecutorExt, HookRun, WithTimeout};
#[cfg(feature = "http")]
pub use http::{DEFAULT_MAX_RESPONSE_BYTES, EnvLookup, HttpConfig, HttpExecutor};
#[cfg(feature = "mcp")]
pub use mcp::{McpExecutor, McpServerConfig};
pub use sandbox::{BubblewrapSandbox, Sandbox, SandboxCommand};
pub use timeouts::{MAX_TIMEOUT, Timeouts};
