//! The mcp_tool executor against real MCP servers: the npm package
//! `@modelcontextprotocol/server-everything` over stdio and streamable HTTP, an in-process
//! rmcp server over streamable HTTP on loopback, and a deliberately misbehaving stdio server
//! (`tests/fixtures/mcp/misbehaving-server.mjs`) that hangs and crashes.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use hooks_core::CancellationToken;
use hooks_core::{
    Action, BuiltinEvent, Decision, Dialect, EventContext, FailureKind, HookOutcome, HookSpec,
    HookStatus, McpToolAction,
};
use hooks_exec::{Executor, HookRun, McpExecutor, McpServerConfig};
use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    InitializeRequestParams, InitializeResult, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

use crate::loopback::{Server, free_port};

/// A generous timeout for calls that are expected to answer (node starts in ~100 ms).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// A short timeout for calls that are expected to time out.
const SHORT_TIMEOUT: Duration = Duration::from_millis(500);

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The repository root, where `npm ci` installs `node_modules`.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `node`, or a failure that says what to install. Never a silent skip.
fn node() -> &'static str {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("node").is_file()));
    assert!(
        found,
        "`node` is not on PATH: the mcp_tool tests run real MCP servers under node. \
         Install Node.js (apt-get install nodejs npm) and run `cargo xtask peers` at the repository root \
         (CI does both through .ci/run)."
    );
    "node"
}

/// The entry point of `@modelcontextprotocol/server-everything`, or a failure saying to
/// run `cargo xtask peers`.
fn everything_script() -> String {
    let script =
        repo_root().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        script.is_file(),
        "{} is missing: run `cargo xtask peers` at the repository root to install the test peers \
         (CI does it through .ci/run)",
        script.display()
    );
    script.to_str().unwrap().to_owned()
}

/// The misbehaving stdio fixture server.
fn fixture_script() -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/misbehaving-server.mjs");
    script.to_str().unwrap().to_owned()
}

/// An executor with one server called `name`.
fn executor(name: &str, config: McpServerConfig) -> McpExecutor {
    McpExecutor::new([(name, config)]).unwrap()
}

/// An mcp_tool hook on PreToolUse (an event that takes context and decisions).
fn hook(server: &str, tool: &str, input: Value) -> HookSpec {
    HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::McpTool(McpToolAction {
            server: server.to_owned(),
            tool: tool.to_owned(),
            input,
        }),
    )
    .with_dialect(Dialect::Claude)
}

fn context() -> EventContext {
    EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /", "timeout": 30}))
        .session_id("s-1")
}

/// Runs `spec` against the standard PreToolUse context.
async fn run(executor: &McpExecutor, spec: &HookSpec, timeout: Duration) -> HookOutcome {
    run_in(executor, spec, &context(), timeout).await
}

async fn run_in(
    executor: &McpExecutor,
    spec: &HookSpec,
    ctx: &EventContext,
    timeout: Duration,
) -> HookOutcome {
    let cancel = CancellationToken::new();
    executor
        .execute(HookRun {
            spec,
            ctx,
            timeout,
            cancel: &cancel,
        })
        .await
}

#[track_caller]
fn ok(outcome: &HookOutcome) {
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:#?}");
    assert!(outcome.run.failure.is_none(), "{outcome:#?}");
}

#[track_caller]
fn failure(outcome: &HookOutcome, kind: FailureKind, needle: &str) {
    let failure = outcome
        .run
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("expected a {kind:?} failure, got {outcome:#?}"));
    assert_eq!(failure.kind, kind, "{outcome:#?}");
    assert!(
        failure.message.contains(needle),
        "`{}` does not mention `{needle}`",
        failure.message
    );
}

/// The process id the fixture's `pid` tool reports.
#[track_caller]
fn pid_of(outcome: &HookOutcome) -> i32 {
    ok(outcome);
    let text = outcome.effects.additional_context.join("\n");
    text.strip_prefix("pid ")
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {outcome:#?}"))
}

/// A stdio fixture server, logging its `initialize` calls to a file in `dir`.
fn fixture(dir: &tempfile::TempDir) -> (McpExecutor, PathBuf) {
    let log = dir.path().join("initialize.log");
    let config = McpServerConfig::Stdio {
        command: node().to_owned(),
        args: vec![fixture_script()],
        env: vec![("FIXTURE_LOG".to_owned(), log.to_str().unwrap().to_owned())],
        cwd: Some(dir.path().to_owned()),
    };
    (executor("fixture", config), log)
}

/// How many `initialize` calls the fixture logged.
fn initializes(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |text| text.lines().count())
}

