//! OpenTelemetry export (feature `otel`): dispatched events as OTLP spans and metrics,
//! encoded as the OTLP/HTTP protobuf bodies a collector takes, configured by the standard
//! `OTEL_*` variables and the config files' `telemetry` settings ([`OtlpConfig::resolve`]).
//!
//! A span tree is built whole once the event is answered (a bridge knows every hook's
//! outcome then), as the OTLP messages of `opentelemetry-proto`, and encoded with prost: no
//! span processor, nothing to flush. The metrics of a batch of events are computed from the
//! same records, with delta temporality (each batch counts its own events). Sending is the
//! caller's, where nobody waits on it: the facade's `hooks::telemetry` spools the records
//! of short-lived processes and posts them from a detached exporter.
//!
//! The span, attribute and metric names are the one table of the guide `docs/telemetry.md`
//! (`hooks::telemetry` in the facade's docs): an event span `hooks {Event}` per event
//! (`hooks.*` attributes, and `gen_ai.conversation.id`, `gen_ai.tool.name`,
//! `gen_ai.tool.call.id`), a child span `hook {id}` per hook run (`hooks.hook.*`), and the
//! metrics `hooks.hook.runs`, `hooks.hook.duration`, `hooks.hook.failures`,
//! `hooks.decisions` and `hooks.spool.dropped`, with delta temporality. Never exported:
//! URLs, the event payload, the environment, hook output and failure messages (they quote
//! stderr), and commands unless the config asks (`export_commands`, `hooks.hook.command`,
//! secrets masked); reasons arrive masked by each hook's redactor.

use std::collections::BTreeMap;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, InstrumentationScope, KeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::{
    AggregationTemporality, Histogram, HistogramDataPoint, Metric, NumberDataPoint,
    ResourceMetrics, ScopeMetrics, Sum, metric, number_data_point,
};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::{
    ResourceSpans, ScopeSpans, Span, Status, span, status,
};
use prost::Message;
use serde::{Deserialize, Serialize};

use hooks_core::{
    Aggregate, Decision, EventContext, FailureKind, FailurePolicy, HookOutcome, HookReport,
    HookSpec, HookStatus, TelemetryLayers, TelemetrySettings, set_pairs,
};

use crate::error::Error;

/// The content type of an OTLP/HTTP protobuf body.
pub const CONTENT_TYPE: &str = "application/x-protobuf";

/// The service name when neither `OTEL_SERVICE_NAME` nor the resource attributes give one.
pub const DEFAULT_SERVICE_NAME: &str = "agentic-hooks";

/// The export timeout when `OTEL_EXPORTER_OTLP_TIMEOUT` does not give one (the
/// specification's 10 s): for the detached exporter, never the agent's wait.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The bounds of the `hooks.hook.duration` histogram's buckets, in seconds (hook timeouts
/// end at 300 s).
pub const DURATION_BOUNDS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0,
];

/// The instrumentation scope's name.
const SCOPE_NAME: &str = "agentic-hooks";

/// This crate's version, as the scope's and the default `service.version`.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// An OTLP signal this engine exports.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signal {
    /// Spans, posted to `/v1/traces`.
    Traces,
    /// Metrics, posted to `/v1/metrics`.
    Metrics,
}

impl Signal {
    /// The signal's name in the `OTEL_EXPORTER_OTLP_{SIGNAL}_*` variables, lower case.
    pub fn as_str(self) -> &'static str {
        match self {
            Signal::Traces => "traces",
            Signal::Metrics => "metrics",
        }
    }

    /// The path appended to `OTEL_EXPORTER_OTLP_ENDPOINT`.
    fn path(self) -> &'static str {
        match self {
            Signal::Traces => "/v1/traces",
            Signal::Metrics => "/v1/metrics",
        }
    }

    /// The signal's own variables: endpoint, protocol, headers, timeout.
    fn vars(self) -> [&'static str; 4] {
        match self {
            Signal::Traces => [
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
                "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
                "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
            ],
            Signal::Metrics => [
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
                "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
                "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
                "OTEL_EXPORTER_OTLP_METRICS_TIMEOUT",
            ],
        }
    }
}

/// Where and how one signal is posted.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Target {
    endpoint: String,
    headers: Vec<(String, String)>,
    timeout: Duration,
}

/// Where and how to export traces and metrics, and what: from the standard `OTEL_*`
/// variables and the config files' `telemetry` settings ([`OtlpConfig::resolve`]).
///
/// Header values are never shown by `Debug` (they often hold an API key). It serialises
/// (header values included) so that a process can hand it to the exporter it starts,
/// through a pipe.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OtlpConfig {
    traces: Option<Target>,
    metrics: Option<Target>,
    resource: Vec<(String, String)>,
    #[serde(default)]
    commands: bool,
}

impl fmt::Debug for OtlpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let target = |t: &Option<Target>| {
            t.as_ref().map(|t| {
                let headers: Vec<&str> = t.headers.iter().map(|(k, _)| k.as_str()).collect();
                format!("{} {headers:?} {:?}", t.endpoint, t.timeout)
            })
        };
        f.debug_struct("OtlpConfig")
            .field("traces", &target(&self.traces))
            .field("metrics", &target(&self.metrics))
            .field("resource", &self.resource)
            .field("commands", &self.commands)
            .finish()
    }
}

impl OtlpConfig {
    /// The configuration of this process's environment alone; see
    /// [`OtlpConfig::from_lookup`].
    pub fn from_env() -> Result<Option<OtlpConfig>, Error> {
        OtlpConfig::from_lookup(|name| std::env::var(name).ok())
    }

    /// The configuration of the loaded config's telemetry settings and this process's
    /// environment; see [`OtlpConfig::resolve`].
    pub fn from_config(layers: &TelemetryLayers) -> Result<Option<OtlpConfig>, Error> {
        OtlpConfig::resolve(layers, |name| std::env::var(name).ok())
    }

    /// The configuration the variables `lookup` gives alone (no config file's settings),
    /// `None` when export is off; see [`OtlpConfig::resolve`].
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<OtlpConfig>, Error> {
        OtlpConfig::resolve(&TelemetryLayers::default(), lookup)
    }

