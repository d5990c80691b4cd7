//! The audit log: one JSON line per hook run, for every hook the engine runs, in a file
//! that is rotated when it grows past a size limit.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rustix::fs::{FlockOperation, flock};

use hooks_core::{EventContext, Failure, HookOutcome, HookSpec};
use serde::Serialize;

use crate::clock::now_rfc3339;
use crate::error::Error;

/// An append-only JSONL audit log: one line per hook run.
///
/// Each line holds `ts` (RFC 3339 UTC), `event`, `hook` (the display id), `source` (file,
/// line, layer), `type`, `dialect`, `async`, `session_id` (when the event has one),
/// `duration_ms`, `exit_code`, `status`, `decision`, `truncated` and `failure` (`{kind,
/// message}`, when the hook failed), and `agent` (the agent that called the engine, when
/// the host names it with [`AuditLog::with_agent`]: `hooks bridge AGENT` does). It never holds the command, its environment, the
/// event payload or anything interpolated into a hook (secrets are interpolated there).
///
/// A line that cannot be written is counted ([`AuditLog::write_errors`]) and never fails
/// the hook.
///
/// A log opened on a file ([`AuditLog::open`]) is bounded: when a line would take the file
/// past [`DEFAULT_AUDIT_LOG_MAX_SIZE`] (or [`AuditLog::max_size`]), the file is renamed to
/// `<name>.1` (replacing the one before) and a new file is started, so the log never holds
/// much more than twice the limit. Several processes may append to one file (every
/// `hooks bridge` call does): each line is written with one `write` to the end of the
/// file, under an exclusive `flock` of it, after checking that the path still names the
/// file that is locked (another process may have rotated it), and a rotation is done
/// under the same lock; so lines are never interleaved, and none is written to a file
/// after it was rotated away. A lock held by another process for more than a second (a
/// stopped process) is not waited for further: the line is then appended without it (one
/// `write` in append mode, still whole), and the file is not rotated.
pub struct AuditLog {
    out: Mutex<Sink>,
    errors: AtomicU64,
    agent: Option<String>,
}

/// The default size past which an audit log file is rotated: 10 MiB.
pub const DEFAULT_AUDIT_LOG_MAX_SIZE: u64 = 10 * 1024 * 1024;

/// The longest wait for another process's lock on the log file.
const LOCK_WAIT: Duration = Duration::from_secs(1);

/// Where the lines go.
enum Sink {
    /// A writer of the host's, flushed after each line.
    Writer(Box<dyn Write + Send>),
    /// A file, rotated past its size limit.
    File(LogFile),
}

/// An audit log file and where it is rotated to.
struct LogFile {
    path: PathBuf,
    /// `<name>.1`.
    rotated: PathBuf,
    /// The file at `path` when it was last opened (append mode).
    file: File,
    max_size: u64,
}

impl fmt::Debug for AuditLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuditLog")
            .field("write_errors", &self.write_errors())
            .finish_non_exhaustive()
    }
}

#[derive(Serialize)]
struct Line<'a> {
    ts: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<&'a str>,
    event: &'a str,
    hook: String,
    source: String,
    #[serde(rename = "type")]
    kind: &'static str,
    dialect: &'static str,
    #[serde(rename = "async")]
    is_async: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    session_id: Option<&'a str>,
    duration_ms: Option<u64>,
    exit_code: Option<i32>,
    status: &'static str,
    decision: &'static str,
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<&'a Failure>,
}

/// The line of an event answered without running its hooks.
#[derive(Serialize)]
struct NoteLine<'a> {
    ts: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<&'a str>,
    event: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    session_id: Option<&'a str>,
    status: &'static str,
    note: &'a str,
}

impl AuditLog {
    /// Appends to the file at `path`, creating it if needed, and rotates it to
    /// `<name>.1` when it grows past [`DEFAULT_AUDIT_LOG_MAX_SIZE`].
    pub fn open(path: impl AsRef<Path>) -> Result<AuditLog, Error> {
        let path = path.as_ref();
        let file = append(path).map_err(|source| Error::Io {
            path: path.to_owned(),
            source,
        })?;
        let mut rotated = path.as_os_str().to_owned();
        rotated.push(".1");
        Ok(AuditLog::with_sink(Sink::File(LogFile {
            path: path.to_owned(),
            rotated: PathBuf::from(rotated),
            file,
            max_size: DEFAULT_AUDIT_LOG_MAX_SIZE,
        })))
    }

    /// Writes to `writer` (flushed after each line; never rotated).
    pub fn to_writer(writer: impl Write + Send + 'static) -> AuditLog {
        AuditLog::with_sink(Sink::Writer(Box::new(writer)))
    }

    fn with_sink(sink: Sink) -> AuditLog {
        AuditLog {
            out: Mutex::new(sink),
            errors: AtomicU64::new(0),
            agent: None,
        }
    }

    /// Rotates the file when a line would take it past `bytes` (at least one line is kept
    /// in each file, however long). Only a log opened on a file is rotated.
    #[must_use]
    pub fn max_size(self, bytes: u64) -> AuditLog {
        let mut out = self
            .out
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Sink::File(file) = &mut out {
            file.max_size = bytes;
        }
        AuditLog {
            out: Mutex::new(out),
            errors: self.errors,
            agent: self.agent,
        }
    }

    /// Names `agent` (`claude`, `codex`, ...) as the caller in every line.
    #[must_use]
    pub fn with_agent(mut self, agent: impl Into<String>) -> AuditLog {
        self.agent = Some(agent.into());
        self
    }

