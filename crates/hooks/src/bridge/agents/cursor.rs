//! Cursor: its project root is its first workspace root (`workspace_roots[0]`), else
//! `CURSOR_PROJECT_DIR`; it runs the hooks of its `hooks.json` files (the project's, the
//! user's, the enterprise one) itself.

use super::{Agent, OwnFiles, dir_var, first_root};
use crate::core::Dialect;

/// Cursor.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Cursor,
    project_dir: |ctx| first_root(ctx).or_else(|| dir_var("CURSOR_PROJECT_DIR")),
    own_files: OwnFiles::Dialect,
    event_key: None,
    env_file: None,
};
