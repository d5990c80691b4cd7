//! A loaded config file and how it is loaded: the options ([`LoadOptions`]), the file
//! ([`ConfigFile`]) with its items and switches, and the record of one that did not load
//! ([`BrokenFile`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hooks_core::{Dialect, EventCatalog, HookSpec, Layer, Provenance, TelemetrySettings};

use crate::error::{Diagnostic, Error};
use crate::interpolate::Interpolation;
use crate::parse::Format;
use crate::source;

/// The default maximum timeout: 300 s ([`hooks_core::MAX_TIMEOUT`]). Longer timeouts are
/// clamped, with a warning.
pub const DEFAULT_MAX_TIMEOUT: Duration = hooks_core::MAX_TIMEOUT;
/// The default maximum command length: 32 KiB.
pub const DEFAULT_MAX_COMMAND_LEN: usize = 32 * 1024;

/// How a file came to be loaded, which decides whether its project hooks need trust.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Named explicitly (`-c FILE`, or passed by the host): trusted by that act.
    #[default]
    Explicit,
    /// Found in a standard location. In the project and local layers, its hooks do not run
    /// until trusted.
    Discovered,
}

/// Options for loading config files.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The events names resolve against (hosts add custom events here).
    pub catalog: EventCatalog,
    /// The dialect, when not to be detected from the file name and shape.
    pub dialect: Option<Dialect>,
    /// The syntax, when not to be told from the file name.
    pub format: Option<Format>,
    /// The layer the file's hooks belong to.
    pub layer: Layer,
    /// How the file came to be loaded.
    pub origin: Origin,
    /// Files larger than this many bytes are refused before parsing (default 2 MiB).
    pub max_file_size: u64,
    /// Timeouts above this are clamped to it, with a warning (default 300 s).
    pub max_timeout: Duration,
    /// Commands longer than this many bytes are rejected (default 32 KiB).
    pub max_command_len: usize,
    /// Variables, environment and secrets for interpolation.
    pub interpolation: Interpolation,
    /// The project root, when known: `~/.claude.json` keeps the MCP servers of one project
    /// under `projects.<root>`.
    pub project: Option<PathBuf>,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            catalog: EventCatalog::new(),
            dialect: None,
            format: None,
            layer: Layer::CommandLine,
            origin: Origin::Explicit,
            max_file_size: source::DEFAULT_MAX_FILE_SIZE,
            max_timeout: DEFAULT_MAX_TIMEOUT,
            max_command_len: DEFAULT_MAX_COMMAND_LEN,
            interpolation: Interpolation::default(),
            project: None,
        }
    }
}

impl LoadOptions {
    /// Default options: detect the dialect, the command-line layer, explicit origin.
    pub fn new() -> LoadOptions {
        LoadOptions::default()
    }

    /// Uses this dialect instead of detecting one.
    #[must_use]
    pub fn with_dialect(mut self, dialect: Dialect) -> LoadOptions {
        self.dialect = Some(dialect);
        self
    }

    /// Uses this syntax instead of the one the file name implies.
    #[must_use]
    pub fn with_format(mut self, format: Format) -> LoadOptions {
        self.format = Some(format);
        self
    }

    /// Puts the file's hooks in this layer.
    #[must_use]
    pub fn with_layer(mut self, layer: Layer) -> LoadOptions {
        self.layer = layer;
        self
    }

    /// Says how the file came to be loaded.
    #[must_use]
    pub fn with_origin(mut self, origin: Origin) -> LoadOptions {
        self.origin = origin;
        self
    }

    /// Resolves events against this catalog.
    #[must_use]
    pub fn with_catalog(mut self, catalog: EventCatalog) -> LoadOptions {
        self.catalog = catalog;
        self
    }

    /// Interpolates with these values.
    #[must_use]
    pub fn with_interpolation(mut self, interpolation: Interpolation) -> LoadOptions {
        self.interpolation = interpolation;
        self
    }

    /// Clamps timeouts to this maximum.
    #[must_use]
    pub fn with_max_timeout(mut self, max: Duration) -> LoadOptions {
        self.max_timeout = max;
        self
    }

    /// Names the project root (see [`LoadOptions::project`]).
    #[must_use]
    pub fn with_project(mut self, project: Option<PathBuf>) -> LoadOptions {
        self.project = project;
        self
    }

