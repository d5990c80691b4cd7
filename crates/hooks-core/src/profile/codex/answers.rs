//! Codex's strict reading of its hooks' answers (`codex-rs/hooks/src/engine/output_parser.rs`
//! and the wire schema of `schema.rs`), called by
//! [`parse_output_in`](crate::parse_output_in) for Codex hooks.
//!
//! What Codex rejects is a failed hook here ([`FailureKind::MalformedOutput`], with
//! Codex's own wording), never a decision: the action proceeds unless the hook's failure
//! policy says otherwise.
//!
//! - Exit 0: empty stdout is success. Stdout starting with `{` or `[` must be one JSON
//!   object of the event's schema: every object rejects unknown keys,
//!   `hookSpecificOutput.hookEventName` is required, and each event's combinations Codex
//!   calls unsupported fail the hook. Plain text is developer context on SessionStart,
//!   SubagentStart and UserPromptSubmit, a failure on Stop and SubagentStop, and ignored
//!   elsewhere.
//! - Exit 2: stderr, which must not be empty, blocks PreToolUse, denies
//!   PermissionRequest, is feedback for the model on PostToolUse, blocks
//!   UserPromptSubmit and continues Stop and SubagentStop; on the other events exit 2 is a
//!   failure. Stdout is ignored.
//! - Any other code or a signal: a failure; stdout is not read.

use serde_json::{Map, Value};

use crate::event::{BuiltinEvent, Event};
use crate::outcome::{Decision, FailureKind, HookOutcome, HookStatus};
use crate::output::text;

/// The message of a PermissionRequest deny that gives none.
const DEFAULT_DENY_MESSAGE: &str = "PermissionRequest hook denied approval";

/// Reads a Codex hook's answer (see the module docs).
pub(crate) fn parse(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    let builtin = event.builtin();
    let name = event.name();
    let mut outcome = match exit_code {
        Some(0) => success(builtin, name, &text(stdout)),
        Some(2) => exit_2(builtin, name, text(stderr)),
        Some(code) => HookOutcome::failed(
            FailureKind::NonZeroExit,
            format!("exited with code {code}; Codex does not read stdout then"),
        ),
        None => HookOutcome::failed(FailureKind::Crash, "terminated by a signal"),
    };
    outcome.run.exit_code = exit_code;
    outcome
}

fn invalid(message: impl Into<String>) -> HookOutcome {
    HookOutcome::failed(FailureKind::MalformedOutput, message)
}

fn exit_2(event: Option<BuiltinEvent>, name: &str, stderr: String) -> HookOutcome {
    if stderr.is_empty() {
        return invalid(format!(
            "{name} hook exited with code 2 without a reason on stderr"
        ));
    }
    match event {
        Some(BuiltinEvent::PreToolUse | BuiltinEvent::UserPromptSubmit)
        | Some(BuiltinEvent::Stop | BuiltinEvent::SubagentStop) => {
            HookOutcome::decided(Decision::Block, Some(stderr))
        }
        Some(BuiltinEvent::PermissionRequest) => HookOutcome::decided(Decision::Deny, Some(stderr)),
        Some(BuiltinEvent::PostToolUse) => {
            let mut outcome = HookOutcome::ok();
            outcome.effects.additional_context.push(stderr);
            outcome
        }
        _ => HookOutcome::failed(
            FailureKind::NonZeroExit,
            format!("exited with code 2, a failure on {name} in Codex: {stderr}"),
        ),
    }
}

fn success(event: Option<BuiltinEvent>, name: &str, stdout: &str) -> HookOutcome {
    if stdout.is_empty() {
        return HookOutcome::ok();
    }
    if !(stdout.starts_with('{') || stdout.starts_with('[')) {
        let mut outcome = HookOutcome::ok();
        match event {
            Some(
                BuiltinEvent::SessionStart
                | BuiltinEvent::SubagentStart
                | BuiltinEvent::UserPromptSubmit,
            ) => outcome.effects.additional_context.push(stdout.to_owned()),
            Some(BuiltinEvent::Stop | BuiltinEvent::SubagentStop) => {
                return invalid(format!(
                    "{name} hook printed plain text; Codex needs JSON here"
                ));
            }
            _ => {}
        }
        return outcome;
    }
    let map = match serde_json::from_str::<Value>(stdout) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return invalid(format!("{name} hook output is not a JSON object")),
        Err(e) => return invalid(format!("{name} hook output is not valid JSON ({e})")),
    };
    read_object(event, name, &map).unwrap_or_else(invalid)
}

