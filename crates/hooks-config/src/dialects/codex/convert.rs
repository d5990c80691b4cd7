//! Writing hooks as a Codex `hooks.json`: command hooks nested by event, `statusMessage`
//! for the description.

use hooks_core::{Action, Dialect, FailurePolicy, HookSpec};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Nested, Writer, own_timeout, secs};

/// Handlers nested by event and matcher; Codex has none of the switches.
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    crate::write::nested(w, items, settings, &Nested::without_switches(handler))
}

/// A Codex handler: a command, its `timeout` in seconds and `statusMessage`.
pub(crate) fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    w.enabled(spec)?;
    let Action::Command(c) = &spec.action else {
        let why = format!(
            "`{}` hooks (Codex runs only command hooks)",
            spec.action.type_name()
        );
        w.skip(spec, &why);
        return None;
    };
    let mut h = Map::new();
    h.insert("type".into(), json!("command"));
    let script = w.script(spec, &c.command);
    h.insert("command".into(), json!(script));
    if let Some(t) = own_timeout(spec, Dialect::Codex) {
        h.insert("timeout".into(), secs(t));
    }
    if let Some(d) = &spec.description {
        h.insert("statusMessage".into(), json!(d));
    }
    if spec.is_async {
        w.lost(
            spec,
            "`async` (Codex skips async hooks, so it is written as one that waits)",
        );
    }
    if spec.on_failure == FailurePolicy::Block {
        w.lost(spec, "fail-closed (`on_failure: block`)");
    }
    w.common_losses(spec, &["description", "async"]);
    Some(h)
}
