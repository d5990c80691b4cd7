//! echo-agent as its users run it: the seed's YAML hooks and its Rust task and subagent
//! hooks through one engine, the task runner and the subagent dispatcher, with real command
//! hooks (child processes).

// The seed's hooks print what they see.
#![allow(clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use hooks::Engine;
use hooks::core::EventContext;
use hooks::orchestration::{
    BoxError, CancellationToken, Error, ExecutionMode, RetryDecision, SubagentHookContext,
    SubagentHooks, SubagentRequest, SubagentResult, SubagentRetryDecision, SubagentRun,
    SubagentRunner, Task, TaskExecutor, TaskHookContext, TaskHooks, TaskOutcome, TokioTimer,
    async_trait,
};
use serde_json::{Value, json};

/// Every test here is bounded: hooks are short shell commands, delays are capped.
const BOUND: Duration = Duration::from_secs(30);

/// Writes `text` (with `{dir}` replaced by the directory) to `dir/name` and builds an
/// engine on that file, as `-c name` would, with the seed's task and subagent hooks.
fn engine(dir: &Path, name: &str, text: &str) -> Engine {
    let path = dir.join(name);
    std::fs::write(&path, text.replace("{dir}", &dir.display().to_string())).unwrap();
    let engine = Engine::builder()
        .config_file(&path)
        .with_task_hooks(Arc::new(LoggingHooks))
        .with_subagent_hooks(Arc::new(MySubagentHooks))
        .build()
        .unwrap();
    let loaded = engine.loaded();
    assert!(loaded.broken.is_empty(), "{:?}", loaded.broken);
    assert!(!loaded.hooks.hooks().is_empty(), "{name} loaded no hook");
    engine
}

/// The JSON a command hook wrote with `cat > {dir}/stdin.json`.
fn stdin_of(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("stdin.json")).expect("the hook ran");
    serde_json::from_str(&text).unwrap()
}

// The seed's task and subagent hooks (`echo-agent-hooks.md`), as written but for the
// imports (and `_` on the parameters they do not read). The harness captures what they print.

struct LoggingHooks;

#[async_trait]
impl TaskHooks for LoggingHooks {
    async fn before_execute(&self, ctx: &TaskHookContext) {
        println!("Starting task: {}", ctx.task.subject);
    }
    async fn after_execute(&self, ctx: &TaskHookContext, result: &str) {
        println!("Completed: {} -> {}", ctx.task.subject, result);
    }
    async fn on_failure(&self, ctx: &TaskHookContext, _error: &str) -> RetryDecision {
        if ctx.task.retry_count < ctx.task.max_retries {
            RetryDecision::Retry { delay_secs: 1 }
        } else {
            RetryDecision::Fail
        }
    }
}

struct MySubagentHooks;

#[async_trait]
impl SubagentHooks for MySubagentHooks {
    async fn before_dispatch(&self, ctx: &SubagentHookContext) {
        println!("Dispatching to: {}", ctx.subagent_name);
    }
    async fn after_dispatch(&self, ctx: &SubagentHookContext, _result: &SubagentResult) {
        println!("Completed: {}", ctx.subagent_name);
    }
    async fn on_failure(&self, _ctx: &SubagentHookContext, _error: &str) -> SubagentRetryDecision {
        SubagentRetryDecision::Retry { delay_secs: 2 }
    }
}

/// Makes the error a failed attempt returns.
type MakeError = fn() -> BoxError;

/// The host's work: fails the first `fail_first` attempts with `error()`, then answers;
/// records the context each attempt was given.
struct Work {
    fail_first: u32,
    error: MakeError,
    seen: Mutex<Vec<Vec<String>>>,
}

impl Work {
    fn new(fail_first: u32) -> Work {
        Work::failing(fail_first, || "flaked".into())
    }

    fn failing(fail_first: u32, error: MakeError) -> Work {
        Work {
            fail_first,
            error,
            seen: Mutex::new(Vec::new()),
        }
    }

    fn answer(&self, attempt: u32, context: &[String], output: String) -> Result<String, BoxError> {
        self.seen.lock().unwrap().push(context.to_vec());
        if attempt <= self.fail_first {
            Err((self.error)())
        } else {
            Ok(output)
        }
    }
}

#[async_trait]
impl TaskExecutor for Work {
    async fn execute(
        &self,
        ctx: &TaskHookContext,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        let output = format!("{} done", ctx.task.id);
        self.answer(ctx.attempt, &ctx.additional_context, output)
    }
}

