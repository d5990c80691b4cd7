//! What one hook run yields: its status, decision and the fields it returned.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A permission decision, ordered from least to most restrictive.
///
/// The aggregate of several hooks takes the maximum: `block > deny > defer > ask > allow >
/// none`, so an early `allow` never hides a later `deny`.
#[non_exhaustive]
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The hook expressed no decision.
    #[default]
    None,
    /// Approve without asking the user.
    Allow,
    /// Ask the user as usual.
    Ask,
    /// Defer the decision to the host's normal flow (Claude's `defer`).
    Defer,
    /// Reject the action; the agent continues.
    Deny,
    /// Block the action or event entirely (exit code 2, `decision: "block"`).
    Block,
}

impl Decision {
    /// The lower-case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::None => "none",
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Defer => "defer",
            Decision::Deny => "deny",
            Decision::Block => "block",
        }
    }

    /// Whether this decision stops the action (`deny` or `block`).
    pub fn is_blocking(self) -> bool {
        matches!(self, Decision::Deny | Decision::Block)
    }

    /// Whether this is a permission answer (`allow`, `ask`, `defer`, `deny`) as opposed
    /// to no decision or a block.
    pub fn is_permission(self) -> bool {
        matches!(
            self,
            Decision::Allow | Decision::Ask | Decision::Defer | Decision::Deny
        )
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one hook run ended.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookStatus {
    /// It ran and answered (possibly with no decision).
    #[default]
    Ok,
    /// It ran and blocked or denied.
    Blocked,
    /// It crashed, could not start, exited non-zero (other than 2) or answered garbage.
    Failed,
    /// It overran its timeout and was killed.
    TimedOut,
    /// It did not run (not trusted, cancelled before start, deduplicated).
    Skipped,
}

impl HookStatus {
    /// The lower-case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            HookStatus::Ok => "ok",
            HookStatus::Blocked => "blocked",
            HookStatus::Failed => "failed",
            HookStatus::TimedOut => "timed_out",
            HookStatus::Skipped => "skipped",
        }
    }

    /// Whether the failure policy applies to this status.
    pub fn is_failure(self) -> bool {
        matches!(self, HookStatus::Failed | HookStatus::TimedOut)
    }
}

impl fmt::Display for HookStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a hook's failure means for the event: fail open or fail closed.
///
/// Applied the same way to timeouts, spawn errors, crashes, non-zero exits other than 2 and
/// malformed output.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailurePolicy {
    /// Fail open: the failure is reported and the event proceeds.
    #[default]
    Allow,
    /// Fail closed: the failure blocks the event (where the event can be blocked).
    Block,
}

/// Which kind of failure a hook had.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The hook overran its timeout.
    Timeout,
    /// The hook could not be started (missing interpreter, not executable, bad URL).
    Spawn,
    /// The hook was killed by a signal.
    Crash,
    /// The hook exited with a code other than 0 and 2, or the server answered non-2xx.
    NonZeroExit,
    /// The hook's output could not be understood.
    MalformedOutput,
    /// A transport error talking to an HTTP or MCP peer.
    Transport,
    /// The dispatch was cancelled while the hook ran.
    Cancelled,
    /// A policy refused to run the hook: an http hook's URL outside the allow-list (no
    /// request was made), or a prompt evaluator that declined to answer.
    Refused,
    /// The host set up nothing to run the hook with: no prompt evaluator for a prompt
    /// hook that asks a model, no http or mcp_tool executor.
    NotConfigured,
}

impl FailureKind {
    /// The lower-case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Timeout => "timeout",
            FailureKind::Spawn => "spawn",
            FailureKind::Crash => "crash",
            FailureKind::NonZeroExit => "non_zero_exit",
            FailureKind::MalformedOutput => "malformed_output",
            FailureKind::Transport => "transport",
            FailureKind::Cancelled => "cancelled",
            FailureKind::Refused => "refused",
            FailureKind::NotConfigured => "not_configured",
        }
    }
}

/// A hook failure: its kind and a message saying what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// Which kind of failure.
    pub kind: FailureKind,
    /// A human-readable account (`exited with code 1: <stderr>`).
    pub message: String,
}

