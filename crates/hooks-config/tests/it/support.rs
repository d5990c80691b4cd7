//! Shared test helpers: the examples directory, load options with fixed interpolation
//! values, and a JSON summary of loaded hooks for snapshots.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hooks_config::core::{Action, CommandLine, HookSpec, MatcherKind};
use hooks_config::{ConfigFile, EnvSource, Interpolation, LoadOptions, MapSecrets};
use serde_json::{Value, json};

/// `examples/configs` in the workspace.
pub(crate) fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/configs")
        .canonicalize()
        .unwrap()
}

/// Options with fixed vars, environment and secrets, so tests do not read the process's.
pub(crate) fn options() -> LoadOptions {
    LoadOptions::new().with_interpolation(interpolation())
}

pub(crate) fn interpolation() -> Interpolation {
    Interpolation {
        vars: [("REPO".to_owned(), "hooks".to_owned())].into(),
        env: EnvSource::Map([("HOME".to_owned(), "/home/test".to_owned())].into()),
        secrets: Arc::new(
            MapSecrets::new()
                .with("SLACK_TOKEN", "xoxb-slack-secret")
                .with("DOCS_TOKEN", "docs-secret"),
        ),
        check_secrets: true,
    }
}

/// Loads an example by its path under `examples/configs`.
#[track_caller]
pub(crate) fn load_example(rel: &str) -> ConfigFile {
    let path = examples().join(rel);
    match hooks_config::load_file(&path, &options()) {
        Ok(file) => file,
        Err(e) => panic!("{rel} does not load:\n{e}"),
    }
}

/// The path shown for a file: relative to the examples directory when under it.
pub(crate) fn shown(path: &Path) -> String {
    let examples = examples();
    path.strip_prefix(&examples)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn matcher_kind(spec: &HookSpec) -> &'static str {
    match spec.matcher.kind() {
        MatcherKind::All => "all",
        MatcherKind::Exact(_) => "exact",
        MatcherKind::Regex(_) => "regex",
    }
}

fn ms(d: Option<Duration>) -> Value {
    d.map_or(Value::Null, |d| json!(d.as_millis() as u64))
}

/// One hook as a JSON object: what tests compare and snapshots show.
pub(crate) fn summary(spec: &HookSpec) -> Value {
    let action = match &spec.action {
        Action::Command(c) => match &c.command {
            CommandLine::Script(s) => {
                json!({"script": s, "sandbox": c.sandbox, "cwd": c.cwd, "env": c.env})
            }
            CommandLine::Argv(v) => {
                json!({"argv": v, "sandbox": c.sandbox, "cwd": c.cwd, "env": c.env})
            }
        },
        Action::Http(h) => {
            json!({"url": h.url, "headers": h.headers, "allowed_env_vars": h.allowed_env_vars})
        }
        Action::McpTool(m) => json!({"server": m.server, "tool": m.tool, "input": m.input}),
        Action::Prompt(p) => {
            let mut v = json!({"prompt": p.prompt, "mode": p.mode, "model": p.model});
            if let Some(rounds) = p.max_tool_rounds {
                v["max_tool_rounds"] = json!(rounds);
            }
            v
        }
        Action::Permission(p) => json!({"decision": p.decision.as_str(), "reason": p.reason}),
        other => json!({"other": other.summary()}),
    };
    let at = format!(
        "{}:{}:{}",
        spec.provenance
            .file
            .as_deref()
            .map(shown)
            .unwrap_or_default(),
        spec.provenance.line.unwrap_or(0),
        spec.provenance.column.unwrap_or(0)
    );
    json!({
        "at": at,
        "id": spec.id,
        "name": spec.name,
        "description": spec.description,
        "event": spec.event.name(),
        "matcher": spec.matcher.as_str(),
        "matcher_kind": matcher_kind(spec),
        "if": spec.condition.as_ref().map(|c| c.as_str()),
        "filter": {"tools": spec.filter.tools(), "paths": spec.filter.path_globs()},
        "action": action,
        "timeout_ms": ms(spec.timeout),
        "async": spec.is_async,
        "on_failure": spec.on_failure,
        "sequential": spec.sequential,
        "enabled": spec.enabled,
        "dialect": spec.dialect.as_str(),
    })
}

/// Every hook of a file, summarised.
pub(crate) fn summaries(file: &ConfigFile) -> Value {
    let value = Value::Array(file.hooks().map(summary).collect());
    // Absolute paths (from `${SKILL_DIR}`) differ per checkout.
    let text = serde_json::to_string(&value)
        .unwrap()
        .replace(&examples().display().to_string(), "<examples>");
    serde_json::from_str(&text).unwrap()
}

/// A temporary directory with files written into it.
pub(crate) struct Dir {
    pub(crate) dir: tempfile::TempDir,
}

impl Dir {
    pub(crate) fn new() -> Dir {
        Dir {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `rel`, creating folders.
    pub(crate) fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}
