//! Tests for the tolerant hook output parser: every dialect's output forms, exit codes,
//! malformed output, snapshots of whole outcomes and a never-panics property.

use hooks_core::BuiltinEvent::{
    EdgeSelected, Notification, PermissionDenied, PermissionRequest, PostToolUse, PreToolUse,
    SessionStart, StageStart, Stop, UserPromptSubmit,
};
use hooks_core::{
    BuiltinEvent, Decision, Dialect, Event, FailureKind, HookOutcome, HookStatus, parse_output,
    parse_output_in,
};
use proptest::prelude::*;
use serde_json::Value;

/// Parses and renders the outcome as compact JSON without its default-valued fields
/// (`status` is always shown; `exit_code` is shown only when it differs from `exit`, which
/// it never should). Checks the status invariants on the way.
#[track_caller]
fn check(
    event: BuiltinEvent,
    exit: Option<i32>,
    stdout: impl AsRef<[u8]>,
    stderr: impl AsRef<[u8]>,
    expect: &str,
) {
    let event = Event::from(event);
    let outcome = parse_output(&event, exit, stdout.as_ref(), stderr.as_ref());
    assert_consistent(&event, exit, &outcome);
    assert_eq!(render(&outcome, exit), expect);
}

fn render(outcome: &HookOutcome, exit: Option<i32>) -> String {
    let defaults = serde_json::to_value(HookOutcome::default()).unwrap();
    let mut value = serde_json::to_value(outcome).unwrap();
    let map = value.as_object_mut().unwrap();
    map.retain(|k, v| k == "status" || defaults.get(k) != Some(v));
    if outcome.run.exit_code == exit {
        map.shift_remove("exit_code");
    }
    value.to_string()
}

/// What must hold of any parsed outcome, whatever the input.
#[track_caller]
fn assert_consistent(event: &Event, exit: Option<i32>, outcome: &HookOutcome) {
    assert_eq!(
        outcome.run.exit_code, exit,
        "exit_code must always be recorded"
    );
    assert_eq!(
        outcome.run.status == HookStatus::Failed,
        outcome.run.failure.is_some(),
        "failed iff a failure is set: {outcome:?}"
    );
    match outcome.run.status {
        HookStatus::Failed => assert_eq!(outcome.effects.decision, Decision::None),
        HookStatus::Ok | HookStatus::Blocked => assert_eq!(
            outcome.run.status == HookStatus::Blocked,
            outcome.effects.decision.is_blocking(),
            "blocked iff deny or block: {outcome:?}"
        ),
        other => panic!("the parser never yields {other}"),
    }
    let kind = outcome.run.failure.as_ref().map(|f| f.kind);
    match exit {
        None => assert_eq!(kind, Some(FailureKind::Crash)),
        Some(0) => assert!(kind.is_none() || kind == Some(FailureKind::MalformedOutput)),
        Some(2) if event.can_block() => {
            assert_eq!(outcome.run.status, HookStatus::Blocked);
            assert_eq!(outcome.effects.decision, Decision::Block);
            assert!(outcome.effects.reason.is_some());
        }
        Some(2) => {
            assert_eq!(outcome.run.status, HookStatus::Ok);
            assert_eq!(outcome.effects.decision, Decision::None);
        }
        Some(_) => assert_eq!(kind, Some(FailureKind::NonZeroExit)),
    }
}

fn parse(event: BuiltinEvent, exit: Option<i32>, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    parse_output(&Event::from(event), exit, stdout, stderr)
}

// ---------------------------------------------------------------------------------------
// Empty output and plain text.

#[test]
fn empty_stdout_is_ok_without_decision() {
    check(PreToolUse, Some(0), "", "", r#"{"status":"ok"}"#);
}

#[test]
fn blank_stdout_is_ok_without_decision() {
    check(PreToolUse, Some(0), " \n\t\r\n ", "", r#"{"status":"ok"}"#);
}

#[test]
fn stderr_is_not_read_on_exit_0() {
    check(
        Stop,
        Some(0),
        "",
        "warning: slow disk",
        r#"{"status":"ok"}"#,
    );
}

#[test]
fn plain_text_on_context_event_becomes_context() {
    check(
        UserPromptSubmit,
        Some(0),
        "  remember: tests first \n",
        "",
        r#"{"status":"ok","additional_context":["remember: tests first"]}"#,
    );
}

#[test]
fn plain_text_on_session_start_becomes_context() {
    check(
        SessionStart,
        Some(0),
        "branch: main\nopen issues: 3\n",
        "",
        r#"{"status":"ok","additional_context":["branch: main\nopen issues: 3"]}"#,
    );
}

#[test]
fn plain_text_on_non_context_event_becomes_message() {
    check(
        Notification,
        Some(0),
        "all good\n",
        "",
        r#"{"status":"ok","messages":["all good"]}"#,
    );
}

#[test]
fn bracketed_text_is_plain_text() {
    check(
        Notification,
        Some(0),
        "[INFO] notified",
        "",
        r#"{"status":"ok","messages":["[INFO] notified"]}"#,
    );
}

#[test]
fn json_scalar_is_plain_text() {
    check(
        Notification,
        Some(0),
        r#""done""#,
        "",
        r#"{"status":"ok","messages":["\"done\""]}"#,
    );
}

#[test]
fn text_before_json_makes_it_plain_text() {
    check(
        Notification,
        Some(0),
        "checking...\n{\"decision\":\"block\"}",
        "",
        r#"{"status":"ok","messages":["checking...\n{\"decision\":\"block\"}"]}"#,
    );
}

#[test]
fn byte_order_mark_is_skipped() {
    check(
        PreToolUse,
        Some(0),
        "\u{feff}{\"decision\":\"deny\"}",
        "",
        r#"{"status":"blocked","decision":"deny"}"#,
    );
}

#[test]
fn leading_whitespace_before_json_is_skipped() {
    check(
        Stop,
        Some(0),
        "\n\n  {\"decision\":\"block\"}\n",
        "",
        r#"{"status":"blocked","decision":"block"}"#,
    );
}

#[test]
fn empty_object_is_ok_without_decision() {
    check(PreToolUse, Some(0), "{}", "", r#"{"status":"ok"}"#);
}

// ---------------------------------------------------------------------------------------
// Claude Code (and Codex).

#[test]
fn claude_pre_tool_use_allow() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"read-only command"}}"#,
        "",
        r#"{"status":"ok","decision":"allow","reason":"read-only command"}"#,
    );
}

