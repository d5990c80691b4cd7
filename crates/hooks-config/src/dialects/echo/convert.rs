//! Writing hooks as an echo-agent file: hooks nested by event and matcher in YAML,
//! injected prompts and permission hooks included.

use hooks_core::{Action, Decision, Dialect, FailurePolicy, HookSpec, PromptMode};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Nested, Writer, headers_value, own_timeout, secs};

/// Handlers nested by event and matcher; echo-agent has none of the switches.
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    crate::write::nested(w, items, settings, &Nested::without_switches(handler))
}

/// An echo-agent handler: a command, an injected prompt, a permission, HTTP or MCP tool
/// hook.
pub(crate) fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    w.enabled(spec)?;
    let mut h = Map::new();
    match &spec.action {
        Action::Command(c) => {
            h.insert("type".into(), json!("command"));
            let script = w.script(spec, &c.command);
            h.insert("command".into(), json!(script));
            if let Some(s) = w.sandbox_value(spec, c) {
                h.insert("sandbox".into(), json!(s));
            }
        }
        Action::Prompt(p) if p.mode == PromptMode::Inject => {
            h.insert("type".into(), json!("prompt"));
            h.insert("prompt".into(), json!(p.prompt));
        }
        Action::Prompt(_) => {
            w.skip(
                spec,
                "a prompt that asks a model (its prompt hooks inject text)",
            );
            return None;
        }
        Action::Permission(p)
            if matches!(p.decision, Decision::Allow | Decision::Deny | Decision::Ask) =>
        {
            h.insert("type".into(), json!("permission"));
            h.insert("decision".into(), json!(p.decision.as_str()));
            if let Some(r) = &p.reason {
                h.insert("reason".into(), json!(r));
            }
        }
        Action::Http(x) => {
            h.insert("type".into(), json!("http"));
            h.insert("url".into(), json!(x.url));
            if let Some(headers) = headers_value(&x.headers) {
                h.insert("headers".into(), headers);
            }
        }
        Action::McpTool(m) => {
            h.insert("type".into(), json!("mcp_tool"));
            h.insert("server".into(), json!(m.server));
            h.insert("tool".into(), json!(m.tool));
            h.insert("input".into(), m.input.clone());
        }
        other => {
            let why = format!("`{}` hooks", other.type_name());
            w.skip(spec, &why);
            return None;
        }
    }
    if let Some(t) = own_timeout(spec, Dialect::Echo) {
        h.insert("timeout".into(), secs(t));
    }
    if spec.on_failure == FailurePolicy::Block {
        w.lost(spec, "fail-closed (`on_failure: block`)");
    }
    w.common_losses(spec, &["sandbox"]);
    Some(h)
}