/// How one hook run went: the run information every report of a hook carries (the
/// outcome, the aggregate's [`HookReport`](crate::HookReport), the audit log).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// How the run ended.
    pub status: HookStatus,
    /// Why the hook failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// The process exit code, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// How long the hook ran.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "duration_ms")]
    pub duration: Option<Duration>,
    /// Whether stdout was cut at the output cap.
    #[serde(default)]
    pub stdout_truncated: bool,
    /// Whether stderr was cut at the output cap.
    #[serde(default)]
    pub stderr_truncated: bool,
    /// When the run started (wall clock), set by the runner: with `duration`, the run's
    /// interval for telemetry. Not serialised (reports and the audit log give the
    /// duration).
    #[serde(skip)]
    pub started: Option<std::time::SystemTime>,
}

impl RunInfo {
    /// Whether either output stream was truncated.
    pub fn truncated(&self) -> bool {
        self.stdout_truncated || self.stderr_truncated
    }

    /// The duration in whole milliseconds, as reports print it.
    pub fn duration_ms(&self) -> Option<u64> {
        self.duration
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }
}

/// The effects a hook can have on its event: what one hook answered
/// ([`HookOutcome::effects`]) and what the event's hooks answered together
/// ([`Aggregate::effects`](crate::Aggregate)). One type, so that a field added here is
/// carried from the parser to the printed outcome.
///
/// Serialises as the fields of `hooks run --json`: the first eight always, the others only
/// when set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effects {
    /// The permission decision.
    pub decision: Decision,
    /// Why (`permissionDecisionReason`, `reason`, or stderr on exit 2).
    #[serde(default)]
    pub reason: Option<String>,
    /// `false` asks the agent to stop entirely.
    #[serde(rename = "continue")]
    pub continue_: bool,
    /// Shown when `continue` is false.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// A rewritten tool input (replaces the whole input).
    #[serde(default)]
    pub updated_input: Option<Value>,
    /// Text for the model.
    #[serde(default)]
    pub additional_context: Vec<String>,
    /// A message for the user.
    #[serde(default)]
    pub system_message: Option<String>,
    /// Other messages (echo-agent `message`, Cursor `user_message`, plain text output,
    /// reports of failed hooks).
    #[serde(default)]
    pub messages: Vec<String>,
    /// Hide the hook's output from the transcript.
    #[serde(default)]
    pub suppress_output: bool,
    /// Claude's PermissionDenied `retry`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
    /// Fabro's `skip`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip: bool,
    /// Fabro's `override`: the edge to take instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub override_edge: Option<String>,
    /// Claude's PermissionRequest `updatedPermissions`: permission updates to apply with
    /// an `allow` (`addRules`, `setMode`, ... entries), in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub updated_permissions: Vec<Value>,
    /// Claude's PostToolUse `updatedToolOutput`: the tool output the model sees instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// Claude's PostToolUse `updatedMCPToolOutput`: an MCP tool's output replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_mcp_tool_output: Option<Value>,
    /// Claude's SessionStart and UserPromptSubmit `sessionTitle`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_title: Option<String>,
    /// Claude's SessionStart `initialUserMessage` (the first prompt in `-p` mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_user_message: Option<String>,
    /// Claude's `watchPaths` (SessionStart, CwdChanged, FileChanged): the paths to watch
    /// for FileChanged, replacing the dynamic list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watch_paths: Option<Vec<String>>,
    /// Claude's SessionStart `reloadSkills`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reload_skills: bool,
    /// Claude's Elicitation / ElicitationResult answer: `action` and `content`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationAnswer>,
    /// Claude's WorktreeCreate path (a command hook's last line of stdout, an HTTP hook's
    /// `worktreePath`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree_path: Option<String>,
    /// Claude's `terminalSequence`: an OSC escape sequence for the user's terminal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal_sequence: Option<String>,
    /// Claude's UserPromptSubmit `suppressOriginalPrompt`: the prompt is not shown in the
    /// transcript (the added context still reaches the model).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub suppress_original_prompt: bool,
    /// Claude's PostToolUse `classifierContext`: text for the agent's permission
    /// classifier about the tool call (at most 2,000 characters in Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classifier_context: Option<String>,
    /// Claude's MessageDisplay `displayContent`: what the screen shows instead of the
    /// assistant's text (the transcript and the model keep the original).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_content: Option<String>,
    /// The variables the hook exported in its `CLAUDE_ENV_FILE` ([`crate::parse_env_file`]),
    /// by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Gemini CLI's AfterAgent `clearContext`: clear the conversation history (the model's
    /// memory), keeping what the user sees.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clear_context: bool,
    /// Gemini CLI's BeforeModel `llm_request`: fields of the model request to override.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_request: Option<Value>,
    /// Gemini CLI's `llm_response`: on BeforeModel a synthetic response (the model is not
    /// called), on AfterModel the response chunk instead of the model's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_response: Option<Value>,
    /// Gemini CLI's BeforeToolSelection `toolConfig`: `mode` (`AUTO`, `ANY`, `NONE`) and
    /// `allowedFunctionNames`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_config: Option<Value>,
    /// Gemini CLI's AfterTool `tailToolCallRequest` (`{name, args}`, in Gemini CLI's tool
    /// names): a tool call the agent runs next, whose result replaces this tool's. Only the
    /// agent can run it: `hooks bridge gemini` passes it on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail_tool_call: Option<Value>,
}

