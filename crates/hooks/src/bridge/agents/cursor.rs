//! Cursor: its project root is its first workspace root (`workspace_roots[0]`), else
//! `CURSOR_PROJECT_DIR`; it runs the hooks of its `hooks.json` files (the project's, the
//! user's, the enterprise one) itself, and, with its third-party hooks on, those of Claude
//! Code's settings files: a call through Claude Code's bridge entry whose event carries
//! `cursor_version` (Cursor's common input) is Cursor's, read and answered as Cursor's. The bridge is installed into `.cursor/hooks.json`
//! (`version: 1`), whose events' lists hold hooks themselves, under Cursor's event names:
//! the canonical events and Cursor's own.

use serde_json::{Value, json};

use super::{Agent, OwnFiles, Scope, Settings, dir_var, first_root, home, named};
use crate::core::Dialect;

/// Cursor.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Cursor,
    about: "Cursor",
    project_dir: |ctx| first_root(ctx).or_else(|| dir_var("CURSOR_PROJECT_DIR")),
    own_files: OwnFiles::Dialect,
    event_key: None,
    env_file: None,
    runs_files_of: &[Dialect::Claude],
    // Cursor's common input has its version: no other agent's event does.
    is_calling: |payload| payload.get("cursor_version").is_some(),
    events: || {
        let claude = Dialect::Claude.profile();
        let own = Dialect::Cursor
            .profile()
            .builtin_events()
            .filter(|e| !claude.has_event(*e));
        named(super::claude::canonical().chain(own), |e| {
            crate::core::cursor::event_for(e).map(|e| e.name)
        })
    },
    settings: Some(Settings {
        entry,
        flat: true,
        version: Some(1),
        ..Settings::new(|scope, project| {
            Ok(match scope {
                Scope::User => home()?.join(".cursor/hooks.json"),
                Scope::Project => project.join(".cursor/hooks.json"),
            })
        })
    }),
    plugin: None,
};

/// The entry that runs `command` on `event`: one hook with a timeout in seconds (Claude
/// Code's default of 600 s); on `stop` and `subagentStop` with `loop_limit: null`, so that
/// the engine's loop limits (each hook's own `loop_limit`, the stop-loop cap) decide how
/// often a follow-up is sent, not Cursor's cap of 5 on the bridge.
fn entry(command: &str, event: &str) -> Value {
    if matches!(event, "stop" | "subagentStop") {
        json!({"command": command, "timeout": 600, "loop_limit": null})
    } else {
        json!({"command": command, "timeout": 600})
    }
}