    /// The configuration of the config files' telemetry settings `layers` and the
    /// variables `lookup` gives, `None` when export is off.
    ///
    /// **Precedence: managed policy, then the environment, then the user's file.** Each
    /// value is taken from the highest of the three that gives it:
    ///
    /// - *Whether export is on*: a managed `enabled`, else `OTEL_SDK_DISABLED` (`true`
    ///   turns it off, any other value on), else the user's `enabled`, else on. So
    ///   `OTEL_SDK_DISABLED=true` turns export off unless managed policy says
    ///   `enabled: true`, and a managed `enabled: false` turns it off whatever else is set.
    /// - *Where each signal goes*: a managed `endpoint` (with `/v1/traces` or
    ///   `/v1/metrics` appended), else the variables (the signal's own
    ///   `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `..._METRICS_ENDPOINT` as given, else
    ///   `OTEL_EXPORTER_OTLP_ENDPOINT` with the path appended), else the user's `endpoint`.
    ///   No endpoint anywhere means no export: unlike the specification's default of
    ///   `http://localhost:4318`, as a bridge runs on every event of every user and most run
    ///   no collector.
    /// - *Headers* go with the endpoint they were given for: a config endpoint gets that
    ///   layer's `headers`, an endpoint of the variables gets `OTEL_EXPORTER_OTLP_HEADERS`
    ///   with the signal's `..._HEADERS` over them. A user's token never reaches managed
    ///   policy's collector, nor policy's the user's.
    /// - *The resource*: the user's `resource_attributes` and `service_name`, then
    ///   `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_SERVICE_NAME`, then managed policy's, each over
    ///   the one before, key by key (`service_name` over `service.name` in the same
    ///   source); `service.name` defaults to `agentic-hooks`.
    /// - *Commands*: `export_commands` of managed policy, else the user's, else off (no
    ///   variable sets it).
    ///
    /// The protocol (the signal's `..._PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`) must be
    /// `http/protobuf`, the default, when the variables give the endpoint; a config
    /// endpoint is always posted to as OTLP/HTTP protobuf. The timeout is the signal's
    /// `..._TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`, in milliseconds, for any endpoint.
    /// Empty variables count as unset.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidSetting`] for a variable the endpoint in force depends on: another
    /// protocol, an endpoint that is not an `http://` or `https://` URL, or a timeout that is
    /// not a number of milliseconds. A malformed `key=value` entry of a header or resource
    /// list is skipped with a warning, as the specification asks. (The config files'
    /// values are checked when they load.)
    pub fn resolve(
        layers: &TelemetryLayers,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<OtlpConfig>, Error> {
        let TelemetryLayers { user, managed } = layers;
        let var = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let env_enabled = var("OTEL_SDK_DISABLED").map(|v| !v.trim().eq_ignore_ascii_case("true"));
        if !managed
            .enabled
            .or(env_enabled)
            .or(user.enabled)
            .unwrap_or(true)
        {
            return Ok(None);
        }
        let mut targets = [None, None];
        for (slot, signal) in targets.iter_mut().zip([Signal::Traces, Signal::Metrics]) {
            *slot = match configured(managed, signal, &var) {
                Some(target) => Some(target),
                None => match target(signal, &var)? {
                    Some(target) => Some(target),
                    None => configured(user, signal, &var),
                },
            };
        }
        let [traces, metrics] = targets;
        if traces.is_none() && metrics.is_none() {
            return Ok(None);
        }
        let mut resource = Vec::new();
        set_config_resource(&mut resource, user);
        if let Some(list) = var("OTEL_RESOURCE_ATTRIBUTES") {
            set_pairs(
                &mut resource,
                &parse_pairs("OTEL_RESOURCE_ATTRIBUTES", &list),
            );
        }
        if let Some(name) = var("OTEL_SERVICE_NAME") {
            set_pairs(
                &mut resource,
                &[("service.name".to_owned(), name.trim().to_owned())],
            );
        }
        set_config_resource(&mut resource, managed);
        for (key, default) in [
            ("service.name", DEFAULT_SERVICE_NAME),
            ("service.version", VERSION),
        ] {
            if !resource.iter().any(|(k, _)| k == key) {
                resource.push((key.to_owned(), default.to_owned()));
            }
        }
        Ok(Some(OtlpConfig {
            traces,
            metrics,
            resource,
            commands: managed
                .export_commands
                .or(user.export_commands)
                .unwrap_or(false),
        }))
    }

    /// Whether hook spans carry their command text (`export_commands`; off by default).
    pub fn export_commands(&self) -> bool {
        self.commands
    }

    fn target(&self, signal: Signal) -> Option<&Target> {
        match signal {
            Signal::Traces => self.traces.as_ref(),
            Signal::Metrics => self.metrics.as_ref(),
        }
    }

    /// The URL `signal` is posted to, `None` when it is not exported.
    pub fn endpoint(&self, signal: Signal) -> Option<&str> {
        self.target(signal).map(|t| t.endpoint.as_str())
    }

    /// The headers sent with each request of `signal`, in the order given.
    pub fn headers(&self, signal: Signal) -> &[(String, String)] {
        self.target(signal).map_or(&[], |t| t.headers.as_slice())
    }

    /// The resource's attributes, `service.name` and `service.version` among them.
    pub fn resource(&self) -> &[(String, String)] {
        &self.resource
    }

    /// How long one export of `signal` may take (the exporter's bound, never the agent's).
    pub fn timeout(&self, signal: Signal) -> Duration {
        self.target(signal).map_or(DEFAULT_TIMEOUT, |t| t.timeout)
    }

    /// The OTLP/HTTP protobuf body (an `ExportTraceServiceRequest`) of `events`, each its
    /// own trace; see the [module docs](self) for the spans and their attributes.
    pub fn encode_traces(&self, events: &[EventRecord]) -> Vec<u8> {
        self.trace_request(events).encode_to_vec()
    }

    /// The OTLP/HTTP protobuf body (an `ExportMetricsServiceRequest`) of the metrics of
    /// `events`, one batch with delta temporality, and `dropped` records dropped unsent
    /// since the last batch; `None` when there is nothing to count. See the
    /// [module docs](self) for the metrics.
    pub fn encode_metrics(&self, events: &[EventRecord], dropped: u64) -> Option<Vec<u8>> {
        self.metrics_request(events, dropped)
            .map(|request| request.encode_to_vec())
    }

    /// An exporter posting to this configuration's endpoints, one HTTP client for all its
    /// requests.
    ///
    /// # Errors
    ///
    /// [`Error::HttpClient`] when no client can be built.
    pub fn exporter(&self) -> Result<Exporter, Error> {
        let client = reqwest::Client::builder()
            .user_agent(concat!("hooks/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(Error::HttpClient)?;
        Ok(Exporter {
            config: self.clone(),
            client,
        })
    }

    fn resource_message(&self) -> Resource {
        Resource {
            attributes: self
                .resource
                .iter()
                .map(|(k, v)| string(k, v.clone()))
                .collect(),
            ..Resource::default()
        }
    }

    /// The request [`OtlpConfig::encode_traces`] encodes.
    fn trace_request(&self, events: &[EventRecord]) -> ExportTraceServiceRequest {
        let spans = events.iter().flat_map(EventRecord::spans).collect();
        ExportTraceServiceRequest {
            resource_spans: vec![ResourceSpans {
                resource: Some(self.resource_message()),
                scope_spans: vec![ScopeSpans {
                    scope: Some(scope()),
                    spans,
                    schema_url: String::new(),
                }],
                schema_url: String::new(),
            }],
        }
    }

    /// The request [`OtlpConfig::encode_metrics`] encodes.
    fn metrics_request(
        &self,
        events: &[EventRecord],
        dropped: u64,
    ) -> Option<ExportMetricsServiceRequest> {
        let metrics = Tally::of(events, dropped)?.metrics();
        Some(ExportMetricsServiceRequest {
            resource_metrics: vec![ResourceMetrics {
                resource: Some(self.resource_message()),
                scope_metrics: vec![ScopeMetrics {
                    scope: Some(scope()),
                    metrics,
                    schema_url: String::new(),
                }],
                schema_url: String::new(),
            }],
        })
    }
}

/// Posts encoded bodies to an [`OtlpConfig`]'s endpoints; cheap to keep, one client for
/// every request (a long-lived engine keeps one).
#[derive(Clone, Debug)]
pub struct Exporter {
    config: OtlpConfig,
    client: reqwest::Client,
}

impl Exporter {
    /// The configuration it posts by.
    pub fn config(&self) -> &OtlpConfig {
        &self.config
    }

    /// Posts `body` (from [`OtlpConfig::encode_traces`] or
    /// [`OtlpConfig::encode_metrics`]) to `signal`'s endpoint with its headers, within its
    /// timeout and `limit`, whichever is shorter (connecting included).
    ///
    /// This waits for the collector: call it where nobody waits on it (the detached
    /// exporter, a resident engine), never before an agent's answer is written.
    ///
    /// # Errors
    ///
    /// [`Error::OtlpExport`] when the signal is not exported, or the collector cannot be
    /// reached in time or answers other than 2xx.
    pub async fn export(
        &self,
        signal: Signal,
        body: Vec<u8>,
        limit: Duration,
    ) -> Result<(), Error> {
        let Some(target) = self.config.target(signal) else {
            return Err(Error::OtlpExport {
                endpoint: String::new(),
                message: format!("no endpoint is set for {}", signal.as_str()),
            });
        };
        let failed = |message: String| Error::OtlpExport {
            endpoint: target.endpoint.clone(),
            message,
        };
        let mut request = self
            .client
            .post(&target.endpoint)
            .timeout(target.timeout.min(limit))
            .header(reqwest::header::CONTENT_TYPE, CONTENT_TYPE)
            .body(body);
        for (name, value) in &target.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let response = request
            .send()
            .await
            .map_err(|err| failed(err.without_url().to_string()))?;
        if response.status().is_success() {
            Ok(())
        } else {
            Err(failed(format!(
                "the collector answered {}",
                response.status()
            )))
        }
    }
}

/// `signal`'s target from the variables `var` gives, `None` when it has no endpoint.
fn target(signal: Signal, var: &impl Fn(&str) -> Option<String>) -> Result<Option<Target>, Error> {
    let [endpoint_var, protocol_var, headers_var, _] = signal.vars();
    let (setting, endpoint) = match (var(endpoint_var), var("OTEL_EXPORTER_OTLP_ENDPOINT")) {
        (Some(own), _) => (endpoint_var, own.trim().to_owned()),
        (None, Some(base)) => (
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("{}{}", base.trim().trim_end_matches('/'), signal.path()),
        ),
        (None, None) => return Ok(None),
    };
    if !(endpoint.starts_with("http://") || endpoint.starts_with("https://")) {
        return Err(invalid(
            setting,
            format!("`{endpoint}` is not an http:// or https:// URL"),
        ));
    }
    let (setting, protocol) = match var(protocol_var) {
        Some(p) => (protocol_var, p),
        None => (
            "OTEL_EXPORTER_OTLP_PROTOCOL",
            var("OTEL_EXPORTER_OTLP_PROTOCOL").unwrap_or_else(|| "http/protobuf".to_owned()),
        ),
    };
    if protocol.trim() != "http/protobuf" {
        return Err(invalid(
            setting,
            format!(
                "`{}` is not supported: only `http/protobuf` is exported",
                protocol.trim()
            ),
        ));
    }
    let mut headers = Vec::new();
    for name in ["OTEL_EXPORTER_OTLP_HEADERS", headers_var] {
        if let Some(list) = var(name) {
            set_pairs(&mut headers, &parse_pairs(name, &list));
        }
    }
    Ok(Some(Target {
        endpoint,
        headers,
        timeout: timeout(signal, var)?,
    }))
}

/// `signal`'s timeout from the variables `var` gives (the signal's `..._TIMEOUT`, else
/// `OTEL_EXPORTER_OTLP_TIMEOUT`), else [`DEFAULT_TIMEOUT`].
fn timeout(signal: Signal, var: &impl Fn(&str) -> Option<String>) -> Result<Duration, Error> {
    let [.., timeout_var] = signal.vars();
    match (var(timeout_var), var("OTEL_EXPORTER_OTLP_TIMEOUT")) {
        (Some(ms), _) => millis(timeout_var, &ms),
        (None, Some(ms)) => millis("OTEL_EXPORTER_OTLP_TIMEOUT", &ms),
        (None, None) => Ok(DEFAULT_TIMEOUT),
    }
}

/// `signal`'s target from a config layer's `settings`, `None` when it names no endpoint:
/// its endpoint with the signal's path, its headers, the variables' timeout (the default
/// when they give an invalid one: the variables are not what this endpoint came from).
fn configured(
    settings: &TelemetrySettings,
    signal: Signal,
    var: &impl Fn(&str) -> Option<String>,
) -> Option<Target> {
    let base = settings.endpoint.as_deref()?;
    Some(Target {
        endpoint: format!("{}{}", base.trim().trim_end_matches('/'), signal.path()),
        headers: settings.headers.clone(),
        timeout: timeout(signal, var).unwrap_or(DEFAULT_TIMEOUT),
    })
}

/// Puts a config layer's resource attributes into `resource`, then its `service_name` as
/// `service.name`.
fn set_config_resource(resource: &mut Vec<(String, String)>, settings: &TelemetrySettings) {
    set_pairs(resource, &settings.resource_attributes);
    if let Some(name) = &settings.service_name {
        set_pairs(resource, &[("service.name".to_owned(), name.clone())]);
    }
}

/// The instrumentation scope of every request.
fn scope() -> InstrumentationScope {
    InstrumentationScope {
        name: SCOPE_NAME.to_owned(),
        version: VERSION.to_owned(),
        ..InstrumentationScope::default()
    }
}

/// What is exported of one dispatched event: its answer and its hooks' runs.
///
/// Serialisable, so that a short-lived process can spool it for an exporter (the facade's
/// `hooks::telemetry`); what it holds is already masked and holds no command or payload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    /// The event's canonical name.
    pub event: String,
    /// The agent that called the engine (`claude`, `codex`, ...), when the host knows it.
    pub agent: Option<String>,
    /// The event's `session_id`.
    pub session_id: Option<String>,
    /// The canonical tool name, on tool events.
    pub tool_name: Option<String>,
    /// The agent's id of the tool call (`tool_use_id`).
    pub tool_call_id: Option<String>,
    /// The aggregate's decision.
    pub decision: Decision,
    /// The aggregate's reason (already masked by the hooks' redactors).
    pub reason: Option<String>,
    /// When the dispatch started.
    pub started: SystemTime,
    /// When the answer was ready.
    pub ended: SystemTime,
    /// One record per hook run, in declaration order.
    pub hooks: Vec<HookRecord>,
}

impl EventRecord {
    /// The record of `aggregate`, the answer to `ctx` dispatched from `started` to
    /// `ended`, without hooks (add them with [`EventRecord::with_hook`], or take the
    /// aggregate's reports with [`EventRecord::with_reports`]).
    pub fn new(
        ctx: &EventContext,
        aggregate: &Aggregate,
        started: SystemTime,
        ended: SystemTime,
    ) -> EventRecord {
        EventRecord {
            event: ctx.event().name().to_owned(),
            agent: None,
            session_id: ctx.get_str("session_id").map(str::to_owned),
            tool_name: ctx.tool_name().map(str::to_owned),
            tool_call_id: ctx.get_str("tool_use_id").map(str::to_owned),
            decision: aggregate.effects.decision,
            reason: aggregate.effects.reason.clone(),
            started,
            ended,
            hooks: Vec::new(),
        }
    }

    /// Names the agent that called the engine.
    #[must_use]
    pub fn with_agent(mut self, agent: impl Into<String>) -> EventRecord {
        self.agent = Some(agent.into());
        self
    }

    /// Adds one hook run.
    #[must_use]
    pub fn with_hook(mut self, hook: HookRecord) -> EventRecord {
        self.hooks.push(hook);
        self
    }

    /// Adds a hook run for each of `aggregate`'s reports, with the type, dialect, mode and
    /// failure policy of the spec among `specs` with the report's id and source (the specs
    /// the event matched; none known: `&[]`). A report without its run's start ends when
    /// the event did.
    #[must_use]
    pub fn with_reports(mut self, aggregate: &Aggregate, specs: &[&HookSpec]) -> EventRecord {
        let ended = self.ended;
        self.hooks.extend(aggregate.hooks.iter().map(|report| {
            let record = HookRecord::from_report(report, ended);
            match spec_of(specs, &report.id, &report.source) {
                Some(spec) => record.with_spec(spec),
                None => record,
            }
        }));
        self
    }

    /// Gives each hook run the command text `command` renders of its spec among `specs`
    /// (found as [`EventRecord::with_reports`] finds it), which must mask what must not
    /// leave the engine; a run whose spec is not found, or renders `None`, gets none. Call
    /// it only when [`OtlpConfig::export_commands`] is on.
    #[must_use]
    pub fn with_commands(
        mut self,
        specs: &[&HookSpec],
        command: impl Fn(&HookSpec) -> Option<String>,
    ) -> EventRecord {
        for hook in &mut self.hooks {
            hook.command = spec_of(specs, &hook.id, &hook.source).and_then(&command);
        }
        self
    }

    /// The event span and its hooks' spans, in a new trace.
    fn spans(&self) -> Vec<Span> {
        let trace_id = ids::trace_id();
        let event_span_id = ids::span_id();
        let mut attributes = vec![string("hooks.event", self.event.clone())];
        let optional = [
            ("hooks.agent", &self.agent),
            ("gen_ai.conversation.id", &self.session_id),
            ("gen_ai.tool.name", &self.tool_name),
            ("gen_ai.tool.call.id", &self.tool_call_id),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                attributes.push(string(key, value.clone()));
            }
        }
        attributes.push(string("hooks.decision", self.decision.as_str()));
        if let Some(reason) = &self.reason {
            attributes.push(string("hooks.decision.reason", reason.clone()));
        }
        attributes.push(int(
            "hooks.hook_count",
            i64::try_from(self.hooks.len()).unwrap_or(i64::MAX),
        ));
        let mut spans = Vec::with_capacity(1 + self.hooks.len());
        spans.push(Span {
            trace_id: trace_id.to_vec(),
            span_id: event_span_id.to_vec(),
            name: format!("hooks {}", self.event),
            kind: span::SpanKind::Internal as i32,
            start_time_unix_nano: unix_nanos(self.started),
            end_time_unix_nano: unix_nanos(self.ended.max(self.started)),
            attributes,
            ..Span::default()
        });
        for hook in &self.hooks {
            spans.push(hook.span(&trace_id, &event_span_id));
        }
        spans
    }
}

/// The spec among `specs` of the hook run with the display id `id`, defined at `source`.
fn spec_of<'s>(specs: &[&'s HookSpec], id: &str, source: &str) -> Option<&'s HookSpec> {
    specs
        .iter()
        .copied()
        .find(|spec| spec.display_id() == id && spec.provenance.to_string() == source)
}

