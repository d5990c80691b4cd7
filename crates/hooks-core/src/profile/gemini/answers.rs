//! Gemini CLI's reading of its hooks' answers (`packages/core/src/hooks/hookRunner.ts` and
//! `types.ts`), called by [`parse_output_in`](crate::parse_output_in) for Gemini CLI hooks.
//!
//! The text read is stdout trimmed, or stderr when stdout is empty. A JSON object is the
//! answer whatever the exit code (a JSON string holding JSON is read twice); other text is
//! turned into an answer by the exit code: 0 is a message for the user, 1 the warning
//! `Warning: <text>`, any other code a deny with the text as the reason. Nothing written
//! means no answer, whatever the exit code. A signal counts as exit 0, as Gemini CLI's
//! `exitCode || 0` does.
//!
//! In JSON, `decision` `deny` or `block` denies with the effective reason (`stopReason`,
//! else `reason`), `ask` asks the user, `allow` and `approve` are no opinion (a Gemini CLI
//! allow does not bypass the agent's own checks); `continue: false` stops the agent;
//! `systemMessage` is for the user. Per event, as Gemini CLI reads `hookSpecificOutput`:
//! BeforeTool's `tool_input` (merged into the tool's arguments by
//! [`merge_updated_input`](crate::merge_updated_input)), AfterTool's deny replacing the
//! result and its `additionalContext`, BeforeAgent's `additionalContext`, AfterAgent's
//! `clearContext`, BeforeModel's `llm_request` and `llm_response`, AfterModel's
//! `llm_response`, AfterTool's `tailToolCallRequest` (kept as written, in Gemini CLI's
//! tool names: only Gemini CLI can run it), BeforeToolSelection's `toolConfig`,
//! SessionStart's `additionalContext`. What an event does not read is dropped and
//! reported.

use serde_json::{Map, Value};

use crate::event::{BuiltinEvent, Event};
use crate::outcome::{Decision, HookOutcome, HookStatus, OutputField};
use crate::output::text;

/// The prefix Gemini CLI puts before an AfterTool deny's reason in the tool result.
const RESULT_BLOCKED: &str = "Tool result blocked: ";

/// Gemini CLI's exit code for a non-blocking error (a warning).
const NON_BLOCKING_ERROR: i32 = 1;

/// Reads a Gemini CLI hook's answer (see the module docs).
pub(crate) fn parse(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    let out = text(stdout);
    let read = if out.is_empty() { text(stderr) } else { out };
    let mut outcome = if read.is_empty() {
        HookOutcome::ok()
    } else {
        match json_answer(&read) {
            Answer::Object(map) => read_object(event, &map),
            Answer::Nothing => HookOutcome::ok(),
            Answer::Text => plain_text(event, exit_code.unwrap_or(0), read),
        }
    };
    outcome.run.exit_code = exit_code;
    outcome
}

/// What the text read is, as Gemini CLI's `JSON.parse` sees it.
enum Answer {
    /// A JSON object (or array, which holds no field Gemini CLI reads).
    Object(Map<String, Value>),
    /// JSON that is not an object (a number, `true`, `null`): no answer.
    Nothing,
    /// Not JSON: plain text.
    Text,
}

fn json_answer(read: &str) -> Answer {
    let Ok(value) = serde_json::from_str::<Value>(read) else {
        return Answer::Text;
    };
    let value = match value {
        Value::String(inner) => match serde_json::from_str::<Value>(&inner) {
            Ok(value) => value,
            Err(_) => return Answer::Text,
        },
        other => other,
    };
    match value {
        Value::Object(map) => Answer::Object(map),
        Value::Array(_) => Answer::Object(Map::new()),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => Answer::Nothing,
    }
}

/// Plain text, by exit code (`convertPlainTextToHookOutput`).
fn plain_text(event: &Event, code: i32, read: String) -> HookOutcome {
    let mut map = Map::new();
    match code {
        0 => {
            map.insert("systemMessage".to_owned(), Value::String(read));
        }
        NON_BLOCKING_ERROR => {
            map.insert(
                "systemMessage".to_owned(),
                Value::String(format!("Warning: {read}")),
            );
        }
        _ => {
            map.insert("decision".to_owned(), Value::String("deny".to_owned()));
            map.insert("reason".to_owned(), Value::String(read));
        }
    }
    read_object(event, &map)
}

