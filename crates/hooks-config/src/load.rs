//! Loading one config file: the options, the loaded file ([`ConfigFile`]) and the helpers
//! every dialect's loader shares (events, matchers, filters, timeouts, limits,
//! interpolation), each reporting problems at their line and column.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hooks_core::{
    Action, BuiltinEvent, Dialect, Event, EventCatalog, Filter, HookSpec, IfCondition, Layer,
    Matcher, Provenance, StopBlockCap, TimeUnit,
};
use sha2::{Digest, Sha256};

use crate::detect;
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::interpolate::{self, EnvScope, Interpolation};
use crate::parse::{self, Format};
use crate::source::{self, Source};
use crate::tree::{Node, Pos, Value};

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

/// Loads one file. The dialect is detected from the file name and shape unless
/// [`LoadOptions::dialect`] names it.
///
/// Every problem of the file is reported at once: the error holds one diagnostic per
/// problem, each with file:line:col.
pub fn load_file(path: impl AsRef<Path>, options: &LoadOptions) -> Result<ConfigFile, Error> {
    load_file_within(path.as_ref(), None, options)
}

/// Loads a discovered file, which must lie inside `within` once symlinks are resolved.
pub(crate) fn load_file_within(
    path: &Path,
    within: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    // A Cline hook is an executable, never a config to parse.
    let cline = match options.dialect {
        Some(d) => d == Dialect::Cline,
        None => crate::dialects::cline::in_hooks_dir(path),
    };
    if cline {
        return crate::dialects::cline::load(path, within, options);
    }
    let src = source::read_file(path, within, options.max_file_size)?;
    load_source(src, options)
}

/// Loads config text. `path` names it in diagnostics and helps detection; nothing is read
/// from it.
pub fn load_str(
    text: &str,
    path: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    if text.len() as u64 > options.max_file_size {
        let d = Diagnostic::error(
            DiagnosticKind::TooLarge,
            format!(
                "the text is larger than the {}-byte limit ({} bytes)",
                options.max_file_size,
                text.len()
            ),
        );
        return Err(match path {
            Some(p) => d.with_file(p),
            None => d,
        }
        .into());
    }
    load_source(
        Source::new(path.map(Path::to_path_buf), text.to_owned()),
        options,
    )
}

/// Loads config bytes (checked for UTF-8 first).
pub fn load_bytes(
    bytes: Vec<u8>,
    path: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    if bytes.len() as u64 > options.max_file_size {
        let d = Diagnostic::error(
            DiagnosticKind::TooLarge,
            format!(
                "the text is larger than the {}-byte limit ({} bytes)",
                options.max_file_size,
                bytes.len()
            ),
        );
        return Err(match path {
            Some(p) => d.with_file(p),
            None => d,
        }
        .into());
    }
    let src = source::decode(path.map(Path::to_path_buf), bytes)?;
    load_source(src, options)
}

/// A config file's content as JSON, parsed but not interpreted (a SKILL.md gives its
/// frontmatter): what JSON Schema validators and other tools can check. The syntax comes
/// from `format`, else the file name, else the content.
pub fn parse_value(
    text: &str,
    path: Option<&Path>,
    format: Option<Format>,
) -> Result<serde_json::Value, Error> {
    let src = Source::new(path.map(Path::to_path_buf), text.to_owned());
    let is_markdown = path
        .and_then(Path::extension)
        .is_some_and(|e| e.eq_ignore_ascii_case("md"));
    let src = if is_markdown { frontmatter(&src)? } else { src };
    let format = format
        .or_else(|| path.and_then(Format::from_path))
        .unwrap_or_else(|| Format::sniff(src.text()));
    Ok(parse::parse(&src, format)?.to_json())
}