// ---------------------------------------------------------------------------------------
// The real third-party server: @modelcontextprotocol/server-everything
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn everything_over_stdio_echoes_the_templated_command() {
    let executor = executor(
        "everything",
        McpServerConfig::stdio(node(), [everything_script(), "stdio".to_owned()]),
    );
    let spec = hook(
        "everything",
        "echo",
        json!({"message": "{{ tool_name }} wants {{ tool_input.command }}"}),
    );
    let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
    ok(&outcome);
    // Plain text from a tool is context for the model, not a failure.
    assert_eq!(
        outcome.effects.additional_context,
        ["Echo: Bash wants rm -rf /"]
    );
    assert_eq!(outcome.effects.decision, Decision::None);

    // On an event that takes no context, the text is a message; the connection is reused.
    let stop = EventContext::new(BuiltinEvent::Notification).with("message", "idle");
    let spec = HookSpec::new(
        BuiltinEvent::Notification,
        Action::McpTool(McpToolAction {
            server: "everything".to_owned(),
            tool: "echo".to_owned(),
            input: json!({"message": "notified: {{ message }}"}),
        }),
    );
    let outcome = run_in(&executor, &spec, &stop, ANSWER_TIMEOUT).await;
    ok(&outcome);
    assert_eq!(outcome.effects.messages, ["Echo: notified: idle"]);
    assert!(outcome.effects.additional_context.is_empty());
}

#[tokio::test]
async fn everything_reports_invalid_arguments_as_a_failure() {
    let executor = executor(
        "everything",
        McpServerConfig::stdio(node(), [everything_script(), "stdio".to_owned()]),
    );
    // `message` must be a string; a whole-value reference passes the number through.
    let spec = hook(
        "everything",
        "echo",
        json!({"message": "{{ tool_input.timeout }}"}),
    );
    let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
    assert!(outcome.run.status.is_failure(), "{outcome:#?}");
    let failure = outcome.run.failure.unwrap();
    assert!(
        matches!(failure.kind, FailureKind::NonZeroExit),
        "{failure:?}"
    );
    assert!(failure.message.contains("`echo`"), "{}", failure.message);
}

/// `server-everything` in streamable HTTP mode on a free loopback port, killed on drop.
struct EverythingHttp {
    child: tokio::process::Child,
    port: u16,
}

impl EverythingHttp {
    /// Starts the server and waits, bounded, for the line saying it listens.
    async fn start() -> EverythingHttp {
        let script = everything_script();
        // A port picked by binding and releasing it can be taken in between: try a few.
        for _ in 0..5 {
            let port = free_port();
            // Tests start their own peers; the library's spawn rules do not apply here.
            #[allow(clippy::disallowed_methods)]
            let mut child = tokio::process::Command::new(node())
                .args([script.as_str(), "streamableHttp"])
                .env("PORT", port.to_string())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .kill_on_drop(true)
                .spawn()
                .unwrap();
            let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
            let ready = tokio::time::timeout(ANSWER_TIMEOUT, async {
                while let Some(line) = lines.next_line().await.unwrap() {
                    if line.contains("listening on port") {
                        return true;
                    }
                    if line.contains("already in use") {
                        return false;
                    }
                }
                false
            })
            .await
            .expect("server-everything did not say it was listening within 30 s");
            if ready {
                // Keep draining stderr so the server never blocks on a full pipe.
                tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
                return EverythingHttp { child, port };
            }
            child.kill().await.unwrap();
        }
        panic!("server-everything could not bind a free port in 5 attempts");
    }
}

#[tokio::test]
async fn everything_over_streamable_http_echoes() {
    let mut server = EverythingHttp::start().await;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let executor = executor("everything", McpServerConfig::http(url));
    let spec = hook(
        "everything",
        "echo",
        json!({"message": "{{ tool_input.command }}"}),
    );
    for _ in 0..3 {
        let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
        ok(&outcome);
        assert_eq!(outcome.effects.additional_context, ["Echo: rm -rf /"]);
    }
    executor.shutdown().await;
    server.child.kill().await.unwrap();
}

// ---------------------------------------------------------------------------------------
// An in-process rmcp server over streamable HTTP
// ---------------------------------------------------------------------------------------

