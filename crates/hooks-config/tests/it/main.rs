//! Integration tests of hooks-config, one module per part.

// Tests unwrap freely, and print expected texts when asked to (`UPDATE_EXPECT=1`).
#![allow(clippy::unwrap_used, clippy::print_stdout)]

mod convert;
mod discover;
mod fabro;
mod fuzz;
mod hostile;
mod interpolation;
mod loaders;
mod mcp;
mod merge;
mod schemas;
mod support;
mod trust;
mod validation;
