//! OpenTelemetry export off the agent's clock (feature `otel`, Unix): the spool a
//! short-lived process writes each answered event's record to, and [`flush`], which posts
//! what is spooled to the collector. `hooks_exec::otel` encodes; this module decides when
//! and from where it is sent.
//!
//! A bridge (or `hooks run`) lives for one event, and the agent waits for it to exit, so it
//! never talks to a collector. With export on (an `OTEL_EXPORTER_OTLP_*ENDPOINT` set, and
//! `OTEL_SDK_DISABLED` not `true`; see [`OtlpConfig::from_lookup`]), once the event is
//! answered a [`Recorder`] writes the event's [`EventRecord`] into the [`Spool`] (the
//! `otel` folder of the state directory: one file per record, written to a temporary name
//! and renamed; at most [`MAX_RECORDS`] records and [`MAX_BYTES`] bytes, the oldest dropped
//! and counted) and, unless an exporter already holds the spool's lock, starts one
//! detached (`hooks otel-flush`, [`EXPORTER_ARGS`]) the way the bridge starts its async
//! hooks' worker. The exporter ([`run_exporter`]) takes the lock, posts everything spooled
//! with [`flush`], deletes what the collector accepted, keeps what failed (bounded by the
//! spool), lingers [`LINGER`] for more, and exits. With export off nothing is built or
//! written. A long-lived engine calls [`flush`] from a thread of its own.
//!
//! The guide, with the one table of span, attribute and metric names, follows.
//!
// `telemetry.md` is a symlink to `docs/telemetry.md`, inside the crate so that `cargo
// package` ships it; its Rust block is this module's doctest.
#![doc = include_str!("../telemetry.md")]

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rustix::fs::{FlockOperation, flock};

use crate::core::{Action, Aggregate, CommandLine, EventContext, HookSpec, TelemetryLayers};
pub use crate::exec::otel::{EventRecord, Exporter, HookRecord, OtlpConfig, Signal};

/// The most records the spool keeps; one more drops the oldest.
pub const MAX_RECORDS: usize = 1000;

/// The most bytes of records the spool keeps; more drops the oldest.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The most records posted in one request.
pub const BATCH_RECORDS: usize = 200;

/// How long the exporter waits for more records once the spool is empty.
pub const LINGER: Duration = Duration::from_secs(2);

/// The longest an exporter runs, however many records keep coming.
pub const EXPORTER_LIFETIME: Duration = Duration::from_secs(120);

/// The arguments after the `hooks` program that start the exporter.
pub const EXPORTER_ARGS: &[&str] = &["otel-flush"];

/// The extension of a spooled record.
const RECORD_EXT: &str = "rec";

/// The spool: one directory of records, oldest first by name.
///
/// A record's file name is `{nanoseconds since the epoch, 20 digits}-{pid}-{n}-{bytes}.rec`,
/// so that listing the directory gives the order and the sizes without reading a file.
#[derive(Clone, Debug)]
pub struct Spool {
    dir: PathBuf,
    max_records: usize,
    max_bytes: u64,
}

/// A spooled record's file: its path and size.
struct Entry {
    path: PathBuf,
    bytes: u64,
}

