//! What a Codex hook is given: the stdin JSON of Codex's hook events
//! (`codex-rs/hooks/src/events/*.rs`; no `timestamp`) and its matcher's view of a tool.

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::tools::CODEX_TOOLS;

/// The stdin JSON of a Codex hook: `hook_event_name` (the canonical name, which Codex
/// shares), then the context's fields (`session_id`, `transcript_path`, `cwd`, `model`,
/// `turn_id`, `permission_mode`, the event's own) with the tool name in Codex's vocabulary
/// (`apply_patch` for an edit, `Bash` for the shell). Codex sends no `timestamp`.
pub(crate) fn input_json(ctx: &EventContext, event_name: &str) -> Value {
    let mut out = Map::with_capacity(ctx.fields().len() + 1);
    out.insert(
        "hook_event_name".to_owned(),
        Value::String(event_name.to_owned()),
    );
    for (k, v) in ctx.fields() {
        match (k.as_str(), v) {
            ("timestamp", _) => {}
            ("tool_name", Value::String(name)) => {
                out.insert(
                    k.clone(),
                    Value::String(CODEX_TOOLS.from_canonical(name).into_owned()),
                );
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pre_tool_use_input() {
        let ctx = EventContext::pre_tool_use("Write", json!({"file_path": "a"}))
            .with("turn_id", "t-1")
            .timestamp("2026-01-01T00:00:00Z");
        assert_eq!(
            input_json(&ctx, "PreToolUse"),
            json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                "tool_input": {"file_path": "a"}, "turn_id": "t-1"})
        );
    }
}