/// The in-process server's tools answer hook decisions; it counts its `initialize` calls.
#[derive(Clone)]
struct Guard {
    initializes: Arc<AtomicUsize>,
    /// Told when a call to `hang` arrives.
    hanging: mpsc::UnboundedSender<()>,
}

impl ServerHandler for Guard {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        self.initializes.fetch_add(1, Ordering::SeqCst);
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = |t: &str| CallToolResult::success(vec![ContentBlock::text(t)]);
        let result = match request.name.as_ref() {
            "deny" => text(r#"{"decision": "deny", "reason": "rm -rf is not allowed"}"#),
            "rewrite" => CallToolResult::structured(json!({
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "updatedInput": {"command": "ls"},
                },
            })),
            "continue_false" => text(r#"{"continue": false, "stopReason": "budget spent"}"#),
            "plain" => text("looks fine to me"),
            "two_texts" => CallToolResult::success(vec![
                ContentBlock::text("first"),
                ContentBlock::text("second"),
            ]),
            "empty" => CallToolResult::success(Vec::new()),
            "broken_json" => text(r#"{"decision": "#),
            "error" => CallToolResult::error(vec![ContentBlock::text("policy store unreachable")]),
            "arguments" => {
                let args = Value::Object(request.arguments.unwrap_or_default());
                text(&json!({"additionalContext": args.to_string()}).to_string())
            }
            "hang" => {
                let _ = self.hanging.send(());
                std::future::pending::<CallToolResult>().await
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool {other}"),
                    None,
                ));
            }
        };
        Ok(CallToolResponse::Complete(result))
    }
}

/// A running in-process server and what it observed.
struct InProcess {
    server: Server,
    initializes: Arc<AtomicUsize>,
    hanging: mpsc::UnboundedReceiver<()>,
    /// The `Authorization` header of every HTTP request, in order.
    authorization: Arc<std::sync::Mutex<Vec<Option<String>>>>,
}

impl InProcess {
    async fn start() -> InProcess {
        let initializes = Arc::new(AtomicUsize::new(0));
        let (hanging_tx, hanging) = mpsc::unbounded_channel();
        let guard = Guard {
            initializes: Arc::clone(&initializes),
            hanging: hanging_tx,
        };
        let service: StreamableHttpService<Guard, LocalSessionManager> = StreamableHttpService::new(
            move || Ok(guard.clone()),
            Default::default(),
            StreamableHttpServerConfig::default().with_sse_keep_alive(None),
        );
        let authorization = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = Arc::clone(&authorization);
        let record = axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let header = request.headers().get("authorization");
                let value = header.map(|v| v.to_str().unwrap().to_owned());
                seen.lock().unwrap().push(value);
                next.run(request)
            },
        );
        let router = Router::new().nest_service("/mcp", service).layer(record);
        let server = Server::start(router).await;
        InProcess {
            server,
            initializes,
            hanging,
            authorization,
        }
    }

    fn executor(&self) -> McpExecutor {
        executor("guard", McpServerConfig::http(self.server.url("/mcp")))
    }

    fn initializes(&self) -> usize {
        self.initializes.load(Ordering::SeqCst)
    }
}

/// Calls `tool` on the in-process server and snapshots the whole outcome.
#[track_caller]
fn check(tool: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut outcome = runtime.block_on(async {
        let server = InProcess::start().await;
        let executor = server.executor();
        let outcome = run(&executor, &hook("guard", tool, Value::Null), ANSWER_TIMEOUT).await;
        executor.shutdown().await;
        outcome
    });
    assert!(
        outcome.run.duration.take().is_some(),
        "the executor records a duration"
    );
    insta::assert_json_snapshot!(format!("mcp_{tool}"), outcome);
}

#[test]
fn result_json_text_deny() {
    check("deny");
}

#[test]
fn result_structured_content_rewrite() {
    check("rewrite");
}

#[test]
fn result_continue_false() {
    check("continue_false");
}

#[test]
fn result_plain_text_is_context() {
    check("plain");
}

#[test]
fn result_text_items_are_joined() {
    check("two_texts");
}

#[test]
fn result_empty_is_success() {
    check("empty");
}

#[test]
fn result_broken_json_is_malformed() {
    check("broken_json");
}

#[test]
fn result_is_error_is_a_failure() {
    check("error");
}

#[test]
fn result_unknown_tool_is_a_failure() {
    check("no_such_tool");
}

