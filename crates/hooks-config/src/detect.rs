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
//! (`BeforeTool`, `AfterAgent`, `BeforeModel`, ...) in a JSON file, is Gemini CLI; `_version`, `[run]` or `[workflow]` (or a legacy top-level
//! By shape, whatever the name: a top-level `version` beside `hooks` keyed by Cursor's
//! event names with flat entries is Cursor (also for a plugin's `hooks/hooks.json`);
//! `_version`, `[run]` or `[workflow]` (or a legacy top-level
//! `[[hooks]]` list whose hooks use Fabro's `script`/`blocking` keys) is Fabro;
//! `hooks.enabled` or `hooks.hooks[]` is Autohand; `hooks.<Event>[].hooks[]` (nested by
//! event) is native when any hook uses a key only the native format has (`id`,
//! `on_failure`, ...), else Claude Code in JSON, echo-agent in YAML and native in TOML; a
//! top-level `hooks` list is native.
//! [`crate::LoadOptions::dialect`] overrides all of this.

use std::path::{Path, PathBuf};

use hooks_core::Dialect;

use crate::error::{Diagnostic, DiagnosticKind};
use crate::parse::Format;
use crate::reader::field;
use crate::tree::{Node, Value};

/// Keys only the native format has on a hook.
const NATIVE_ONLY: [&str; 10] = [
    "id",
    "on_failure",
    "sequential",
    "enabled",
    "remove",
    "filter",
    "args",
    "allowed_env_vars",
    "mode",
    "cwd",
];

/// The dialect a file name alone implies.
pub fn dialect_from_path(path: &Path) -> Option<Dialect> {
    if crate::dialects::cline::in_hooks_dir(path) {
        return Some(Dialect::Cline);
    }
    let name = path.file_name()?.to_str()?;
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if crate::dialects::codex::is_codex_path(path) {
        return Some(Dialect::Codex);
    }
    if is_gemini_path(path) {
        return Some(Dialect::Gemini);
    }
    match name {
        "SKILL.md" | "echo-agent.yaml" | "echo-agent.yml" => Some(Dialect::Echo),
        "settings.json" | "settings.local.json" | "managed-settings.json" => Some(Dialect::Claude),
        // Claude Code's MCP server files: `.mcp.json` (a project's), `~/.claude.json`, and
        // the managed `managed-mcp.json`.
        ".mcp.json" | ".claude.json" | "managed-mcp.json" => Some(Dialect::Claude),
        // Cursor's `hooks.json`, in a `.cursor` folder (the project's, the user's) or a
        // `cursor` one (the enterprise file, `/etc/cursor/hooks.json`).
        "hooks.json" if parent == ".cursor" || parent.eq_ignore_ascii_case("cursor") => {
            Some(Dialect::Cursor)
        }
        // A Claude Code plugin's hooks file, `<plugin>/hooks/hooks.json`.
        "hooks.json" if parent == "hooks" => Some(Dialect::Claude),
        "config.json" if parent == ".autohand" => Some(Dialect::Autohand),
        "project.toml" | "settings.toml" if parent == ".fabro" => Some(Dialect::Fabro),
        "run.toml" | "workflow.toml" | "fabro.toml" => Some(Dialect::Fabro),
        _ if name.ends_with(".md") => Some(Dialect::Echo),
        _ => None,
    }
}

/// Whether `path` is where Gemini CLI keeps hooks: `settings.json` in `.gemini/` (user,
/// project) or `gemini-cli/` (`/etc/gemini-cli`, system), or an extension's
/// `.gemini/extensions/<name>/hooks/hooks.json`.
fn is_gemini_path(path: &Path) -> bool {
    let names: Vec<&str> = path
        .iter()
        .rev()
        .take(5)
        .filter_map(|c| c.to_str())
        .collect();
    matches!(
        names.as_slice(),
        ["settings.json", ".gemini" | "gemini-cli", ..]
            | ["hooks.json", "hooks", _, "extensions", ".gemini"]
    )
}

/// Whether `name` is an event name of Gemini CLI's that no other dialect uses: its
/// spellings of shared events (`BeforeTool`) and its own events (`BeforeModel`).
fn is_gemini_only_name(name: &str) -> bool {
    let profile = Dialect::Gemini.profile();
    profile.event_names.iter().any(|(event, own)| {
        *own == name
            && Dialect::ALL
                .iter()
                .filter(|d| **d != Dialect::Gemini)
                .all(|d| !d.profile().has_event(*event) || event.info().name_in(*d) != name)
    })
}

/// The plugin a Claude Code plugin hooks file belongs to: for `<plugin>/hooks/hooks.json`,
/// the `<plugin>` folder, made absolute (what `${CLAUDE_PLUGIN_ROOT}` names).
pub fn plugin_root(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let hooks = path.parent()?;
    let is_plugin_file = path.file_name().is_some_and(|n| n == "hooks.json")
        && hooks.file_name().is_some_and(|n| n == "hooks");
    is_plugin_file.then(|| hooks.parent().map(Path::to_path_buf))?
}

