//! The mcp_tool executor: calls a tool on a configured MCP server (rmcp client, over a stdio
//! child process or streamable HTTP) and reads its result like a command hook's output.
//!
//! Each server gets one connection, opened by the first call that needs it and shared by
//! every later and concurrent call. A connection that breaks (the server crashed, its HTTP
//! endpoint went away) or that let a call time out is retired, and the next call opens a
//! fresh one, so a crashed server is restarted on demand. The rules are on
//! [`McpExecutor`]; `docs/exec-mcp.md` says why.

mod template;

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex, OnceLock, RwLock as StdRwLock};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use hooks_core::{
    Action, Event, FailureKind, HookOutcome, McpToolAction, parse_output, parse_response_body,
};
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ProtocolVersion,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ServiceError, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::{Mutex, watch};

pub use hooks_core::McpServerConfig;

use crate::error::Error;
use crate::executor::{Executor, HookRun};
use crate::http::{humanize, quote};

/// How much of a stdio server's stderr is kept for failure messages, in bytes.
const STDERR_TAIL_BYTES: usize = 2048;

/// How long a failure message waits for a dying server's last stderr lines.
const STDERR_GRACE: Duration = Duration::from_millis(500);

/// How much of a tool's error text a failure message quotes, in characters.
const ERROR_TEXT_CHARS: usize = 1000;

/// What [`McpExecutor::new`] would refuse in `config`, without starting or building
/// anything: an empty command, a URL that is not http(s) (or https without the `tls`
/// feature), an invalid header.
///
/// # Errors
///
/// The reason, in words.
pub fn check_server(config: &McpServerConfig) -> Result<(), String> {
    match config {
        McpServerConfig::Stdio { command, .. } => {
            if command.trim().is_empty() {
                return Err("the command is empty".to_owned());
            }
            Ok(())
        }
        McpServerConfig::Http { url, headers } => {
            let parsed =
                reqwest::Url::parse(url).map_err(|e| format!("invalid URL `{url}`: {e}"))?;
            if !matches!(parsed.scheme(), "http" | "https") {
                return Err(format!("unsupported URL scheme `{}`", parsed.scheme()));
            }
            if parsed.scheme() == "https" && !cfg!(feature = "tls") {
                return Err("https needs TLS: build hooks-exec with the `tls` feature".to_owned());
            }
            header_map(headers).map(|_| ())
        }
    }
}

/// The headers of an HTTP server entry, each value marked sensitive.
fn header_map(headers: &[(String, String)]) -> Result<HashMap<HeaderName, HeaderValue>, String> {
    let mut custom = HashMap::with_capacity(headers.len());
    for (key, value) in headers {
        let header = HeaderName::from_bytes(key.as_bytes())
            .map_err(|_| format!("invalid header name `{key}`"))?;
        let mut value = HeaderValue::from_str(value)
            .map_err(|_| format!("invalid value for header `{key}`"))?;
        value.set_sensitive(true);
        custom.insert(header, value);
    }
    Ok(custom)
}

