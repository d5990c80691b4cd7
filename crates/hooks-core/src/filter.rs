//! Filters (Autohand's tool lists and path globs) and Claude's per-handler `if` conditions.

/// Tool-name and path filters.
#[derive(Clone, Debug, Default)]
pub struct Filter {}

/// A Claude-style `if` condition.
#[derive(Clone, Debug)]
pub struct IfCondition {}
