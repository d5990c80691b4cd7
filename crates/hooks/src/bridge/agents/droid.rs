//! Factory Droid: its project root is `FACTORY_PROJECT_DIR` (it sets `DROID_PROJECT_DIR`
//! and `CLAUDE_PROJECT_DIR` too); it runs the hooks of its `settings.json` files (user,
//! project) itself, and not those of Claude Code's files. The bridge is installed into
//! `.factory/settings.json` (the project's or the user's; `droid exec` does not read
//! `settings.local.json`) on Claude Code's event names, each entry matching every tool;
//! `disableAllHooks: true` turns every hook off.

use super::{Agent, OwnFiles, Scope, Settings, dir_var, home, named};
use crate::core::Dialect;

/// Factory Droid.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Droid,
    about: "Factory Droid",
    project_dir: |_| {
        dir_var("FACTORY_PROJECT_DIR")
            .or_else(|| dir_var("DROID_PROJECT_DIR"))
            .or_else(|| dir_var("CLAUDE_PROJECT_DIR"))
    },
    own_files: OwnFiles::Dialect,
    event_key: None,
    runs_files_of: &[],
    is_calling: |_| false,
    plugin: None,
    env_file: None,
    events: || {
        named(Dialect::Droid.profile().builtin_events(), |e| {
            Some(e.name())
        })
    },
    settings: Some(Settings {
        entry: |command, _| serde_json::json!({"matcher": "*", "hooks": [{"type": "command", "command": command}]}),
        not_called: super::disabled_all_hooks,
        ..Settings::new(|scope, project| {
            Ok(match scope {
                Scope::User => home()?.join(".factory/settings.json"),
                Scope::Project => project.join(".factory/settings.json"),
            })
        })
    }),
};