/// Runs `mcp_tool` hooks: calls `tool` on the server named `server` with the hook's
/// `input`, templated from the event.
///
/// # Arguments
///
/// String values in `input` may reference the event's JSON (as the hook's dialect sees it)
/// with `{{ tool_name }}`, `{{ tool_input.command }}`, `{{ tool_input.args.0 }}`; a string
/// that is exactly one reference takes the referenced JSON value itself. A missing field
/// is `null` as a whole value and empty inside text. The rendered input must be a JSON
/// object (or `null` for no arguments).
///
/// # Connections
///
/// One connection per server, opened lazily by the first call and shared by all later and
/// concurrent calls (calls wait for a connection being opened rather than opening their
/// own). A call that fails on a broken transport, or that times out, retires the
/// connection: calls already running on it finish on it, and the next call opens a new one
/// (starting a new process for a stdio server). A connection found closed before a call
/// (the process exited) is replaced without failing that call. The hook's timeout and
/// cancellation cover opening the connection and the call.
///
/// # The result
///
/// - `isError: true`: a [`FailureKind::NonZeroExit`] failure with the tool's text;
/// - `structuredContent` that is a JSON object: parsed like a JSON answer on stdout
///   ([`parse_response_body`]);
/// - otherwise the text items, joined with newlines, are read like a command's stdout on
///   exit 0: empty is success with nothing to say, a JSON object is parsed with every
///   dialect's fields, and other text (`Echo: hi`) is context for the model on events
///   that take context and a message elsewhere, never a failure. Non-text items (images,
///   resources) are not read.
/// - a JSON-RPC error from the server (unknown tool, invalid arguments):
///   [`FailureKind::NonZeroExit`]; no connection, a crash or a closed transport:
///   [`FailureKind::Transport`]; a server that could not be started:
///   [`FailureKind::Spawn`]; the timeout: [`FailureKind::Timeout`]; the dispatch
///   cancelled: [`FailureKind::Cancelled`].
///
/// # Changing the servers
///
/// [`McpExecutor::set_servers`] replaces the configured servers while the executor runs
/// (an engine does it when a reload changes the config's servers): a server whose name and
/// configuration are unchanged keeps its connection, the others' connections are closed.
/// [`McpExecutor::set_withheld`] names servers a config defines that are not started (an
/// untrusted file's), so a hook that calls one is told why rather than that no such server
/// exists.
pub struct McpExecutor {
    servers: StdRwLock<HashMap<String, Arc<Server>>>,
    withheld: StdRwLock<HashMap<String, String>>,
}

impl fmt::Debug for McpExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpExecutor")
            .field("servers", &self.server_names())
            .finish()
    }
}

impl McpExecutor {
    /// Builds the executor for `servers` (name -> how to reach it). Nothing is started or
    /// connected until a hook calls a server.
    ///
    /// # Errors
    ///
    /// [`Error::McpServer`] for an entry with an empty command, an invalid URL or an
    /// invalid header; [`Error::HttpClient`] if the HTTP client cannot be built.
    pub fn new<I, S>(servers: I) -> Result<McpExecutor, Error>
    where
        I: IntoIterator<Item = (S, McpServerConfig)>,
        S: Into<String>,
    {
        let built = build(servers, &HashMap::new())?;
        Ok(McpExecutor {
            servers: StdRwLock::new(built),
            withheld: StdRwLock::new(HashMap::new()),
        })
    }

    /// The configured server names, sorted.
    pub fn server_names(&self) -> Vec<String> {
        let mut names: Vec<String> = read(&self.servers).keys().cloned().collect();
        names.sort_unstable();
        names
    }

    /// Replaces the configured servers (see "Changing the servers" above): unchanged ones
    /// keep their connections, the connections of changed and removed ones are closed.
    ///
    /// # Errors
    ///
    /// As [`McpExecutor::new`]; the servers in force are then unchanged.
    pub async fn set_servers<I, S>(&self, servers: I) -> Result<(), Error>
    where
        I: IntoIterator<Item = (S, McpServerConfig)>,
        S: Into<String>,
    {
        let old = read(&self.servers).clone();
        let new = build(servers, &old)?;
        let retired: Vec<Arc<Server>> = old
            .into_iter()
            .filter(|(name, server)| !new.get(name).is_some_and(|n| Arc::ptr_eq(n, server)))
            .map(|(_, server)| server)
            .collect();
        *self
            .servers
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = new;
        for server in retired {
            server.close().await;
        }
        Ok(())
    }

    /// Names the servers that are defined but not started, each with the reason a hook
    /// calling it is given (replacing the previous list).
    pub fn set_withheld<I>(&self, withheld: I)
    where
        I: IntoIterator<Item = (String, String)>,
    {
        *self
            .withheld
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = withheld.into_iter().collect();
    }

    /// Closes every open connection (stdio servers get their stdin closed and a SIGTERM).
    /// Calls still running fail; later calls open new connections.
    pub async fn shutdown(&self) {
        let servers: Vec<Arc<Server>> = read(&self.servers).values().cloned().collect();
        for server in servers {
            server.close().await;
        }
    }

