//! The bridge to config-level hooks: the event contexts the runner and the dispatcher emit,
//! and the sink they go through.

use std::sync::Arc;

use hooks_core::{Aggregate, BuiltinEvent, EventContext, EventSink, NoopSink, StageEvent};
use serde_json::{Map, Value};

use crate::subagent::SubagentHookContext;
use crate::task::TaskHookContext;

/// An event sink plus the fields every emitted context carries (`session_id`, `cwd`, ...).
#[derive(Clone)]
pub(crate) struct Bridge {
    sink: Arc<dyn EventSink>,
    fields: Map<String, Value>,
}

impl Default for Bridge {
    fn default() -> Bridge {
        Bridge {
            sink: Arc::new(NoopSink),
            fields: Map::new(),
        }
    }
}

impl Bridge {
    pub(crate) fn set_sink(&mut self, sink: Arc<dyn EventSink>) {
        self.sink = sink;
    }

    pub(crate) fn set_fields(&mut self, fields: Map<String, Value>) {
        self.fields = fields;
    }

    /// Sends `ctx` (with the common fields the event's own fields do not already set) to
    /// the sink.
    pub(crate) async fn emit(&self, mut ctx: EventContext) -> Aggregate {
        for (k, v) in &self.fields {
            if ctx.get(k).is_none() {
                ctx.set(k.clone(), v.clone());
            }
        }
        self.sink.dispatch(ctx).await
    }
}

/// The `stop_reason` of an aggregate that asked the agent to stop (`continue: false`).
pub(crate) fn stop_reason(agg: &Aggregate) -> Option<String> {
    (!agg.effects.continue_).then(|| {
        agg.effects
            .stop_reason
            .clone()
            .unwrap_or_else(|| format!("a {} hook answered continue: false", agg.event))
    })
}

/// The reason a blocking aggregate gives, or a sentence naming the event.
pub(crate) fn block_reason(agg: &Aggregate) -> String {
    agg.effects
        .reason
        .clone()
        .unwrap_or_else(|| format!("a {} hook blocked without a reason", agg.event))
}

/// `TaskCreated` for a task about to be scheduled.
pub(crate) fn task_created(ctx: &TaskHookContext) -> EventContext {
    let task = &ctx.task;
    let mut out = EventContext::task_created(task.id.clone(), task.subject.clone());
    if let Some(d) = &task.description {
        out.set("task_description", d.clone());
    }
    out.set(
        "dependencies",
        Value::Array(task.dependencies.iter().cloned().map(Value::from).collect()),
    );
    out.set("max_retries", task.max_retries);
    set_executor(&mut out, ctx);
    out
}

/// `TaskCompleted` for an attempt that produced `output`.
pub(crate) fn task_completed(ctx: &TaskHookContext, output: &str) -> EventContext {
    let task = &ctx.task;
    let mut out = EventContext::task_completed(task.id.clone(), task.subject.clone())
        .with("attempt", ctx.attempt)
        .with("task_output", output);
    if let Some(d) = &task.description {
        out.set("task_description", d.clone());
    }
    set_executor(&mut out, ctx);
    out
}

fn set_executor(out: &mut EventContext, ctx: &TaskHookContext) {
    if let Some(e) = &ctx.executor {
        out.set("teammate_name", e.clone());
    }
}

/// A Fabro stage event for an attempt: `node_id` is the task id, `handler_type` the
/// executor's name (or `task`).
pub(crate) fn stage(event: StageEvent, ctx: &TaskHookContext) -> EventContext {
    let handler = ctx.executor.clone().unwrap_or_else(|| "task".to_owned());
    EventContext::stage(event, ctx.task.id.clone(), handler)
        .with("task_subject", ctx.task.subject.clone())
        .with("attempt", ctx.attempt)
}

/// The common fields of the subagent events.
fn subagent_fields(mut out: EventContext, ctx: &SubagentHookContext) -> EventContext {
    out.set("parent_agent", ctx.parent_agent.clone());
    out.set("execution_mode", ctx.execution_mode.as_str());
    out.set("task", ctx.task.clone());
    out.set("attempt", ctx.attempt);
    out
}

/// `SubagentStart` for one attempt.
pub(crate) fn subagent_start(ctx: &SubagentHookContext, agent_id: &str) -> EventContext {
    subagent_fields(
        EventContext::subagent_start(agent_id, ctx.subagent_name.clone()),
        ctx,
    )
}

/// `SubagentStop` after a run answered (`Ok(output)`) or failed (`Err(error)`).
pub(crate) fn subagent_stop(
    ctx: &SubagentHookContext,
    agent_id: &str,
    stop_hook_active: bool,
    answer: Result<&str, &str>,
) -> EventContext {
    let mut out = subagent_fields(
        EventContext::subagent_stop(agent_id, ctx.subagent_name.clone(), stop_hook_active),
        ctx,
    );
    // The dispatcher keeps the subagent going on a block and caps that loop itself.
    out.set_stop_loop_owned();
    match answer {
        Ok(output) => out.with("last_assistant_message", output),
        Err(error) => out.with("error", error),
    }
}

/// `TeammateIdle` for a teammate that answered `output`.
pub(crate) fn teammate_idle(
    ctx: &SubagentHookContext,
    agent_id: &str,
    team_name: &str,
    output: &str,
) -> EventContext {
    subagent_fields(EventContext::new(BuiltinEvent::TeammateIdle), ctx)
        .agent(agent_id, ctx.subagent_name.clone())
        .with("team_name", team_name)
        .with("teammate_name", ctx.subagent_name.clone())
        .with("last_assistant_message", output)
}
