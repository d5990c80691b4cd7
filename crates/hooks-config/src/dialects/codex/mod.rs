//! Codex's hooks files: `hooks.json` and the `[hooks]` of a `config.toml` (user
//! `$CODEX_HOME`, project `.codex/`) or `requirements.toml` (managed), and a plugin's
//! `hooks/hooks.json`.
//!
//! As Codex reads them: a `hooks.json` takes only `description` and `hooks` at its root
//! (any other root key rejects the whole file, with a warning); a TOML config's other
//! settings are Codex's and are ignored; under `hooks`, `state` (the per-hook
//! `enabled` and `trusted_hash`), `managed_dir` and `windows_managed_dir` are not events.
//! An unknown event, which Codex ignores silently, is reported and skipped. `prompt` and
//! `agent` handlers and `async: true` handlers are skipped with a warning, as Codex skips
//! them (an async SessionEnd hook runs synchronously, as in Codex). A matcher of only
//! letters, digits, `_` and `|` is an exact list, anything else a regular expression.
//! `[hooks.state."<file>:<event>:<group>:<handler>"] enabled = false` disables one of this
//! file's hooks.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use hooks_core::{BuiltinEvent, Dialect, Matcher};

use crate::check;
use crate::dialects::files::{Claim, DialectFiles, EditRules, SwitchNames, Writing};
use crate::dialects::handler::{self, handler};
use crate::error::DiagnosticKind;
use crate::file::{ConfigFile, Item};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader, field};
use crate::schema::FileSchema;
use crate::tree::{Entry, Node, Value};
use crate::write::WriteRules;

mod convert;
mod plugins;

pub(crate) use plugins::enabled_hooks as enabled_plugin_hooks;

/// Codex's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Codex,
    formats: &[Format::Json],
    from_path: |path| {
        path.file_name()?.to_str()?;
        is_codex_path(path).then_some(Claim::Place)
    },
    shapes: &[],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: None,
    read,
    // A Codex plugin's hooks file (`<plugin>/hooks/hooks.json`, or any its manifest
    // names, in Codex's plugin cache).
    path_var: |path| {
        plugin_root(path).map(|root| ("${PLUGIN_ROOT}", root.to_string_lossy().into_owned()))
    },
    reading: ReadRules::PLAIN,
    writing: Writing::File(convert::write),
    write_rules: WriteRules {
        joins_names: true,
        kept_in_native: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        refusal: Some(
            "is a Codex hooks file, which this command does not edit in place\n  hint: edit the file itself (`hooks validate` checks it), or convert it to a native config (`hooks convert --to native`) and edit that",
        ),
        project_settings: Some(".codex/hooks.json"),
        settings_unnamed: Some(
            "name the Codex file whose hooks move: `hooks migrate codex ~/.codex/hooks.json` or `~/.codex/config.toml`",
        ),
        settings_files: Some(
            "`~/.codex/hooks.json`, `~/.codex/config.toml`, `.codex/hooks.json`, `.codex/config.toml`",
        ),
        ..EditRules::IN_PLACE
    },
};

/// Reads a Codex hooks file: what is not hooks and the handlers Codex skips are left out
/// (a `hooks.json` Codex rejects whole loads none), the rest checked against Codex's
/// schema (unknown keys ignored with a warning), then [`load`].
fn read(reader: &mut Reader<'_>, root: &Node, file: &mut ConfigFile) {
    if !check::top_table(reader, root) {
        return;
    }
    let Some((root, disabled)) = prune(reader, root, reader.format) else {
        return;
    };
    check::file(reader, FileSchema::Codex, &root, handler::rename_hint);
    super::claude::soften_unknown_keys(&mut reader.structural);
    load(reader, &root, &disabled, file);
}

/// The keys under `hooks` that are not events.
const NOT_EVENTS: [&str; 3] = ["state", "managed_dir", "windows_managed_dir"];

/// The bounds Codex puts on a SessionEnd hook's timeout.
const SESSION_END_MIN: std::time::Duration = std::time::Duration::from_secs(1);
const SESSION_END_MAX: std::time::Duration = std::time::Duration::from_secs(3);

/// The root keys of a `hooks.json`.
const JSON_ROOT: [&str; 2] = ["description", "hooks"];