/// The schema of one event's answer: its top-level keys besides the universal ones, and
/// its `hookSpecificOutput` keys (`None`: it takes none).
fn schema(
    event: Option<BuiltinEvent>,
) -> (&'static [&'static str], Option<&'static [&'static str]>) {
    match event {
        Some(BuiltinEvent::PreToolUse) => (
            &["decision", "reason"],
            Some(&[
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ]),
        ),
        Some(BuiltinEvent::PermissionRequest) => (&[], Some(&["decision"])),
        Some(BuiltinEvent::PostToolUse) => (
            &["decision", "reason"],
            Some(&[
                "additionalContext",
                "updatedMCPToolOutput",
                "updatedToolOutput",
            ]),
        ),
        Some(BuiltinEvent::UserPromptSubmit) => {
            (&["decision", "reason"], Some(&["additionalContext"]))
        }
        Some(BuiltinEvent::Stop | BuiltinEvent::SubagentStop) => (&["decision", "reason"], None),
        Some(BuiltinEvent::SessionStart | BuiltinEvent::SubagentStart) => {
            (&[], Some(&["additionalContext"]))
        }
        _ => (&[], None),
    }
}

/// The universal keys every event's answer takes.
const UNIVERSAL: [&str; 4] = ["continue", "stopReason", "systemMessage", "suppressOutput"];

fn get_str<'m>(map: &'m Map<String, Value>, key: &str) -> Result<Option<&'m str>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("`{key}` must be a string, not {other}")),
    }
}

fn get_bool(map: &Map<String, Value>, key: &str) -> Result<Option<bool>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("`{key}` must be a boolean, not {other}")),
    }
}

/// A non-empty reason, trimmed.
fn trimmed(reason: Option<&str>) -> Option<String> {
    reason
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
}

fn read_object(
    event: Option<BuiltinEvent>,
    name: &str,
    map: &Map<String, Value>,
) -> Result<HookOutcome, String> {
    let (top, specific) = schema(event);
    for key in map.keys() {
        let known = UNIVERSAL.contains(&key.as_str())
            || top.contains(&key.as_str())
            || (key == "hookSpecificOutput" && specific.is_some());
        if !known {
            return Err(format!("{name} hook output has an unknown field `{key}`"));
        }
    }
    let continue_ = get_bool(map, "continue")?.unwrap_or(true);
    let stop_reason = get_str(map, "stopReason")?;
    let suppress = get_bool(map, "suppressOutput")?.unwrap_or(false);
    let decision = get_str(map, "decision")?;
    let reason = get_str(map, "reason")?;
    let hso = match map.get("hookSpecificOutput") {
        None => None,
        Some(Value::Object(inner)) => {
            let allowed = specific.unwrap_or_default();
            for key in inner.keys() {
                if key != "hookEventName" && !allowed.contains(&key.as_str()) {
                    return Err(format!(
                        "{name} hook output has an unknown field `hookSpecificOutput.{key}`"
                    ));
                }
            }
            if !matches!(inner.get("hookEventName"), Some(Value::String(_))) {
                return Err(format!(
                    "{name} hook output lacks `hookSpecificOutput.hookEventName`"
                ));
            }
            Some(inner)
        }
        Some(other) => {
            return Err(format!(
                "`hookSpecificOutput` must be an object, not {other}"
            ));
        }
    };
    let mut out = HookOutcome::ok();
    out.effects.system_message = get_str(map, "systemMessage")?.map(str::to_owned);
    out.effects.suppress_output = suppress;
    if let Some(inner) = hso
        && let Some(context) = get_str(inner, "additionalContext")?
    {
        out.effects.additional_context.push(context.to_owned());
    }
    let unsupported = |what: &str| Err(format!("{name} hook returned unsupported {what}"));
    match event {
        Some(BuiltinEvent::PreToolUse) | Some(BuiltinEvent::PermissionRequest) => {
            if !continue_ {
                return unsupported("continue:false");
            }
            if stop_reason.is_some() {
                return unsupported("stopReason");
            }
            if suppress {
                return unsupported("suppressOutput");
            }
        }
        _ => {
            out.effects.continue_ = continue_;
            out.effects.stop_reason = stop_reason.map(str::to_owned);
        }
    }
    match event {
        Some(BuiltinEvent::PreToolUse) => pre_tool_use(name, decision, reason, hso, &mut out)?,
        Some(BuiltinEvent::PermissionRequest) => {
            if let Some(inner) = hso
                && let Some(value) = inner.get("decision")
            {
                permission_request(name, value, &mut out)?;
            }
        }
        Some(BuiltinEvent::PostToolUse) => {
            if suppress {
                return unsupported("suppressOutput");
            }
            match decision {
                Some("block") => {
                    let why = trimmed(reason).ok_or_else(|| block_without_reason(name))?;
                    out.effects.updated_tool_output = Some(Value::String(why.clone()));
                    out.effects.reason = Some(why);
                }
                Some(other) => return Err(unknown_decision(name, other)),
                None if reason.is_some() && continue_ => {
                    return Err(format!("{name} hook returned reason without decision"));
                }
                None => {}
            }
            if let Some(inner) = hso {
                out.effects.updated_tool_output = inner
                    .get("updatedToolOutput")
                    .cloned()
                    .or(out.effects.updated_tool_output.take());
                out.effects.updated_mcp_tool_output = inner.get("updatedMCPToolOutput").cloned();
            }
        }
        Some(BuiltinEvent::UserPromptSubmit | BuiltinEvent::Stop | BuiltinEvent::SubagentStop) => {
            match decision {
                Some("block") => {
                    let why = trimmed(reason).ok_or_else(|| block_without_reason(name))?;
                    out.effects.decision = Decision::Block;
                    out.effects.reason = Some(why);
                    out.run.status = HookStatus::Blocked;
                }
                Some(other) => return Err(unknown_decision(name, other)),
                None => {}
            }
        }
        _ => {}
    }
    Ok(out)
}

