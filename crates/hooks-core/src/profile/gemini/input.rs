//! Gemini CLI's hook input both ways: the stdin JSON a Gemini CLI hook is given for an
//! event ([`stdin`]), and its inverse, the event Gemini CLI itself sends (to `hooks bridge
//! gemini`) read into the engine's canonical context ([`read_event`]).
//!
//! Gemini CLI's `HookInput` (`packages/core/src/hooks/types.ts`, `docs/hooks/reference.md`):
//! `session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`, then per event
//! BeforeTool's `tool_name`, `tool_input`, `mcp_context`, `original_request_name`,
//! AfterTool's `tool_response` besides, BeforeAgent's `prompt`, AfterAgent's `prompt`,
//! `prompt_response` and `stop_hook_active`, BeforeModel's and BeforeToolSelection's
//! `llm_request`, AfterModel's `llm_request` and `llm_response`, SessionStart's `source`,
//! SessionEnd's `reason`, PreCompress's `trigger`, Notification's `notification_type`,
//! `message` and `details`.
//!
//! What differs from the canonical vocabulary (Claude Code's) is in three tables, read both
//! ways: the tool names (the profile's [`ToolNames`](crate::ToolNames)), the argument names
//! of its tools ([`TOOL_ARGS`]: `dir_path` is the canonical `path`, `allow_multiple` is
//! `replace_all`, ...), and the event fields and values ([`FIELDS`], [`VALUES`]:
//! AfterAgent's `prompt_response` is Stop's `last_assistant_message`, a `ToolPermission`
//! notification is a `permission_prompt`). Everything else is the same field under the same
//! name, and a field Gemini CLI sends that has no canonical counterpart (`mcp_context`,
//! `llm_request`, a shell call's `dir_path`) is kept under its own name, so a Gemini CLI
//! hook the engine runs gets it back.

use serde_json::{Map, Value};

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent as E, BuiltinEvent, Event};
use crate::profile::shared::{ArgRenames, rename_args};
use crate::tools::GEMINI_TOOLS;

/// The arguments of Gemini CLI's tools whose canonical tool names them otherwise, as
/// (Gemini CLI's tool, [(its argument, the canonical tool's)])
/// (`packages/core/src/tools/definitions/base-declarations.ts`). Arguments not listed keep
/// their names (`command`, `file_path`, `old_string`, `pattern`, ...), also those the
/// canonical tool does not have (`dir_path` of the shell tool, `start_line` of
/// `read_file`, whose meaning differs from `offset`).
pub(crate) const TOOL_ARGS: ArgRenames = &[
    (
        "run_shell_command",
        &[("is_background", "run_in_background")],
    ),
    ("replace", &[("allow_multiple", "replace_all")]),
    (
        "grep_search",
        &[("dir_path", "path"), ("include_pattern", "glob")],
    ),
    ("glob", &[("dir_path", "path")]),
    ("list_directory", &[("dir_path", "path")]),
];

/// Event fields Gemini CLI names otherwise: (event, Gemini CLI's field, the canonical one).
const FIELDS: &[(BuiltinEvent, &str, &str)] =
    &[(E::Stop, "prompt_response", "last_assistant_message")];

/// Field values Gemini CLI spells otherwise: (event, field, Gemini CLI's value, the
/// canonical one). A Notification's `notification_type` is what its matchers test.
const VALUES: &[(BuiltinEvent, &str, &str, &str)] = &[(
    E::Notification,
    "notification_type",
    "ToolPermission",
    "permission_prompt",
)];

/// The direction of a translation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// Gemini CLI's names to the canonical ones.
    ToCanonical,
    /// The canonical names to Gemini CLI's.
    ToGemini,
}

/// `(from, to)` of a pair read in `way`, where the pair is (Gemini CLI's, canonical).
fn oriented<'a>(way: Way, gemini: &'a str, canonical: &'a str) -> (&'a str, &'a str) {
    match way {
        Way::ToCanonical => (gemini, canonical),
        Way::ToGemini => (canonical, gemini),
    }
}

