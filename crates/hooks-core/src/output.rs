//! The tolerant hook output parser: one reader for what every dialect's hooks answer.
//!
//! A hook may speak Claude Code, Codex, Gemini CLI, echo-agent, Fabro, Autohand, Cursor or
//! Cline, whatever dialect its config was written in: [`parse_output`] accepts all of their
//! output forms and turns them into one [`HookOutcome`]. Whether the event honours a field
//! is not decided here but at aggregation, which reports what it ignored.
//!
//! The rules are on [`parse_output`]; [`parse_response_body`] reads HTTP and MCP answers
//! with the same JSON schema.

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::context::json_kind;
use crate::dialect::Dialect;
use crate::event::{Event, Fields};
use crate::outcome::{
    Decision, ElicitationAction, ElicitationAnswer, FailureKind, HookOutcome, HookStatus,
    OutputField,
};

/// How much of malformed output a failure message quotes, in characters.
const QUOTE_CHARS: usize = 200;

/// How much of stderr a failure message carries, in characters.
const STDERR_CHARS: usize = 500;

/// The reason given for an exit code 2 with nothing on stderr.
pub(crate) const EXIT_2_REASON: &str = "hook exited with code 2";

/// The words a top-level `decision` may hold.
const TOP_LEVEL_WORDS: &str = "allow, approve, ask, block, defer, deny, override, proceed, skip";

/// The words an elicitation `action` may hold.
const ELICITATION_WORDS: &str = "accept, decline, cancel";

/// The words a permission field (`permissionDecision`, `behavior`, `permission`) may hold.
const PERMISSION_WORDS: &str = "allow, approve, ask, block, defer, deny";

/// Parses what a command hook printed. Pure function of the event, exit code (`None` =
/// killed by a signal / no code), stdout and stderr.
///
/// The outcome's `exit_code` is always `exit_code`. Every dialect's output form is
/// accepted, whatever the hook's dialect; whether the event honours a field is decided at
/// aggregation, not here. Never panics, whatever the bytes.
///
/// - Exit code 0: stdout is read. Empty: no decision. First non-blank character `{`: a
///   JSON object, else [`FailureKind::MalformedOutput`]. A JSON array: malformed. Anything
///   else is plain text, which becomes `additional_context` on events that honour it and a
///   message elsewhere.
/// - Exit code 2: blocks events that can block, with stderr as the reason (or the JSON
///   `reason`, or a default); JSON on stdout is still read but cannot undo the block, and
///   malformed JSON there only leaves a note in `messages`. On other events stderr is
///   passed on as context (or a message) and stdout is not read.
/// - Any other code: [`FailureKind::NonZeroExit`]; no code at all (killed by a signal):
///   [`FailureKind::Crash`]. Stdout is not read.
///
/// In a JSON object, several decision sources (`decision`,
/// `hookSpecificOutput.permissionDecision`, `hookSpecificOutput.decision.behavior`,
/// Cursor's `permission`, Cline's `cancel`) may disagree: the most restrictive wins, with
/// its own reason if it has one. A known field with the wrong JSON type, an unknown
/// decision word or an `override` without an edge is malformed output; a JSON `null`
/// counts as an absent field; unknown keys are reported in
/// [`HookOutcome::unknown_fields`], never an error.
pub fn parse_output(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    read_output(event, exit_code, stdout, stderr, true)
}

/// Parses what a command hook written in `dialect` printed, as its home system reads it.
/// Native and echo-agent hooks: [`parse_output`].
///
/// Claude Code, as its hooks reference says:
/// - Stdout that is not a JSON object (an array, a quoted string, text starting with `{`
///   that does not parse) is plain text, never a failure. Plain text on exit 0 is context
///   for the model only on UserPromptSubmit, UserPromptExpansion and SessionStart;
///   elsewhere it is a message (logged).
/// - Exit code 2 blocks events that can block, whatever the JSON says; the reason is the
///   JSON's `reason` when its JSON makes a blocking decision, else stderr. On events that
///   cannot block the JSON is still read and stderr goes where Claude Code sends it: to
///   the model (PostToolUse, PostToolUseFailure), to the user as the system message
///   (SessionStart, Setup, SubagentStart, SessionEnd, CwdChanged, FileChanged,
///   PostCompact), nowhere (PermissionRequest, whose flow exit 2 does not change without
///   a JSON decision) or to the messages (the others).
/// - Any other non-zero exit with a JSON object on stdout: the JSON decides, and the hook
///   is not a failure. WorktreeCreate fails (blocks) on any non-zero exit; its command
///   hooks print the worktree's path as their last line of stdout.
/// - The fields an event discards (`continue`, `stopReason`, `systemMessage` on
///   Notification, ConfigChange, PreCompact, ...) are dropped and listed in
///   [`HookOutcome::dropped`]; a `defer` drops `updatedInput` and `additionalContext`.
///
/// Autohand reads only JSON from a hook's stdout: plain text an Autohand hook prints on
/// exit 0 is a message (shown to the user and logged), never context for the model.
/// Otherwise as [`parse_output`].
///
/// Fabro: stdout is a decision when it is a JSON object with a `decision` field that
/// reads without error (`proceed`, `skip`, `block`, `override` with its `edge_to`, or a
/// permission word).
/// - Exit code 0: a decision is used; anything else proceeds. Plain text is passed on as
///   [`parse_output`] passes it; output that is not a decision (malformed JSON, an
///   array, an `override` without an edge) is a message, never a failure.
/// - Exit code 2, on any event: a decision on stdout is used instead of the block (so
///   `{"decision": "skip"}` skips and `{"decision": "proceed"}` proceeds); otherwise the
///   hook blocks, with stderr (or the JSON `reason`, or a default) as the reason.
/// - Any other code, or none: as [`parse_output`] (a failure, which blocks: Fabro's
///   command hooks fail closed).
pub fn parse_output_in(
    dialect: Dialect,
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    (dialect.profile().read_answer)(event, exit_code, stdout, stderr)
}

