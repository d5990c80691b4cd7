//! How Claude Code reads a hook's answer: exit codes, plain stdout, and the fields each
//! event discards, as its hooks reference says. The rules are on
//! [`parse_output_in`](crate::parse_output_in); the JSON schema is the common reader's.
//!
//! The per-event tables are matches on [`BuiltinEvent`], so a misspelt event does not
//! compile; a host's own event is in none of them.

use serde_json::{Map, Value};

use crate::event::{BuiltinEvent, Event, Fields};
use crate::outcome::{Decision, FailureKind, HookOutcome, HookStatus, OutputField};
use crate::output::{EXIT_2_REASON, Stdout, note, read_object, read_output, text, trim_output};

/// Where Claude Code sends the stderr of an exit code 2 on an event that cannot block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit2Stderr {
    /// To the model (PostToolUse: stderr is shown to Claude).
    Model,
    /// To the user only (`<event> hook error: ...`).
    User,
    /// Nowhere: the exit code changes nothing and stderr is discarded.
    Discarded,
    /// To the debug log.
    Log,
}

/// The exit-code table of the reference, for events that cannot block.
fn exit_2_stderr(event: Option<BuiltinEvent>) -> Exit2Stderr {
    use BuiltinEvent as B;
    match event {
        Some(B::PostToolUse | B::PostToolUseFailure) => Exit2Stderr::Model,
        Some(
            B::SessionStart
            | B::Setup
            | B::SubagentStart
            | B::SessionEnd
            | B::CwdChanged
            | B::FileChanged
            | B::PostCompact,
        ) => Exit2Stderr::User,
        Some(B::PermissionRequest) => Exit2Stderr::Discarded,
        _ => Exit2Stderr::Log,
    }
}

/// Whether plain stdout on exit 0 is context for the model on this event.
fn plain_text_is_context(event: Option<BuiltinEvent>) -> bool {
    use BuiltinEvent as B;
    matches!(
        event,
        Some(B::UserPromptSubmit | B::UserPromptExpansion | B::SessionStart)
    )
}

/// The universal fields an event discards.
fn discarded(event: Option<BuiltinEvent>) -> &'static [OutputField] {
    use BuiltinEvent as B;
    const ALL: &[OutputField] = &[
        OutputField::Continue,
        OutputField::StopReason,
        OutputField::SystemMessage,
    ];
    const STOP: &[OutputField] = &[OutputField::Continue, OutputField::StopReason];
    match event {
        Some(
            B::Notification
            | B::MessageDisplay
            | B::ConfigChange
            | B::PreCompact
            | B::PostCompact
            | B::SessionEnd
            | B::InstructionsLoaded
            | B::WorktreeCreate
            | B::WorktreeRemove
            | B::Elicitation
            | B::ElicitationResult
            | B::StopFailure,
        ) => ALL,
        // These keep `systemMessage` (a brief notice; DirectoryAdded's goes to Claude).
        Some(B::CwdChanged | B::FileChanged | B::DirectoryAdded | B::TaskCreated) => STOP,
        _ => &[],
    }
}

/// Reads a Claude Code hook's answer (see [`parse_output_in`](crate::parse_output_in)).
pub(crate) fn parse(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    let builtin = event.builtin();
    let mut outcome = match exit_code {
        Some(0) if builtin == Some(BuiltinEvent::WorktreeCreate) => worktree_path(event, stdout),
        Some(0) => success(event, stdout),
        Some(2) => exit_2(event, stdout, stderr),
        Some(code) => other_exit(event, code, stdout, stderr),
        None => read_output(event, exit_code, stdout, stderr, true),
    };
    if builtin == Some(BuiltinEvent::WorktreeCreate)
        && let Some(code) = exit_code.filter(|c| *c != 0)
    {
        fail_creation(&mut outcome, code, stderr);
    }
    outcome.run.exit_code = exit_code;
    outcome
}

/// Stdout as Claude Code classifies it: a JSON object, else plain text (an array, a
/// quoted string or `{` text that does not parse included).
fn classify(stdout: &[u8]) -> Stdout {
    let decoded = String::from_utf8_lossy(stdout);
    let trimmed = trim_output(&decoded);
    if trimmed.is_empty() {
        return Stdout::Empty;
    }
    if trimmed.starts_with('{')
        && let Ok(Value::Object(map)) = serde_json::from_str::<Value>(trimmed)
    {
        return Stdout::Object(map);
    }
    Stdout::Text(trimmed.to_owned())
}

/// A JSON object read with the common schema, then the event's discards applied.
fn read_json(event: &Event, map: &Map<String, Value>) -> Result<HookOutcome, String> {
    let mut outcome = read_object(event, map)?;
    apply_discards(event, &mut outcome);
    Ok(outcome)
}

/// Exit code 0.
fn success(event: &Event, stdout: &[u8]) -> HookOutcome {
    match classify(stdout) {
        Stdout::Empty => HookOutcome::ok(),
        Stdout::Text(text) => {
            let mut outcome = HookOutcome::ok();
            if plain_text_is_context(event.builtin()) && event.honours(Fields::CONTEXT) {
                outcome.effects.additional_context.push(text);
            } else {
                outcome.effects.messages.push(text);
            }
            outcome
        }
        // A JSON object that fails the schema is a non-blocking error.
        Stdout::Object(map) => read_json(event, &map)
            .unwrap_or_else(|message| HookOutcome::failed(FailureKind::MalformedOutput, message)),
    }
}