/// Loads parsed text; a file that does not look like a config says where it failed but
/// quotes none of its text (see [`source::conceal`]). A Fabro run config is recognised by its own keys, hooks or none
/// ([`crate::dialects::fabro::is_run_config`]).
fn load_source(src: Source, options: &LoadOptions) -> Result<ConfigFile, Error> {
    let named = options
        .dialect
        .or_else(|| src.path().and_then(detect::dialect_from_path));
    let run_config = crate::dialects::fabro::is_run_config(named, src.text());
    match load_text(&src, options) {
        Ok(file) if run_config => Ok(file),
        Ok(mut file) => {
            source::conceal_warnings(src.text(), &mut file.warnings);
            source::conceal_warnings(src.text(), &mut file.notes);
            Ok(file)
        }
        Err(e) if run_config => Err(e),
        Err(e) => Err(source::conceal(src.text(), e)),
    }
}

fn load_text(src: &Source, options: &LoadOptions) -> Result<ConfigFile, Error> {
    let path = src.path().map(Path::to_path_buf);
    let content_hash = hex(&Sha256::digest(src.text().as_bytes()));
    let is_markdown = path
        .as_deref()
        .and_then(Path::extension)
        .is_some_and(|e| e.eq_ignore_ascii_case("md"));
    // A SKILL.md is YAML frontmatter between `---` lines; the rest is Markdown.
    let body;
    let src = if is_markdown {
        body = frontmatter(src)?;
        &body
    } else {
        src
    };
    // A Cline hook is an executable, loaded from its file (`load_file`), never parsed.
    let cline = match options.dialect {
        Some(d) => d == Dialect::Cline,
        None => path.as_deref().and_then(detect::dialect_from_path) == Some(Dialect::Cline),
    };
    if cline {
        let d = Diagnostic::error(
            DiagnosticKind::Dialect,
            "a Cline hook is an executable file named after its event, not a config to parse",
        )
        .with_hint("load it from its file (`-c .clinerules/hooks/PreToolUse`)");
        return Err(src.file_diag(d).into());
    }
    let format = options
        .format
        .or_else(|| path.as_deref().and_then(Format::from_path))
        .unwrap_or_else(|| Format::sniff(src.text()));
    let root = parse::parse(src, format)?;
    let dialect = match options.dialect {
        Some(d) => d,
        None => detect::detect(path.as_deref(), format, &root)
            .map_err(|d| Error::from(src.file_diag(d)))?,
    };
    // The file's path placeholder: echo-agent's skill folder, a Claude Code plugin's root.
    let path_var = if dialect == Dialect::Echo {
        path.as_deref()
            .and_then(skill_dir)
            .map(|dir| ("${SKILL_DIR}", dir))
    } else if dialect == Dialect::Claude {
        path.as_deref()
            .and_then(detect::plugin_root)
            .map(|root| ("${CLAUDE_PLUGIN_ROOT}", root.to_string_lossy().into_owned()))
    } else if dialect == Dialect::Codex {
        // A Codex plugin's hooks file (`<plugin>/hooks/hooks.json`, or any its manifest
        // names, in Codex's plugin cache).
        path.as_deref()
            .and_then(crate::dialects::codex::plugin_root)
            .map(|root| ("${PLUGIN_ROOT}", root.to_string_lossy().into_owned()))
    } else if dialect == Dialect::Gemini {
        // A Gemini CLI extension's `<extension>/hooks/hooks.json`.
        path.as_deref()
            .and_then(detect::plugin_root)
            .map(|root| ("${extensionPath}", root.to_string_lossy().into_owned()))
    } else {
        None
    };
    let codex_plugin_env = match &path_var {
        Some(("${PLUGIN_ROOT}", root)) => crate::dialects::codex::plugin_env(Path::new(root)),
        _ => Vec::new(),
    };
    let mut cx = Cx {
        src,
        opts: options,
        dialect,
        format,
        diags: Vec::new(),
        structural: Vec::new(),
        notes: Vec::new(),
        file_vars: BTreeMap::new(),
        path_var,
        codex_plugin_env,
        hook_label: None,
        hints_left: 200,
    };
    let mut file = ConfigFile {
        path,
        dialect,
        format,
        layer: options.layer,
        origin: options.origin,
        items: Vec::new(),
        settings: Settings::default(),
        warnings: Vec::new(),
        notes: Vec::new(),
        content_hash,
    };
    crate::dialects::load(&mut cx, &root, &mut file);
    let diags = tidy(
        std::mem::take(&mut cx.structural),
        std::mem::take(&mut cx.diags),
    );
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Error::new(diags));
    }
    file.warnings = diags;
    file.notes = std::mem::take(&mut cx.notes);
    Ok(file)
}