/// Completes an answer read by [`parse_output_in`] with what only the event's context
/// knows: a Gemini CLI hook's BeforeTool `tool_input` is merged into the tool's
/// arguments (the hook's keys over the model's), so that `updated_input` is the whole
/// input the tool runs with, as everywhere else. Other dialects' answers are left as they
/// are.
pub fn merge_updated_input(dialect: Dialect, ctx: &crate::EventContext, outcome: &mut HookOutcome) {
    if !dialect.profile().merges_tool_input {
        return;
    }
    if let Some(partial) = &outcome.effects.updated_input {
        outcome.effects.updated_input = merged_input(ctx.tool_input(), partial);
    }
}

/// A rewrite that names only some of a tool's arguments merged into its input (the
/// rewrite's keys over the original's): the whole input the tool runs with. `None` when
/// the rewrite is not an object.
pub(crate) fn merged_input(original: Option<&Value>, partial: &Value) -> Option<Value> {
    let Value::Object(partial) = partial else {
        return None;
    };
    let mut merged = match original {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    for (k, v) in partial {
        merged.insert(k.clone(), v.clone());
    }
    Some(Value::Object(merged))
}

/// The common reading; `plain_text_is_context` says whether plain text on exit 0 may be
/// context (on events that honour it) or is always a message.
pub(crate) fn read_output(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
    plain_text_is_context: bool,
) -> HookOutcome {
    let mut outcome = match exit_code {
        Some(0) => parse_success(event, stdout, plain_text_is_context),
        Some(2) if event.can_block() => parse_block(event, stdout, stderr),
        Some(2) => parse_non_blocking_exit_2(event, stderr),
        Some(_) | None => failed_exit(exit_code, stderr),
    };
    outcome.run.exit_code = exit_code;
    outcome
}

/// A hook that exited with a non-zero `exit_code` ([`FailureKind::NonZeroExit`], with the
/// head of stderr) or was killed by a signal (`None`: [`FailureKind::Crash`], with its
/// tail); stdout is not read.
pub(crate) fn failed_exit(exit_code: Option<i32>, stderr: &[u8]) -> HookOutcome {
    match exit_code {
        Some(code) => HookOutcome::failed(
            FailureKind::NonZeroExit,
            with_detail(
                format!("exited with code {code}"),
                &head(&text(stderr), STDERR_CHARS),
            ),
        ),
        None => HookOutcome::failed(
            FailureKind::Crash,
            with_detail(
                "terminated by a signal".to_owned(),
                &tail(&text(stderr), STDERR_CHARS),
            ),
        ),
    }
}

/// Parses an HTTP hook's 2xx response body or an MCP tool's text result: empty/whitespace
/// => ok with nothing; a JSON object => the same schema as command stdout; anything else
/// (plain text, array, invalid JSON) => failed with [`FailureKind::MalformedOutput`].
pub fn parse_response_body(event: &Event, body: &[u8]) -> HookOutcome {
    let decoded = String::from_utf8_lossy(body);
    let trimmed = trim_output(&decoded);
    if trimmed.is_empty() {
        return HookOutcome::ok();
    }
    let result = if trimmed.starts_with('{') {
        if let Cow::Owned(_) = decoded {
            Err(invalid_utf8("the response body", body))
        } else {
            parse_object("the response body", trimmed).and_then(|map| read_object(event, &map))
        }
    } else {
        Err(match serde_json::from_str::<Value>(trimmed) {
            Ok(value) => format!("expected a JSON object, got {}", json_kind(&value)),
            Err(_) => format!(
                "expected a JSON object, got plain text: `{}`",
                head(trimmed, QUOTE_CHARS)
            ),
        })
    };
    result.unwrap_or_else(|message| HookOutcome::failed(FailureKind::MalformedOutput, message))
}

/// Exit code 0: read stdout. Plain text is context on events that honour it, when
/// `plain_text_is_context`, else a message.
pub(crate) fn parse_success(
    event: &Event,
    stdout: &[u8],
    plain_text_is_context: bool,
) -> HookOutcome {
    let result = match read_stdout(stdout) {
        Ok(Stdout::Empty) => Ok(HookOutcome::ok()),
        Ok(Stdout::Text(text)) => {
            let mut outcome = HookOutcome::ok();
            if plain_text_is_context && event.honours(Fields::CONTEXT) {
                outcome.effects.additional_context.push(text);
            } else {
                outcome.effects.messages.push(text);
            }
            Ok(outcome)
        }
        Ok(Stdout::Object(map)) => read_object(event, &map),
        Err(message) => Err(message),
    };
    result.unwrap_or_else(|message| HookOutcome::failed(FailureKind::MalformedOutput, message))
}

/// Exit code 2 on an event that can block: a block whatever stdout says, though stdout's
/// JSON fields are kept.
pub(crate) fn parse_block(event: &Event, stdout: &[u8], stderr: &[u8]) -> HookOutcome {
    let json = match read_stdout(stdout) {
        Ok(Stdout::Object(map)) => read_object(event, &map),
        // Plain text on stdout means nothing next to exit code 2 (Claude ignores it too).
        Ok(Stdout::Empty | Stdout::Text(_)) => Ok(HookOutcome::ok()),
        Err(message) => Err(message),
    };
    let mut outcome =
        json.unwrap_or_else(|message| note(format!("stdout ignored after exit code 2: {message}")));
    let stderr = text(stderr);
    // With nothing on stderr, a JSON reason explains the block unless it justified an
    // allow, ask or defer that the exit code overrules.
    let json_reason = outcome.effects.reason.take().filter(|_| {
        outcome.effects.decision == Decision::None || outcome.effects.decision.is_blocking()
    });
    outcome.effects.reason = if stderr.is_empty() {
        Some(json_reason.unwrap_or_else(|| EXIT_2_REASON.to_owned()))
    } else {
        Some(stderr)
    };
    outcome.effects.decision = Decision::Block;
    outcome.run.status = HookStatus::Blocked;
    outcome
}

/// Exit code 2 on an event that cannot block: stderr is passed on (Claude shows a
/// PostToolUse exit-2 stderr to the model); stdout is not interpreted.
fn parse_non_blocking_exit_2(event: &Event, stderr: &[u8]) -> HookOutcome {
    let mut outcome = HookOutcome::ok();
    let stderr = text(stderr);
    if !stderr.is_empty() {
        if event.honours(Fields::CONTEXT) {
            outcome.effects.additional_context.push(stderr);
        } else {
            outcome.effects.messages.push(stderr);
        }
    }
    outcome
}

/// A run that answered nothing but `message`.
pub(crate) fn note(message: String) -> HookOutcome {
    let mut outcome = HookOutcome::ok();
    outcome.effects.messages.push(message);
    outcome
}

/// What stdout holds, once classified (by [`read_stdout`] here, by Claude Code's more
/// lenient rule in `claude_output`).
pub(crate) enum Stdout {
    /// Nothing but whitespace.
    Empty,
    /// A JSON object.
    Object(Map<String, Value>),
    /// Plain text, trimmed (invalid UTF-8 replaced).
    Text(String),
}

/// Classifies stdout; `Err` is a malformed-output message.
pub(crate) fn read_stdout(stdout: &[u8]) -> Result<Stdout, String> {
    let decoded = String::from_utf8_lossy(stdout);
    let valid_utf8 = matches!(decoded, Cow::Borrowed(_));
    let trimmed = trim_output(&decoded);
    if trimmed.is_empty() {
        Ok(Stdout::Empty)
    } else if trimmed.starts_with('{') {
        if !valid_utf8 {
            return Err(invalid_utf8("stdout", stdout));
        }
        parse_object("stdout", trimmed).map(Stdout::Object)
    } else if trimmed.starts_with('[') && serde_json::from_str::<IgnoredAny>(trimmed).is_ok() {
        // `[INFO] done` is text; `["a"]` is a JSON array, which is not an answer.
        Err(if valid_utf8 {
            "expected a JSON object, got an array".to_owned()
        } else {
            invalid_utf8("stdout", stdout)
        })
    } else {
        Ok(Stdout::Text(trimmed.to_owned()))
    }
}

/// Parses text starting with `{` as a JSON object.
fn parse_object(what: &str, text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!("expected a JSON object, got {}", json_kind(&other))),
        Err(e) => Err(format!(
            "{what} looks like JSON but does not parse ({e}); it starts with `{}`",
            head(text, QUOTE_CHARS)
        )),
    }
}

