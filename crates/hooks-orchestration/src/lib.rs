//! Task and subagent lifecycle hooks for the hooks engine.
//!
//! This crate defines the `TaskHooks` and `SubagentHooks` traits (no-op defaults, retry
//! decisions), a DAG task runner and a subagent dispatcher that drive them, and the bridge
//! that emits config-level events (TaskCreated, SubagentStop, Fabro stage events) through
//! an event sink defined in `hooks-core`. It depends on `hooks-core` only.
//!
//! Status: the traits and runners are being built (see `ARCHITECTURE.md`); today the crate
//! exposes the core model it builds on.

pub use hooks_core as core;
