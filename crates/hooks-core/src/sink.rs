//! The event sink: how code that drives an agent (a task runner, a subagent dispatcher)
//! hands lifecycle events to the config-level hooks without knowing how they run.
//!
//! `hooks-orchestration` emits TaskCreated, SubagentStop, Fabro's stage events and the
//! like through an [`EventSink`]; the `hooks` facade implements it on top of the exec
//! dispatcher. Neither side depends on the other.

use std::future::Future;
use std::pin::Pin;

use crate::aggregate::Aggregate;
use crate::context::EventContext;

/// A boxed, sendable future: what object-safe async methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The error a host's code returns through the engine's traits (a prompt evaluator, a task
/// executor, a subagent runner): any error, so `?` works on the host's own error types,
/// and `"text".into()` or `format!(..).into()` makes one from a message.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Receives lifecycle events and answers with the aggregate of the hooks they matched.
///
/// Object safe: runners hold an `Arc<dyn EventSink>`.
pub trait EventSink: Send + Sync {
    /// Dispatches one event and returns the folded outcome of its hooks. A sink that runs
    /// no hooks answers [`Aggregate::empty`].
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate>;
}

/// The sink that runs nothing: every event proceeds.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoopSink;

impl EventSink for NoopSink {
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate> {
        Box::pin(std::future::ready(Aggregate::empty(ctx.event())))
    }
}
