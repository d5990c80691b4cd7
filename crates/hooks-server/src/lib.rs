//! A JSON-RPC 2.0 server for the hooks engine, for IDEs and other hosts.
//!
//! Depend on this crate to serve the engine to a client over a byte stream: `hooks serve
//! --stdio` is [`serve`] on stdin and stdout, and a host written in Rust can run the same
//! server on a pipe, a socket or an in-memory stream. Requests dispatch events
//! (`hooks/dispatch`), list and explain hooks (`hooks/list`, `hooks/explain`) and reload
//! the config (`hooks/reload`); the exec crate's notification sink reports every
//! dispatched event as Autohand's `autohand.hook.*` notifications. Messages are framed as
//! LSP does (`Content-Length` headers) or one JSON text per line, whichever the client's
//! first message uses. The protocol is described in `docs/ide.md`.
//!
//! Only protocol goes to the output (hooks' own output is captured by the executors); log
//! lines go to [`Options::log`], stderr by default.
//!
//! The JSON of `hooks/list` and `hooks/explain` is [`report`]'s, the same values `hooks
//! list --json` and `hooks explain --json` print.
//!
//! # Example
//!
//! ```
//! use hooks_server::{Ending, Options};
//! use tokio::io::AsyncReadExt;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let config = dir.path().join("hooks.yaml");
//! std::fs::write(&config, "hooks:\n  - event: PreToolUse\n    command: 'true'\n")?;
//! let builder = hooks::Engine::builder().config_file(&config);
//!
//! // One request per line, then the end of the input.
//! let input: &[u8] = br#"{"jsonrpc": "2.0", "id": 1, "method": "hooks/list"}
//! "#;
//! let (output, mut client) = tokio::io::duplex(64 * 1024);
//! let ending = hooks_server::serve(builder, input, output, Options::new(dir.path())).await?;
//! assert_eq!(ending, Ending::Eof);
//!
//! let mut answer = String::new();
//! client.read_to_string(&mut answer).await?;
//! let answer: serde_json::Value = serde_json::from_str(answer.trim_end())?;
//! assert_eq!(answer["result"]["total"], 1);
//! # Ok(())
//! # }
//! ```
//!
//! # Crate feature flags
//!
//! None.
//!
//! # Supported Rust versions
//!
//! The workspace's `rust-version` (in its root `Cargo.toml`).

mod framing;
mod methods;
mod outbox;
pub mod report;
mod rpc;
mod server;

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use hooks::EngineBuilder;
use hooks::exec::JsonRpcSink;
use tokio::io::{AsyncRead, AsyncWrite};

use outbox::{NotificationWriter, Outbox};
use server::Server;

pub use server::Ending;

/// Why [`serve`] could not serve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The engine could not be built: the config does not load.
    #[error("the config does not load")]
    Config(#[source] hooks::Error),
    /// The config files could not be watched ([`Options::watch`]).
    #[error(transparent)]
    Watch(hooks::Error),
}

/// How [`serve`] serves: the project, hot reload and where log lines go.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The project root: the `cwd` of a dispatched or explained event whose payload has
    /// none (as `hooks run` gives).
    pub project: PathBuf,
    /// Whether to reload when the config files change, and tell the client with a
    /// `hooks/didReload` notification.
    pub watch: bool,
    /// Where each log line goes (default: [`log_to_stderr`]).
    pub log: fn(&str),
}

impl Options {
    /// Options for a project rooted at `project`: no hot reload, logs on stderr.
    pub fn new(project: impl Into<PathBuf>) -> Options {
        Options {
            project: project.into(),
            watch: false,
            log: log_to_stderr,
        }
    }

    /// With hot reload on or off (see [`Options::watch`]).
    #[must_use]
    pub fn watch(mut self, watch: bool) -> Options {
        self.watch = watch;
        self
    }