#[test]
fn claude_pre_tool_use_deny() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed"}}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"rm -rf is not allowed"}"#,
    );
}

#[test]
fn claude_pre_tool_use_ask() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"touches prod"}}"#,
        "",
        r#"{"status":"ok","decision":"ask","reason":"touches prod"}"#,
    );
}

#[test]
fn claude_pre_tool_use_defer() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"permissionDecision":"defer"}}"#,
        "",
        r#"{"status":"ok","decision":"defer"}"#,
    );
}

#[test]
fn claude_pre_tool_use_updated_input_and_context() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"},"additionalContext":"rewrote ls"}}"#,
        "",
        r#"{"status":"ok","decision":"allow","updated_input":{"command":"ls -la"},"additional_context":["rewrote ls"]}"#,
    );
}

#[test]
fn claude_permission_request_allow_with_updated_input() {
    check(
        PermissionRequest,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"file_path":"/tmp/x"}}}}"#,
        "",
        r#"{"status":"ok","decision":"allow","updated_input":{"file_path":"/tmp/x"}}"#,
    );
}

#[test]
fn claude_permission_request_deny_with_message() {
    check(
        PermissionRequest,
        Some(0),
        r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"not on Fridays"}}}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"not on Fridays"}"#,
    );
}

#[test]
fn claude_permission_request_interrupt_stops() {
    check(
        PermissionRequest,
        Some(0),
        r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","interrupt":true}}}"#,
        "",
        r#"{"status":"blocked","decision":"deny","continue":false}"#,
    );
}

#[test]
fn claude_permission_request_unknown_keys_reported() {
    check(
        PermissionRequest,
        Some(0),
        r#"{"hookSpecificOutput":{"decision":{"behavior":"allow","mystery":[]}}}"#,
        "",
        r#"{"status":"ok","decision":"allow","unknown_fields":["hookSpecificOutput.decision.mystery"]}"#,
    );
}

#[test]
fn claude_permission_request_bare_decision_word() {
    check(
        PermissionRequest,
        Some(0),
        r#"{"hookSpecificOutput":{"decision":"deny"}}"#,
        "",
        r#"{"status":"blocked","decision":"deny"}"#,
    );
}

#[test]
fn claude_permission_denied_retry() {
    check(
        PermissionDenied,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}"#,
        "",
        r#"{"status":"ok","retry":true}"#,
    );
}

#[test]
fn top_level_retry_false() {
    check(
        PermissionDenied,
        Some(0),
        r#"{"retry":false}"#,
        "",
        r#"{"status":"ok","retry":false}"#,
    );
}

#[test]
fn claude_stop_block() {
    check(
        Stop,
        Some(0),
        r#"{"decision":"block","reason":"tests are failing"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"tests are failing"}"#,
    );
}

#[test]
fn claude_user_prompt_submit_block() {
    check(
        UserPromptSubmit,
        Some(0),
        r#"{"decision":"block","reason":"prompt contains a secret"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"prompt contains a secret"}"#,
    );
}

#[test]
fn claude_user_prompt_submit_additional_context() {
    check(
        UserPromptSubmit,
        Some(0),
        r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"today is Monday"}}"#,
        "",
        r#"{"status":"ok","additional_context":["today is Monday"]}"#,
    );
}

#[test]
fn claude_continue_false_with_stop_reason() {
    check(
        PostToolUse,
        Some(0),
        r#"{"continue":false,"stopReason":"build broke"}"#,
        "",
        r#"{"status":"ok","continue":false,"stop_reason":"build broke"}"#,
    );
}

#[test]
fn claude_continue_true_changes_nothing() {
    check(
        PostToolUse,
        Some(0),
        r#"{"continue":true}"#,
        "",
        r#"{"status":"ok"}"#,
    );
}

#[test]
fn claude_suppress_output() {
    check(
        PostToolUse,
        Some(0),
        r#"{"suppressOutput":true}"#,
        "",
        r#"{"status":"ok","suppress_output":true}"#,
    );
}

#[test]
fn claude_system_message() {
    check(
        Notification,
        Some(0),
        r#"{"systemMessage":"disk almost full"}"#,
        "",
        r#"{"status":"ok","system_message":"disk almost full"}"#,
    );
}

#[test]
fn snake_case_universal_fields() {
    check(
        Stop,
        Some(0),
        r#"{"continue":false,"stop_reason":"done","suppress_output":true,"system_message":"bye"}"#,
        "",
        r#"{"status":"ok","continue":false,"stop_reason":"done","system_message":"bye","suppress_output":true}"#,
    );
}

#[test]
fn second_system_message_is_kept_as_message() {
    check(
        Stop,
        Some(0),
        r#"{"systemMessage":"one","system_message":"two"}"#,
        "",
        r#"{"status":"ok","system_message":"one","messages":["two"]}"#,
    );
}

#[test]
fn claude_old_approve_is_allow() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"approve","reason":"fine"}"#,
        "",
        r#"{"status":"ok","decision":"allow","reason":"fine"}"#,
    );
}

#[test]
fn decision_words_are_case_insensitive_and_trimmed() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":" DENY "}"#,
        "",
        r#"{"status":"blocked","decision":"deny"}"#,
    );
}

#[test]
fn null_decision_is_ignored() {
    check(
        Stop,
        Some(0),
        r#"{"decision":null,"reason":"why not"}"#,
        "",
        r#"{"status":"ok","reason":"why not"}"#,
    );
}

