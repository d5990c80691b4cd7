//! One agent using all three hook systems at once: task hooks, subagent hooks, and
//! config-level hooks run by the exec dispatcher.
//!
//! The agent runs a small task graph (build, test, review, deploy). Its task hooks log
//! every attempt and retry a flaky build; its subagent hooks log every dispatch and
//! delegate a failed review to a senior reviewer. Config-level hooks, real `sh -c` scripts
//! run by `hooks_exec::Dispatcher`, see the same run through the event sink: one rejects
//! the deploy task at `TaskCreated`, one refuses the first `TaskCompleted` of the tests,
//! one adds context at `SubagentStart`, one keeps the reviewer going once at
//! `SubagentStop`, and one watches every Fabro `stage_*` event. Every hook prints as it
//! fires. Run it with `cargo run -p agentic-hooks --example three_hook_systems`.

// An example prints its report.
#![allow(clippy::print_stdout)]

use std::sync::Arc;

use anyhow::Result;
use hooks::core::{
    Action, Aggregate, BoxFuture, BuiltinEvent as E, EventContext, EventSink, HookIndex, HookSpec,
    Matcher,
};
use hooks::orchestration::TokioTimer;
use hooks_exec::Dispatcher;
use hooks_orchestration::{
    BoxError, CancellationToken, ExecutionMode, RetryDecision, SubagentDispatcher,
    SubagentHookContext, SubagentHooks, SubagentRequest, SubagentResult, SubagentRetryDecision,
    SubagentRun, SubagentRunner, Task, TaskExecutor, TaskHookContext, TaskHooks, TaskRunner, Timer,
    async_trait,
};

/// The config-level hooks, as a user would write them in a config file.
fn config_hooks() -> Result<Vec<HookSpec>> {
    Ok(vec![
        HookSpec::new(
            E::TaskCreated,
            Action::script("echo 'deploys need a human sign-off' >&2; exit 2"),
        )
        .with_id("deploy-guard")
        .with_matcher(Matcher::parse("deploy")?),
        HookSpec::new(
            E::TaskCompleted,
            Action::script(
                "if grep -q '\"attempt\":1[,}]'; then echo 'attach the coverage report' >&2; exit 2; fi",
            ),
        )
        .with_id("coverage-gate")
        .with_matcher(Matcher::parse("test")?),
        HookSpec::new(
            E::SubagentStart,
            Action::script("echo 'Review against docs/CONVENTIONS.md.'"),
        )
        .with_id("review-context")
        .with_matcher(Matcher::parse("reviewer|senior-reviewer")?),
        HookSpec::new(
            E::SubagentStop,
            Action::script(
                "if grep -q '\"stop_hook_active\":false'; then echo 'also list the risky files' >&2; exit 2; fi",
            ),
        )
        .with_id("review-completeness")
        .with_matcher(Matcher::parse("senior-reviewer")?),
        HookSpec::new(E::StageStart, Action::script("cat >/dev/null")).with_id("stage-watch"),
        HookSpec::new(E::StageRetrying, Action::script("cat >/dev/null"))
            .with_id("stage-watch-retry"),
        HookSpec::new(E::StageFailed, Action::script("cat >/dev/null"))
            .with_id("stage-watch-failed"),
        HookSpec::new(E::StageComplete, Action::script("cat >/dev/null"))
            .with_id("stage-watch-done"),
    ])
}

/// The event-sink adapter over the exec dispatcher: dispatches each event to the config
/// hooks and prints every hook that fired and what the event came to.
struct PrintingSink {
    dispatcher: Dispatcher,
}

impl EventSink for PrintingSink {
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate> {
        Box::pin(async move {
            let agg = self.dispatcher.dispatch(&ctx).await;
            for hook in &agg.hooks {
                println!(
                    "  [config]   {:<14} hook `{}`: {:?}, exit {}",
                    agg.event,
                    hook.id,
                    hook.run.status,
                    hook.run.exit_code.map_or("-".to_owned(), |c| c.to_string()),
                );
            }
            if agg.is_blocked() {
                let reason = agg.effects.reason.as_deref().unwrap_or("");
                println!("  [config]   {} blocked: {reason}", agg.event);
            }
            agg
        })
    }
}

/// Task hooks as in the seed: log, and retry while the task allows.
struct LoggingTaskHooks;

#[async_trait]
impl TaskHooks for LoggingTaskHooks {
    async fn before_execute(&self, ctx: &TaskHookContext) {
        println!(
            "[task]     before {} (attempt {})",
            ctx.task.subject, ctx.attempt
        );
    }

    async fn after_execute(&self, ctx: &TaskHookContext, result: &str) {
        println!("[task]     after  {} -> {result}", ctx.task.subject);
    }

    async fn on_failure(&self, ctx: &TaskHookContext, error: &str) -> RetryDecision {
        let decision = if ctx.task.retry_count < ctx.task.max_retries {
            RetryDecision::Retry { delay_secs: 1 }
        } else {
            RetryDecision::Fail
        };
        println!(
            "[task]     failure {} (attempt {}): {error} -> {decision:?}",
            ctx.task.subject, ctx.attempt
        );
        decision
    }
}

/// Subagent hooks: log, and hand a failed review to the senior reviewer.
struct ReviewSubagentHooks;

