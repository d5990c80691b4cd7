//! Gemini CLI: its project root is `GEMINI_PROJECT_DIR` (it sets `CLAUDE_PROJECT_DIR`
//! too); it runs the hooks of its `settings.json` files (system, user, project) and its
//! extensions' `hooks/hooks.json` itself. The bridge is installed into
//! `.gemini/settings.json` under Gemini CLI's own event names, with `matcher: "*"` and a
//! timeout in milliseconds; `hooksConfig.enabled: false` turns every hook off.

use std::path::Path;

use serde_json::{Value, json};

use super::{Agent, OwnFiles, Scope, Settings, dir_var, home, named};
use crate::core::Dialect;

/// Gemini CLI.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Gemini,
    about: "Gemini CLI",
    project_dir: |_| dir_var("GEMINI_PROJECT_DIR").or_else(|| dir_var("CLAUDE_PROJECT_DIR")),
    own_files: OwnFiles::Dialect,
    event_key: None,
    env_file: None,
    runs_files_of: &[],
    is_calling: |_| false,
    events: || {
        named(
            super::claude::canonical(),
            crate::core::reply::gemini_event_name,
        )
    },
    settings: Some(Settings {
        entry,
        not_called,
        ..Settings::new(|scope, project| {
            Ok(match scope {
                Scope::User => home()?.join(".gemini/settings.json"),
                Scope::Project => project.join(".gemini/settings.json"),
            })
        })
    }),
    plugin: None,
};

/// The entry that runs `command`: a matcher group matching everything, whose timeout is
/// in milliseconds (the bridge's hooks have their own timeouts; this one is Claude Code's
/// default of 600 s).
fn entry(command: &str, _event: &str) -> Value {
    json!({"matcher": "*", "hooks": [
        {"type": "command", "command": command, "timeout": 600_000}
    ]})
}

/// Gemini CLI calls no hook when its settings say `hooksConfig.enabled: false`.
fn not_called(settings: &Value, _path: &Path, _text: &str, _command: &str) -> Option<String> {
    (settings["hooksConfig"]["enabled"] == Value::Bool(false))
        .then(|| "not called: `hooksConfig.enabled` is false".to_owned())
}
