//! OpenTelemetry export through the real binary: `hooks bridge claude` and `hooks run` with
//! `OTEL_EXPORTER_OTLP_ENDPOINT` on a loopback receiver that decodes every request with the
//! OpenTelemetry project's own messages (`opentelemetry-proto`): the event span, its hook
//! spans and their parent links, the attributes, a secret masked, no command; the metrics'
//! sums and counts. A dead collector and a hanging one change neither the answer nor when
//! the bridge exits (the detached exporter holds the wait). The spool's bound, through the
//! library.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use hooks::core::{Aggregate, EventContext};
use hooks::telemetry::{self, EventRecord, OtlpConfig, Spool};
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{KeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::{metric, number_data_point};
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::{Value, json};

use crate::support::{Env, env_with};

/// The secret's name (the default provider reads the variable of that name) and value.
const SECRET: (&str, &str) = ("HOOKS_TEST_TOKEN", "tok-otel-9Zq");
/// A string only the hooks' commands hold.
const COMMAND_MARKER: &str = "CMD-MARKER-7";
/// A bound on every wait for the receiver.
const PATIENCE: Duration = Duration::from_secs(30);

/// A guard that denies `rm -r` with a reason quoting the secret, and an audit hook.
const CONFIG: &str = r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: |
      : CMD-MARKER-7; case "$(cat)" in *"rm -r"*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"refusing rm -r with {{ secrets.HOOKS_TEST_TOKEN }}"}}';; esac
  - id: audit
    event: PreToolUse
    command: ": CMD-MARKER-7"
"#;

/// One request the receiver decoded.
enum Got {
    Traces(ExportTraceServiceRequest, Vec<u8>),
    Metrics(ExportMetricsServiceRequest),
}

/// An OTLP/HTTP receiver on loopback answering 200 to every request, decoding each by its
/// path; gives its base URL and the requests.
fn receiver() -> (String, mpsc::Receiver<Got>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let tx = tx.clone();
            std::thread::spawn(move || serve(stream, &tx));
        }
    });
    (url, rx)
}

/// Reads one request's line, headers and body.
fn read_request(stream: &TcpStream) -> Option<(String, Vec<u8>)> {
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((line, body))
}

/// Answers the requests of one connection until it closes.
fn serve(mut stream: TcpStream, tx: &mpsc::Sender<Got>) {
    while let Some((line, body)) = read_request(&stream) {
        let got = if line.starts_with("POST /v1/traces ") {
            Got::Traces(
                ExportTraceServiceRequest::decode(body.as_slice()).unwrap(),
                body,
            )
        } else if line.starts_with("POST /v1/metrics ") {
            Got::Metrics(ExportMetricsServiceRequest::decode(body.as_slice()).unwrap())
        } else {
            panic!("unexpected request {line}");
        };
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n",
        );
        if tx.send(got).is_err() {
            return;
        }
    }
}

/// The first traces and the first metrics request the receiver gets, within [`PATIENCE`].
fn traces_and_metrics(
    rx: &mpsc::Receiver<Got>,
) -> (
    ExportTraceServiceRequest,
    Vec<u8>,
    ExportMetricsServiceRequest,
) {
    let deadline = Instant::now() + PATIENCE;
    let (mut traces, mut metrics) = (None, None);
    while traces.is_none() || metrics.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Got::Traces(request, body)) => traces = traces.or(Some((request, body))),
            Ok(Got::Metrics(request)) => metrics = metrics.or(Some(request)),
            Err(e) => panic!("the receiver got no traces and metrics in time: {e}"),
        }
    }
    let (traces, body) = traces.unwrap();
    (traces, body, metrics.unwrap())
}

/// The bridge's environment: the secret, and export to `endpoint` when given.
fn run_bridge(env: &Env, stdin: &str, endpoint: Option<&str>) -> (i32, Value, Duration) {
    let mut cmd = env.command();
    cmd.args(["bridge", "claude"])
        .env(SECRET.0, SECRET.1)
        .env("OTEL_EXPORTER_OTLP_TIMEOUT", "20000")
        .write_stdin(stdin);
    if let Some(endpoint) = endpoint {
        cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    }
    let start = Instant::now();
    let run = env.finish(&mut cmd);
    let elapsed = start.elapsed();
    let stdout = if run.stdout.is_empty() {
        Value::Null
    } else {
        run.json()
    };
    (run.code, stdout, elapsed)
}

