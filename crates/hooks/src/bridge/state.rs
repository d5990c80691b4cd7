//! The bridge's state store: what must span an agent's separate hook calls, one small JSON
//! file per session under the user's state directory (`$HOOKS_STATE_DIR`, else
//! `$XDG_STATE_HOME/hooks`, else `~/.local/state/hooks`), written atomically (temporary
//! file and rename). It holds the stop-loop counts (so the cap holds across the agent's
//! separate bridge processes) and the results of async hooks not yet delivered. It is
//! bounded: at most [`MAX_SESSIONS`] session files (the oldest go first), at most
//! [`MAX_PENDING`] results per session, each text at most [`MAX_TEXT`] characters; a
//! session's file is removed on its SessionEnd.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use crate::core::{Aggregate, Event, HookOutcome};
use crate::exec::StopStreaks;
use serde::{Deserialize, Serialize};

use crate::config::edit::atomic;

/// The variable naming the state directory.
pub const STATE_DIR_VAR: &str = "HOOKS_STATE_DIR";

/// The most session files kept; writing one more removes the least recently written.
pub const MAX_SESSIONS: usize = 256;

/// The most undelivered async results kept per session (the oldest go first).
pub const MAX_PENDING: usize = 32;

/// The longest text kept from one async result, in characters.
pub const MAX_TEXT: usize = 10_000;

/// One session's state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionState {
    /// Consecutive blocked stops, by the dispatcher's key.
    #[serde(default)]
    pub stop_streaks: BTreeMap<String, u32>,
    /// Results of async hooks, delivered with the session's next event.
    #[serde(default)]
    pub pending: Vec<AsyncResult>,
}

/// What one async hook left for the agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AsyncResult {
    /// The hook's id.
    pub hook: String,
    /// The event it ran on.
    pub event: String,
    /// Its text for the model.
    #[serde(default)]
    pub context: Vec<String>,
    /// Its messages for the user.
    #[serde(default)]
    pub messages: Vec<String>,
}

/// The user's state directory (`$HOOKS_STATE_DIR`, else `$XDG_STATE_HOME/hooks`, else
/// `~/.local/state/hooks`), which may not exist yet; `None` when none is named.
pub fn state_dir() -> Option<PathBuf> {
    std::env::var_os(STATE_DIR_VAR)
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_STATE_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|p| p.join("hooks"))
        })
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state/hooks")))
}

/// The store: a directory of session files.
#[derive(Clone, Debug)]
pub struct StateStore {
    dir: PathBuf,
}

