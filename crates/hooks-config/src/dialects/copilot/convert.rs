//! Writing hooks as a GitHub Copilot CLI hooks file: `{"version": 1, "hooks": {event:
//! [hook]}}` in the camelCase form, command hooks only, each with its script as `bash`,
//! its timeout as `timeoutSec` and its tool matcher as a regular expression over
//! Copilot's tool names.

use hooks_core::{Action, Dialect};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Writer, own_timeout, secs};

/// Copilot's camelCase file: every command hook under its event's camelCase name.
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    w.directives(items);
    let mut kept = settings.clone();
    let disable_all = kept.disable_all_hooks.take();
    w.settings_lost(&kept);
    let mut hooks: Map<String, Value> = Map::new();
    for spec in items.iter().filter_map(Item::hook) {
        if w.enabled(spec).is_none() {
            continue;
        }
        let Action::Command(c) = &spec.action else {
            let why = format!("`{}` hooks", spec.action.type_name());
            w.skip(spec, &why);
            continue;
        };
        let mut h = Map::new();
        h.insert("type".into(), json!("command"));
        let script = w.script(spec, &c.command);
        h.insert("bash".into(), json!(script));
        if let Some(cwd) = &c.cwd {
            h.insert("cwd".into(), json!(cwd.display().to_string()));
        }
        if !c.env.is_empty() {
            let env: Map<String, Value> = c
                .env
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            h.insert("env".into(), Value::Object(env));
        }
        if let Some(t) = own_timeout(spec, Dialect::Copilot) {
            h.insert("timeoutSec".into(), secs(t));
        }
        if let Some(m) = w.matcher(spec) {
            h.insert("matcher".into(), json!(m));
        }
        let event = w.event_name(spec);
        w.common_losses(spec, &["cwd", "env"]);
        if let Value::Array(list) = hooks.entry(event).or_insert_with(|| json!([])) {
            list.push(Value::Object(h));
        }
    }
    let mut root = Map::new();
    root.insert("version".into(), json!(1));
    if let Some(off) = disable_all {
        root.insert("disableAllHooks".into(), json!(off));
    }
    root.insert("hooks".into(), Value::Object(hooks));
    Value::Object(root)
}
