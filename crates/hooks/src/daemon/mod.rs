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
pub mod worker;

use std::path::{Path, PathBuf};

pub use client::forward;
pub use hooks_client::{
    BEAT, BEAT_WAIT, DAEMON_VAR, Mode, SOCKET_VAR, VERSION, check_private, wire,
};
pub use server::Daemon;

/// The socket of this user's daemon, as the environment names it
/// ([`hooks_client::socket_path`], with the state directory the bridge's state store
/// uses); `None` when there is no directory to keep it in.
pub fn socket_path() -> Option<PathBuf> {
    hooks_client::socket_path(crate::bridge::state::state_dir)
}

/// Why a call of `agent` is refused before it runs (an agent the bridge does not answer:
/// a newer client's), if it is.
pub(crate) fn unknown_agent(agent: &str) -> Option<String> {
    crate::core::Dialect::from_name(agent)
        .is_none()
        .then(|| format!("the bridge does not answer {agent}"))
}

/// Whether the socket file at `path` is one no process listens on any more (its process
/// was killed): a connection to it is refused.
pub(crate) fn is_dead_socket(path: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(path)
        .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionRefused)
}