/// `root` without what is not hooks for the schema check (the state table and the managed
/// directories), and the hooks `[hooks.state]` disables, by their state key. `None`: a
/// `hooks.json` with another root key, which Codex rejects whole (reported).
pub(crate) fn prune(
    reader: &mut Reader<'_>,
    root: &Node,
    format: Format,
) -> Option<(Node, HashSet<String>)> {
    let mut root = root.clone();
    let Value::Map(top) = &mut root.value else {
        return Some((root, HashSet::new()));
    };
    if format == Format::Json
        && let Some(extra) = top.iter().find(|e| !JSON_ROOT.contains(&e.key.as_str()))
    {
        reader.warn(
            DiagnosticKind::UnknownKey,
            extra.key_pos,
            format!(
                "`{}` at the root of a Codex hooks.json: Codex rejects the whole file, so none of its hooks load",
                extra.key
            ),
            Some("a hooks.json takes only `description` and `hooks`".to_owned()),
        );
        return None;
    }
    // The other settings of a config.toml are Codex's.
    top.retain(|e| e.key == "hooks" || format == Format::Json);
    let mut disabled = HashSet::new();
    if let Some(hooks) = top.iter_mut().find(|e| e.key == "hooks")
        && let Value::Map(events) = &mut hooks.value.value
    {
        if let Some(state) = events.iter().find(|e| e.key == "state") {
            disabled = disabled_keys(&state.value);
        }
        events.retain(|e| !NOT_EVENTS.contains(&e.key.as_str()));
        events.retain(|entry| known_event(reader, entry));
        for entry in events.iter_mut() {
            skip_handlers(reader, &entry.key, &mut entry.value);
        }
    }
    Some((root, disabled))
}

/// The state keys whose entry says `enabled = false`.
fn disabled_keys(state: &Node) -> HashSet<String> {
    state
        .as_map()
        .into_iter()
        .flatten()
        .filter(|e| field(&e.value, "enabled").is_some_and(|n| n.value == Value::Bool(false)))
        .map(|e| e.key.clone())
        .collect()
}

fn known_event(reader: &mut Reader<'_>, entry: &Entry) -> bool {
    match reader.lookup_event(&entry.key) {
        Ok(event)
            if event
                .builtin()
                .is_some_and(|b| Dialect::Codex.profile().has_event(b))
                && event.name() == entry.key =>
        {
            true
        }
        Ok(_) => {
            reader.warn(
                DiagnosticKind::UnknownEvent,
                entry.key_pos,
                format!(
                    "`{}` is not a Codex event; Codex ignores it, and so its hooks are skipped",
                    entry.key
                ),
                None,
            );
            false
        }
        Err(hint) => {
            reader.warn(
                DiagnosticKind::UnknownEvent,
                entry.key_pos,
                format!(
                    "unknown event `{}`; Codex ignores it, and so its hooks are skipped",
                    entry.key
                ),
                hint,
            );
            false
        }
    }
}

/// Drops the handlers Codex parses and skips: `prompt` and `agent` ones, and `async: true`
/// ones (except on SessionEnd, which runs them synchronously), each with a warning.
fn skip_handlers(reader: &mut Reader<'_>, event: &str, groups: &mut Node) {
    let Value::Seq(groups) = &mut groups.value else {
        return;
    };
    let session_end = event == "SessionEnd";
    for group in groups {
        let Value::Map(entries) = &mut group.value else {
            continue;
        };
        let Some(handlers) = entries.iter_mut().find(|e| e.key == "hooks") else {
            continue;
        };
        let Value::Seq(handlers) = &mut handlers.value.value else {
            continue;
        };
        handlers.retain_mut(|h| {
            if let Some(ty) = field(h, "type")
                && let Some(word @ ("prompt" | "agent")) = ty.as_str()
            {
                reader.warn(
                    DiagnosticKind::InvalidValue,
                    ty.pos,
                    format!(
                        "Codex parses `{word}` hooks but does not run them; this hook is skipped"
                    ),
                    None,
                );
                return false;
            }
            if let Some(a) = field(h, "async")
                && a.value == Value::Bool(true)
            {
                if session_end {
                    if let Value::Map(keys) = &mut h.value {
                        keys.retain(|e| e.key != "async");
                    }
                    return true;
                }
                reader.warn(
                    DiagnosticKind::InvalidValue,
                    a.pos,
                    "Codex does not run `async` hooks yet; this hook is skipped",
                    None,
                );
                return false;
            }
            true
        });
    }
}