#[test]
fn null_fields_count_as_absent() {
    check(
        PreToolUse,
        Some(0),
        r#"{"continue":null,"systemMessage":null,"hookSpecificOutput":null,"updatedInput":null}"#,
        "",
        r#"{"status":"ok"}"#,
    );
}

#[test]
fn empty_additional_context_is_dropped() {
    check(
        UserPromptSubmit,
        Some(0),
        r#"{"additionalContext":""}"#,
        "",
        r#"{"status":"ok"}"#,
    );
}

// ---------------------------------------------------------------------------------------
// echo-agent.

/// echo-agent's `message` is the reason of the top-level decision it goes with; a `reason`
/// of that decision wins over it, and without a decision it stays a message.
#[test]
fn echo_message_is_the_reason_of_its_decision() {
    for (stdout, expected) in [
        (
            r#"{"decision":"deny","message":"no network in tests"}"#,
            r#"{"status":"blocked","decision":"deny","reason":"no network in tests"}"#,
        ),
        (
            r#"{"message":"no network in tests","decision":"block"}"#,
            r#"{"status":"blocked","decision":"block","reason":"no network in tests"}"#,
        ),
        (
            r#"{"decision":"ask","message":"confirm the push"}"#,
            r#"{"status":"ok","decision":"ask","reason":"confirm the push"}"#,
        ),
        (
            r#"{"decision":"deny","reason":"policy","message":"see the wiki"}"#,
            r#"{"status":"blocked","decision":"deny","reason":"policy","messages":["see the wiki"]}"#,
        ),
        (
            r#"{"message":"checked"}"#,
            r#"{"status":"ok","messages":["checked"]}"#,
        ),
        (
            r#"{"decision":"deny","message":"top","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"inner"}}"#,
            r#"{"status":"blocked","decision":"deny","reason":"inner","messages":["top"]}"#,
        ),
    ] {
        check(PreToolUse, Some(0), stdout, "", expected);
    }
}

#[test]
fn echo_allow_with_modified_input() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"allow","modified_input":{"command":"ls --color=never"}}"#,
        "",
        r#"{"status":"ok","decision":"allow","updated_input":{"command":"ls --color=never"}}"#,
    );
}

#[test]
fn echo_ask() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"ask"}"#,
        "",
        r#"{"status":"ok","decision":"ask"}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Autohand.

#[test]
fn autohand_deny_with_reason() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"deny","reason":"outside the workspace"}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"outside the workspace"}"#,
    );
}

#[test]
fn autohand_updated_input_and_context() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"allow","updatedInput":{"path":"src/lib.rs"},"additionalContext":"normalised the path"}"#,
        "",
        r#"{"status":"ok","decision":"allow","updated_input":{"path":"src/lib.rs"},"additional_context":["normalised the path"]}"#,
    );
}

#[test]
fn autohand_continue_false() {
    check(
        Stop,
        Some(0),
        r#"{"continue":false,"stopReason":"budget exhausted"}"#,
        "",
        r#"{"status":"ok","continue":false,"stop_reason":"budget exhausted"}"#,
    );
}

#[test]
fn autohand_block() {
    check(
        UserPromptSubmit,
        Some(0),
        r#"{"decision":"block","reason":"no"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"no"}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Fabro.

#[test]
fn fabro_proceed_is_no_decision() {
    check(
        StageStart,
        Some(0),
        r#"{"decision":"proceed"}"#,
        "",
        r#"{"status":"ok"}"#,
    );
}

#[test]
fn fabro_skip() {
    check(
        StageStart,
        Some(0),
        r#"{"decision":"skip"}"#,
        "",
        r#"{"status":"ok","skip":true}"#,
    );
}

#[test]
fn fabro_block() {
    check(
        StageStart,
        Some(0),
        r#"{"decision":"block","reason":"sandbox not ready"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"sandbox not ready"}"#,
    );
}

#[test]
fn fabro_override_with_edge_to() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"decision":"override","edge_to":"review"}"#,
        "",
        r#"{"status":"ok","override_edge":"review"}"#,
    );
}

#[test]
fn fabro_override_with_edge_to_before_decision() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"edge_to":"review","decision":"Override"}"#,
        "",
        r#"{"status":"ok","override_edge":"review"}"#,
    );
}

#[test]
fn fabro_override_with_camel_case_edge_to() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"decision":"override","edgeTo":"fix"}"#,
        "",
        r#"{"status":"ok","override_edge":"fix"}"#,
    );
}

#[test]
fn fabro_override_with_edge() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"decision":"override","edge":"fix"}"#,
        "",
        r#"{"status":"ok","override_edge":"fix"}"#,
    );
}

#[test]
fn fabro_override_without_edge_is_malformed() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"decision":"override"}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"decision `override` needs an `edge_to` naming the edge to take"}}"#,
    );
}

#[test]
fn fabro_override_with_empty_edge_is_malformed() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"decision":"override","edge_to":""}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"decision `override` needs an `edge_to` naming the edge to take"}}"#,
    );
}

