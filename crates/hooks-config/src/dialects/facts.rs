//! [`DialectFacts`]: the public, read-only view of a dialect's row ([`super::DialectFiles`])
//! for programs that write hooks for a dialect's files (the `hooks` command line): what a
//! new hook takes from its dialect, the syntaxes its files are written in, the names of
//! their switches. Each fact is set in the dialect's own folder.

use hooks_core::{Dialect, HookSpec, PromptMode};

use super::DialectFiles;
use crate::error::Error;
use crate::parse::Format;

/// What this crate knows of one dialect's files that a program writing hooks for them
/// asks: `DialectFacts::of(dialect)`.
///
/// ```
/// use hooks_config::DialectFacts;
/// use hooks_config::core::{Dialect, PromptMode};
///
/// let echo = DialectFacts::of(Dialect::from_name("echo").unwrap());
/// assert_eq!(echo.prompt_mode(), PromptMode::Inject);
/// assert!(DialectFacts::of(Dialect::default()).formats().len() > 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DialectFacts {
    row: &'static DialectFiles,
}

impl DialectFacts {
    /// The facts of `dialect`'s files.
    pub fn of(dialect: Dialect) -> DialectFacts {
        DialectFacts {
            row: super::of(dialect),
        }
    }

    /// The dialect these facts are of.
    pub fn dialect(&self) -> Dialect {
        self.row.dialect
    }

    /// The syntaxes its files are written in, the one a new file gets first (the native
    /// format's are YAML, TOML and JSON; every other dialect has one).
    pub fn formats(&self) -> &'static [Format] {
        self.row.formats
    }

    /// Whether a matcher typed for a new hook (`hooks add --matcher`, `hooks manage`) is
    /// a regular expression, as its files' matchers are (Fabro's, Autohand's); else it is
    /// read in the engine's matcher language.
    pub fn typed_matcher_is_regex(&self) -> bool {
        self.row.editing.typed_regex
    }

    /// Whether a hook added interactively (`hooks manage`) is asked for a description,
    /// which its files keep.
    pub fn asks_description(&self) -> bool {
        self.row.editing.asks_description
    }

    /// What a new prompt hook does in its files: its files' own mode (echo-agent's prompt
    /// hooks inject), else it evaluates.
    pub fn prompt_mode(&self) -> PromptMode {
        self.row.reading.prompt_mode.unwrap_or(PromptMode::Evaluate)
    }

    /// Whether the file-wide switch belongs to its file's hooks: off, it turns off every
    /// hook of that file only and shows in each hook's `enabled` (Autohand's
    /// `hooks.enabled`), rather than switching off every layer's hooks as
    /// `disable_all_hooks` does.
    pub fn switch_in_hooks(&self) -> bool {
        self.row.editing.switch_in_hooks
    }

    /// The name its files give [`crate::Settings::disable_all_hooks`] (`disableAllHooks`
    /// in Claude Code's).
    pub fn disable_all_hooks_name(&self) -> &'static str {
        self.row.switch_names.disable_all_hooks
    }

    /// Gives a new hook of this dialect the defaults its files' loader gives one written
    /// with no more keys than it needs (Fabro's blocking and failure policy depend on the
    /// event and the action), so that it is written with no more keys; for the other
    /// dialects the hook is left as it is.
    ///
    /// # Errors
    ///
    /// When the loader refuses the hook (an event the dialect has no name for).
    pub fn complete_new_hook(&self, spec: &mut HookSpec) -> Result<(), Error> {
        match self.row.editing.new_hook {
            Some(defaults) => defaults(spec),
            None => Ok(()),
        }
    }
}