#[async_trait]
impl SubagentRunner for Work {
    async fn run(
        &self,
        run: &SubagentRun,
        _cancel: &CancellationToken,
    ) -> Result<String, BoxError> {
        let output = format!("{} answer", run.context.subagent_name);
        self.answer(run.context.attempt, &run.additional_context, output)
    }
}

/// Runs one task, `build`, to its report line, with retry delays capped so that the
/// seed's one-second delays cost milliseconds.
async fn run_task(engine: &Engine, work: &Work) -> hooks::orchestration::TaskReport {
    let runner = engine
        .task_runner(Arc::new(TokioTimer))
        .with_max_retry_delay(Duration::from_millis(5));
    let cancel = CancellationToken::new();
    let run = runner.run(vec![Task::new("build", "Build")], work, &cancel);
    let report = tokio::time::timeout(BOUND, run).await.unwrap().unwrap();
    report.tasks.into_iter().next().unwrap()
}

/// Dispatches `reviewer` once, with retry delays capped like [`run_task`]'s.
async fn dispatch(engine: &Engine, work: Arc<Work>) -> Result<SubagentResult, Error> {
    let dispatcher = engine
        .subagent_dispatcher(work, Arc::new(TokioTimer))
        .with_max_retry_delay(Duration::from_millis(5));
    let request = SubagentRequest::new("main", "reviewer", ExecutionMode::Sync, "review");
    tokio::time::timeout(
        BOUND,
        dispatcher.dispatch(request, &CancellationToken::new()),
    )
    .await
    .unwrap()
}

// --- timestamp -------------------------------------------------------------------------

/// Where the event comes from.
#[derive(Clone, Copy, Debug)]
enum Emit {
    /// The host dispatches PreToolUse for Bash, with or without its own `timestamp`.
    Host(Option<&'static str>),
    /// The task runner's TaskCreated.
    TaskRunner,
    /// The subagent dispatcher's SubagentStop.
    Dispatcher,
}

/// What the hook's stdin has as `timestamp`.
#[derive(Clone, Copy, Debug)]
enum Stamp {
    /// The dispatch time, RFC 3339.
    Now,
    /// The host's own.
    Kept(&'static str),
    /// None at all.
    Absent,
}

const ECHO_PRE_TOOL: &str = r#"hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "cat > {dir}/stdin.json"
          timeout: 5
"#;

const ECHO_TASK_CREATED: &str = r#"hooks:
  TaskCreated:
    - hooks:
        - type: command
          command: "cat > {dir}/stdin.json"
"#;

const ECHO_SUBAGENT_STOP: &str = r#"hooks:
  SubagentStop:
    - hooks:
        - type: command
          command: "cat > {dir}/stdin.json"
"#;

const CLAUDE_PRE_TOOL: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash",
  "hooks": [{"type": "command", "command": "cat > {dir}/stdin.json"}]}]}}"#;

const NATIVE_PRE_TOOL: &str = r#"hooks:
  - event: PreToolUse
    matcher: Bash
    command: "cat > {dir}/stdin.json"
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_agent_hooks_get_a_timestamp() {
    #[rustfmt::skip]
    let cases: &[(&str, &str, Emit, Stamp)] = &[
        // The seed's own example: the host sends none, the hook gets now.
        ("echo-agent.yaml", ECHO_PRE_TOOL, Emit::Host(None), Stamp::Now),
        ("echo-agent.yaml", ECHO_PRE_TOOL, Emit::Host(Some("2026-05-29T10:30:00Z")), Stamp::Kept("2026-05-29T10:30:00Z")),
        ("SKILL.md", &format!("---\nname: guard\n{ECHO_PRE_TOOL}---\nA skill.\n"), Emit::Host(None), Stamp::Now),
        ("echo-agent.yaml", ECHO_TASK_CREATED, Emit::TaskRunner, Stamp::Now),
        ("echo-agent.yaml", ECHO_SUBAGENT_STOP, Emit::Dispatcher, Stamp::Now),
        // Dialects that document no timestamp keep their input as it was.
        ("settings.json", CLAUDE_PRE_TOOL, Emit::Host(None), Stamp::Absent),
        ("hooks.yaml", NATIVE_PRE_TOOL, Emit::Host(None), Stamp::Absent),
        ("hooks.yaml", NATIVE_PRE_TOOL, Emit::Host(Some("2026-05-29T10:30:00Z")), Stamp::Kept("2026-05-29T10:30:00Z")),
    ];
    for &(name, text, emit, expect) in cases {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path(), name, text);
        let before = SystemTime::now();
        match emit {
            Emit::Host(ts) => {
                let mut ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls -la"}))
                    .session_id("abc123");
                if let Some(ts) = ts {
                    ctx = ctx.timestamp(ts);
                }
                tokio::time::timeout(BOUND, engine.dispatch(&ctx))
                    .await
                    .unwrap();
            }
            Emit::TaskRunner => {
                run_task(&engine, &Work::new(0)).await;
            }
            Emit::Dispatcher => {
                dispatch(&engine, Arc::new(Work::new(0))).await.unwrap();
            }
        }
        let after = SystemTime::now();
        let stdin = stdin_of(dir.path());
        let got = stdin.get("timestamp").and_then(Value::as_str);
        let case = format!("{name} {emit:?}: {stdin}");
        match expect {
            Stamp::Now => {
                let at = humantime::parse_rfc3339(got.expect(&case)).expect(&case);
                // The stamp has millisecond precision: allow for the truncation.
                assert!(
                    at + Duration::from_millis(1) >= before && at <= after,
                    "{case}"
                );
            }
            Stamp::Kept(ts) => assert_eq!(got, Some(ts), "{case}"),
            Stamp::Absent => assert_eq!(got, None, "{case}"),
        }
        if let Emit::Host(_) = emit
            && name != "hooks.yaml"
            && name != "settings.json"
        {
            // The rest of the seed's documented input.
            assert_eq!(stdin["event"], "PreToolUse", "{case}");
            assert_eq!(stdin["tool_name"], "Bash", "{case}");
            assert_eq!(stdin["tool_input"], json!({"command": "ls -la"}), "{case}");
            assert_eq!(stdin["session_id"], "abc123", "{case}");
        }
    }
}