/// The message for JSON-looking output that is not UTF-8.
fn invalid_utf8(what: &str, bytes: &[u8]) -> String {
    let offset = std::str::from_utf8(bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    format!("{what} looks like JSON but is not valid UTF-8 (invalid byte at offset {offset})")
}

/// Where a decision (or a reason) came from, so that the reason going with the winning
/// decision can be found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// Top-level `decision` / `reason` (Claude, echo-agent, Fabro, Autohand, Gemini).
    TopLevel,
    /// `hookSpecificOutput.permissionDecision` / `permissionDecisionReason`.
    Permission,
    /// `hookSpecificOutput.decision.behavior` / `.message` (PermissionRequest).
    Behavior,
    /// Cursor's `permission`.
    Cursor,
    /// Cline's `cancel` / `shouldContinue` / `errorMessage`.
    Cline,
}

/// Reads a JSON object in the union of every dialect's schema.
pub(crate) fn read_object(event: &Event, map: &Map<String, Value>) -> Result<HookOutcome, String> {
    let mut reader = Reader {
        event,
        out: HookOutcome::ok(),
        decisions: Vec::new(),
        reasons: Vec::new(),
        override_requested: map
            .get("decision")
            .and_then(Value::as_str)
            .is_some_and(|d| d.trim().eq_ignore_ascii_case("override")),
        edge: None,
        system_messages: Vec::new(),
        user_messages: Vec::new(),
        error_message: None,
        message: None,
        elicitation_action: None,
        elicitation_content: None,
    };
    reader.top_level(map)?;
    reader.finish()
}