    /// Refuses files larger than this many bytes.
    #[must_use]
    pub fn with_max_file_size(mut self, max: u64) -> LoadOptions {
        self.max_file_size = max;
        self
    }
}

/// One entry of a loaded file, in declaration order.
// Hooks are most items; boxing them would cost every hook an allocation to save a little
// room in the few directives.
#[allow(clippy::large_enum_variant)]
#[non_exhaustive]
#[derive(Clone, Debug)]
pub enum Item {
    /// A hook.
    Hook(HookSpec),
    /// Enables or disables an inherited hook by id (native `{id, enabled}` with no action).
    SetEnabled {
        /// The inherited hook's id.
        id: String,
        /// Its new state.
        enabled: bool,
        /// Where the directive was written.
        provenance: Provenance,
    },
    /// Removes an inherited hook by id (native `{id, remove: true}`).
    Remove {
        /// The inherited hook's id.
        id: String,
        /// Where the directive was written.
        provenance: Provenance,
    },
}

impl Item {
    /// The hook, if this item is one.
    pub fn hook(&self) -> Option<&HookSpec> {
        match self {
            Item::Hook(spec) => Some(spec),
            Item::SetEnabled { .. } | Item::Remove { .. } => None,
        }
    }
}

/// The hook switches a file sets (`None`: not set in this file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Claude `disableAllHooks`, native `disable_all_hooks`.
    pub disable_all_hooks: Option<bool>,
    /// Claude `allowManagedHooksOnly`, native `managed_hooks_only` (managed layer only).
    pub managed_hooks_only: Option<bool>,
    /// Claude `allowedHttpHookUrls`, native `allowed_http_hook_urls`.
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// Autohand `hooks.enabled` (`false` turned every hook of the file off).
    pub hooks_enabled: Option<bool>,
    /// Gemini CLI `hooksConfig.disabled`: the hooks, by `name` else by command, that do
    /// not run. Gemini CLI joins the lists of all its settings layers (its `union` merge
    /// strategy) and applies them to every hook it registers, so merging turns off each
    /// Gemini CLI hook named in any trusted file's list.
    pub disabled_hooks: Vec<String>,
    /// The file's own `vars` (native).
    pub vars: BTreeMap<String, String>,
    /// The MCP servers it defines (native `mcp_servers`, Claude Code `mcpServers`, Fabro
    /// `[run.agent.mcps]`), in written order.
    pub mcp_servers: Vec<crate::mcp::McpServer>,
    /// Fabro: the run environment the file selects and the environment variables it gives
    /// environments (`[run.environment]`, `[environments.<id>.env]`).
    pub run_environment: RunEnvironment,
    /// Fabro `[run].working_dir`, resolved against the file's folder: the run's working
    /// directory, where every Fabro command hook of the run runs (the highest layer that
    /// sets it wins) unless the run's environment is a container (`docker`, `daytona`),
    /// whose directory it is.
    pub working_dir: Option<PathBuf>,
    /// Native `telemetry:`: OpenTelemetry export settings, which only the user and managed
    /// layers may set (see rule 13 of [`crate::merge`]).
    pub telemetry: Option<TelemetrySection>,
}

/// A file's `telemetry:` section: its settings, and where it is written (for the warning
/// when a layer that may not set it does).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TelemetrySection {
    /// What the section says.
    pub settings: TelemetrySettings,
    /// The line of its `telemetry` key (1-based; 0 when unknown).
    pub line: u32,
    /// The column of its `telemetry` key (1-based; 0 when unknown).
    pub column: u32,
}

/// What one Fabro file says about the run's environment. Merging picks the environment
/// (the highest layer's `[run.environment].id`, else `default`) and joins its variables
/// by key across layers; they are given to the run's Fabro command hooks.
///
/// Values are interpolated as Fabro does: `{{ vars.X }}` and `{{ env.X }}` at load (an
/// environment variable that is not set stays as written), `{{ secrets.X }}` right before
/// a hook runs (a missing secret fails closed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunEnvironment {
    /// `[run.environment].id`, if the file sets it.
    pub id: Option<String>,
    /// `[environments.<id>.env]` of each environment the file defines, by id.
    pub catalog: BTreeMap<String, Vec<(String, String)>>,
    /// `[environments.<id>].provider` (`local`, `docker`, `daytona`) of each environment
    /// the file defines, by id.
    pub providers: BTreeMap<String, String>,
    /// `[run.environment.env]`: overrides for the selected environment, whichever it is.
    pub overrides: Vec<(String, String)>,
}

