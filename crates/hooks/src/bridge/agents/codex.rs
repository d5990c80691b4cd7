//! OpenAI Codex CLI: it names no project root (the payload's `cwd` decides); it runs the
//! hooks of its `hooks.json` and `config.toml` files (in `$CODEX_HOME`, the project's
//! `.codex/`, its plugins', `/etc/codex/requirements.toml`) itself. The bridge is
//! installed into a `hooks.json` (the project's `.codex/`, read only for a project its
//! user config trusts, else `$CODEX_HOME`'s) on the events Codex runs hooks on, and Codex's
//! trust of the entries goes into its `config.toml`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Agent, OwnFiles, Scope, Settings, named};
use crate::Error;
use crate::config::edit::codex_trust;
use crate::core::Dialect;

/// OpenAI Codex CLI.
pub(super) static AGENT: Agent = Agent {
    dialect: Dialect::Codex,
    about: "OpenAI Codex CLI",
    project_dir: |_| None,
    own_files: OwnFiles::Dialect,
    event_key: None,
    env_file: None,
    runs_files_of: &[],
    is_calling: |_| false,
    events: || {
        named(super::claude::canonical(), |e| {
            Some(e.name()).filter(|n| codex_trust::event_label(n).is_some())
        })
    },
    settings: Some(Settings {
        other_paths,
        note,
        not_called,
        trust_file: Some(|| Ok(home()?.join("config.toml"))),
        ..Settings::new(path)
    }),
    plugin: None,
};

/// The `hooks.json` of a scope: the user's in `$CODEX_HOME`; the project's `.codex/`
/// when Codex reads it, else the user's.
fn path(scope: Scope, project: &Path) -> Result<PathBuf, Error> {
    Ok(match scope {
        Scope::User => home()?.join("hooks.json"),
        Scope::Project => match project_refused(project)? {
            None => project.join(".codex/hooks.json"),
            Some(_) => home()?.join("hooks.json"),
        },
    })
}

/// The project's trust may have changed since the install: a project install is in the
/// project's file or the user's.
fn other_paths(scope: Scope, project: &Path) -> Result<Vec<PathBuf>, Error> {
    Ok(match scope {
        Scope::User => Vec::new(),
        Scope::Project => vec![
            project.join(".codex/hooks.json"),
            home()?.join("hooks.json"),
        ],
    })
}

fn note(scope: Scope, project: &Path) -> Result<Option<String>, Error> {
    match scope {
        Scope::User => Ok(None),
        Scope::Project => project_refused(project),
    }
}

/// Codex's home (`$CODEX_HOME`, else `~/.codex`), resolved as Codex resolves it for its
/// trust keys.
fn home() -> Result<PathBuf, Error> {
    Ok(codex_trust::codex_home(
        std::env::var_os("CODEX_HOME").as_deref(),
        std::env::var_os("HOME").map(PathBuf::from).as_deref(),
    )?)
}

/// Why Codex would not read the project's `.codex/hooks.json`, if it would not: Codex
/// loads a project's `.codex/` layer only when its user config trusts the project
/// (`[projects."<path>"] trust_level = "trusted"` in `$CODEX_HOME/config.toml`).
fn project_refused(project: &Path) -> Result<Option<String>, Error> {
    let config = home()?.join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap_or_default();
    let doc: toml_edit::DocumentMut = text.parse().unwrap_or_default();
    let real = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let trusted = [project, real.as_path()].iter().any(|p| {
        doc.get("projects")
            .and_then(|t| t.get(p.to_string_lossy().as_ref()))
            .and_then(|t| t.get("trust_level"))
            .and_then(|v| v.as_str())
            == Some("trusted")
    });
    Ok((!trusted).then(|| {
        format!(
            "Codex reads {} only for projects its user config trusts ([projects.\"{}\"] trust_level = \"trusted\" in {}), so the bridge goes into Codex's user layer",
            project.join(".codex/hooks.json").display(),
            project.display(),
            config.display()
        )
    }))
}

/// Codex calls an entry only when its `config.toml` trusts it as it is now (an entry moved
/// or edited since `hooks install` is not trusted).
fn not_called(_settings: &Value, path: &Path, text: &str, command: &str) -> Option<String> {
    (!trusted(path, text, command))
        .then(|| "not called: Codex does not trust it (re-run `hooks install codex`)".to_owned())
}

/// Whether Codex's `config.toml` trusts every entry of `hooks_json` that runs `command`.
fn trusted(path: &Path, hooks_json: &str, command: &str) -> bool {
    let Ok(config) =
        home().map(|home| std::fs::read_to_string(home.join("config.toml")).unwrap_or_default())
    else {
        return false;
    };
    codex_trust::text_trust_entries_where(path, hooks_json, &|h| h.command == command).is_ok_and(
        |entries| {
            entries
                .iter()
                .all(|e| config.contains(&e.key) && config.contains(&e.trusted_hash))
        },
    )
}
