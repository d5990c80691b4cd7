//! One event, one dispatch: when an agent calls two of this engine's bridges for the same
//! event (Cursor and GitHub Copilot CLI also run the hooks of `.claude/settings.json`, so
//! `hooks bridge claude` and `hooks bridge cursor` or `hooks bridge copilot` may both be
//! called), the engine's hooks run once and the second call answers with the first's
//! decision, in its own agent's protocol.
//!
//! The calls meet at a claim: a file in the state store's `claims/` directory named by the
//! event's [`key`], locked with `flock`. The first call holds the lock while it
//! dispatches and writes its answer there; a call that finds the lock held waits for it
//! (at most [`WAIT_LIMIT`]), then reads the answer. The kernel drops the lock of a call
//! that dies, leaving no answer, so a crashed first call never wedges the second: it
//! dispatches itself. Claims are pruned once past
//! [`MAX_CLAIMS`] files, the ones untouched for [`STALE`] first.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
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

/// The claim files kept before pruning.
pub(crate) const MAX_CLAIMS: usize = 256;

/// A claim untouched this long is past every window and every wait.
pub(crate) const STALE: Duration = Duration::from_secs(600);

/// The least time between two looks at every claim's age.
const PRUNE_EVERY: Duration = Duration::from_secs(10);

/// The file whose time is the last look at every claim's age.
const PRUNED_MARK: &str = ".pruned";

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
}

/// What a claim file holds.
#[derive(Serialize, Deserialize)]
struct Record {
    /// When the answer was written, in milliseconds since the Unix epoch.
    at_ms: u128,
    effects: Effects,
}

/// Claims the event `key` in `store`: waits while another call holds it, then gives its
/// answer if it holds for this call (see [`key`]), else the lock. `None` when the claim
/// cannot be made (the call then dispatches on its own).
pub(crate) fn claim(store: &StateStore, key: &Key) -> Option<Claim> {
    let dir = store.claims_dir();
    let path = dir.join(&key.name);
    let file = match open(&path, false) {
        Ok(file) => file,
        Err(_) => {
            std::fs::create_dir_all(&dir).ok()?;
            prune(&dir);
            open(&path, true).ok()?
        }
    };
    let arrived = now_ms();
    let waited = lock(&file)?;
    let mut file = file;
    let mut text = String::new();
    let _ = file.read_to_string(&mut text);
    if let Ok(record) = serde_json::from_str::<Record>(&text) {
        let holds = match key.window {
            Some(window) => now_ms().saturating_sub(record.at_ms) <= window.as_millis(),
            None => waited && record.at_ms >= arrived,
        };
        if holds {
            return Some(Claim::Answered(Box::new(record.effects)));
        }
    }
    Some(Claim::Held(Held { file }))
}

