//! The integration tests of the `hooks` command line.

#![allow(clippy::unwrap_used)]

mod builtins;
mod events;
mod guard;
