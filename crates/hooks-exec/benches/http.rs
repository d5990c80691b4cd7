//! HTTP hook benchmarks (row 6 of the benchmark report), against an axum server on
//! 127.0.0.1 that answers Claude Code's allow:
//!
//! - `http_round_trip`: one http hook through the [`Dispatcher`] (keep-alive pool of the
//!   executor's one client), against a raw `reqwest` POST of the same JSON and
//!   `hooks_core::parse_response_body` on the answer, with one reused client.
//! - `http_16_concurrent`: 16 events dispatched at once, against 16 raw POSTs at once; the
//!   report turns the median of a batch into events per second.
//!
//! The two sides of each comparison alternate (see `support::interleaved`), so both see the
//! same machine load. The server runs on a runtime of its own (one worker thread), so the clients' thread
//! measures only the client side and the loopback.

mod support;

use std::hint::black_box;

use axum::Router;
use axum::routing::post;
use criterion::{Criterion, criterion_group, criterion_main};
use futures_util::future::join_all;
use hooks_core::{
    Action, BuiltinEvent, Dialect, EventContext, HookIndex, HookSpec, HttpAction, Matcher,
    parse_response_body,
};
use hooks_exec::{Dispatcher, HttpConfig, HttpExecutor};

use support::{ANSWER, event_1k, expect_allow, interleaved, runtime, timed};

/// Starts the answering server on its own runtime; returns the runtime (which keeps it
/// alive) and the hook URL.
fn server() -> (tokio::runtime::Runtime, String) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("server runtime");
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("bind loopback");
    let addr = listener.local_addr().expect("address");
    let app = Router::new().route(
        "/hook",
        post(|_body: axum::body::Bytes| async { ([("content-type", "application/json")], ANSWER) }),
    );
    rt.spawn(async move { axum::serve(listener, app).await.expect("serve") });
    (rt, format!("http://{addr}/hook"))
}

fn dispatcher(url: &str) -> Dispatcher {
    let spec = HookSpec::new(
        BuiltinEvent::PreToolUse,
        Action::Http(HttpAction {
            url: url.to_owned(),
            headers: Vec::new(),
            allowed_env_vars: Vec::new(),
        }),
    )
    .with_matcher(Matcher::parse("Bash").expect("valid matcher"))
    .with_dialect(Dialect::Claude);
    let executor = HttpExecutor::new(HttpConfig {
        allowed_urls: Some(vec![url.to_owned()]),
        ..HttpConfig::default()
    })
    .expect("http executor");
    Dispatcher::builder()
        .index(HookIndex::new(vec![spec]))
        .http_executor(std::sync::Arc::new(executor))
        .build()
        .expect("dispatcher")
}

async fn engine_once(dispatcher: &Dispatcher, ctx: &EventContext) {
    let outcome = dispatcher.dispatch(ctx).await;
    expect_allow(outcome.effects.decision, &outcome);
}

/// What a host without the engine does: POST the event JSON, read the body, parse it.
async fn raw_once(client: &reqwest::Client, url: &str, ctx: &EventContext) {
    let body = serde_json::to_vec(&ctx.to_json(Dialect::Claude)).expect("event JSON");
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("POST");
    assert!(response.status().is_success());
    let bytes = response.bytes().await.expect("body");
    let outcome = parse_response_body(ctx.event(), &bytes);
    expect_allow(outcome.effects.decision, &outcome);
}

fn bench(c: &mut Criterion) {
    let (_server, url) = server();
    let rt = runtime();
    let ctx = event_1k();
    let dispatcher = dispatcher(&url);
    let client = reqwest::Client::new();

    let engine = || rt.block_on(engine_once(&dispatcher, black_box(&ctx)));
    let raw = || rt.block_on(raw_once(&client, &url, black_box(&ctx)));
    let mut group = c.benchmark_group("http_round_trip");
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| interleaved(iters, || timed(engine), raw))
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| interleaved(iters, || timed(raw), engine))
    });
    group.finish();

    let engine_16 = || rt.block_on(join_all((0..16).map(|_| engine_once(&dispatcher, &ctx))));
    let raw_16 = || rt.block_on(join_all((0..16).map(|_| raw_once(&client, &url, &ctx))));
    let mut group = c.benchmark_group("http_16_concurrent");
    group.bench_function("engine", |b| {
        b.iter_custom(|iters| {
            interleaved(
                iters,
                || {
                    timed(|| {
                        engine_16();
                    })
                },
                || {
                    raw_16();
                },
            )
        })
    });
    group.bench_function("baseline", |b| {
        b.iter_custom(|iters| {
            interleaved(
                iters,
                || {
                    timed(|| {
                        raw_16();
                    })
                },
                || {
                    engine_16();
                },
            )
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
