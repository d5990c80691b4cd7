//! The integration tests of the `hooks` command line.

#![allow(clippy::unwrap_used)]

mod builtins;
mod edit;
mod events;
mod guard;
