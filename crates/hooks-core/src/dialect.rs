//! The configuration dialects the engine understands.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A configuration dialect: which system's conventions a hook was written for.
///
/// The dialect decides event names, timeout units, environment variables, the shape of
/// the JSON a command hook receives and how its answer is read: everything the engine
/// knows of a dialect is its [`Profile`](crate::Profile) ([`Dialect::profile`]).
///
/// Not `#[non_exhaustive]`: the workspace matches dialects without wildcard arms, so a
/// new dialect makes the compiler list every place that must say what it does.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// This engine's own format (YAML, TOML or JSON); canonical PascalCase event names.
    #[default]
    Native,
    /// Claude Code `settings.json` hooks; the de-facto wire standard.
    Claude,
    /// echo-agent YAML (`echo-agent.yaml`, SKILL.md frontmatter).
    Echo,
    /// Fabro run configuration TOML (`[[run.hooks]]`).
    Fabro,
    /// Autohand `config.json` hooks.
    Autohand,
    /// Gemini CLI `settings.json` hooks and extension `hooks/hooks.json`.
    Gemini,
    /// Codex `hooks.json` and the `[hooks]` of its `config.toml`.
    Codex,
    /// Cursor `hooks.json` hooks (`.cursor/hooks.json`, `~/.cursor/hooks.json`).
    Cursor,
    /// Cline hook files: executables named after their event (`.clinerules/hooks/`,
    /// `~/Documents/Cline/Hooks/`).
    Cline,
}

impl Dialect {
    /// Every dialect, in a stable order.
    pub const ALL: [Dialect; 9] = [
        Dialect::Native,
        Dialect::Claude,
        Dialect::Echo,
        Dialect::Fabro,
        Dialect::Autohand,
        Dialect::Gemini,
        Dialect::Codex,
        Dialect::Cursor,
        Dialect::Cline,
    ];

    /// The dialect's short name, as used on the command line (`--to fabro`).
    pub fn as_str(self) -> &'static str {
        self.profile().name
    }

    /// Whether a command hook of this dialect that does not say `sandbox` runs sandboxed:
    /// Fabro's do, as in Fabro; the others do not. The command executor's default, and
    /// what converting a hook between dialects must keep.
    pub fn sandboxed_by_default(self) -> bool {
        self.profile().sandboxed_by_default
    }

    /// Whether the dialect documents a `timestamp` (RFC 3339) in a hook's input: echo-agent
    /// does (`event`, `tool_name`, `tool_input`, `session_id`, `timestamp`), so its hooks
    /// get the dispatch time when the host sends none. Autohand's timestamps are in its
    /// notifications, which add them themselves; Cline's (milliseconds since the epoch,
    /// as a string) is in every hook's input; the others document none.
    pub fn documents_timestamp(self) -> bool {
        self.profile().documents_timestamp
    }

    /// The agent's tool names, mapped onto the canonical vocabulary (Claude Code's): a
    /// matcher of this dialect's hooks names tools so, and its hooks are given them so.
    pub fn tools(self) -> &'static crate::ToolNames {
        self.profile().tools
    }

    /// Parses a short name as printed by [`Dialect::as_str`].
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.as_str() == name)
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