/// What is exported of one hook run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookRecord {
    /// The hook's display id.
    pub id: String,
    /// Its type (`command`, `http`, ...), when known.
    pub kind: Option<String>,
    /// Where it is defined.
    pub source: String,
    /// The dialect it is written in, when known.
    pub dialect: Option<String>,
    /// Whether it ran in the background, when known.
    pub is_async: Option<bool>,
    /// How its run ended.
    pub status: HookStatus,
    /// Its process's exit code.
    pub exit_code: Option<i32>,
    /// The decision it contributed.
    pub decision: Decision,
    /// How long it ran.
    pub duration: Option<Duration>,
    /// Why it failed, when it did (the kind only: the message quotes its stderr).
    pub failure: Option<FailureKind>,
    /// Its failure policy, when known.
    pub on_failure: Option<FailurePolicy>,
    /// When it started, when known (the runner's [`RunInfo::started`](hooks_core::RunInfo)).
    pub started: Option<SystemTime>,
    /// When its outcome arrived (used when its start is unknown).
    pub ended: SystemTime,
    /// Its command text, secrets masked, when the configuration asks for commands
    /// ([`OtlpConfig::export_commands`]); never set otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

impl HookRecord {
    /// The record of `spec`'s run, which answered `outcome` at `ended`.
    pub fn new(spec: &HookSpec, outcome: &HookOutcome, ended: SystemTime) -> HookRecord {
        HookRecord {
            id: spec.display_id(),
            kind: None,
            source: spec.provenance.to_string(),
            dialect: None,
            is_async: None,
            status: outcome.run.status,
            exit_code: outcome.run.exit_code,
            decision: outcome.effects.decision,
            duration: outcome.run.duration,
            failure: outcome.run.failure.as_ref().map(|f| f.kind),
            on_failure: None,
            started: outcome.run.started,
            ended,
            command: None,
        }
        .with_spec(spec)
    }

