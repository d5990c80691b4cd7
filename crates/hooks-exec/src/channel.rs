//! The prompt channel: a command hook's private line to the host's [`PromptEvaluator`] for
//! one run (a Unix socket of its own in a fresh directory only the engine's user can enter,
//! named in `HOOKS_PROMPT_SOCKET`), and the client that asks through it (`hooks builtin
//! ask`).
//!
//! The protocol is one question per connection: the client writes a JSON object
//! `{"question": TEXT}` and shuts its side down; the engine answers `{"answer": TEXT}` or
//! `{"error": TEXT}` and closes the connection.

use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use hooks_core::{CancellationToken, EventContext, HookSpec, PromptMode, Redactor};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::time::Instant;

use crate::error::Error;
use crate::prompt::{PromptEvaluator, PromptRequest, PromptVerdict, consult};

/// The variable naming a command hook's prompt channel (the socket's path). It is set only
/// while the engine has a prompt evaluator, for hooks that run outside a sandbox.
pub const PROMPT_SOCKET_ENV: &str = "HOOKS_PROMPT_SOCKET";

/// The largest question, in bytes of its JSON request, the channel takes: 128 KiB.
pub const MAX_QUESTION_BYTES: usize = 128 * 1024;

/// The longest answer, in bytes, a hook is given (a longer one is cut at a character
/// boundary): 64 KiB.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// How many questions one hook run may put to the evaluator; later ones are refused.
pub const MAX_QUESTIONS_PER_RUN: usize = 8;

/// The most the client reads of a reply: the answer's bytes, each escaped in JSON at
/// most six times over, and the object around them.
const MAX_REPLY_BYTES: u64 = (MAX_ANSWER_BYTES * 6 + 1024) as u64;

/// What a client sends.
#[derive(Debug, Serialize, Deserialize)]
struct Question {
    question: String,
}

/// What the engine sends back.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Answer(String),
    Error(String),
}

/// What the runner offers a command hook when the engine has a prompt evaluator.
#[derive(Clone, Copy)]
pub(crate) struct Offer<'a> {
    /// The host's model.
    pub(crate) evaluator: &'a Arc<dyn PromptEvaluator>,
    /// The hook as loaded, without the secrets its run was given: what the evaluator is
    /// told about the hook that asks.
    pub(crate) spec: &'a HookSpec,
    /// The values to mask in the questions (before the evaluator sees them) and in the
    /// answers.
    pub(crate) redactor: Option<&'a Redactor>,
    /// Where the channel's socket goes.
    pub(crate) home: &'a ChannelHome,
}

/// Where a dispatcher's prompt channels live: a directory made fresh in the temporary
/// directory on the first channel (never one that was there: a name taken is skipped),
/// mode 0700 so that no other user can reach a socket in it, and removed with the
/// dispatcher. Each run's socket in it is removed when the run ends, so a run costs a
/// `bind` and an `unlink`, not a directory of its own.
#[derive(Debug, Default)]
pub(crate) struct ChannelHome {
    dir: OnceLock<Result<PathBuf, String>>,
}

impl ChannelHome {
    /// The directory, made on first use.
    fn dir(&self) -> io::Result<&Path> {
        match self.dir.get_or_init(|| {
            make_dir().map_err(|err| {
                tracing::warn!(%err, "cannot make a directory for prompt channels; command hooks get none");
                err.to_string()
            })
        }) {
            Ok(dir) => Ok(dir),
            Err(message) => Err(io::Error::other(message.clone())),
        }
    }
}

impl Drop for ChannelHome {
    fn drop(&mut self) {
        if let Some(Ok(dir)) = self.dir.get()
            && let Err(err) = std::fs::remove_dir(dir)
        {
            tracing::debug!(%err, path = %dir.display(), "could not remove the prompt channels' directory");
        }
    }
}

/// A directory for prompt channels, new, mode 0700, with a name nobody can guess.
fn make_dir() -> io::Result<PathBuf> {
    let base = std::env::temp_dir();
    let mut last = io::Error::other("no name was free");
    for attempt in 0..8u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(attempt);
        let dir = base.join(format!(
            "hooks-prompt-{}-{:016x}",
            std::process::id(),
            hasher.finish()
        ));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = err,
            Err(err) => return Err(err),
        }
    }
    Err(last)
}

