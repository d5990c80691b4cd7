//! The configuration dialects the engine understands.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Calls the macro `$callback` with the one list of dialects, in [`Dialect::ALL`]'s order:
/// `Variant => module: "doc",` each, the module being the dialect's folder in every crate
/// that has dialect knowledge (`profile/<module>/` in this crate,
/// `dialects/<module>/` in the config crate). The [`Dialect`] enum and each crate's
/// registry of its dialect folders (`mod` lines and the one `match` giving a dialect's
/// row) are generated from it, so a dialect is added by a line here and its folders.
#[macro_export]
macro_rules! with_dialects {
    ($callback:ident) => {
        $callback! {
            Native => native: "This engine's own format (YAML, TOML or JSON); canonical PascalCase event names.",
            Claude => claude: "Claude Code `settings.json` hooks; the de-facto wire standard.",
            Echo => echo: "echo-agent YAML (`echo-agent.yaml`, SKILL.md frontmatter).",
            Fabro => fabro: "Fabro run configuration TOML (`[[run.hooks]]`).",
            Autohand => autohand: "Autohand `config.json` hooks.",
            Gemini => gemini: "Gemini CLI `settings.json` hooks and extension `hooks/hooks.json`.",
            Codex => codex: "Codex `hooks.json` and the `[hooks]` of its `config.toml`.",
            Cursor => cursor: "Cursor `hooks.json` hooks (`.cursor/hooks.json`, `~/.cursor/hooks.json`).",
            Cline => cline: "Cline hook files: executables named after their event (`.clinerules/hooks/`, `~/Documents/Cline/Hooks/`).",
            Qwen => qwen: "Qwen Code `settings.json` hooks (`.qwen/settings.json`, `~/.qwen/settings.json`, `/etc/qwen-code/settings.json`).",
            Droid => droid: "Factory Droid `settings.json` hooks (`.factory/settings.json`, `~/.factory/settings.json`).",
            Copilot => copilot: "GitHub Copilot CLI hooks files (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`, `hooks` in its settings), camelCase or Claude Code's PascalCase.",
            Opencode => opencode: "OpenCode: no hook files of its own; its JavaScript plugin hooks reach the engine through the bridge's plugin.",
        }
    };
}

macro_rules! dialect_enum {
    ($($variant:ident => $module:ident: $doc:literal,)*) => {
        /// A configuration dialect: which system's conventions a hook was written for.
        ///
        /// The dialect decides event names, timeout units, environment variables, the shape
        /// of the JSON a command hook receives and how its answer is read: everything the
        /// engine knows of a dialect is its [`Profile`](crate::Profile)
        /// ([`Dialect::profile`]), in the dialect's folder. The variants are listed once,
        /// in [`with_dialects!`](crate::with_dialects).
        ///
        /// Not `#[non_exhaustive]`: the workspace matches dialects without wildcard arms, so
        /// a new dialect makes the compiler list every registry that must name it.
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(rename_all = "snake_case")]
        pub enum Dialect {
            $(#[doc = $doc] $variant,)*
        }

        const COUNT: usize = [$(stringify!($variant)),*].len();

        impl Dialect {
            /// Every dialect, in a stable order.
            pub const ALL: [Dialect; COUNT] = [$(Dialect::$variant),*];
        }
    };
}

crate::with_dialects!(dialect_enum);

impl Default for Dialect {
    /// The engine's own format: the first dialect of the list.
    fn default() -> Dialect {
        Dialect::ALL[0]
    }
}

impl Dialect {
    /// The dialect's short name, as used on the command line (`--to fabro`).
    pub const fn as_str(self) -> &'static str {
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