/// The most diagnostics one file reports; past this, a note says how many more there were,
/// so a hostile file cannot make a report that takes longer to print than to write.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Orders diagnostics by position, drops a structural "wrong type" error (from the schema
/// check) where the loader, or the check itself, said something more specific about the
/// same value, and caps the count.
/// The folder `${SKILL_DIR}` names: the file's folder, made absolute. The file's path is
/// made absolute first, so a bare file name's folder is the current directory rather than
/// the empty string (which would turn `${SKILL_DIR}/x.sh` into `/x.sh`).
fn skill_dir(path: &Path) -> Option<String> {
    file_dir(path).map(|dir| dir.to_string_lossy().into_owned())
}

/// The folder of the file at `path`, made absolute (a bare file name's folder is the
/// current directory): what `${SKILL_DIR}` names and what a Fabro run config's relative
/// paths are resolved against.
pub(crate) fn file_dir(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = path.parent()?;
    Some(if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.to_path_buf()
    })
}

fn tidy(structural: Vec<Diagnostic>, loaded: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let at = |d: &Diagnostic| (d.line, d.column);
    // Positions where an error other than a structural "wrong type" was reported.
    let specific: std::collections::HashSet<(Option<u32>, Option<u32>)> = structural
        .iter()
        .filter(|d| d.kind != DiagnosticKind::WrongType)
        .chain(&loaded)
        .filter(|d| d.is_error())
        .map(at)
        .collect();
    // Positions where the loader itself reported an error: it says more than the schema's
    // "not one of" about the same value (Fabro's legacy `agent = "<task>"`, say).
    let by_loader: std::collections::HashSet<(Option<u32>, Option<u32>)> =
        loaded.iter().filter(|d| d.is_error()).map(at).collect();
    let mut out: Vec<Diagnostic> = structural
        .into_iter()
        .filter(|d| {
            !(d.kind == DiagnosticKind::WrongType && specific.contains(&at(d))
                || d.kind == DiagnosticKind::InvalidValue && by_loader.contains(&at(d)))
        })
        .chain(loaded)
        .collect();
    out.sort_by_key(|d| (d.line, d.column));
    if out.len() > MAX_DIAGNOSTICS {
        let more = out.len() - MAX_DIAGNOSTICS;
        let file = out[0].file.clone();
        out.truncate(MAX_DIAGNOSTICS);
        let mut note = Diagnostic::error(
            DiagnosticKind::Budget,
            format!("{more} more problems not shown"),
        );
        note.file = file;
        out.push(note);
    }
    out
}