/// Stdout's JSON object after an exit code other than 0, if there is one.
fn json_after_exit(event: &Event, stdout: &[u8], code: i32) -> Option<HookOutcome> {
    match classify(stdout) {
        Stdout::Object(map) => Some(read_json(event, &map).unwrap_or_else(|message| {
            note(format!("stdout ignored after exit code {code}: {message}"))
        })),
        Stdout::Empty | Stdout::Text(_) => None,
    }
}

/// Exit code 2.
fn exit_2(event: &Event, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    let mut outcome = json_after_exit(event, stdout, 2).unwrap_or_default();
    // Claude Code still reads the JSON after exit code 2, but not an elicitation's
    // `hookSpecificOutput`: the exit code is the answer.
    if matches!(
        event.builtin(),
        Some(BuiltinEvent::Elicitation | BuiltinEvent::ElicitationResult)
    ) && outcome.effects.elicitation.take().is_some()
    {
        outcome.drop_field(
            OutputField::Elicitation,
            format!(
                "Claude Code ignores `hookSpecificOutput` after exit code 2 on {}",
                event.name()
            ),
        );
    }
    let stderr = text(stderr);
    let route = exit_2_stderr(event.builtin());
    if event.can_block() && route != Exit2Stderr::Discarded {
        let effects = &mut outcome.effects;
        let json_reason = effects.reason.take();
        effects.reason = Some(match json_reason {
            Some(reason) if effects.decision.is_blocking() => reason,
            _ if !stderr.is_empty() => stderr,
            // With nothing on stderr, a JSON reason still explains the block unless it
            // justified an allow, ask or defer that the exit code overrules.
            Some(reason) if effects.decision == Decision::None => reason,
            _ => EXIT_2_REASON.to_owned(),
        });
        effects.decision = Decision::Block;
        outcome.run.status = HookStatus::Blocked;
        return outcome;
    }
    if stderr.is_empty() {
        return outcome;
    }
    let effects = &mut outcome.effects;
    match route {
        Exit2Stderr::Model if event.honours(Fields::CONTEXT) => {
            effects.additional_context.push(stderr);
        }
        Exit2Stderr::User if effects.system_message.is_none() => {
            effects.system_message = Some(stderr);
        }
        Exit2Stderr::Discarded => {}
        Exit2Stderr::Model | Exit2Stderr::User | Exit2Stderr::Log => {
            effects.messages.push(stderr);
        }
    }
    outcome
}

/// Another non-zero exit code: a JSON object on stdout decides, else the hook failed.
fn other_exit(event: &Event, code: i32, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    match classify(stdout) {
        Stdout::Object(map) => match read_json(event, &map) {
            Ok(outcome) => outcome,
            Err(_) => read_output(event, Some(code), stdout, stderr, true),
        },
        Stdout::Empty | Stdout::Text(_) => read_output(event, Some(code), stdout, stderr, true),
    }
}

/// WorktreeCreate, exit code 0: the last non-empty line of stdout (ANSI escapes removed)
/// is the worktree's path. A JSON object is read as JSON (an HTTP hook's
/// `worktreePath`), which a command hook may print too.
fn worktree_path(event: &Event, stdout: &[u8]) -> HookOutcome {
    if let Stdout::Object(map) = classify(stdout) {
        return read_json(event, &map)
            .unwrap_or_else(|message| HookOutcome::failed(FailureKind::MalformedOutput, message));
    }
    let decoded = String::from_utf8_lossy(stdout);
    let mut outcome = HookOutcome::ok();
    outcome.effects.worktree_path = decoded
        .lines()
        .map(|line| strip_ansi(line).trim().to_owned())
        .rfind(|line| !line.is_empty());
    outcome
}

/// WorktreeCreate fails on any non-zero exit code: the creation is blocked.
fn fail_creation(outcome: &mut HookOutcome, code: i32, stderr: &[u8]) {
    let stderr = text(stderr);
    outcome.run.failure = None;
    outcome.run.status = HookStatus::Blocked;
    outcome.effects.decision = Decision::Block;
    outcome.effects.worktree_path = None;
    outcome.effects.reason = Some(if stderr.is_empty() {
        format!("hook exited with code {code}")
    } else {
        stderr
    });
}

/// Drops the fields the event discards, and what a `defer` does not take.
fn apply_discards(event: &Event, outcome: &mut HookOutcome) {
    let name = event.name();
    for &field in discarded(event.builtin()) {
        let effects = &mut outcome.effects;
        let present = match field {
            OutputField::Continue => !std::mem::replace(&mut effects.continue_, true),
            OutputField::StopReason => effects.stop_reason.take().is_some(),
            OutputField::SystemMessage => effects.system_message.take().is_some(),
            _ => false,
        };
        if present {
            outcome.drop_field(field, format!("Claude Code discards it on {name}"));
        }
    }
    if outcome.effects.decision == Decision::Defer {
        if outcome.effects.updated_input.take().is_some() {
            outcome.drop_field(OutputField::UpdatedInput, "`defer` takes no input rewrite");
        }
        if !std::mem::take(&mut outcome.effects.additional_context).is_empty() {
            outcome.drop_field(OutputField::AdditionalContext, "`defer` takes no context");
        }
    }
}

/// `line` without ANSI escape sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' || (c == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            Some(_) | None => {}
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    use super::*;

    #[test]
    fn strip_ansi_removes_csi_and_osc_sequences() {
        assert_eq!(strip_ansi("\u{1b}[1;32m/tmp/wt\u{1b}[0m"), "/tmp/wt");
        assert_eq!(strip_ansi("\u{1b}]0;title\u{7}/a"), "/a");
        assert_eq!(strip_ansi("\u{1b}]0;title\u{1b}\\/b"), "/b");
        assert_eq!(strip_ansi("plain"), "plain");
    }
}
