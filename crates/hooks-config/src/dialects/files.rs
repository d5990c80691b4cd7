//! The seam between the dialect folders and the rest of the crate: [`DialectFiles`], one
//! row per dialect of everything this crate knows of its files (where they are found,
//! their shape, their syntax, how they are read and written, what their switches are
//! called, what merging does with them). Each dialect's folder holds its row
//! (`dialects/<name>/mod.rs`, `FILES`); `dialects::of` is the one `match` that finds it.
//! What the core knows of a dialect (its events, time unit, tool names, stdin, answers) is
//! its [`hooks_core::Profile`], and is read there.

use std::path::Path;

use hooks_core::{Dialect, HookSpec, Layer};
use serde_json::Value;

use crate::error::Error;
use crate::file::{ConfigFile, Item, LoadOptions, Settings};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader};
use crate::tree::Node;
use crate::write::{WriteRules, Writer};

/// Everything this crate knows of one dialect's files: a table row, in the dialect's
/// folder, that the loader, detection, conversion and merging ask.
#[derive(Debug)]
pub(crate) struct DialectFiles {
    /// The dialect this row describes.
    pub(crate) dialect: Dialect,
    /// The syntaxes its files are written in, the one a new file gets first.
    pub(crate) formats: &'static [Format],
    /// Whether a path is one of its files by its place or its name (see [`Claim`]).
    pub(crate) from_path: fn(&Path) -> Option<Claim>,
    /// The shapes that make a file of unknown name its own, each with its rank (see
    /// [`Shape`]).
    pub(crate) shapes: &'static [Shape],
    /// For a file its name makes this dialect's: another dialect whose shape the file has
    /// instead (a plugin's `hooks/hooks.json` in Cursor's shape is Cursor's).
    pub(crate) shape_over_name: fn(&Node) -> Option<Dialect>,
    /// The layer a file's name gives it in the dialect's own layering (Fabro's
    /// `~/.fabro/settings.toml` is the user's); `None`: the caller's default.
    pub(crate) layer_from_path: fn(&Path) -> Option<Layer>,
    /// How a file of a dialect that has no config text is loaded from its path (Cline's
    /// executables); `None`: its files are parsed and read by [`DialectFiles::read`].
    pub(crate) unparsed: Option<Unparsed>,
    /// Reads a parsed file: checks it against the dialect's schema and reads its hooks,
    /// switches and servers into the file, reporting problems to the reader.
    pub(crate) read: fn(&mut Reader<'_>, &Node, &mut ConfigFile),
    /// The file's path placeholder and its value (`${SKILL_DIR}` of a skill,
    /// `${CLAUDE_PLUGIN_ROOT}` of a plugin's hooks file), substituted at load.
    pub(crate) path_var: fn(&Path) -> Option<(&'static str, String)>,
    /// What its files mean by the keys the shared readers take.
    pub(crate) reading: ReadRules,
    /// How hooks are written in it.
    pub(crate) writing: Writing,
    /// What its files can say when hooks are written in it, and how its hooks fare
    /// elsewhere.
    pub(crate) write_rules: WriteRules,
    /// The names its files give the switches, as an untrusted file's ignored settings are
    /// named.
    pub(crate) switch_names: SwitchNames,
    /// Whether its files are run configs, and what it knows of the run (Fabro's): the run
    /// environment and working directory they select apply to its command hooks of the
    /// run. `None`: its files are not run configs.
    pub(crate) run_config: Option<RunConfig>,
    /// The name a file-wide list of disabled hooks knows one of its hooks by (Gemini CLI's
    /// `hooksConfig.disabled`); `None`: no such list turns its hooks off.
    pub(crate) disabled_name: Option<fn(&HookSpec) -> Option<String>>,
    /// How its files are edited in place (`hooks add`, `enable`, `remove`, `migrate`).
    pub(crate) editing: EditRules,
}

/// How a dialect's files are edited in place ([`crate::edit`]); whether a hook has a
/// switch of its own, and the file one for every hook, are its profile's
/// ([`hooks_core::Profile::file`]).
#[derive(Debug)]
pub(crate) struct EditRules {
    /// Why its files are not edited in place, after the file's path (`is Cursor's
    /// hooks.json, ...`), with a hint; `None`: they are.
    pub(crate) refusal: Option<&'static str>,
    /// The text a new file of it starts as (`_version = 1` of Fabro's); `None`: an empty
    /// table (`{}` in JSON, nothing in YAML and TOML).
    pub(crate) template: Option<&'static str>,
    /// Whether a disabled hook is commented out, since its files have no switch of a hook's
    /// own (Fabro's).
    pub(crate) comments_out: bool,
    /// Whether the file-wide switch shows in every hook's `enabled` when it is off, above
    /// the hook's own switch (Autohand's `hooks.enabled: false`).
    pub(crate) switch_in_hooks: bool,
    /// The project's settings file of its agent, which `hooks migrate` moves hooks out of
    /// (`.gemini/settings.json`); `None`: it has none of its own.
    pub(crate) project_settings: Option<&'static str>,
    /// How the matcher of one of its hooks moved into a native file is written, when that
    /// differs from how it was read (Gemini CLI's regular expression that is a name list
    /// becomes the list).
    pub(crate) moved_matcher: Option<fn(&mut HookSpec)>,
    /// Whether a matcher typed for a new hook (`hooks add --matcher`, `hooks manage`) is
    /// read as a regular expression, as its files' matchers are (Fabro's, Autohand's);
    /// else in the engine's matcher language.
    pub(crate) typed_regex: bool,
    /// Whether `hooks manage` asks for a new hook's description (its files keep one).
    pub(crate) asks_description: bool,
    /// Gives a new hook the defaults its files' loader gives one written with no more keys
    /// than it needs (Fabro's blocking and failure policy, which depend on the event and
    /// the action), so that it is written with no more; `None`: the engine's defaults are
    /// its files'.
    pub(crate) new_hook: Option<NewHook>,
    /// Why `hooks migrate` needs the settings file whose hooks move named, and how
    /// (Codex keeps hooks in either of two files); `None`: its project's settings file
    /// ([`EditRules::project_settings`]) is taken when none is named.
    pub(crate) settings_unnamed: Option<&'static str>,
    /// The settings files of its agent that discovery reads, as a message lists them
    /// (`` `~/.gemini/settings.json`, `.gemini/settings.json` ``); `None`: it has none of
    /// its own.
    pub(crate) settings_files: Option<&'static str>,
}

impl EditRules {
    /// Edited in place, a disabled hook by its own switch, no template, no settings file
    /// of its own, a typed matcher in the engine's language, no description asked, the
    /// engine's defaults for a new hook.
    pub(crate) const IN_PLACE: EditRules = EditRules {
        refusal: None,
        template: None,
        comments_out: false,
        switch_in_hooks: false,
        project_settings: None,
        moved_matcher: None,
        typed_regex: false,
        asks_description: false,
        new_hook: None,
        settings_unnamed: None,
        settings_files: None,
    };
}

/// [`EditRules::new_hook`]: gives a new hook its dialect's defaults.
pub(crate) type NewHook = fn(&mut HookSpec) -> Result<(), Error>;

/// What a dialect whose files are run configs (Fabro's) knows of the run.
#[derive(Debug)]
pub(crate) struct RunConfig {
    /// Whether a text is one of its run configs by its own keys, though it may have no
    /// hooks (they can live in a layer above), given the dialect its name or the caller
    /// gives it (`None`: none): such a file's diagnostics quote it, so that its rename
    /// hints are seen, where a file that does not look like a config quotes none of its
    /// text.
    pub(crate) recognised: fn(Option<Dialect>, &str) -> bool,
    /// Whether the run's environment, as its trusted run configs select it (lowest layer
    /// first), is this machine: there the run's working directory is where its command
    /// hooks run; a container's (`docker`, `daytona`) is inside it, and they run in the
    /// event's `cwd`.
    pub(crate) runs_here: fn(&[&ConfigFile]) -> bool,
}

/// How strongly a path names a dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// By a place only the dialect uses (Cline's hooks directories, a `.codex` or
    /// `.gemini` folder): asked before any file name.
    Place,
    /// By the file's name, with its folder where that says more (`settings.json`,
    /// `.cursor/hooks.json`).
    Name,
}

/// A shape that makes a file of unknown name a dialect's. Detection tries every row's
/// shapes by rank, lowest first (on a tie, in [`Dialect::ALL`] order); the first that fits
/// names the dialect. The ranks in use: 10 Gemini CLI's `hooksConfig`, 20 Cursor's
/// `version` beside flat event lists, 30 Fabro's top-level tables, 40 Claude Code's switches
/// without hooks, 50 the native top-level keys without hooks, 60 Autohand's `hooks.enabled`
/// or `hooks.hooks[]`, 70 Gemini CLI's own event names in JSON, 80 native keys on nested
/// hooks (or TOML), 90 nested hooks in JSON (Claude Code) or YAML (echo-agent), 100 a
/// legacy Fabro hook list, 110 any other hook list (native).
#[derive(Debug)]
pub(crate) struct Shape {
    /// Where it is tried among every dialect's shapes.
    pub(crate) rank: u8,
    /// Whether a parsed file (a table) in this syntax has the shape.
    pub(crate) fits: fn(Format, &Node) -> bool,
}

/// How a dialect without config text loads a file: from its path, never parsed.
#[derive(Debug)]
pub(crate) struct Unparsed {
    /// Loads the file at a path (which must lie inside the second, when given).
    pub(crate) load: fn(&Path, Option<&Path>, &LoadOptions) -> Result<ConfigFile, Error>,
    /// Why text given in its name cannot be loaded, and the hint.
    pub(crate) refusal: (&'static str, &'static str),
}

/// How hooks are written in a dialect.
#[derive(Debug)]
pub(crate) enum Writing {
    /// As a file: the value of its root, in one of its syntaxes.
    File(fn(&mut Writer, &[Item], &Settings) -> Value),
    /// Not at all: the message and hint of the error saying so (Cline has no config
    /// file).
    Refused {
        /// Why.
        message: &'static str,
        /// What to do instead.
        hint: &'static str,
    },
}

/// The names a dialect's files give the file-wide switches.
#[derive(Debug)]
pub(crate) struct SwitchNames {
    /// [`Settings::disable_all_hooks`].
    pub(crate) disable_all_hooks: &'static str,
    /// [`Settings::managed_hooks_only`].
    pub(crate) managed_hooks_only: &'static str,
    /// [`Settings::allowed_http_hook_urls`].
    pub(crate) allowed_http_hook_urls: &'static str,
}

impl SwitchNames {
    /// The native format's names, which the dialects without switches of their own are
    /// told in.
    pub(crate) const NATIVE: SwitchNames = SwitchNames {
        disable_all_hooks: "disable_all_hooks",
        managed_hooks_only: "managed_hooks_only",
        allowed_http_hook_urls: "allowed_http_hook_urls",
    };
}

/// [`DialectFiles::path_var`] of a dialect without a path placeholder.
pub(crate) fn no_path_var(_: &Path) -> Option<(&'static str, String)> {
    None
}

/// [`DialectFiles::layer_from_path`] of a dialect without layers of its own.
pub(crate) fn no_layer(_: &Path) -> Option<Layer> {
    None
}

/// [`DialectFiles::shape_over_name`] of a dialect whose named files are its own whatever
/// their shape.
pub(crate) fn no_other_shape(_: &Node) -> Option<Dialect> {
    None
}