    /// This record with what `spec` says of the hook: its type, dialect, mode and failure
    /// policy.
    #[must_use]
    pub fn with_spec(mut self, spec: &HookSpec) -> HookRecord {
        self.kind = Some(spec.action.type_name().to_owned());
        self.dialect = Some(spec.dialect.as_str().to_owned());
        self.is_async = Some(spec.is_async);
        self.on_failure = Some(spec.on_failure);
        self
    }

    /// The record of an aggregate's report of a hook, ended at `ended` (its type, dialect,
    /// mode and failure policy unknown).
    pub fn from_report(report: &HookReport, ended: SystemTime) -> HookRecord {
        HookRecord {
            id: report.id.clone(),
            kind: None,
            source: report.source.clone(),
            dialect: None,
            is_async: None,
            status: report.run.status,
            exit_code: report.run.exit_code,
            decision: report.decision,
            duration: report.run.duration,
            failure: report.run.failure.as_ref().map(|f| f.kind),
            on_failure: None,
            started: report.run.started,
            ended,
            command: None,
        }
    }

    /// This record with the hook's command text, which must already be masked (the
    /// facade's recorder gives it only when [`OtlpConfig::export_commands`] is on).
    #[must_use]
    pub fn with_command(mut self, command: impl Into<String>) -> HookRecord {
        self.command = Some(command.into());
        self
    }

    /// The run's start and end, in nanoseconds since the Unix epoch: from its start for its
    /// duration, else ending when its outcome arrived.
    fn interval(&self) -> (u64, u64) {
        let duration = self
            .duration
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        match self.started {
            Some(started) => {
                let start = unix_nanos(started);
                (start, start.saturating_add(duration))
            }
            None => {
                let end = unix_nanos(self.ended);
                (end.saturating_sub(duration), end)
            }
        }
    }

    /// The hook's span, a child of `parent` in `trace_id`.
    fn span(&self, trace_id: &[u8; 16], parent: &[u8; 8]) -> Span {
        let failed = self.status.is_failure();
        let timed_out = self.status == HookStatus::TimedOut;
        let mut attributes = vec![
            string("hooks.hook.id", self.id.clone()),
            string("hooks.hook.source", self.source.clone()),
        ];
        if let Some(kind) = &self.kind {
            attributes.push(string("hooks.hook.type", kind.clone()));
        }
        if let Some(dialect) = &self.dialect {
            attributes.push(string("hooks.hook.dialect", dialect.clone()));
        }
        if let Some(is_async) = self.is_async {
            attributes.push(boolean("hooks.hook.async", is_async));
        }
        attributes.push(string("hooks.hook.status", self.status.as_str()));
        if let Some(code) = self.exit_code {
            attributes.push(int("hooks.hook.exit_code", i64::from(code)));
        }
        attributes.push(string("hooks.hook.decision", self.decision.as_str()));
        attributes.push(boolean("hooks.hook.timed_out", timed_out));
        attributes.push(boolean("hooks.hook.failed", failed));
        if let Some(policy) = self.on_failure {
            attributes.push(boolean(
                "hooks.hook.fail_open",
                failed && policy == FailurePolicy::Allow,
            ));
        }
        if let Some(kind) = self.failure {
            attributes.push(string("hooks.hook.failure.kind", kind.as_str()));
        }
        if let Some(command) = &self.command {
            attributes.push(string("hooks.hook.command", command.clone()));
        }
        let status = if failed {
            Some(Status {
                message: self
                    .failure
                    .map_or_else(|| self.status.as_str(), FailureKind::as_str)
                    .to_owned(),
                code: status::StatusCode::Error as i32,
            })
        } else {
            None
        };
        let (start, end) = self.interval();
        Span {
            trace_id: trace_id.to_vec(),
            span_id: ids::span_id().to_vec(),
            parent_span_id: parent.to_vec(),
            name: format!("hook {}", self.id),
            kind: span::SpanKind::Internal as i32,
            start_time_unix_nano: start,
            end_time_unix_nano: end,
            attributes,
            status,
            ..Span::default()
        }
    }
}

