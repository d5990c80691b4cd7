//! Writing hooks as a Qwen Code settings file: Claude Code's nesting by event and
//! matcher, the handler types Qwen Code runs, and its one switch, `disableAllHooks`.

use hooks_core::{Dialect, HookSpec};
use serde_json::{Map, Value, json};

use crate::file::{Item, Settings};
use crate::write::{Nested, Writer};

/// Hooks nested by event and matcher.
pub(crate) fn write(w: &mut Writer, items: &[Item], settings: &Settings) -> Value {
    let how = Nested {
        handler,
        settings: switches,
        sequential_groups: false,
    };
    crate::write::nested(w, items, settings, &how)
}

fn handler(w: &mut Writer, spec: &HookSpec) -> Option<Map<String, Value>> {
    crate::dialects::claude::convert::handler_in(w, spec, Dialect::Qwen, super::TYPES)
}

/// `disableAllHooks`, Qwen Code's one file-wide switch.
fn switches(_: &mut Writer, settings: &Settings, root: &mut Map<String, Value>) {
    if let Some(v) = settings.disable_all_hooks {
        root.insert("disableAllHooks".into(), json!(v));
    }
}