/// A run's socket, removed when dropped, however the run ended.
struct Socket(PathBuf);

impl Drop for Socket {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_file(&self.0) {
            tracing::debug!(%err, path = %self.0.display(), "could not remove a prompt channel");
        }
    }
}

/// One run's channel: listening from its creation, served while the hook runs.
pub(crate) struct Channel {
    listener: std::os::unix::net::UnixListener,
    socket: Socket,
}

/// The serving of a channel, owning it: dropping it closes the socket and removes it.
pub(crate) type Serving<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

impl Channel {
    /// A new channel in `home`.
    pub(crate) fn open(home: &ChannelHome) -> io::Result<Channel> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = home
            .dir()?
            .join(format!("{}.sock", NEXT.fetch_add(1, Ordering::Relaxed)));
        let listener = std::os::unix::net::UnixListener::bind(&path)?;
        let socket = Socket(path);
        listener.set_nonblocking(true)?;
        Ok(Channel { listener, socket })
    }

    /// The socket's path, for [`PROMPT_SOCKET_ENV`].
    pub(crate) fn path(&self) -> &Path {
        &self.socket.0
    }

    /// Serves the channel until it is dropped: one question at a time, each bounded by
    /// the run's `deadline` and `cancel`, at most [`MAX_QUESTIONS_PER_RUN`] of them asked.
    pub(crate) fn serve<'a>(
        self,
        offer: Offer<'a>,
        ctx: &'a EventContext,
        deadline: Instant,
        cancel: &'a CancellationToken,
    ) -> Serving<'a> {
        Box::pin(async move {
            let Channel { listener, socket } = self;
            let _socket = socket;
            let listener = match UnixListener::from_std(listener) {
                Ok(listener) => listener,
                Err(err) => {
                    tracing::debug!(%err, "could not serve a prompt channel");
                    return;
                }
            };
            let mut asked = 0;
            loop {
                let stream = match listener.accept().await {
                    Ok((stream, _)) => stream,
                    Err(err) => {
                        tracing::debug!(%err, "a prompt channel stopped accepting");
                        return;
                    }
                };
                let served = tokio::time::timeout_at(
                    deadline,
                    answer(stream, &mut asked, offer, ctx, deadline, cancel),
                );
                if served.await.is_err() {
                    tracing::debug!("a prompt channel's question outlived its hook's timeout");
                }
            }
        })
    }
}

/// Reads one question, asks it (while the run has questions left) and writes the reply.
async fn answer(
    mut stream: UnixStream,
    asked: &mut usize,
    offer: Offer<'_>,
    ctx: &EventContext,
    deadline: Instant,
    cancel: &CancellationToken,
) {
    let mask = |text: String| match offer.redactor {
        Some(redactor) => redactor.redact(&text).into_owned(),
        None => text,
    };
    let reply = match read_question(&mut stream).await {
        Err(message) => Reply::Error(message),
        Ok(_) if *asked >= MAX_QUESTIONS_PER_RUN => Reply::Error(format!(
            "this hook run has asked its {MAX_QUESTIONS_PER_RUN} questions; no more are taken"
        )),
        Ok(question) => {
            *asked += 1;
            let request = PromptRequest {
                prompt: mask(question),
                mode: PromptMode::Answer,
                model: None,
                max_tool_rounds: None,
                event_json: ctx.input_for(offer.spec),
                ctx,
                spec: offer.spec,
                timeout: deadline.saturating_duration_since(Instant::now()),
            };
            match consult(offer.evaluator.as_ref(), request, cancel).await {
                Ok(PromptVerdict { ok: true, reason }) => {
                    Reply::Answer(cap(mask(reason.unwrap_or_default())))
                }
                Ok(PromptVerdict { ok: false, reason }) => Reply::Error(mask(format!(
                    "the host's prompt evaluator declined to answer: {}",
                    reason.as_deref().unwrap_or("no reason given")
                ))),
                Err(failure) => Reply::Error(mask(failure.message)),
            }
        }
    };
    let mut bytes = serde_json::to_vec(&reply).unwrap_or_default();
    bytes.push(b'\n');
    if let Err(err) = stream.write_all(&bytes).await {
        tracing::debug!(%err, "a prompt channel's client left before its answer");
        return;
    }
    let _ = stream.shutdown().await;
}

