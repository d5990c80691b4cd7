//! `hooks serve --stdio`: a JSON-RPC 2.0 server on stdin and stdout for IDEs and other
//! hosts. Requests dispatch events, list and explain hooks and reload the config; the
//! exec crate's notification sink reports every dispatched event as Autohand's
//! `autohand.hook.*` notifications. The protocol is described in `docs/ide.md`.
//!
//! Only protocol goes to stdout (hooks' own output is captured by the executors); logs go
//! to stderr.

mod framing;
mod methods;
mod outbox;
mod rpc;
mod server;

use std::io::Write;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::{Context, Result};
use hooks::exec::JsonRpcSink;

use crate::cli::ServeArgs;
use outbox::{NotificationWriter, Outbox};
use server::Server;

/// Runs `hooks serve --stdio` until stdin ends or the client sends `exit`. Exit code 0,
/// or 1 when `exit` came without `shutdown` first (as LSP says) or the config does not
/// load.
/// An error that stops the server is logged like everything else on its stderr, with the
/// prefix, and exits 1.
pub fn run(args: &ServeArgs) -> Result<u8> {
    let result = super::runtime().and_then(|runtime| {
        let result = runtime.block_on(serve(args));
        // Tokio reads stdin on a blocking thread that only an input byte or the end of the
        // input wakes; after `exit` the client may hold stdin open, so do not wait for it.
        runtime.shutdown_timeout(Duration::from_millis(100));
        result
    });
    Ok(result.unwrap_or_else(|e| {
        log(&format!("error: {e:#}"));
        1
    }))
}

async fn serve(args: &ServeArgs) -> Result<u8> {
    let framing = Arc::new(OnceLock::new());
    let (outbox, writer) = Outbox::spawn(tokio::io::stdout(), Arc::clone(&framing));
    let sink = JsonRpcSink::new(NotificationWriter::new(outbox.clone()));
    let engine = super::engine_builder(&args.config)?
        .notification_sink(Arc::new(sink))
        .build()
        .context("the config does not load")?;
    for warning in engine.loaded().warnings() {
        log(&warning.to_string());
    }
    let watcher = if args.watch {
        Some(watch(&engine, &outbox)?)
    } else {
        None
    };
    let server = Server::new(engine, outbox.clone(), super::project_dir(&args.config)?);
    let ending = server
        .run(tokio::io::stdin(), &framing)
        .await
        .context("serving on stdio")?;
    drop(watcher);
    outbox.close();
    match writer.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => log(&format!("cannot write stdout: {e}")),
        Err(e) => log(&format!("the stdout writer stopped: {e}")),
    }
    if outbox.dropped() > 0 {
        log(&format!(
            "{} notification(s) were dropped because the client did not read them",
            outbox.dropped()
        ));
    }
    Ok(ending.code())
}

/// Hot reload: watches the config files and, after each reload, tells the client with a
/// `hooks/didReload` notification (the params are `hooks/reload`'s result, or
/// `{"status": "error", "error": {..}}` when the new config does not load). Files whose
/// hooks now wait for trust are also named on stderr, with the command to run.
fn watch(engine: &hooks::Engine, outbox: &Outbox) -> Result<hooks::Watcher> {
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
    })?;
    Ok(watcher)
}

/// A message on stderr, the only place for logs: stdout carries the protocol. Each of its
/// lines carries the prefix, so a host showing the server's stderr can tell whose it is.
fn log(text: &str) {
    let mut stderr = std::io::stderr().lock();
    for line in text.lines() {
        let _ = writeln!(stderr, "hooks serve: {line}");
    }
}
