//! The integration tests of hooks-core, one module per part of the model.

#![allow(clippy::unwrap_used)]

mod aggregate;
mod cline_events;
mod context;
mod cursor_read;
mod dedupe;
mod env_file;
mod events;
mod filter;
mod index;
mod matcher;
mod output;
mod properties;
mod redact;
mod reply;
mod shell;
mod stop_loop;
mod url_pattern;