    /// One run of an mcp_tool hook, bounded by its timeout and the dispatch's cancellation.
    async fn run(&self, action: &McpToolAction, run: HookRun<'_>) -> HookOutcome {
        let found = read(&self.servers).get(&action.server).cloned();
        let Some(server) = found else {
            if let Some(why) = read(&self.withheld).get(&action.server) {
                return HookOutcome::failed(
                    FailureKind::Refused,
                    format!("MCP server `{}` is not started: {why}", action.server),
                );
            }
            let configured = self.server_names();
            let known = if configured.is_empty() {
                "no MCP servers are configured".to_owned()
            } else {
                format!("configured: {}", configured.join(", "))
            };
            return HookOutcome::failed(
                FailureKind::Spawn,
                format!("no MCP server named `{}` ({known})", action.server),
            );
        };
        let event_json = run.ctx.input_for(run.spec);
        let arguments = match template::render(&action.input, &event_json) {
            Value::Object(map) => Some(map),
            Value::Null => None,
            other => {
                return HookOutcome::failed(
                    FailureKind::Spawn,
                    format!(
                        "the input of an mcp_tool hook must be a JSON object, got {}",
                        hooks_core::json_kind(&other)
                    ),
                );
            }
        };
        let mut params = CallToolRequestParams::new(action.tool.clone());
        params.arguments = arguments;
        let event = run.ctx.event();
        // The connection the call ran on, if it got that far, to retire on a timeout.
        let used = OnceLock::new();
        let call = server.call(event, &action.tool, params, &used);
        tokio::select! {
            biased;
            () = run.cancel.cancelled() => HookOutcome::failed(
                FailureKind::Cancelled,
                format!("cancelled while calling `{}` on MCP server `{}`", action.tool, server.name),
            ),
            answer = tokio::time::timeout(run.timeout, call) => match answer {
                Ok(outcome) => outcome,
                Err(_) => {
                    // The server may be wedged: later calls get a fresh connection.
                    if let Some(connection) = used.get() {
                        connection.retire();
                    }
                    HookOutcome::failed(
                        FailureKind::Timeout,
                        format!(
                            "MCP server `{}` did not answer `{}` within {}",
                            server.name,
                            action.tool,
                            humanize(run.timeout)
                        ),
                    )
                }
            },
        }
    }
}

#[async_trait]
impl Executor for McpExecutor {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        let started = Instant::now();
        let mut outcome = match &run.spec.action {
            Action::McpTool(action) => self.run(action, run).await,
            other => HookOutcome::failed(
                FailureKind::Spawn,
                format!(
                    "the mcp_tool executor cannot run a {} hook",
                    other.type_name()
                ),
            ),
        };
        outcome.run.duration = Some(started.elapsed());
        outcome
    }
}

/// Builds the servers of `servers`, reusing those of `keep` whose configuration is the same.
fn build<I, S>(
    servers: I,
    keep: &HashMap<String, Arc<Server>>,
) -> Result<HashMap<String, Arc<Server>>, Error>
where
    I: IntoIterator<Item = (S, McpServerConfig)>,
    S: Into<String>,
{
    let mut http_client = None;
    let mut built = HashMap::new();
    for (name, config) in servers {
        let name = name.into();
        if let Some(same) = keep.get(&name).filter(|s| s.config == config) {
            built.insert(name, Arc::clone(same));
            continue;
        }
        let target = Target::new(&name, config.clone(), &mut http_client)?;
        let server = Server {
            name: name.clone(),
            config,
            target,
            slot: Mutex::new(None),
        };
        built.insert(name, Arc::new(server));
    }
    Ok(built)
}