#[test]
fn fabro_edge_to_without_override_is_reported() {
    check(
        EdgeSelected,
        Some(0),
        r#"{"decision":"proceed","edge_to":"review"}"#,
        "",
        r#"{"status":"ok","unknown_fields":["edge_to"]}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Cursor.

#[test]
fn cursor_permission_deny_with_messages() {
    check(
        PreToolUse,
        Some(0),
        r#"{"permission":"deny","user_message":"blocked by policy","agent_message":"do not touch .env"}"#,
        "",
        r#"{"status":"blocked","decision":"deny","additional_context":["do not touch .env"],"system_message":"blocked by policy"}"#,
    );
}

#[test]
fn cursor_camel_case_messages() {
    check(
        PreToolUse,
        Some(0),
        r#"{"permission":"ask","userMessage":"confirm?","agentMessage":"asked the user"}"#,
        "",
        r#"{"status":"ok","decision":"ask","additional_context":["asked the user"],"system_message":"confirm?"}"#,
    );
}

#[test]
fn cursor_permission_allow() {
    check(
        PreToolUse,
        Some(0),
        r#"{"permission":"allow"}"#,
        "",
        r#"{"status":"ok","decision":"allow"}"#,
    );
}

#[test]
fn cursor_user_message_after_system_message_is_a_message() {
    check(
        PreToolUse,
        Some(0),
        r#"{"user_message":"from cursor","systemMessage":"from claude"}"#,
        "",
        r#"{"status":"ok","system_message":"from claude","messages":["from cursor"]}"#,
    );
}

#[test]
fn cursor_updated_input_and_additional_context() {
    check(
        PreToolUse,
        Some(0),
        r#"{"permission":"allow","updated_input":{"command":"npm ci"},"additional_context":"use ci"}"#,
        "",
        r#"{"status":"ok","decision":"allow","updated_input":{"command":"npm ci"},"additional_context":["use ci"]}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Cline.

#[test]
fn cline_cancel_blocks_a_blocking_event() {
    check(
        PreToolUse,
        Some(0),
        r#"{"cancel":true}"#,
        "",
        r#"{"status":"blocked","decision":"block","continue":false}"#,
    );
}

#[test]
fn cline_cancel_on_non_blocking_event_only_stops() {
    check(
        PostToolUse,
        Some(0),
        r#"{"cancel":true}"#,
        "",
        r#"{"status":"ok","continue":false}"#,
    );
}

#[test]
fn cline_cancel_false_is_nothing() {
    check(
        PreToolUse,
        Some(0),
        r#"{"cancel":false}"#,
        "",
        r#"{"status":"ok"}"#,
    );
}

#[test]
fn cline_should_continue_false_cancels() {
    check(
        PreToolUse,
        Some(0),
        r#"{"shouldContinue":false}"#,
        "",
        r#"{"status":"blocked","decision":"block","continue":false}"#,
    );
}

#[test]
fn cline_should_continue_true_is_nothing() {
    check(
        PreToolUse,
        Some(0),
        r#"{"shouldContinue":true}"#,
        "",
        r#"{"status":"ok"}"#,
    );
}

#[test]
fn cline_context_modification() {
    check(
        UserPromptSubmit,
        Some(0),
        r#"{"cancel":false,"contextModification":"the repo uses pnpm"}"#,
        "",
        r#"{"status":"ok","additional_context":["the repo uses pnpm"]}"#,
    );
}

#[test]
fn cline_error_message_is_the_reason() {
    check(
        PreToolUse,
        Some(0),
        r#"{"cancel":true,"errorMessage":"lint failed"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"lint failed","continue":false}"#,
    );
}

#[test]
fn cline_error_message_with_another_reason_is_a_message() {
    check(
        PreToolUse,
        Some(0),
        r#"{"errorMessage":"lint failed","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"policy"}}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"policy","messages":["lint failed"]}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Gemini CLI.

#[test]
fn gemini_allow() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"allow"}"#,
        "",
        r#"{"status":"ok","decision":"allow"}"#,
    );
}

#[test]
fn gemini_deny_with_reason_and_system_message() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"deny","reason":"secrets in diff","systemMessage":"Blocked a commit"}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"secrets in diff","system_message":"Blocked a commit"}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Several decision sources in one object.

#[test]
fn most_restrictive_decision_wins_with_its_reason() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"allow","reason":"looks fine","hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"writes outside cwd"}}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"writes outside cwd"}"#,
    );
}

#[test]
fn most_restrictive_decision_wins_whatever_the_order() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"unsure"},"decision":"block","reason":"never"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"never"}"#,
    );
}

#[test]
fn defer_beats_ask_across_dialects() {
    check(
        PreToolUse,
        Some(0),
        r#"{"permission":"ask","hookSpecificOutput":{"permissionDecision":"defer"}}"#,
        "",
        r#"{"status":"ok","decision":"defer"}"#,
    );
}

#[test]
fn winner_without_reason_takes_any_reason() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"allow","reason":"fine by me","permission":"deny"}"#,
        "",
        r#"{"status":"blocked","decision":"deny","reason":"fine by me"}"#,
    );
}

#[test]
fn first_updated_input_wins() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"updatedInput":{"a":1}},"updatedInput":{"a":2}}"#,
        "",
        r#"{"status":"ok","updated_input":{"a":1}}"#,
    );
}

// ---------------------------------------------------------------------------------------
// Exit code 2.

#[test]
fn exit_2_blocks_with_stderr_as_reason() {
    check(
        PreToolUse,
        Some(2),
        "",
        "  refusing rm -rf /\n",
        r#"{"status":"blocked","decision":"block","reason":"refusing rm -rf /"}"#,
    );
}

#[test]
fn exit_2_without_stderr_has_a_default_reason() {
    check(
        Stop,
        Some(2),
        "",
        "",
        r#"{"status":"blocked","decision":"block","reason":"hook exited with code 2"}"#,
    );
}

#[test]
fn exit_2_still_reads_stdout_json() {
    check(
        UserPromptSubmit,
        Some(2),
        r#"{"systemMessage":"prompt rejected","continue":false,"hookSpecificOutput":{"additionalContext":"see policy"}}"#,
        "secret in prompt",
        r#"{"status":"blocked","decision":"block","reason":"secret in prompt","continue":false,"additional_context":["see policy"],"system_message":"prompt rejected"}"#,
    );
}

#[test]
fn exit_2_json_allow_cannot_undo_the_block() {
    check(
        PreToolUse,
        Some(2),
        r#"{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"ok"},"decision":"approve"}"#,
        "no",
        r#"{"status":"blocked","decision":"block","reason":"no"}"#,
    );
}

#[test]
fn exit_2_uses_the_json_reason_when_stderr_is_empty() {
    check(
        Stop,
        Some(2),
        r#"{"decision":"block","reason":"keep going"}"#,
        " \n",
        r#"{"status":"blocked","decision":"block","reason":"keep going"}"#,
    );
}