#[tokio::test]
async fn one_connection_is_shared_by_sequential_and_concurrent_calls() {
    let server = InProcess::start().await;
    let executor = server.executor();
    let spec = hook("guard", "deny", Value::Null);
    assert_eq!(
        server.initializes(),
        0,
        "nothing connects before the first call"
    );
    for _ in 0..5 {
        let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
        assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    }
    let concurrent = (0..8).map(|_| run(&executor, &spec, ANSWER_TIMEOUT));
    for outcome in futures_util::future::join_all(concurrent).await {
        assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    }
    assert_eq!(server.initializes(), 1, "13 calls, one MCP session");
    executor.shutdown().await;
}

#[tokio::test]
async fn concurrent_first_calls_open_one_connection() {
    let server = InProcess::start().await;
    let executor = server.executor();
    let spec = hook("guard", "deny", Value::Null);
    let first = (0..6).map(|_| run(&executor, &spec, ANSWER_TIMEOUT));
    for outcome in futures_util::future::join_all(first).await {
        assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    }
    assert_eq!(server.initializes(), 1);
}

#[tokio::test]
async fn http_server_headers_are_sent_with_every_request() {
    let server = InProcess::start().await;
    let config = McpServerConfig::Http {
        url: server.server.url("/mcp"),
        headers: vec![("Authorization".to_owned(), "Bearer t0ken".to_owned())],
    };
    let executor = executor("guard", config);
    for _ in 0..2 {
        let outcome = run(
            &executor,
            &hook("guard", "deny", Value::Null),
            ANSWER_TIMEOUT,
        )
        .await;
        assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    }
    let seen = server.authorization.lock().unwrap().clone();
    // initialize, initialized, two calls, and possibly the event stream's GET.
    assert!(seen.len() >= 4, "{seen:?}");
    assert!(
        seen.iter().all(|v| v.as_deref() == Some("Bearer t0ken")),
        "{seen:?}"
    );
}

#[tokio::test]
async fn arguments_are_templated_from_the_event() {
    let server = InProcess::start().await;
    let executor = server.executor();
    let input = json!({
        "tool": "{{ tool_name }}",
        "input": "{{ tool_input }}",
        "line": "{{ hook_event_name }}: {{ tool_input.command }} ({{ tool_input.timeout }}s)",
        "missing": "{{ tool_input.file_path }}",
        "literal": 7,
    });
    let outcome = run(
        &executor,
        &hook("guard", "arguments", input),
        ANSWER_TIMEOUT,
    )
    .await;
    ok(&outcome);
    let received: Value = serde_json::from_str(&outcome.effects.additional_context[0]).unwrap();
    assert_eq!(
        received,
        json!({
            "tool": "Bash",
            "input": {"command": "rm -rf /", "timeout": 30},
            "line": "PreToolUse: rm -rf / (30s)",
            "missing": null,
            "literal": 7,
        })
    );
}

