//! Telling a file's dialect from its name and, failing that, its shape.
//!
//! By name and place: a `settings.json` in a `.gemini` or `gemini-cli` folder, and an
//! extension's `.gemini/extensions/<name>/hooks/hooks.json`, are Gemini CLI (shaped like
//! Claude Code's, told apart by where they are); a `hooks.json`, `config.toml` or
//! `requirements.toml` in a `.codex` folder (or `$CODEX_HOME`, or `/etc/codex`) is Codex,
//! and so is a plugin's hooks file in a Codex home's plugin cache (any JSON file of
//! `plugins/cache/<marketplace>/<plugin>/<version>/` but `plugin.json`, `.mcp.json` and
//! `.app.json`).
//! By name: `SKILL.md` and `echo-agent.yaml` are echo-agent; `settings.json`,
//! `settings.local.json`, `managed-settings.json`, the MCP server files `.mcp.json`,
//! `.claude.json` and `managed-mcp.json`, and a plugin's `hooks/hooks.json` are Claude Code; a `config.json` in an
//! `.autohand` folder is Autohand; `.fabro/project.toml`, `~/.fabro/settings.toml`,
//! `run.toml`, `workflow.toml` and `fabro.toml` are Fabro; a `hooks.json` in a `.cursor`
//! folder (or `cursor`, the enterprise file's) is Cursor; a file directly in one of
//! Cline's hooks directories (`.clinerules/hooks/`, `~/Documents/Cline/Hooks/`,
//! `$CLINE_DIR/hooks/`, ...) is a Cline hook, which is never parsed (see `dialects::cline`).
//!
//! By shape, whatever the name: `hooksConfig`, or an event only Gemini CLI names so
//! (`BeforeTool`, `AfterAgent`, `BeforeModel`, ...) in a JSON file, is Gemini CLI; a
//! top-level `version` beside `hooks` keyed by Cursor's event names with flat entries is
//! Cursor (also for a plugin's `hooks/hooks.json`); `_version`, `[run]` or `[workflow]`
//! (or a legacy top-level
//! `[[hooks]]` list whose hooks use Fabro's `script`/`blocking` keys) is Fabro;
//! `hooks.enabled` or `hooks.hooks[]` is Autohand; `hooks.<Event>[].hooks[]` (nested by
//! event) is native when any hook uses a key only the native format has (`id`,
//! `on_failure`, ...), else Claude Code in JSON, echo-agent in YAML and native in TOML; a
//! top-level `hooks` list is native.
//! [`crate::LoadOptions::dialect`] overrides all of this.
//!
//! Each of these rules is its dialect's, in its row (`dialects::<name>::FILES`: its
//! `from_path`, its `shapes` with their ranks); this module asks every row.

use std::path::Path;
use std::sync::LazyLock;

use hooks_core::{Dialect, Layer};

use crate::dialects::files::Shape;
use crate::dialects::{self, Claim};
use crate::error::{Diagnostic, DiagnosticKind};
use crate::parse::Format;
use crate::tree::{Node, Value};

/// The dialect a file name alone implies: the first dialect (in [`Dialect::ALL`] order)
/// whose place the path is in, else the first whose file name it has.
pub fn dialect_from_path(path: &Path) -> Option<Dialect> {
    let mut by_name = None;
    for dialect in Dialect::ALL {
        match (dialects::of(dialect).from_path)(path) {
            Some(Claim::Place) => return Some(dialect),
            Some(Claim::Name) => {
                by_name.get_or_insert(dialect);
            }
            None => {}
        }
    }
    by_name
}

/// The layer a file's name gives it in its dialect's own layering, for the dialects that
/// layer files by role: Fabro's `~/.fabro/settings.toml` (any `.fabro/settings.toml`) is
/// the user layer, `.fabro/project.toml` the project layer, and any other Fabro run config
/// (`run.toml`, `workflow.toml`, ..., or a file `dialect` says is Fabro) the run layer.
/// `None`: the file's dialect does not say, and the caller's default applies.
pub fn layer_from_path(path: &Path, dialect: Option<Dialect>) -> Option<Layer> {
    let dialect = dialect.or_else(|| dialect_from_path(path))?;
    (dialects::of(dialect).layer_from_path)(path)
}

/// Every dialect's shapes, by rank (on a tie, in [`Dialect::ALL`] order): gathered and
/// sorted once per process.
static SHAPES: LazyLock<Vec<(&'static Shape, Dialect)>> = LazyLock::new(|| {
    let mut shapes: Vec<_> = Dialect::ALL
        .into_iter()
        .flat_map(|d| dialects::of(d).shapes.iter().map(move |s| (s, d)))
        .collect();
    shapes.sort_by_key(|(shape, _)| shape.rank);
    shapes
});

/// The dialect a parsed file's shape implies, if it says: the first shape of every
/// dialect's, by rank, that the file has.
pub(crate) fn dialect_from_shape(format: Format, root: &Node) -> Option<Dialect> {
    root.as_map()?;
    SHAPES
        .iter()
        .find(|(shape, _)| (shape.fits)(format, root))
        .map(|&(_, dialect)| dialect)
}

/// The dialect of a file: by name (unless its shape is another's that shares the name),
/// else by shape, else an error saying how to name it.
pub(crate) fn detect(
    path: Option<&Path>,
    format: Format,
    root: &Node,
) -> Result<Dialect, Diagnostic> {
    if let Some(d) = path.and_then(dialect_from_path) {
        return Ok((dialects::of(d).shape_over_name)(root).unwrap_or(d));
    }
    if let Some(d) = dialect_from_shape(format, root) {
        return Ok(d);
    }
    // An empty file or one without hooks is a file of the default (native) dialect with
    // nothing in it.
    let empty = match &root.value {
        Value::Null => true,
        Value::Map(entries) => entries.is_empty(),
        _ => false,
    };
    if empty {
        return Ok(Dialect::default());
    }
    Err(Diagnostic::error(
        DiagnosticKind::Dialect,
        "cannot tell which dialect this file is written in",
    )
    .with_hint(
        "give it a `hooks` key (native, Claude, echo-agent, Autohand or Cursor shape) or Fabro's `_version`/`[run]`, or name the dialect: `--dialect native|claude|echo|fabro|autohand|cursor|cline` on the command line, `LoadOptions::with_dialect` in code",
    ))
}
