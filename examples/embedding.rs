//! Embedding the hooks engine in a host program: every code block of `docs/embedding.md`.
//!
//! The dispatcher part also holds the setup blocks of `docs/exec.md`, `docs/exec-http.md`
//! and `docs/exec-mcp.md`.
//!
//! Each part of the guide is one function here, between `// ANCHOR: name` and
//! `// ANCHOR_END: name` lines; the guide copies those regions and a test in xtask
//! (`doc_snippets_match_their_sources`) fails when they differ. `cargo test -p agentic-hooks`
//! builds
//! this example and runs its tests, which run every part; `cargo run -p agentic-hooks --example
//! embedding` runs them too and prints what each one showed.

// An example prints its report (and a host reports failed reloads).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use hooks::Reload;
use hooks::config::{Inactive, Locations, TrustStore};
use hooks::core::{BoxFuture, EventInfo, EventSink, Fields, PromptAction, PromptMode};
use hooks::exec::{
    AuditLog, BoxError, CommandExecutor, Dispatcher, HttpConfig, HttpExecutor, JsonRpcSink,
    McpExecutor, McpServerConfig, PromptEvaluator, PromptRequest, PromptVerdict,
};
use hooks::orchestration::{
    CancellationToken, RetryDecision, Task, TaskExecutor, TaskHookContext, TaskHooks, TaskOutcome,
    TokioTimer, async_trait,
};
use hooks::prelude::*;
use serde_json::json;

// ANCHOR: engine
/// Config text in, outcomes out.
async fn engine_from_config() -> Result<()> {
    let config = r#"
hooks:
  - id: no-force-push
    event: PreToolUse
    matcher: Bash
    if: "Bash(git push --force*)"
    decision: deny
    reason: force pushes need a human
  - id: house-rules
    event: UserPromptSubmit
    command: echo 'This repository uses bun, not npm.'
"#;
    let engine = Engine::builder()
        .config_text("inline.yaml", config, Format::Yaml, None)
        .build()?;

    let push = EventContext::pre_tool_use("Bash", json!({"command": "git push --force"}));
    let outcome = engine.dispatch(&push).await;
    assert_eq!(outcome.effects.decision, Decision::Deny);
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("force pushes need a human")
    );

    let prompt = EventContext::user_prompt_submit("add a date helper");
    let outcome = engine.dispatch(&prompt).await;
    assert_eq!(outcome.effects.decision, Decision::None);
    assert_eq!(
        outcome.effects.additional_context,
        ["This repository uses bun, not npm."]
    );
    Ok(())
}
// ANCHOR_END: engine

// ANCHOR: files
/// Config files: named ones are trusted by being named; discovered project files wait for
/// trust.
async fn engine_from_files(project: &Path) -> Result<()> {
    let guard = project.join(".hooks/hooks.yaml");
    std::fs::create_dir_all(guard.parent().unwrap_or(project))?;
    std::fs::write(
        &guard,
        "hooks:\n  - id: guard\n    event: PreToolUse\n    matcher: Bash\n    \
         command: \"grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || true\"\n",
    )?;
    let rm = EventContext::pre_tool_use("Bash", json!({"command": "rm -rf build"}));

    // Discovery finds `.hooks/hooks.yaml` in the project; without a trust grant the hook is
    // listed but does not run.
    let only_project = Locations {
        project: Some(project.to_path_buf()),
        ..Locations::default()
    };
    let engine = Engine::builder()
        .discover_in(only_project.clone())
        .trust_store(TrustStore::in_memory())
        .build()?;
    let loaded = engine.loaded();
    assert_eq!(loaded.hooks.hooks()[0].inactive, Some(Inactive::Untrusted));
    assert_eq!(engine.dispatch(&rm).await.effects.decision, Decision::None);

    // Trust the file (what `hooks trust .hooks/hooks.yaml` does) and reload.
    let mut store = TrustStore::in_memory();
    store.trust_file(&loaded.files[0])?;
    engine.set_trust_store(store);
    assert_eq!(engine.reload().await?, Reload::Applied { active: 1 });
    assert_eq!(engine.dispatch(&rm).await.effects.decision, Decision::Block);

    // The same file named explicitly is trusted by that act.
    let named = Engine::builder().config_file(&guard).build()?;
    assert_eq!(named.dispatch(&rm).await.effects.decision, Decision::Block);
    Ok(())
}
// ANCHOR_END: files