#[test]
fn exit_2_does_not_take_the_reason_of_an_overruled_allow() {
    check(
        PreToolUse,
        Some(2),
        r#"{"decision":"allow","reason":"looks safe"}"#,
        "",
        r#"{"status":"blocked","decision":"block","reason":"hook exited with code 2"}"#,
    );
}

#[test]
fn exit_2_with_malformed_stdout_still_blocks() {
    check(
        PreToolUse,
        Some(2),
        r#"{"decision": "#,
        "blocked",
        r#"{"status":"blocked","decision":"block","reason":"blocked","messages":["stdout ignored after exit code 2: stdout looks like JSON but does not parse (EOF while parsing a value at line 1 column 12); it starts with `{\"decision\":`"]}"#,
    );
}

#[test]
fn exit_2_with_wrongly_typed_stdout_still_blocks() {
    check(
        PreToolUse,
        Some(2),
        r#"{"continue":"no","systemMessage":"dropped"}"#,
        "blocked",
        r#"{"status":"blocked","decision":"block","reason":"blocked","messages":["stdout ignored after exit code 2: field `continue` must be a boolean, got a string"]}"#,
    );
}

#[test]
fn exit_2_ignores_plain_text_stdout() {
    check(
        UserPromptSubmit,
        Some(2),
        "checking...",
        "bad prompt",
        r#"{"status":"blocked","decision":"block","reason":"bad prompt"}"#,
    );
}

#[test]
fn exit_2_on_post_tool_use_passes_stderr_to_the_model() {
    check(
        PostToolUse,
        Some(2),
        r#"{"decision":"block"}"#,
        "lint: 3 errors\n",
        r#"{"status":"ok","additional_context":["lint: 3 errors"]}"#,
    );
}

#[test]
fn exit_2_on_non_context_event_makes_stderr_a_message() {
    check(
        Notification,
        Some(2),
        "",
        "could not notify",
        r#"{"status":"ok","messages":["could not notify"]}"#,
    );
}

#[test]
fn exit_2_on_non_blocking_event_without_stderr_is_nothing() {
    check(PostToolUse, Some(2), "", "", r#"{"status":"ok"}"#);
}

// ---------------------------------------------------------------------------------------
// Other exit codes and signals.

#[test]
fn exit_1_is_a_non_zero_exit_failure() {
    check(
        PreToolUse,
        Some(1),
        "",
        "jq: command not found\n",
        r#"{"status":"failed","failure":{"kind":"non_zero_exit","message":"exited with code 1: jq: command not found"}}"#,
    );
}

#[test]
fn exit_1_without_stderr() {
    check(
        Stop,
        Some(1),
        "",
        "",
        r#"{"status":"failed","failure":{"kind":"non_zero_exit","message":"exited with code 1"}}"#,
    );
}

#[test]
fn exit_1_does_not_read_stdout() {
    check(
        PreToolUse,
        Some(1),
        r#"{"decision":"deny"}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"non_zero_exit","message":"exited with code 1"}}"#,
    );
}

#[test]
fn exit_127_and_negative_codes() {
    check(
        Stop,
        Some(127),
        "",
        "sh: nope: not found",
        r#"{"status":"failed","failure":{"kind":"non_zero_exit","message":"exited with code 127: sh: nope: not found"}}"#,
    );
    check(
        Stop,
        Some(-1),
        "",
        "",
        r#"{"status":"failed","failure":{"kind":"non_zero_exit","message":"exited with code -1"}}"#,
    );
}

#[test]
fn long_stderr_is_capped_at_its_start() {
    let stderr = format!("{}{}", "a".repeat(500), "b".repeat(100));
    let outcome = parse(Stop, Some(1), b"", stderr.as_bytes());
    let message = outcome.run.failure.unwrap().message;
    assert_eq!(message, format!("exited with code 1: {}…", "a".repeat(500)));
}

#[test]
fn signal_is_a_crash() {
    check(
        Stop,
        None,
        r#"{"decision":"block"}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"crash","message":"terminated by a signal"}}"#,
    );
}

#[test]
fn signal_keeps_the_tail_of_stderr() {
    check(
        PreToolUse,
        None,
        "",
        "Segmentation fault\n",
        r#"{"status":"failed","failure":{"kind":"crash","message":"terminated by a signal: Segmentation fault"}}"#,
    );
    let stderr = format!("{}{}", "a".repeat(100), "z".repeat(500));
    let outcome = parse(Stop, None, b"", stderr.as_bytes());
    let message = outcome.run.failure.unwrap().message;
    assert_eq!(
        message,
        format!("terminated by a signal: …{}", "z".repeat(500))
    );
}

#[test]
fn invalid_utf8_in_stderr_is_replaced() {
    check(
        Stop,
        Some(2),
        "",
        b"bad \xff byte",
        "{\"status\":\"blocked\",\"decision\":\"block\",\"reason\":\"bad \u{fffd} byte\"}",
    );
}

// ---------------------------------------------------------------------------------------
// Malformed output.

#[test]
fn malformed_json_is_a_failure() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision": "deny""#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"stdout looks like JSON but does not parse (EOF while parsing an object at line 1 column 19); it starts with `{\"decision\": \"deny\"`"}}"#,
    );
}

#[test]
fn trailing_garbage_after_the_object_is_malformed() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"deny"} {"decision":"allow"}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"stdout looks like JSON but does not parse (trailing characters at line 1 column 21); it starts with `{\"decision\":\"deny\"} {\"decision\":\"allow\"}`"}}"#,
    );
}

#[test]
fn malformed_json_quote_is_capped() {
    let stdout = format!("{{\"reason\": \"{}", "x".repeat(1000));
    let outcome = parse(Stop, Some(0), stdout.as_bytes(), b"");
    let message = outcome.run.failure.unwrap().message;
    let quoted: String = stdout.chars().take(200).collect();
    assert!(
        message.ends_with(&format!("it starts with `{quoted}…`")),
        "{message}"
    );
    assert!(message.len() < 400, "{message}");
}

