//! `hooks`: a lifecycle-hooks engine for AI agents.
//!
//! Agents emit lifecycle events (a tool is about to run, a session starts, a subagent
//! stops); users attach hooks to them in config files, in any of the dialects agents use
//! (Claude Code, echo-agent, Fabro, Autohand, or this engine's native format). The engine
//! matches the hooks an event selects, runs them, and folds their answers into one
//! deterministic outcome.
//!
//! This facade re-exports the workspace's crates and wires them together in one builder;
//! it holds no engine logic of its own.
//!
//! # Example
//!
//! ```
//! # #[cfg(all(feature = "config", feature = "exec"))]
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use hooks::prelude::*;
//! use serde_json::json;
//!
//! let config = r#"
//! hooks:
//!   - id: no-force-push
//!     event: PreToolUse
//!     matcher: Bash
//!     if: "Bash(git push --force*)"
//!     decision: deny
//!     type: permission
//! "#;
//! let engine = Engine::builder().config_text("inline.yaml", config, Format::Yaml, None).build()?;
//! let ctx = EventContext::pre_tool_use("Bash", json!({"command": "git push --force origin main"}));
//! let outcome = engine.dispatch(&ctx).await;
//! assert_eq!(outcome.effects.decision, Decision::Deny);
//! # Ok(())
//! # }
//! # #[cfg(not(all(feature = "config", feature = "exec")))]
//! # fn main() {}
//! ```
//!
//! # Crate feature flags
//!
//! All on by default:
//!
//! - `config`: the config loaders ([`config`]).
//! - `exec`: the executors and dispatcher ([`exec`]); with `config`, the [`Engine`].
//! - `http`, `mcp`: HTTP and MCP tool hooks; `tls` adds TLS for HTTP hooks (off).
//! - `orchestration`: task and subagent hook traits ([`orchestration`]).
//! - `tokio`: the tokio timer those runners wait on ([`orchestration::TokioTimer`]).
//! - `watch`: hot reload of config files ([`Engine::watch`]).
//! - `bridge`: the agent bridge ([`bridge`], Unix): answering an agent's hook calls as
//!   its one hook command, and installing it into the agent's settings.
//! - `otel`: OpenTelemetry export ([`telemetry`], Unix): each answered event's spans and
//!   metrics posted to an OTLP/HTTP collector by a detached exporter, never on the agent's
//!   clock, when the standard `OTEL_*` variables ask.
//!
//! # Supported Rust versions
//!
//! The minimum supported Rust version is the workspace's `rust-version` (1.89).

pub use hooks_core as core;

#[cfg(feature = "config")]
pub use hooks_config as config;
#[cfg(feature = "exec")]
pub use hooks_exec as exec;
/// Task and subagent hooks: everything of `hooks-orchestration` (see its crate docs), and
/// with the `tokio` feature the tokio [`TokioTimer`](orchestration::TokioTimer).
///
/// The cancellation token here is the one `exec` takes: `hooks::orchestration::
/// CancellationToken` and `hooks::exec::CancellationToken` are the same type.
#[cfg(feature = "orchestration")]
pub mod orchestration {
    pub use hooks_orchestration::*;

    #[cfg(feature = "tokio")]
    pub use crate::timer::TokioTimer;
}

#[cfg(all(feature = "bridge", unix))]
pub mod bridge;
#[cfg(all(feature = "bridge", unix))]
pub mod daemon;
#[cfg(all(feature = "config", feature = "exec"))]
mod engine;
#[cfg(all(feature = "config", feature = "exec"))]
mod error;
#[cfg(all(feature = "otel", unix))]
pub mod telemetry;
#[cfg(feature = "tokio")]
mod timer;

#[cfg(feature = "watch")]
pub use engine::Watcher;
#[cfg(all(feature = "config", feature = "exec"))]
pub use engine::{
    BROKEN_CONFIG_HOOK, BrokenConfig, CacheCounts, Engine, EngineBuilder, LoadCache, Loaded, Reload,
};
#[cfg(all(feature = "config", feature = "exec"))]
pub use error::Error;

// `echo-agent.md` is a symlink to `docs/echo-agent.md`, inside the crate so that `cargo
// package` ships it; its Rust blocks (the seed's examples) are this module's doctests.
#[cfg(all(
    feature = "config",
    feature = "exec",
    feature = "orchestration",
    feature = "tokio"
))]
#[doc = include_str!("../echo-agent.md")]
pub mod echo_agent {}

/// The types most programs need, for a glob import.
pub mod prelude {
    pub use hooks_core::{
        Action, Aggregate, AggregateEntry, BuiltinEvent, Decision, Dialect, Event, EventCatalog,
        EventContext, FailurePolicy, HookIndex, HookOutcome, HookSpec, HookStatus, Matcher,
        aggregate, parse_output,
    };

    #[cfg(feature = "config")]
    pub use hooks_config::Format;

    #[cfg(all(feature = "config", feature = "exec"))]
    pub use crate::{Engine, EngineBuilder};
}