// ANCHOR: host_hooks
/// Hooks written in code (the host layer: they need no trust) and events of the host's own.
async fn host_hooks_and_events() -> Result<()> {
    let mut catalog = EventCatalog::new();
    let deploy = catalog.register(
        EventInfo::new("DeployStart")
            .matcher_field("environment")
            .honours(Fields::BLOCK)
            .description("A deployment is about to start."),
    )?;
    let engine = Engine::builder()
        .catalog(catalog)
        .config_text(
            "deploy.yaml",
            "hooks:\n  - event: DeployStart\n    matcher: production\n    \
             command: \"echo 'production is frozen' >&2; exit 2\"\n",
            Format::Yaml,
            None,
        )
        .hook(
            HookSpec::new(BuiltinEvent::PreToolUse, Action::permission(Decision::Ask))
                .with_id("ask-before-writes")
                .with_matcher(Matcher::parse("Write|Edit")?),
        )
        .build()?;

    let to_prod = EventContext::new(deploy.clone()).with("environment", "production");
    let outcome = engine.dispatch(&to_prod).await;
    assert!(outcome.is_blocked());
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("production is frozen")
    );
    let to_staging = EventContext::new(deploy).with("environment", "staging");
    assert!(!engine.dispatch(&to_staging).await.is_blocked());

    let write = EventContext::pre_tool_use("Write", json!({"file_path": "a.txt"}));
    assert_eq!(
        engine.dispatch(&write).await.effects.decision,
        Decision::Ask
    );
    Ok(())
}
// ANCHOR_END: host_hooks

/// A writer whose bytes the example can read back.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    fn lines(&self) -> Vec<serde_json::Value> {
        let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}

// ANCHOR: observe
/// An audit log line per hook run, and Autohand's JSON-RPC notifications for an IDE.
async fn audit_and_notifications() -> Result<()> {
    let audit = SharedBuf::default();
    let ide = SharedBuf::default();
    let engine = Engine::builder()
        .config_text(
            "guard.yaml",
            "hooks:\n  - id: guard\n    event: PreToolUse\n    decision: deny\n",
            Format::Yaml,
            None,
        )
        .audit_log(AuditLog::to_writer(audit.clone()))
        .notification_sink(Arc::new(JsonRpcSink::new(ide.clone())))
        .build()?;
    let ls = EventContext::pre_tool_use("Bash", json!({"command": "ls"})).session_id("s-1");
    engine.dispatch(&ls).await;

    let line = &audit.lines()[0];
    assert_eq!(line["hook"], "guard");
    assert_eq!(line["decision"], "deny");
    assert_eq!(line["session_id"], "s-1");
    let note = &ide.lines()[0];
    assert_eq!(note["jsonrpc"], "2.0");
    assert_eq!(note["method"], "autohand.hook.preTool");
    Ok(())
}
// ANCHOR_END: observe

// ANCHOR: orchestration
/// Task hooks: retry a failed task while it has retries left.
struct RetryWhileAllowed;

#[async_trait]
impl TaskHooks for RetryWhileAllowed {
    async fn on_failure(&self, ctx: &TaskHookContext, _error: &str) -> RetryDecision {
        if ctx.task.retry_count < ctx.task.max_retries {
            RetryDecision::Retry { delay_secs: 0 }
        } else {
            RetryDecision::Fail
        }
    }
}

/// The host's work: the build fails once.
struct Work;

#[async_trait]
impl TaskExecutor for Work {
    async fn execute(
        &self,
        ctx: &TaskHookContext,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        match (ctx.task.id.as_str(), ctx.attempt) {
            ("build", 1) => Err("flaky linker".into()),
            (id, _) => Ok(format!("{id} done")),
        }
    }
}

