//! OpenCode's events both ways: the payload the bridge's plugin writes for an event read
//! into the engine's canonical context ([`read_event`]), and its inverse, the same payload
//! for a hook of OpenCode's dialect ([`stdin`]).
//!
//! The plugin's payload is Claude-shaped: `hook_event_name` (OpenCode's name of the event,
//! `tool.execute.before`), `session_id` (OpenCode's `sessionID`), `cwd` (the plugin's
//! `directory`, the project OpenCode runs in), and per event `tool_name` (OpenCode's tool,
//! `bash`), `tool_input` (its arguments as OpenCode will run them), `tool_use_id` (the
//! call's `callID`), and, after the call, `tool_response` (OpenCode's `{title, output,
//! metadata}`). What differs from the canonical vocabulary is the tool names (the
//! profile's [`ToolNames`](crate::ToolNames)) and the argument names of its tools
//! ([`TOOL_ARGS`]: `filePath` is the canonical `file_path`); a session event gets the
//! canonical fields OpenCode has no word for (SessionStart's `source` is `startup`,
//! SessionEnd's `reason` is `other`, Stop's `stop_hook_active` is `false`).

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent, Event};
use crate::profile::shared::{ArgRenames, claude_stdin, rename_args};
use crate::tools::OPENCODE_TOOLS;

/// The arguments of OpenCode's tools whose canonical tool names them otherwise, as
/// (OpenCode's tool, [(its argument, the canonical tool's)]), from the tool schemas
/// OpenCode 1.18.33 sends its model. Arguments not listed keep their names (`command`,
/// `pattern`, `path`, `content`, `offset`, `limit`, `url`, `todos`, `prompt`), also those
/// the canonical tool does not have (the shell tool's `workdir`, `webfetch`'s `format`).
pub const TOOL_ARGS: ArgRenames = &[
    ("read", &[("filePath", "file_path")]),
    ("write", &[("filePath", "file_path")]),
    (
        "edit",
        &[
            ("filePath", "file_path"),
            ("oldString", "old_string"),
            ("newString", "new_string"),
            ("replaceAll", "replace_all"),
        ],
    ),
    ("grep", &[("include", "glob")]),
];

/// The canonical fields a session event gets when the plugin does not send them: OpenCode
/// has no word for why a session started or ended.
const DEFAULTS: &[(BuiltinEvent, &str, bool, &str)] = &[
    (BuiltinEvent::SessionStart, "source", false, "startup"),
    (BuiltinEvent::SessionEnd, "reason", false, "other"),
    (BuiltinEvent::Stop, "stop_hook_active", true, ""),
];

/// `input` (a tool's arguments) with the argument names of OpenCode's tool `tool`
/// translated: to the canonical names (`to_canonical`), or back. Not an object: unchanged.
fn tool_args(input: Value, tool: &str, to_canonical: bool) -> Value {
    match input {
        Value::Object(args) => Value::Object(rename_args(TOOL_ARGS, tool, args, to_canonical)),
        other => other,
    }
}

/// A canonical tool's input (`updated_input` of a rewrite) in the argument names of
/// OpenCode's tool for it (`file_path` of `Edit` is `filePath` of `edit`): what the plugin
/// writes into the call's arguments.
pub fn tool_input_for_opencode(canonical_tool: &str, input: &Value) -> Value {
    tool_args(
        input.clone(),
        &OPENCODE_TOOLS.from_canonical(canonical_tool),
        false,
    )
}

/// The event the bridge's plugin sent as the engine's context of `event`: the tool name
/// and its arguments in the canonical vocabulary, a session event's missing fields given
/// (see the module's docs), every other field as it came.
pub(super) fn read_event(event: Event, fields: Map<String, Value>) -> EventContext {
    let own_tool = fields
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut ctx = EventContext::new(event.clone());
    for (key, value) in fields {
        let value = match (key.as_str(), value, own_tool.as_deref()) {
            ("tool_name", Value::String(name), _) => {
                Value::String(OPENCODE_TOOLS.to_canonical(&name).into_owned())
            }
            ("tool_input", input, Some(tool)) => tool_args(input, tool, true),
            (_, value, _) => value,
        };
        ctx.set(key, value);
    }
    for (on, key, flag, text) in DEFAULTS {
        if event.builtin() == Some(*on) && ctx.get(key).is_none_or(Value::is_null) {
            let value = if *flag {
                Value::Bool(false)
            } else {
                Value::String((*text).to_owned())
            };
            ctx.set(*key, value);
        }
    }
    ctx
}