/// What an event reads of an answer.
#[derive(Clone, Copy)]
struct Reads {
    decision: bool,
    continue_: bool,
    system_message: bool,
    context: bool,
}

fn reads(event: Option<BuiltinEvent>) -> Reads {
    let all = Reads {
        decision: true,
        continue_: true,
        system_message: true,
        context: false,
    };
    let advisory = Reads {
        decision: false,
        continue_: false,
        system_message: true,
        context: false,
    };
    match event {
        Some(BuiltinEvent::PostToolUse | BuiltinEvent::UserPromptSubmit) => Reads {
            context: true,
            ..all
        },
        Some(BuiltinEvent::SessionStart) => Reads {
            context: true,
            ..advisory
        },
        Some(BuiltinEvent::SessionEnd | BuiltinEvent::PreCompact | BuiltinEvent::Notification) => {
            advisory
        }
        Some(BuiltinEvent::BeforeToolSelection) => Reads {
            system_message: false,
            ..advisory
        },
        _ => all,
    }
}

/// Reads a JSON answer by Gemini CLI's rules.
fn read_object(event: &Event, map: &Map<String, Value>) -> HookOutcome {
    let builtin = event.builtin();
    let reads = reads(builtin);
    let mut out = HookOutcome::ok();
    let str_of = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
    let reason = str_of("stopReason")
        .filter(|s| !s.is_empty())
        .or_else(|| str_of("reason").filter(|s| !s.is_empty()));
    let decision = match map.get("decision").and_then(Value::as_str) {
        Some("deny" | "block") => Decision::Deny,
        Some("ask") => Decision::Ask,
        Some(_) | None => Decision::None,
    };
    let name = event.name().to_owned();
    if decision != Decision::None && !reads.decision {
        out.drop_field(
            OutputField::Decision,
            format!("Gemini CLI reads no decision on {name}"),
        );
    } else if decision.is_blocking() && builtin == Some(BuiltinEvent::PostToolUse) {
        // AfterTool: the tool ran; its result is replaced by the reason.
        let why = reason
            .clone()
            .unwrap_or_else(|| "No reason provided".to_owned());
        out.effects.updated_tool_output = Some(Value::String(format!("{RESULT_BLOCKED}{why}")));
        out.effects.reason = Some(why);
    } else if decision != Decision::None {
        out.effects.decision = decision;
        out.effects.reason = Some(
            reason
                .clone()
                .unwrap_or_else(|| "No reason provided".to_owned()),
        );
        if decision.is_blocking() {
            out.run.status = HookStatus::Blocked;
        }
    }
    if map.get("continue") == Some(&Value::Bool(false)) {
        if reads.continue_ {
            out.effects.continue_ = false;
            out.effects.stop_reason = reason.clone();
        } else {
            out.drop_field(
                OutputField::Continue,
                format!("Gemini CLI reads no continue on {name}"),
            );
        }
    }
    if let Some(message) = str_of("systemMessage") {
        if reads.system_message {
            out.effects.system_message = Some(message);
        } else {
            out.drop_field(
                OutputField::SystemMessage,
                format!("Gemini CLI reads no systemMessage on {name}"),
            );
        }
    }
    if map.get("suppressOutput") == Some(&Value::Bool(true)) {
        out.effects.suppress_output = true;
    }
    for key in map.keys() {
        if !matches!(
            key.as_str(),
            "decision"
                | "reason"
                | "continue"
                | "stopReason"
                | "systemMessage"
                | "suppressOutput"
                | "hookSpecificOutput"
        ) {
            out.unknown_fields.push(key.clone());
        }
    }
    if let Some(Value::Object(inner)) = map.get("hookSpecificOutput") {
        hook_specific(builtin, reads, inner, &mut out, &name);
    }
    out
}

