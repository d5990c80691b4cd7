//! The http executor against a real axum server on loopback: answers, failures, timeouts,
//! redirects, the URL allow-list, header interpolation and connection reuse.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use hooks_core::CancellationToken;
use hooks_core::{
    Action, BuiltinEvent, Decision, Dialect, EventContext, FailureKind, HookOutcome, HookSpec,
    HookStatus, HttpAction,
};
use hooks_exec::{EnvLookup, Executor, HookRun, HttpConfig, HttpExecutor};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::loopback::Server;

/// A generous timeout for runs that are expected to answer.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// A short timeout for runs that are expected to time out.
const SHORT_TIMEOUT: Duration = Duration::from_millis(300);

/// One request the server received.
#[derive(Clone, Debug)]
struct Received {
    path: String,
    headers: HeaderMap,
    body: Bytes,
}

/// What the server saw, shared with its handlers.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<Received>>>);

impl Log {
    async fn record(&self, request: Request) {
        let path = request.uri().path().to_owned();
        let headers = request.headers().clone();
        let body = axum::body::to_bytes(request.into_body(), usize::MAX)
            .await
            .unwrap();
        self.0.lock().unwrap().push(Received {
            path,
            headers,
            body,
        });
    }

    fn all(&self) -> Vec<Received> {
        self.0.lock().unwrap().clone()
    }

    fn hits(&self, path: &str) -> usize {
        self.all().iter().filter(|r| r.path == path).count()
    }
}

/// A route that records the request and answers `status` with `body`.
fn answering(log: &Log, status: StatusCode, body: &'static str) -> axum::routing::MethodRouter {
    let log = log.clone();
    post(move |request: Request| async move {
        log.record(request).await;
        (status, body)
    })
}

/// A route that records the request and redirects with 307 (which keeps the POST) to `to`.
fn redirecting(log: &Log, to: String) -> axum::routing::MethodRouter {
    let log = log.clone();
    post(move |request: Request| {
        let to = to.clone();
        let log = log.clone();
        async move {
            log.record(request).await;
            (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, to)]).into_response()
        }
    })
}

fn executor(allowed: &[&str]) -> HttpExecutor {
    executor_with(HttpConfig {
        allowed_urls: Some(allowed.iter().map(|s| (*s).to_owned()).collect()),
        ..HttpConfig::default()
    })
}

fn executor_with(config: HttpConfig) -> HttpExecutor {
    HttpExecutor::new(config).unwrap()
}

fn action(url: &str) -> HttpAction {
    HttpAction {
        url: url.to_owned(),
        headers: Vec::new(),
        allowed_env_vars: Vec::new(),
    }
}

fn spec(action: HttpAction) -> HookSpec {
    HookSpec::new(BuiltinEvent::PreToolUse, Action::Http(action)).with_dialect(Dialect::Claude)
}

fn context() -> EventContext {
    EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"})).session_id("s-1")
}

/// Runs `spec` once with a fresh cancellation token.
async fn run(executor: &HttpExecutor, spec: &HookSpec, timeout: Duration) -> HookOutcome {
    let ctx = context();
    let cancel = CancellationToken::new();
    executor
        .execute(HookRun {
            spec,
            ctx: &ctx,
            timeout,
            cancel: &cancel,
        })
        .await
}

/// The outcome without its duration, which varies from run to run.
fn stable(mut outcome: HookOutcome) -> HookOutcome {
    assert!(
        outcome.run.duration.is_some(),
        "the executor records a duration"
    );
    outcome.run.duration = None;
    outcome
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

/// Serves one answer, runs a hook against it and snapshots the whole outcome.
#[track_caller]
fn check(name: &str, status: u16, body: &'static str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime.block_on(async {
        let log = Log::default();
        let status = StatusCode::from_u16(status).unwrap();
        let server =
            Server::start(Router::new().route("/hook", answering(&log, status, body))).await;
        let executor = executor(&[&server.url("/hook")]);
        let mut outcome = run(
            &executor,
            &spec(action(&server.url("/hook"))),
            ANSWER_TIMEOUT,
        )
        .await;
        assert_eq!(log.hits("/hook"), 1);
        // The port changes from run to run; the snapshot names the server `SERVER`.
        if let Some(failure) = &mut outcome.run.failure {
            failure.message = failure.message.replace(&server.addr.to_string(), "SERVER");
        }
        outcome
    });
    insta::assert_json_snapshot!(name, stable(outcome));
}

