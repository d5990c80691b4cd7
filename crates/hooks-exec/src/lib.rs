//! Execution for the hooks engine.
//!
//! This crate runs matched [`hooks_core::HookSpec`]s: command hooks in their own process
//! group with capped output and group kill on timeout, HTTP hooks through one reused
//! client, MCP tool hooks over rmcp, prompt hooks through a host-supplied evaluator, and
//! fixed permission decisions. Its dispatcher runs the hooks an event matches, bounded and
//! concurrent, and folds their outcomes with [`hooks_core::aggregate`]. It is the only crate
//! of the workspace that starts processes.
//!
//! Status: the executors are being built (see `ARCHITECTURE.md`); today the crate exposes
//! the core model it consumes.

pub use hooks_core as core;