/// `hookSpecificOutput`, as the event's own output class reads it.
fn hook_specific(
    event: Option<BuiltinEvent>,
    reads: Reads,
    inner: &Map<String, Value>,
    out: &mut HookOutcome,
    name: &str,
) {
    for (key, value) in inner {
        let effects = &mut out.effects;
        match (key.as_str(), event) {
            ("hookEventName", _) => {}
            ("additionalContext", _) if reads.context => {
                if let Some(s) = value.as_str() {
                    effects.additional_context.push(s.to_owned());
                }
            }
            ("tool_input", Some(BuiltinEvent::PreToolUse)) if value.is_object() => {
                effects.updated_input = Some(value.clone());
            }
            ("clearContext", Some(BuiltinEvent::Stop)) => {
                effects.clear_context = value == &Value::Bool(true);
            }
            ("llm_request", Some(BuiltinEvent::BeforeModel)) => {
                effects.llm_request = Some(value.clone());
            }
            ("llm_response", Some(BuiltinEvent::BeforeModel | BuiltinEvent::AfterModel)) => {
                effects.llm_response = Some(value.clone());
            }
            ("toolConfig", Some(BuiltinEvent::BeforeToolSelection)) => {
                effects.tool_config = Some(value.clone());
            }
            ("tailToolCallRequest", Some(BuiltinEvent::PostToolUse))
                if value.get("name").is_some_and(Value::is_string) =>
            {
                effects.tail_tool_call = Some(value.clone());
            }
            _ => out
                .unknown_fields
                .push(format!("hookSpecificOutput.{key} (not read on {name})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[track_caller]
    fn check(event: BuiltinEvent, code: i32, stdout: &str, stderr: &str, expect: Value) {
        let outcome = parse(
            &event.into(),
            Some(code),
            stdout.as_bytes(),
            stderr.as_bytes(),
        );
        let got = serde_json::to_value(&outcome.effects).unwrap();
        for (k, v) in expect.as_object().unwrap() {
            assert_eq!(&got[k], v, "{k} of {got}");
        }
    }

    #[test]
    fn plain_text_by_exit_code() {
        let pre = BuiltinEvent::PreToolUse;
        check(
            pre,
            0,
            "hello",
            "",
            json!({"decision": "none", "system_message": "hello"}),
        );
        check(
            pre,
            1,
            "",
            "down",
            json!({"system_message": "Warning: down"}),
        );
        check(
            pre,
            2,
            "",
            "no",
            json!({"decision": "deny", "reason": "no"}),
        );
        check(
            pre,
            127,
            "out",
            "err",
            json!({"decision": "deny", "reason": "out"}),
        );
        check(pre, 2, "", "", json!({"decision": "none", "reason": null}));
        check(pre, 2, "42", "", json!({"decision": "none"}));
    }

    #[test]
    fn json_whatever_the_code() {
        let pre = BuiltinEvent::PreToolUse;
        check(
            pre,
            1,
            r#"{"decision":"block","reason":"r"}"#,
            "",
            json!({"decision": "deny", "reason": "r"}),
        );
        check(
            pre,
            0,
            r#""{\"decision\":\"deny\"}""#,
            "",
            json!({"decision": "deny", "reason": "No reason provided"}),
        );
        check(
            pre,
            0,
            r#"{"decision":"allow"}"#,
            "",
            json!({"decision": "none"}),
        );
        check(
            pre,
            0,
            r#"{"continue":false,"reason":"r"}"#,
            "",
            json!({"continue": false, "stop_reason": "r"}),
        );
    }

    #[test]
    fn per_event() {
        check(
            BuiltinEvent::PostToolUse,
            0,
            r#"{"decision":"deny","reason":"hidden"}"#,
            "",
            json!({"decision": "none", "updated_tool_output": "Tool result blocked: hidden"}),
        );
        check(
            BuiltinEvent::Stop,
            0,
            r#"{"hookSpecificOutput":{"clearContext":true}}"#,
            "",
            json!({"clear_context": true}),
        );
        check(
            BuiltinEvent::SessionStart,
            0,
            r#"{"decision":"deny","hookSpecificOutput":{"additionalContext":"c"}}"#,
            "",
            json!({"decision": "none", "additional_context": ["c"]}),
        );
        let tail = json!({"name": "read_file", "args": {"file_path": "a"}});
        check(
            BuiltinEvent::PostToolUse,
            0,
            &json!({"hookSpecificOutput": {"tailToolCallRequest": tail}}).to_string(),
            "",
            json!({"tail_tool_call": tail}),
        );
        // Without a tool name it is no request: reported, not carried.
        check(
            BuiltinEvent::PostToolUse,
            0,
            r#"{"hookSpecificOutput":{"tailToolCallRequest":{"args":{}}}}"#,
            "",
            json!({"tail_tool_call": null}),
        );
    }
}
