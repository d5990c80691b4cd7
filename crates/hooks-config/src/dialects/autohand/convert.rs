//! Writing hooks as an Autohand `config.json`: command hooks only, timeouts in
//! milliseconds, `enabled` per hook.

use hooks_core::{Action, Dialect, FailurePolicy};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Writer, own_timeout};

pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    w.directives(items);
    w.settings_lost(settings);
    let mut hooks = Vec::new();
    for spec in items.iter().filter_map(Item::hook) {
        let Action::Command(c) = &spec.action else {
            let why = format!(
                "`{}` hooks (its hooks are shell commands)",
                spec.action.type_name()
            );
            w.skip(spec, &why);
            continue;
        };
        let mut h = Map::new();
        let event = w.event_name(spec);
        h.insert("event".into(), json!(event));
        let script = w.script(spec, &c.command);
        h.insert("command".into(), json!(script));
        if let Some(d) = &spec.description {
            h.insert("description".into(), json!(d));
        }
        if !spec.enabled {
            h.insert("enabled".into(), json!(false));
        }
        if let Some(t) = own_timeout(spec, Dialect::Autohand) {
            h.insert("timeout".into(), json!(t.as_millis() as u64));
            if t.subsec_nanos() % 1_000_000 != 0 {
                w.lost(spec, "the sub-millisecond part of the timeout");
            }
        }
        if spec.is_async {
            h.insert("async".into(), json!(true));
        }
        if let Some(m) = w.matcher(spec) {
            h.insert("matcher".into(), json!(m));
        }
        if !spec.filter.tools().is_empty() || !spec.filter.path_globs().is_empty() {
            let mut f = Map::new();
            if !spec.filter.tools().is_empty() {
                f.insert("tool".into(), json!(spec.filter.tools()));
            }
            if !spec.filter.path_globs().is_empty() {
                f.insert("path".into(), json!(spec.filter.path_globs()));
            }
            h.insert("filter".into(), Value::Object(f));
        }
        if spec.on_failure == FailurePolicy::Block {
            w.lost(spec, "fail-closed (`on_failure: block`)");
        }
        w.common_losses(spec, &["description", "filter", "async"]);
        hooks.push(Value::Object(h));
    }
    json!({"hooks": {"enabled": true, "hooks": hooks}})
}