impl Held {
    /// Writes the answer for the calls that wait, and releases the lock.
    pub(crate) fn answer(mut self, effects: &Effects) {
        let record = Record {
            at_ms: now_ms(),
            effects: effects.clone(),
        };
        // Written over the old record, then cut to its length: a file cut to nothing and
        // written again is flushed to disk when closed (ext4's `auto_da_alloc`), which
        // would cost every call a disk write.
        if let Ok(text) = serde_json::to_vec(&record) {
            let _ = self
                .file
                .rewind()
                .and_then(|()| self.file.write_all(&text))
                .and_then(|()| self.file.set_len(text.len() as u64));
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
/// could not be bounded without a thread of its own); whether it had to wait.
fn lock(file: &File) -> Option<bool> {
    let deadline = Instant::now() + WAIT_LIMIT;
    let mut pause = Duration::from_millis(1);
    let mut waited = false;
    loop {
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Some(waited),
            Err(rustix::io::Errno::WOULDBLOCK | rustix::io::Errno::INTR) => {}
            Err(_) => return None,
        }
        if Instant::now() >= deadline {
            return None;
        }
        waited = true;
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Once there are more than [`MAX_CLAIMS`], removes the claims no call can use: an
/// answered one (a record written) past [`WINDOW_WITH_ID`], and any untouched for
/// [`STALE`]. A claim still held (empty: no answer yet) is kept within [`STALE`], so a
/// second call of a slow event still waits for it. Pruning answered claims by the window
/// keeps a long session's directory below the bound, so a call does not look at every
/// file's time.
fn prune(dir: &Path) {
    // One look at the claims every PRUNE_EVERY at most: a full directory of claims still
    // within their window has nothing to remove, and a look at each file's time on every
    // call would cost more than the call.
    let mark = dir.join(PRUNED_MARK);
    let now = SystemTime::now();
    let recent = std::fs::metadata(&mark)
        .and_then(|m| m.modified())
        .is_ok_and(|t| now.duration_since(t).unwrap_or_default() < PRUNE_EVERY);
    if recent {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // Counted by name first: a claim is made on every tool event, and only a full
    // directory is worth a look at each file's time.
    let paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| !p.ends_with(PRUNED_MARK))
        .collect();
    let marked = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&mark)
        .and_then(|f| f.set_modified(now));
    if paths.len() < MAX_CLAIMS || marked.is_err() {
        return;
    }
    for path in paths {
        let useless = std::fs::metadata(&path).is_ok_and(|m| {
            let age = m
                .modified()
                .map(|t| now.duration_since(t).unwrap_or_default())
                .unwrap_or_default();
            age > STALE || (m.len() > 0 && age > WINDOW_WITH_ID)
        });
        if useless {
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

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use serde_json::json;

    use super::{MAX_CLAIMS, STALE, WINDOW_WITH_ID, event_time_ms, prune};

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

    #[test]
    fn a_full_claims_directory_loses_its_stale_claims_only() {
        let dir = tempfile::tempdir().expect("dir");
        let old = SystemTime::now() - STALE - Duration::from_secs(60);
        for n in 0..MAX_CLAIMS + 44 {
            let file = std::fs::File::create(dir.path().join(format!("c{n}"))).expect("file");
            if n % 3 == 0 {
                file.set_modified(old).expect("mtime");
            }
        }
        let count = || {
            std::fs::read_dir(dir.path())
                .expect("read")
                .flatten()
                .filter(|e| e.file_name() != super::PRUNED_MARK)
                .count()
        };
        prune(dir.path());
        let kept = MAX_CLAIMS + 44 - (MAX_CLAIMS + 44).div_ceil(3);
        assert_eq!(count(), kept);
        // A look at every claim's age is taken once per PRUNE_EVERY at most.
        std::fs::File::create(dir.path().join("late"))
            .and_then(|f| f.set_modified(old))
            .expect("file");
        prune(dir.path());
        assert_eq!(count(), kept + 1);
        // Below the bound, nothing is looked at, stale or not.
        let small = tempfile::tempdir().expect("dir");
        std::fs::File::create(small.path().join("c"))
            .and_then(|f| f.set_modified(old))
            .expect("file");
        prune(small.path());
        assert!(small.path().join("c").exists());
    }

    #[test]
    fn a_full_claims_directory_loses_its_answered_claims_past_the_window() {
        use std::io::Write;
        let dir = tempfile::tempdir().expect("dir");
        let past_window = SystemTime::now() - WINDOW_WITH_ID - Duration::from_secs(5);
        for n in 0..MAX_CLAIMS + 10 {
            let mut file = std::fs::File::create(dir.path().join(format!("c{n}"))).expect("file");
            // Every other claim answered; every claim older than the window.
            if n % 2 == 0 {
                file.write_all(b"{}").expect("answer");
            }
            file.set_modified(past_window).expect("mtime");
        }
        prune(dir.path());
        let left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("read")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|name| name != super::PRUNED_MARK)
            .collect();
        // The held ones (no answer yet) stay: a second call of a slow event still waits.
        assert_eq!(left.len(), (MAX_CLAIMS + 10) / 2);
        assert!(left.iter().all(|name| {
            let n: usize = name[1..].parse().expect("number");
            n % 2 == 1
        }));
    }
}
