//! The hooks files of the Codex plugins Codex would run, as Codex finds them
//! (`codex-rs/core-plugins`: `loader.rs`, `store.rs`, `manifest.rs`).
//!
//! A plugin runs only when the user layer's `config.toml` (`$CODEX_HOME/config.toml`)
//! lists it under `[plugins."<plugin>@<marketplace>"]`, with `enabled` true or absent (a
//! plugin installed but not listed does not run), unless `[features] plugins = false`.
//! Codex reads the whole `plugins` table at once: an entry that is not a table, or whose
//! `enabled` is not a boolean, makes Codex ignore every plugin. The plugin is the one in
//! `$CODEX_HOME/plugins/cache/<marketplace>/<plugin>/<version>/`: among the version
//! folders, `local` if there is one, else the highest (by semantic version when both are
//! one, else by name). It needs a manifest, `.codex-plugin/plugin.json` (else
//! `.claude-plugin/plugin.json`), that is a JSON object; its `hooks` names the hooks files
//! (`"./path"` or a list of them, each inside the plugin), and without it (or when no path
//! of it is valid) the hooks file is `hooks/hooks.json`. Hooks written inline in the
//! manifest (an object or a list of objects) are not files, and are not found here.

use std::cmp::Ordering;
use std::path::{Component, Path, PathBuf};

/// The most bytes of a `config.toml` or a manifest read to find plugins.
const MAX_READ: u64 = crate::source::DEFAULT_MAX_FILE_SIZE;

/// The manifest paths Codex looks for under a plugin's root, in order.
const MANIFESTS: [&str; 2] = [".codex-plugin/plugin.json", ".claude-plugin/plugin.json"];

/// The version folder Codex prefers over every other.
const LOCAL_VERSION: &str = "local";

/// A hooks file of an enabled plugin, and the plugin's root (the version folder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PluginHooks {
    /// The hooks file.
    pub(crate) path: PathBuf,
    /// The plugin's root (`PLUGIN_ROOT`).
    pub(crate) root: PathBuf,
}

/// The hooks files of the plugins enabled in `codex_home`'s `config.toml`, in Codex's
/// order (plugins by their `<plugin>@<marketplace>` key, each plugin's files in its
/// manifest's order). Only files that exist (and are not directories) are given. Reads
/// nothing but `config.toml` when no plugin is listed there.
pub(crate) fn enabled_hooks(codex_home: &Path) -> Vec<PluginHooks> {
    let mut out = Vec::new();
    for (plugin, marketplace) in enabled_plugins(codex_home) {
        let base = codex_home
            .join("plugins/cache")
            .join(&marketplace)
            .join(&plugin);
        let Some(version) = active_version(&base) else {
            continue;
        };
        let root = base.join(version);
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        let Some(manifest) = manifest(&root) else {
            continue;
        };
        let files = match manifest.get("hooks") {
            None | Some(serde_json::Value::Null) => None,
            Some(hooks) => match declared_paths(&root, hooks) {
                Declared::Paths(paths) => Some(paths),
                Declared::Inline => continue,
                Declared::Invalid => None,
            },
        }
        .unwrap_or_else(|| vec![root.join("hooks/hooks.json")]);
        out.extend(
            files
                .into_iter()
                // Anything but a directory, as discovery lists files: loading refuses
                // what is not a regular file, with a diagnostic.
                .filter(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_dir()))
                .map(|path| PluginHooks {
                    path,
                    root: root.clone(),
                }),
        );
    }
    out
}

/// The tables of Codex's `config.toml` that enable plugins; the file's other settings are
/// checked as TOML but not built. Any value is taken here, as a whole-file parse would
/// take it, and read as Codex reads it below.
#[derive(serde::Deserialize)]
struct PluginsConfig {
    /// `[features]`, whose `plugins = false` switches every plugin off.
    features: Option<toml::Value>,
    /// `[plugins."<plugin>@<marketplace>"]`.
    plugins: Option<toml::Value>,
}

/// The enabled plugins of `codex_home`'s `config.toml`, as (plugin, marketplace), sorted
/// by their key.
fn enabled_plugins(codex_home: &Path) -> Vec<(String, String)> {
    let path = codex_home.join("config.toml");
    let Ok(text) = crate::source::read_file(&path, None, MAX_READ) else {
        return Vec::new();
    };
    // Every spelling of the table (`[plugins."p@m"]`, a dotted or an inline key) names it:
    // without the word, no plugin is enabled, and the file (which the Codex loader parses
    // anyway, on every bridge call) need not be parsed here too.
    if !text.text().contains("plugins") {
        return Vec::new();
    }
    let Ok(config) = toml::from_str::<PluginsConfig>(text.text()) else {
        return Vec::new();
    };
    let plugins_feature = config
        .features
        .as_ref()
        .and_then(|f| f.get("plugins"))
        .and_then(toml::Value::as_bool);
    if plugins_feature == Some(false) {
        return Vec::new();
    }
    let Some(toml::Value::Table(plugins)) = &config.plugins else {
        return Vec::new();
    };
    let mut enabled = Vec::new();
    for (key, entry) in plugins {
        let toml::Value::Table(entry) = entry else {
            return Vec::new();
        };
        let on = match entry.get("enabled") {
            None => true,
            Some(toml::Value::Boolean(b)) => *b,
            Some(_) => return Vec::new(),
        };
        if entry
            .get("mcp_servers")
            .is_some_and(|m| !matches!(m, toml::Value::Table(_)))
        {
            return Vec::new();
        }
        if on && let Some(id) = plugin_id(key) {
            enabled.push((key.clone(), id));
        }
    }
    enabled.sort_by(|a, b| a.0.cmp(&b.0));
    enabled.into_iter().map(|(_, id)| id).collect()
}