    /// With log lines sent to `log` instead of stderr.
    #[must_use]
    pub fn log(mut self, log: fn(&str)) -> Options {
        self.log = log;
        self
    }
}

/// Serves one session: builds the engine from `builder` (with the server's notification
/// sink plugged in), then reads requests from `input` and writes answers and notifications
/// to `output` until the input ends or the client sends `exit`. Every request read is
/// answered before this returns, and everything queued for `output` is written (the
/// output is dropped at the end).
///
/// Must be called inside a tokio runtime: each request runs in a task of its own.
///
/// # Errors
///
/// [`Error::Config`] when the engine does not build (the config does not load), and
/// [`Error::Watch`] when hot reload cannot watch the config files. Failures while serving
/// (input that cannot be read, output that cannot be written) end the session and are
/// logged.
pub async fn serve<R, W>(
    builder: EngineBuilder,
    input: R,
    output: W,
    options: Options,
) -> Result<Ending, Error>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let log = options.log;
    let framing = Arc::new(OnceLock::new());
    let (outbox, writer) = Outbox::spawn(output, Arc::clone(&framing), log);
    let sink = JsonRpcSink::new(NotificationWriter::new(outbox.clone()));
    let engine = builder
        .notification_sink(Arc::new(sink))
        .build()
        .map_err(Error::Config)?;
    for warning in engine.loaded().warnings() {
        log(&warning.to_string());
    }
    let watcher = if options.watch {
        Some(watch(&engine, &outbox, log)?)
    } else {
        None
    };
    let server = Server::new(engine, outbox.clone(), options.project, log);
    let ending = server.run(input, &framing).await;
    drop(watcher);
    outbox.close();
    match writer.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => log(&format!("cannot write the output: {e}")),
        Err(e) => log(&format!("the output's writer stopped: {e}")),
    }
    if outbox.dropped() > 0 {
        log(&format!(
            "{} notification(s) were dropped because the client did not read them",
            outbox.dropped()
        ));
    }
    Ok(ending)
}

/// Hot reload: watches the config files and, after each reload, tells the client with a
/// `hooks/didReload` notification (the params are `hooks/reload`'s result, or
/// `{"status": "error", "error": {..}}` when the new config does not load). Files whose
/// hooks now wait for trust are also named in the log, with the command to run.
fn watch(engine: &hooks::Engine, outbox: &Outbox, log: fn(&str)) -> Result<hooks::Watcher, Error> {
    let outbox = outbox.clone();
    let reloaded = engine.clone();
    let watcher = engine.watch(Duration::from_millis(200), move |result| {
        let params = match methods::reload_result(&reloaded, result) {
            Ok(value) => {
                for file in value["untrusted"].as_array().into_iter().flatten() {
                    let hooks = file["hooks"].as_u64().unwrap_or_default();
                    let (noun, verb) = if hooks == 1 {
                        ("hook", "waits")
                    } else {
                        ("hooks", "wait")
                    };
                    log(&format!(
                        "{}: {hooks} {noun} {verb} for trust; run `{}`",
                        file["file"].as_str().unwrap_or_default(),
                        file["command"].as_str().unwrap_or_default(),
                    ));
                }
                value
            }
            Err(error) => {
                log(&error.message);
                serde_json::json!({"status": "error", "error": {
                    "code": error.code, "message": error.message, "data": error.data,
                }})
            }
        };
        let message = rpc::notification("hooks/didReload", params);
        outbox.notify(message.to_string().into_bytes());
    });
    watcher.map_err(Error::Watch)
}

/// The default log: each line of `text` on stderr with the prefix `hooks serve: `, so a
/// host showing the server's stderr beside other logs can tell whose it is. (Stdout
/// carries the protocol in `hooks serve --stdio`.)
pub fn log_to_stderr(text: &str) {
    let mut stderr = std::io::stderr().lock();
    for line in text.lines() {
        let _ = writeln!(stderr, "hooks serve: {line}");
    }
}
