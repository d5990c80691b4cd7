//! The one writer of stdout: responses and notifications go through a queue to a single
//! task that frames each message whole, so messages never interleave or tear.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::framing::Framing;

/// How many messages may wait for the writer. Responses wait for room; notifications
/// that find the queue full are dropped and counted, so a client that stops reading
/// cannot stall the hooks.
const CAPACITY: usize = 1024;

enum Out {
    Message(Vec<u8>),
    Close,
}

/// A handle for sending messages to the writer task. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Outbox {
    tx: mpsc::Sender<Out>,
    dropped: Arc<AtomicU64>,
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Out::Message(m) => write!(f, "Message({} bytes)", m.len()),
            Out::Close => f.write_str("Close"),
        }
    }
}

impl Outbox {
    /// Starts the writer task on `out`. Each message is framed as `framing` says when it
    /// is written (Content-Length until the first message chose otherwise).
    pub(crate) fn spawn<W>(
        out: W,
        framing: Arc<OnceLock<Framing>>,
    ) -> (Outbox, JoinHandle<io::Result<()>>)
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::channel(CAPACITY);
        let task = tokio::spawn(write_all(out, rx, framing));
        let outbox = Outbox {
            tx,
            dropped: Arc::new(AtomicU64::new(0)),
        };
        (outbox, task)
    }

    /// Queues a response, waiting for room. A writer that has stopped (stdout closed)
    /// loses it: there is no one left to read it.
    pub(crate) async fn send(&self, message: &Value) {
        let _ = self.tx.send(Out::Message(encode(message))).await;
    }

    /// Queues a notification body if there is room; otherwise drops and counts it.
    pub(crate) fn notify(&self, body: Vec<u8>) {
        if self.tx.try_send(Out::Message(body)).is_err() {
            let total = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
            // The first drop and every hundredth after it are worth a line on stderr.
            if total % 100 == 1 {
                super::log(&format!(
                    "the client is not reading: {total} notification(s) dropped so far"
                ));
            }
        }
    }

    /// Notifications dropped so far.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Tells the writer to finish after the messages queued so far.
    pub(crate) async fn close(&self) {
        let _ = self.tx.send(Out::Close).await;
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
    mut rx: mpsc::Receiver<Out>,
    framing: Arc<OnceLock<Framing>>,
) -> io::Result<()>
where
    W: AsyncWrite + Unpin,
{
    while let Some(item) = rx.recv().await {
        let Out::Message(body) = item else {
            break;
        };
        let framing = framing.get().copied().unwrap_or(Framing::ContentLength);
        out.write_all(&framing.encode(&body)).await?;
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