/// Cuts the YAML frontmatter out of a Markdown file, keeping line numbers.
fn frontmatter(src: &Source) -> Result<Source, Error> {
    let text = src.text();
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != "---" {
        let d = Diagnostic::error(
            DiagnosticKind::Syntax,
            "a SKILL.md must start with a `---` line opening its YAML frontmatter",
        )
        .with_hint("write the hooks between `---` lines at the top of the file");
        return Err(src.diag(d, Pos::new(1, 1)).into());
    }
    let mut body = String::new();
    let mut closed = false;
    for line in lines {
        if matches!(line.trim_end(), "---" | "...") {
            closed = true;
            break;
        }
        body.push_str(line);
    }
    if !closed {
        let d = Diagnostic::error(
            DiagnosticKind::Syntax,
            "the SKILL.md frontmatter is not closed by a `---` line",
        );
        return Err(src.diag(d, Pos::new(1, 1)).into());
    }
    Ok(Source::new(src.path().map(Path::to_path_buf), body).with_line_offset(1))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Loading state shared by the dialect loaders.
pub(crate) struct Cx<'a> {
    pub(crate) src: &'a Source,
    pub(crate) opts: &'a LoadOptions,
    pub(crate) dialect: Dialect,
    /// The file's syntax.
    pub(crate) format: Format,
    pub(crate) diags: Vec<Diagnostic>,
    /// The schema check's diagnostics, kept apart so that `tidy` can tell them from the
    /// loader's.
    pub(crate) structural: Vec<Diagnostic>,
    /// Warnings for linters only ([`ConfigFile::notes`]).
    pub(crate) notes: Vec<Diagnostic>,
    pub(crate) file_vars: BTreeMap<String, String>,
    /// The file's path placeholder and its value (`${SKILL_DIR}` of a skill,
    /// `${CLAUDE_PLUGIN_ROOT}` of a plugin's hooks file), substituted at load.
    pub(crate) path_var: Option<(&'static str, String)>,
    /// The variables a Codex plugin's hooks get (`PLUGIN_ROOT`, ..., see
    /// [`crate::dialects::codex::plugin_env`]), worked out once for the file; empty but for
    /// a Codex plugin's hooks file.
    pub(crate) codex_plugin_env: Vec<(String, String)>,
    /// The hook being read, named in interpolation errors.
    pub(crate) hook_label: Option<String>,
    /// How many more did-you-mean searches this file may cost (see `check::HINT_BUDGET`).
    pub(crate) hints_left: usize,
}

/// The value of `key` in a map node, unless it is absent or null.
pub(crate) fn field<'n>(node: &'n Node, key: &str) -> Option<&'n Node> {
    node.get(key)
        .map(|e| &e.value)
        .filter(|v| v.value != Value::Null)
}