/// The snake_case name Codex gives an event in a state key (`pre_tool_use`).
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A Codex matcher: `*`, empty or absent for all; only `[A-Za-z0-9_|]`: exact names; else
/// an unanchored regular expression.
fn matcher(
    reader: &mut Reader<'_>,
    node: Option<&Node>,
    event: &hooks_core::Event,
) -> Option<Matcher> {
    let exact = node.and_then(Node::as_str).is_some_and(|p| {
        p.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
    });
    // UserPromptSubmit and Stop ignore a matcher in Codex.
    let ignored = matches!(
        event.builtin(),
        Some(BuiltinEvent::UserPromptSubmit | BuiltinEvent::Stop)
    );
    if ignored {
        return Some(Matcher::all());
    }
    reader.matcher(node, Some(event), !exact)
}

/// Reads the (pruned) hooks of a Codex file into `file`; the hooks `disabled` names are
/// loaded disabled.
pub(crate) fn load(
    reader: &mut Reader<'_>,
    root: &Node,
    disabled: &HashSet<String>,
    file: &mut ConfigFile,
) {
    let source = reader
        .src
        .path()
        .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(events) = field(root, "hooks").and_then(Node::as_map) else {
        return;
    };
    for entry in events {
        let Some(event) = reader.event(&entry.key, entry.key_pos) else {
            continue;
        };
        let Some(groups) = entry.value.as_seq() else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            if group.as_map().is_none() {
                continue;
            }
            let matcher = matcher(reader, field(group, "matcher"), &event);
            let Some(handlers) = field(group, "hooks").and_then(Node::as_seq) else {
                continue;
            };
            for (h, node) in handlers.iter().enumerate() {
                let Some(Item::Hook(mut spec)) =
                    handler(reader, node, Some(event.clone()), matcher.clone())
                else {
                    continue;
                };
                // Codex clamps a SessionEnd hook's timeout to 1-3 s.
                if event.builtin() == Some(BuiltinEvent::SessionEnd) {
                    spec.timeout = spec
                        .timeout
                        .map(|t| t.clamp(SESSION_END_MIN, SESSION_END_MAX));
                }
                let key = format!("{source}:{}:{g}:{h}", snake(event.name()));
                if disabled.contains(&key) {
                    spec.enabled = false;
                }
                file.items.push(Item::Hook(spec));
            }
        }
    }
}

/// A plugin's place in Codex's plugin cache:
/// `<home>/plugins/cache/<marketplace>/<plugin>/<version>`, the version folder being the
/// plugin's root (`codex-rs/core-plugins`' `PluginStore`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CachedPlugin<'a> {
    /// The Codex home whose cache it is.
    pub(crate) home: &'a Path,
    /// The marketplace's name.
    pub(crate) marketplace: &'a OsStr,
    /// The plugin's name.
    pub(crate) plugin: &'a OsStr,
    /// The plugin's root, the `<version>` folder.
    pub(crate) root: &'a Path,
}