/// A lock's value, also after a panic elsewhere (the maps are replaced whole, never left
/// half-written).
fn read<T>(lock: &StdRwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One configured server and its (lazily opened) connection.
struct Server {
    name: String,
    /// What it was built from, to tell an unchanged server when the servers are replaced.
    config: McpServerConfig,
    target: Target,
    slot: Mutex<Option<Arc<Connection>>>,
}

/// How to open a connection to a server, checked at construction.
enum Target {
    Stdio {
        command: String,
        args: Vec<String>,
        env: Vec<(String, String)>,
        cwd: Option<PathBuf>,
    },
    Http {
        client: reqwest::Client,
        config: StreamableHttpClientTransportConfig,
    },
}

impl Target {
    /// Checks a server entry; HTTP entries share one client across servers.
    fn new(
        name: &str,
        config: McpServerConfig,
        http_client: &mut Option<reqwest::Client>,
    ) -> Result<Target, Error> {
        let error = |reason: String| Error::McpServer {
            server: name.to_owned(),
            reason,
        };
        check_server(&config).map_err(error)?;
        match config {
            McpServerConfig::Stdio {
                command,
                args,
                env,
                cwd,
            } => Ok(Target::Stdio {
                command,
                args,
                env,
                cwd,
            }),
            McpServerConfig::Http { url, headers } => {
                let custom = header_map(&headers).map_err(error)?;
                let client = match http_client {
                    Some(client) => client.clone(),
                    None => {
                        let client = reqwest::Client::builder()
                            .user_agent(concat!("hooks/", env!("CARGO_PKG_VERSION")))
                            .build()
                            .map_err(Error::HttpClient)?;
                        http_client.insert(client).clone()
                    }
                };
                let config =
                    StreamableHttpClientTransportConfig::with_uri(url).custom_headers(custom);
                Ok(Target::Http { client, config })
            }
        }
    }
}

impl Server {
    /// Closes its connection, if one is open.
    async fn close(&self) {
        if let Some(connection) = self.slot.lock().await.take() {
            connection.close();
        }
    }

    /// Calls the tool on this server's connection, opening one if needed.
    async fn call(
        &self,
        event: &Event,
        tool: &str,
        params: CallToolRequestParams,
        used: &OnceLock<Arc<Connection>>,
    ) -> HookOutcome {
        let connection = match self.connection().await {
            Ok(connection) => connection,
            Err(outcome) => return outcome,
        };
        let _ = used.set(Arc::clone(&connection));
        match connection.service.call_tool(params).await {
            Ok(result) => read_result(event, &self.name, tool, result),
            Err(error) => {
                let transport_broke = matches!(
                    error,
                    ServiceError::TransportClosed | ServiceError::TransportSend(_)
                ) || !connection.is_open();
                if transport_broke {
                    connection.retire();
                    let stderr = connection.stderr_tail().await;
                    HookOutcome::failed(
                        FailureKind::Transport,
                        with_stderr(
                            format!(
                                "MCP server `{}` broke off the call to `{tool}`: {error}",
                                self.name
                            ),
                            &stderr,
                        ),
                    )
                } else {
                    HookOutcome::failed(
                        call_failure_kind(&error),
                        format!(
                            "MCP server `{}` refused `{tool}`: {}",
                            self.name,
                            describe(&error)
                        ),
                    )
                }
            }
        }
    }

    /// The open connection, or a new one. A connection whose transport has closed since
    /// its last use (the process exited) is replaced here.
    async fn connection(&self) -> Result<Arc<Connection>, HookOutcome> {
        let mut slot = self.slot.lock().await;
        if let Some(connection) = slot.as_ref() {
            if connection.is_open() {
                return Ok(Arc::clone(connection));
            }
            tracing::debug!(server = %self.name, "MCP connection closed; reconnecting");
        }
        // Dropping the old connection (if it is the last reference) reaps its process.
        *slot = None;
        let connection = Arc::new(self.connect().await?);
        *slot = Some(Arc::clone(&connection));
        Ok(connection)
    }

    /// Opens a connection and runs the MCP handshake.
    async fn connect(&self) -> Result<Connection, HookOutcome> {
        let client_info = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("hooks", env!("CARGO_PKG_VERSION")),
        )
        // The newest revision that keeps the session handshake, which the servers in use
        // today (and the official SDKs) all speak.
        .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE);
        match &self.target {
            Target::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let (transport, stderr) =
                    spawn_stdio(command, args, env, cwd.as_ref()).map_err(|e| {
                        HookOutcome::failed(
                            FailureKind::Spawn,
                            format!(
                                "could not start MCP server `{}` (`{command}`): {e}",
                                self.name
                            ),
                        )
                    })?;
                let process_group = transport.id();
                let stderr = StderrTail::follow(&self.name, stderr);
                match client_info.serve(transport).await {
                    Ok(service) => Ok(Connection {
                        service,
                        process_group,
                        stderr: Some(stderr),
                        retired: AtomicBool::new(false),
                    }),
                    Err(e) => {
                        let tail = stderr.wait_for_end().await;
                        Err(HookOutcome::failed(
                            FailureKind::Transport,
                            with_stderr(
                                format!("MCP server `{}` failed to initialize: {e}", self.name),
                                &tail,
                            ),
                        ))
                    }
                }
            }
            Target::Http { client, config } => {
                let transport =
                    StreamableHttpClientTransport::with_client(client.clone(), config.clone());
                match client_info.serve(transport).await {
                    Ok(service) => Ok(Connection {
                        service,
                        process_group: None,
                        stderr: None,
                        retired: AtomicBool::new(false),
                    }),
                    Err(e) => Err(HookOutcome::failed(
                        FailureKind::Transport,
                        format!(
                            "could not connect to MCP server `{}` at {}: {e}",
                            self.name, config.uri
                        ),
                    )),
                }
            }
        }
    }
}

