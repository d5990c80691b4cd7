//! One event, one dispatch: when an agent calls two of this engine's bridges for the same
//! event (Cursor and GitHub Copilot CLI also run the hooks of `.claude/settings.json`, so
//! `hooks bridge claude` and `hooks bridge cursor` may both be called), the engine's hooks
//! run once and the second call answers with the first's decision, in its own agent's
//! protocol.
//!
//! The calls meet at a claim: a file in the state store's `claims/` directory named by the
//! event's key (the session, the event and the tool-use id, or the whole stdin when the
//! event has no id), locked with `flock`. The first call holds the lock while it
//! dispatches and writes its answer there; a call that finds the lock held waits for it
//! (at most [`WAIT_LIMIT`]), then reads the answer. The kernel drops the lock of a call
//! that dies, and an answer older than its window is not reused, so a crashed first call
//! never wedges the second: it dispatches itself. Claims are pruned once past
//! [`MAX_CLAIMS`] files, the ones untouched for [`STALE`] first.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use hooks::core::{Effects, EventContext};
use rustix::fs::{FlockOperation, flock};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::state::StateStore;

/// How long a first call's answer is reused for an event with a tool-use id (unique per
/// call, so a later call with the same id is the same call).
pub const WINDOW_WITH_ID: Duration = Duration::from_secs(60);

/// How long a first call's answer is reused for an event without one (only for the same
/// stdin, byte for byte): long enough for an agent that calls its hooks one after the
/// other, short enough that a later event that happens to look the same is dispatched.
pub const WINDOW: Duration = Duration::from_secs(2);

/// The longest a call waits for another call of the same event to answer: past the
/// longest hook timeout, so that only a call stuck outside its hooks is overtaken.
pub const WAIT_LIMIT: Duration = Duration::from_secs(310);

/// The claim files kept before pruning.
pub const MAX_CLAIMS: usize = 256;

/// A claim untouched this long is past every window and every wait.
pub const STALE: Duration = Duration::from_secs(600);

/// The event of `ctx` as a claim: its key and how long an answer to it holds. `None`
/// without a session (nothing ties two calls together).
pub fn key(ctx: &EventContext, stdin: &[u8]) -> Option<(String, Duration)> {
    let session = ctx.get_str("session_id").filter(|s| !s.is_empty())?;
    let mut hash = Sha256::new();
    hash.update(session.as_bytes());
    hash.update([0]);
    hash.update(ctx.event().name().as_bytes());
    hash.update([0]);
    let window = match ctx.get_str("tool_use_id").filter(|s| !s.is_empty()) {
        Some(id) => {
            hash.update(b"id\0");
            hash.update(id.as_bytes());
            WINDOW_WITH_ID
        }
        None => {
            hash.update(b"stdin\0");
            hash.update(stdin);
            WINDOW
        }
    };
    let key = hash
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>();
    Some((key, window))
}

/// What a claim gave the call.
#[derive(Debug)]
pub enum Claim {
    /// This call dispatches; it writes its answer with [`Held::answer`].
    Held(Held),
    /// Another call of the same event answered this.
    Answered(Box<Effects>),
}

/// The lock of a call that dispatches; dropping it without an answer lets the next call
/// dispatch.
#[derive(Debug)]
pub struct Held {
    file: File,
}

/// What a claim file holds.
#[derive(Serialize, Deserialize)]
struct Record {
    /// When the answer was written, in milliseconds since the Unix epoch.
    at_ms: u128,
    effects: Effects,
}

/// Claims the event `key` in `store`: waits while another call holds it, then gives its
/// answer if one younger than `window` is there, else the lock. `None` when the claim
/// cannot be made (the call then dispatches on its own).
pub fn claim(store: &StateStore, key: &str, window: Duration) -> Option<Claim> {
    let dir = store.claims_dir();
    let path = dir.join(key);
    let file = match open(&path, false) {
        Ok(file) => file,
        Err(_) => {
            std::fs::create_dir_all(&dir).ok()?;
            prune(&dir);
            open(&path, true).ok()?
        }
    };
    lock(&file)?;
    let mut file = file;
    let mut text = String::new();
    let _ = file.read_to_string(&mut text);
    if let Ok(record) = serde_json::from_str::<Record>(&text) {
        let age = now_ms().saturating_sub(record.at_ms);
        if age <= window.as_millis() {
            return Some(Claim::Answered(Box::new(record.effects)));
        }
    }
    Some(Claim::Held(Held { file }))
}

impl Held {
    /// Writes the answer for the calls that wait, and releases the lock.
    pub fn answer(mut self, effects: &Effects) {
        let record = Record {
            at_ms: now_ms(),
            effects: effects.clone(),
        };
        if let Ok(text) = serde_json::to_vec(&record) {
            let _ = self
                .file
                .set_len(0)
                .and_then(|()| self.file.rewind())
                .and_then(|()| self.file.write_all(&text));
        }
    }
}

fn open(path: &Path, create: bool) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .mode(0o600)
        .open(path)
}

/// Takes the file's lock, waiting at most [`WAIT_LIMIT`] (polled: a blocking `flock`
/// could not be bounded without a thread of its own).
fn lock(file: &File) -> Option<()> {
    let deadline = Instant::now() + WAIT_LIMIT;
    let mut pause = Duration::from_millis(1);
    loop {
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Some(()),
            Err(rustix::io::Errno::WOULDBLOCK | rustix::io::Errno::INTR) => {}
            Err(_) => return None,
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Removes the claims untouched for [`STALE`] once there are more than [`MAX_CLAIMS`].
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let files: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if files.len() < MAX_CLAIMS {
        return;
    }
    let now = SystemTime::now();
    for (modified, path) in files {
        if now.duration_since(modified).unwrap_or_default() > STALE {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis()
}
