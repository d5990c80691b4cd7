//! The reliability suite's misbehaving peers, through the [`Dispatcher`] with fail-closed
//! hooks: an MCP server that crashes mid-call, one whose tool never answers, one that never
//! answers the handshake, and an HTTP server that stalls after its headers. Each test
//! asserts the outcome under the failure policy, that the next event is answered (the
//! connection is replaced, the pool is not poisoned), and that no server process is left.
//!
//! The executors' own tests of these peers are in `mcp.rs` and `http.rs`.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::Response;
use axum::routing::post;
use hooks_core::{
    Action, Aggregate, BuiltinEvent, Decision, Dialect, EventContext, FailurePolicy, HookIndex,
    HookSpec, HttpAction, McpToolAction,
};
use hooks_exec::{Dispatcher, HttpConfig, HttpExecutor, McpExecutor, McpServerConfig};
use serde_json::{Value, json};

use crate::loopback::Server;
use crate::reliability::Leftovers;

/// What a well-behaved peer answers: deny, with a reason.
const DENY: &str = r#"{"decision":"deny","reason":"peer answered"}"#;

fn context() -> EventContext {
    EventContext::pre_tool_use("Bash", json!({"command": "ls"})).session_id("s-1")
}

/// A fail-closed hook running `action`, with `timeout`.
fn hook(action: Action, timeout: Duration) -> HookSpec {
    HookSpec::new(BuiltinEvent::PreToolUse, action)
        .with_dialect(Dialect::Claude)
        .with_on_failure(FailurePolicy::Block)
        .with_timeout(timeout)
}

fn mcp_hook(server: &str, tool: &str, input: Value, timeout: Duration) -> HookSpec {
    hook(
        Action::McpTool(McpToolAction {
            server: server.to_owned(),
            tool: tool.to_owned(),
            input,
        }),
        timeout,
    )
}

/// Dispatches one event to `spec` alone through a dispatcher around `executor`.
async fn dispatch_mcp(executor: &Arc<McpExecutor>, spec: HookSpec) -> Aggregate {
    let dispatcher = Dispatcher::builder()
        .index(HookIndex::new(vec![spec]))
        .mcp_executor(Arc::clone(executor) as Arc<dyn hooks_exec::Executor>)
        .build()
        .unwrap();
    dispatcher.dispatch(&context()).await
}

/// Checks a fail-closed hook's failure blocked the event: `kind`, and `needle` in its
/// message.
#[track_caller]
fn blocked_by_failure(agg: &Aggregate, status: &str, kind: &str, needle: &str) {
    assert_eq!(agg.effects.decision, Decision::Block, "{agg:#?}");
    let hook = &agg.hooks[0];
    assert_eq!(hook.run.status.as_str(), status, "{agg:#?}");
    let failure = hook.run.failure.as_ref().unwrap();
    assert_eq!(failure.kind.as_str(), kind, "{agg:#?}");
    assert!(
        failure.message.contains(needle),
        "`{needle}` not in {}",
        failure.message
    );
}

/// The misbehaving stdio fixture server, under node, marked for the leftovers check.
fn fixture(guard: &Leftovers) -> Arc<McpExecutor> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mcp/misbehaving-server.mjs");
    let config = McpServerConfig::Stdio {
        command: "node".to_owned(),
        args: vec![script.to_str().unwrap().to_owned()],
        env: vec![guard.env()],
        cwd: None,
    };
    Arc::new(McpExecutor::new([("fixture", config)]).unwrap())
}

fn deny_call(timeout: Duration) -> HookSpec {
    mcp_hook("fixture", "answer", json!({ "answer": DENY }), timeout)
}

/// Long enough for node to start on a loaded machine.
const PATIENT: Duration = Duration::from_secs(30);
/// For calls meant to overrun.
const SHORT: Duration = Duration::from_millis(500);

