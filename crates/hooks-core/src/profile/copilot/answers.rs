//! GitHub Copilot CLI's reading of its hooks' answers, as observed with 1.0.102.
//!
//! - Exit 0: stdout's JSON object is the answer; plain text is ignored (a message, never
//!   a decision). Copilot's top-level `permissionDecision` (`allow`, `deny`, `ask`) and
//!   `permissionDecisionReason` decide a tool call; `modifiedArgs` is a rewrite of the
//!   tool's arguments (its reference's name for it); `hookSpecificOutput`, which Copilot
//!   reads for hooks registered under a PascalCase name, is read too (see
//!   `docs/decisions.md`: the reader cannot tell under which spelling a hook was
//!   registered, so it reads both, the stricter decision winning).
//! - Exit 2 on preToolUse and permissionRequest: a deny, whose reason is the JSON's if it
//!   gives one, else "hook exited with code 2" (Copilot does not pass stderr on). On other
//!   events: a warning.
//! - Any other exit, or a crash, on preToolUse: a deny ("hook errored"; Copilot fails
//!   closed there). On other events: a failure that does not block.

use serde_json::{Map, Value};

use crate::event::{BuiltinEvent, Event};
use crate::outcome::{Decision, FailureKind, HookOutcome, HookStatus};
use crate::output::{self, Stdout};

/// Reads a Copilot hook's answer (see the module docs).
pub(crate) fn parse(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    let decides = matches!(
        event.builtin(),
        Some(BuiltinEvent::PreToolUse | BuiltinEvent::PermissionRequest)
    );
    let mut outcome = match exit_code {
        Some(0) => json(event, stdout),
        Some(2) if decides => {
            let mut outcome = match output::read_stdout(stdout) {
                Ok(Stdout::Object(map)) => read(event, map).unwrap_or_default(),
                _ => HookOutcome::ok(),
            };
            if outcome.effects.reason.is_none() {
                outcome.effects.reason = Some(output::EXIT_2_REASON.to_owned());
            }
            deny(outcome)
        }
        Some(2) => {
            let stderr = output::text(stderr);
            let mut outcome = HookOutcome::ok();
            if !stderr.is_empty() {
                outcome.effects.messages.push(stderr);
            }
            outcome
        }
        _ if event.builtin() == Some(BuiltinEvent::PreToolUse) => {
            let failed = output::failed_exit(exit_code, stderr);
            let why = failed
                .run
                .failure
                .as_ref()
                .map_or_else(String::new, |f| format!(": {}", f.message));
            deny(HookOutcome::decided(
                Decision::Block,
                Some(format!("hook errored{why}")),
            ))
        }
        _ => output::failed_exit(exit_code, stderr),
    };
    outcome.run.exit_code = exit_code;
    outcome
}

fn deny(mut outcome: HookOutcome) -> HookOutcome {
    outcome.effects.decision = Decision::Block;
    outcome.run.status = HookStatus::Blocked;
    outcome
}

/// Exit 0: a JSON object is read, plain text is a message, malformed JSON a failure.
fn json(event: &Event, stdout: &[u8]) -> HookOutcome {
    match output::read_stdout(stdout) {
        Ok(Stdout::Empty) => HookOutcome::ok(),
        Ok(Stdout::Text(text)) => output::note(text),
        Ok(Stdout::Object(map)) => read(event, map)
            .unwrap_or_else(|m| HookOutcome::failed(FailureKind::MalformedOutput, m)),
        Err(m) => HookOutcome::failed(FailureKind::MalformedOutput, m),
    }
}

/// Copilot's top-level fields moved where the one reader reads them: `permissionDecision`
/// and its reason into `hookSpecificOutput` (a deny there over what a PascalCase hook
/// wrote beside it), `modifiedArgs` to `updatedInput`.
fn read(event: &Event, mut map: Map<String, Value>) -> Result<HookOutcome, String> {
    let decision = map.remove("permissionDecision").filter(|d| !d.is_null());
    let reason = map.remove("permissionDecisionReason");
    if let Some(args) = map.remove("modifiedArgs") {
        map.entry("updatedInput").or_insert(args);
    }
    if let Some(decision) = decision {
        let specific = map
            .entry("hookSpecificOutput")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(specific) = specific.as_object_mut() else {
            return Err("`hookSpecificOutput` must be an object".to_owned());
        };
        let denies = decision
            .as_str()
            .is_some_and(|d| d.trim().eq_ignore_ascii_case("deny"));
        if denies || !specific.contains_key("permissionDecision") {
            specific.insert("permissionDecision".to_owned(), decision);
            if let Some(reason) = reason {
                specific.insert("permissionDecisionReason".to_owned(), reason);
            }
        }
    }
    output::read_object(event, &map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pre() -> Event {
        BuiltinEvent::PreToolUse.into()
    }

    #[test]
    fn a_top_level_deny_denies_with_its_reason() {
        let out = parse(
            &pre(),
            Some(0),
            br#"{"permissionDecision":"deny","permissionDecisionReason":"no rm"}"#,
            b"",
        );
        assert!(out.effects.decision.is_blocking());
        assert_eq!(out.effects.reason.as_deref(), Some("no rm"));
        let nested = parse(
            &pre(),
            Some(0),
            br#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#,
            b"",
        );
        assert!(nested.effects.decision.is_blocking());
    }

    #[test]
    fn exit_codes_on_pre_tool_use_fail_closed() {
        let two = parse(&pre(), Some(2), b"", b"ignored by Copilot");
        assert!(two.effects.decision.is_blocking());
        assert_eq!(two.effects.reason.as_deref(), Some("hook exited with code 2"));
        let one = parse(&pre(), Some(1), b"", b"boom");
        assert!(one.effects.decision.is_blocking());
        assert!(
            one.effects
                .reason
                .as_deref()
                .is_some_and(|r| r.starts_with("hook errored")),
            "{one:?}"
        );
        let later = parse(&BuiltinEvent::PostToolUse.into(), Some(1), b"", b"boom");
        assert!(!later.effects.decision.is_blocking());
        let text = parse(&pre(), Some(0), b"just text", b"");
        assert!(!text.effects.decision.is_blocking());
    }
}