/// What an elicitation hook answered for the user: the action, and the form's content
/// with `accept`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ElicitationAnswer {
    /// `accept`, `decline` or `cancel`.
    pub action: ElicitationAction,
    /// The values submitted with `accept`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

/// An elicitation hook's action, ordered from least to most restrictive: several hooks'
/// actions fold to the most restrictive, `cancel > decline > accept`.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElicitationAction {
    /// Answer the elicitation with `content`.
    Accept,
    /// Decline to answer.
    Decline,
    /// Cancel the elicitation.
    Cancel,
}

impl ElicitationAction {
    /// The action named `word` (`accept`, `decline`, `cancel`), if it is one.
    pub fn parse(word: &str) -> Option<ElicitationAction> {
        match word {
            "accept" => Some(ElicitationAction::Accept),
            "decline" => Some(ElicitationAction::Decline),
            "cancel" => Some(ElicitationAction::Cancel),
            _ => None,
        }
    }
}

/// A field a dialect's reader dropped from a hook's answer, as the dialect discards it
/// (Claude Code's Notification hooks cannot stop the agent). The aggregation lists it in
/// [`Aggregate::ignored`](crate::Aggregate) with the hook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DroppedField {
    /// The field.
    pub field: OutputField,
    /// Why it was dropped.
    pub reason: String,
}

impl Default for Effects {
    fn default() -> Effects {
        Effects {
            decision: Decision::None,
            reason: None,
            continue_: true,
            stop_reason: None,
            updated_input: None,
            additional_context: Vec::new(),
            system_message: None,
            messages: Vec::new(),
            suppress_output: false,
            retry: None,
            skip: false,
            override_edge: None,
            updated_permissions: Vec::new(),
            updated_tool_output: None,
            updated_mcp_tool_output: None,
            session_title: None,
            initial_user_message: None,
            watch_paths: None,
            reload_skills: false,
            elicitation: None,
            worktree_path: None,
            terminal_sequence: None,
            suppress_original_prompt: false,
            classifier_context: None,
            display_content: None,
            env: BTreeMap::new(),
            clear_context: false,
            llm_request: None,
            llm_response: None,
            tool_config: None,
            tail_tool_call: None,
        }
    }
}

/// The name of an outcome field, as [`Conflict`](crate::Conflict) and
/// [`IgnoredField`](crate::IgnoredField) report it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputField {
    /// The permission decision (or block).
    Decision,
    /// `continue`.
    Continue,
    /// `stop_reason`.
    StopReason,
    /// `system_message`.
    SystemMessage,
    /// `updated_input`.
    UpdatedInput,
    /// `additional_context`.
    AdditionalContext,
    /// `retry`.
    Retry,
    /// Fabro's `skip`.
    Skip,
    /// Fabro's `override` edge.
    Override,
    /// The hook's failure policy (a fail-closed failure on an event that cannot block).
    OnFailure,
    /// `updated_permissions`.
    UpdatedPermissions,
    /// `updated_tool_output`.
    UpdatedToolOutput,
    /// `updated_mcp_tool_output`.
    UpdatedMcpToolOutput,
    /// `session_title`.
    SessionTitle,
    /// `initial_user_message`.
    InitialUserMessage,
    /// `watch_paths`.
    WatchPaths,
    /// `reload_skills`.
    ReloadSkills,
    /// `elicitation` (its action and content).
    Elicitation,
    /// `worktree_path`.
    WorktreePath,
    /// `terminal_sequence`.
    TerminalSequence,
    /// `suppress_original_prompt`.
    SuppressOriginalPrompt,
    /// `classifier_context`.
    ClassifierContext,
    /// `display_content`.
    DisplayContent,
    /// `env` (the variables exported in `CLAUDE_ENV_FILE`).
    Env,
    /// `clear_context`.
    ClearContext,
    /// `llm_request`.
    LlmRequest,
    /// `llm_response`.
    LlmResponse,
    /// `tool_config`.
    ToolConfig,
    /// `tail_tool_call`.
    TailToolCall,
}

