//! Cline: its project root is its first workspace root (`workspaceRoots[0]`, read into
//! `workspace_roots`); it runs every hook file in its hooks directories itself. It has no
//! settings file: the bridge is installed as hook files, one per event of its own.

use super::{Agent, OwnFiles, first_root, named};
use crate::core::Dialect;

/// Cline (its `cline` CLI and its VS Code extension).
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Cline,
    about: "Cline (its `cline` CLI and its VS Code extension)",
    project_dir: first_root,
    own_files: OwnFiles::Dialect,
    env_file: None,
    event_key: Some("hookName"),
    runs_files_of: &[],
    is_calling: |_| false,
    events: || {
        named(
            Dialect::Cline.profile().builtin_events(),
            crate::core::cline::name_of,
        )
    },
    settings: None,
    plugin: None,
};
