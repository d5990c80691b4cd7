//! Prompt hooks, in both meanings: text injected for the model (echo-agent), and a question
//! put to a model that answers `{ok, reason}` (Claude Code, Fabro), through a
//! host-supplied [`PromptEvaluator`].

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use hooks_core::{
    Action, Decision, EventContext, FailureKind, HookOutcome, HookSpec, PromptAction, PromptMode,
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
    /// [`PromptMode::Evaluate`] (a single model call) or [`PromptMode::Agent`] (a model
    /// with tools).
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

/// The host's model: answers prompt hooks of the evaluate and agent modes. The engine makes
/// no network call of its own to a model provider.
#[async_trait]
pub trait PromptEvaluator: Send + Sync {
    /// Asks the model `request.prompt` and returns its verdict.
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError>;
}

/// Runs prompt hooks.
///
/// - [`PromptMode::Inject`]: the prompt text becomes `additional_context`; no evaluator
///   is involved.
/// - [`PromptMode::Evaluate`] and [`PromptMode::Agent`]: the evaluator is asked, within the
///   hook's timeout. `ok: true` proceeds with no decision; `ok: false` blocks with the
///   reason (on events that cannot block, aggregation turns it into context). With no
///   evaluator configured, an evaluator error, a timeout or a cancellation, the hook fails
///   and its failure policy applies.
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

    async fn evaluate(&self, run: &HookRun<'_>, action: &PromptAction) -> HookOutcome {
        let Some(evaluator) = &self.evaluator else {
            return HookOutcome::failed(
                FailureKind::NotConfigured,
                "this prompt hook asks a model, but the host configured no prompt evaluator",
            );
        };
        let event_json = run.ctx.to_json(run.spec.dialect);
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
        let answer = tokio::select! {
            answer = evaluator.evaluate(request) => answer,
            () = tokio::time::sleep(run.timeout) => {
                return HookOutcome::failed(
                    FailureKind::Timeout,
                    format!(
                        "the prompt evaluator did not answer within {}",
                        humantime::format_duration(run.timeout)
                    ),
                );
            }
            () = run.cancel.cancelled() => {
                return HookOutcome::failed(FailureKind::Cancelled, "the dispatch was cancelled");
            }
        };
        match answer {
            Ok(PromptVerdict { ok: true, .. }) => HookOutcome::ok(),
            Ok(PromptVerdict { ok: false, reason }) => HookOutcome::decided(
                Decision::Block,
                Some(
                    reason.unwrap_or_else(|| "the prompt hook's model answered not ok".to_owned()),
                ),
            ),
            Err(err) => HookOutcome::failed(
                FailureKind::Transport,
                format!("the prompt evaluator failed: {err}"),
            ),
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
            _ => self.evaluate(&run, action).await,
        }
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