// --- context and result injection --------------------------------------------------------

/// What reached the host: the context the task's executor saw, the report's
/// `created_context` and `completed_context`, the context the subagent runner saw, and
/// the subagent result's `additional_context`.
#[derive(Debug, Default, PartialEq, Eq)]
struct Delivered {
    executor: Vec<String>,
    created: Vec<String>,
    completed: Vec<String>,
    subagent_runner: Vec<String>,
    subagent_result: Vec<String>,
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_task_and_subagent_hooks_reaches_the_host() {
    let command = |event: &str, script: &str| {
        format!(
            "hooks:\n  {event}:\n    - hooks:\n        - type: command\n          command: {script:?}\n"
        )
    };
    let prompt = |event: &str, text: &str| {
        format!(
            "hooks:\n  {event}:\n    - hooks:\n        - type: prompt\n          prompt: {text:?}\n"
        )
    };
    let json_context = r#"echo '{"additionalContext": "tests passed"}'"#;
    #[rustfmt::skip]
    let cases: Vec<(String, Delivered)> = vec![
        (command("TaskCreated", "echo 'use bun, not npm'"), Delivered {
            executor: strings(&["use bun, not npm"]), created: strings(&["use bun, not npm"]), ..Delivered::default() }),
        (prompt("TaskCreated", "Remember to use bun, not npm."), Delivered {
            executor: strings(&["Remember to use bun, not npm."]), created: strings(&["Remember to use bun, not npm."]), ..Delivered::default() }),
        (command("TaskCompleted", json_context), Delivered {
            completed: strings(&["tests passed"]), ..Delivered::default() }),
        (prompt("TaskCompleted", "Summarise the build log."), Delivered {
            completed: strings(&["Summarise the build log."]), ..Delivered::default() }),
        (command("SubagentStop", json_context), Delivered {
            subagent_result: strings(&["tests passed"]), ..Delivered::default() }),
        (prompt("SubagentStop", "Check the review for missed files."), Delivered {
            subagent_result: strings(&["Check the review for missed files."]), ..Delivered::default() }),
        // SubagentStart's context already went to the runner; it stays there.
        (prompt("SubagentStart", "Review only src/."), Delivered {
            subagent_runner: strings(&["Review only src/."]), ..Delivered::default() }),
    ];
    for (config, expect) in cases {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path(), "echo-agent.yaml", &config);
        let work = Work::new(0);
        let report = run_task(&engine, &work).await;
        assert!(
            matches!(report.outcome, TaskOutcome::Completed { .. }),
            "{config}"
        );
        let runner = Arc::new(Work::new(0));
        let result = dispatch(&engine, Arc::clone(&runner)).await.unwrap();
        let got = Delivered {
            executor: work.seen.lock().unwrap().concat(),
            created: report.created_context,
            completed: report.completed_context,
            subagent_runner: runner.seen.lock().unwrap().concat(),
            subagent_result: result.additional_context,
        };
        assert_eq!(got, expect, "{config}");
    }
}