fn payload(env: &Env, command: &str) -> String {
    json!({
        "session_id": "s-otel",
        "transcript_path": "/dev/null",
        "cwd": env.path().join("proj").display().to_string(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_otel",
    })
    .to_string()
}

/// A key-value list as `key=value` strings.
fn attributes(attributes: &[KeyValue]) -> BTreeMap<String, String> {
    attributes
        .iter()
        .map(|kv| {
            let value = match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
                Some(any_value::Value::StringValue(s)) => s.clone(),
                Some(any_value::Value::BoolValue(b)) => b.to_string(),
                Some(any_value::Value::IntValue(i)) => i.to_string(),
                other => format!("{other:?}"),
            };
            (kv.key.clone(), value)
        })
        .collect()
}

fn spans(request: &ExportTraceServiceRequest) -> Vec<&Span> {
    request
        .resource_spans
        .iter()
        .flat_map(|rs| &rs.scope_spans)
        .flat_map(|ss| &ss.spans)
        .collect()
}

/// Each counter's data points as `name{attr=value,...} = n`, and each histogram's as
/// `name{...} count=n`.
fn metric_points(request: &ExportMetricsServiceRequest) -> Vec<String> {
    let mut out = Vec::new();
    for metric in request
        .resource_metrics
        .iter()
        .flat_map(|rm| &rm.scope_metrics)
        .flat_map(|sm| &sm.metrics)
    {
        let label = |attrs: &[KeyValue]| {
            let list: Vec<String> = attributes(attrs)
                .into_iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            format!("{}{{{}}}", metric.name, list.join(","))
        };
        match &metric.data {
            Some(metric::Data::Sum(sum)) => {
                for point in &sum.data_points {
                    let Some(number_data_point::Value::AsInt(n)) = point.value else {
                        panic!("{}: not an integer", metric.name)
                    };
                    out.push(format!("{} = {n}", label(&point.attributes)));
                }
            }
            Some(metric::Data::Histogram(histogram)) => {
                for point in &histogram.data_points {
                    out.push(format!(
                        "{} count={}",
                        label(&point.attributes),
                        point.count
                    ));
                }
            }
            other => panic!("{}: unexpected data {other:?}", metric.name),
        }
    }
    out.sort();
    out
}

