//! OpenCode: its hooks are JavaScript plugins, so the bridge is installed as one, the
//! plugin shipped here ([`PLUGIN`], `opencode.js`), written to `plugin/agentic-hooks.js`
//! in OpenCode's config directory of the scope (the user's `$XDG_CONFIG_HOME/opencode/`,
//! by default `~/.config/opencode/`, or the project's `.opencode/`), with the `hooks`
//! program's absolute path in it. The plugin calls `hooks bridge opencode` from OpenCode's
//! plugin hooks with a Claude-shaped payload whose `cwd` is the project OpenCode runs in;
//! OpenCode reads no hook file of another agent, and has none of its own.

use std::path::{Path, PathBuf};

use super::{Agent, OwnFiles, Plugin, Scope, home, named};
use crate::core::Dialect;

/// The bridge's plugin for OpenCode, as shipped: [`plugin_text`] writes the `hooks`
/// program into it.
const PLUGIN: &str = include_str!("opencode.js");

/// The line of [`PLUGIN`] that names the `hooks` program.
const PROGRAM_LINE: &str = "const HOOKS_BIN = \"hooks\";";

/// The line that marks the plugin as the bridge's, whoever wrote it.
const MARKER: &str =
    "// Written by `hooks install opencode`: OpenCode runs the hooks engine's bridge here.";

/// OpenCode.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Opencode,
    about: "OpenCode (its `opencode` CLI and TUI, through a plugin)",
    project_dir: |_| None,
    own_files: OwnFiles::Dialect,
    env_file: None,
    event_key: None,
    runs_files_of: &[],
    is_calling: |_| false,
    events: || {
        named(
            Dialect::Opencode.profile().builtin_events(),
            crate::core::opencode::name_of,
        )
    },
    settings: None,
    plugin: Some(Plugin {
        dir: plugin_dir,
        file: "agentic-hooks.js",
        text: plugin_text,
        program: program_of,
        marker: MARKER,
        off: |_| {
            std::env::var_os("OPENCODE_PURE")
                .filter(|v| !v.is_empty() && v != "0" && v != "false")
                .map(|_| "not called: OPENCODE_PURE is set, so OpenCode loads no plugin".to_owned())
        },
    }),
};

/// OpenCode's plugin directory of `scope`: the user's `$XDG_CONFIG_HOME/opencode/plugin`
/// (`~/.config/opencode/plugin` when the variable is not an absolute path), or the
/// project's `.opencode/plugin`.
fn plugin_dir(scope: Scope, project: &Path) -> Result<PathBuf, crate::Error> {
    Ok(match scope {
        Scope::Project => project.join(".opencode/plugin"),
        Scope::User => {
            let config = std::env::var_os("XDG_CONFIG_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute());
            match config {
                Some(config) => config.join("opencode/plugin"),
                None => home()?.join(".config/opencode/plugin"),
            }
        }
    })
}

/// The plugin calling the `hooks` program at `program` (an absolute path).
fn plugin_text(program: &str) -> String {
    let quoted = serde_json::Value::String(program.to_owned()).to_string();
    PLUGIN.replacen(PROGRAM_LINE, &format!("const HOOKS_BIN = {quoted};"), 1)
}

/// The `hooks` program the plugin `text` calls, if it names one.
fn program_of(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("const HOOKS_BIN = "))
        .and_then(|rest| rest.strip_suffix(';'))
        .and_then(|quoted| serde_json::from_str(quoted).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_is_written_into_the_plugin_and_read_back() {
        assert!(PLUGIN.contains(PROGRAM_LINE));
        assert!(PLUGIN.lines().any(|l| l == MARKER));
        let text = plugin_text("/opt/my \"hooks\"/bin/hooks");
        assert_eq!(
            program_of(&text).as_deref(),
            Some("/opt/my \"hooks\"/bin/hooks")
        );
        assert_eq!(program_of(PLUGIN).as_deref(), Some("hooks"));
        assert_eq!(
            text.len(),
            PLUGIN.len() + "/opt/my \\\"hooks\\\"/bin/".len()
        );
    }
}