/// Task hooks in code and config hooks on the runner's events, through one engine.
async fn task_hooks_and_config_hooks() -> Result<()> {
    let engine = Engine::builder()
        .config_text(
            "tasks.yaml",
            "hooks:\n  - event: TaskCreated\n    matcher: deploy\n    \
             command: \"echo 'deploys need a sign-off' >&2; exit 2\"\n",
            Format::Yaml,
            None,
        )
        .with_task_hooks(Arc::new(RetryWhileAllowed))
        .build()?;
    let runner = engine.task_runner(Arc::new(TokioTimer));
    let tasks = vec![
        Task::new("build", "Build").with_max_retries(1),
        Task::new("deploy", "Deploy").depends_on("build"),
    ];
    let report = runner.run(tasks, &Work, &CancellationToken::new()).await?;

    assert!(matches!(
        report.outcome("build"),
        Some(TaskOutcome::Completed { attempts: 2, .. })
    ));
    assert!(matches!(
        report.outcome("deploy"),
        Some(TaskOutcome::Rejected { reason }) if reason == "deploys need a sign-off"
    ));
    Ok(())
}
// ANCHOR_END: orchestration

// ANCHOR: event_sink
/// A host's own event sink: counts events, then hands them to the engine.
struct CountingSink {
    engine: Engine,
    seen: Mutex<Vec<String>>,
}

impl EventSink for CountingSink {
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate> {
        Box::pin(async move {
            if let Ok(mut seen) = self.seen.lock() {
                seen.push(ctx.event().name().to_owned());
            }
            self.engine.dispatch(&ctx).await
        })
    }
}

/// Any runner that takes an `Arc<dyn EventSink>` can feed the engine, directly
/// (`engine.event_sink()`) or through the host's own sink.
async fn custom_event_sink() -> Result<()> {
    let engine = Engine::builder().build()?;
    let sink = Arc::new(CountingSink {
        engine: engine.clone(),
        seen: Mutex::new(Vec::new()),
    });
    let runner = hooks::orchestration::TaskRunner::new(Arc::new(TokioTimer))
        .with_sink(Arc::clone(&sink) as Arc<dyn EventSink>);
    runner
        .run(vec![Task::new("t", "T")], &Work, &CancellationToken::new())
        .await?;
    let seen = sink.seen.lock().map(|s| s.clone()).unwrap_or_default();
    assert_eq!(
        seen,
        [
            "TaskCreated",
            "StageStart",
            "TaskCompleted",
            "StageComplete"
        ]
    );
    Ok(())
}
// ANCHOR_END: event_sink

// ANCHOR: reload
/// Reloading: a config that loads replaces the hooks at once; one that does not keeps them.
async fn reload_and_watch(dir: &Path) -> Result<()> {
    let file = dir.join("hooks.yaml");
    std::fs::write(&file, "hooks: []\n")?;
    let engine = Engine::builder().config_file(&file).build()?;
    let rm = EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"}));
    assert_eq!(engine.dispatch(&rm).await.effects.decision, Decision::None);

    std::fs::write(
        &file,
        "hooks:\n  - event: PreToolUse\n    matcher: Bash\n    decision: deny\n",
    )?;
    assert_eq!(engine.reload().await?, Reload::Applied { active: 1 });
    assert_eq!(engine.dispatch(&rm).await.effects.decision, Decision::Deny);

    std::fs::write(&file, "hooks:\n  - event: PreToolUze\n")?;
    let error = engine.reload().await.expect_err("an unknown event");
    assert!(error.to_string().contains("did you mean `PreToolUse`"));
    assert_eq!(engine.dispatch(&rm).await.effects.decision, Decision::Deny);

    // `watch` does the same on every change to the files, debounced, until dropped.
    let watcher = engine.watch(Duration::from_millis(200), |result| {
        if let Err(e) = result {
            eprintln!("config not reloaded: {e}");
        }
    })?;
    drop(watcher);
    Ok(())
}
// ANCHOR_END: reload