#[tokio::test]
async fn a_tool_that_never_answers_times_out() {
    let server = InProcess::start().await;
    let executor = server.executor();
    // Connect first, so the short timeout is spent on the call alone.
    let outcome = run(
        &executor,
        &hook("guard", "deny", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    let outcome = run(
        &executor,
        &hook("guard", "hang", Value::Null),
        SHORT_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Timeout,
        "did not answer `hang` within 500ms",
    );
    assert_eq!(outcome.run.status, HookStatus::TimedOut);
    // The timed-out connection was retired: the next call opens a new session.
    let outcome = run(
        &executor,
        &hook("guard", "deny", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    assert_eq!(server.initializes(), 2);
}

#[tokio::test]
async fn cancellation_ends_a_call() {
    let mut server = InProcess::start().await;
    let executor = server.executor();
    let spec = hook("guard", "hang", Value::Null);
    let ctx = context();
    let cancel = CancellationToken::new();
    let running = executor.execute(HookRun {
        spec: &spec,
        ctx: &ctx,
        timeout: ANSWER_TIMEOUT,
        cancel: &cancel,
    });
    let cancel_when_hanging = async {
        server.hanging.recv().await.unwrap();
        cancel.cancel();
    };
    let (outcome, ()) = tokio::join!(running, cancel_when_hanging);
    failure(
        &outcome,
        FailureKind::Cancelled,
        "cancelled while calling `hang`",
    );
}

#[tokio::test]
async fn an_http_server_that_is_gone_is_a_transport_failure() {
    let url = format!("http://127.0.0.1:{}/mcp", free_port());
    let executor = executor("gone", McpServerConfig::http(url.as_str()));
    let outcome = run(
        &executor,
        &hook("gone", "deny", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Transport,
        &format!("could not connect to MCP server `gone` at {url}"),
    );
}

// ---------------------------------------------------------------------------------------
// The misbehaving stdio server: crashes, hangs, restarts
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_stdio_connection_is_reused_across_calls() {
    let dir = tempfile::tempdir().unwrap();
    let (executor, log) = fixture(&dir);
    let spec = hook("fixture", "pid", Value::Null);
    let first = pid_of(&run(&executor, &spec, ANSWER_TIMEOUT).await);
    for _ in 0..4 {
        assert_eq!(pid_of(&run(&executor, &spec, ANSWER_TIMEOUT).await), first);
    }
    assert_eq!(initializes(&log), 1);
}

#[tokio::test]
async fn a_killed_server_is_restarted_by_the_next_call() {
    let dir = tempfile::tempdir().unwrap();
    let (executor, log) = fixture(&dir);
    let spec = hook("fixture", "pid", Value::Null);
    let first = pid_of(&run(&executor, &spec, ANSWER_TIMEOUT).await);
    let pid = rustix::process::Pid::from_raw(first).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();

    // The executor may notice the dead process before the call (and reconnect at once)
    // or on the call (a transport failure, and the call after reconnects).
    let mut outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
    if outcome.run.status.is_failure() {
        failure(&outcome, FailureKind::Transport, "MCP server `fixture`");
        outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
    }
    let second = pid_of(&outcome);
    assert_ne!(first, second, "a new server process");
    assert_eq!(initializes(&log), 2);
}

#[tokio::test]
async fn a_crash_mid_call_fails_the_call_and_the_next_call_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let (executor, log) = fixture(&dir);
    let before = pid_of(
        &run(
            &executor,
            &hook("fixture", "pid", Value::Null),
            ANSWER_TIMEOUT,
        )
        .await,
    );
    let outcome = run(
        &executor,
        &hook("fixture", "crash", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Transport,
        "broke off the call to `crash`",
    );
    failure(
        &outcome,
        FailureKind::Transport,
        "fixture: crashing on purpose",
    );
    let after = pid_of(
        &run(
            &executor,
            &hook("fixture", "pid", Value::Null),
            ANSWER_TIMEOUT,
        )
        .await,
    );
    assert_ne!(before, after);
    assert_eq!(initializes(&log), 2);
}

#[tokio::test]
async fn a_hanging_stdio_tool_times_out_and_the_server_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let (executor, log) = fixture(&dir);
    let before = pid_of(
        &run(
            &executor,
            &hook("fixture", "pid", Value::Null),
            ANSWER_TIMEOUT,
        )
        .await,
    );
    let outcome = run(
        &executor,
        &hook("fixture", "hang", Value::Null),
        SHORT_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Timeout,
        "did not answer `hang` within 500ms",
    );
    let after = pid_of(
        &run(
            &executor,
            &hook("fixture", "pid", Value::Null),
            ANSWER_TIMEOUT,
        )
        .await,
    );
    assert_ne!(before, after, "the wedged server was replaced");
    assert_eq!(initializes(&log), 2);
}

#[tokio::test]
async fn fixture_answers_decisions_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (executor, _log) = fixture(&dir);
    let deny = json!({"answer": {"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "{{ tool_input.command }} is destructive",
    }}});
    let outcome = run(&executor, &hook("fixture", "answer", deny), ANSWER_TIMEOUT).await;
    assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("rm -rf / is destructive")
    );
    let outcome = run(
        &executor,
        &hook("fixture", "fail", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::NonZeroExit,
        "reported an error: the guard is broken",
    );
    let outcome = run(
        &executor,
        &hook("fixture", "nope", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::NonZeroExit,
        "error -32602: unknown tool nope",
    );
}

#[tokio::test]
async fn a_server_that_never_answers_the_handshake_times_out() {
    let executor = executor("silent", McpServerConfig::stdio("sleep", ["1000"]));
    let outcome = run(
        &executor,
        &hook("silent", "deny", Value::Null),
        SHORT_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Timeout,
        "MCP server `silent` did not answer",
    );
}

#[tokio::test]
async fn a_server_that_exits_at_once_is_a_transport_failure_with_its_stderr() {
    let config = McpServerConfig::stdio("sh", ["-c", "echo 'no config file' >&2; exit 1"]);
    let executor = executor("broken", config);
    let outcome = run(
        &executor,
        &hook("broken", "deny", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Transport,
        "MCP server `broken` failed to initialize",
    );
    failure(&outcome, FailureKind::Transport, "no config file");
}

#[tokio::test]
async fn a_missing_program_is_a_spawn_failure() {
    let executor = executor(
        "ghost",
        McpServerConfig::stdio("/nonexistent/mcp-server", ["x"]),
    );
    let outcome = run(
        &executor,
        &hook("ghost", "deny", Value::Null),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Spawn,
        "could not start MCP server `ghost`",
    );
}

// ---------------------------------------------------------------------------------------
// Configuration and hook mistakes
// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn an_unknown_server_or_a_non_object_input_is_reported() {
    let executor = executor("one", McpServerConfig::stdio("sleep", ["1000"]));
    let outcome = run(&executor, &hook("two", "x", Value::Null), ANSWER_TIMEOUT).await;
    failure(
        &outcome,
        FailureKind::Spawn,
        "no MCP server named `two` (configured: one)",
    );
    let outcome = run(&executor, &hook("one", "x", json!(["a"])), ANSWER_TIMEOUT).await;
    failure(
        &outcome,
        FailureKind::Spawn,
        "must be a JSON object, got an array",
    );
    let outcome = run(
        &executor,
        &hook("one", "x", json!("{{ tool_name }}")),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Spawn,
        "must be a JSON object, got a string",
    );
    let other = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true"));
    let outcome = run(&executor, &other, ANSWER_TIMEOUT).await;
    failure(&outcome, FailureKind::Spawn, "cannot run a command hook");
}

#[track_caller]
fn check_config_error(config: McpServerConfig, message: &str) {
    let error = McpExecutor::new([("s", config)]).unwrap_err();
    assert_eq!(error.to_string(), message);
}

#[test]
fn invalid_server_entries_are_errors() {
    check_config_error(
        McpServerConfig::stdio(" ", Vec::<String>::new()),
        "MCP server `s`: the command is empty",
    );
    check_config_error(
        McpServerConfig::http("localhost:3001/mcp"),
        "MCP server `s`: unsupported URL scheme `localhost`",
    );
    check_config_error(
        McpServerConfig::http("not a url"),
        "MCP server `s`: invalid URL `not a url`: relative URL without a base",
    );
    check_config_error(
        McpServerConfig::Http {
            url: "http://127.0.0.1:1/mcp".to_owned(),
            headers: vec![("Bad Name".to_owned(), "x".to_owned())],
        },
        "MCP server `s`: invalid header name `Bad Name`",
    );
}

/// One step of [`servers_can_be_replaced_and_withheld`]: the servers, the withheld ones,
/// and what the call gives (the tool's text, or a failure and its words).
type Step = (
    Vec<(&'static str, McpServerConfig)>,
    Vec<(String, String)>,
    Result<&'static str, (FailureKind, &'static str)>,
);

/// `set_servers` replaces the servers while the executor runs (what an engine's reload
/// does): a server added is called, a removed one is unknown, and a withheld one says why.
#[tokio::test]
async fn servers_can_be_replaced_and_withheld() {
    let executor = McpExecutor::new(Vec::<(String, McpServerConfig)>::new()).unwrap();
    let spec = hook("everything", "echo", json!({"message": "hi"}));
    let everything = McpServerConfig::stdio(node(), [everything_script(), "stdio".to_owned()]);
    let steps: [Step; 3] = [
        (
            Vec::new(),
            vec![(
                "everything".to_owned(),
                "its file is not trusted".to_owned(),
            )],
            Err((
                FailureKind::Refused,
                "is not started: its file is not trusted",
            )),
        ),
        (vec![("everything", everything)], Vec::new(), Ok("Echo: hi")),
        (
            Vec::new(),
            Vec::new(),
            Err((FailureKind::Spawn, "no MCP servers are configured")),
        ),
    ];
    for (servers, withheld, expected) in steps {
        executor.set_servers(servers).await.unwrap();
        executor.set_withheld(withheld);
        let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
        match expected {
            Ok(text) => {
                ok(&outcome);
                assert_eq!(outcome.effects.additional_context, [text]);
            }
            Err((kind, needle)) => failure(&outcome, kind, needle),
        }
    }
}