#[test]
fn json_array_is_a_failure() {
    check(
        PreToolUse,
        Some(0),
        r#"[{"decision":"deny"}]"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"expected a JSON object, got an array"}}"#,
    );
}

#[test]
fn invalid_utf8_json_is_malformed() {
    check(
        PreToolUse,
        Some(0),
        b"{\"reason\":\"caf\xe9\"}",
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"stdout looks like JSON but is not valid UTF-8 (invalid byte at offset 14)"}}"#,
    );
}

#[test]
fn invalid_utf8_json_array_is_malformed() {
    check(
        PreToolUse,
        Some(0),
        b"[\"\xff\"]",
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"stdout looks like JSON but is not valid UTF-8 (invalid byte at offset 2)"}}"#,
    );
}

#[test]
fn invalid_utf8_plain_text_is_converted_lossily() {
    check(
        Notification,
        Some(0),
        b"caf\xe9 ok",
        "",
        "{\"status\":\"ok\",\"messages\":[\"caf\u{fffd} ok\"]}",
    );
}

#[test]
fn unknown_fields_are_reported_in_document_order() {
    check(
        PreToolUse,
        Some(0),
        r#"{"zeta":1,"decision":"allow","alpha":{"x":1},"hookSpecificOutput":{"hookEventName":"PreToolUse","extra":true,"permissionDecision":"allow"},"mid":null}"#,
        "",
        r#"{"status":"ok","decision":"allow","unknown_fields":["zeta","alpha","hookSpecificOutput.extra","mid"]}"#,
    );
}

#[test]
fn wrong_field_type_is_malformed() {
    check(
        Stop,
        Some(0),
        r#"{"continue":"yes"}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"field `continue` must be a boolean, got a string"}}"#,
    );
}

#[test]
fn wrong_nested_field_types_are_malformed() {
    let cases = [
        (
            r#"{"hookSpecificOutput":{"updatedInput":"ls"}}"#,
            "field `hookSpecificOutput.updatedInput` must be an object, got a string",
        ),
        (
            r#"{"hookSpecificOutput":[]}"#,
            "field `hookSpecificOutput` must be an object, got an array",
        ),
        (
            r#"{"hookSpecificOutput":{"permissionDecisionReason":42}}"#,
            "field `hookSpecificOutput.permissionDecisionReason` must be a string, got a number",
        ),
        (
            r#"{"hookSpecificOutput":{"decision":true}}"#,
            "field `hookSpecificOutput.decision` must be an object, got a boolean",
        ),
        (
            r#"{"decision":{"behavior":"allow"}}"#,
            "field `decision` must be a string, got an object",
        ),
        (
            r#"{"cancel":"true"}"#,
            "field `cancel` must be a boolean, got a string",
        ),
        (
            r#"{"modified_input":[1]}"#,
            "field `modified_input` must be an object, got an array",
        ),
        (
            r#"{"additionalContext":["a"]}"#,
            "field `additionalContext` must be a string, got an array",
        ),
        (
            r#"{"retry":1}"#,
            "field `retry` must be a boolean, got a number",
        ),
    ];
    for (stdout, message) in cases {
        let outcome = parse(PreToolUse, Some(0), stdout.as_bytes(), b"");
        assert_eq!(outcome.run.status, HookStatus::Failed, "{stdout}");
        let failure = outcome.run.failure.unwrap();
        assert_eq!(failure.kind, FailureKind::MalformedOutput, "{stdout}");
        assert_eq!(failure.message, message, "{stdout}");
    }
}

#[test]
fn unknown_decision_string_is_malformed() {
    check(
        PreToolUse,
        Some(0),
        r#"{"decision":"maybe"}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"field `decision` has an unknown value \"maybe\"; expected one of: allow, approve, ask, block, defer, deny, override, proceed, skip"}}"#,
    );
}

#[test]
fn unknown_permission_decision_is_malformed() {
    check(
        PreToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"permissionDecision":"proceed"}}"#,
        "",
        r#"{"status":"failed","failure":{"kind":"malformed_output","message":"field `hookSpecificOutput.permissionDecision` has an unknown value \"proceed\"; expected one of: allow, approve, ask, block, defer, deny"}}"#,
    );
}

#[test]
fn deeply_nested_json_is_malformed_not_a_crash() {
    let stdout = "{\"a\":".repeat(100_000);
    let outcome = parse(PreToolUse, Some(0), stdout.as_bytes(), b"");
    let failure = outcome.run.failure.unwrap();
    assert_eq!(failure.kind, FailureKind::MalformedOutput);
    assert!(
        failure.message.contains("recursion limit exceeded"),
        "{}",
        failure.message
    );
}

#[test]
fn deeply_nested_array_is_text_not_a_crash() {
    let stdout = "[".repeat(100_000);
    let outcome = parse(Notification, Some(0), stdout.as_bytes(), b"");
    assert_eq!(outcome.run.status, HookStatus::Ok);
    assert_eq!(outcome.effects.messages, [stdout]);
}

#[test]
fn large_output_is_parsed_in_linear_time() {
    // Quadratic work on 4 MB would take minutes; this must stay well under a second or two.
    let context = "x".repeat(4 << 20);
    let stdout = serde_json::json!({ "additionalContext": context }).to_string();
    let start = std::time::Instant::now();
    let outcome = parse(UserPromptSubmit, Some(0), stdout.as_bytes(), b"");
    assert_eq!(outcome.effects.additional_context, [context]);
    let text = "y ".repeat(2 << 20);
    let outcome = parse(Stop, Some(1), text.as_bytes(), text.as_bytes());
    assert!(outcome.run.failure.is_some());
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

// ---------------------------------------------------------------------------------------
// Snapshots of whole outcomes.

#[test]
fn snapshot_claude_pre_tool_use() {
    let outcome = parse(
        PreToolUse,
        Some(0),
        br#"{
            "continue": true,
            "suppressOutput": true,
            "systemMessage": "rewrote a command",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "safe after rewrite",
                "updatedInput": {"command": "git status --short"},
                "additionalContext": "git status was shortened"
            }
        }"#,
        b"",
    );
    insta::assert_json_snapshot!("claude_pre_tool_use", outcome);
}

