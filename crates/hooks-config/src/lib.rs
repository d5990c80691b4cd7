//! Configuration loading for the hooks engine.
//!
//! This crate turns config files into [`hooks_core::HookSpec`]s with provenance: our native
//! format and the echo-agent, Fabro, Autohand and Claude Code dialects, merged in layers
//! (built-in < user < project < local < run < command line, managed above all), with
//! interpolation, validation diagnostics (file:line:col) and trust gating for hooks that
//! arrive in a repository. It depends on `hooks-core` only and does no execution.
//!
//! Depend on it if your program reads hook configs; the `hooks` facade re-exports it.
//!
//! Status: the loaders are being built (see `ARCHITECTURE.md`); today the crate exposes
//! the core model it produces.

pub use hooks_core as core;