impl Cx<'_> {
    pub(crate) fn report(&mut self, d: Diagnostic, pos: Pos) {
        let d = self.src.diag(d, pos);
        self.diags.push(d);
    }

    pub(crate) fn error(
        &mut self,
        kind: DiagnosticKind,
        pos: Pos,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.report(Diagnostic::error(kind, message).with_hint_opt(hint), pos);
    }

    pub(crate) fn warn(
        &mut self,
        kind: DiagnosticKind,
        pos: Pos,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        self.report(Diagnostic::warning(kind, message).with_hint_opt(hint), pos);
    }

    pub(crate) fn provenance(&self, pos: Pos) -> Provenance {
        Provenance {
            file: self.src.path().map(Path::to_path_buf),
            line: Some(pos.line),
            column: Some(pos.col),
            layer: self.opts.layer,
        }
    }

    /// A string value; a wrong type was reported by the schema check already.
    pub(crate) fn string(&self, node: Option<&Node>) -> Option<String> {
        node.and_then(Node::as_str).map(str::to_owned)
    }

    pub(crate) fn boolean(&self, node: Option<&Node>) -> Option<bool> {
        match node.map(|n| &n.value) {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn strings(&self, node: Option<&Node>) -> Option<Vec<String>> {
        let items = node?.as_seq()?;
        Some(
            items
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
        )
    }

    /// The HTTP hook URL allow-list: each pattern is checked with the parser the HTTP
    /// executor compiles it with, and a bad one is an error at its own line and column, so
    /// that the file does not load (rather than the engine failing to build after the
    /// merge, where no position is known).
    pub(crate) fn url_patterns(&mut self, node: Option<&Node>) -> Option<Vec<String>> {
        if let Some(items) = node.and_then(Node::as_seq) {
            for item in items {
                let Some(pattern) = item.as_str() else {
                    continue;
                };
                if let Err(e) = hooks_core::UrlPattern::parse(pattern) {
                    self.error(
                        DiagnosticKind::InvalidValue,
                        item.pos,
                        e.to_string(),
                        Some("an entry is `*` or an http(s) URL such as `https://hooks.example.com/` or `http://localhost:*` (`*` stands for any run of characters)".to_owned()),
                    );
                }
            }
        }
        self.strings(node)
    }

    /// A table of strings, in written order, each value interpolated.
    pub(crate) fn string_map(&mut self, node: Option<&Node>) -> Vec<(String, String)> {
        self.string_map_in(node, EnvScope::All)
    }

    /// A table of strings, in written order, each value interpolated reading only the
    /// environment `env` allows.
    pub(crate) fn string_map_in(
        &mut self,
        node: Option<&Node>,
        env: EnvScope<'_>,
    ) -> Vec<(String, String)> {
        let Some(entries) = node.and_then(Node::as_map) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in entries {
            if let Some(v) = e.value.as_str() {
                let v = self.interp_in(v, e.value.pos, env);
                out.push((e.key.clone(), v));
            }
        }
        out
    }

    /// Resolves an event name written at `pos`; an unknown one is an error there.
    pub(crate) fn event(&mut self, name: &str, pos: Pos) -> Option<Event> {
        // Cursor's names for an event on one tool (`beforeShellExecution` is PreToolUse on
        // the shell tool) mean that tool only in Cursor's files; elsewhere the name alone
        // would make a hook for every tool.
        if self.dialect != Dialect::Cursor
            && let Some(cursor) = hooks_core::cursor::EVENTS.iter().find(|e| {
                e.tools != hooks_core::cursor::Tools::Any && e.name.eq_ignore_ascii_case(name)
            })
        {
            let matcher = cursor.tools.matcher().unwrap_or_default();
            self.error(
                DiagnosticKind::UnknownEvent,
                pos,
                format!(
                    "`{name}` is Cursor's name for {} on some tools only",
                    cursor.event.name()
                ),
                Some(format!(
                    "write the event `{}` with the matcher `{matcher}`, or {}",
                    cursor.event.name(),
                    if self.dialect == Dialect::Native {
                        "add `dialect: cursor` to give the hook Cursor's JSON"
                    } else {
                        "keep the hook in a Cursor `hooks.json`"
                    }
                )),
            );
            return None;
        }
        match self.lookup_event(name) {
            Ok(event) => Some(event),
            Err(hint) => {
                self.error(
                    DiagnosticKind::UnknownEvent,
                    pos,
                    format!("unknown event `{name}`"),
                    hint,
                );
                None
            }
        }
    }

    /// Resolves an event name, or gives the did-you-mean hint for an unknown one.
    pub(crate) fn lookup_event(&mut self, name: &str) -> Result<Event, Option<String>> {
        if let Some(event) = self.opts.catalog.get(name) {
            return Ok(event);
        }
        // Thousands of unknown events are not typos; stop searching for suggestions.
        if self.hints_left == 0 {
            return Err(None);
        }
        self.hints_left -= 1;
        self.opts.catalog.resolve(name).map_err(|e| e.hint())
    }

    /// Compiles a matcher: Claude's rules, or always a regex (Fabro, Autohand).
    pub(crate) fn matcher(
        &mut self,
        node: Option<&Node>,
        event: Option<&Event>,
        regex: bool,
    ) -> Option<Matcher> {
        let Some(node) = node else {
            return Some(Matcher::all());
        };
        let pattern = node.as_str()?;
        let compiled = if regex {
            Matcher::regex(pattern)
        } else {
            Matcher::parse(pattern)
        };
        match compiled {
            Ok(m) => {
                if let Some(event) = event
                    && !m.is_all()
                    && event.info().matcher_fields_in(self.dialect).is_empty()
                {
                    self.warn(
                        DiagnosticKind::InvalidValue,
                        node.pos,
                        format!("event `{}` has no matcher subject, so the matcher `{pattern}` is ignored", event.info().name_in(self.dialect)),
                        Some("remove the matcher; the hook fires on every occurrence".to_owned()),
                    );
                }
                Some(m)
            }
            Err(e) => {
                let message = match regex_reason(&e) {
                    Some(why) => format!("invalid matcher `{pattern}`: {why}"),
                    None => e.to_string(),
                };
                self.error(DiagnosticKind::InvalidMatcher, node.pos, message, e.hint());
                None
            }
        }
    }

    pub(crate) fn condition(&mut self, node: Option<&Node>) -> Option<Option<IfCondition>> {
        let Some(node) = node else {
            return Some(None);
        };
        let text = node.as_str()?;
        match IfCondition::parse(text) {
            Ok(c) => Some(Some(c)),
            Err(e) => {
                let message = e.to_string();
                let message = message
                    .split(" (an `if`")
                    .next()
                    .unwrap_or(&message)
                    .to_owned();
                self.error(
                    DiagnosticKind::InvalidCondition,
                    node.pos,
                    message,
                    e.hint(),
                );
                None
            }
        }
    }

    /// A `{tool: [..], path: [..], command: REGEX}` filter.
    pub(crate) fn filter(&mut self, node: Option<&Node>) -> Option<Filter> {
        let Some(node) = node else {
            return Some(Filter::new());
        };
        let tools = self.strings(field(node, "tool")).unwrap_or_default();
        let mut filter = Filter::new().with_tools(tools);
        if let Some(command) = field(node, "command")
            && let Some(pattern) = command.as_str()
        {
            match filter.clone().with_command(pattern) {
                Ok(f) => filter = f,
                Err(e) => {
                    let message = e.to_string();
                    let why = regex_reason(&e).unwrap_or(&message);
                    self.error(
                        DiagnosticKind::InvalidMatcher,
                        command.pos,
                        format!("invalid `filter.command` `{pattern}`: {why}"),
                        Some("`filter.command` is a regular expression found anywhere in the command text".to_owned()),
                    );
                    return None;
                }
            }
        }
        if let Some(paths) = field(node, "path").and_then(Node::as_seq) {
            for glob in paths {
                let Some(text) = glob.as_str() else { continue };
                match filter.clone().with_paths([text]) {
                    Ok(f) => filter = f,
                    Err(e) => {
                        self.error(DiagnosticKind::InvalidGlob, glob.pos, e.to_string(), Some("globs use `*`, `?`, `[..]`, `{a,b}` and `**`; a leading `!` excludes".to_owned()));
                        return None;
                    }
                }
            }
        }
        Some(filter)
    }

    /// A hook's `loop_limit` on `event` (Cursor's, and the native format's): how many
    /// consecutive follow-ups its Stop or SubagentStop block may make, `null` for no limit.
    /// `written` is the value as written, `null` included (`hook.get("loop_limit")`);
    /// `events` names Stop and SubagentStop as the dialect spells them, for the warning on
    /// another event, where the limit is ignored. `Some(None)`: not written, or ignored;
    /// `None`: invalid (reported).
    pub(crate) fn loop_limit(
        &mut self,
        written: Option<&Node>,
        event: &Event,
        events: &str,
    ) -> Option<Option<StopBlockCap>> {
        let Some(node) = written else {
            return Some(None);
        };
        let loops = matches!(
            event,
            Event::Builtin(BuiltinEvent::Stop | BuiltinEvent::SubagentStop)
        );
        if !loops {
            self.warn(
                DiagnosticKind::InvalidValue,
                node.pos,
                format!("`loop_limit` applies to {events} only; ignored here"),
                None,
            );
            return Some(None);
        }
        match &node.value {
            Value::Null => Some(Some(StopBlockCap::NONE)),
            Value::Int(n) => match u32::try_from(*n) {
                Ok(n) => Some(Some(StopBlockCap::at_most(n))),
                Err(_) => {
                    self.error(
                        DiagnosticKind::InvalidValue,
                        node.pos,
                        "`loop_limit` is a count of follow-ups (0 or more), or null for no limit",
                        None,
                    );
                    None
                }
            },
            // Another type was reported by the schema check.
            _ => None,
        }
    }

    /// A timeout in the dialect's unit ([`TimeUnit::of`]), clamped to the maximum.
    pub(crate) fn timeout(&mut self, node: Option<&Node>) -> Option<Option<Duration>> {
        let Some(node) = node else {
            return Some(None);
        };
        let unit = TimeUnit::of(self.dialect);
        let parsed: Result<Duration, String> = match (&node.value, unit) {
            (Value::Int(_) | Value::Float(_), TimeUnit::DurationString) => {
                Err("a Fabro timeout is a duration string".to_owned())
            }
            (Value::Int(i), TimeUnit::Seconds { .. }) => seconds(*i as f64),
            (Value::Float(f), TimeUnit::Seconds { .. }) => seconds(*f),
            (Value::Int(i), TimeUnit::Millis) => seconds(*i as f64 / 1000.0),
            (Value::Float(f), TimeUnit::Millis) => seconds(*f / 1000.0),
            (Value::Str(s), TimeUnit::DurationString | TimeUnit::Seconds { strings: true }) => {
                parse_duration(s).map_err(|why| format!("`{s}` is not a duration: {why}"))
            }
            // Wrong types were reported by the schema check.
            _ => return None,
        };
        match parsed {
            Ok(d) if d.is_zero() => {
                self.error(
                    DiagnosticKind::Timeout,
                    node.pos,
                    "a timeout must be greater than zero",
                    None,
                );
                None
            }
            Ok(d) => Some(Some(self.clamp(d, node.pos))),
            Err(message) => {
                let hint = match unit {
                    TimeUnit::DurationString => "write it as `\"30s\"`, `\"1m\"` or `\"1m 30s\"`",
                    TimeUnit::Seconds { .. } => {
                        "write a number of seconds, or a duration such as `\"30s\"`"
                    }
                    TimeUnit::Millis => "write a number of milliseconds",
                };
                self.error(
                    DiagnosticKind::Timeout,
                    node.pos,
                    format!("invalid timeout: {message}"),
                    Some(hint.to_owned()),
                );
                None
            }
        }
    }

    /// Clamps a timeout to the maximum, with a warning at `pos` if it was above.
    pub(crate) fn clamp(&mut self, d: Duration, pos: Pos) -> Duration {
        let max = self.opts.max_timeout;
        if d > max {
            self.warn(
                DiagnosticKind::Timeout,
                pos,
                format!(
                    "timeout of {} is above the maximum of {}; using {}",
                    humantime::format_duration(d),
                    humantime::format_duration(max),
                    humantime::format_duration(max)
                ),
                None,
            );
            max
        } else {
            d
        }
    }

    /// The default timeout of the hook doing `action` on `event` written at `pos`, from the
    /// one table ([`hooks_core::default_timeout`]): used as is, or the maximum if it is
    /// lower, with a note for linters, since the hook then gets less time than its dialect
    /// promises (Claude Code's 600 s default against the 300 s maximum).
    pub(crate) fn default_timeout(&mut self, event: &Event, action: &Action, pos: Pos) -> Duration {
        let d = hooks_core::default_timeout_for(self.dialect, action, event);
        let max = self.opts.max_timeout;
        if d > max {
            let note = Diagnostic::warning(
                DiagnosticKind::Timeout,
                format!(
                    "the hook has no `timeout`, and the {} default of {} is above the maximum of {}; using {}",
                    self.dialect,
                    humantime::format_duration(d),
                    humantime::format_duration(max),
                    humantime::format_duration(max)
                ),
            )
            .with_hint(format!(
                "set `timeout` on the hook to say how long it may run (at most {})",
                humantime::format_duration(max)
            ));
            let note = self.src.diag(note, pos);
            self.notes.push(note);
            max
        } else {
            d
        }
    }

    /// Rejects a command longer than the maximum.
    pub(crate) fn check_command_len(&mut self, len: usize, pos: Pos) -> bool {
        if len > self.opts.max_command_len {
            self.error(
                DiagnosticKind::CommandTooLong,
                pos,
                format!(
                    "the command is {len} bytes long, more than the maximum of {} bytes",
                    self.opts.max_command_len
                ),
                Some("put long scripts in a file and run the file".to_owned()),
            );
            false
        } else {
            true
        }
    }

    /// The root of the Claude Code plugin whose hooks file this is, if it is one.
    pub(crate) fn plugin_root(&self) -> Option<&str> {
        match &self.path_var {
            Some(("${CLAUDE_PLUGIN_ROOT}", root)) => Some(root),
            _ => None,
        }
    }

    /// Interpolates a string written at `pos` (see [`crate::interpolate`]).
    pub(crate) fn interp(&mut self, s: &str, pos: Pos) -> String {
        self.interp_in(s, pos, EnvScope::All)
    }

    /// Interpolates a string written at `pos`, reading only the environment `env` allows.
    pub(crate) fn interp_in(&mut self, s: &str, pos: Pos, env: EnvScope<'_>) -> String {
        let mut warnings = Vec::new();
        let result = interpolate::load_time(
            s,
            &self.opts.interpolation,
            &self.file_vars,
            self.path_var.as_ref().map(|(p, v)| (*p, v.as_str())),
            env,
            &mut warnings,
        );
        for w in warnings {
            let message = match &self.hook_label {
                Some(label) => format!("hook `{label}`: {}", w.message),
                None => w.message,
            };
            self.warn(DiagnosticKind::Interpolation, pos, message, w.hint);
        }
        match result {
            Ok(out) => out,
            Err(e) => {
                let message = match &self.hook_label {
                    Some(label) => format!("hook `{label}`: {}", e.message),
                    None => e.message,
                };
                self.error(DiagnosticKind::Interpolation, pos, message, e.hint);
                s.to_owned()
            }
        }
    }
}

/// Parses a duration string such as `30s`, `500ms` or `1m 30s` (units `ns`, `us`, `ms`,
/// `s`, `m`, `h`, `d` and their longer spellings); the error says in plain words what is
/// wrong with it (`` `x` is not a unit ``), for every place that reads one.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    use humantime::DurationError as E;
    humantime::parse_duration(text.trim()).map_err(|e| match e {
        E::Empty => "it is empty".to_owned(),
        E::NumberExpected(_) => "a duration is a number and a unit".to_owned(),
        E::InvalidCharacter(at) => match text.trim().get(at..).and_then(|t| t.chars().next()) {
            Some(c) => format!("`{c}` cannot be part of a duration"),
            None => "a duration is a number and a unit".to_owned(),
        },
        E::UnknownUnit { unit, .. } => {
            format!("`{unit}` is not a unit (use ms, s, m or h)")
        }
        E::NumberOverflow => "it is too large".to_owned(),
    })
}

/// Why a matcher or a `filter.command` pattern does not compile, as the regex engine says
/// it (`unclosed group`, without its `error: ` prefix); `None` for an error that is not
/// an invalid matcher.
fn regex_reason(e: &hooks_core::Error) -> Option<&str> {
    if let hooks_core::ErrorKind::InvalidMatcher { message, .. } = e.kind() {
        Some(message.strip_prefix("error: ").unwrap_or(message))
    } else {
        None
    }
}

fn seconds(s: f64) -> Result<Duration, String> {
    if !s.is_finite() || s < 0.0 {
        return Err(format!("{s} is not a non-negative number"));
    }
    Duration::try_from_secs_f64(s).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_reasons() {
        let reason = |p: &str| {
            Matcher::regex(p)
                .err()
                .and_then(|e| regex_reason(&e).map(str::to_owned))
        };
        assert_eq!(reason("git (push").as_deref(), Some("unclosed group"));
        assert_eq!(reason("a)").as_deref(), Some("unopened group"));
        assert_eq!(reason("Bash"), None);
        let other = hooks_core::Error::new(hooks_core::ErrorKind::InvalidSpec {
            message: "x".to_owned(),
        });
        assert_eq!(regex_reason(&other), None);
    }
}