#[tokio::test]
async fn an_mcp_server_that_crashes_mid_call_blocks_a_fail_closed_hook_and_is_restarted() {
    let guard = Leftovers::new();
    let executor = fixture(&guard);
    let agg = dispatch_mcp(&executor, deny_call(PATIENT)).await;
    assert_eq!(agg.effects.decision, Decision::Deny, "{agg:#?}");
    let agg = dispatch_mcp(
        &executor,
        mcp_hook("fixture", "crash", Value::Null, PATIENT),
    )
    .await;
    blocked_by_failure(&agg, "failed", "transport", "crashing on purpose");
    // The next event gets a new server.
    let agg = dispatch_mcp(&executor, deny_call(PATIENT)).await;
    assert_eq!(agg.effects.decision, Decision::Deny, "{agg:#?}");
    executor.shutdown().await;
    guard.assert_none_left().await;
}

#[tokio::test]
async fn an_mcp_tool_that_never_answers_times_out_and_its_server_is_replaced() {
    let guard = Leftovers::new();
    let executor = fixture(&guard);
    let agg = dispatch_mcp(&executor, mcp_hook("fixture", "hang", Value::Null, SHORT)).await;
    blocked_by_failure(&agg, "timed_out", "timeout", "did not answer `hang`");
    let agg = dispatch_mcp(&executor, deny_call(PATIENT)).await;
    assert_eq!(agg.effects.decision, Decision::Deny, "{agg:#?}");
    executor.shutdown().await;
    // The wedged server is gone too, not only the one in use.
    guard.assert_none_left().await;
}

#[tokio::test]
async fn an_mcp_server_that_never_answers_the_handshake_times_out() {
    let guard = Leftovers::new();
    // A "server" that reads nothing and says nothing.
    let config = McpServerConfig::Stdio {
        command: "sh".to_owned(),
        args: vec!["-c".to_owned(), "exec sleep 1000".to_owned()],
        env: vec![guard.env()],
        cwd: None,
    };
    let executor = Arc::new(McpExecutor::new([("silent", config)]).unwrap());
    let agg = dispatch_mcp(&executor, mcp_hook("silent", "any", Value::Null, SHORT)).await;
    assert_eq!(agg.effects.decision, Decision::Block, "{agg:#?}");
    assert_eq!(agg.hooks[0].run.status.as_str(), "timed_out", "{agg:#?}");
    executor.shutdown().await;
    drop(executor);
    guard.assert_none_left().await;
}

fn http_dispatcher(server: &Server, spec: HookSpec) -> Dispatcher {
    let executor = HttpExecutor::new(HttpConfig {
        allowed_urls: Some(vec![server.url("/")]),
        ..HttpConfig::default()
    })
    .unwrap();
    Dispatcher::builder()
        .index(HookIndex::new(vec![spec]))
        .http_executor(Arc::new(executor))
        .build()
        .unwrap()
}

fn http_hook(url: String, timeout: Duration) -> HookSpec {
    hook(
        Action::Http(HttpAction {
            url,
            headers: Vec::new(),
            allowed_env_vars: Vec::new(),
        }),
        timeout,
    )
}

#[tokio::test]
async fn an_http_server_that_stalls_after_its_headers_blocks_a_fail_closed_hook() {
    let router = Router::new()
        .route(
            "/stall",
            post(|| async {
                let body = futures_util::stream::pending::<Result<Bytes, std::io::Error>>();
                Response::builder()
                    .status(StatusCode::OK)
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from_stream(body))
                    .unwrap()
            }),
        )
        .route("/deny", post(|| async { DENY }));
    let server = Server::start(router).await;
    let stalled = http_dispatcher(&server, http_hook(server.url("/stall"), SHORT));
    let agg = stalled.dispatch(&context()).await;
    blocked_by_failure(&agg, "timed_out", "timeout", "no complete answer");
    // Several stalls at once, then a good answer from the same server: the stalled
    // connections were dropped, not left to poison the pool.
    let aggs = futures_util::future::join_all((0..8).map(|_| {
        let ctx = context();
        let stalled = stalled.clone();
        async move { stalled.dispatch(&ctx).await }
    }))
    .await;
    for agg in &aggs {
        blocked_by_failure(agg, "timed_out", "timeout", "no complete answer");
    }
    let good = http_dispatcher(&server, http_hook(server.url("/deny"), PATIENT));
    let agg = good.dispatch(&context()).await;
    assert_eq!(agg.effects.decision, Decision::Deny, "{agg:#?}");
}
