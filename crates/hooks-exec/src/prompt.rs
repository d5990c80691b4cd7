//! Prompt hooks, in both meanings: text injected for the model (echo-agent), and a question
//! put to a model that answers `{ok, reason}` (Claude Code, Fabro), through a
//! host-supplied [`PromptEvaluator`].

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use hooks_core::{
    Action, BuiltinEvent, CancellationToken, Decision, Event, EventContext, Failure, FailureKind,
    HookOutcome, HookSpec, PromptAction, PromptMode,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::executor::{Executor, HookRun};

/// The error a [`PromptEvaluator`] may return: anything that can be shown (the one
/// host-error type of the workspace, from `hooks-core`).
pub use hooks_core::BoxError;

/// What a prompt hook asks the host's model.
#[non_exhaustive]
#[derive(Clone, Debug)]
pub struct PromptRequest<'a> {
    /// The hook's prompt with `$ARGUMENTS` replaced by the event JSON (or, without the
    /// placeholder, the event JSON appended after a blank line), as Claude Code does.
    pub prompt: String,
    /// [`PromptMode::Evaluate`] (a single model call), [`PromptMode::Agent`] (a model
    /// with tools) or [`PromptMode::Answer`] (a free-text question); never
    /// [`PromptMode::Inject`], which asks no model.
    pub mode: PromptMode,
    /// The model the hook names, if any.
    pub model: Option<&'a str>,
    /// The most tool-call rounds an agent hook may use (Fabro's `max_tool_rounds`), if the
    /// hook says.
    pub max_tool_rounds: Option<u32>,
    /// The event JSON in the hook's dialect (what a command hook gets on stdin).
    pub event_json: Value,
    /// The event's context.
    pub ctx: &'a EventContext,
    /// The hook.
    pub spec: &'a HookSpec,
    /// How long the evaluator has; the engine stops waiting after that.
    pub timeout: Duration,
}

/// A model's answer to a prompt hook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptVerdict {
    /// `true` lets the event proceed; `false` blocks it (where it can be blocked).
    pub ok: bool,
    /// Why, shown with a block.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl PromptVerdict {
    /// Proceed.
    pub fn ok() -> PromptVerdict {
        PromptVerdict {
            ok: true,
            reason: None,
        }
    }

    /// Block, because `reason`.
    pub fn block(reason: impl Into<String>) -> PromptVerdict {
        PromptVerdict {
            ok: false,
            reason: Some(reason.into()),
        }
    }
}

/// The host's model: answers prompt hooks of the evaluate and agent modes, and the
/// free-text questions command hooks ask through their prompt channel. The engine makes no
/// network call of its own to a model provider.
///
/// What the answer means depends on [`PromptRequest::mode`]:
///
/// - [`PromptMode::Evaluate`] and [`PromptMode::Agent`]: a verdict. `ok: true` lets the
///   event proceed; `ok: false` blocks it, with `reason` shown.
/// - [`PromptMode::Answer`]: a free-text question (the prompt is the question as asked,
///   with the hook's secrets masked; `request.spec` is the hook that asks, as loaded,
///   without its secrets). The answer is `reason`, with `ok: true` (`None` is an empty
///   answer). `ok: false` declines to answer, with `reason` saying why: a host that does
///   not want hooks to ask its model, or not this hook, answers that.
///
/// An evaluator that does not know a mode (the enum grows) should decline it.
#[async_trait]
pub trait PromptEvaluator: Send + Sync {
    /// Asks the model `request.prompt` and returns its verdict (for
    /// [`PromptMode::Answer`], its answer in `reason`).
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError>;
}

/// Asks `evaluator`, waiting at most `request.timeout` and never past `cancel`; a timeout,
/// a cancellation or an error of the evaluator is a [`Failure`] saying which.
pub(crate) async fn consult(
    evaluator: &dyn PromptEvaluator,
    request: PromptRequest<'_>,
    cancel: &CancellationToken,
) -> Result<PromptVerdict, Failure> {
    let timeout = request.timeout;
    let failure = |kind, message: String| Failure { kind, message };
    tokio::select! {
        answer = evaluator.evaluate(request) => answer.map_err(|err| {
            failure(FailureKind::Transport, format!("the prompt evaluator failed: {err}"))
        }),
        () = tokio::time::sleep(timeout) => Err(failure(
            FailureKind::Timeout,
            format!(
                "the prompt evaluator did not answer within {}",
                humantime::format_duration(timeout)
            ),
        )),
        () = cancel.cancelled() => Err(failure(
            FailureKind::Cancelled,
            "the dispatch was cancelled".to_owned(),
        )),
    }
}

/// Runs prompt hooks.
///
/// - [`PromptMode::Inject`]: the prompt text becomes `additional_context`; no evaluator
///   is involved.
/// - [`PromptMode::Evaluate`] and [`PromptMode::Agent`]: the evaluator is asked, within the
///   hook's timeout. `ok: true` proceeds with no decision; `ok: false` blocks with the
///   reason (on events that cannot block, aggregation turns it into context). A Claude
///   Code hook's `ok: false` follows its reference per event: on PreToolUse, PostToolUse
///   and TeammateIdle it also ends the turn (`continue: false`) unless the hook sets
///   `continueOnBlock` or is an agent hook; on PermissionRequest and PermissionDenied it
///   has no effect. With no
///   evaluator configured, an evaluator error, a timeout or a cancellation, the hook fails
///   and its failure policy applies.
/// - [`PromptMode::Answer`] (only a host builds such a hook): the evaluator's answer
///   becomes `additional_context`; an evaluator that declines makes the hook fail
///   ([`FailureKind::Refused`]), as do the failures above.
#[derive(Clone, Default)]
pub struct PromptExecutor {
    evaluator: Option<Arc<dyn PromptEvaluator>>,
}

