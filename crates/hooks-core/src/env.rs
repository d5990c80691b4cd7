//! Environment variables for command hooks. PLACEHOLDER, being written.

use crate::context::EventContext;
use crate::dialect::Dialect;

/// The environment variables a hook of `dialect` gets for `ctx`.
pub fn env_vars(ctx: &EventContext, dialect: Dialect) -> Vec<(String, String)> {
    let _ = (ctx, dialect);
    Vec::new()
}