/// The metrics of one batch of events: its counts by attribute set, and its window.
struct Tally {
    start: u64,
    end: u64,
    /// By (type, status).
    runs: BTreeMap<(String, &'static str), u64>,
    /// By type: the count, the sum, the minimum, the maximum and the bucket counts.
    durations: BTreeMap<String, Buckets>,
    /// By (type, failure kind).
    failures: BTreeMap<(String, &'static str), u64>,
    /// By (event, decision).
    decisions: BTreeMap<(String, &'static str), u64>,
    dropped: u64,
}

/// One histogram data point's values.
struct Buckets {
    count: u64,
    sum: f64,
    min: f64,
    max: f64,
    counts: Vec<u64>,
}

impl Buckets {
    fn new() -> Buckets {
        Buckets {
            count: 0,
            sum: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            counts: vec![0; DURATION_BOUNDS.len() + 1],
        }
    }

    fn add(&mut self, seconds: f64) {
        self.count += 1;
        self.sum += seconds;
        self.min = self.min.min(seconds);
        self.max = self.max.max(seconds);
        // A bucket holds the values above its lower bound up to its upper bound, inclusive.
        let bucket = DURATION_BOUNDS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(DURATION_BOUNDS.len());
        self.counts[bucket] += 1;
    }
}

/// The type a hook is counted under when its record does not say.
const UNKNOWN_TYPE: &str = "unknown";

impl Tally {
    /// The counts of `events` and `dropped` records; `None` when both are empty.
    fn of(events: &[EventRecord], dropped: u64) -> Option<Tally> {
        if events.is_empty() && dropped == 0 {
            return None;
        }
        let now = unix_nanos(SystemTime::now());
        let start = events
            .iter()
            .map(|e| unix_nanos(e.started))
            .min()
            .unwrap_or(now);
        let end = events
            .iter()
            .map(|e| unix_nanos(e.ended.max(e.started)))
            .max()
            .unwrap_or(now)
            .max(start);
        let mut tally = Tally {
            start,
            end,
            runs: BTreeMap::new(),
            durations: BTreeMap::new(),
            failures: BTreeMap::new(),
            decisions: BTreeMap::new(),
            dropped,
        };
        for event in events {
            *tally
                .decisions
                .entry((event.event.clone(), event.decision.as_str()))
                .or_default() += 1;
            for hook in &event.hooks {
                let kind = hook.kind.clone().unwrap_or_else(|| UNKNOWN_TYPE.to_owned());
                *tally
                    .runs
                    .entry((kind.clone(), hook.status.as_str()))
                    .or_default() += 1;
                if let Some(duration) = hook.duration {
                    tally
                        .durations
                        .entry(kind.clone())
                        .or_insert_with(Buckets::new)
                        .add(duration.as_secs_f64());
                }
                if hook.status.is_failure() {
                    let failure = hook
                        .failure
                        .map_or_else(|| hook.status.as_str(), FailureKind::as_str);
                    *tally.failures.entry((kind, failure)).or_default() += 1;
                }
            }
        }
        Some(tally)
    }

    /// The batch's metrics, the ones with data points.
    fn metrics(&self) -> Vec<Metric> {
        let counter = |pairs: &BTreeMap<(String, &'static str), u64>, keys: [&str; 2]| {
            pairs
                .iter()
                .map(|((a, b), &n)| {
                    self.number(vec![string(keys[0], a.clone()), string(keys[1], *b)], n)
                })
                .collect::<Vec<_>>()
        };
        let mut metrics = vec![
            sum(
                "hooks.hook.runs",
                "Hook runs, by hook type and how the run ended.",
                "{run}",
                counter(&self.runs, ["hooks.hook.type", "hooks.hook.status"]),
            ),
            Metric {
                name: "hooks.hook.duration".to_owned(),
                description: "How long hook runs took, by hook type.".to_owned(),
                unit: "s".to_owned(),
                data: Some(metric::Data::Histogram(Histogram {
                    data_points: self
                        .durations
                        .iter()
                        .map(|(kind, b)| HistogramDataPoint {
                            attributes: vec![string("hooks.hook.type", kind.clone())],
                            start_time_unix_nano: self.start,
                            time_unix_nano: self.end,
                            count: b.count,
                            sum: Some(b.sum),
                            bucket_counts: b.counts.clone(),
                            explicit_bounds: DURATION_BOUNDS.to_vec(),
                            min: Some(b.min),
                            max: Some(b.max),
                            ..HistogramDataPoint::default()
                        })
                        .collect(),
                    aggregation_temporality: AggregationTemporality::Delta as i32,
                })),
                ..Metric::default()
            },
            sum(
                "hooks.hook.failures",
                "Hook runs that failed or timed out, by hook type and failure kind.",
                "{failure}",
                counter(
                    &self.failures,
                    ["hooks.hook.type", "hooks.hook.failure.kind"],
                ),
            ),
            sum(
                "hooks.decisions",
                "Answered events, by event and decision.",
                "{decision}",
                counter(&self.decisions, ["hooks.event", "hooks.decision"]),
            ),
        ];
        if self.dropped > 0 {
            metrics.push(sum(
                "hooks.spool.dropped",
                "Records dropped unsent, the spool being full.",
                "{record}",
                vec![self.number(Vec::new(), self.dropped)],
            ));
        }
        metrics.retain(|m| match &m.data {
            Some(metric::Data::Sum(s)) => !s.data_points.is_empty(),
            Some(metric::Data::Histogram(h)) => !h.data_points.is_empty(),
            _ => true,
        });
        metrics
    }

    /// A counter's data point over the batch's window.
    fn number(&self, attributes: Vec<KeyValue>, value: u64) -> NumberDataPoint {
        NumberDataPoint {
            attributes,
            start_time_unix_nano: self.start,
            time_unix_nano: self.end,
            value: Some(number_data_point::Value::AsInt(
                i64::try_from(value).unwrap_or(i64::MAX),
            )),
            ..NumberDataPoint::default()
        }
    }
}

/// A monotonic delta counter.
fn sum(name: &str, description: &str, unit: &str, data_points: Vec<NumberDataPoint>) -> Metric {
    Metric {
        name: name.to_owned(),
        description: description.to_owned(),
        unit: unit.to_owned(),
        data: Some(metric::Data::Sum(Sum {
            data_points,
            aggregation_temporality: AggregationTemporality::Delta as i32,
            is_monotonic: true,
        })),
        ..Metric::default()
    }
}

/// A setting error for the variable `setting`.
fn invalid(setting: &'static str, message: String) -> Error {
    Error::InvalidSetting { setting, message }
}

/// A timeout in milliseconds.
fn millis(setting: &'static str, value: &str) -> Result<Duration, Error> {
    value
        .trim()
        .parse::<u64>()
        .map(Duration::from_millis)
        .map_err(|_| {
            invalid(
                setting,
                format!("`{value}` is not a number of milliseconds"),
            )
        })
}

/// The `key=value` entries of a W3C-Baggage-like list (`OTEL_EXPORTER_OTLP_HEADERS`,
/// `OTEL_RESOURCE_ATTRIBUTES`), values percent-decoded; a malformed entry is skipped with a
/// warning naming the variable, never its value (a header may hold a key).
fn parse_pairs(variable: &str, list: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for entry in list.split(',') {
        if entry.trim().is_empty() {
            continue;
        }
        let parsed = entry.split_once('=').and_then(|(key, value)| {
            let key = key.trim();
            let value = percent_decode(value.trim())?;
            (!key.is_empty()).then(|| (key.to_owned(), value))
        });
        match parsed {
            Some(pair) => pairs.push(pair),
            None => tracing::warn!(variable, "skipping a malformed `key=value` entry"),
        }
    }
    pairs
}

/// `%XX` escapes decoded; `None` when an escape is cut short or the result is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Nanoseconds since the Unix epoch (0 before it).
fn unix_nanos(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

fn attribute(key: &str, value: any_value::Value) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value: Some(AnyValue { value: Some(value) }),
        ..KeyValue::default()
    }
}

fn string(key: &str, value: impl Into<String>) -> KeyValue {
    attribute(key, any_value::Value::StringValue(value.into()))
}

fn int(key: &str, value: i64) -> KeyValue {
    attribute(key, any_value::Value::IntValue(value))
}

fn boolean(key: &str, value: bool) -> KeyValue {
    attribute(key, any_value::Value::BoolValue(value))
}

/// Random trace and span ids, from std's randomly keyed SipHash (no RNG crate needed for
/// ids that only have to be unique, not secret).
mod ids {
    use super::{AtomicU64, BuildHasher, Hasher, Ordering, RandomState};

    static COUNTER: AtomicU64 = AtomicU64::new(0);

    /// A random non-zero `u64`.
    fn random() -> u64 {
        loop {
            let mut hasher = RandomState::new().build_hasher();
            hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
            hasher.write_u32(std::process::id());
            let value = hasher.finish();
            if value != 0 {
                return value;
            }
        }
    }

    /// A trace id: 16 random bytes, not all zero.
    pub(super) fn trace_id() -> [u8; 16] {
        let mut id = [0; 16];
        id[..8].copy_from_slice(&random().to_be_bytes());
        id[8..].copy_from_slice(&random().to_be_bytes());
        id
    }

    /// A span id: 8 random bytes, not all zero.
    pub(super) fn span_id() -> [u8; 8] {
        random().to_be_bytes()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::{Duration, UNIX_EPOCH};

    use hooks_core::{
        Action, AggregateEntry, BuiltinEvent, Decision, EventContext, FailureKind, FailurePolicy,
        HookOutcome, HookPos, HookSpec, Redactor, aggregate_context,
    };
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use opentelemetry_proto::tonic::common::v1::{KeyValue, any_value};
    use opentelemetry_proto::tonic::metrics::v1::number_data_point;
    use opentelemetry_proto::tonic::trace::v1::{Span, status};
    use prost::Message;
    use serde_json::json;

    use hooks_core::{TelemetryLayers, TelemetrySettings};

    use super::{EventRecord, HookRecord, OtlpConfig, Signal};
    use crate::error::Error;

    /// The configuration `vars` give.
    fn config(vars: &[(&str, &str)]) -> Result<Option<OtlpConfig>, Error> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        OtlpConfig::from_lookup(|name| vars.get(name).cloned())
    }

    #[track_caller]
    fn on(vars: &[(&str, &str)]) -> OtlpConfig {
        match config(vars) {
            Ok(Some(config)) => config,
            other => panic!("expected a configuration, got {other:?}"),
        }
    }

    /// A span's attributes as `key=value` strings, sorted.
    fn attributes(attributes: &[KeyValue]) -> Vec<String> {
        let mut out: Vec<String> = attributes
            .iter()
            .map(|kv| {
                let value = match kv.value.as_ref().and_then(|v| v.value.as_ref()) {
                    Some(any_value::Value::StringValue(s)) => s.clone(),
                    Some(any_value::Value::BoolValue(b)) => b.to_string(),
                    Some(any_value::Value::IntValue(i)) => i.to_string(),
                    other => format!("{other:?}"),
                };
                format!("{}={value}", kv.key)
            })
            .collect();
        out.sort();
        out
    }

    fn decode(bytes: &[u8]) -> ExportTraceServiceRequest {
        ExportTraceServiceRequest::decode(bytes).expect("the body decodes")
    }

    fn spans(request: &ExportTraceServiceRequest) -> Vec<&Span> {
        request
            .resource_spans
            .iter()
            .flat_map(|rs| &rs.scope_spans)
            .flat_map(|ss| &ss.spans)
            .collect()
    }

    #[test]
    fn off_without_an_endpoint_or_when_disabled() {
        assert_eq!(config(&[]).ok(), Some(None));
        assert_eq!(
            config(&[
                ("OTEL_SDK_DISABLED", "TRUE"),
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ])
            .ok(),
            Some(None)
        );
        assert_eq!(
            config(&[("OTEL_EXPORTER_OTLP_ENDPOINT", " ")]).ok(),
            Some(None)
        );
    }

    #[test]
    fn endpoints() {
        let base = on(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318/")]);
        assert_eq!(
            base.endpoint(Signal::Traces).unwrap(),
            "http://127.0.0.1:4318/v1/traces"
        );
        let traces = on(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            (
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "https://collector/custom",
            ),
        ]);
        assert_eq!(
            traces.endpoint(Signal::Traces).unwrap(),
            "https://collector/custom"
        );
        assert!(config(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "127.0.0.1:4318")]).is_err());
    }

