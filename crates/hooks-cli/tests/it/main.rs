//! The integration tests of the `hooks` command line.

#![allow(clippy::unwrap_used)]

mod builtins;
mod completions;
mod convert;
mod discover;
mod edit;
mod events;
mod explain;
mod guard;
mod handle;
mod list;
mod manage;
mod migrate;
mod notes;
mod payload;
mod policy;
mod project;
mod replay;
mod run;
mod schema;
mod secrets;
mod serve;
mod support;
mod test;
mod trust;
mod validate;