// ANCHOR: dispatcher
/// The host's model, for `prompt` hooks that ask one: here, a rule instead of a model.
struct NoSecretsModel;

#[async_trait]
impl PromptEvaluator for NoSecretsModel {
    async fn evaluate(&self, request: PromptRequest<'_>) -> Result<PromptVerdict, BoxError> {
        Ok(if request.event_json.to_string().contains(".env") {
            PromptVerdict::block("that file holds secrets")
        } else {
            PromptVerdict::ok()
        })
    }
}

/// hooks-exec without the facade: a dispatcher over hooks the host built itself, with
/// every executor and sink plugged in.
async fn dispatcher_without_the_facade(state_dir: &Path) -> Result<()> {
    let specs = vec![
        HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::Prompt(PromptAction {
                prompt: "Does this touch secrets? $ARGUMENTS".to_owned(),
                mode: PromptMode::Evaluate,
                model: None,
                max_tool_rounds: None,
                continue_on_block: false,
            }),
        )
        .with_id("secrets-check"),
    ];
    // ANCHOR: http_executor
    let http = HttpExecutor::new(HttpConfig {
        allowed_urls: Some(vec![
            "https://hooks.example.com/".into(),
            "http://127.0.0.1:8080/hook*".into(),
        ]),
        ..HttpConfig::default()
    })?;
    // ANCHOR_END: http_executor
    // ANCHOR: mcp_executor
    let mcp = McpExecutor::new([
        ("guard", McpServerConfig::stdio("node", ["guard-server.js"])),
        ("policy", McpServerConfig::http("http://127.0.0.1:3001/mcp")),
    ])?;
    // ANCHOR_END: mcp_executor
    // ANCHOR: dispatcher_builder
    let dispatcher = Dispatcher::builder()
        .index(HookIndex::new(specs))
        .command_executor(CommandExecutor::builder().env_file_dir(state_dir).build())
        .http_executor(Arc::new(http))
        .mcp_executor(Arc::new(mcp))
        .prompt_evaluator(Arc::new(NoSecretsModel))
        .audit_log(AuditLog::open(state_dir.join("audit.jsonl"))?)
        .notification_sink(Arc::new(JsonRpcSink::new(std::io::sink())))
        .build()?;
    // ANCHOR_END: dispatcher_builder

    let ctx = EventContext::pre_tool_use("Read", json!({"file_path": ".env"}));
    let outcome = dispatcher.dispatch(&ctx).await;
    assert!(outcome.is_blocked());
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("that file holds secrets")
    );
    Ok(())
}
// ANCHOR_END: dispatcher

/// Runs every part of the guide in a fresh temporary directory.
async fn all_parts() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("hooks-embedding-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("project"))?;
    let result = async {
        engine_from_config().await?;
        println!("engine: a config denied a force push and added context to a prompt");
        engine_from_files(&dir.join("project")).await?;
        println!("files: an untrusted project hook waited for trust, then ran");
        host_hooks_and_events().await?;
        println!("host hooks: a custom DeployStart event was blocked for production");
        audit_and_notifications().await?;
        println!("observe: one audit line and one JSON-RPC notification per event");
        task_hooks_and_config_hooks().await?;
        println!("orchestration: the build was retried, the deploy rejected at TaskCreated");
        custom_event_sink().await?;
        println!("event sink: the host's sink saw every event of a task run");
        reload_and_watch(&dir).await?;
        println!("reload: a good config applied, a bad one kept the last good hooks");
        dispatcher_without_the_facade(&dir).await?;
        println!("dispatcher: a prompt hook's evaluator blocked a read of .env");
        anyhow::Ok(())
    }
    .await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[tokio::main]
async fn main() -> Result<()> {
    all_parts().await
}

#[cfg(test)]
mod tests {
    /// Every part of `docs/embedding.md` runs and its assertions hold.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_part_of_the_embedding_guide_runs() {
        super::all_parts().await.unwrap();
    }
}
