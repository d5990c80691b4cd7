//! The one writer of stdout: responses and notifications go through a queue to a single
//! task that frames each message whole, so messages never interleave or tear.

use std::io;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::framing::Framing;

/// How many notifications may wait for the writer before new ones are dropped (and
/// counted), so that a client that stops reading cannot make the server hoard memory or
/// stall the hooks. Answers are never dropped: the request waits until its answer is
/// written, which bounds them by the requests in flight.
const NOTIFICATION_BACKLOG: usize = 4096;

enum Out {
    /// An answer, and who to tell once it is written.
    Response(Vec<u8>, oneshot::Sender<()>),
    Notification(Vec<u8>),
    Close,
}

/// A handle for sending messages to the writer task. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Outbox {
    tx: mpsc::UnboundedSender<Out>,
    /// Notifications queued and not yet written.
    backlog: Arc<AtomicUsize>,
    dropped: Arc<AtomicU64>,
    /// Where log lines go.
    log: fn(&str),
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox")
            .field("backlog", &self.backlog.load(Ordering::Relaxed))
            .field("dropped", &self.dropped())
            .finish_non_exhaustive()
    }
}

impl Outbox {
    /// Starts the writer task on `out`. Each message is framed as `framing` says when it
    /// is written (Content-Length until the first message chose otherwise); its log lines
    /// go to `log`.
    pub(crate) fn spawn<W>(
        out: W,
        framing: Arc<OnceLock<Framing>>,
        log: fn(&str),
    ) -> (Outbox, JoinHandle<io::Result<()>>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::unbounded_channel();
        let backlog = Arc::new(AtomicUsize::new(0));
        let task = tokio::spawn(write_all(out, rx, framing, Arc::clone(&backlog)));
        let outbox = Outbox {
            tx,
            backlog,
            dropped: Arc::new(AtomicU64::new(0)),
            log,
        };
        (outbox, task)
    }

    /// Sends an answer and waits until it is written: a client that reads slowly slows
    /// the requests down instead of losing notifications. A writer that has stopped
    /// (stdout closed) loses it: there is no one left to read it.
    pub(crate) async fn send(&self, message: &Value) {
        let (written, wait) = oneshot::channel();
        if self
            .tx
            .send(Out::Response(encode(message), written))
            .is_ok()
        {
            let _ = wait.await;
        }
    }

    /// Queues a notification body, unless the backlog is full: then drops and counts it.
    pub(crate) fn notify(&self, body: Vec<u8>) {
        if self.backlog.fetch_add(1, Ordering::SeqCst) >= NOTIFICATION_BACKLOG {
            self.backlog.fetch_sub(1, Ordering::SeqCst);
            let total = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            // The first drop and every hundredth after it are worth a line on stderr.
            if total % 100 == 1 {
                (self.log)(&format!(
                    "the client is not reading: {total} notification(s) dropped so far"
                ));
            }
            return;
        }
        if self.tx.send(Out::Notification(body)).is_err() {
            self.backlog.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Notifications dropped so far.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Tells the writer to finish after the messages queued so far.
    pub(crate) fn close(&self) {
        let _ = self.tx.send(Out::Close);
    }
}

/// A message as compact JSON. Serialising a `Value` cannot fail; should it ever, the
/// client still gets a well-formed internal error instead of a torn message.
fn encode(message: &Value) -> Vec<u8> {
    serde_json::to_vec(message).unwrap_or_else(|_| {
        br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"cannot encode a response"}}"#
            .to_vec()
    })
}

async fn write_all<W>(
    mut out: W,
    mut rx: mpsc::UnboundedReceiver<Out>,
    framing: Arc<OnceLock<Framing>>,
    backlog: Arc<AtomicUsize>,
) -> io::Result<()>
where
    W: AsyncWrite + Unpin,
{
    while let Some(item) = rx.recv().await {
        let framing = framing.get().copied().unwrap_or(Framing::ContentLength);
        match item {
            Out::Close => break,
            Out::Notification(body) => {
                backlog.fetch_sub(1, Ordering::SeqCst);
                out.write_all(&framing.encode(&body)).await?;
            }
            Out::Response(body, written) => {
                out.write_all(&framing.encode(&body)).await?;
                let _ = written.send(());
            }
        }
        // Flush when nothing else is waiting: one syscall for a burst of messages.
        if rx.is_empty() {
            out.flush().await?;
        }
    }
    out.flush().await
}

/// The `std::io::Write` end that the exec crate's [`hooks::exec::JsonRpcSink`] writes
/// to: it writes one JSON text per line, and each complete line becomes one framed
/// notification. (serde_json escapes newlines inside strings, so a line is a message.)
#[derive(Debug)]
pub(crate) struct NotificationWriter {
    outbox: Outbox,
    line: Vec<u8>,
}

impl NotificationWriter {
    pub(crate) fn new(outbox: Outbox) -> NotificationWriter {
        NotificationWriter {
            outbox,
            line: Vec::new(),
        }
    }
}

impl io::Write for NotificationWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&rest[..i]);
            let body = std::mem::take(&mut self.line);
            if !body.trim_ascii().is_empty() {
                self.outbox.notify(body);
            }
            rest = &rest[i + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
