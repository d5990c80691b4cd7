//! Writing hooks as a Fabro run config: `[[run.hooks]]` with `script`/`command`,
//! `blocking`, duration-string timeouts, and one `[run].working_dir` when every command
//! hook shares one.

use hooks_core::{Action, BuiltinEvent, CommandLine, Dialect, FailurePolicy, HookSpec, PromptMode};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Writer, headers_value, own_timeout};

pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    w.directives(items);
    w.settings_lost(settings);
    // Fabro's command hooks run in the run's working directory: one `[run].working_dir`
    // keeps the hooks' directory when every enabled command hook has the same one.
    let mut dirs = items
        .iter()
        .filter_map(Item::hook)
        .filter(|spec| spec.enabled)
        .filter_map(|spec| match &spec.action {
            Action::Command(c) => Some(c.cwd.as_deref()),
            _ => None,
        });
    let first = dirs.next().flatten();
    let workdir = first.filter(|dir| dirs.all(|d| d == Some(*dir)));
    let mut hooks = Vec::new();
    for spec in items.iter().filter_map(Item::hook) {
        if let Some(h) = fabro_hook(w, spec, workdir) {
            hooks.push(Value::Object(h));
        }
    }
    let mut run = Map::new();
    if let Some(dir) = workdir {
        run.insert("working_dir".into(), json!(dir.to_string_lossy()));
    }
    run.insert("hooks".into(), Value::Array(hooks));
    json!({"_version": 1, "run": run})
}

fn fabro_hook(
    w: &mut Writer,
    spec: &HookSpec,
    workdir: Option<&std::path::Path>,
) -> Option<Map<String, Value>> {
    w.enabled(spec)?;
    let mut h = Map::new();
    if let Some(id) = &spec.id {
        h.insert("id".into(), json!(id));
    }
    if let Some(n) = &spec.name {
        h.insert("name".into(), json!(n));
    }
    let event = w.event_name(spec);
    h.insert("event".into(), json!(event));
    let default_policy = match &spec.action {
        Action::Command(c) => {
            match &c.command {
                CommandLine::Script(s) => h.insert("script".into(), json!(s)),
                CommandLine::Argv(v) => h.insert("command".into(), json!(v)),
            };
            if let Some(s) = w.sandbox_value(spec, c) {
                h.insert("sandbox".into(), json!(s));
            }
            FailurePolicy::Block
        }
        Action::Http(x) => {
            h.insert("url".into(), json!(x.url));
            if !x.url.starts_with("https://") {
                h.insert("tls".into(), json!("off"));
            }
            if let Some(headers) = headers_value(&x.headers) {
                h.insert("headers".into(), headers);
            }
            if !x.allowed_env_vars.is_empty() {
                h.insert("allowed_env_vars".into(), json!(x.allowed_env_vars));
            }
            FailurePolicy::Allow
        }
        Action::Prompt(p) if p.mode != PromptMode::Inject => {
            let agent = p.mode == PromptMode::Agent;
            if agent {
                h.insert("agent".into(), json!("enabled"));
            }
            h.insert("prompt".into(), json!(p.prompt));
            if let Some(m) = &p.model {
                h.insert("model".into(), json!(m));
            }
            if let (true, Some(rounds)) = (agent, p.max_tool_rounds) {
                h.insert("max_tool_rounds".into(), json!(rounds));
            }
            FailurePolicy::Allow
        }
        Action::Prompt(_) => {
            w.skip(spec, "an injected prompt");
            return None;
        }
        other => {
            let why = format!("`{}` hooks", other.type_name());
            w.skip(spec, &why);
            return None;
        }
    };
    if let Some(m) = w.matcher(spec) {
        h.insert("matcher".into(), json!(m));
    }
    let blocking_default = matches!(
        spec.event.builtin(),
        Some(
            BuiltinEvent::RunStart
                | BuiltinEvent::StageStart
                | BuiltinEvent::EdgeSelected
                | BuiltinEvent::PreToolUse
                | BuiltinEvent::SandboxReady
        )
    );
    if spec.is_async == blocking_default {
        h.insert("blocking".into(), json!(!spec.is_async));
    }
    if let Some(t) = own_timeout(spec, Dialect::Fabro) {
        h.insert(
            "timeout".into(),
            json!(humantime::format_duration(t).to_string()),
        );
    }
    if spec.on_failure != default_policy {
        let what = format!(
            "the failure policy (Fabro's {} hooks always fail {})",
            spec.action.type_name(),
            if default_policy == FailurePolicy::Block {
                "closed"
            } else {
                "open"
            }
        );
        w.lost(spec, &what);
    }
    let kept_cwd = match &spec.action {
        Action::Command(c) => c.cwd.is_some() && c.cwd.as_deref() == workdir,
        _ => false,
    };
    let can: &[&str] = if kept_cwd {
        &["id", "name", "async", "sandbox", "allowed_env_vars", "cwd"]
    } else {
        &["id", "name", "async", "sandbox", "allowed_env_vars"]
    };
    w.common_losses(spec, can);
    Some(h)
}