/// The state of reading one JSON object.
struct Reader<'e> {
    event: &'e Event,
    out: HookOutcome,
    /// Every decision found, in document order.
    decisions: Vec<(Decision, Source)>,
    /// Every reason found, in document order.
    reasons: Vec<(String, Source)>,
    /// Whether the top-level decision is Fabro's `override`.
    override_requested: bool,
    /// Fabro's `edge_to`, when `override` was asked for.
    edge: Option<String>,
    /// `systemMessage` / `system_message`, in document order.
    system_messages: Vec<String>,
    /// Cursor's `user_message` / `userMessage`, in document order.
    user_messages: Vec<String>,
    /// Cline's `errorMessage`.
    error_message: Option<String>,
    /// The top-level `message` (echo-agent, Autohand): the reason of a top-level decision
    /// that has no `reason`, else a message.
    message: Option<String>,
    /// Claude's elicitation `action`.
    elicitation_action: Option<ElicitationAction>,
    /// Claude's elicitation `content`.
    elicitation_content: Option<Value>,
}

impl Reader<'_> {
    fn top_level(&mut self, map: &Map<String, Value>) -> Result<(), String> {
        for (key, value) in map {
            match key.as_str() {
                // Universal (Claude, Autohand, Codex, Gemini).
                "continue" => {
                    if get_bool("continue", value)? == Some(false) {
                        self.out.effects.continue_ = false;
                    }
                }
                "stopReason" | "stop_reason" => {
                    if let Some(s) = get_str(key, value)? {
                        self.out
                            .effects
                            .stop_reason
                            .get_or_insert_with(|| s.to_owned());
                    }
                }
                "suppressOriginalPrompt" => {
                    if get_bool(key, value)? == Some(true) {
                        self.out.effects.suppress_original_prompt = true;
                    }
                }
                "suppressOutput" | "suppress_output" => {
                    if get_bool(key, value)? == Some(true) {
                        self.out.effects.suppress_output = true;
                    }
                }
                "systemMessage" | "system_message" => {
                    if let Some(s) = get_str(key, value)? {
                        self.system_messages.push(s.to_owned());
                    }
                }
                "decision" => {
                    if let Some(word) = get_str("decision", value)? {
                        self.top_level_decision(word)?;
                    }
                }
                "reason" => {
                    if let Some(s) = get_str("reason", value)? {
                        self.reasons.push((s.to_owned(), Source::TopLevel));
                    }
                }
                "hookSpecificOutput" => {
                    if let Some(inner) = get_object("hookSpecificOutput", value)? {
                        self.hook_specific(inner)?;
                    }
                }
                "retry" => {
                    if let Some(b) = get_bool("retry", value)? {
                        self.out.effects.retry = Some(b);
                    }
                }
                "terminalSequence" => {
                    if let Some(s) = get_str("terminalSequence", value)? {
                        self.terminal_sequence(s);
                    }
                }
                // echo-agent, Autohand, Cursor.
                "modified_input" | "updatedInput" | "updated_input" => {
                    self.updated_input(key, value)?;
                }
                "message" => {
                    if let Some(s) = get_str("message", value)? {
                        self.message = Some(s.to_owned());
                    }
                }
                "additionalContext"
                | "additional_context"
                | "agent_message"
                | "agentMessage"
                | "contextModification" => self.context(key, value)?,
                // Cursor.
                "permission" => {
                    if let Some(word) = get_str("permission", value)? {
                        let decision = permission_word("permission", word)?;
                        self.decisions.push((decision, Source::Cursor));
                    }
                }
                "user_message" | "userMessage" => {
                    if let Some(s) = get_str(key, value)? {
                        self.user_messages.push(s.to_owned());
                    }
                }
                // Cline.
                "cancel" => {
                    if get_bool("cancel", value)? == Some(true) {
                        self.cancel();
                    }
                }
                "shouldContinue" => {
                    if get_bool("shouldContinue", value)? == Some(false) {
                        self.cancel();
                    }
                }
                "errorMessage" => {
                    if let Some(s) = get_str("errorMessage", value)? {
                        self.error_message.get_or_insert_with(|| s.to_owned());
                    }
                }
                // Fabro.
                "edge_to" | "edgeTo" | "edge" if self.override_requested => {
                    if let Some(s) = get_str(key, value)?.filter(|s| !s.is_empty()) {
                        self.edge.get_or_insert_with(|| s.to_owned());
                    }
                }
                _ => self.out.unknown_fields.push(key.clone()),
            }
        }
        Ok(())
    }

    /// `hookSpecificOutput` (Claude, Codex).
    fn hook_specific(&mut self, map: &Map<String, Value>) -> Result<(), String> {
        for (key, value) in map {
            match key.as_str() {
                "hookEventName" => {}
                "permissionDecision" => {
                    const FIELD: &str = "hookSpecificOutput.permissionDecision";
                    if let Some(word) = get_str(FIELD, value)? {
                        let decision = permission_word(FIELD, word)?;
                        self.decisions.push((decision, Source::Permission));
                    }
                }
                "permissionDecisionReason" => {
                    const FIELD: &str = "hookSpecificOutput.permissionDecisionReason";
                    if let Some(s) = get_str(FIELD, value)? {
                        self.reasons.push((s.to_owned(), Source::Permission));
                    }
                }
                "updatedInput" => {
                    self.updated_input("hookSpecificOutput.updatedInput", value)?;
                }
                "additionalContext" => {
                    self.context("hookSpecificOutput.additionalContext", value)?;
                }
                "decision" => self.permission_request(value)?,
                "retry" => {
                    if let Some(b) = get_bool("hookSpecificOutput.retry", value)? {
                        self.out.effects.retry = Some(b);
                    }
                }
                // Claude's per-event fields.
                "updatedToolOutput" => {
                    self.out.effects.updated_tool_output = some_value(value);
                }
                "updatedMCPToolOutput" => {
                    self.out.effects.updated_mcp_tool_output = some_value(value);
                }
                "sessionTitle" => {
                    self.out.effects.session_title =
                        get_str("hookSpecificOutput.sessionTitle", value)?.map(str::to_owned);
                }
                "initialUserMessage" => {
                    self.out.effects.initial_user_message =
                        get_str("hookSpecificOutput.initialUserMessage", value)?.map(str::to_owned);
                }
                "watchPaths" => {
                    self.out.effects.watch_paths =
                        get_strings("hookSpecificOutput.watchPaths", value)?;
                }
                "reloadSkills" => {
                    self.out.effects.reload_skills =
                        get_bool("hookSpecificOutput.reloadSkills", value)? == Some(true);
                }
                "action" => {
                    const FIELD: &str = "hookSpecificOutput.action";
                    if let Some(word) = get_str(FIELD, value)? {
                        self.elicitation_action = Some(
                            ElicitationAction::parse(word.trim())
                                .ok_or_else(|| unknown_value(FIELD, word, ELICITATION_WORDS))?,
                        );
                    }
                }
                "content" => self.elicitation_content = some_value(value),
                "classifierContext" => {
                    self.out.effects.classifier_context =
                        get_str("hookSpecificOutput.classifierContext", value)?.map(str::to_owned);
                }
                "displayContent" => {
                    self.out.effects.display_content =
                        get_str("hookSpecificOutput.displayContent", value)?.map(str::to_owned);
                }
                "worktreePath" => {
                    self.out.effects.worktree_path =
                        get_str("hookSpecificOutput.worktreePath", value)?.map(str::to_owned);
                }
                // Gemini CLI's AfterTool follow-up call, in its tool names: a native hook
                // (a Gemini CLI hook moved into the native format) can ask for it too.
                "tailToolCallRequest" => {
                    const FIELD: &str = "hookSpecificOutput.tailToolCallRequest";
                    match value {
                        Value::Null => {}
                        Value::Object(call) if call.get("name").is_some_and(Value::is_string) => {
                            self.out.effects.tail_tool_call = Some(value.clone());
                        }
                        other => {
                            return Err(format!(
                                "{FIELD} must be an object with a tool `name`, not {}",
                                crate::context::json_kind(other)
                            ));
                        }
                    }
                }
                _ => self
                    .out
                    .unknown_fields
                    .push(format!("hookSpecificOutput.{key}")),
            }
        }
        Ok(())
    }

    /// PermissionRequest's `hookSpecificOutput.decision: {behavior, updatedInput, message,
    /// interrupt}`. A bare decision word is accepted too.
    fn permission_request(&mut self, value: &Value) -> Result<(), String> {
        const FIELD: &str = "hookSpecificOutput.decision";
        let map = match value {
            Value::Null => return Ok(()),
            Value::String(word) => {
                let decision = permission_word(FIELD, word)?;
                self.decisions.push((decision, Source::Behavior));
                return Ok(());
            }
            Value::Object(map) => map,
            other => return Err(wrong_type(FIELD, "an object", other)),
        };
        for (key, value) in map {
            match key.as_str() {
                "behavior" => {
                    const FIELD: &str = "hookSpecificOutput.decision.behavior";
                    if let Some(word) = get_str(FIELD, value)? {
                        let decision = permission_word(FIELD, word)?;
                        self.decisions.push((decision, Source::Behavior));
                    }
                }
                "updatedInput" => {
                    self.updated_input("hookSpecificOutput.decision.updatedInput", value)?;
                }
                "message" => {
                    if let Some(s) = get_str("hookSpecificOutput.decision.message", value)? {
                        self.reasons.push((s.to_owned(), Source::Behavior));
                    }
                }
                "interrupt" => {
                    if get_bool("hookSpecificOutput.decision.interrupt", value)? == Some(true) {
                        self.out.effects.continue_ = false;
                    }
                }
                "updatedPermissions" => match value {
                    Value::Null => {}
                    Value::Array(items) => {
                        self.out
                            .effects
                            .updated_permissions
                            .extend(items.iter().cloned());
                    }
                    other => {
                        return Err(wrong_type(
                            "hookSpecificOutput.decision.updatedPermissions",
                            "an array",
                            other,
                        ));
                    }
                },
                _ => self
                    .out
                    .unknown_fields
                    .push(format!("hookSpecificOutput.decision.{key}")),
            }
        }
        Ok(())
    }

    /// A top-level `decision`: the permission words plus Fabro's.
    fn top_level_decision(&mut self, word: &str) -> Result<(), String> {
        match word.trim().to_ascii_lowercase().as_str() {
            "proceed" => {}
            "skip" => self.out.effects.skip = true,
            // The edge is checked in `finish`.
            "override" => {}
            folded => match permission_decision(folded) {
                Some(decision) => self.decisions.push((decision, Source::TopLevel)),
                None => return Err(unknown_value("decision", word, TOP_LEVEL_WORDS)),
            },
        }
        Ok(())
    }

    /// A rewritten tool input; the first one given wins.
    fn updated_input(&mut self, field: &str, value: &Value) -> Result<(), String> {
        match value {
            Value::Null => {}
            Value::Object(_) => {
                if self.out.effects.updated_input.is_none() {
                    self.out.effects.updated_input = Some(value.clone());
                }
            }
            other => return Err(wrong_type(field, "an object", other)),
        }
        Ok(())
    }

    /// Claude's `terminalSequence`: kept when it is one OSC sequence Claude Code passes on
    /// (OSC 0, 1, 2, 9, 99 or 777, ended by BEL), else dropped and reported.
    fn terminal_sequence(&mut self, s: &str) {
        let osc = s
            .strip_prefix("\u{1b}]")
            .and_then(|rest| rest.strip_suffix('\u{7}'))
            .and_then(|body| body.split(';').next())
            .is_some_and(|code| matches!(code, "0" | "1" | "2" | "9" | "99" | "777"));
        if osc && !s[2..s.len() - 1].contains(['\u{7}', '\u{1b}']) {
            self.out.effects.terminal_sequence = Some(s.to_owned());
        } else {
            self.out.drop_field(
                OutputField::TerminalSequence,
                "not one OSC 0, 1, 2, 9, 99 or 777 sequence ended by BEL",
            );
        }
    }

    /// Text for the model; empty strings are dropped.
    fn context(&mut self, field: &str, value: &Value) -> Result<(), String> {
        if let Some(s) = get_str(field, value)?.filter(|s| !s.is_empty()) {
            self.out.effects.additional_context.push(s.to_owned());
        }
        Ok(())
    }

    /// Cline's `cancel: true` / `shouldContinue: false`.
    fn cancel(&mut self) {
        self.out.effects.continue_ = false;
        if self.event.can_block() {
            self.decisions.push((Decision::Block, Source::Cline));
        }
    }

    /// Settles the decision, the reason and the messages.
    fn finish(mut self) -> Result<HookOutcome, String> {
        if let Some(action) = self.elicitation_action {
            self.out.effects.elicitation = Some(ElicitationAnswer {
                action,
                content: self.elicitation_content.take(),
            });
        } else if self.elicitation_content.is_some() {
            return Err("field `hookSpecificOutput.content` needs an `action`".to_owned());
        }
        if self.override_requested {
            match self.edge.take() {
                Some(edge) => self.out.effects.override_edge = Some(edge),
                None => {
                    return Err(
                        "decision `override` needs an `edge_to` naming the edge to take".to_owned(),
                    );
                }
            }
        }

        let decision = self
            .decisions
            .iter()
            .map(|(d, _)| *d)
            .max()
            .unwrap_or(Decision::None);
        if let Some(message) = self.error_message.take() {
            self.reasons.push((message, Source::Cline));
        }
        let wins = |source: Source| {
            decision != Decision::None
                && self
                    .decisions
                    .iter()
                    .any(|(d, s)| *d == decision && *s == source)
        };
        let matched = self.reasons.iter().position(|(_, source)| wins(*source));
        let chosen = match self.message.take() {
            // `{"decision":"deny","message":"…"}`: the message is the decision's reason.
            Some(message) if matched.is_none() && wins(Source::TopLevel) => {
                self.out.effects.reason = Some(message);
                None
            }
            message => {
                self.out.effects.messages.extend(message);
                matched.or(if self.reasons.is_empty() {
                    None
                } else {
                    Some(0)
                })
            }
        };
        for (i, (reason, source)) in self.reasons.into_iter().enumerate() {
            if Some(i) == chosen {
                self.out.effects.reason = Some(reason);
            } else if source == Source::Cline {
                // Cline's errorMessage is for the user: keep it when it is not the reason.
                self.out.effects.messages.push(reason);
            }
        }

        for message in self.system_messages.into_iter().chain(self.user_messages) {
            if self.out.effects.system_message.is_none() {
                self.out.effects.system_message = Some(message);
            } else {
                self.out.effects.messages.push(message);
            }
        }

        self.out.effects.decision = decision;
        self.out.run.status = if decision.is_blocking() {
            HookStatus::Blocked
        } else {
            HookStatus::Ok
        };
        Ok(self.out)
    }
}

