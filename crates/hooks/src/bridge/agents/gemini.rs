//! Gemini CLI: its project root is `GEMINI_PROJECT_DIR` (it sets `CLAUDE_PROJECT_DIR`
//! too); it runs the hooks of its `settings.json` files (system, user, project) and its
//! extensions' `hooks/hooks.json` itself.

use super::{Agent, OwnFiles, dir_var};
use crate::core::Dialect;

/// Gemini CLI.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Gemini,
    project_dir: |_| dir_var("GEMINI_PROJECT_DIR").or_else(|| dir_var("CLAUDE_PROJECT_DIR")),
    own_files: OwnFiles::Dialect,
    event_key: None,
    env_file: None,
};