/// The event span and its hook spans as the bridge's PreToolUse exports them.
#[track_caller]
fn check_span_tree(request: &ExportTraceServiceRequest, body: &[u8], agent: Option<&str>) {
    let text = String::from_utf8_lossy(body);
    for leak in [SECRET.1, COMMAND_MARKER, "rm -r victim"] {
        assert!(!text.contains(leak), "`{leak}` was exported");
    }
    let spans = spans(request);
    assert_eq!(spans.len(), 3, "{spans:#?}");
    let event = spans[0];
    assert_eq!(event.name, "hooks PreToolUse");
    assert!(event.parent_span_id.is_empty());
    let mut expected: BTreeMap<String, String> = [
        ("hooks.event", "PreToolUse"),
        ("gen_ai.conversation.id", "s-otel"),
        ("gen_ai.tool.name", "Bash"),
        ("gen_ai.tool.call.id", "toolu_otel"),
        ("hooks.decision", "deny"),
        (
            "hooks.decision.reason",
            "refusing rm -r with [secret HOOKS_TEST_TOKEN]",
        ),
        ("hooks.hook_count", "2"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    if let Some(agent) = agent {
        expected.insert("hooks.agent".to_owned(), agent.to_owned());
    }
    assert_eq!(attributes(&event.attributes), expected);
    let mut ids = Vec::new();
    for hook in &spans[1..] {
        assert_eq!(hook.trace_id, event.trace_id);
        assert_eq!(hook.parent_span_id, event.span_id);
        assert!(hook.start_time_unix_nano >= event.start_time_unix_nano);
        assert!(hook.start_time_unix_nano < hook.end_time_unix_nano);
        assert!(hook.end_time_unix_nano <= event.end_time_unix_nano);
        let attrs = attributes(&hook.attributes);
        assert_eq!(attrs["hooks.hook.type"], "command");
        assert_eq!(attrs["hooks.hook.dialect"], "native");
        assert!(
            attrs["hooks.hook.source"].contains("hooks.yaml:"),
            "{attrs:?}"
        );
        ids.push((
            attrs["hooks.hook.id"].clone(),
            attrs["hooks.hook.status"].clone(),
            attrs.get("hooks.hook.exit_code").cloned(),
        ));
    }
    ids.sort();
    assert_eq!(
        ids,
        [
            ("audit".to_owned(), "ok".to_owned(), Some("0".to_owned())),
            (
                "guard".to_owned(),
                "blocked".to_owned(),
                Some("0".to_owned())
            ),
        ]
    );
}

/// The metrics of that one PreToolUse.
#[track_caller]
fn check_metrics(request: &ExportMetricsServiceRequest) {
    assert_eq!(
        metric_points(request),
        [
            "hooks.decisions{hooks.decision=deny,hooks.event=PreToolUse} = 1",
            "hooks.hook.duration{hooks.hook.type=command} count=2",
            "hooks.hook.runs{hooks.hook.status=blocked,hooks.hook.type=command} = 1",
            "hooks.hook.runs{hooks.hook.status=ok,hooks.hook.type=command} = 1",
        ]
    );
}

const DENY: &str = "refusing rm -r with [secret HOOKS_TEST_TOKEN]";

fn deny() -> Value {
    json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": DENY}})
}

#[test]
fn the_bridge_exports_the_event_span_its_hook_spans_and_metrics() {
    let env = env_with(CONFIG);
    let (url, rx) = receiver();
    let (code, stdout, _) = run_bridge(&env, &payload(&env, "rm -r victim"), Some(&url));
    assert_eq!((code, stdout), (0, deny()));
    let (traces, body, metrics) = traces_and_metrics(&rx);
    check_span_tree(&traces, &body, Some("claude"));
    check_metrics(&metrics);
}

#[test]
fn hooks_run_exports_the_same_tree() {
    let env = env_with(CONFIG);
    let (url, rx) = receiver();
    let payload = payload(&env, "rm -r victim");
    let run = env.finish(
        env.command()
            .args(["run", "PreToolUse", "-p", &payload, "--json"])
            .env(SECRET.0, SECRET.1)
            .env("OTEL_EXPORTER_OTLP_ENDPOINT", &url),
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.json()["decision"], "deny");
    let (traces, body, metrics) = traces_and_metrics(&rx);
    check_span_tree(&traces, &body, None);
    check_metrics(&metrics);
}

/// The bridge's answer with export off, in an environment of its own (a second call of the
/// same event in one state directory would take the first's answer).
fn export_off() -> (i32, Value, Duration) {
    let env = env_with(CONFIG);
    run_bridge(&env, &payload(&env, "rm -r victim"), None)
}

/// A closed port: the answer is the one with export off, and the bridge does not wait.
#[test]
fn a_dead_collector_changes_nothing() {
    let env = env_with(CONFIG);
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dead = run_bridge(
        &env,
        &payload(&env, "rm -r victim"),
        Some(&format!("http://127.0.0.1:{port}")),
    );
    let off = export_off();
    assert_eq!((dead.0, &dead.1), (off.0, &off.1));
    assert_eq!((off.0, off.1), (0, deny()));
    // The record stays spooled (bounded) for the next exporter; the dead collector costs
    // the bridge no wait.
    assert!(dead.2 < Duration::from_secs(10), "{:?}", dead.2);
    let spool = Spool::open(env.path().join("home/.local/state/hooks/otel")).unwrap();
    assert_eq!(spool.len(), 1);
}

/// A collector that accepts and never answers: the bridge answers as with export off and
/// exits while the exporter's connection is still open and unanswered.
#[test]
fn a_hanging_collector_holds_the_exporter_not_the_bridge() {
    let env = env_with(CONFIG);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (held_tx, held_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let request = read_request(&stream);
        let _ = held_tx.send((request.map(|(line, _)| line), stream));
    });
    let (code, stdout, elapsed) = run_bridge(&env, &payload(&env, "rm -r victim"), Some(&url));
    let off = export_off();
    let exited = Instant::now();
    assert_eq!((code, &stdout), (off.0, &off.1));
    assert_eq!(stdout, deny());
    // The exporter's request arrives (after the bridge exited, or while it did) and is
    // held unanswered: the exporter's timeout is 20 s, the bridge took far less.
    let (line, stream) = held_rx.recv_timeout(PATIENCE).unwrap();
    assert_eq!(
        line.as_deref().map(str::trim_end),
        Some("POST /v1/traces HTTP/1.1")
    );
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
    // The connection is still open: the client has not given up (a read would see its
    // end, not a timeout).
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut byte = [0; 1];
    let read = (&stream).read(&mut byte);
    assert!(
        matches!(&read, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)),
        "{read:?}"
    );
    assert!(exited.elapsed() < Duration::from_secs(20));
    drop(stream);
}