impl std::fmt::Debug for PromptExecutor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptExecutor")
            .field("evaluator", &self.evaluator.is_some())
            .finish()
    }
}

impl PromptExecutor {
    /// A prompt executor asking `evaluator`; `None` runs inject-mode hooks only.
    pub fn new(evaluator: Option<Arc<dyn PromptEvaluator>>) -> PromptExecutor {
        PromptExecutor { evaluator }
    }

    /// The host's model, if one is configured.
    pub(crate) fn evaluator(&self) -> Option<&Arc<dyn PromptEvaluator>> {
        self.evaluator.as_ref()
    }

    async fn evaluate(&self, run: &HookRun<'_>, action: &PromptAction) -> HookOutcome {
        let Some(evaluator) = &self.evaluator else {
            return HookOutcome::failed(
                FailureKind::NotConfigured,
                "this prompt hook asks a model, but the host configured no prompt evaluator",
            );
        };
        let event_json = run.ctx.input_for(run.spec);
        let request = PromptRequest {
            prompt: render(&action.prompt, &event_json),
            mode: action.mode,
            model: action.model.as_deref(),
            max_tool_rounds: action.max_tool_rounds,
            event_json,
            ctx: run.ctx,
            spec: run.spec,
            timeout: run.timeout,
        };
        let verdict = match consult(evaluator.as_ref(), request, run.cancel).await {
            Ok(verdict) => verdict,
            Err(failure) => return HookOutcome::failed(failure.kind, failure.message),
        };
        let answers = matches!(action.mode, PromptMode::Answer);
        match verdict {
            PromptVerdict { ok: true, reason } if answers => {
                let mut outcome = HookOutcome::ok();
                outcome.effects.additional_context =
                    reason.into_iter().filter(|r| !r.is_empty()).collect();
                outcome
            }
            PromptVerdict { ok: false, reason } if answers => HookOutcome::failed(
                FailureKind::Refused,
                format!(
                    "the prompt evaluator declined to answer: {}",
                    reason.as_deref().unwrap_or("no reason given")
                ),
            ),
            PromptVerdict { ok: true, .. } => HookOutcome::ok(),
            PromptVerdict { ok: false, reason } => {
                let reason =
                    reason.unwrap_or_else(|| "the prompt hook's model answered not ok".to_owned());
                if run.spec.dialect.profile().prompt_verdict_by_event {
                    claude_not_ok(run.ctx.event(), action, reason)
                } else {
                    HookOutcome::decided(Decision::Block, Some(reason))
                }
            }
        }
    }
}

#[async_trait]
impl Executor for PromptExecutor {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        let Action::Prompt(action) = &run.spec.action else {
            return HookOutcome::failed(
                FailureKind::Spawn,
                format!(
                    "the prompt executor cannot run a `{}` hook",
                    run.spec.action.type_name()
                ),
            );
        };
        match action.mode {
            PromptMode::Inject => {
                let mut outcome = HookOutcome::ok();
                outcome
                    .effects
                    .additional_context
                    .push(action.prompt.clone());
                outcome
            }
            PromptMode::Evaluate | PromptMode::Agent | PromptMode::Answer => {
                self.evaluate(&run, action).await
            }
            // `PromptMode` is `non_exhaustive`; a mode this executor does not know asks
            // nothing.
            other => HookOutcome::failed(
                FailureKind::NotConfigured,
                format!("this engine cannot run prompt hooks of mode `{other:?}`"),
            ),
        }
    }
}

/// What a Claude Code prompt or agent hook's `ok: false` does on `event`, as its reference
/// says: PreToolUse denies and PostToolUse feeds the reason back, and both (with
/// TeammateIdle, which stops the teammate) also end the turn unless the hook sets
/// `continueOnBlock` or is an agent hook; PermissionRequest and PermissionDenied take no
/// effect from it; every other event blocks with the reason.
fn claude_not_ok(event: &Event, action: &PromptAction, reason: String) -> HookOutcome {
    let continues = action.continue_on_block || action.mode == PromptMode::Agent;
    match event.builtin() {
        Some(BuiltinEvent::PermissionRequest | BuiltinEvent::PermissionDenied) => HookOutcome::ok(),
        Some(BuiltinEvent::PreToolUse | BuiltinEvent::PostToolUse | BuiltinEvent::TeammateIdle)
            if !continues =>
        {
            let mut outcome = HookOutcome::decided(Decision::Block, Some(reason.clone()));
            outcome.effects.continue_ = false;
            outcome.effects.stop_reason = Some(reason);
            outcome
        }
        _ => HookOutcome::decided(Decision::Block, Some(reason)),
    }
}

/// The prompt with `$ARGUMENTS` replaced by the event JSON, or the JSON appended.
fn render(prompt: &str, event_json: &Value) -> String {
    let json = event_json.to_string();
    if prompt.contains("$ARGUMENTS") {
        prompt.replace("$ARGUMENTS", &json)
    } else {
        format!("{prompt}\n\n{json}")
    }
}