/// A permission word, folded to lower case: `allow` (or Claude's old `approve`), `ask`,
/// `defer`, `deny`, `block`.
fn permission_decision(folded: &str) -> Option<Decision> {
    match folded {
        "allow" | "approve" => Some(Decision::Allow),
        "ask" => Some(Decision::Ask),
        "defer" => Some(Decision::Defer),
        "deny" => Some(Decision::Deny),
        "block" => Some(Decision::Block),
        _ => None,
    }
}

/// A permission word in `field`, or a malformed-output message.
fn permission_word(field: &str, word: &str) -> Result<Decision, String> {
    permission_decision(&word.trim().to_ascii_lowercase())
        .ok_or_else(|| unknown_value(field, word, PERMISSION_WORDS))
}

fn get_str<'v>(field: &str, value: &'v Value) -> Result<Option<&'v str>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(wrong_type(field, "a string", other)),
    }
}

fn get_bool(field: &str, value: &Value) -> Result<Option<bool>, String> {
    match value {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(*b)),
        other => Err(wrong_type(field, "a boolean", other)),
    }
}

/// A JSON value, `None` for `null`.
fn some_value(value: &Value) -> Option<Value> {
    (!value.is_null()).then(|| value.clone())
}

fn get_strings(field: &str, value: &Value) -> Result<Option<Vec<String>>, String> {
    match value {
        Value::Null => Ok(None),
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(wrong_type(&format!("{field}[]"), "a string", other)),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        other => Err(wrong_type(field, "an array of strings", other)),
    }
}

