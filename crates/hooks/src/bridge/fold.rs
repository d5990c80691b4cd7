//! One event, one dispatch: when an agent calls two of this engine's bridges for the same
//! event (Cursor and GitHub Copilot CLI also run the hooks of `.claude/settings.json`, so
//! `hooks bridge claude` and `hooks bridge cursor` or `hooks bridge copilot` may both be
//! called), the engine's hooks run once and the second call answers with the first's
//! decision, in its own agent's protocol.
//!
//! The calls meet at a claim: one of [`SLOTS`] files in the state store's `claims/`
//! directory, picked by the event's [`key`], locked with `flock`. The first call holds the
//! lock while it dispatches and writes its answer there, with the key; a call that finds
//! the lock held waits for it (at most [`WAIT_LIMIT`]), then reads the answer if it is
//! its event's. The kernel drops the lock of a call that dies, leaving no answer, so a
//! crashed first call never wedges the second: it dispatches itself. The files are reused,
//! never removed: a file made and removed per event costs the file system more than the
//! rest of the call (ext4 searches its inode table past the recently freed ones). Two
//! events of one slot at once wait for each other, which with [`SLOTS`] slots is rare.
//!
//! A call asks first, before it loads any config ([`claim`] without `create`): an event
//! another call answered is answered so. It claims the event when it has something to
//! run (a hook matches, or the session has state to fold in); a call with nothing to run
//! answers without a claim, as the other call of its event does.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use crate::core::{Effects, EventContext};
use rustix::fs::{FlockOperation, flock};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::state::StateStore;

/// How long a first call's answer is reused for an event with a tool-use id (unique per
/// call, so a later call with the same id and input is the same call).
pub(crate) const WINDOW_WITH_ID: Duration = Duration::from_secs(60);

/// The longest a call waits for another call of the same event to answer: past the
/// longest hook timeout, so that only a call stuck outside its hooks is overtaken.
pub(crate) const WAIT_LIMIT: Duration = Duration::from_secs(310);

/// How many claim files there may be: an event's is named by its key's first three hex
/// digits, modulo this. Enough that two events at once rarely share one (which makes the
/// second wait for the first's hooks), few enough that the files soon all exist and are
/// reused rather than made.
pub(crate) const SLOTS: u16 = 1024;

/// An event as a claim: the name of its claim file, and how long a finished call's answer
/// to it holds (`None`: only a call that was running when this one arrived answers it).
#[derive(Debug)]
pub(crate) struct Key {
    name: String,
    window: Option<Duration>,
}

/// The event of `ctx` as a claim. With a tool-use id, the key is the session, the event,
/// the id and the tool's name and input (an agent that reused an id for another call would
/// not fold two calls), and a finished call's answer holds for [`WINDOW_WITH_ID`]. Without
/// one, for an agent whose calls of one event carry the same time of the event (`timed`:
/// GitHub Copilot CLI gives its camelCase and PascalCase calls of one event the same
/// `timestamp`, milliseconds in one and an RFC 3339 time in UTC in the other, and makes
/// them one after the other), the key is the session, the event, that time and the tool's
/// name and input, and the answer holds for [`WINDOW_WITH_ID`] too. Otherwise the key is the session, the event and
/// the whole stdin, and only calls that overlap fold: two events in a row that look the
/// same (two stops of a stop loop) are two events. `None` without a session (nothing ties
/// two calls together).
pub(crate) fn key(ctx: &EventContext, stdin: &[u8], timed: bool) -> Option<Key> {
    let session = ctx.get_str("session_id").filter(|s| !s.is_empty())?;
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    part(session.as_bytes());
    part(ctx.event().name().as_bytes());
    let tool = |part: &mut dyn FnMut(&[u8])| {
        part(ctx.get_str("tool_name").unwrap_or_default().as_bytes());
        part(
            ctx.get("tool_input")
                .map(Value::to_string)
                .unwrap_or_default()
                .as_bytes(),
        );
    };
    let id = ctx.get_str("tool_use_id").filter(|s| !s.is_empty());
    let time = ctx
        .get("timestamp")
        .filter(|_| timed)
        .and_then(event_time_ms);
    let window = match (id, time) {
        (Some(id), _) => {
            part(b"id");
            part(id.as_bytes());
            tool(&mut part);
            Some(WINDOW_WITH_ID)
        }
        (None, Some(ms)) => {
            part(b"time");
            part(&ms.to_le_bytes());
            tool(&mut part);
            Some(WINDOW_WITH_ID)
        }
        (None, None) => {
            part(b"stdin");
            part(stdin);
            None
        }
    };
    let name = hash
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>();
    Some(Key { name, window })
}