#[test]
fn answer_deny() {
    check(
        "http_deny",
        200,
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"}}"#,
    );
}

#[test]
fn answer_updated_input() {
    check(
        "http_updated_input",
        200,
        r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls"}}}"#,
    );
}

#[test]
fn answer_block_with_reason() {
    check(
        "http_block",
        200,
        r#"{"decision": "block", "reason": "not today"}"#,
    );
}

#[test]
fn answer_autohand_and_stop() {
    check(
        "http_autohand_stop",
        200,
        r#"{"decision": "ask", "additionalContext": "be careful", "continue": false, "stopReason": "halt"}"#,
    );
}

#[test]
fn answer_empty_200_is_success() {
    check("http_empty_200", 200, "");
}

#[test]
fn answer_whitespace_204_is_success() {
    check("http_empty_204", 204, "");
}

#[test]
fn answer_plain_text_200_is_malformed() {
    check("http_plain_text", 200, "all good");
}

#[test]
fn answer_json_array_is_malformed() {
    check("http_json_array", 200, r#"["deny"]"#);
}

#[test]
fn answer_invalid_json_is_malformed() {
    check("http_invalid_json", 200, r#"{"decision": "#);
}

#[test]
fn answer_500_is_a_failure_with_the_status() {
    check("http_500", 500, "database on fire");
}

#[test]
fn answer_404_without_body() {
    check("http_404", 404, "");
}

#[tokio::test]
async fn posts_the_event_json_with_the_dialects_names() {
    let log = Log::default();
    let server =
        Server::start(Router::new().route("/hook", answering(&log, StatusCode::OK, ""))).await;
    let executor = executor(&[&server.url("/")]);
    for dialect in [Dialect::Claude, Dialect::Autohand] {
        let spec = spec(action(&server.url("/hook"))).with_dialect(dialect);
        let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
        assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:#?}");
    }
    let received = log.all();
    assert_eq!(received.len(), 2);
    for (request, dialect) in received.iter().zip([Dialect::Claude, Dialect::Autohand]) {
        assert_eq!(request.headers[header::CONTENT_TYPE], "application/json");
        assert!(
            request.headers[header::USER_AGENT]
                .to_str()
                .unwrap()
                .starts_with("hooks/")
        );
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        assert_eq!(body, context().to_json(dialect));
    }
    let names: Vec<Value> = received
        .iter()
        .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap()["hook_event_name"].clone())
        .collect();
    assert_eq!(names, [json!("PreToolUse"), json!("pre-tool")]);
}

#[tokio::test]
async fn a_handler_that_never_answers_times_out() {
    // The handler waits on a channel whose sender the test keeps and never uses.
    let (_never, waiting) = tokio::sync::watch::channel(());
    let router = Router::new().route(
        "/hook",
        post(move || {
            let mut waiting = waiting.clone();
            async move {
                let _ = waiting.changed().await;
                "{}"
            }
        }),
    );
    let server = Server::start(router).await;
    let executor = executor(&[&server.url("/hook")]);
    let outcome = run(
        &executor,
        &spec(action(&server.url("/hook"))),
        SHORT_TIMEOUT,
    )
    .await;
    assert_eq!(outcome.run.status, HookStatus::TimedOut);
    failure(&outcome, FailureKind::Timeout, "within 300ms");
    assert_eq!(outcome.effects.decision, Decision::None);
}

#[tokio::test]
async fn a_server_that_stalls_after_the_headers_times_out() {
    let router = Router::new().route(
        "/hook",
        post(|| async {
            let body = futures_util::stream::pending::<Result<Bytes, std::io::Error>>();
            Response::builder()
                .status(StatusCode::OK)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from_stream(body))
                .unwrap()
        }),
    );
    let server = Server::start(router).await;
    let executor = executor(&[&server.url("/hook")]);
    let outcome = run(
        &executor,
        &spec(action(&server.url("/hook"))),
        SHORT_TIMEOUT,
    )
    .await;
    assert_eq!(outcome.run.status, HookStatus::TimedOut);
    failure(&outcome, FailureKind::Timeout, "no complete answer");
}