fn get_object<'v>(field: &str, value: &'v Value) -> Result<Option<&'v Map<String, Value>>, String> {
    match value {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        other => Err(wrong_type(field, "an object", other)),
    }
}

fn wrong_type(field: &str, expected: &str, got: &Value) -> String {
    format!("field `{field}` must be {expected}, got {}", json_kind(got))
}

fn unknown_value(field: &str, value: &str, accepted: &str) -> String {
    format!(
        "field `{field}` has an unknown value {:?}; expected one of: {accepted}",
        head(value, QUOTE_CHARS)
    )
}

/// Trims output for classification: a leading byte-order mark, then whitespace.
pub(crate) fn trim_output(s: &str) -> &str {
    s.strip_prefix('\u{feff}').unwrap_or(s).trim()
}

/// A stream as trimmed text, invalid UTF-8 replaced.
pub(crate) fn text(bytes: &[u8]) -> String {
    trim_output(&String::from_utf8_lossy(bytes)).to_owned()
}

/// `message: detail`, or `message` alone when `detail` is empty.
fn with_detail(message: String, detail: &str) -> String {
    if detail.is_empty() {
        message
    } else {
        format!("{message}: {detail}")
    }
}

/// The first `max` characters of `s`, with `…` when cut.
fn head(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &s[..cut])),
        None => Cow::Borrowed(s),
    }
}

