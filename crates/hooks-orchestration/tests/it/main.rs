//! Integration tests of hooks-orchestration: one module per part.

#![allow(clippy::unwrap_used)]

mod bridge;
mod cancel;
mod dispatcher;
mod registry;
mod runner;
mod support;