    /// How many lines could not be written.
    pub fn write_errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    /// Writes the line for one hook run.
    pub(crate) fn record(&self, ctx: &EventContext, spec: &HookSpec, outcome: &HookOutcome) {
        let line = Line {
            ts: now_rfc3339(),
            agent: self.agent.as_deref(),
            event: ctx.event().name(),
            hook: spec.display_id(),
            source: spec.provenance.to_string(),
            kind: spec.action.type_name(),
            dialect: spec.dialect.as_str(),
            is_async: spec.is_async,
            session_id: ctx.get_str("session_id"),
            duration_ms: outcome.run.duration_ms(),
            exit_code: outcome.run.exit_code,
            status: outcome.run.status.as_str(),
            decision: outcome.effects.decision.as_str(),
            truncated: outcome.run.truncated(),
            failure: outcome.run.failure.as_ref(),
        };
        self.write_line(&line);
    }

    /// Writes a line for an event the engine answered without running its hooks, saying
    /// why: `{ts, agent, event, session_id, status: "not_dispatched", note}` (a bridge
    /// started inside a hook of the engine, a second call of the same event answered with
    /// the first's decision).
    pub fn record_note(&self, ctx: &EventContext, note: &str) {
        self.write_line(&NoteLine {
            ts: now_rfc3339(),
            agent: self.agent.as_deref(),
            event: ctx.event().name(),
            session_id: ctx.get_str("session_id"),
            status: "not_dispatched",
            note,
        });
    }

    /// Appends one JSON line; a failure is counted, never raised.
    fn write_line(&self, line: &impl Serialize) {
        let mut bytes = match serde_json::to_vec(line) {
            Ok(bytes) => bytes,
            Err(err) => {
                self.fail(&err);
                return;
            }
        };
        bytes.push(b'\n');
        let mut out = self
            .out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let written = match &mut *out {
            Sink::Writer(writer) => writer.write_all(&bytes).and_then(|()| writer.flush()),
            Sink::File(file) => file.append_line(&bytes),
        };
        if let Err(err) = written {
            self.fail(&err);
        }
    }

    fn fail(&self, err: &dyn std::error::Error) {
        let count = self.errors.fetch_add(1, Ordering::Relaxed) + 1;
        tracing::warn!(%err, count, "cannot write the audit log");
    }
}

/// Opens `path` to append to, creating it if needed.
fn append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

/// What one locked round of [`LogFile::append_line`] did.
enum Round {
    /// The line is written.
    Written,
    /// The file was rotated (by another process or by this one): lock the new one.
    Again,
}

impl LogFile {
    /// Appends `line` (one whole line) to the file at `path`, rotating the file first when
    /// the line would take it past the limit; see [`AuditLog`].
    fn append_line(&mut self, line: &[u8]) -> std::io::Result<()> {
        // Each round either writes, or follows a rotation (another process's or this
        // one's) to the new file; a handful of rounds is plenty, and bounds the loop.
        for _ in 0..8 {
            if !lock(&self.file)? {
                tracing::warn!(
                    path = %self.path.display(),
                    "the audit log stayed locked for {LOCK_WAIT:?}; appending without the lock"
                );
                return write_once(&self.file, line);
            }
            match self.locked_round(line) {
                // A file replaced in the round was closed, and its lock went with it.
                Ok(Round::Again) => continue,
                done => {
                    let _ = flock(&self.file, FlockOperation::Unlock);
                    return done.map(|_| ());
                }
            }
        }
        write_once(&self.file, line)
    }

    /// One round under the lock of `self.file`: follows the path if the file was rotated
    /// away, rotates it if `line` would take it past the limit, else writes `line`.
    fn locked_round(&mut self, line: &[u8]) -> std::io::Result<Round> {
        let locked = self.file.metadata()?;
        let current = std::fs::metadata(&self.path)
            .ok()
            .filter(|m| m.dev() == locked.dev() && m.ino() == locked.ino());
        if current.is_none() {
            // Rotated (or removed) since it was opened: follow the path.
            self.file = append(&self.path)?;
            return Ok(Round::Again);
        }
        let size = locked.len();
        if size > 0 && size.saturating_add(line.len() as u64) > self.max_size {
            match std::fs::rename(&self.path, &self.rotated) {
                Ok(()) => {
                    // The new file exists before the old one's lock is released (by
                    // closing it), so a writer waiting on that lock finds the path moved
                    // on.
                    self.file = append(&self.path)?;
                    return Ok(Round::Again);
                }
                Err(err) => tracing::warn!(
                    %err,
                    path = %self.path.display(),
                    "cannot rotate the audit log; appending to it"
                ),
            }
        }
        write_once(&self.file, line)?;
        Ok(Round::Written)
    }
}

/// Takes an exclusive lock of `file`, waiting at most [`LOCK_WAIT`] for another holder
/// (false: it was not released in time).
fn lock(file: &File) -> std::io::Result<bool> {
    let start = Instant::now();
    let mut backoff = Duration::from_micros(100);
    loop {
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(true),
            Err(rustix::io::Errno::WOULDBLOCK | rustix::io::Errno::INTR) => {}
            Err(err) => return Err(err.into()),
        }
        if start.elapsed() >= LOCK_WAIT {
            return Ok(false);
        }
        // Polled: `flock` itself cannot wait with a timeout. Holders keep the lock for one
        // `stat` and one `write`, so the first retry nearly always gets it.
        std::thread::sleep(backoff);
        backoff = (backoff * 2).min(Duration::from_millis(20));
    }
}

/// Appends `line` with a single `write` (append mode puts it at the end, whole).
fn write_once(mut file: &File, line: &[u8]) -> std::io::Result<()> {
    let written = file.write(line)?;
    if written == line.len() {
        Ok(())
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::WriteZero,
            format!("wrote {written} of the line's {} bytes", line.len()),
        ))
    }
}
