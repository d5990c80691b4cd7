//! The audit log: one JSON line per hook run, for every hook the engine runs.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{LineWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

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
pub struct AuditLog {
    out: Mutex<Box<dyn Write + Send>>,
    errors: AtomicU64,
    agent: Option<String>,
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
    /// Appends to the file at `path`, creating it if needed.
    pub fn open(path: impl AsRef<Path>) -> Result<AuditLog, Error> {
        let path = path.as_ref();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| Error::Io {
                path: path.to_owned(),
                source,
            })?;
        Ok(AuditLog::to_writer(LineWriter::new(file)))
    }

    /// Writes to `writer` (flushed after each line).
    pub fn to_writer(writer: impl Write + Send + 'static) -> AuditLog {
        AuditLog {
            out: Mutex::new(Box::new(writer)),
            errors: AtomicU64::new(0),
            agent: None,
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
        if let Err(err) = out.write_all(&bytes).and_then(|()| out.flush()) {
            self.fail(&err);
        }
    }

    fn fail(&self, err: &dyn std::error::Error) {
        let count = self.errors.fetch_add(1, Ordering::Relaxed) + 1;
        tracing::warn!(%err, count, "cannot write the audit log");
    }
}
