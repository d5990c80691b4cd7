//! Writing hooks as a Gemini CLI settings file: command hooks nested by event, timeouts in
//! milliseconds, lifecycle matchers compared exactly, `hooksConfig.enabled` for the
//! file-wide switch.

use hooks_core::{Action, Dialect, FailurePolicy, HookSpec};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Nested, Writer, own_timeout};

/// Hook definitions nested by event, a sequential hook in a group of its own, the
/// file-wide switch as `hooksConfig.enabled`.
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    let how = Nested {
        handler,
        settings: switches,
        sequential_groups: true,
    };
    crate::write::nested(w, items, settings, &how)
}

/// `disable_all_hooks: true` is `hooksConfig.enabled: false`; the other switches are lost.
fn switches(w: &mut Writer, settings: &Settings, root: &mut Map<String, Value>) {
    if settings.disable_all_hooks == Some(true) {
        root.insert("hooksConfig".into(), json!({"enabled": false}));
        let rest = Settings {
            disable_all_hooks: None,
            ..settings.clone()
        };
        w.settings_lost(&rest);
    } else {
        w.settings_lost(settings);
    }
}

/// A Gemini CLI hook: a command, its `name`, `description`, `env` and `timeout` in
/// milliseconds.
pub(crate) fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    w.enabled(spec)?;
    let Action::Command(c) = &spec.action else {
        let why = format!("`{}` hooks", spec.action.type_name());
        w.skip(spec, &why);
        return None;
    };
    let mut h = Map::new();
    h.insert("type".into(), json!("command"));
    if let Some(n) = &spec.name {
        h.insert("name".into(), json!(n));
    }
    let script = w.script(spec, &c.command);
    h.insert("command".into(), json!(script));
    if let Some(t) = own_timeout(spec, Dialect::Gemini) {
        h.insert("timeout".into(), json!(t.as_millis()));
    }
    if let Some(d) = &spec.description {
        h.insert("description".into(), json!(d));
    }
    if !c.env.is_empty() {
        let env: Map<String, Value> = c.env.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        h.insert("env".into(), Value::Object(env));
    }
    if spec.on_failure == FailurePolicy::Block {
        w.lost(spec, "fail-closed (`on_failure: block`)");
    }
    w.common_losses(spec, &["name", "description", "env", "sequential"]);
    Some(h)
}

/// A matcher on a Gemini CLI lifecycle event, which Gemini CLI compares exactly: one
/// name of a list (the others are lost, with a warning), a regular expression as it is
/// (with a warning).
pub(crate) fn lifecycle_matcher(
    w: &mut Writer,
    spec: &HookSpec,
    names: &[String],
) -> Option<String> {
    let event = spec.event.info().name_in(Dialect::Gemini).to_owned();
    if names.is_empty() {
        let what = format!(
            "Gemini CLI matches `{event}` exactly, not by regular expression; the matcher is written as it is"
        );
        w.warn(spec, &what);
        return Some(spec.matcher.as_str().to_owned());
    }
    if names.len() > 1 {
        let what = format!(
            "Gemini CLI matches `{event}` exactly, so only `{}` of the names is kept",
            names[0]
        );
        w.warn(spec, &what);
    }
    names.first().cloned()
}
