//! OpenAI Codex CLI: it names no project root (the payload's `cwd` decides); it runs the
//! hooks of its `hooks.json` and `config.toml` files (in `$CODEX_HOME`, the project's
//! `.codex/`, its plugins', `/etc/codex/requirements.toml`) itself.

use super::{Agent, OwnFiles};
use crate::core::Dialect;

/// OpenAI Codex CLI.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Codex,
    project_dir: |_| None,
    own_files: OwnFiles::Dialect,
    event_key: None,
    env_file: None,
};
