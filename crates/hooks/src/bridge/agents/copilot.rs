//! GitHub Copilot CLI: its project root is `COPILOT_PROJECT_DIR`; it runs the hooks of its
//! own files (the repository's `.github/hooks/*.json` and `.github/copilot/settings*.json`,
//! the user's `$COPILOT_HOME/hooks/*.json` and `settings.json`) and of the project's
//! `.claude/settings.json` and `.claude/settings.local.json` itself. A call through Claude
//! Code's bridge entry there is Copilot's when `COPILOT_CLI=1`, and is answered as
//! Copilot's.
//!
//! The bridge is installed by default into the user's
//! `$COPILOT_HOME/hooks/agentic-hooks.json`, which Copilot reads in every mode (in prompt
//! mode, `-p`, it loads a repository's hooks only in a folder it trusts), and with
//! `--scope project` into `.github/hooks/agentic-hooks.json`: one camelCase entry per
//! event, whose command line names the event (`hooks bridge copilot preToolUse`), since
//! Copilot's camelCase events do not name themselves.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Agent, OwnFiles, Scope, Settings, dir_var, named};
use crate::Error;
use crate::core::{BuiltinEvent, Dialect};

/// How long Copilot waits for an entry of the bridge, in seconds: above the engine's own
/// bound on a hook (300 s), since Copilot lets the tool call through when a hook times
/// out.
pub(super) const ENTRY_TIMEOUT_SECS: u64 = 600;

/// GitHub Copilot CLI.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Copilot,
    about: "GitHub Copilot CLI",
    project_dir: |_| dir_var("COPILOT_PROJECT_DIR"),
    own_files: OwnFiles::Named(is_own),
    env_file: None,
    event_key: Some("sessionId"),
    events: || {
        named(BuiltinEvent::ALL.iter().copied(), |e| {
            crate::core::copilot::camel_name(e)
        })
    },
    runs_files_of: &[Dialect::Claude],
    is_calling: |_| std::env::var_os("COPILOT_CLI").is_some_and(|v| v == "1"),
    plugin: None,
    settings: Some(Settings {
        entry,
        flat: true,
        version: Some(1),
        default_scope: Scope::User,
        command_key: "bash",
        names_event: true,
        ..Settings::new(path)
    }),
};

/// The hooks file of a scope: the user's in Copilot's home, the project's in
/// `.github/hooks/`.
fn path(scope: Scope, project: &Path) -> Result<PathBuf, Error> {
    Ok(match scope {
        Scope::User => home()?.join("hooks/agentic-hooks.json"),
        Scope::Project => project.join(".github/hooks/agentic-hooks.json"),
    })
}

/// Copilot's home: `$COPILOT_HOME` when absolute, else `~/.copilot`.
fn home() -> Result<PathBuf, Error> {
    match std::env::var_os("COPILOT_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
    {
        Some(home) => Ok(home),
        None => Ok(super::home()?.join(".copilot")),
    }
}

/// The entry that runs the bridge on `event`: a camelCase command hook whose line names
/// the event, with [`ENTRY_TIMEOUT_SECS`].
fn entry(command: &str, event: &str) -> Value {
    json!({"type": "command", "bash": format!("{command} {event}"), "timeoutSec": ENTRY_TIMEOUT_SECS})
}

/// Whether a discovered file is one Copilot runs the hooks of itself: its own files, and
/// the project's Claude Code settings (not the user's `~/.claude/settings.json`, which
/// Copilot does not read).
fn is_own(path: &Path) -> bool {
    if crate::config::dialect_from_path(path) == Some(Dialect::Copilot) {
        return true;
    }
    let claude =
        path.ends_with(".claude/settings.json") || path.ends_with(".claude/settings.local.json");
    if !claude {
        return false;
    }
    let user_dir = std::env::var_os("HOME").map(|h| {
        let home = PathBuf::from(h);
        std::fs::canonicalize(&home).unwrap_or(home).join(".claude")
    });
    path.parent() != user_dir.as_deref()
}