impl Spool {
    /// The spool in `dir`, created if needed (mode 0700), with the default bounds.
    ///
    /// # Errors
    ///
    /// When the directory cannot be created.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<Spool> {
        let dir = dir.into();
        if !dir.is_dir() {
            std::fs::create_dir_all(&dir)?;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
        }
        Ok(Spool {
            dir,
            max_records: MAX_RECORDS,
            max_bytes: MAX_BYTES,
        })
    }

    /// The user's spool: `otel` in the state directory of the bridge's state store
    /// ([`StateStore`](crate::bridge::state::StateStore)); `None` when there is none.
    pub fn user() -> Option<Spool> {
        let store = crate::bridge::state::StateStore::open()?;
        Spool::open(store.otel_dir()).ok()
    }

    /// This spool with other bounds (at least one record).
    #[must_use]
    pub fn with_bounds(mut self, max_records: usize, max_bytes: u64) -> Spool {
        self.max_records = max_records.max(1);
        self.max_bytes = max_bytes;
        self
    }

    /// Its directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Adds `record`, then drops the oldest records past the bounds (counted, and exported
    /// as `hooks.spool.dropped` with the next metrics).
    ///
    /// # Errors
    ///
    /// When the record cannot be written.
    pub fn push(&self, record: &EventRecord) -> io::Result<()> {
        static SEQUENCE: AtomicU64 = AtomicU64::new(0);
        let text = serde_json::to_vec(record).map_err(io::Error::other)?;
        let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let pid = rustix::process::getpid().as_raw_nonzero();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let temporary = self.dir.join(format!(".{pid}-{n}.tmp"));
        let name = format!("{nanos:020}-{pid}-{n}-{}.{RECORD_EXT}", text.len());
        let written = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&temporary)
            .and_then(|mut file| file.write_all(&text))
            .and_then(|()| std::fs::rename(&temporary, self.dir.join(name)));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written?;
        self.trim();
        Ok(())
    }

    /// How many records wait.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether no record waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many records were dropped unsent and not yet reported.
    pub fn dropped(&self) -> u64 {
        std::fs::read_to_string(self.dir.join("dropped"))
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Whether an exporter holds the spool's lock now.
    pub fn exporter_running(&self) -> bool {
        self.lock_exporter().is_none()
    }

    /// The records, oldest first.
    fn entries(&self) -> Vec<Entry> {
        let Ok(dir) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut entries: Vec<Entry> = dir
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                let name = path.file_name()?.to_str()?;
                let stem = name.strip_suffix(&format!(".{RECORD_EXT}"))?;
                let bytes = stem.rsplit('-').next()?.parse().ok()?;
                Some(Entry { path, bytes })
            })
            .collect();
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        entries
    }

    /// Drops the oldest records past the bounds, and counts them.
    fn trim(&self) {
        let entries = self.entries();
        let mut count = entries.len();
        let mut bytes: u64 = entries.iter().map(|e| e.bytes).sum();
        let mut dropped = 0;
        for entry in &entries {
            if count <= self.max_records && bytes <= self.max_bytes {
                break;
            }
            // Another process may have taken it first (a concurrent trim, the exporter).
            if std::fs::remove_file(&entry.path).is_ok() {
                dropped += 1;
            }
            count -= 1;
            bytes = bytes.saturating_sub(entry.bytes);
        }
        if dropped > 0 {
            self.count_dropped(|n| n + dropped);
        }
    }

    /// Changes the count of dropped records under the spool's lock; gives the count before.
    fn count_dropped(&self, change: impl FnOnce(u64) -> u64) -> u64 {
        let Ok(lock) = open_lock(&self.dir.join("spool.lock")) else {
            return 0;
        };
        if flock(&lock, FlockOperation::LockExclusive).is_err() {
            return 0;
        }
        let before = self.dropped();
        let after = change(before);
        let path = self.dir.join("dropped");
        let _ = if after == 0 {
            std::fs::remove_file(path)
        } else {
            std::fs::write(path, after.to_string())
        };
        before
    }

    /// The exporter's lock, if no other process holds it.
    fn lock_exporter(&self) -> Option<File> {
        let file = open_lock(&self.dir.join("exporter.lock")).ok()?;
        flock(&file, FlockOperation::NonBlockingLockExclusive).ok()?;
        Some(file)
    }
}

/// A lock file, created if needed.
fn open_lock(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
}

/// What one [`flush`] did.
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlushReport {
    /// Records the collector accepted (their files deleted).
    pub exported: usize,
    /// Records left in the spool (a failed post, the deadline).
    pub kept: usize,
    /// Records that could not be read (deleted).
    pub discarded: usize,
    /// Dropped records reported in the metrics sent.
    pub dropped_reported: u64,
    /// Metrics requests the collector accepted.
    pub metrics_exported: usize,
    /// What failed, one line each (no secret: endpoints and errors only).
    pub errors: Vec<String>,
}

impl FlushReport {
    /// Whether a post failed.
    pub fn failed(&self) -> bool {
        !self.errors.is_empty()
    }
}

