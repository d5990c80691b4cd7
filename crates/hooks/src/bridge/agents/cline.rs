//! Cline: its project root is its first workspace root (`workspaceRoots[0]`, read into
//! `workspace_roots`); it runs every hook file in its hooks directories itself.

use super::{Agent, OwnFiles, first_root};
use crate::core::Dialect;

/// Cline (its `cline` CLI and its VS Code extension).
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Cline,
    project_dir: first_root,
    own_files: OwnFiles::Dialect,
    env_file: None,
    event_key: Some("hookName"),
};