/// The question of one connection: at most [`MAX_QUESTION_BYTES`] of JSON, up to the
/// client's end of writing.
async fn read_question(stream: &mut UnixStream) -> Result<String, String> {
    let mut bytes = Vec::new();
    let limit = MAX_QUESTION_BYTES as u64 + 1;
    if let Err(err) = (&mut *stream).take(limit).read_to_end(&mut bytes).await {
        return Err(format!("could not read the question: {err}"));
    }
    if bytes.len() > MAX_QUESTION_BYTES {
        return Err(too_large(bytes.len()));
    }
    serde_json::from_slice::<Question>(&bytes)
        .map(|q| q.question)
        .map_err(|err| format!("the request is not a question (`{{\"question\": TEXT}}`): {err}"))
}

fn too_large(len: usize) -> String {
    format!(
        "the question is larger than the channel takes ({len} bytes or more; at most {} KiB)",
        MAX_QUESTION_BYTES / 1024
    )
}

/// `text` cut to [`MAX_ANSWER_BYTES`] at a character boundary.
fn cap(mut text: String) -> String {
    if text.len() > MAX_ANSWER_BYTES {
        let mut end = MAX_ANSWER_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// Asks the host's model `question` through the prompt channel at `socket` (a command
/// hook's [`PROMPT_SOCKET_ENV`]) and returns its answer. Blocking; it waits at most
/// [`crate::MAX_TIMEOUT`] for the reply (the engine itself stops at the hook's timeout).
///
/// Fails with [`Error::PromptChannel`] when the channel is gone (its hook's run ended),
/// the question is too large, the hook has asked its [`MAX_QUESTIONS_PER_RUN`], or the
/// evaluator failed, declined or timed out.
pub fn ask_prompt_channel(socket: &Path, question: &str) -> Result<String, Error> {
    let fail = |message: String| Error::PromptChannel { message };
    let mut request = serde_json::to_vec(&Question {
        question: question.to_owned(),
    })
    .map_err(|err| fail(format!("cannot encode the question: {err}")))?;
    if request.len() > MAX_QUESTION_BYTES {
        return Err(fail(too_large(request.len())));
    }
    request.push(b'\n');
    let mut stream = std::os::unix::net::UnixStream::connect(socket).map_err(|err| {
        fail(match err.kind() {
            io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused => format!(
                "the prompt channel `{}` is closed: it is served only while the hook run \
                 that was given it lasts",
                socket.display()
            ),
            _ => format!(
                "cannot reach the prompt channel `{}`: {err}",
                socket.display()
            ),
        })
    })?;
    let io_error = |err: io::Error| fail(format!("the prompt channel failed: {err}"));
    stream
        .set_read_timeout(Some(crate::MAX_TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(crate::MAX_TIMEOUT)))
        .map_err(io_error)?;
    stream.write_all(&request).map_err(io_error)?;
    stream
        .shutdown(std::net::Shutdown::Write)
        .map_err(io_error)?;
    let mut reply = Vec::new();
    stream
        .take(MAX_REPLY_BYTES)
        .read_to_end(&mut reply)
        .map_err(io_error)?;
    if reply.is_empty() {
        return Err(fail(
            "the prompt channel closed without answering (its hook run ended)".to_owned(),
        ));
    }
    match serde_json::from_slice::<Reply>(&reply) {
        Ok(Reply::Answer(answer)) => Ok(answer),
        Ok(Reply::Error(message)) => Err(fail(message)),
        Err(err) => Err(fail(format!(
            "the prompt channel's reply is not understood: {err}"
        ))),
    }
}
