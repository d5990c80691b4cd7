//! The integration tests of the `hooks` command line.

#![allow(clippy::unwrap_used)]

mod agent_scripts;
mod agent_settings;
mod agents;
mod autohand;
mod bridge;
mod bridge_cline;
mod bridge_opencode;
mod builtins;
mod cage;
mod codex_home;
mod codex_install;
mod codex_trust;
mod completions;
mod compose;
mod convert;
mod daemon;
mod discover;
mod docs;
mod edit;
mod events;
mod explain;
mod fabro;
mod fabro_run;
mod guard;
mod handle;
mod http;
mod list;
mod manage;
mod mcp;
// The docs' Markdown, read as xtask's doc check reads it (one parser for both); not every
// part of it is used here.
#[allow(dead_code)]
#[path = "../../../../xtask/src/markdown.rs"]
mod markdown;
mod migrate;
mod notes;
mod otel;
mod payload;
mod policy;
mod project;
mod public_scripts;
mod replay;
mod run;
mod schema;
mod secrets;
mod serve;
mod smart_commit;
mod support;
mod test;
mod trust;
mod validate;
mod walkthrough;