/// Posts every spooled record of `spool` to the collector of `config`, in batches of
/// [`BATCH_RECORDS`], oldest first: the batch's spans to the traces endpoint, then its
/// metrics (with the dropped count) to the metrics endpoint. Deletes what the collector
/// accepted; stops at the first failure or at `deadline` (each post is bounded by the time
/// left and the configured timeout), keeping the rest for the next flush. Blocks the
/// calling thread (which must not be inside an async runtime): the exporter process's, a
/// resident engine's thread of its own.
pub fn flush(spool: &Spool, config: &OtlpConfig, deadline: Instant) -> FlushReport {
    let mut report = FlushReport::default();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            report
                .errors
                .push(format!("starting the async runtime: {e}"));
            report.kept = spool.len();
            return report;
        }
    };
    let exporter = match config.exporter() {
        Ok(exporter) => exporter,
        Err(e) => {
            report.errors.push(e.to_string());
            report.kept = spool.len();
            return report;
        }
    };
    let post = |signal: Signal, body: Vec<u8>| {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("the flush's deadline passed".to_owned());
        }
        runtime
            .block_on(exporter.export(signal, body, left))
            .map_err(|e| e.to_string())
    };
    let entries = spool.entries();
    let mut batches = entries.chunks(BATCH_RECORDS).peekable();
    // A dropped count with no record left still goes out once.
    if batches.peek().is_none() && spool.dropped() > 0 {
        send_metrics(spool, config, &[], &mut report, &post);
    }
    while let Some(batch) = batches.next() {
        let mut records = Vec::with_capacity(batch.len());
        let mut sent = Vec::with_capacity(batch.len());
        for entry in batch {
            // A file taken by another flush meanwhile is not read.
            if let Ok(bytes) = std::fs::read(&entry.path) {
                if let Ok(record) = serde_json::from_slice::<EventRecord>(&bytes) {
                    records.push(record);
                    sent.push(&entry.path);
                } else {
                    let _ = std::fs::remove_file(&entry.path);
                    report.discarded += 1;
                }
            }
        }
        if config.endpoint(Signal::Traces).is_some()
            && !records.is_empty()
            && let Err(e) = post(Signal::Traces, config.encode_traces(&records))
        {
            report.errors.push(e);
            report.kept = sent.len() + batches.map(<[Entry]>::len).sum::<usize>();
            return report;
        }
        for path in sent {
            let _ = std::fs::remove_file(path);
        }
        report.exported += records.len();
        send_metrics(spool, config, &records, &mut report, &post);
    }
    report
}

/// Posts the metrics of `records` with the spool's dropped count (given back to the spool
/// if the post fails); a failure is reported, the records are not sent again.
fn send_metrics(
    spool: &Spool,
    config: &OtlpConfig,
    records: &[EventRecord],
    report: &mut FlushReport,
    post: &impl Fn(Signal, Vec<u8>) -> Result<(), String>,
) {
    if config.endpoint(Signal::Metrics).is_none() {
        return;
    }
    let dropped = spool.count_dropped(|_| 0);
    let Some(body) = config.encode_metrics(records, dropped) else {
        return;
    };
    match post(Signal::Metrics, body) {
        Ok(()) => {
            report.metrics_exported += 1;
            report.dropped_reported += dropped;
        }
        Err(e) => {
            if dropped > 0 {
                spool.count_dropped(|n| n + dropped);
            }
            report.errors.push(e);
        }
    }
}

/// The exporter process's work (`hooks otel-flush`): unless another exporter holds the
/// spool's lock, [`flush`] until the spool stays empty for [`LINGER`], a post fails (the
/// rest waits for the next exporter), or [`EXPORTER_LIFETIME`] passes. `None`: another
/// exporter runs. Records spooled while the lock is let go are picked up: after letting it
/// go the spool is looked at once more.
pub fn run_exporter(spool: &Spool, config: &OtlpConfig) -> Option<FlushReport> {
    let end = Instant::now() + EXPORTER_LIFETIME;
    let mut total: Option<FlushReport> = None;
    while let Some(lock) = spool.lock_exporter() {
        let report = total.get_or_insert_with(FlushReport::default);
        loop {
            let round = flush(spool, config, end);
            report.exported += round.exported;
            report.kept = round.kept;
            report.discarded += round.discarded;
            report.dropped_reported += round.dropped_reported;
            report.metrics_exported += round.metrics_exported;
            let failed = round.failed();
            report.errors.extend(round.errors);
            if failed || !wait_for_records(spool, end) {
                break;
            }
        }
        drop(lock);
        if report.failed() || Instant::now() >= end || spool.is_empty() {
            break;
        }
    }
    total
}