impl OutputField {
    /// The snake_case name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputField::Decision => "decision",
            OutputField::Continue => "continue",
            OutputField::StopReason => "stop_reason",
            OutputField::SystemMessage => "system_message",
            OutputField::UpdatedInput => "updated_input",
            OutputField::AdditionalContext => "additional_context",
            OutputField::Retry => "retry",
            OutputField::Skip => "skip",
            OutputField::Override => "override",
            OutputField::OnFailure => "on_failure",
            OutputField::UpdatedPermissions => "updated_permissions",
            OutputField::UpdatedToolOutput => "updated_tool_output",
            OutputField::UpdatedMcpToolOutput => "updated_mcp_tool_output",
            OutputField::SessionTitle => "session_title",
            OutputField::InitialUserMessage => "initial_user_message",
            OutputField::WatchPaths => "watch_paths",
            OutputField::ReloadSkills => "reload_skills",
            OutputField::Elicitation => "elicitation",
            OutputField::WorktreePath => "worktree_path",
            OutputField::TerminalSequence => "terminal_sequence",
            OutputField::SuppressOriginalPrompt => "suppress_original_prompt",
            OutputField::ClassifierContext => "classifier_context",
            OutputField::DisplayContent => "display_content",
            OutputField::Env => "env",
            OutputField::ClearContext => "clear_context",
            OutputField::LlmRequest => "llm_request",
            OutputField::LlmResponse => "llm_response",
            OutputField::ToolConfig => "tool_config",
            OutputField::TailToolCall => "tail_tool_call",
        }
    }
}

impl fmt::Display for OutputField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of running one hook, as the parser or an executor produced it.
///
/// Fields hold what the hook said; whether the event honours them is decided at
/// aggregation, which reports fields it ignored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HookOutcome {
    /// How the run went.
    #[serde(flatten)]
    pub run: RunInfo,
    /// What the hook answered.
    #[serde(flatten)]
    pub effects: Effects,
    /// JSON fields the parser did not recognise, reported rather than dropped silently.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_fields: Vec<String>,
    /// Fields the hook's dialect discards, dropped by its reader and reported.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<DroppedField>,
}

impl HookOutcome {
    /// Drops `field` from the answer with `reason`, to be reported as ignored.
    pub fn drop_field(&mut self, field: OutputField, reason: impl Into<String>) {
        self.dropped.push(DroppedField {
            field,
            reason: reason.into(),
        });
    }
}

impl HookOutcome {
    /// A successful run with no decision and nothing to say.
    pub fn ok() -> HookOutcome {
        HookOutcome::default()
    }

    /// A run that answered `decision`, with an optional reason.
    pub fn decided(decision: Decision, reason: Option<String>) -> HookOutcome {
        let status = if decision.is_blocking() {
            HookStatus::Blocked
        } else {
            HookStatus::Ok
        };
        HookOutcome {
            run: RunInfo {
                status,
                ..RunInfo::default()
            },
            effects: Effects {
                decision,
                reason,
                ..Effects::default()
            },
            ..HookOutcome::default()
        }
    }

    /// A failed run. The status is `timed_out` for [`FailureKind::Timeout`] and `failed`
    /// otherwise.
    pub fn failed(kind: FailureKind, message: impl Into<String>) -> HookOutcome {
        let status = if kind == FailureKind::Timeout {
            HookStatus::TimedOut
        } else {
            HookStatus::Failed
        };
        HookOutcome {
            run: RunInfo {
                status,
                failure: Some(Failure {
                    kind,
                    message: message.into(),
                }),
                ..RunInfo::default()
            },
            ..HookOutcome::default()
        }
    }

    /// A hook that did not run, with the reason.
    pub fn skipped(reason: impl Into<String>) -> HookOutcome {
        HookOutcome {
            run: RunInfo {
                status: HookStatus::Skipped,
                ..RunInfo::default()
            },
            effects: Effects {
                reason: Some(reason.into()),
                ..Effects::default()
            },
            ..HookOutcome::default()
        }
    }
}

/// Durations serialise as whole milliseconds.
mod duration_ms {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Duration>, D::Error> {
        Ok(Option::<u64>::deserialize(d)?.map(Duration::from_millis))
    }
}