// --- Retry retries -----------------------------------------------------------------------

/// Counts the dispatches a real SubagentStart command hook saw.
const COUNT_STARTS: &str = r#"hooks:
  SubagentStart:
    - matcher: "reviewer"
      hooks:
        - type: command
          command: "echo start >> {dir}/starts"
"#;

fn starts(dir: &Path) -> usize {
    let path: PathBuf = dir.join("starts");
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeds_retry_hooks_re_dispatch_within_the_default_bound() {
    // (failed attempts before success, attempts the subagent gets, whether it answers)
    let cases: &[(u32, u32, bool)] = &[
        (0, 1, true),
        (1, 2, true),
        (3, 4, true),
        // The default bound, three retries, holds whatever the hook answers.
        (4, 4, false),
        (9, 4, false),
    ];
    for &(fail_first, attempts, answers) in cases {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path(), "echo-agent.yaml", COUNT_STARTS);
        let result = dispatch(&engine, Arc::new(Work::new(fail_first))).await;
        let case = format!("failing {fail_first} times: {result:?}");
        match result {
            Ok(result) => {
                assert!(answers, "{case}");
                assert_eq!(result.attempts, attempts, "{case}");
                assert_eq!(result.output, "reviewer answer", "{case}");
            }
            Err(Error::SubagentFailed {
                attempts: made,
                error,
                ..
            }) => {
                assert!(!answers, "{case}");
                assert_eq!(made, attempts, "{case}");
                assert_eq!(error, "flaked", "{case}");
            }
            Err(other) => panic!("{case}: {other}"),
        }
        assert_eq!(starts(dir.path()), attempts as usize, "{case}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeds_task_hooks_retry_within_the_default_bound() {
    // (failed attempts before success, the outcome)
    let cases: &[(u32, TaskOutcome)] = &[
        (
            0,
            TaskOutcome::Completed {
                output: "build done".into(),
                attempts: 1,
            },
        ),
        (
            2,
            TaskOutcome::Completed {
                output: "build done".into(),
                attempts: 3,
            },
        ),
        (
            3,
            TaskOutcome::Completed {
                output: "build done".into(),
                attempts: 4,
            },
        ),
        (
            4,
            TaskOutcome::Failed {
                error: "flaked".into(),
                attempts: 4,
            },
        ),
    ];
    for (fail_first, expect) in cases {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path(), "echo-agent.yaml", ECHO_TASK_CREATED);
        let work = Work::new(*fail_first);
        let report = run_task(&engine, &work).await;
        assert_eq!(&report.outcome, expect, "failing {fail_first} times");
        // TaskCreated ran once, through a real hook, with the default bound in its input.
        assert_eq!(stdin_of(dir.path())["max_retries"], 3);
    }
}

// --- the work traits' errors ---------------------------------------------------------------

/// An error with a source, as a host's own error type would be.
#[derive(Debug)]
struct ReviewFailed(std::io::Error);

impl std::fmt::Display for ReviewFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the review failed")
    }
}

impl std::error::Error for ReviewFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

fn io_error() -> BoxError {
    std::fs::read("/nonexistent/echo-agent/diff")
        .unwrap_err()
        .into()
}

fn host_error() -> BoxError {
    Box::new(ReviewFailed(std::io::Error::other(
        "context window exceeded",
    )))
}

fn anyhow_error() -> BoxError {
    anyhow::anyhow!("rate limited")
        .context("the model call failed")
        .into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runners_error_reaches_hooks_with_its_sources() {
    let cases: &[(MakeError, &str)] = &[
        (|| "flaked".into(), "flaked"),
        (|| format!("exit status {}", 3).into(), "exit status 3"),
        (io_error, "No such file or directory (os error 2)"),
        (host_error, "the review failed: context window exceeded"),
        (anyhow_error, "the model call failed: rate limited"),
    ];
    for &(error, text) in cases {
        let dir = tempfile::tempdir().unwrap();
        let engine = engine(dir.path(), "echo-agent.yaml", ECHO_SUBAGENT_STOP);
        // Fails every attempt; the last SubagentStop's input is what the file holds.
        let result = dispatch(&engine, Arc::new(Work::failing(u32::MAX, error))).await;
        let Err(Error::SubagentFailed { error: got, .. }) = result else {
            panic!("{result:?}");
        };
        assert_eq!(got, text);
        assert_eq!(stdin_of(dir.path())["error"], text);
    }
}