impl<'a> CachedPlugin<'a> {
    /// Reads `root` as a plugin's version folder in a plugin cache,
    /// `<home>/plugins/cache/<marketplace>/<plugin>/<version>`, whatever the home is (see
    /// [`is_codex_home`]).
    pub(crate) fn parse(root: &'a Path) -> Option<CachedPlugin<'a>> {
        let plugin_dir = root.parent()?;
        let marketplace_dir = plugin_dir.parent()?;
        let cache = marketplace_dir.parent()?;
        let plugins = cache.parent()?;
        if cache.file_name()? != "cache" || plugins.file_name()? != "plugins" {
            return None;
        }
        Some(CachedPlugin {
            home: plugins.parent()?,
            marketplace: marketplace_dir.file_name()?,
            plugin: plugin_dir.file_name()?,
            root,
        })
    }

    /// The plugin's data directory, `<home>/plugins/data/<marketplace>/<plugin>`
    /// (`PluginStore::plugin_data_root`).
    pub(crate) fn data_dir(&self) -> PathBuf {
        self.home
            .join("plugins/data")
            .join(self.marketplace)
            .join(self.plugin)
    }
}

/// The variables Codex gives the hooks of the plugin at `root`: `PLUGIN_ROOT` and
/// `CLAUDE_PLUGIN_ROOT` (the plugin's directory), and, for a plugin installed in Codex's
/// cache ([`CachedPlugin`]), `PLUGIN_DATA` and `CLAUDE_PLUGIN_DATA`, its data directory
/// ([`CachedPlugin::data_dir`]; `hooks/src/engine/discovery.rs` sets the four).
pub(crate) fn plugin_env(root: &Path) -> Vec<(String, String)> {
    let text = root.to_string_lossy().into_owned();
    let mut out = vec![
        ("PLUGIN_ROOT".to_owned(), text.clone()),
        ("CLAUDE_PLUGIN_ROOT".to_owned(), text),
    ];
    if let Some(plugin) = CachedPlugin::parse(root) {
        let data = plugin.data_dir().to_string_lossy().into_owned();
        out.push(("PLUGIN_DATA".to_owned(), data.clone()));
        out.push(("CLAUDE_PLUGIN_DATA".to_owned(), data));
    }
    out
}

/// The root of the plugin installed in Codex's plugin cache that `path` lies in: the
/// `<version>` folder of `<codex home>/plugins/cache/<marketplace>/<plugin>/<version>/`,
/// where the Codex home is a `.codex` folder or `$CODEX_HOME`.
fn cache_plugin_root(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    path.ancestors()
        .skip(1)
        .filter_map(CachedPlugin::parse)
        .find(|plugin| is_codex_home(plugin.home))
        .map(|plugin| plugin.root.to_path_buf())
}

/// The root of the Codex plugin whose hooks file `path` is: the plugin it lies in, in
/// Codex's plugin cache, else the `<plugin>` of a `<plugin>/hooks/hooks.json`.
pub(crate) fn plugin_root(path: &Path) -> Option<PathBuf> {
    cache_plugin_root(path).or_else(|| super::claude::plugin_root(path))
}

/// Whether `dir` is Codex's home: a `.codex` folder, or `$CODEX_HOME`.
fn is_codex_home(dir: &Path) -> bool {
    static REAL: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    dir.file_name().is_some_and(|n| n == ".codex")
        || crate::source::same_dir(dir, home_from_env().as_deref(), &REAL)
}

/// Codex's home as `$CODEX_HOME` moves it, when that is an absolute path. `None`: Codex's
/// default, `~/.codex`.
pub(crate) fn home_from_env() -> Option<PathBuf> {
    std::env::var_os("CODEX_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// Whether `path` is where Codex keeps hooks: a `hooks.json` or `config.toml` in a
/// `.codex` folder (or `$CODEX_HOME`), a `requirements.toml` in `/etc/codex`, or a hooks
/// file of a plugin in Codex's plugin cache (`<codex home>/plugins/cache/<marketplace>/
/// <plugin>/<version>/`): any JSON file there but the plugin's manifest (`plugin.json`)
/// and its MCP and app files (`.mcp.json`, `.app.json`), since the manifest may name any
/// file as the plugin's hooks.
pub(crate) fn is_codex_path(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let parent = path.parent();
    let in_codex_home = || parent.is_some_and(is_codex_home);
    let plugin_file = || {
        name.ends_with(".json")
            && !matches!(name, "plugin.json" | ".mcp.json" | ".app.json")
            && cache_plugin_root(path).is_some()
    };
    match name {
        "hooks.json" | "config.toml" => in_codex_home() || plugin_file(),
        "requirements.toml" => {
            parent
                .and_then(Path::file_name)
                .is_some_and(|n| n == "codex")
                || in_codex_home()
        }
        _ => plugin_file(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_key_event_names() {
        assert_eq!(snake("PreToolUse"), "pre_tool_use");
        assert_eq!(snake("SessionStart"), "session_start");
    }

    #[test]
    fn cached_plugin_paths() {
        let root = Path::new("/h/.codex/plugins/cache/acme/tool/1.0.0");
        let plugin = CachedPlugin::parse(root).expect("a cached plugin");
        assert_eq!(plugin.home, Path::new("/h/.codex"));
        assert_eq!(plugin.marketplace, "acme");
        assert_eq!(plugin.plugin, "tool");
        assert_eq!(plugin.root, root);
        assert_eq!(
            plugin.data_dir(),
            Path::new("/h/.codex/plugins/data/acme/tool")
        );
        assert_eq!(
            CachedPlugin::parse(Path::new("plugins/cache/m/p/v")).map(|p| p.home),
            Some(Path::new(""))
        );
        assert_eq!(CachedPlugin::parse(Path::new("/h/plugins/cache/m/p")), None);
        assert_eq!(
            CachedPlugin::parse(Path::new("/h/plugin/cache/m/p/v")),
            None
        );
        assert_eq!(
            CachedPlugin::parse(Path::new("/h/plugins/caches/m/p/v")),
            None
        );
    }
}