/// Waits up to [`LINGER`] (and never past `end`) for a record; whether one came.
fn wait_for_records(spool: &Spool, end: Instant) -> bool {
    let until = (Instant::now() + LINGER).min(end);
    loop {
        if !spool.is_empty() {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The record of one answered event, kept from the dispatch's start to its answer; only
/// built when export is on.
#[derive(Debug)]
pub struct Recorder {
    started: SystemTime,
    specs: Vec<HookSpec>,
    config: OtlpConfig,
}

impl Recorder {
    /// A recorder of an event whose dispatch started at `started`, when the loaded
    /// config's telemetry settings `layers` (`Loaded::hooks.telemetry()`; none:
    /// `&TelemetryLayers::default()`) and this process's environment turn export on
    /// ([`OtlpConfig::from_config`]); `None` otherwise (or when a variable the export would
    /// use is invalid: export is then off, and the answer unchanged). With nothing
    /// configured this is a few variable reads.
    pub fn start(started: SystemTime, layers: &TelemetryLayers) -> Option<Recorder> {
        let config = OtlpConfig::from_config(layers).ok().flatten()?;
        Some(Recorder {
            started,
            specs: Vec::new(),
            config,
        })
    }

    /// The configuration it exports by.
    pub fn config(&self) -> &OtlpConfig {
        &self.config
    }

    /// Notes the specs of the hooks the event matched, which give each hook span its
    /// type, dialect and failure policy (and its command, when the configuration asks).
    pub fn matched<'a>(&mut self, specs: impl IntoIterator<Item = &'a HookSpec>) {
        self.specs.extend(specs.into_iter().cloned());
    }

    /// Spools the record of `agg`, the answer to `ctx` given by the agent `agent`'s call,
    /// and starts the exporter (`program` with [`EXPORTER_ARGS`], detached, handed this
    /// recorder's configuration on its stdin) unless one runs. Never fails: export never
    /// changes an answer.
    pub fn finish(
        self,
        ctx: &EventContext,
        agg: &Aggregate,
        agent: Option<&str>,
        program: Option<&Path>,
    ) {
        let specs: Vec<&HookSpec> = self.specs.iter().collect();
        let mut record =
            EventRecord::new(ctx, agg, self.started, SystemTime::now()).with_reports(agg, &specs);
        if self.config.export_commands() {
            record = record.with_commands(&specs, command_text);
        }
        if let Some(agent) = agent {
            record = record.with_agent(agent);
        }
        let Some(spool) = Spool::user() else {
            return;
        };
        if spool.push(&record).is_err() {
            return;
        }
        start_exporter(&spool, program, &self.config);
    }
}

/// A command hook's command as written, its `{{ secrets.NAME }}` shown as the runner's
/// redactor shows their values (`[secret NAME]`): the loaded hook never holds a secret's
/// value, which is filled in only for its run. An argv vector is its words joined by
/// spaces. `None` for other hook types.
fn command_text(spec: &HookSpec) -> Option<String> {
    let Action::Command(command) = &spec.action else {
        return None;
    };
    let text = match &command.command {
        CommandLine::Script(script) => script.clone(),
        CommandLine::Argv(words) => words.join(" "),
    };
    Some(crate::config::mask_secret_tokens(&text))
}

/// Starts the exporter detached (as the bridge starts its async worker), `config` on its
/// stdin, unless one holds the spool's lock.
fn start_exporter(spool: &Spool, program: Option<&Path>, config: &OtlpConfig) {
    let Some(program) = program else {
        return;
    };
    if spool.exporter_running() {
        return;
    }
    let Ok(handoff) = serde_json::to_vec(config) else {
        return;
    };
    let mut argv: Vec<OsString> = vec![program.as_os_str().to_owned()];
    argv.extend(EXPORTER_ARGS.iter().map(OsString::from));
    let _ = crate::exec::spawn_detached(&argv, &handoff);
}