/// The layer a file's name gives it in its dialect's own layering, for the dialects that
/// layer files by role: Fabro's `~/.fabro/settings.toml` (any `.fabro/settings.toml`) is
/// the user layer, `.fabro/project.toml` the project layer, and any other Fabro run config
/// (`run.toml`, `workflow.toml`, ..., or a file `dialect` says is Fabro) the run layer.
/// `None`: the file's dialect does not say, and the caller's default applies.
pub fn layer_from_path(path: &Path, dialect: Option<Dialect>) -> Option<hooks_core::Layer> {
    use hooks_core::Layer;
    let name = path.file_name()?.to_str()?;
    let in_fabro_dir = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == ".fabro");
    let fabro = match dialect {
        Some(d) => d == Dialect::Fabro,
        None => dialect_from_path(path) == Some(Dialect::Fabro),
    };
    if !fabro {
        return None;
    }
    Some(match name {
        "settings.toml" if in_fabro_dir => Layer::User,
        "project.toml" if in_fabro_dir => Layer::Project,
        _ => Layer::Run,
    })
}

/// The dialect a parsed file's shape implies, if it says.
pub(crate) fn dialect_from_shape(format: Format, root: &Node) -> Option<Dialect> {
    root.as_map()?;
    if crate::dialects::gemini::has_hooks_config(root) {
        return Some(Dialect::Gemini);
    }
    if is_cursor_shape(root) {
        return Some(Dialect::Cursor);
    }
    if ["_version", "run", "workflow", "environments"]
        .iter()
        .any(|k| root.get(k).is_some())
    {
        return Some(Dialect::Fabro);
    }
    if [
        "disableAllHooks",
        "allowManagedHooksOnly",
        "allowedHttpHookUrls",
        "mcpServers",
    ]
    .iter()
    .any(|k| root.get(k).is_some())
        && root.get("hooks").is_none()
    {
        return Some(Dialect::Claude);
    }
    let Some(hooks) = field(root, "hooks") else {
        let native = [
            "version",
            "vars",
            "disable_all_hooks",
            "managed_hooks_only",
            "allowed_http_hook_urls",
            "mcp_servers",
        ]
        .iter()
        .any(|k| root.get(k).is_some());
        return native.then_some(Dialect::Native);
    };
    match &hooks.value {
        Value::Map(entries) => {
            if entries.iter().any(|e| e.key == "enabled")
                || entries
                    .iter()
                    .any(|e| e.key == "hooks" && e.value.as_seq().is_some())
            {
                return Some(Dialect::Autohand);
            }
            // An event only Gemini CLI spells so (`BeforeTool`, `AfterAgent`, ...), in JSON.
            if format == Format::Json && entries.iter().any(|e| is_gemini_only_name(&e.key)) {
                return Some(Dialect::Gemini);
            }
            let handlers = entries
                .iter()
                .filter_map(|e| e.value.as_seq())
                .flatten()
                .filter_map(|group| field(group, "hooks").and_then(Node::as_seq))
                .flatten();
            let mut native = false;
            for h in handlers {
                if NATIVE_ONLY.iter().any(|k| h.get(k).is_some()) {
                    native = true;
                }
            }
            Some(match (native, format) {
                (true, _) | (false, Format::Toml) => Dialect::Native,
                (false, Format::Json) => Dialect::Claude,
                (false, Format::Yaml) => Dialect::Echo,
            })
        }
        Value::Seq(items) => {
            let fabro_like = items
                .iter()
                .any(|h| h.get("script").is_some() || h.get("blocking").is_some());
            Some(if fabro_like {
                Dialect::Fabro
            } else {
                Dialect::Native
            })
        }
        _ => None,
    }
}

/// Whether a file has Cursor's shape: a top-level `version` beside `hooks` whose events are
/// Cursor's (camelCase: `beforeShellExecution`, `stop`, ...) holding flat entries (a
/// `command` or `prompt` each, no nested `hooks` as Claude Code's matcher groups have).
fn is_cursor_shape(root: &Node) -> bool {
    let Some(hooks) = field(root, "hooks").and_then(Node::as_map) else {
        return false;
    };
    if root.get("version").is_none() || hooks.is_empty() {
        return false;
    }
    let cursor_events = hooks
        .iter()
        .all(|e| hooks_core::cursor::event(&e.key).is_some());
    let flat = hooks
        .iter()
        .filter_map(|e| e.value.as_seq())
        .flatten()
        .all(|entry| entry.get("hooks").is_none());
    cursor_events && flat
}

/// The dialect of a file: by name, else by shape, else an error saying how to name it.
pub(crate) fn detect(
    path: Option<&Path>,
    format: Format,
    root: &Node,
) -> Result<Dialect, Diagnostic> {
    if let Some(d) = path.and_then(dialect_from_path) {
        // A Cursor plugin's `hooks/hooks.json` has Cursor's shape, a Claude Code plugin's
        // Claude's.
        if d == Dialect::Claude && is_cursor_shape(root) {
            return Ok(Dialect::Cursor);
        }
        return Ok(d);
    }
    if let Some(d) = dialect_from_shape(format, root) {
        return Ok(d);
    }
    // An empty file or one without hooks is a native file with nothing in it.
    let empty = match &root.value {
        Value::Null => true,
        Value::Map(entries) => entries.is_empty(),
        _ => false,
    };
    if empty {
        return Ok(Dialect::Native);
    }
    Err(Diagnostic::error(
        DiagnosticKind::Dialect,
        "cannot tell which dialect this file is written in",
    )
    .with_hint(
        "give it a `hooks` key (native, Claude, echo-agent, Autohand or Cursor shape) or Fabro's `_version`/`[run]`, or name the dialect: `--dialect native|claude|echo|fabro|autohand|cursor|cline` on the command line, `LoadOptions::with_dialect` in code",
    ))
}
