//! OTLP export against a test receiver on loopback (a std `TcpListener` that decodes each
//! body with `opentelemetry-proto`), and against a dead collector.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use hooks_core::{
    Action, AggregateEntry, BuiltinEvent, EventContext, HookOutcome, HookPos, HookSpec,
    aggregate_context,
};
use hooks_exec::Error;
use hooks_exec::otel::{EventRecord, HookRecord, OtlpConfig, Signal};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use prost::Message;
use serde_json::json;

/// What the receiver got: the request line, the headers (lower-case names) and the body.
struct Received {
    request_line: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// A one-request OTLP/HTTP receiver on loopback; answers 200 with an empty
/// `ExportTraceServiceResponse`. Gives its base URL and what it received.
fn receiver() -> (String, mpsc::Receiver<Received>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream);
        let mut request_line = String::new();
        reader.read_line(&mut request_line).unwrap();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let length: usize = headers
            .iter()
            .find(|(name, _)| name == "content-length")
            .map(|(_, value)| value.parse().unwrap())
            .unwrap();
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let mut stream = reader.into_inner();
        stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            .unwrap();
        tx.send(Received {
            request_line: request_line.trim_end().to_owned(),
            headers,
            body,
        })
        .unwrap();
    });
    (url, rx)
}

/// The record of one PreToolUse with one hook that answered nothing.
fn record() -> EventRecord {
    let ctx = EventContext::pre_tool_use("Bash", json!({"command": "ls"}));
    let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true")).with_id("audit");
    let outcome = HookOutcome::ok();
    let aggregate = aggregate_context(
        &ctx,
        vec![AggregateEntry::new(&spec, HookPos::new(0), outcome.clone())],
    );
    let now = SystemTime::now();
    EventRecord::new(&ctx, &aggregate, now, now)
        .with_agent("claude")
        .with_hook(HookRecord::new(&spec, &outcome, now))
}

fn config(endpoint: &str, timeout_ms: &str) -> OtlpConfig {
    let vars = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.to_owned()),
        ("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=k%20ey".to_owned()),
        ("OTEL_SERVICE_NAME", "hooks-it".to_owned()),
        ("OTEL_EXPORTER_OTLP_TIMEOUT", timeout_ms.to_owned()),
    ];
    OtlpConfig::from_lookup(|name| {
        vars.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.clone())
    })
    .unwrap()
    .unwrap()
}

/// Posts one record's traces with a fresh exporter, bounded by the configured timeout.
async fn export(config: &OtlpConfig) -> Result<(), Error> {
    config
        .exporter()?
        .export(
            Signal::Traces,
            config.encode_traces(&[record()]),
            Duration::MAX,
        )
        .await
}

#[tokio::test]
async fn the_receiver_decodes_the_span_tree() {
    let (url, received) = receiver();
    let config = config(&url, "5000");
    export(&config).await.unwrap();
    let got = received.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(got.request_line, "POST /v1/traces HTTP/1.1");
    let header = |name: &str| {
        got.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(header("content-type"), Some("application/x-protobuf"));
    assert_eq!(header("x-api-key"), Some("k ey"));
    let request = ExportTraceServiceRequest::decode(got.body.as_slice()).unwrap();
    let spans: Vec<_> = request.resource_spans[0].scope_spans[0]
        .spans
        .iter()
        .collect();
    assert_eq!(spans.len(), 2);
    assert_eq!(spans[0].name, "hooks PreToolUse");
    assert_eq!(spans[1].name, "hook audit");
    assert_eq!(spans[1].parent_span_id, spans[0].span_id);
    assert_eq!(spans[1].trace_id, spans[0].trace_id);
}

/// A closed port: the export fails at once, well inside its bound.
#[tokio::test]
async fn a_dead_collector_fails_fast() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let config = config(&format!("http://127.0.0.1:{port}"), "2000");
    let start = Instant::now();
    let err = export(&config).await.unwrap_err();
    assert!(matches!(err, Error::OtlpExport { .. }), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// A collector that accepts and never answers: the export gives up at its timeout.
#[tokio::test]
async fn a_hanging_collector_is_bounded_by_the_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let config = config(&url, "300");
    let start = Instant::now();
    let err = export(&config).await.unwrap_err();
    assert!(matches!(err, Error::OtlpExport { .. }), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    drop(listener);
}