/// `<plugin>@<marketplace>` split at its last `@`, if both parts are names Codex accepts:
/// ASCII letters, digits, `_` and `-` (and, in the plugin's name, `.` between them).
fn plugin_id(key: &str) -> Option<(String, String)> {
    let (plugin, marketplace) = key.rsplit_once('@')?;
    let word = |s: &str, dots: bool| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || (dots && c == '.'))
            && !(dots && (s.starts_with('.') || s.ends_with('.') || s.contains("..")))
    };
    (word(plugin, true) && word(marketplace, false))
        .then(|| (plugin.to_owned(), marketplace.to_owned()))
}

/// The version folder Codex uses among those in `base`: `local` if there is one, else the
/// highest. A version folder is a real directory (not a link) with a valid name.
fn active_version(base: &Path) -> Option<String> {
    let mut versions: Vec<String> = std::fs::read_dir(base)
        .ok()?
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|v| valid_version(v))
        .collect();
    if versions.iter().any(|v| v == LOCAL_VERSION) {
        return Some(LOCAL_VERSION.to_owned());
    }
    versions.sort_by(|a, b| compare_versions(a, b));
    versions.pop()
}

/// Whether `v` is a version folder name Codex accepts: ASCII letters, digits, `.`, `+`, `_`
/// and `-`, not `.` or `..`.
fn valid_version(v: &str) -> bool {
    !v.is_empty()
        && v != "."
        && v != ".."
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
}

/// Codex's order of versions: by semantic version when both are one (the `semver`
/// crate's order, which Codex uses), else by name.
fn compare_versions(a: &str, b: &str) -> Ordering {
    match (semver::Version::parse(a), semver::Version::parse(b)) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(b),
    }
}

/// The plugin's manifest, if it has one that is a JSON object.
fn manifest(root: &Path) -> Option<serde_json::Map<String, serde_json::Value>> {
    let path = MANIFESTS
        .iter()
        .map(|m| root.join(m))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))?;
    let text = crate::source::read_file(&path, Some(root), MAX_READ).ok()?;
    match serde_json::from_str(text.text()).ok()? {
        serde_json::Value::Object(map) => Some(map),
        _ => None,
    }
}

/// What a manifest's `hooks` says.
enum Declared {
    /// Hooks files, each valid path of it (there is at least one).
    Paths(Vec<PathBuf>),
    /// Hooks written in the manifest itself.
    Inline,
    /// Nothing Codex takes: the default `hooks/hooks.json` applies.
    Invalid,
}

/// Reads a manifest's `hooks`: `"./path"`, a list of them (the invalid ones dropped), an
/// object or a list of objects (inline hooks).
fn declared_paths(root: &Path, hooks: &serde_json::Value) -> Declared {
    use serde_json::Value;
    match hooks {
        Value::String(p) => {
            resolve(root, p).map_or(Declared::Invalid, |p| Declared::Paths(vec![p]))
        }
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let paths: Vec<PathBuf> = items
                .iter()
                .filter_map(Value::as_str)
                .filter_map(|p| resolve(root, p))
                .collect();
            if paths.is_empty() {
                Declared::Invalid
            } else {
                Declared::Paths(paths)
            }
        }
        Value::Object(_) => Declared::Inline,
        Value::Array(items) if items.iter().all(Value::is_object) => Declared::Inline,
        _ => Declared::Invalid,
    }
}

/// A manifest path under `root`: it must start with `./` and name something below the
/// root without `..`.
fn resolve(root: &Path, path: &str) -> Option<PathBuf> {
    let rel = path.strip_prefix("./")?;
    if rel.is_empty() {
        return None;
    }
    let mut out = root.to_path_buf();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(c) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn order(a: &str, b: &str, want: Ordering) {
        assert_eq!(compare_versions(a, b), want, "{a} vs {b}");
    }

    #[test]
    fn versions_order_as_codex_orders_them() {
        order("1.10.0", "1.9.0", Ordering::Greater);
        order("1.0.0", "1.0.0-beta", Ordering::Greater);
        order("1.0.0-alpha.2", "1.0.0-alpha.10", Ordering::Less);
        order("1.0.0-alpha", "1.0.0-alpha.1", Ordering::Less);
        order("1.0.0-1", "1.0.0-alpha", Ordering::Less);
        order("2.0.0", "10.0.0", Ordering::Less);
        // Not both semantic versions: by name.
        order("10", "9", Ordering::Less);
        order("1.0", "1.0.0", Ordering::Less);
        order("01.0.0", "1.0.0", Ordering::Less);
    }

    #[track_caller]
    fn id(key: &str, want: Option<(&str, &str)>) {
        assert_eq!(
            plugin_id(key),
            want.map(|(p, m)| (p.to_owned(), m.to_owned())),
            "{key}"
        );
    }

    #[test]
    fn plugin_keys() {
        id("tool@acme", Some(("tool", "acme")));
        id("my.tool@acme-market", Some(("my.tool", "acme-market")));
        id("a@b@c", None);
        id("tool@ac.me", None);
        id("tool", None);
        id("@acme", None);
        id("../x@acme", None);
        id(".tool@acme", None);
    }

    #[test]
    fn manifest_paths() {
        let root = Path::new("/p");
        assert_eq!(
            resolve(root, "./h/x.json"),
            Some(PathBuf::from("/p/h/x.json"))
        );
        assert_eq!(resolve(root, "h/x.json"), None);
        assert_eq!(resolve(root, "./"), None);
        assert_eq!(resolve(root, "./../x.json"), None);
        assert_eq!(resolve(root, ".//etc/x"), None);
    }
}
