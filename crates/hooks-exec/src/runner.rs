//! Running one hook: preparing it, picking its executor, its timeout, its tracing span,
//! masking the secrets it was given in its outcome, timing it and writing its audit line.
//! Shared by the dispatcher and the async queue.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use hooks_core::CancellationToken;
use hooks_core::{Action, Decision, EventContext, Failure, FailureKind, HookOutcome, HookSpec};
use tracing::Instrument;

use crate::audit::AuditLog;
use crate::channel::{ChannelHome, Offer};
use crate::command::CommandExecutor;
use crate::executor::{Executor, HookRun};
use crate::notify::NotificationSink;
use crate::permission::PermissionExecutor;
use crate::prepare::Prepare;
use crate::prompt::PromptExecutor;
use crate::timeouts::Timeouts;

/// Everything needed to run a hook.
pub(crate) struct Runner {
    pub(crate) command: CommandExecutor,
    /// Plugged-in executors, already guarded by an outer timeout.
    pub(crate) http: Option<Arc<dyn Executor>>,
    pub(crate) mcp: Option<Arc<dyn Executor>>,
    pub(crate) prompt: PromptExecutor,
    pub(crate) permission: PermissionExecutor,
    pub(crate) timeouts: Timeouts,
    pub(crate) audit: Option<AuditLog>,
    pub(crate) sink: Option<Arc<dyn NotificationSink>>,
    pub(crate) prepare: Option<Arc<dyn Prepare>>,
    /// Where command hooks' prompt channels live (made on the first one).
    pub(crate) channels: ChannelHome,
}

impl Runner {
    /// Runs `spec` for `ctx` with its effective timeout, in a `hook` tracing span, and
    /// returns its outcome with the duration set.
    pub(crate) async fn run(
        &self,
        spec: &HookSpec,
        ctx: &EventContext,
        cancel: &CancellationToken,
    ) -> HookOutcome {
        let timeout = self.timeouts.effective(spec);
        let span = tracing::info_span!(
            "hook",
            event = ctx.event().name(),
            hook = %spec.display_id(),
            dialect = spec.dialect.as_str(),
            kind = spec.action.type_name(),
            timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
            status = tracing::field::Empty,
            decision = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        let start = Instant::now();
        let started = SystemTime::now();
        let prepared = match &self.prepare {
            Some(prepare) => prepare.prepare(spec),
            None => Ok(None),
        };
        let mut outcome = match &prepared {
            // Fail closed: a hook that cannot be prepared blocks where the event can be
            // blocked, whatever its failure policy.
            Err(message) => {
                let mut outcome = HookOutcome::decided(Decision::Block, Some(message.clone()));
                outcome.run.failure = Some(Failure {
                    kind: FailureKind::Spawn,
                    message: message.clone(),
                });
                outcome
            }
            Ok(ready) => {
                let run = HookRun {
                    spec: ready.as_ref().map_or(spec, |p| &p.spec),
                    ctx,
                    timeout,
                    cancel,
                };
                // A command hook may ask the host's model through a channel of its own
                // (`HOOKS_PROMPT_SOCKET`); without an evaluator there is none, at no cost.
                let offer = self.prompt.evaluator().map(|evaluator| Offer {
                    evaluator,
                    spec,
                    redactor: ready.as_ref().map(|p| &p.redactor),
                    home: &self.channels,
                });
                let mut outcome = self.execute(run, offer).instrument(span.clone()).await;
                // The values the hook was given never leave the run: everything below
                // (tracing, the audit log, the sink, the aggregate, the caller) sees masks.
                if let Some(prepared) = ready {
                    prepared.redactor.redact_outcome(&mut outcome);
                }
                outcome
            }
        };
        let elapsed = start.elapsed();
        outcome.run.duration = Some(elapsed);
        outcome.run.started = Some(started);
        span.record("status", outcome.run.status.as_str());
        span.record("decision", outcome.effects.decision.as_str());
        span.record(
            "duration_ms",
            u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        );
        if let Some(failure) = &outcome.run.failure {
            span.in_scope(|| {
                tracing::info!(kind = failure.kind.as_str(), message = %failure.message, "hook failed");
            });
        }
        if let Some(audit) = &self.audit {
            audit.record(ctx, spec, &outcome);
        }
        outcome
    }

    async fn execute(&self, run: HookRun<'_>, offer: Option<Offer<'_>>) -> HookOutcome {
        match &run.spec.action {
            Action::Command(_) => self.command.execute_offered(run, offer).await,
            Action::Prompt(_) => self.prompt.execute(run).await,
            Action::Permission(_) => self.permission.execute(run).await,
            Action::Http(_) => match &self.http {
                Some(exec) => exec.execute(run).await,
                None => unplugged("http", "http_executor"),
            },
            Action::McpTool(_) => match &self.mcp {
                Some(exec) => exec.execute(run).await,
                None => unplugged("mcp_tool", "mcp_executor"),
            },
            other => HookOutcome::failed(
                FailureKind::Spawn,
                format!("no executor runs `{}` hooks", other.type_name()),
            ),
        }
    }
}

fn unplugged(kind: &str, method: &str) -> HookOutcome {
    HookOutcome::failed(
        FailureKind::NotConfigured,
        format!(
            "no {kind} executor is configured: build the dispatcher with \
             `DispatcherBuilder::{method}`"
        ),
    )
}