#[test]
fn snapshot_exit_2_with_json() {
    let outcome = parse(
        Stop,
        Some(2),
        br#"{"decision":"approve","continue":false,"stopReason":"halt","mystery":1}"#,
        b"tests failing: 3\n",
    );
    insta::assert_json_snapshot!("exit_2_with_json", outcome);
}

#[test]
fn snapshot_every_dialect_at_once() {
    let outcome = parse(
        PreToolUse,
        Some(0),
        br#"{
            "decision": "ask",
            "reason": "top-level",
            "permission": "defer",
            "user_message": "cursor says hi",
            "agent_message": "cursor context",
            "message": "echo message",
            "modified_input": {"cmd": "echo"},
            "contextModification": "cline context",
            "errorMessage": "cline error",
            "retry": true,
            "hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "claude"}
        }"#,
        b"",
    );
    insta::assert_json_snapshot!("every_dialect_at_once", outcome);
}

#[test]
fn snapshot_malformed() {
    let outcome = parse(PreToolUse, Some(0), b"{\"decision\": deny}", b"ignored");
    insta::assert_json_snapshot!("malformed", outcome);
}

// ---------------------------------------------------------------------------------------
// Properties: never panic, always consistent.

/// Keys every dialect knows, and some it does not.
const KEYS: &[&str] = &[
    "continue",
    "stopReason",
    "stop_reason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
    "additionalContext",
    "behavior",
    "message",
    "interrupt",
    "retry",
    "modified_input",
    "permission",
    "user_message",
    "agent_message",
    "updated_input",
    "cancel",
    "shouldContinue",
    "contextModification",
    "errorMessage",
    "edge_to",
    "edge",
    "other",
];

/// The keys of [`KEYS`] the parser knows at the top level, whatever the decision (`edge_to`
/// and `edge` are known only with `decision: "override"`).
const TOP_LEVEL_KEYS: &[&str] = &[
    "continue",
    "stopReason",
    "stop_reason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
    "hookSpecificOutput",
    "updatedInput",
    "additionalContext",
    "message",
    "retry",
    "modified_input",
    "permission",
    "user_message",
    "agent_message",
    "updated_input",
    "cancel",
    "shouldContinue",
    "contextModification",
    "errorMessage",
];

/// Values decision fields know, and some they do not.
const WORDS: &[&str] = &[
    "allow", "deny", "ask", "defer", "block", "approve", "proceed", "skip", "override", "BLOCK",
    "maybe", "", "review",
];

fn events() -> impl Strategy<Value = BuiltinEvent> {
    prop::sample::select(BuiltinEvent::ALL)
}

fn exits() -> impl Strategy<Value = Option<i32>> {
    prop::option::weighted(
        0.9,
        prop_oneof![3 => Just(0), 3 => Just(2), 1 => Just(1), 1 => any::<i32>()],
    )
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..4096)
}

/// Strings from a small JSON alphabet and quoted known keys and words: mostly broken JSON,
/// sometimes valid.
fn jsonish() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        prop::sample::select(vec![
            "{", "}", "[", "]", "\"", ":", ",", "t", "f", "n", "a", "e", "u", "0", "1", " ",
            "true", "false", "null",
        ])
        .prop_map(str::to_owned),
        prop::sample::select(KEYS).prop_map(|k| format!("\"{k}\"")),
        prop::sample::select(WORDS).prop_map(|w| format!("\"{w}\"")),
    ];
    (any::<bool>(), prop::collection::vec(token, 0..64))
        .prop_map(|(brace, tokens)| format!("{}{}", if brace { "{" } else { "" }, tokens.concat()))
}

