//! The client side of the hooks engine's resident daemon (`hooks daemon`): the messages
//! on its socket ([`wire`]), where the socket is ([`socket_path`]), whether it may be
//! trusted with a call ([`check_private`]), and the hand-over of one hook call
//! ([`exchange`]).
//!
//! Two programs hand calls over: `hooks bridge AGENT` (the engine, which answers the call
//! itself when the daemon does not) and `hooks-bridge AGENT`, the small client an agent's
//! hook entry runs, which starts in a fraction of the engine's time and hands anything the
//! daemon does not answer to `hooks bridge`. This crate is the standard library and system
//! calls only, so that the client starts on every tool call at the cost of a `/bin/true`
//! or less. The daemon itself (its workers, its answers) is the `hooks` crate's `daemon`
//! module.
//!
//! Without its `std` feature the crate is `no_std` (with `alloc`): the message frames
//! ([`frame`]) and this module's constants alone, which the `hooks-bridge-lite` client
//! (no C library, so no C library's start-up) shares with the rest.

#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

pub mod frame;
#[cfg(all(unix, feature = "std"))]
mod socket;
#[cfg(all(unix, feature = "std"))]
pub mod wire;

#[cfg(all(unix, feature = "std"))]
pub use socket::{
    Answer, Mode, check_private, exchange, hand_over, key_hash, read_within, socket_path,
    worker_socket,
};

use core::time::Duration;

/// The variable naming the daemon's socket; by default `$XDG_RUNTIME_DIR/hooks/daemon.sock`,
/// else `daemon.sock` in the state directory.
pub const SOCKET_VAR: &str = "HOOKS_DAEMON_SOCKET";

/// The variable that says whether the bridge uses the daemon: `off` never (every call is
/// answered by the bridge's own process), `auto` starts one when none answers, anything
/// else (the default) uses one that runs.
pub const DAEMON_VAR: &str = "HOOKS_DAEMON";

/// This engine's version: a daemon answers only calls of the same one.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How often the daemon tells a waiting bridge that its call is still running.
pub const BEAT: Duration = Duration::from_millis(500);

/// How long a bridge waits for the daemon's next word (a beat, the answer) before it
/// answers the call itself.
pub const BEAT_WAIT: Duration = Duration::from_secs(3);

/// How long the agent may take to write its event and close stdin. Agents write it at
/// once; the bound only keeps a bridge whose stdin is never closed from hanging.
pub const STDIN_LIMIT: Duration = Duration::from_secs(10);

/// The longest a call may take through the daemon: far beyond any hook's timeout; past it
/// the bridge answers the call itself.
pub const CALL_LIMIT: Duration = Duration::from_secs(30 * 60);