/// The payload of the bridge's plugin for the context's event, as a hook of OpenCode's
/// dialect would get it: `hook_event_name` (OpenCode's name), the context's fields, the
/// tool and its arguments in OpenCode's names (the inverse of [`read_event`]).
pub(super) fn stdin(ctx: &EventContext) -> Value {
    let mut out = claude_stdin(ctx, Dialect::Opencode, None);
    if let Some(tool) = ctx.tool_name() {
        if let Some(input) = out.get_mut("tool_input") {
            *input = tool_input_for_opencode(tool, input);
        }
        out.insert(
            "tool_name".to_owned(),
            Value::String(OPENCODE_TOOLS.from_canonical(tool).into_owned()),
        );
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::EventCatalog;
    use serde_json::json;

    /// Reads the plugin's `sent` and checks the canonical context's fields are
    /// `canonical`; then writes them back for a hook of OpenCode's dialect and checks
    /// that is `sent` again (with the defaults a session event was given).
    #[track_caller]
    fn check(sent: Value, canonical: Value) {
        let name = sent["hook_event_name"].as_str().unwrap_or_default();
        let event = EventCatalog::new().get(name).expect("an OpenCode event");
        let Value::Object(fields) = sent.clone() else {
            panic!("not an object")
        };
        let mut fields = fields;
        fields.shift_remove("hook_event_name");
        let ctx = read_event(event, fields);
        assert_eq!(Value::Object(ctx.fields().clone()), canonical);
        let back = stdin(&ctx);
        for (k, v) in sent.as_object().into_iter().flatten() {
            assert_eq!(back.get(k), Some(v), "{k} written back");
        }
    }

    #[test]
    fn a_shell_call() {
        check(
            json!({"hook_event_name": "tool.execute.before", "session_id": "ses_1",
                   "cwd": "/p", "tool_name": "bash", "tool_use_id": "call_1",
                   "tool_input": {"command": "rm -r victim", "workdir": "/p"}}),
            json!({"session_id": "ses_1", "cwd": "/p", "tool_name": "Bash",
                   "tool_use_id": "call_1",
                   "tool_input": {"command": "rm -r victim", "workdir": "/p"}}),
        );
    }

    #[test]
    fn an_edit_in_camel_case() {
        check(
            json!({"hook_event_name": "tool.execute.after", "session_id": "s", "cwd": "/p",
                   "tool_name": "edit", "tool_use_id": "c",
                   "tool_input": {"filePath": "/p/a", "oldString": "x", "newString": "y",
                                  "replaceAll": true},
                   "tool_response": {"title": "a", "output": "ok", "metadata": {}}}),
            json!({"session_id": "s", "cwd": "/p", "tool_name": "Edit", "tool_use_id": "c",
                   "tool_input": {"file_path": "/p/a", "old_string": "x", "new_string": "y",
                                  "replace_all": true},
                   "tool_response": {"title": "a", "output": "ok", "metadata": {}}}),
        );
    }

    #[test]
    fn grep_include_is_glob_and_unknown_tools_pass() {
        check(
            json!({"hook_event_name": "tool.execute.before", "tool_name": "grep",
                   "tool_input": {"pattern": "x", "include": "*.rs"}}),
            json!({"tool_name": "Grep", "tool_input": {"pattern": "x", "glob": "*.rs"}}),
        );
        check(
            json!({"hook_event_name": "tool.execute.before", "tool_name": "github_create_issue",
                   "tool_input": {"filePath": "kept"}}),
            json!({"tool_name": "github_create_issue", "tool_input": {"filePath": "kept"}}),
        );
    }

    #[test]
    fn session_events_get_canonical_fields() {
        check(
            json!({"hook_event_name": "session.created", "session_id": "s", "cwd": "/p"}),
            json!({"session_id": "s", "cwd": "/p", "source": "startup"}),
        );
        check(
            json!({"hook_event_name": "session.idle", "session_id": "s"}),
            json!({"session_id": "s", "stop_hook_active": false}),
        );
        check(
            json!({"hook_event_name": "session.deleted", "session_id": "s"}),
            json!({"session_id": "s", "reason": "other"}),
        );
    }

    #[test]
    fn a_rewrite_goes_back_in_opencode_names() {
        assert_eq!(
            tool_input_for_opencode("Read", &json!({"file_path": "/a", "limit": 3})),
            json!({"filePath": "/a", "limit": 3})
        );
    }
}