/// Valid JSON values built from the known keys and words.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        prop::sample::select(WORDS).prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kvs| {
                Value::Object(kvs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

fn json_object() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(KEYS), json_value()), 0..8).prop_map(|kvs| {
        Value::Object(kvs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()).to_string()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(
        event in events(),
        exit in exits(),
        stdout in bytes(),
        stderr in bytes(),
    ) {
        let event = Event::from(event);
        let outcome = parse_output(&event, exit, &stdout, &stderr);
        assert_consistent(&event, exit, &outcome);
    }

    #[test]
    fn jsonish_text_never_panics(
        event in events(),
        exit in exits(),
        stdout in jsonish(),
        stderr in jsonish(),
    ) {
        let event = Event::from(event);
        let outcome = parse_output(&event, exit, stdout.as_bytes(), stderr.as_bytes());
        assert_consistent(&event, exit, &outcome);
    }

    #[test]
    fn json_objects_of_known_keys_never_panic(
        event in events(),
        exit in exits(),
        stdout in json_object(),
    ) {
        let event = Event::from(event);
        let outcome = parse_output(&event, exit, stdout.as_bytes(), b"");
        assert_consistent(&event, exit, &outcome);
        if exit == Some(0) {
            // A valid object is either understood or rejected as malformed, nothing else;
            // and an understood one never reports a known key as unknown.
            if outcome.run.failure.is_none() {
                for field in &outcome.unknown_fields {
                    prop_assert!(
                        !TOP_LEVEL_KEYS.contains(&field.as_str()),
                        "{field} reported unknown in {stdout}"
                    );
                }
            }
        }
    }

    #[test]
    fn exit_2_always_blocks_a_blocking_event(
        stdout in prop_oneof![json_object(), jsonish()],
        stderr in jsonish(),
    ) {
        let outcome = parse(PreToolUse, Some(2), stdout.as_bytes(), stderr.as_bytes());
        prop_assert_eq!(outcome.run.status, HookStatus::Blocked);
        prop_assert_eq!(outcome.effects.decision, Decision::Block);
        prop_assert!(outcome.run.failure.is_none());
        let stderr = stderr.trim();
        if !stderr.is_empty() {
            prop_assert_eq!(outcome.effects.reason.as_deref(), Some(stderr));
        }
    }
}

#[test]
fn fabro_hooks_answer_as_fabros_executor_reads_them() {
    // (event, exit, stdout, stderr, what a Fabro hook's answer is, what a native one's is)
    let cases: [(BuiltinEvent, i32, &str, &str, &str, &str); 9] = [
        (
            StageStart,
            2,
            r#"{"decision":"skip","reason":"r"}"#,
            "",
            "skip r",
            "block r",
        ),
        (
            StageStart,
            2,
            r#"{"decision":"proceed"}"#,
            "",
            "none",
            "block hook exited with code 2",
        ),
        (
            StageStart,
            2,
            r#"{"decision":"block","reason":"r"}"#,
            "e",
            "block r",
            "block e",
        ),
        (StageStart, 2, r#"{"reason":"r"}"#, "", "block r", "block r"),
        (StageStart, 2, "{oops", "e", "block e", "block e"),
        (StageStart, 0, "{oops", "", "none", "failed"),
        (StageStart, 0, "[1]", "", "none", "failed"),
        (
            EdgeSelected,
            0,
            r#"{"decision":"override"}"#,
            "",
            "none",
            "failed",
        ),
        (BuiltinEvent::StageComplete, 2, "", "e", "block e", "none"),
    ];
    let word = |o: &HookOutcome| {
        if o.run.status == HookStatus::Failed {
            return "failed".to_owned();
        }
        let d = if o.effects.skip && !o.effects.decision.is_blocking() {
            "skip".to_owned()
        } else {
            o.effects.decision.to_string()
        };
        match (
            &o.effects.reason,
            o.effects.decision.is_blocking() || o.effects.skip,
        ) {
            (Some(r), true) => format!("{d} {r}"),
            _ => d,
        }
    };
    for (event, exit, stdout, stderr, fabro, native) in cases {
        let event = Event::from(event);
        let args = (&event, Some(exit), stdout.as_bytes(), stderr.as_bytes());
        let f = parse_output_in(Dialect::Fabro, args.0, args.1, args.2, args.3);
        let n = parse_output_in(Dialect::Native, args.0, args.1, args.2, args.3);
        assert_eq!(f.run.exit_code, Some(exit));
        assert_eq!(word(&f), fabro, "fabro: {exit} {stdout}: {f:?}");
        assert_eq!(word(&n), native, "native: {exit} {stdout}: {n:?}");
        assert_eq!(n, parse_output(args.0, args.1, args.2, args.3));
    }
}

/// Autohand reads only JSON from a hook's stdout: its plain text is a message, never
/// context; every other dialect makes it context where the event takes context. JSON and
/// exit codes read the same in every dialect.
#[test]
fn plain_stdout_is_context_except_for_autohand() {
    let plain = b"the tests live in tests/".as_slice();
    let json = br#"{"additionalContext": "the tests live in tests/"}"#.as_slice();
    // (dialect, event, stdout, additional_context, messages)
    type Case<'a> = (
        Dialect,
        BuiltinEvent,
        &'a [u8],
        &'a [&'a str],
        &'a [&'a str],
    );
    let cases: &[Case<'_>] = &[
        (
            Dialect::Autohand,
            UserPromptSubmit,
            plain,
            &[],
            &["the tests live in tests/"],
        ),
        (
            Dialect::Autohand,
            SessionStart,
            plain,
            &[],
            &["the tests live in tests/"],
        ),
        (
            Dialect::Autohand,
            Stop,
            plain,
            &[],
            &["the tests live in tests/"],
        ),
        (
            Dialect::Autohand,
            UserPromptSubmit,
            json,
            &["the tests live in tests/"],
            &[],
        ),
        (
            Dialect::Native,
            UserPromptSubmit,
            plain,
            &["the tests live in tests/"],
            &[],
        ),
        (
            Dialect::Claude,
            SessionStart,
            plain,
            &["the tests live in tests/"],
            &[],
        ),
        (
            Dialect::Echo,
            UserPromptSubmit,
            plain,
            &["the tests live in tests/"],
            &[],
        ),
        (
            Dialect::Fabro,
            Notification,
            plain,
            &[],
            &["the tests live in tests/"],
        ),
    ];
    for (dialect, event, stdout, context, messages) in cases {
        let event = Event::from(*event);
        let outcome = parse_output_in(*dialect, &event, Some(0), stdout, b"");
        assert_eq!(
            outcome.effects.additional_context, *context,
            "{dialect:?} {event:?}"
        );
        assert_eq!(outcome.effects.messages, *messages, "{dialect:?} {event:?}");
        if *dialect != Dialect::Autohand {
            assert_eq!(outcome, parse_output(&event, Some(0), stdout, b""));
        }
    }
}

/// A native hook may ask Gemini CLI for a follow-up tool call after a tool
/// (`tailToolCallRequest`, carried as `tail_tool_call`); one without a tool name is a
/// malformed answer.
#[test]
fn a_tail_tool_call_request_is_carried() {
    check(
        PostToolUse,
        Some(0),
        r#"{"hookSpecificOutput":{"tailToolCallRequest":{"name":"read_file","args":{"file_path":"a"}}}}"#,
        "",
        r#"{"status":"ok","tail_tool_call":{"name":"read_file","args":{"file_path":"a"}}}"#,
    );
    let outcome = parse_output(
        &Event::from(PostToolUse),
        Some(0),
        br#"{"hookSpecificOutput":{"tailToolCallRequest":{"args":{}}}}"#,
        b"",
    );
    assert_eq!(outcome.effects.tail_tool_call, None, "{outcome:?}");
    assert!(outcome.run.failure.is_some(), "{outcome:?}");
}
