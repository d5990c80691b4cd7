//! The integration tests of the `hooks` command line.

#![allow(clippy::unwrap_used)]

mod events;
mod guard;