/// More records than the bound: the oldest go, counted, and the count is exported as
/// `hooks.spool.dropped` with the next flush's metrics.
#[test]
fn the_spool_drops_the_oldest_past_its_bound_and_exports_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let spool = Spool::open(dir.path().join("otel"))
        .unwrap()
        .with_bounds(3, u64::MAX);
    for session in ["s0", "s1", "s2", "s3", "s4"] {
        let mut ctx = EventContext::pre_tool_use("Read", json!({}));
        ctx.set("session_id", session);
        let agg = Aggregate::empty(ctx.event());
        let now = SystemTime::now();
        spool
            .push(&EventRecord::new(&ctx, &agg, now, now).with_agent("claude"))
            .unwrap();
    }
    assert_eq!((spool.len(), spool.dropped()), (3, 2));
    let (url, rx) = receiver();
    let config = OtlpConfig::from_lookup(|name| {
        (name == "OTEL_EXPORTER_OTLP_ENDPOINT").then(|| url.clone())
    })
    .unwrap()
    .unwrap();
    let report = telemetry::flush(&spool, &config, Instant::now() + PATIENCE);
    assert_eq!(
        (report.exported, report.kept, report.dropped_reported),
        (3, 0, 2),
        "{report:?}"
    );
    assert_eq!((spool.len(), spool.dropped()), (0, 0));
    let (traces, _, metrics) = traces_and_metrics(&rx);
    let sessions: Vec<String> = spans(&traces)
        .iter()
        .map(|s| attributes(&s.attributes)["gen_ai.conversation.id"].clone())
        .collect();
    assert_eq!(sessions, ["s2", "s3", "s4"]);
    assert_eq!(
        metric_points(&metrics),
        [
            "hooks.decisions{hooks.decision=none,hooks.event=PreToolUse} = 3",
            "hooks.spool.dropped{} = 2",
        ]
    );
}

/// Stops the daemon of `env` when the test ends, passed or not.
struct DaemonOf<'a>(&'a Env);

impl Drop for DaemonOf<'_> {
    fn drop(&mut self) {
        let _ = self.0.run(&["daemon", "stop"]);
    }
}

#[test]
fn a_call_the_daemon_answers_exports_the_same_tree() {
    let env = env_with(CONFIG);
    let started = env.run(&["daemon", "start"]);
    assert_eq!(started.code, 0, "{}", started.stderr);
    let _daemon = DaemonOf(&env);
    let (url, rx) = receiver();
    let (code, stdout, _) = run_bridge(&env, &payload(&env, "rm -r victim"), Some(&url));
    assert_eq!((code, stdout), (0, deny()));
    let status = env.run(&["daemon", "status", "--json"]).json();
    assert_eq!(status["served"], 1, "the daemon did not answer: {status}");
    let (traces, body, metrics) = traces_and_metrics(&rx);
    check_span_tree(&traces, &body, Some("claude"));
    check_metrics(&metrics);
}