fn block_without_reason(name: &str) -> String {
    format!("{name} hook returned decision:block without a non-empty reason")
}

fn unknown_decision(name: &str, word: &str) -> String {
    format!("{name} hook returned an unknown decision `{word}`")
}

fn pre_tool_use(
    name: &str,
    decision: Option<&str>,
    reason: Option<&str>,
    hso: Option<&Map<String, Value>>,
    out: &mut HookOutcome,
) -> Result<(), String> {
    let specific = hso.filter(|inner| {
        [
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
        ]
        .iter()
        .any(|k| inner.contains_key(*k))
    });
    let Some(inner) = specific else {
        // The legacy top-level decision.
        return match decision {
            Some("approve") => Err(format!("{name} hook returned unsupported decision:approve")),
            Some("block") => {
                let why = trimmed(reason).ok_or_else(|| block_without_reason(name))?;
                out.effects.decision = Decision::Block;
                out.effects.reason = Some(why);
                out.run.status = HookStatus::Blocked;
                Ok(())
            }
            Some(other) => Err(unknown_decision(name, other)),
            None if reason.is_some() => {
                Err(format!("{name} hook returned reason without decision"))
            }
            None => Ok(()),
        };
    };
    let permission = get_str(inner, "permissionDecision")?;
    let why = get_str(inner, "permissionDecisionReason")?;
    let updated = inner.get("updatedInput");
    if updated.is_some() && permission != Some("allow") {
        return Err(format!(
            "{name} hook returned updatedInput without permissionDecision:allow"
        ));
    }
    match permission {
        Some("allow") => match updated {
            Some(input) => out.effects.updated_input = Some(input.clone()),
            None => {
                return Err(format!(
                    "{name} hook returned unsupported permissionDecision:allow"
                ));
            }
        },
        Some("ask") => {
            return Err(format!(
                "{name} hook returned unsupported permissionDecision:ask"
            ));
        }
        Some("deny") => {
            let why = trimmed(why).ok_or_else(|| {
                format!(
                    "{name} hook returned permissionDecision:deny without a non-empty permissionDecisionReason"
                )
            })?;
            out.effects.decision = Decision::Deny;
            out.effects.reason = Some(why);
            out.run.status = HookStatus::Blocked;
        }
        Some(other) => {
            return Err(format!(
                "{name} hook returned an unknown permissionDecision `{other}`"
            ));
        }
        None if why.is_some() => {
            return Err(format!(
                "{name} hook returned permissionDecisionReason without permissionDecision"
            ));
        }
        None => {}
    }
    Ok(())
}

