//! Writing hooks as a Claude Code settings file: hooks nested by event and matcher, the
//! switches under their Claude Code names.

use hooks_core::{Action, Dialect, FailurePolicy, HookSpec, PromptMode};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Nested, Writer, headers_value, own_timeout, secs};

/// Hooks nested by event and matcher, the switches under their Claude Code names.
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    let how = Nested {
        handler,
        settings: switches,
        sequential_groups: false,
    };
    crate::write::nested(w, items, settings, &how)
}

/// Hooks nested by event and matcher in a file of Claude Code's shape whose only switch is
/// `disableAllHooks` (Qwen Code's, Droid's), each written by `handler`.
pub(crate) fn write_shaped(
    w: &mut Writer,
    items: &[Item],
    settings: &Settings,
    handler: fn(&mut Writer, &HookSpec) -> Option<Map<String, Value>>,
) -> Value {
    let how = Nested {
        handler,
        settings: |_, settings, root| {
            if let Some(v) = settings.disable_all_hooks {
                root.insert("disableAllHooks".into(), json!(v));
            }
        },
        sequential_groups: false,
    };
    crate::write::nested(w, items, settings, &how)
}

/// The switches: `disableAllHooks`, `allowManagedHooksOnly`, `allowedHttpHookUrls`.
fn switches(_: &mut Writer, settings: &Settings, root: &mut Map<String, Value>) {
    if let Some(v) = settings.disable_all_hooks {
        root.insert("disableAllHooks".into(), json!(v));
    }
    if let Some(v) = settings.managed_hooks_only {
        root.insert("allowManagedHooksOnly".into(), json!(v));
    }
    if let Some(v) = &settings.allowed_http_hook_urls {
        root.insert("allowedHttpHookUrls".into(), json!(v));
    }
}

/// A Claude Code handler: a command, HTTP, MCP tool, prompt or agent hook.
pub(crate) fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    handler_in(w, spec, Dialect::Claude, &super::TYPES)
}

/// A handler of a file of Claude Code's shape in `dialect`, whose agent runs the handler
/// types `types` (of Claude Code's): a hook of another type is skipped, with a note.
pub(crate) fn handler_in(
    w: &mut Writer,
    spec: &HookSpec,
    dialect: Dialect,
    types: &[&str],
) -> Option<Map<String, Value>> {
    w.enabled(spec)?;
    let ty = match &spec.action {
        Action::Command(_) => Some("command"),
        Action::Http(_) => Some("http"),
        Action::McpTool(_) => Some("mcp_tool"),
        Action::Prompt(p) if p.mode == PromptMode::Agent => Some("agent"),
        Action::Prompt(p) if p.mode != PromptMode::Inject => Some("prompt"),
        // Left out below, with what it is.
        _ => None,
    };
    if let Some(ty) = ty
        && !types.contains(&ty)
    {
        w.skip(spec, &format!("`{ty}` hooks"));
        return None;
    }
    let mut h = Map::new();
    match &spec.action {
        Action::Command(c) => {
            h.insert("type".into(), json!("command"));
            let script = w.script(spec, &c.command);
            h.insert("command".into(), json!(script));
        }
        Action::Http(x) => {
            h.insert("type".into(), json!("http"));
            h.insert("url".into(), json!(x.url));
            if let Some(headers) = headers_value(&x.headers) {
                h.insert("headers".into(), headers);
            }
            if !x.allowed_env_vars.is_empty() {
                h.insert("allowedEnvVars".into(), json!(x.allowed_env_vars));
            }
        }
        Action::McpTool(m) => {
            h.insert("type".into(), json!("mcp_tool"));
            h.insert("server".into(), json!(m.server));
            h.insert("tool".into(), json!(m.tool));
            h.insert("input".into(), m.input.clone());
        }
        Action::Prompt(p) if p.mode != PromptMode::Inject => {
            let ty = if p.mode == PromptMode::Agent {
                "agent"
            } else {
                "prompt"
            };
            h.insert("type".into(), json!(ty));
            h.insert("prompt".into(), json!(p.prompt));
            if let Some(m) = &p.model {
                h.insert("model".into(), json!(m));
            }
        }
        Action::Prompt(_) => {
            w.skip(spec, "an injected prompt (its prompt hooks ask a model)");
            return None;
        }
        other => {
            let why = format!("`{}` hooks", other.type_name());
            w.skip(spec, &why);
            return None;
        }
    };
    if let Some(t) = own_timeout(spec, dialect) {
        h.insert("timeout".into(), secs(t));
    }
    if spec.is_async {
        h.insert("async".into(), json!(true));
    }
    if let Some(c) = &spec.condition {
        h.insert("if".into(), json!(c.as_str()));
    }
    if let Some(d) = &spec.description {
        h.insert("statusMessage".into(), json!(d));
    }
    if spec.on_failure == FailurePolicy::Block {
        w.lost(spec, "fail-closed (`on_failure: block`)");
    }
    w.common_losses(spec, &["description", "if", "async", "allowed_env_vars"]);
    Some(h)
}