/// Starts a stdio server in its own process group, with stderr piped.
fn spawn_stdio(
    command: &str,
    args: &[String],
    env: &[(String, String)],
    cwd: Option<&PathBuf>,
) -> std::io::Result<(TokioChildProcess, Option<tokio::process::ChildStderr>)> {
    // rmcp's child-process transport takes a prepared Command; the MCP server is the one
    // process this module starts, so it builds the Command itself rather than going
    // through the command executor's spawn module.
    #[allow(clippy::disallowed_methods)]
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        // Marked as started for a hook: an engine it starts does not dispatch again.
        .env(crate::depth::DEPTH_VAR, crate::depth::child_mark())
        // Its own process group, so a server started through a wrapper (`npx`, `sh -c`)
        // is stopped with everything it started.
        .process_group(0)
        .kill_on_drop(true);
    if let Some(cwd) = cwd {
        cmd.current_dir(cwd);
    }
    TokioChildProcess::builder(cmd)
        .stderr(Stdio::piped())
        .spawn()
}

/// An open connection to one server.
struct Connection {
    service: RunningService<RoleClient, ClientConfig>,
    /// The stdio server's process group (its pid), signalled when the connection closes.
    process_group: Option<u32>,
    stderr: Option<StderrTail>,
    /// Set when a call saw the connection break or time out: new calls open another one.
    retired: AtomicBool,
}

impl Connection {
    /// Whether the connection can still carry calls.
    fn is_open(&self) -> bool {
        !self.retired.load(Ordering::SeqCst)
            && !self.service.is_closed()
            && !self.service.peer().is_transport_closed()
    }

    /// Stops handing this connection out to new calls; calls running on it finish on it,
    /// and it closes when the last of them drops it.
    fn retire(&self) {
        self.retired.store(true, Ordering::SeqCst);
    }

    /// The stdio server's last stderr lines, once it has finished writing them (bounded).
    async fn stderr_tail(&self) -> String {
        match &self.stderr {
            Some(stderr) => stderr.wait_for_end().await,
            None => String::new(),
        }
    }

    /// Asks the service loop to stop and the server's processes to exit.
    fn close(&self) {
        self.service.cancellation_token().cancel();
        self.signal_group();
    }

    /// SIGTERM to the stdio server's process group, so helpers it started exit with it.
    fn signal_group(&self) {
        let Some(pid) = self.process_group.and_then(|p| i32::try_from(p).ok()) else {
            return;
        };
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            // The group may be gone already (the server crashed): nothing left to stop.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::TERM);
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // rmcp closes the transport and kills the direct child when the service is
        // dropped; the group signal reaches whatever that child started.
        self.signal_group();
    }
}