#[tokio::test]
async fn cancellation_ends_the_run() {
    let (arrived, mut arrivals) = mpsc::unbounded_channel();
    let router = Router::new().route(
        "/hook",
        post(move || {
            let arrived = arrived.clone();
            async move {
                arrived.send(()).unwrap();
                std::future::pending::<&'static str>().await
            }
        }),
    );
    let server = Server::start(router).await;
    let executor = executor(&[&server.url("/hook")]);
    let spec = spec(action(&server.url("/hook")));
    let ctx = context();
    let cancel = CancellationToken::new();
    let running = executor.execute(HookRun {
        spec: &spec,
        ctx: &ctx,
        timeout: ANSWER_TIMEOUT,
        cancel: &cancel,
    });
    let cancel_on_arrival = async {
        arrivals.recv().await.unwrap();
        cancel.cancel();
    };
    let (outcome, ()) = tokio::join!(running, cancel_on_arrival);
    failure(&outcome, FailureKind::Cancelled, "cancelled");
    assert_eq!(outcome.run.status, HookStatus::Failed);
}

#[tokio::test]
async fn a_refused_connection_is_a_transport_failure() {
    let port = crate::loopback::free_port();
    let url = format!("http://127.0.0.1:{port}/hook");
    let executor = executor(&[&url]);
    let outcome = run(&executor, &spec(action(&url)), ANSWER_TIMEOUT).await;
    failure(&outcome, FailureKind::Transport, &format!("POST {url}"));
}

#[tokio::test]
async fn a_redirect_inside_the_allow_list_is_followed() {
    let log = Log::default();
    let server = Server::start(
        Router::new()
            .route("/hooks/old", redirecting(&log, "/hooks/new".to_owned()))
            .route(
                "/hooks/new",
                answering(
                    &log,
                    StatusCode::OK,
                    r#"{"decision": "deny", "reason": "moved"}"#,
                ),
            ),
    )
    .await;
    let executor = executor(&[&server.url("/hooks/")]);
    let outcome = run(
        &executor,
        &spec(action(&server.url("/hooks/old"))),
        ANSWER_TIMEOUT,
    )
    .await;
    assert_eq!(outcome.effects.decision, Decision::Deny, "{outcome:#?}");
    assert_eq!(outcome.effects.reason.as_deref(), Some("moved"));
    assert_eq!((log.hits("/hooks/old"), log.hits("/hooks/new")), (1, 1));
    // A 307 repeats the POST with the event.
    let new = log
        .all()
        .into_iter()
        .find(|r| r.path == "/hooks/new")
        .unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&new.body).unwrap(),
        context().to_json(Dialect::Claude)
    );
}

#[tokio::test]
async fn a_redirect_to_a_disallowed_host_fails_without_following() {
    let log = Log::default();
    // `/old` sends the client to this same server under another name, `localhost`, which
    // the allow-list does not hold; `/new` would answer if it were ever reached.
    let recorder = log.clone();
    let router = Router::new()
        .route(
            "/old",
            post(move |request: Request| async move {
                let port = request.uri().port_u16().or_else(|| {
                    let host = request.headers()[header::HOST].to_str().ok()?;
                    host.rsplit(':').next()?.parse().ok()
                });
                recorder.record(request).await;
                let to = format!("http://localhost:{}/new", port.unwrap());
                (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, to)]).into_response()
            }),
        )
        .route("/new", answering(&log, StatusCode::OK, ""));
    let server = Server::start(router).await;
    let elsewhere = format!("http://localhost:{}/new", server.addr.port());
    let executor = executor(&[&server.url("/")]);
    let outcome = run(
        &executor,
        &spec(action(&server.url("/old"))),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Transport,
        &format!("redirect to {elsewhere} is outside the allowed URLs"),
    );
    assert_eq!(log.hits("/old"), 1);
    assert_eq!(
        log.hits("/new"),
        0,
        "the disallowed target was not requested"
    );
    assert!(executor.allows(&server.url("/new")));
    assert!(!executor.allows(&elsewhere));
}

