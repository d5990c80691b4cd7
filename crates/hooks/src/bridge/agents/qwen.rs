//! Qwen Code: its project root is `QWEN_PROJECT_DIR` (it sets `CLAUDE_PROJECT_DIR` too);
//! it runs the hooks of its `settings.json` files (system, user, project) itself, and not
//! those of Claude Code's files. The bridge is installed into `.qwen/settings.json` (the
//! project's or the user's) on Claude Code's event names, each entry matching every tool
//! with a timeout of 600 s (Qwen Code lets a tool run when a hook times out, so the
//! bridge's own hooks' timeouts, not Qwen Code's default 60 s, must end a slow hook);
//! `disableAllHooks: true` turns every hook off.

use serde_json::{Value, json};

use super::{Agent, OwnFiles, Scope, Settings, dir_var, home, named};
use crate::core::Dialect;

/// Qwen Code.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Qwen,
    about: "Qwen Code",
    project_dir: |_| dir_var("QWEN_PROJECT_DIR").or_else(|| dir_var("CLAUDE_PROJECT_DIR")),
    own_files: OwnFiles::Dialect,
    event_key: None,
    runs_files_of: &[],
    is_calling: |_| false,
    plugin: None,
    env_file: None,
    events: || named(Dialect::Qwen.profile().builtin_events(), |e| Some(e.name())),
    settings: Some(Settings {
        entry,
        not_called: super::disabled_all_hooks,
        ..Settings::new(|scope, project| {
            Ok(match scope {
                Scope::User => home()?.join(".qwen/settings.json"),
                Scope::Project => project.join(".qwen/settings.json"),
            })
        })
    }),
};

/// The entry that runs `command`: a matcher group matching everything, with a timeout of
/// 600 s (under Qwen Code's 1000, which it would read as milliseconds).
fn entry(command: &str, _event: &str) -> Value {
    json!({"matcher": "*", "hooks": [
        {"type": "command", "command": command, "timeout": 600}
    ]})
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_switched_off_file_is_not_called() {
        let not_called = AGENT.settings.unwrap().not_called;
        let off = json!({"disableAllHooks": true});
        assert!(not_called(&off, Path::new("s.json"), "", "hooks bridge qwen").is_some());
        assert!(not_called(&json!({}), Path::new("s.json"), "", "hooks bridge qwen").is_none());
    }
}