impl RunEnvironment {
    /// Whether the file says nothing about the run environment.
    pub fn is_empty(&self) -> bool {
        self.id.is_none()
            && self.catalog.is_empty()
            && self.providers.is_empty()
            && self.overrides.is_empty()
    }
}

/// One loaded config file: its hooks and merge directives with provenance, its switches
/// and the warnings loading it gave.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    /// The file, if it came from one.
    pub path: Option<PathBuf>,
    /// Its dialect.
    pub dialect: Dialect,
    /// Its syntax.
    pub format: Format,
    /// Its layer.
    pub layer: Layer,
    /// How it came to be loaded.
    pub origin: Origin,
    /// Hooks and merge directives, in declaration order.
    pub items: Vec<Item>,
    /// The switches it sets.
    pub settings: Settings,
    /// Warnings (clamped timeouts, ignored matchers, ...).
    pub warnings: Vec<Diagnostic>,
    /// Warnings only a linter shows (`hooks validate`): what the file leaves to a default
    /// that the engine then changes, such as Claude Code's 600 s default timeout clamped to
    /// the maximum. Listings leave them out, since every such hook would repeat one.
    pub notes: Vec<Diagnostic>,
    /// SHA-256 of the file's text, hex: what a per-file trust grant records.
    pub content_hash: String,
}

impl ConfigFile {
    /// The hooks, in declaration order.
    pub fn hooks(&self) -> impl Iterator<Item = &HookSpec> {
        self.items.iter().filter_map(Item::hook)
    }

    /// Whether hooks of this file need trust before they run: discovered (not named) files
    /// of the project and local layers.
    pub fn needs_trust(&self) -> bool {
        needs_trust(self.origin, self.layer)
    }
}

/// Whether a file of `layer` that arrived by `origin` needs trust: discovered files of the
/// project and local layers (a repository's) do.
fn needs_trust(origin: Origin, layer: Layer) -> bool {
    origin == Origin::Discovered && matches!(layer, Layer::Project | Layer::Local)
}

/// A config file that did not load: where it is, its layer, how it came to be loaded, and
/// every problem it has (each with file:line:col).
///
/// A broken file never stops the other files from loading. What it means for the hooks it
/// held is the loader's caller's decision: a file that needs trust (a repository's) is
/// skipped; the `hooks` engine treats one of the user's own files as a guard that cannot
/// run.
#[derive(Clone, Debug)]
pub struct BrokenFile {
    /// The file, if it came from one.
    pub path: Option<PathBuf>,
    /// The layer it was to be loaded in.
    pub layer: Layer,
    /// How it came to be loaded.
    pub origin: Origin,
    /// Why it did not load.
    pub error: Error,
}

impl BrokenFile {
    /// The record of `path`, loaded with `options`, failing with `error`.
    pub fn new(path: Option<PathBuf>, options: &LoadOptions, error: Error) -> BrokenFile {
        BrokenFile {
            path,
            layer: options.layer,
            origin: options.origin,
            error,
        }
    }

    /// Whether its hooks would have needed trust ([`ConfigFile::needs_trust`]): a
    /// repository's file, which cannot be vouched for, so it is skipped.
    pub fn needs_trust(&self) -> bool {
        needs_trust(self.origin, self.layer)
    }

    /// Whether it is one of Claude Code's MCP server files (`.mcp.json`, `~/.claude.json`,
    /// `managed-mcp.json`), which hold servers, never a guard: one that does not load
    /// means its servers do not start, and nothing more.
    pub fn holds_only_mcp_servers(&self) -> bool {
        self.path
            .as_deref()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .is_some_and(|n| matches!(n, ".mcp.json" | ".claude.json" | "managed-mcp.json"))
    }

    /// Where its first error is, `file:line:col`.
    pub fn location(&self) -> String {
        let first = self.error.first();
        if first.file.is_none()
            && let Some(path) = &self.path
        {
            return path.display().to_string();
        }
        first.location()
    }

    /// Its first error in one line: `file:line:col: message`.
    pub fn summary(&self) -> String {
        format!("{}: {}", self.location(), self.error.first().message)
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}