/// The last bytes a stdio server wrote to stderr, followed as it runs.
struct StderrTail {
    text: Arc<StdMutex<String>>,
    ended: watch::Receiver<bool>,
}

impl StderrTail {
    /// Follows `stderr` in a task: each line is logged at debug level and kept in the tail.
    fn follow(server: &str, stderr: Option<impl AsyncRead + Unpin + Send + 'static>) -> StderrTail {
        let text = Arc::new(StdMutex::new(String::new()));
        let (done, ended) = watch::channel(false);
        match stderr {
            Some(stderr) => {
                let tail = Arc::clone(&text);
                let server = server.to_owned();
                tokio::spawn(async move {
                    let mut lines = BufReader::new(stderr).lines();
                    while let Ok(Some(line)) = lines.next_line().await {
                        tracing::debug!(server = %server, "MCP server stderr: {line}");
                        if let Ok(mut tail) = tail.lock() {
                            push_tail(&mut tail, &line);
                        }
                    }
                    let _ = done.send(true);
                });
            }
            None => {
                let _ = done.send(true);
            }
        }
        StderrTail { text, ended }
    }

    /// The tail, after stderr has closed or [`STDERR_GRACE`] has passed.
    async fn wait_for_end(&self) -> String {
        let mut ended = self.ended.clone();
        let _ = tokio::time::timeout(STDERR_GRACE, ended.wait_for(|ended| *ended)).await;
        self.text
            .lock()
            .map(|t| t.trim().to_owned())
            .unwrap_or_default()
    }
}

/// Appends a line to the tail, keeping its last [`STDERR_TAIL_BYTES`] bytes.
fn push_tail(tail: &mut String, line: &str) {
    tail.push_str(line);
    tail.push('\n');
    if tail.len() > STDERR_TAIL_BYTES {
        let mut cut = tail.len() - STDERR_TAIL_BYTES;
        while !tail.is_char_boundary(cut) {
            cut += 1;
        }
        tail.drain(..cut);
    }
}

/// A message with the server's stderr appended, when it wrote any.
fn with_stderr(message: String, stderr: &str) -> String {
    if stderr.is_empty() {
        message
    } else {
        format!("{message}; its stderr ends with: {stderr}")
    }
}

/// Reads a tool's result as the hook's answer; see [`McpExecutor`].
fn read_result(event: &Event, server: &str, tool: &str, result: CallToolResult) -> HookOutcome {
    let text = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n");
    if result.is_error == Some(true) {
        let detail = quote(text.trim(), ERROR_TEXT_CHARS);
        return HookOutcome::failed(
            FailureKind::NonZeroExit,
            if detail.is_empty() {
                format!("tool `{tool}` on MCP server `{server}` reported an error")
            } else {
                format!("tool `{tool}` on MCP server `{server}` reported an error: {detail}")
            },
        );
    }
    if let Some(structured @ Value::Object(_)) = &result.structured_content {
        return parse_response_body(event, structured.to_string().as_bytes());
    }
    // Exit code 0 semantics: JSON objects are answers, other text is context or a message.
    let mut outcome = parse_output(event, Some(0), text.as_bytes(), b"");
    outcome.run.exit_code = None;
    // The parser speaks of stdout; here the text came from the tool.
    if let Some(failure) = &mut outcome.run.failure
        && let Some(rest) = failure.message.strip_prefix("stdout")
    {
        failure.message = format!("the text of tool `{tool}`{rest}");
    }
    outcome
}

/// Which failure a non-transport call error is.
fn call_failure_kind(error: &ServiceError) -> FailureKind {
    match error {
        ServiceError::McpError(_) => FailureKind::NonZeroExit,
        ServiceError::UnexpectedResponse => FailureKind::MalformedOutput,
        ServiceError::Timeout { .. } => FailureKind::Timeout,
        _ => FailureKind::Transport,
    }
}

/// A call error for messages; JSON-RPC errors with their code.
fn describe(error: &ServiceError) -> String {
    match error {
        ServiceError::McpError(data) => format!("error {}: {}", data.code.0, data.message),
        other => other.to_string(),
    }
}