/// The user's config names the collector and asks for commands: the bridge exports with no
/// `OTEL_*` variable set, each hook span carrying its command with the secret masked.
#[test]
fn the_user_config_exports_with_no_variable_and_commands_only_when_it_asks() {
    let (url, rx) = receiver();
    let env = env_with(&format!(
        "{CONFIG}telemetry:\n  endpoint: {url}\n  service_name: from-config\n  export_commands: true\n"
    ));
    let (code, stdout, _) = run_bridge(&env, &payload(&env, "rm -r victim"), None);
    assert_eq!((code, stdout), (0, deny()));
    let (traces, body, metrics) = traces_and_metrics(&rx);
    let text = String::from_utf8_lossy(&body);
    assert!(!text.contains(SECRET.1), "the secret was exported");
    let resource = attributes(
        &traces.resource_spans[0]
            .resource
            .as_ref()
            .unwrap()
            .attributes,
    );
    assert_eq!(resource["service.name"], "from-config");
    let commands: BTreeMap<String, String> = spans(&traces)[1..]
        .iter()
        .map(|span| {
            let attrs = attributes(&span.attributes);
            (
                attrs["hooks.hook.id"].clone(),
                attrs["hooks.hook.command"].clone(),
            )
        })
        .collect();
    assert_eq!(commands["audit"], ": CMD-MARKER-7");
    assert!(
        commands["guard"].contains("refusing rm -r with [secret HOOKS_TEST_TOKEN]")
            && commands["guard"].contains(COMMAND_MARKER),
        "{commands:?}"
    );
    check_metrics(&metrics);
}

/// A project file's `telemetry` is ignored: nothing reaches its collector, the answer is
/// the same, and `hooks validate` says why.
#[test]
fn a_project_file_cannot_send_hook_runs_to_its_collector() {
    let (url, rx) = receiver();
    let env = env_with(CONFIG);
    env.write(
        "proj/.hooks/hooks.yaml",
        &format!("telemetry:\n  endpoint: {url}\n  export_commands: true\n"),
    );
    let trust = env.run(&["trust", ".hooks/hooks.yaml"]);
    assert_eq!(trust.code, 0, "{}{}", trust.stdout, trust.stderr);
    let (code, stdout, _) = run_bridge(&env, &payload(&env, "rm -r victim"), None);
    assert_eq!((code, stdout), (0, deny()));
    assert!(
        rx.recv_timeout(Duration::from_secs(3)).is_err(),
        "the project's collector got a request"
    );
    let spool = env.path().join("home/.local/state/hooks/otel");
    assert!(!spool.exists() || Spool::open(&spool).unwrap().is_empty());
    let validate = env.finish(env.command().arg("validate").env(SECRET.0, SECRET.1));
    assert_eq!(validate.code, 0, "{}{}", validate.stdout, validate.stderr);
    let said = format!("{}{}", validate.stdout, validate.stderr);
    assert!(
        said.contains(".hooks/hooks.yaml:1:1: warning: ignored `telemetry`")
            && said.contains(
                "a repository must not send your hook runs to a collector of its choosing"
            ),
        "{said}"
    );
}

/// Bad telemetry values are errors at their file:line:col.
#[test]
fn bad_telemetry_values_are_errors_at_their_position() {
    let env = env_with(
        "telemetry:\n  endpoint: collector:4318\n  headers:\n    x-token: \"{{ secrets.T }}\"\n  export_commands: yes please\n",
    );
    let run = env.run(&["validate"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let said = format!("{}{}", run.stdout, run.stderr);
    for expected in [
        "hooks.yaml:2:13: error: telemetry `endpoint` `collector:4318` is not an http:// or https:// URL",
        "hooks.yaml:4:14: error: telemetry `headers.x-token`: `{{ secrets.NAME }}` is filled in only for hooks",
        "hooks.yaml:5:20: error: expected a boolean",
    ] {
        assert!(said.contains(expected), "missing `{expected}` in:\n{said}");
    }
}
