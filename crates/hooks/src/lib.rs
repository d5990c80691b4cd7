//! `hooks`: a lifecycle-hooks engine for AI agents.
//!
//! Agents emit lifecycle events (a tool is about to run, a session starts, a subagent
//! stops); users attach hooks to them in config files. The engine matches the hooks, runs
//! them and folds their answers into one deterministic outcome. This facade re-exports the
//! workspace's crates; it holds no logic of its own.
//!
//! Today it re-exports the core model ([`core`], also glob-imported by [`prelude`]); the
//! config loaders, executors and orchestration traits join it as they land.
//!
//! # Example
//!
//! ```
//! use hooks::prelude::*;
//! use serde_json::json;
//!
//! let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
//! // A hook printed Claude Code's JSON answer:
//! let out = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
//! let outcome = parse_output(ctx.event(), Some(0), out, b"");
//! assert_eq!(outcome.decision, Decision::Deny);
//! ```

pub use hooks_core as core;

/// The types most programs need, for a glob import.
pub mod prelude {
    pub use hooks_core::{
        Action, Aggregate, AggregateEntry, BuiltinEvent, Decision, Dialect, Event, EventCatalog,
        EventContext, FailurePolicy, HookIndex, HookOutcome, HookSpec, HookStatus, Matcher,
        aggregate, parse_output,
    };
}