fn permission_request(name: &str, value: &Value, out: &mut HookOutcome) -> Result<(), String> {
    let Value::Object(decision) = value else {
        return Err(format!(
            "`hookSpecificOutput.decision` must be an object, not {value}"
        ));
    };
    for key in decision.keys() {
        match key.as_str() {
            "behavior" | "message" => {}
            "updatedInput" | "updatedPermissions" => {
                return Err(format!("{name} hook returned unsupported {key}"));
            }
            "interrupt" => {
                if get_bool(decision, "interrupt")? == Some(true) {
                    return Err(format!("{name} hook returned unsupported interrupt:true"));
                }
            }
            _ => {
                return Err(format!(
                    "{name} hook output has an unknown field `hookSpecificOutput.decision.{key}`"
                ));
            }
        }
    }
    match get_str(decision, "behavior")? {
        Some("allow") => {
            out.effects.decision = Decision::Allow;
        }
        Some("deny") => {
            out.effects.decision = Decision::Deny;
            out.effects.reason = Some(
                trimmed(get_str(decision, "message")?)
                    .unwrap_or_else(|| DEFAULT_DENY_MESSAGE.to_owned()),
            );
            out.run.status = HookStatus::Blocked;
        }
        Some(other) => {
            return Err(format!(
                "{name} hook returned an unknown behavior `{other}`"
            ));
        }
        None => {
            return Err(format!(
                "{name} hook output lacks `hookSpecificOutput.decision.behavior`"
            ));
        }
    }
    Ok(())
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
        let got = serde_json::to_value(&outcome).unwrap();
        for (k, v) in expect.as_object().unwrap() {
            assert_eq!(&got[k], v, "{k} of {got}");
        }
    }

    #[test]
    fn pre_tool_use_answers() {
        let pre = BuiltinEvent::PreToolUse;
        let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
        check(
            pre,
            0,
            deny,
            "",
            json!({"decision": "deny", "reason": "no", "status": "blocked"}),
        );
        check(
            pre,
            0,
            r#"{"decision":"block","reason":"r"}"#,
            "",
            json!({"decision": "block"}),
        );
        check(
            pre,
            0,
            r#"{"decision":"deny","reason":"r"}"#,
            "",
            json!({"status": "failed"}),
        );
        check(
            pre,
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
            "",
            json!({"status": "failed"}),
        );
        check(
            pre,
            0,
            r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
            "",
            json!({"status": "failed"}),
        );
        check(
            pre,
            0,
            r#"{"continue":false}"#,
            "",
            json!({"status": "failed"}),
        );
        check(
            pre,
            0,
            r#"{"terminalSequence":"x"}"#,
            "",
            json!({"status": "failed"}),
        );
        check(
            pre,
            0,
            "plain",
            "",
            json!({"status": "ok", "messages": [], "additional_context": []}),
        );
        check(
            pre,
            2,
            "",
            "why",
            json!({"decision": "block", "reason": "why"}),
        );
        check(pre, 2, "", "", json!({"status": "failed"}));
        check(
            pre,
            1,
            r#"{"decision":"block","reason":"r"}"#,
            "",
            json!({"decision": "none", "status": "failed"}),
        );
    }

    #[test]
    fn other_events() {
        check(
            BuiltinEvent::Stop,
            0,
            "text",
            "",
            json!({"status": "failed"}),
        );
        check(
            BuiltinEvent::SessionStart,
            0,
            "text",
            "",
            json!({"additional_context": ["text"]}),
        );
        check(
            BuiltinEvent::PreCompact,
            0,
            r#"{"decision":"block","reason":"r"}"#,
            "",
            json!({"status": "failed"}),
        );
        check(
            BuiltinEvent::PermissionRequest,
            0,
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#,
            "",
            json!({"decision": "deny", "reason": DEFAULT_DENY_MESSAGE}),
        );
        check(
            BuiltinEvent::PostToolUse,
            0,
            r#"{"decision":"block","reason":"hidden"}"#,
            "",
            json!({"updated_tool_output": "hidden", "decision": "none"}),
        );
    }
}