    #[test]
    fn only_http_protobuf() {
        let endpoint = ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318");
        assert!(config(&[endpoint, ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")]).is_ok());
        for protocol in ["grpc", "http/json"] {
            let err = config(&[endpoint, ("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)]);
            assert!(
                matches!(
                    err,
                    Err(Error::InvalidSetting {
                        setting: "OTEL_EXPORTER_OTLP_PROTOCOL",
                        ..
                    })
                ),
                "{protocol}: {err:?}"
            );
        }
        assert!(config(&[endpoint, ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc")]).is_err());
    }

    #[test]
    fn headers_resource_and_timeout() {
        let config = on(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            (
                "OTEL_EXPORTER_OTLP_HEADERS",
                "api-key=s3cr%3Dt, x-tenant = team a ,broken,=novalue",
            ),
            ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-tenant=team%20b"),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "service.name=from-resource,deployment.environment=ci",
            ),
            ("OTEL_SERVICE_NAME", "hooks-test"),
            ("OTEL_EXPORTER_OTLP_TIMEOUT", "2500"),
        ]);
        assert_eq!(
            config.headers(Signal::Traces),
            [
                ("api-key".to_owned(), "s3cr=t".to_owned()),
                ("x-tenant".to_owned(), "team b".to_owned()),
            ]
        );
        assert_eq!(
            config.resource(),
            [
                ("service.name".to_owned(), "hooks-test".to_owned()),
                ("deployment.environment".to_owned(), "ci".to_owned()),
                (
                    "service.version".to_owned(),
                    env!("CARGO_PKG_VERSION").to_owned()
                ),
            ]
        );
        assert_eq!(config.timeout(Signal::Traces), Duration::from_millis(2500));
        // Header values stay out of Debug output.
        assert!(!format!("{config:?}").contains("s3cr"));
        let default = on(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")]);
        assert_eq!(
            default.resource()[0],
            ("service.name".to_owned(), "agentic-hooks".to_owned())
        );
        assert_eq!(default.timeout(Signal::Traces), super::DEFAULT_TIMEOUT);
    }

    fn settings(endpoint: Option<&str>, header: &str) -> TelemetrySettings {
        TelemetrySettings {
            endpoint: endpoint.map(str::to_owned),
            headers: vec![("authorization".to_owned(), header.to_owned())],
            service_name: Some(format!("{header}-service")),
            ..TelemetrySettings::default()
        }
    }

    /// The configuration of `user` and `managed` settings and `vars`.
    fn layered(
        user: TelemetrySettings,
        managed: TelemetrySettings,
        vars: &[(&str, &str)],
    ) -> Option<OtlpConfig> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        OtlpConfig::resolve(&TelemetryLayers { user, managed }, |name| {
            vars.get(name).cloned()
        })
        .expect("valid")
    }

    /// Where traces go, the headers sent there and the service name.
    fn target(config: Option<OtlpConfig>) -> Option<(String, String, String)> {
        let config = config?;
        Some((
            config.endpoint(Signal::Traces)?.to_owned(),
            config
                .headers(Signal::Traces)
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect(),
            config.resource()[0].1.clone(),
        ))
    }

    #[test]
    fn managed_over_the_environment_over_the_user_file() {
        let env = [
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "authorization=env"),
            ("OTEL_SERVICE_NAME", "env-service"),
        ];
        let user = || settings(Some("http://user:4318/"), "user");
        let managed = || settings(Some("https://fleet"), "fleet");
        let none = TelemetrySettings::default;
        let t = |e: &str, h: &str, s: &str| Some((e.to_owned(), h.to_owned(), s.to_owned()));
        // The user's file alone exports, with no variable set.
        assert_eq!(
            target(layered(user(), none(), &[])),
            t(
                "http://user:4318/v1/traces",
                "authorization=user",
                "user-service"
            )
        );
        assert_eq!(
            target(layered(user(), none(), &env)),
            t(
                "http://env:4318/v1/traces",
                "authorization=env",
                "env-service"
            )
        );
        assert_eq!(
            target(layered(user(), managed(), &env)),
            t(
                "https://fleet/v1/traces",
                "authorization=fleet",
                "fleet-service"
            )
        );
        // Managed policy's service name without its endpoint: the headers stay with the
        // environment's endpoint.
        let name_only = TelemetrySettings {
            service_name: Some("fleet-service".to_owned()),
            ..TelemetrySettings::default()
        };
        assert_eq!(
            target(layered(user(), name_only, &env)),
            t(
                "http://env:4318/v1/traces",
                "authorization=env",
                "fleet-service"
            )
        );
        // A protocol the environment's endpoint cannot use does not matter under
        // managed policy's endpoint.
        let grpc = [env[0], ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")];
        assert!(target(layered(none(), managed(), &grpc)).is_some());
    }

    #[test]
    fn enabled_is_decided_by_the_highest_source_that_says() {
        let off = TelemetrySettings {
            enabled: Some(false),
            ..settings(Some("http://user"), "u")
        };
        let disabled = [("OTEL_SDK_DISABLED", "true")];
        let endpoint = [("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env")];
        assert!(layered(off.clone(), TelemetrySettings::default(), &[]).is_none());
        assert!(
            layered(
                off.clone(),
                TelemetrySettings::default(),
                &[("OTEL_SDK_DISABLED", "false")]
            )
            .is_some()
        );
        let on_by_policy = TelemetrySettings {
            enabled: Some(true),
            ..TelemetrySettings::default()
        };
        assert!(layered(off, on_by_policy.clone(), &disabled).is_some());
        assert!(
            layered(
                settings(Some("http://user"), "u"),
                TelemetrySettings::default(),
                &disabled
            )
            .is_none()
        );
        let off_by_policy = TelemetrySettings {
            enabled: Some(false),
            ..TelemetrySettings::default()
        };
        assert!(layered(TelemetrySettings::default(), off_by_policy, &endpoint).is_none());
    }

    #[test]
    fn commands_only_when_a_config_asks_and_the_configuration_survives_its_handoff() {
        let endpoint = [("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env")];
        let asks = |on| TelemetrySettings {
            export_commands: Some(on),
            ..TelemetrySettings::default()
        };
        let commands =
            |user, managed| layered(user, managed, &endpoint).map(|c| c.export_commands());
        assert_eq!(
            commands(TelemetrySettings::default(), TelemetrySettings::default()),
            Some(false)
        );
        assert_eq!(
            commands(asks(true), TelemetrySettings::default()),
            Some(true)
        );
        assert_eq!(commands(asks(true), asks(false)), Some(false));
        let config = layered(asks(true), TelemetrySettings::default(), &endpoint).unwrap();
        let text = serde_json::to_string(&config).unwrap();
        assert_eq!(serde_json::from_str::<OtlpConfig>(&text).unwrap(), config);
    }

    /// One PreToolUse: a guard that denies with a reason quoting a secret (masked as the
    /// runner masks it), a fail-open hook that timed out, and one that answered nothing.
    #[test]
    fn an_event_is_a_span_tree_with_masked_secrets_and_no_commands() {
        let started = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let ended = started + Duration::from_millis(120);
        let guard = HookSpec::new(
            BuiltinEvent::PreToolUse,
            Action::script("echo COMMAND-MARKER; exit 2"),
        )
        .with_id("guard");
        let slow = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("sleep 99"))
            .with_id("slow")
            .with_on_failure(FailurePolicy::Allow);
        let quiet =
            HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true")).with_id("quiet");
        let redactor = Redactor::new().with("TOKEN", "hunter2");
        let mut deny = HookOutcome::decided(
            Decision::Deny,
            Some("token hunter2 must not be used".to_owned()),
        );
        deny.run.exit_code = Some(2);
        deny.run.duration = Some(Duration::from_millis(40));
        redactor.redact_outcome(&mut deny);
        let mut timeout = HookOutcome::failed(FailureKind::Timeout, "stderr says PAYLOAD-MARKER");
        timeout.run.duration = Some(Duration::from_millis(100));
        let ok = HookOutcome::ok();

        let mut ctx = EventContext::pre_tool_use("Bash", json!({"command": "PAYLOAD-MARKER"}));
        ctx.set("session_id", "session-1");
        ctx.set("tool_use_id", "toolu_1");
        let specs = [(&guard, &deny), (&slow, &timeout), (&quiet, &ok)];
        let entries = specs
            .iter()
            .enumerate()
            .map(|(i, (spec, outcome))| {
                AggregateEntry::new(spec, HookPos::new(i), (*outcome).clone())
            })
            .collect();
        let aggregate = aggregate_context(&ctx, entries);
        assert_eq!(aggregate.effects.decision, Decision::Deny);

        let mut record = EventRecord::new(&ctx, &aggregate, started, ended).with_agent("claude");
        for (spec, outcome) in specs {
            record = record.with_hook(HookRecord::new(
                spec,
                outcome,
                started + Duration::from_millis(110),
            ));
        }
        let config = on(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_SERVICE_NAME", "hooks-test"),
        ]);
        let body = config.encode_traces(std::slice::from_ref(&record));
        let text = String::from_utf8_lossy(&body);
        for leak in ["hunter2", "COMMAND-MARKER", "PAYLOAD-MARKER", "sleep 99"] {
            assert!(!text.contains(leak), "`{leak}` was exported");
        }

        let request = decode(&body);
        let resource = request.resource_spans[0]
            .resource
            .as_ref()
            .expect("a resource");
        assert!(attributes(&resource.attributes).contains(&"service.name=hooks-test".to_owned()));
        let spans = spans(&request);
        assert_eq!(spans.len(), 4);
        let event = spans[0];
        assert_eq!(event.name, "hooks PreToolUse");
        assert!(event.parent_span_id.is_empty());
        assert_eq!(event.trace_id.len(), 16);
        assert_eq!(event.span_id.len(), 8);
        assert_eq!(
            event.end_time_unix_nano - event.start_time_unix_nano,
            120_000_000
        );
        assert_eq!(
            attributes(&event.attributes),
            [
                "gen_ai.conversation.id=session-1",
                "gen_ai.tool.call.id=toolu_1",
                "gen_ai.tool.name=Bash",
                "hooks.agent=claude",
                "hooks.decision.reason=token [secret TOKEN] must not be used",
                "hooks.decision=deny",
                "hooks.event=PreToolUse",
                "hooks.hook_count=3",
            ]
        );
        for hook in &spans[1..] {
            assert_eq!(hook.trace_id, event.trace_id);
            assert_eq!(hook.parent_span_id, event.span_id);
            assert_ne!(hook.span_id, event.span_id);
        }
        let guard = spans[1];
        assert_eq!(guard.name, "hook guard");
        assert_eq!(
            guard.end_time_unix_nano - guard.start_time_unix_nano,
            40_000_000
        );
        assert_eq!(guard.status, None);
        let guard_attributes = attributes(&guard.attributes);
        for expected in [
            "hooks.hook.decision=deny",
            "hooks.hook.exit_code=2",
            "hooks.hook.failed=false",
            "hooks.hook.id=guard",
            "hooks.hook.status=blocked",
            "hooks.hook.type=command",
        ] {
            assert!(
                guard_attributes.contains(&expected.to_owned()),
                "{expected}: {guard_attributes:?}"
            );
        }
        let slow = spans[2];
        let status = slow.status.as_ref().expect("an error status");
        assert_eq!(status.code, status::StatusCode::Error as i32);
        assert_eq!(status.message, "timeout");
        let slow_attributes = attributes(&slow.attributes);
        for expected in [
            "hooks.hook.fail_open=true",
            "hooks.hook.failed=true",
            "hooks.hook.failure.kind=timeout",
            "hooks.hook.status=timed_out",
            "hooks.hook.timed_out=true",
        ] {
            assert!(
                slow_attributes.contains(&expected.to_owned()),
                "{expected}: {slow_attributes:?}"
            );
        }
        assert!(attributes(&spans[3].attributes).contains(&"hooks.hook.status=ok".to_owned()));
    }

    /// A batch's metrics: counters by their attributes, the duration histogram's buckets,
    /// the dropped count; delta temporality over the batch's window.
    #[test]
    fn a_batch_is_counted_with_delta_temporality() {
        use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
        use opentelemetry_proto::tonic::metrics::v1::{AggregationTemporality, metric};

        let started = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let ctx = EventContext::pre_tool_use("Bash", json!({}));
        let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true")).with_id("a");
        let mut quick = HookOutcome::decided(Decision::Deny, None);
        quick.run.duration = Some(Duration::from_millis(40));
        let mut slow = HookOutcome::failed(FailureKind::Timeout, "late");
        slow.run.duration = Some(Duration::from_millis(100));
        let aggregate = aggregate_context(&ctx, Vec::new());
        let record = |outcome: &HookOutcome, offset: u64| {
            let start = started + Duration::from_secs(offset);
            EventRecord::new(&ctx, &aggregate, start, start + Duration::from_secs(1))
                .with_hook(HookRecord::new(&spec, outcome, start))
        };
        let config = on(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")]);
        assert_eq!(config.encode_metrics(&[], 0), None);
        let body = config
            .encode_metrics(&[record(&quick, 0), record(&slow, 5)], 4)
            .expect("metrics");
        let request = ExportMetricsServiceRequest::decode(body.as_slice()).expect("decodes");
        let metrics = &request.resource_metrics[0].scope_metrics[0].metrics;
        let names: Vec<&str> = metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "hooks.hook.runs",
                "hooks.hook.duration",
                "hooks.hook.failures",
                "hooks.decisions",
                "hooks.spool.dropped",
            ]
        );
        let Some(metric::Data::Histogram(histogram)) = &metrics[1].data else {
            panic!("a histogram: {:?}", metrics[1]);
        };
        assert_eq!(metrics[1].unit, "s");
        assert_eq!(
            histogram.aggregation_temporality,
            AggregationTemporality::Delta as i32
        );
        let point = &histogram.data_points[0];
        assert_eq!(attributes(&point.attributes), ["hooks.hook.type=command"]);
        assert_eq!(point.count, 2);
        assert!((point.sum.unwrap_or_default() - 0.14).abs() < 1e-9);
        // 0.04 s in (0.025, 0.05], 0.1 s in (0.05, 0.1].
        assert_eq!(&point.bucket_counts[..6], [0, 0, 0, 1, 1, 0]);
        assert_eq!(point.start_time_unix_nano, 1_700_000_000_000_000_000);
        assert_eq!(point.time_unix_nano, 1_700_000_006_000_000_000);
        let sums: Vec<(String, Vec<String>, i64)> = metrics
            .iter()
            .filter_map(|m| match &m.data {
                Some(metric::Data::Sum(sum)) => Some((m, sum)),
                _ => None,
            })
            .flat_map(|(m, sum)| {
                assert!(sum.is_monotonic);
                sum.data_points.iter().map(move |p| {
                    let value = match p.value {
                        Some(number_data_point::Value::AsInt(n)) => n,
                        other => panic!("{other:?}"),
                    };
                    (m.name.clone(), attributes(&p.attributes), value)
                })
            })
            .collect();
        let strings = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            sums,
            [
                (
                    "hooks.hook.runs".to_owned(),
                    strings(&["hooks.hook.status=blocked", "hooks.hook.type=command"]),
                    1
                ),
                (
                    "hooks.hook.runs".to_owned(),
                    strings(&["hooks.hook.status=timed_out", "hooks.hook.type=command"]),
                    1
                ),
                (
                    "hooks.hook.failures".to_owned(),
                    strings(&["hooks.hook.failure.kind=timeout", "hooks.hook.type=command"]),
                    1
                ),
                (
                    "hooks.decisions".to_owned(),
                    strings(&["hooks.decision=none", "hooks.event=PreToolUse"]),
                    2
                ),
                ("hooks.spool.dropped".to_owned(), Vec::new(), 4),
            ]
        );
    }

    /// Without the specs, the aggregate's reports give the hook spans (no type, dialect,
    /// mode or policy); each event is its own trace.
    #[test]
    fn reports_and_one_trace_per_event() {
        let ctx = EventContext::pre_tool_use("Read", json!({}));
        let spec = HookSpec::new(BuiltinEvent::PreToolUse, Action::script("true")).with_id("a");
        let aggregate = aggregate_context(
            &ctx,
            vec![AggregateEntry::new(
                &spec,
                HookPos::new(0),
                HookOutcome::ok(),
            )],
        );
        let now = std::time::SystemTime::now();
        let record = EventRecord::new(&ctx, &aggregate, now, now).with_reports(&aggregate, &[]);
        let config = on(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")]);
        let request = decode(&config.encode_traces(&[record.clone(), record]));
        let spans = spans(&request);
        assert_eq!(spans.len(), 4);
        assert_ne!(spans[0].trace_id, spans[2].trace_id);
        let hook = attributes(&spans[1].attributes);
        assert!(hook.contains(&"hooks.hook.id=a".to_owned()));
        assert!(!hook.iter().any(|a| a.starts_with("hooks.hook.type=")));
    }
}
