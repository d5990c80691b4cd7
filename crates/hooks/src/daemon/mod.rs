//! The resident engine (`hooks daemon`): a per-user process on a Unix socket that answers
//! the bridge's hook calls with the configs it has already loaded, so that a call costs
//! the bridge's start and one round trip instead of loading and checking every config.
//!
//! # How a call goes
//!
//! 1. `hooks bridge AGENT` reads the event from stdin, finds the socket ([`socket_path`])
//!    and checks that it is the caller's own (the socket and its directory owned by the
//!    caller, the directory closed to everyone else: [`check_private`]); it sends the call
//!    ([`wire::Call`]: its version and program, the agent, its working directory, its
//!    environment as the agent gave it, the event's bytes).
//! 2. The daemon takes only its own user's calls (the peer's credentials, read from the
//!    socket) of its own version; it answers [`wire::Message::Accepted`] at once, then a
//!    [`wire::Message::Beat`] every [`BEAT`] while the call runs.
//! 3. The call runs in a worker: a `hooks daemon worker` process the daemon started with
//!    exactly the caller's environment and working directory (never its own), which
//!    answers it as the bridge would ([`crate::bridge::answer`]), its loaded configs kept
//!    in a [`LoadCache`](crate::LoadCache) (reloaded, with every trust check, when a file
//!    changes). A worker serves only calls of the same environment and directory, one at a
//!    time; the daemon keeps them while they are used and ends them when idle.
//! 4. The bridge writes the answer as its own. It answers the call itself, as it does
//!    with no daemon, whenever the daemon does not take it (no socket, not the caller's,
//!    another version, no worker to spare) or stops answering (the connection closed, no
//!    beat within [`BEAT_WAIT`]): a daemon that is killed, hung or stale never costs the
//!    call its answer, and never answers it differently.
//!
//! What spans calls (stop-loop counts, one-event-one-dispatch claims, async results) stays
//! in the state store on disk, shared with bridges that answer themselves, so calls with
//! and without the daemon see the same state.

pub mod client;
pub mod server;
pub mod service;
pub mod wire;
pub mod worker;

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use client::forward;
pub use server::Daemon;

/// The variable naming the daemon's socket; by default `$XDG_RUNTIME_DIR/hooks/daemon.sock`,
/// else `daemon.sock` in the state directory.
pub const SOCKET_VAR: &str = "HOOKS_DAEMON_SOCKET";

/// The variable that says whether the bridge uses the daemon: `off` never (every call is
/// answered by the bridge's own process), `auto` starts one when none answers, anything
/// else (the default) uses one that runs.
pub const DAEMON_VAR: &str = "HOOKS_DAEMON";

/// This engine's version: a daemon answers only bridges of the same one.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How often the daemon tells a waiting bridge that its call is still running.
pub const BEAT: Duration = Duration::from_millis(500);

/// How long a bridge waits for the daemon's next word (its acceptance, a beat, the
/// answer) before it answers the call itself.
pub const BEAT_WAIT: Duration = Duration::from_secs(3);

/// The socket of this user's daemon, as the environment names it; `None` when there is
/// no directory to keep it in.
pub fn socket_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(SOCKET_VAR).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    match runtime {
        Some(dir) => Some(dir.join("hooks").join("daemon.sock")),
        None => Some(crate::bridge::state::state_dir()?.join("daemon.sock")),
    }
}

/// Whether `path`, the socket, and the directory it is in, are this user's alone: both
/// owned by the user, the directory with no permission for anyone else, the socket not a
/// link. A socket anywhere else could be another user's process waiting for this user's
/// events (and the secrets in their environment): the bridge never connects to it.
pub fn check_private(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
    let uid = rustix::process::getuid().as_raw();
    let dir = path.parent().unwrap_or(Path::new("/"));
    let d = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if d.uid() != uid || d.mode() & 0o077 != 0 {
        return Err(format!(
            "{} is not private to this user (owner {}, mode {:o}; it must be {uid} and 700)",
            dir.display(),
            d.uid(),
            d.mode() & 0o777
        ));
    }
    let s = std::fs::symlink_metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !s.file_type().is_socket() || s.uid() != uid {
        return Err(format!(
            "{} is not a socket of this user's (owner {})",
            path.display(),
            s.uid()
        ));
    }
    Ok(())
}
