//! Permission hooks: a fixed allow, deny or ask.

use async_trait::async_trait;
use hooks_core::{Action, Decision, FailureKind, HookOutcome};

use crate::executor::{Executor, HookRun};

/// Runs permission hooks: answers the hook's fixed decision and reason, at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct PermissionExecutor;

#[async_trait]
impl Executor for PermissionExecutor {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        match &run.spec.action {
            Action::Permission(p) if p.decision == Decision::None => HookOutcome::ok(),
            Action::Permission(p) => HookOutcome::decided(p.decision, p.reason.clone()),
            other => HookOutcome::failed(
                FailureKind::Spawn,
                format!(
                    "the permission executor cannot run a `{}` hook",
                    other.type_name()
                ),
            ),
        }
    }
}