/// `input` (a tool's arguments) with the argument names of Gemini CLI's tool `tool`
/// translated `way`. Not an object: unchanged.
fn tool_args(input: Value, tool: &str, way: Way) -> Value {
    match input {
        Value::Object(args) => {
            Value::Object(rename_args(TOOL_ARGS, tool, args, way == Way::ToCanonical))
        }
        other => other,
    }
}

/// A canonical tool's input (`updated_input` of a rewrite) in the argument names of Gemini
/// CLI's tool for it (`path` of `Grep` is `dir_path` of `grep_search`): what Gemini CLI's
/// `tool_input` holds.
pub(crate) fn tool_input_for_gemini(canonical_tool: &str, input: &Value) -> Value {
    tool_args(
        input.clone(),
        &GEMINI_TOOLS.from_canonical(canonical_tool),
        Way::ToGemini,
    )
}

/// The event Gemini CLI sent (its `HookInput`) as the engine's context of `event`: the
/// tool name and its arguments, AfterAgent's `prompt_response` and a Notification's type in
/// the canonical vocabulary, every other field as it came (`hook_event_name` is the
/// event's, written per dialect).
pub(crate) fn read_event(event: Event, fields: Map<String, Value>) -> EventContext {
    let builtin = event.builtin();
    let own_tool = fields
        .get("tool_name")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut ctx = EventContext::new(event);
    for (key, value) in fields {
        let (key, value) =
            translate_field(builtin, own_tool.as_deref(), &key, value, Way::ToCanonical);
        ctx.set(key, value);
    }
    ctx
}

/// One field of an event of `event` translated `way`: its name and value. `tool` is the
/// tool's name in Gemini CLI's vocabulary.
fn translate_field(
    event: Option<BuiltinEvent>,
    tool: Option<&str>,
    key: &str,
    value: Value,
    way: Way,
) -> (String, Value) {
    let value = match (key, value) {
        ("tool_name", Value::String(name)) => Value::String(match way {
            Way::ToCanonical => GEMINI_TOOLS.to_canonical(&name).into_owned(),
            Way::ToGemini => GEMINI_TOOLS.from_canonical(&name).into_owned(),
        }),
        ("tool_input", input) => match tool {
            Some(tool) => tool_args(input, tool, way),
            None => input,
        },
        (_, Value::String(text)) => Value::String(
            VALUES
                .iter()
                .filter(|(e, field, _, _)| Some(*e) == event && *field == key)
                .map(|(_, _, gemini, canonical)| oriented(way, gemini, canonical))
                .find(|(from, _)| *from == text)
                .map_or(text, |(_, to)| to.to_owned()),
        ),
        (_, value) => value,
    };
    let key = FIELDS
        .iter()
        .filter(|(e, _, _)| Some(*e) == event)
        .map(|(_, gemini, canonical)| oriented(way, gemini, canonical))
        .find(|(from, _)| *from == key)
        .map_or(key, |(_, to)| to);
    (key.to_owned(), value)
}

/// The stdin JSON of a Gemini CLI hook for the context's event.
pub(super) fn stdin(ctx: &EventContext) -> Value {
    input_json(ctx, ctx.event().info().name_in(Dialect::Gemini))
}

/// The fields every Gemini CLI hook input has (besides `hook_event_name` and
/// `timestamp`, which the builder writes).
const COMMON: [&str; 3] = ["session_id", "transcript_path", "cwd"];

/// The fields of each event's input, after the common ones, in Gemini CLI's names; `None`:
/// an event Gemini CLI does not have, whose fields are all passed on.
fn event_fields(event: Option<BuiltinEvent>) -> Option<&'static [&'static str]> {
    Some(match event? {
        E::PreToolUse => &[
            "tool_name",
            "tool_input",
            "mcp_context",
            "original_request_name",
        ],
        E::PostToolUse => &[
            "tool_name",
            "tool_input",
            "tool_response",
            "mcp_context",
            "original_request_name",
        ],
        E::UserPromptSubmit => &["prompt"],
        E::Stop => &["prompt", "prompt_response", "stop_hook_active"],
        E::BeforeModel | E::BeforeToolSelection => &["llm_request"],
        E::AfterModel => &["llm_request", "llm_response"],
        E::SessionStart => &["source"],
        E::SessionEnd => &["reason"],
        E::PreCompact => &["trigger"],
        E::Notification => &["notification_type", "message", "details"],
        _ => return None,
    })
}