impl StateStore {
    /// The user's store, created if needed (mode 0700); `None` when there is no state
    /// directory to use (the bridge then counts within one call only).
    pub fn open() -> Option<StateStore> {
        let dir = state_dir()?;
        let sessions = dir.join("sessions");
        if !sessions.is_dir() {
            std::fs::create_dir_all(&sessions).ok()?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
            }
        }
        Some(StateStore { dir })
    }

    /// The default audit log's path.
    pub fn audit_path(&self) -> PathBuf {
        self.dir.join("audit.jsonl")
    }

    /// The directory of the telemetry spool (`hooks::telemetry`).
    pub fn otel_dir(&self) -> PathBuf {
        self.dir.join("otel")
    }

    /// The directory of the claims that fold two calls of one event into one dispatch
    /// (`super::fold`).
    pub fn claims_dir(&self) -> PathBuf {
        self.dir.join("claims")
    }

    /// The file of `session` (its id hex-encoded, so that any id is one safe file name).
    fn path(&self, session: &str) -> PathBuf {
        let mut name = String::with_capacity(session.len() * 2 + 5);
        for b in session.bytes().take(128) {
            name.push_str(&format!("{b:02x}"));
        }
        if name.is_empty() {
            name.push_str("none");
        }
        name.push_str(".json");
        self.dir.join("sessions").join(name)
    }

    /// The state of `session` and the text it was read from (`None`: no file yet).
    fn read(&self, session: &str) -> (SessionState, Option<String>) {
        match std::fs::read_to_string(self.path(session)) {
            Ok(text) => (serde_json::from_str(&text).unwrap_or_default(), Some(text)),
            Err(_) => (SessionState::default(), None),
        }
    }

    /// Changes the state of `session` with `edit` and writes it atomically (a concurrent
    /// writer's change makes this write give up, never mix). Returns what `edit` gave.
    fn update<T>(&self, session: &str, edit: impl FnOnce(&mut SessionState) -> T) -> T {
        let (mut state, before) = self.read(session);
        let out = edit(&mut state);
        if state == SessionState::default() {
            if before.is_some() {
                let _ = std::fs::remove_file(self.path(session));
            }
            return out;
        }
        if let Ok(text) = serde_json::to_string(&state)
            && before.as_deref() != Some(text.as_str())
        {
            if before.is_none() {
                self.prune();
            }
            let _ = atomic::write(&self.path(session), &text, before.as_deref());
        }
        out
    }

    /// Keeps at most [`MAX_SESSIONS`] - 1 session files, removing the least recently
    /// written, before a new one is made.
    fn prune(&self) {
        let Ok(entries) = std::fs::read_dir(self.dir.join("sessions")) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let modified = e.metadata().ok()?.modified().ok()?;
                Some((modified, e.path()))
            })
            .collect();
        if files.len() < MAX_SESSIONS {
            return;
        }
        files.sort();
        for (_, path) in files.iter().take(files.len() + 1 - MAX_SESSIONS) {
            let _ = std::fs::remove_file(path);
        }
    }

    /// The stop-loop counts of `session`, for the dispatcher.
    pub fn streaks(&self, session: &str) -> SessionStreaks {
        let (state, _) = self.read(session);
        SessionStreaks {
            store: self.clone(),
            session: session.to_owned(),
            cache: Mutex::new(state.stop_streaks),
        }
    }

    /// Keeps what `outcome` of the async hook `hook` on `event` has for the agent.
    pub fn record_async(&self, session: &str, event: &Event, hook: &str, outcome: &HookOutcome) {
        let cut = |s: &String| s.chars().take(MAX_TEXT).collect::<String>();
        let effects = &outcome.effects;
        let mut messages: Vec<String> = effects.system_message.iter().map(cut).collect();
        messages.extend(effects.messages.iter().map(cut));
        if let Some(failure) = &outcome.run.failure {
            messages.push(format!("async hook `{hook}` failed: {}", failure.message));
        }
        let result = AsyncResult {
            hook: hook.to_owned(),
            event: event.name().to_owned(),
            context: effects.additional_context.iter().map(cut).collect(),
            messages,
        };
        if result.context.is_empty() && result.messages.is_empty() {
            return;
        }
        self.update(session, |state| {
            state.pending.push(result);
            let over = state.pending.len().saturating_sub(MAX_PENDING);
            state.pending.drain(..over);
        });
    }

    /// Whether the session has state kept (async results to deliver, stop-loop counts).
    pub fn has_session(&self, session: &str) -> bool {
        self.path(session).exists()
    }

    /// Adds the session's undelivered async results to `agg` (their context where the
    /// event takes context, else as messages) and forgets them.
    pub fn deliver(&self, session: &str, event: &Event, agg: &mut Aggregate) {
        if !self.path(session).exists() {
            return;
        }
        let pending = self.update(session, |state| std::mem::take(&mut state.pending));
        let takes_context = event.honours(crate::core::Fields::CONTEXT);
        for result in pending {
            if takes_context {
                agg.effects.additional_context.extend(result.context);
            } else {
                agg.effects.messages.extend(result.context);
            }
            agg.effects.messages.extend(result.messages);
        }
    }

    /// Removes the session's file (its SessionEnd).
    pub fn end_session(&self, session: &str) {
        let _ = std::fs::remove_file(self.path(session));
    }
}

/// One session's stop-loop counts, read once per call and written through.
#[derive(Debug)]
pub struct SessionStreaks {
    store: StateStore,
    session: String,
    cache: Mutex<BTreeMap<String, u32>>,
}

impl StopStreaks for SessionStreaks {
    fn get(&self, key: &str) -> u32 {
        let cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.get(key).copied().unwrap_or(0)
    }

    fn set(&self, key: &str, count: u32) {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if count == 0 {
            cache.remove(key);
        } else {
            cache.insert(key.to_owned(), count);
        }
        drop(cache);
        self.store.update(&self.session, |state| {
            if count == 0 {
                state.stop_streaks.remove(key);
            } else {
                state.stop_streaks.insert(key.to_owned(), count);
            }
        });
    }
}
