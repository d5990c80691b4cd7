//! Claude Code: its project root is `CLAUDE_PROJECT_DIR`; it runs the hooks of its
//! settings files itself; the hooks' exported variables go to its `CLAUDE_ENV_FILE`; the
//! bridge is installed into `.claude/settings.json` (the project's or the user's), on the
//! canonical events.

use std::path::Path;

use super::{Agent, OwnFiles, Scope, Settings, dir_var, home, named};
use crate::core::{BuiltinEvent, Dialect};

/// Claude Code.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Claude,
    about: "Claude Code",
    project_dir: |_| dir_var("CLAUDE_PROJECT_DIR"),
    own_files: OwnFiles::Named(is_settings),
    event_key: None,
    env_file: Some("CLAUDE_ENV_FILE"),
    runs_files_of: &[],
    is_calling: |_| false,
    events: || named(canonical(), |e| Some(e.name())),
    settings: Some(Settings::new(|scope, project| {
        Ok(match scope {
            Scope::User => home()?.join(".claude/settings.json"),
            Scope::Project => project.join(".claude/settings.json"),
        })
    })),
    plugin: None,
};

/// The canonical events, Claude Code's, in catalog order: the events of every agent
/// whose events are Claude Code's under other names.
pub(super) fn canonical() -> impl Iterator<Item = BuiltinEvent> {
    Dialect::Claude.profile().builtin_events()
}

/// Whether a discovered file is one of Claude Code's settings files, which it runs the
/// hooks of itself: `.claude/settings.json` and `.claude/settings.local.json` (the user's
/// and the project's), and its managed `managed-settings.json`. Its `.mcp.json` and
/// `~/.claude.json` hold MCP servers, not hooks, and stay.
fn is_settings(path: &Path) -> bool {
    path.ends_with(".claude/settings.json")
        || path.ends_with(".claude/settings.local.json")
        || path
            .file_name()
            .is_some_and(|n| n == "managed-settings.json")
}