#[async_trait]
impl SubagentHooks for ReviewSubagentHooks {
    async fn before_dispatch(&self, ctx: &SubagentHookContext) {
        println!(
            "[subagent] dispatch {} -> {} ({}, attempt {})",
            ctx.parent_agent, ctx.subagent_name, ctx.execution_mode, ctx.attempt
        );
    }

    async fn after_dispatch(&self, ctx: &SubagentHookContext, result: &SubagentResult) {
        println!(
            "[subagent] done {} -> {:?} (delegated from {:?}, {} continuation(s))",
            ctx.subagent_name, result.output, result.delegated_from, result.continuations
        );
    }

    async fn on_failure(&self, ctx: &SubagentHookContext, error: &str) -> SubagentRetryDecision {
        let decision = SubagentRetryDecision::Delegate {
            alternative_agent: "senior-reviewer".to_owned(),
        };
        println!(
            "[subagent] failure {}: {error} -> {decision:?}",
            ctx.subagent_name
        );
        decision
    }
}

/// The agent's subagents: the reviewer runs out of context, the senior reviewer answers
/// and takes the stop hook's feedback into account when kept going.
struct Subagents;

#[async_trait]
impl SubagentRunner for Subagents {
    async fn run(
        &self,
        run: &SubagentRun,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        match run.context.subagent_name.as_str() {
            "reviewer" => Err("context window exceeded".into()),
            _ => {
                let mut answer = format!("LGTM ({})", run.additional_context.join(" "));
                if let Some(feedback) = &run.feedback {
                    answer.push_str(&format!("; {feedback}: src/spawn.rs"));
                }
                Ok(answer)
            }
        }
    }
}

/// An agent built the way the seed's `ReactAgentBuilder` builds one.
struct Agent {
    name: String,
    tasks: TaskRunner,
    subagents: SubagentDispatcher,
}

#[derive(Default)]
struct AgentBuilder {
    task_hooks: Vec<Arc<dyn TaskHooks>>,
    subagent_hooks: Vec<Arc<dyn SubagentHooks>>,
    config_hooks: Option<Arc<dyn EventSink>>,
}

impl AgentBuilder {
    fn with_task_hooks(mut self, hooks: Arc<dyn TaskHooks>) -> AgentBuilder {
        self.task_hooks.push(hooks);
        self
    }

    fn with_subagent_hooks(mut self, hooks: Arc<dyn SubagentHooks>) -> AgentBuilder {
        self.subagent_hooks.push(hooks);
        self
    }

    fn with_config_hooks(mut self, sink: Arc<dyn EventSink>) -> AgentBuilder {
        self.config_hooks = Some(sink);
        self
    }

    fn build(self, name: &str) -> Agent {
        let timer: Arc<dyn Timer> = Arc::new(TokioTimer);
        let sink = self
            .config_hooks
            .unwrap_or_else(|| Arc::new(hooks_orchestration::NoopSink));
        // One task at a time, so that the printed lines read in order.
        let mut tasks = TaskRunner::new(Arc::clone(&timer))
            .with_sink(Arc::clone(&sink))
            .with_max_concurrency(1);
        for hooks in self.task_hooks {
            tasks = tasks.with_hooks(hooks);
        }
        let mut subagents = SubagentDispatcher::new(Arc::new(Subagents), timer).with_sink(sink);
        for hooks in self.subagent_hooks {
            subagents = subagents.with_hooks(hooks);
        }
        Agent {
            name: name.to_owned(),
            tasks,
            subagents,
        }
    }
}

/// What the agent does for each task; the review goes to a subagent.
struct Work<'a> {
    agent: &'a Agent,
}

#[async_trait]
impl TaskExecutor for Work<'_> {
    fn name(&self) -> Option<&str> {
        Some(&self.agent.name)
    }

    async fn execute(
        &self,
        ctx: &TaskHookContext,
        cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        match ctx.task.id.as_str() {
            "build" if ctx.attempt == 1 => Err("linker crashed (flaky)".into()),
            "review" => {
                let request = SubagentRequest::new(
                    self.agent.name.clone(),
                    "reviewer",
                    ExecutionMode::Sync,
                    "review the diff",
                );
                let result = self
                    .agent
                    .subagents
                    .dispatch(request, cancel)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(result.output)
            }
            id => Ok(format!("{id} ok")),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let dispatcher = Dispatcher::new(HookIndex::new(config_hooks()?));
    let agent = AgentBuilder::default()
        .with_task_hooks(Arc::new(LoggingTaskHooks))
        .with_subagent_hooks(Arc::new(ReviewSubagentHooks))
        .with_config_hooks(Arc::new(PrintingSink { dispatcher }))
        .build("lead");

    let tasks = vec![
        Task::new("build", "Build").with_max_retries(1),
        Task::new("test", "Test")
            .depends_on("build")
            .with_max_retries(1),
        Task::new("review", "Review").depends_on("build"),
        Task::new("deploy", "Deploy")
            .depends_on("test")
            .depends_on("review"),
    ];
    let cancel = CancellationToken::new();
    let work = Work { agent: &agent };
    let report = agent.tasks.run(tasks, &work, &cancel).await?;

    println!("\nOutcome:");
    for task in &report.tasks {
        println!("  {:<7} {:?}", task.id, task.outcome);
    }
    Ok(())
}