/// The stdin JSON of a Gemini CLI hook: `session_id`, `transcript_path`, `cwd`,
/// `hook_event_name` (Gemini CLI's name, `BeforeTool`), `timestamp` (the context's, else
/// the dispatch time), then the event's own fields in Gemini CLI's names and values (the
/// inverse of [`read_event`]: the tool `run_shell_command`, its `dir_path`, AfterAgent's
/// `prompt_response`). Fields Gemini CLI does not send (Claude Code's `permission_mode`,
/// `tool_use_id`) are left out; an event Gemini CLI does not have passes every field on.
pub(super) fn input_json(ctx: &EventContext, event_name: &str) -> Value {
    let event = ctx.event().builtin();
    // Gemini CLI's names of the context's fields, each with its value translated.
    let canonical_tool = ctx.tool_name();
    let own_tool = canonical_tool.map(|t| GEMINI_TOOLS.from_canonical(t));
    let mut own: Map<String, Value> = ctx
        .fields()
        .iter()
        .map(|(k, v)| translate_field(event, own_tool.as_deref(), k, v.clone(), Way::ToGemini))
        .collect();
    let mut out = Map::new();
    // Each field is moved out of `own`, which keeps the order of the rest: an event
    // Gemini CLI does not have passes them on.
    let copy = |own: &mut Map<String, Value>, out: &mut Map<String, Value>, key: &str| {
        if let Some(value) = own.shift_remove(key) {
            out.insert(key.to_owned(), value);
        }
    };
    for key in COMMON {
        copy(&mut own, &mut out, key);
    }
    out.insert(
        "hook_event_name".to_owned(),
        Value::String(event_name.to_owned()),
    );
    match own.shift_remove("timestamp") {
        Some(at) => {
            out.insert("timestamp".to_owned(), at);
        }
        None => {
            if let Some(at) = ctx.dispatched_at() {
                out.insert("timestamp".to_owned(), Value::String(at.to_owned()));
            }
        }
    }
    match event_fields(event) {
        Some(keys) => {
            for key in keys {
                copy(&mut own, &mut out, key);
            }
        }
        None => {
            for (key, value) in own {
                out.entry(key).or_insert(value);
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Reads Gemini CLI's `sent` for `event` (a Gemini CLI name) and checks the canonical
    /// context's fields are `canonical`; then writes them back for a Gemini CLI hook and
    /// checks that is `sent` again (the builder is the reader's inverse).
    #[track_caller]
    fn check(event: &str, sent: Value, canonical: Value) {
        let ev = crate::EventCatalog::new()
            .get(event)
            .expect("a Gemini CLI event");
        let Value::Object(fields) = sent.clone() else {
            panic!("an object")
        };
        let ctx = read_event(ev, fields);
        assert_eq!(
            Value::Object(ctx.fields().clone()),
            canonical,
            "read {event}"
        );
        let mut back = input_json(&ctx, event);
        back.as_object_mut().unwrap().remove("hook_event_name");
        assert_eq!(back, sent, "written back for {event}");
    }

    const BASE: &str = r#""session_id": "s", "transcript_path": "/t.json", "cwd": "/w", "timestamp": "2026-01-01T00:00:00Z""#;

    fn with_base(extra: &str) -> Value {
        serde_json::from_str(&format!(
            "{{{BASE}{}{extra}}}",
            if extra.is_empty() { "" } else { ", " }
        ))
        .unwrap()
    }

    #[test]
    fn each_event_reads_into_canonical_fields_and_back() {
        check(
            "BeforeTool",
            with_base(
                r#""tool_name": "run_shell_command", "tool_input": {"command": "ls", "dir_path": "sub", "is_background": false}"#,
            ),
            with_base(
                r#""tool_name": "Bash", "tool_input": {"command": "ls", "dir_path": "sub", "run_in_background": false}"#,
            ),
        );
        check(
            "BeforeTool",
            with_base(
                r#""tool_name": "replace", "tool_input": {"file_path": "/w/a", "old_string": "x", "new_string": "y", "allow_multiple": true}"#,
            ),
            with_base(
                r#""tool_name": "Edit", "tool_input": {"file_path": "/w/a", "old_string": "x", "new_string": "y", "replace_all": true}"#,
            ),
        );
        check(
            "BeforeTool",
            with_base(
                r#""tool_name": "grep_search", "tool_input": {"pattern": "x", "dir_path": "src", "include_pattern": "*.rs"}"#,
            ),
            with_base(
                r#""tool_name": "Grep", "tool_input": {"pattern": "x", "path": "src", "glob": "*.rs"}"#,
            ),
        );
        check(
            "BeforeTool",
            with_base(
                r#""tool_name": "mcp_github_create_issue", "tool_input": {"title": "t"}, "mcp_context": {"server_name": "github", "tool_name": "create_issue"}, "original_request_name": "create_issue""#,
            ),
            with_base(
                r#""tool_name": "mcp__github__create_issue", "tool_input": {"title": "t"}, "mcp_context": {"server_name": "github", "tool_name": "create_issue"}, "original_request_name": "create_issue""#,
            ),
        );
        check(
            "AfterTool",
            with_base(
                r#""tool_name": "list_directory", "tool_input": {"dir_path": "."}, "tool_response": {"llmContent": "a", "returnDisplay": "a"}"#,
            ),
            with_base(
                r#""tool_name": "LS", "tool_input": {"path": "."}, "tool_response": {"llmContent": "a", "returnDisplay": "a"}"#,
            ),
        );
        check(
            "AfterAgent",
            with_base(r#""prompt": "hi", "prompt_response": "hello", "stop_hook_active": true"#),
            with_base(
                r#""prompt": "hi", "last_assistant_message": "hello", "stop_hook_active": true"#,
            ),
        );
        check(
            "Notification",
            with_base(
                r#""notification_type": "ToolPermission", "message": "ok?", "details": {"type": "exec"}"#,
            ),
            with_base(
                r#""notification_type": "permission_prompt", "message": "ok?", "details": {"type": "exec"}"#,
            ),
        );
        // The events whose fields Gemini CLI names as the engine does.
        for (event, fields) in [
            ("BeforeAgent", r#""prompt": "hi""#),
            (
                "BeforeModel",
                r#""llm_request": {"model": "m", "messages": []}"#,
            ),
            ("BeforeToolSelection", r#""llm_request": {"model": "m"}"#),
            (
                "AfterModel",
                r#""llm_request": {"model": "m"}, "llm_response": {"candidates": []}"#,
            ),
            ("SessionStart", r#""source": "resume""#),
            ("SessionEnd", r#""reason": "exit""#),
            ("PreCompress", r#""trigger": "auto""#),
        ] {
            check(event, with_base(fields), with_base(fields));
        }
    }

    #[test]
    fn a_canonical_rewrite_is_written_in_gemini_clis_arguments() {
        assert_eq!(
            tool_input_for_gemini("Grep", &json!({"pattern": "x", "path": "src"})),
            json!({"pattern": "x", "dir_path": "src"})
        );
        assert_eq!(
            tool_input_for_gemini("Bash", &json!({"command": "ls", "dir_path": "d"})),
            json!({"command": "ls", "dir_path": "d"})
        );
        assert_eq!(tool_input_for_gemini("Bash", &json!("x")), json!("x"));
    }

    #[test]
    fn before_tool_input_of_a_claude_code_event() {
        let mut ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}))
            .session_id("s")
            .cwd("/w")
            .permission_mode("default")
            .with("tool_use_id", "t");
        ctx.set_dispatched_at("2026-01-01T00:00:00Z");
        let got = input_json(&ctx, "BeforeTool");
        assert_eq!(
            got,
            json!({"session_id": "s", "cwd": "/w", "hook_event_name": "BeforeTool",
                "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"}})
        );
    }
}
