//! Writing hooks as a native file: every hook as it is, merge directives and switches
//! included; hooks of Gemini CLI, Codex and Cursor keep their dialect.

use hooks_core::{Action, CommandLine, Dialect, FailurePolicy, HookSpec, PromptMode};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Writer, headers_value, own_timeout, secs};

pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    let mut root = Map::new();
    root.insert("version".into(), json!(1));
    if !settings.vars.is_empty() {
        root.insert("vars".into(), json!(settings.vars));
    }
    if let Some(v) = settings.disable_all_hooks {
        root.insert("disable_all_hooks".into(), json!(v));
    }
    if let Some(v) = settings.managed_hooks_only {
        root.insert("managed_hooks_only".into(), json!(v));
    }
    if let Some(v) = &settings.allowed_http_hook_urls {
        root.insert("allowed_http_hook_urls".into(), json!(v));
    }
    let mut hooks = Vec::new();
    for item in items {
        match item {
            Item::Hook(spec) => hooks.push(Value::Object(native_hook(w, spec))),
            Item::SetEnabled { id, enabled, .. } => {
                hooks.push(json!({"id": id, "enabled": enabled}))
            }
            Item::Remove { id, .. } => hooks.push(json!({"id": id, "remove": true})),
        }
    }
    root.insert("hooks".into(), Value::Array(hooks));
    Value::Object(root)
}

fn native_hook(w: &mut Writer, spec: &HookSpec) -> Map<String, Value> {
    let mut h = Map::new();
    let mut put = |k: &str, v: Value| {
        h.insert(k.to_owned(), v);
    };
    if let Some(id) = &spec.id {
        put("id", json!(id));
    }
    if let Some(name) = &spec.name {
        put("name", json!(name));
    }
    if let Some(d) = &spec.description {
        put("description", json!(d));
    }
    // A hook of a dialect whose event names say which of its JSON a hook is given
    // (Cursor's) keeps its dialect, under its own name of the event.
    let kept_name = w
        .rules_of(spec.dialect)
        .native_name
        .and_then(|name| name(spec));
    match kept_name {
        Some(name) => {
            put("event", json!(name));
            put("dialect", json!(spec.dialect.as_str()));
        }
        None => put("event", json!(spec.event.name())),
    }
    // Gemini CLI's and Codex's hooks keep their dialect too: it says which JSON and
    // tool names they are given and how their answers are read.
    if w.keeps_dialect(spec) {
        put("dialect", json!(spec.dialect.as_str()));
    }
    if let Some(m) = w.matcher(spec) {
        put("matcher", json!(m));
    }
    match &spec.action {
        Action::Command(c) => {
            match &c.command {
                CommandLine::Script(s) => put("command", json!(s)),
                CommandLine::Argv(v) => put("args", json!(v)),
            }
            if let Some(cwd) = &c.cwd {
                put("cwd", json!(cwd.to_string_lossy()));
            }
            if !c.env.is_empty() {
                put(
                    "env",
                    Value::Object(c.env.iter().map(|(k, v)| (k.clone(), json!(v))).collect()),
                );
            }
            if let Some(s) = w.sandbox_value(spec, c) {
                put("sandbox", json!(s));
            }
        }
        Action::Http(x) => {
            put("url", json!(x.url));
            if let Some(headers) = headers_value(&x.headers) {
                put("headers", headers);
            }
            if !x.allowed_env_vars.is_empty() {
                put("allowed_env_vars", json!(x.allowed_env_vars));
            }
        }
        Action::McpTool(m) => {
            put("server", json!(m.server));
            put("tool", json!(m.tool));
            put("input", m.input.clone());
        }
        Action::Prompt(p) => {
            match p.mode {
                PromptMode::Agent => put("type", json!("agent")),
                PromptMode::Inject => put("mode", json!("inject")),
                _ => {}
            }
            put("prompt", json!(p.prompt));
            if let Some(m) = &p.model {
                put("model", json!(m));
            }
            if let Some(rounds) = p.max_tool_rounds {
                put("max_tool_rounds", json!(rounds));
            }
        }
        Action::Permission(p) => {
            put("decision", json!(p.decision.as_str()));
            if let Some(r) = &p.reason {
                put("reason", json!(r));
            }
        }
        other => put("type", json!(other.type_name())),
    }
    if let Some(t) = own_timeout(spec, Dialect::Native) {
        put(
            "timeout",
            if t.subsec_millis() == 0 && t.subsec_nanos() == 0 {
                secs(t)
            } else {
                json!(humantime::format_duration(t).to_string())
            },
        );
    }
    if spec.on_failure == FailurePolicy::Block {
        put("on_failure", json!("block"));
    }
    if spec.is_async {
        put("async", json!(true));
    }
    if let Some(s) = &spec.sequential {
        put("sequential", json!(s));
    }
    if !spec.enabled {
        put("enabled", json!(false));
    }
    if let Some(limit) = spec.loop_limit {
        put("loop_limit", json!(limit.limit()));
    }
    w.home_losses(spec, true, kept_name.is_some());
    if !spec.filter.is_empty() {
        let mut f = Map::new();
        if !spec.filter.tools().is_empty() {
            f.insert("tool".into(), json!(spec.filter.tools()));
        }
        if !spec.filter.path_globs().is_empty() {
            f.insert("path".into(), json!(spec.filter.path_globs()));
        }
        if let Some(command) = spec.filter.command() {
            f.insert("command".into(), json!(command));
        }
        put("filter", Value::Object(f));
    }
    if let Some(c) = &spec.condition {
        put("if", json!(c.as_str()));
    }
    h
}