#[tokio::test]
async fn a_redirect_out_of_the_allowed_path_fails() {
    let log = Log::default();
    let server = Server::start(
        Router::new()
            .route("/hooks/old", redirecting(&log, "/admin".to_owned()))
            .route("/admin", answering(&log, StatusCode::OK, "")),
    )
    .await;
    let executor = executor(&[&server.url("/hooks")]);
    let outcome = run(
        &executor,
        &spec(action(&server.url("/hooks/old"))),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::Transport,
        "/admin is outside the allowed URLs",
    );
    assert_eq!(log.hits("/admin"), 0);
}

#[tokio::test]
async fn a_redirect_loop_stops() {
    let log = Log::default();
    let server =
        Server::start(Router::new().route("/loop", redirecting(&log, "/loop".to_owned()))).await;
    let executor = executor(&[&server.url("/")]);
    let outcome = run(
        &executor,
        &spec(action(&server.url("/loop"))),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(&outcome, FailureKind::Transport, "more than 10 redirects");
    assert_eq!(log.hits("/loop"), 11);
}

/// Where a hook's first answer redirects to, in [`redirects_with_and_without_a_list`].
#[derive(Clone, Copy, Debug)]
enum Hop {
    /// Another path of the hook's own server.
    SameOrigin,
    /// A second server: another port, so another origin.
    OtherOrigin,
}

/// The failure a redirect case expects, or `None` when the final answer is reached.
type Expected = Option<(FailureKind, &'static str)>;

/// With no allow-list the hook's own URL is sent (trusted with the hook) and redirects stay
/// on its origin; a list restricts the hook and every hop, and lets a redirect leave the
/// origin only for a URL it allows.
#[tokio::test]
async fn redirects_with_and_without_a_list() {
    // (list: None = no list, `HOOK`/`OTHER` stand for the two servers' roots; where the
    // hook redirects to; the failure expected, or None when the final answer is reached).
    let cases: &[(Option<&[&str]>, Hop, Expected)] = &[
        (None, Hop::SameOrigin, None),
        (
            None,
            Hop::OtherOrigin,
            Some((FailureKind::Transport, "leaves the hook's origin")),
        ),
        (Some(&["HOOK", "OTHER"]), Hop::OtherOrigin, None),
        (
            Some(&["HOOK"]),
            Hop::OtherOrigin,
            Some((FailureKind::Transport, "is outside the allowed URLs")),
        ),
        (Some(&["HOOK/hooks/"]), Hop::SameOrigin, None),
        (
            Some(&["HOOK/hooks/old"]),
            Hop::SameOrigin,
            Some((FailureKind::Transport, "is outside the allowed URLs")),
        ),
        (
            Some(&["OTHER"]),
            Hop::OtherOrigin,
            Some((FailureKind::Refused, "so no request was made")),
        ),
        (
            Some(&[]),
            Hop::SameOrigin,
            Some((FailureKind::Refused, "so no request was made")),
        ),
    ];
    for (list, hop, expected) in cases {
        let log = Log::default();
        let other =
            Server::start(Router::new().route("/hooks/new", answering(&log, StatusCode::OK, "")))
                .await;
        let target = match hop {
            Hop::SameOrigin => "/hooks/new".to_owned(),
            Hop::OtherOrigin => other.url("/hooks/new"),
        };
        let server = Server::start(
            Router::new()
                .route("/hooks/old", redirecting(&log, target))
                .route("/hooks/new", answering(&log, StatusCode::OK, "")),
        )
        .await;
        let executor = executor_with(HttpConfig {
            allowed_urls: list.map(|list| {
                list.iter()
                    .map(|p| {
                        p.replace("HOOK", &server.url(""))
                            .replace("OTHER", &other.url(""))
                    })
                    .collect()
            }),
            ..HttpConfig::default()
        });
        let outcome = run(
            &executor,
            &spec(action(&server.url("/hooks/old"))),
            ANSWER_TIMEOUT,
        )
        .await;
        let case = format!("{list:?} {hop:?}");
        match expected {
            None => {
                assert_eq!(outcome.run.status, HookStatus::Ok, "{case}: {outcome:#?}");
                assert_eq!(log.hits("/hooks/new"), 1, "{case}: the target answered");
            }
            Some((kind, needle)) => {
                failure(&outcome, *kind, needle);
                assert_eq!(
                    log.hits("/hooks/new"),
                    0,
                    "{case}: the target was not asked"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_url_outside_the_allow_list_makes_no_request() {
    let log = Log::default();
    let router = Router::new()
        .route("/hooks", answering(&log, StatusCode::OK, ""))
        .route("/hooksevil", answering(&log, StatusCode::OK, ""))
        .route("/other", answering(&log, StatusCode::OK, ""));
    let server = Server::start(router).await;
    let executor = executor(&[&server.url("/hooks")]);
    for path in ["/other", "/hooksevil", "/hooks/../other"] {
        let outcome = run(&executor, &spec(action(&server.url(path))), ANSWER_TIMEOUT).await;
        failure(
            &outcome,
            FailureKind::Refused,
            "is outside the allowed URLs, so no request was made",
        );
    }
    // An empty allow-list allows nothing.
    let closed = executor_with(HttpConfig {
        allowed_urls: Some(Vec::new()),
        ..HttpConfig::default()
    });
    let outcome = run(
        &closed,
        &spec(action(&server.url("/hooks"))),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(&outcome, FailureKind::Refused, "outside the allowed URLs");
    assert!(log.all().is_empty(), "the server saw no request");
    assert_eq!(server.connections(), 0, "nor even a connection");
}

#[tokio::test]
async fn bad_urls_and_headers_are_reported_without_a_request() {
    let log = Log::default();
    let server =
        Server::start(Router::new().route("/hook", answering(&log, StatusCode::OK, ""))).await;
    let executor = executor(&["*"]);
    let bad_url = run(&executor, &spec(action("not a url")), ANSWER_TIMEOUT).await;
    failure(&bad_url, FailureKind::Spawn, "invalid URL `not a url`");
    let ftp = run(
        &executor,
        &spec(action("ftp://127.0.0.1/x")),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(&ftp, FailureKind::Spawn, "unsupported URL scheme `ftp`");
    let mut bad_name = action(&server.url("/hook"));
    bad_name.headers = vec![("Bad Header".to_owned(), "x".to_owned())];
    let outcome = run(&executor, &spec(bad_name), ANSWER_TIMEOUT).await;
    failure(
        &outcome,
        FailureKind::Spawn,
        "invalid header name `Bad Header`",
    );
    let mut bad_value = action(&server.url("/hook"));
    bad_value.headers = vec![("X-Token".to_owned(), "$TOKEN".to_owned())];
    bad_value.allowed_env_vars = vec!["TOKEN".to_owned()];
    let executor = executor_with(HttpConfig {
        allowed_urls: Some(vec!["*".to_owned()]),
        env: EnvLookup::from_map(HashMap::from([("TOKEN".to_owned(), "a\nb".to_owned())])),
        ..HttpConfig::default()
    });
    let outcome = run(&executor, &spec(bad_value), ANSWER_TIMEOUT).await;
    failure(
        &outcome,
        FailureKind::Spawn,
        "invalid value for header `X-Token`",
    );
    assert!(
        !outcome.run.failure.unwrap().message.contains("a\nb"),
        "the value is never quoted"
    );
    assert!(log.all().is_empty());
}

#[tokio::test]
async fn headers_interpolate_only_allowed_env_vars() {
    let log = Log::default();
    let server =
        Server::start(Router::new().route("/hook", answering(&log, StatusCode::OK, ""))).await;
    let env = HashMap::from([
        ("TOKEN".to_owned(), "s3cret".to_owned()),
        ("OTHER".to_owned(), "not-for-you".to_owned()),
    ]);
    let executor = executor_with(HttpConfig {
        allowed_urls: Some(vec![server.url("/hook")]),
        env: EnvLookup::from_map(env),
        ..HttpConfig::default()
    });
    let mut action = action(&server.url("/hook"));
    action.allowed_env_vars = vec!["TOKEN".to_owned(), "UNSET".to_owned()];
    action.headers = [
        ("Authorization", "Bearer $TOKEN"),
        ("X-Braced", "${TOKEN}-suffix"),
        ("X-Other", "[$OTHER][${OTHER}]"),
        ("X-Unset", "[$UNSET]"),
        ("X-Literal", "cost: $5, $-, ${, ${TOKEN"),
        ("Content-Type", "application/vnd.hooks+json"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let outcome = run(&executor, &spec(action), ANSWER_TIMEOUT).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:#?}");
    let headers = &log.all()[0].headers;
    let get = |name: &str| headers[name].to_str().unwrap().to_owned();
    assert_eq!(get("authorization"), "Bearer s3cret");
    assert_eq!(get("x-braced"), "s3cret-suffix");
    assert_eq!(get("x-other"), "[][]");
    assert_eq!(get("x-unset"), "[]");
    assert_eq!(get("x-literal"), "cost: $5, $-, ${, ${TOKEN");
    assert_eq!(get("content-type"), "application/vnd.hooks+json");
}

#[tokio::test]
async fn headers_read_the_process_environment_by_default() {
    let log = Log::default();
    let server =
        Server::start(Router::new().route("/hook", answering(&log, StatusCode::OK, ""))).await;
    let executor = executor(&[&server.url("/hook")]);
    let mut action = action(&server.url("/hook"));
    action.allowed_env_vars = vec!["PATH".to_owned()];
    action.headers = vec![("X-Path".to_owned(), "${PATH}".to_owned())];
    let outcome = run(&executor, &spec(action), ANSWER_TIMEOUT).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:#?}");
    assert_eq!(
        log.all()[0].headers["x-path"],
        std::env::var("PATH").unwrap()
    );
}

#[tokio::test]
async fn one_client_keeps_connections_alive() {
    let log = Log::default();
    let server =
        Server::start(Router::new().route("/hook", answering(&log, StatusCode::OK, "{}"))).await;
    let executor = executor(&[&server.url("/hook")]);
    let spec = spec(action(&server.url("/hook")));
    const RUNS: usize = 20;
    for _ in 0..RUNS {
        let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
        assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:#?}");
    }
    assert_eq!(log.hits("/hook"), RUNS);
    // Sequential runs share one pooled connection; allow one spare for a connection that
    // had not yet returned to the pool when the next run began.
    assert!(
        server.connections() <= 2,
        "{} connections for {RUNS} runs",
        server.connections()
    );
}

#[tokio::test]
async fn a_body_over_the_cap_is_flagged_truncated() {
    let log = Log::default();
    let big: &'static str =
        Box::leak(format!("{{\"reason\": \"{}\"}}", "x".repeat(4096)).into_boxed_str());
    let server =
        Server::start(Router::new().route("/hook", answering(&log, StatusCode::OK, big))).await;
    let executor = executor_with(HttpConfig {
        allowed_urls: Some(vec![server.url("/hook")]),
        max_response_bytes: 1024,
        ..HttpConfig::default()
    });
    let outcome = run(
        &executor,
        &spec(action(&server.url("/hook"))),
        ANSWER_TIMEOUT,
    )
    .await;
    failure(
        &outcome,
        FailureKind::MalformedOutput,
        "longer than the 1024-byte cap",
    );
    assert!(outcome.run.stdout_truncated);
    // Exactly at the cap is not truncated.
    let exact = executor_with(HttpConfig {
        allowed_urls: Some(vec![server.url("/hook")]),
        max_response_bytes: big.len(),
        ..HttpConfig::default()
    });
    let outcome = run(&exact, &spec(action(&server.url("/hook"))), ANSWER_TIMEOUT).await;
    assert_eq!(outcome.run.status, HookStatus::Ok, "{outcome:#?}");
    assert!(!outcome.run.stdout_truncated);
    assert_eq!(
        outcome.effects.reason.as_deref(),
        Some("x".repeat(4096).as_str())
    );
}

#[tokio::test]
async fn other_hook_types_are_refused() {
    let executor = executor(&["*"]);
    let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true"));
    let outcome = run(&executor, &spec, ANSWER_TIMEOUT).await;
    failure(&outcome, FailureKind::Spawn, "cannot run a command hook");
}

/// Whether the allow-list `patterns` lets `url` through.
#[track_caller]
fn check_allowed(patterns: &[&str], url: &str, expected: bool) {
    let executor = executor(patterns);
    assert_eq!(executor.allows(url), expected, "{patterns:?} vs {url}");
}

#[test]
fn allow_list_patterns() {
    let exact = &["https://hooks.example.com/ci"];
    check_allowed(exact, "https://hooks.example.com/ci", true);
    check_allowed(exact, "https://hooks.example.com/ci/run?x=1", true);
    check_allowed(exact, "https://hooks.example.com/cider", false);
    check_allowed(exact, "https://hooks.example.com/", false);
    check_allowed(exact, "https://hooks.example.com/ci/../admin", false);
    check_allowed(exact, "http://hooks.example.com/ci", false);
    check_allowed(exact, "https://hooks.example.com:8443/ci", false);
    check_allowed(exact, "https://hooks.example.com:443/ci", true);
    check_allowed(exact, "https://HOOKS.example.com/ci", true);
    check_allowed(exact, "https://hooks.example.com.evil.net/ci", false);
    check_allowed(exact, "https://user:pw@hooks.example.com/ci", true);

    let host = &["http://127.0.0.1:8080"];
    check_allowed(host, "http://127.0.0.1:8080/anything", true);
    check_allowed(host, "http://127.0.0.1:80801/", false);
    check_allowed(host, "http://127.0.0.1/", false);

    let dir = &["https://example.com/hooks/"];
    check_allowed(dir, "https://example.com/hooks/a", true);
    check_allowed(dir, "https://example.com/hooks", false);

    let wildcard = &["https://*.example.com/"];
    check_allowed(wildcard, "https://a.example.com/x", true);
    check_allowed(wildcard, "https://a.b.example.com/x", true);
    check_allowed(wildcard, "https://example.com/x", false);
    check_allowed(wildcard, "https://badexample.com/x", false);

    let raw = &["http://127.0.0.1:9000/hook*"];
    check_allowed(raw, "http://127.0.0.1:9000/hook", true);
    check_allowed(raw, "http://127.0.0.1:9000/hooks/x", true);
    check_allowed(raw, "http://127.0.0.1:9000/hoo", false);

    check_allowed(&["*"], "http://anything.test/", true);
    check_allowed(&["*"], "file:///etc/passwd", false);
    check_allowed(&[], "http://127.0.0.1/", false);
    check_allowed(
        &["https://a.test/", "https://b.test/"],
        "https://b.test/x",
        true,
    );
}

#[track_caller]
fn check_invalid_pattern(pattern: &str, message: &str) {
    let error = HttpExecutor::new(HttpConfig {
        allowed_urls: Some(vec![pattern.to_owned()]),
        ..HttpConfig::default()
    })
    .unwrap_err();
    assert_eq!(error.to_string(), message);
}

#[test]
fn invalid_patterns_are_errors() {
    check_invalid_pattern(
        "hooks.example.com",
        "invalid allowed URL pattern `hooks.example.com`: relative URL without a base; write a full URL such as `https://hooks.example.com/` or `*` for any URL",
    );
    check_invalid_pattern(
        "ftp://example.com/",
        "invalid allowed URL pattern `ftp://example.com/`: only http and https URLs can be allowed",
    );
    check_invalid_pattern(
        "https://example.com/?token=1",
        "invalid allowed URL pattern `https://example.com/?token=1`: a pattern takes no query or fragment",
    );
    // `*` anywhere else is Claude Code's wildcard form, with the same rules.
    check_invalid_pattern(
        "ftp://localhost:*",
        "invalid allowed URL pattern `ftp://localhost:*`: only http and https URLs can be allowed",
    );
    check_invalid_pattern(
        "http://u@localhost:*",
        "invalid allowed URL pattern `http://u@localhost:*`: a pattern takes no user name or password",
    );
    check_invalid_pattern(
        "https://u:p@example.com/",
        "invalid allowed URL pattern `https://u:p@example.com/`: a pattern takes no user name or password",
    );
}