/// The last `max` characters of `s`, with `…` when cut.
fn tail(s: &str, max: usize) -> Cow<'_, str> {
    let count = s.chars().count();
    if count <= max {
        return Cow::Borrowed(s);
    }
    let cut = s
        .char_indices()
        .nth(count - max)
        .map_or(s.len(), |(i, _)| i);
    Cow::Owned(format!("…{}", &s[cut..]))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests")]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::event::BuiltinEvent;

    fn body(event: BuiltinEvent, body: &[u8]) -> HookOutcome {
        parse_response_body(&Event::from(event), body)
    }

    #[track_caller]
    fn malformed(event: BuiltinEvent, bytes: &[u8], message: &str) {
        let outcome = body(event, bytes);
        assert_eq!(outcome.run.status, HookStatus::Failed);
        assert_eq!(outcome.effects.decision, Decision::None);
        assert_eq!(outcome.run.exit_code, None);
        let failure = outcome.run.failure.unwrap();
        assert_eq!(failure.kind, FailureKind::MalformedOutput);
        assert_eq!(failure.message, message);
    }

    #[test]
    fn response_body_empty_or_blank_is_ok_with_nothing() {
        for bytes in [&b""[..], b"  \r\n\t", "\u{feff}".as_bytes()] {
            assert_eq!(body(BuiltinEvent::PreToolUse, bytes), HookOutcome::ok());
        }
    }

    #[test]
    fn response_body_object_reads_like_command_stdout() {
        let bodies = [
            json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}),
            json!({"decision": "block", "reason": "tests fail", "systemMessage": "x"}),
            json!({"permission": "ask", "agent_message": "ctx", "mystery": 1}),
            json!({"decision": "override", "edge_to": "review"}),
            json!({"continue": false, "stopReason": "halt", "updatedInput": {"a": 1}}),
        ];
        for value in bodies {
            let bytes = format!("\n  {value}\n");
            for event in [BuiltinEvent::PreToolUse, BuiltinEvent::Stop] {
                let event = Event::from(event);
                let from_body = parse_response_body(&event, bytes.as_bytes());
                let mut from_stdout = parse_output(&event, Some(0), bytes.as_bytes(), b"");
                from_stdout.run.exit_code = None;
                assert_eq!(from_body, from_stdout, "{value}");
            }
        }
        let outcome = body(
            BuiltinEvent::PreToolUse,
            br#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
        );
        assert_eq!(outcome.run.status, HookStatus::Blocked);
        assert_eq!(outcome.effects.decision, Decision::Deny);
        assert_eq!(outcome.effects.reason.as_deref(), Some("no"));
        assert_eq!(outcome.run.exit_code, None);
    }

    #[test]
    fn response_body_plain_text_is_malformed_even_where_stdout_text_is_context() {
        malformed(
            BuiltinEvent::UserPromptSubmit,
            b"  all good\n",
            "expected a JSON object, got plain text: `all good`",
        );
    }

    #[test]
    fn response_body_json_non_objects_are_malformed() {
        let cases: [(&[u8], &str); 5] = [
            (b"[1, 2]", "expected a JSON object, got an array"),
            (br#""allow""#, "expected a JSON object, got a string"),
            (b"42", "expected a JSON object, got a number"),
            (b"true", "expected a JSON object, got a boolean"),
            (b"null", "expected a JSON object, got null"),
        ];
        for (bytes, message) in cases {
            malformed(BuiltinEvent::PreToolUse, bytes, message);
        }
    }

    #[test]
    fn response_body_invalid_json_is_malformed() {
        malformed(
            BuiltinEvent::PreToolUse,
            br#"{"decision": "deny""#,
            "the response body looks like JSON but does not parse (EOF while parsing an \
             object at line 1 column 19); it starts with `{\"decision\": \"deny\"`",
        );
    }

    #[test]
    fn response_body_schema_errors_are_malformed() {
        malformed(
            BuiltinEvent::Stop,
            br#"{"continue": "no"}"#,
            "field `continue` must be a boolean, got a string",
        );
        malformed(
            BuiltinEvent::Stop,
            br#"{"decision": "perhaps"}"#,
            "field `decision` has an unknown value \"perhaps\"; expected one of: allow, \
             approve, ask, block, defer, deny, override, proceed, skip",
        );
    }

    #[test]
    fn response_body_invalid_utf8_is_malformed() {
        malformed(
            BuiltinEvent::Stop,
            b"{\"reason\": \"\xff\"}",
            "the response body looks like JSON but is not valid UTF-8 (invalid byte at offset 12)",
        );
        malformed(
            BuiltinEvent::Stop,
            b"caf\xe9",
            "expected a JSON object, got plain text: `caf\u{fffd}`",
        );
    }

    #[test]
    fn head_and_tail_cut_on_char_boundaries() {
        assert_eq!(head("héllo", 2), "hé…");
        assert_eq!(head("héllo", 5), "héllo");
        assert_eq!(head("", 0), "");
        assert_eq!(tail("héllo wörld", 4), "…örld");
        assert_eq!(tail("wörld", 5), "wörld");
        assert_eq!(tail("ab", 0), "…");
    }

    #[test]
    fn trim_output_drops_a_byte_order_mark_and_whitespace() {
        assert_eq!(trim_output("\u{feff}  {}\n"), "{}");
        assert_eq!(trim_output(" x \u{feff}"), "x \u{feff}");
    }

    proptest! {
        #[test]
        fn response_body_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
            let outcome = body(BuiltinEvent::PreToolUse, &bytes);
            prop_assert_eq!(outcome.run.exit_code, None);
            prop_assert_eq!(outcome.run.status == HookStatus::Failed, outcome.run.failure.is_some());
            if outcome.run.failure.is_none() {
                prop_assert_eq!(
                    outcome.run.status == HookStatus::Blocked,
                    outcome.effects.decision.is_blocking()
                );
            }
        }

        #[test]
        fn response_body_accepts_exactly_json_objects(
            text in "[ {}\\[\\]\":,a-z0-9]{0,40}",
        ) {
            let outcome = body(BuiltinEvent::Stop, text.as_bytes());
            let is_object = serde_json::from_str::<Value>(&text).is_ok_and(|v| v.is_object());
            let blank = text.trim().is_empty();
            if !is_object && !blank {
                prop_assert_eq!(
                    outcome.run.failure.as_ref().map(|f| f.kind),
                    Some(FailureKind::MalformedOutput)
                );
            }
            if blank {
                prop_assert_eq!(outcome, HookOutcome::ok());
            }
        }
    }
}