/// An event's time as an agent gives it, in milliseconds since the Unix epoch: a number of
/// milliseconds, or an RFC 3339 time in UTC (`2026-12-06T21:29:17.734Z`). `None` for
/// anything else (another offset, a time in seconds given as text).
pub(crate) fn event_time_ms(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().filter(|ms| *ms > 0),
        Value::String(s) => rfc3339_utc_ms(s),
        _ => None,
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` in milliseconds since the Unix epoch (`humantime`'s
/// RFC 3339 reading, which takes a time in UTC only).
fn rfc3339_utc_ms(text: &str) -> Option<i64> {
    let time = humantime::parse_rfc3339(text).ok()?;
    let since = time.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since.as_millis()).ok()
}

/// What a claim gave the call.
#[derive(Debug)]
pub(crate) enum Claim {
    /// This call dispatches; it writes its answer with [`Held::answer`].
    Held(Held),
    /// Another call of the same event answered this.
    Answered(Box<Effects>),
}

/// The lock of a call that dispatches; dropping it without an answer lets the next call
/// dispatch.
#[derive(Debug)]
pub(crate) struct Held {
    file: File,
    key: String,
    /// The length of what the file held.
    len: usize,
}

/// What a claim file holds.
#[derive(Serialize, Deserialize)]
struct Record {
    /// The event's key: the answer is that event's only.
    key: String,
    /// When the answer was written, in milliseconds since the Unix epoch.
    at_ms: u128,
    effects: Effects,
}

/// The name of the claim file of `key`, one of [`SLOTS`].
fn slot(key: &Key) -> String {
    let digits = key.name.get(..3).unwrap_or_default();
    slot_name(u16::from_str_radix(digits, 16).unwrap_or(0) % SLOTS)
}

/// The name of claim file number `n`.
fn slot_name(n: u16) -> String {
    format!("{n:03x}")
}

/// Makes every claim file of `store` that does not exist yet, none cut or written: a
/// resident engine does it when it starts, so that none of its calls makes one (a call
/// otherwise makes its slot's file the first time it claims it, which costs a file
/// system's inode allocation on the agent's clock).
pub(crate) fn make_slots(store: &StateStore) {
    let dir = store.claims_dir();
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    for n in 0..SLOTS {
        let path = dir.join(slot_name(n));
        if !path.exists() {
            let _ = open(&path, true);
        }
    }
}

/// Claims the event `key` in `store` for a call that began at `began` (milliseconds since
/// the Unix epoch): waits while another call holds its file, then gives that call's
/// answer if it is this event's and holds for this call (see [`key`]), else the lock.
/// `None` when the claim cannot be made (the call then dispatches on its own), and,
/// unless `create`, when no call answered the event (the lock is not kept then).
pub(crate) fn claim(store: &StateStore, key: &Key, create: bool, began: u128) -> Option<Claim> {
    let dir = store.claims_dir();
    let path = dir.join(slot(key));
    let file = match open(&path, false) {
        Ok(file) => file,
        Err(_) if !create => return None,
        Err(_) => {
            std::fs::create_dir_all(&dir).ok()?;
            open(&path, true).ok()?
        }
    };
    lock(&file)?;
    let text = read_all(&file);
    if let Ok(record) = serde_json::from_slice::<Record>(&text)
        && record.key == key.name
    {
        let holds = match key.window {
            Some(window) => now_ms().saturating_sub(record.at_ms) <= window.as_millis(),
            // Only a call that was running when this one began.
            None => record.at_ms >= began,
        };
        if holds {
            return Some(Claim::Answered(Box::new(record.effects)));
        }
    }
    create.then(|| {
        Claim::Held(Held {
            file,
            key: key.name.clone(),
            len: text.len(),
        })
    })
}

/// The whole of `file` from its start (a claim file: a few hundred bytes).
fn read_all(mut file: &File) -> Vec<u8> {
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return text,
            Ok(n) => text.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return text,
        }
    }
}

impl Held {
    /// Writes the answer for the calls that wait, and releases the lock.
    pub(crate) fn answer(mut self, effects: &Effects) {
        let record = Record {
            key: std::mem::take(&mut self.key),
            at_ms: now_ms(),
            effects: effects.clone(),
        };
        // Written over the old record, padded with spaces to its length when shorter (a
        // JSON reader skips them): a file cut to nothing and written again is flushed to
        // disk when closed (ext4's `auto_da_alloc`), and cutting it to length costs a
        // journal entry, where a write over it costs neither.
        if let Ok(mut text) = serde_json::to_vec(&record) {
            if text.len() < self.len {
                text.resize(self.len, b' ');
            }
            let _ = std::os::unix::fs::FileExt::write_all_at(&self.file, &text, 0);
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

/// Now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis()
}
#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::event_time_ms;

    #[test]
    fn an_event_time_in_either_of_copilots_forms() {
        // The two forms of one Copilot event, observed side by side.
        assert_eq!(
            event_time_ms(&json!("2026-12-07T02:03:56.951Z")),
            Some(1_796_609_036_951)
        );
        assert_eq!(
            event_time_ms(&json!(1_796_609_036_951_i64)),
            Some(1_796_609_036_951)
        );
        assert_eq!(event_time_ms(&json!("1970-01-01T00:00:00Z")), Some(0));
        assert_eq!(
            event_time_ms(&json!("2000-03-01T00:00:00.5Z")),
            Some(951_868_800_500)
        );
        for other in [
            json!("2026-12-07T02:03:56.951+01:00"),
            json!("yesterday"),
            json!(true),
            json!("2026-13-07T02:03:56Z"),
        ] {
            assert_eq!(event_time_ms(&other), None, "{other}");
        }
    }
}
