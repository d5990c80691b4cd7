//! Execution for the hooks engine.
//!
//! This crate runs matched [`hooks_core::HookSpec`]s: command hooks in their own process
//! group with capped output and group kill on timeout, HTTP hooks through one reused
//! client, MCP tool hooks over rmcp, prompt hooks through a host-supplied evaluator, and
//! fixed permission decisions. Its dispatcher runs the hooks an event matches, bounded and
//! concurrent, and folds their outcomes with [`hooks_core::aggregate`]. It is the only crate
//! of the workspace that starts processes.
//!
//! Depend on it to run hooks you already have as [`hooks_core::HookSpec`]s (from your own
//! config types, or from `hooks-config`); agent authors usually want the `hooks` facade,
//! which wires the two. The behaviour (timeouts per dialect, working directories, the
//! sandbox, deduplication, the async queue, the stop-loop cap, the audit log and the
//! notifications) is described in `docs/exec.md`.
//!
//! # Example
//!
//! ```
//! use hooks_core::{Action, BuiltinEvent, Decision, EventContext, HookIndex, HookSpec, Matcher};
//! use hooks_exec::Dispatcher;
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! // A guard script on Bash commands: exit 2 blocks, with stderr as the reason.
//! let guard = HookSpec::new(
//!     BuiltinEvent::PreToolUse,
//!     Action::script("grep -q 'rm -rf' && { echo 'refusing rm -rf' >&2; exit 2; }; exit 0"),
//! )
//! .with_id("no-rm-rf")
//! .with_matcher(Matcher::parse("Bash").unwrap());
//! let dispatcher = Dispatcher::new(HookIndex::new(vec![guard]));
//!
//! let ctx = EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"}));
//! let outcome = dispatcher.dispatch(&ctx).await;
//! assert_eq!(outcome.effects.decision, Decision::Block);
//! assert_eq!(outcome.effects.reason.as_deref(), Some("refusing rm -rf"));
//!
//! let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
//! assert_eq!(dispatcher.dispatch(&ctx).await.effects.decision, Decision::None);
//! # }
//! ```
//!
//! # Crate feature flags
//!
//! - `http` (default): the HTTP hook executor (reqwest).
//! - `tls`: TLS for HTTP hooks (rustls).
//! - `mcp` (default): the MCP tool hook executor (rmcp).
//! - `otel`: OpenTelemetry export ([`otel`]): dispatched events as OTLP/HTTP protobuf span
//!   trees and metrics, configured by the standard `OTEL_*` variables, and their export
//!   (turns on `http`).
//!
//! Command, prompt and permission hooks, the dispatcher, the sandbox, the audit log and the
//! notification sink need no feature.
//!
//! # Supported Rust versions
//!
//! The minimum supported Rust version is the workspace's `rust-version` (1.89).

mod audit;
mod budget;
mod channel;
mod clock;
mod command;
mod depth;
mod dispatch;
mod error;
mod executor;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "mcp")]
mod mcp;
mod notify;
#[cfg(feature = "otel")]
pub mod otel;
mod permission;
mod prepare;
mod prompt;
mod queue;
mod reap;
mod runner;
mod sandbox;
mod spawn;
mod stop_loop;
mod timeouts;

pub use audit::{AuditLog, DEFAULT_AUDIT_LOG_MAX_SIZE};
pub use budget::{DEFAULT_MAX_PROCESSES, MAX_PROCESSES_VAR};
pub use channel::{
    MAX_ANSWER_BYTES, MAX_QUESTION_BYTES, MAX_QUESTIONS_PER_RUN, PROMPT_SOCKET_ENV,
    ask_prompt_channel,
};
pub use command::{
    CommandExecutor, CommandExecutorBuilder, DEFAULT_KILL_GRACE, DEFAULT_ORPHAN_GRACE,
    DEFAULT_OUTPUT_CAP,
};
pub use depth::{DEPTH_VAR, depth as nesting_depth, is_nested};
pub use dispatch::{
    DEFAULT_ASYNC_CAPACITY, DEFAULT_ASYNC_CONCURRENCY, DEFAULT_MAX_CONCURRENCY,
    DEFAULT_STOP_LOOP_CAP, Dispatcher, DispatcherBuilder,
};
pub use error::Error;
pub use executor::{Executor, ExecutorExt, HookRun, WithTimeout};
/// The cancellation token dispatches take: the workspace's one token, also the
/// orchestration runners'.
pub use hooks_core::CancellationToken;
#[cfg(feature = "http")]
pub use http::{DEFAULT_MAX_RESPONSE_BYTES, EnvLookup, HttpConfig, HttpExecutor};
#[cfg(feature = "mcp")]
pub use mcp::{McpExecutor, McpServerConfig, check_server};
pub use notify::{JsonRpcSink, NotificationSink, autohand_notification, autohand_notifications};
pub use permission::PermissionExecutor;
pub use prepare::{Prepare, Prepared};
pub use prompt::{BoxError, PromptEvaluator, PromptExecutor, PromptRequest, PromptVerdict};
pub use sandbox::{BubblewrapSandbox, Sandbox, SandboxCommand};
pub use spawn::{Helper, spawn_detached, spawn_with_env};
pub use stop_loop::StopStreaks;
pub use timeouts::{MAX_TIMEOUT, Timeouts};
