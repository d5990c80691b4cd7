//! The bridge's side: hand a call to the daemon and take its answer, or learn that the
//! bridge must answer the call itself.

use std::io;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::core::reply::Reply;

use super::wire::{Call, Message};
use super::{BEAT_WAIT, DAEMON_VAR, VERSION, check_private, socket_path};

/// The longest a call may take through the daemon: far beyond any hook's timeout; past it
/// the bridge answers the call itself.
const CALL_LIMIT: Duration = Duration::from_secs(30 * 60);

/// The answer of this user's daemon to the call of `agent` (the event named on the
/// command line, if any; `stdin`, the event as the agent wrote it; `program`, the `hooks`
/// program making the call), with the caller's working directory and environment. `None`
/// when the bridge must answer the call itself: no daemon, `HOOKS_DAEMON=off`, a socket
/// that is not the caller's own, or a daemon that refused the call or stopped answering.
/// With `HOOKS_DAEMON=auto`, a daemon is started (detached) when none runs, for the calls
/// that follow.
pub fn forward(agent: &str, event: Option<&str>, stdin: &[u8], program: &Path) -> Option<Reply> {
    let mode = std::env::var_os(DAEMON_VAR).unwrap_or_default();
    if mode == "off" {
        return None;
    }
    let socket = socket_path()?;
    if !socket.exists() {
        if mode == "auto" {
            start_detached(program);
        }
        return None;
    }
    check_private(&socket).ok()?;
    let call = Call {
        version: VERSION.to_owned(),
        program: program.to_path_buf(),
        agent: agent.to_owned(),
        event: event.map(str::to_owned),
        cwd: std::env::current_dir().ok()?,
        env: std::env::vars_os().collect(),
        stdin: stdin.to_vec(),
    };
    match exchange(&socket, call) {
        Ok(reply) => reply,
        Err(e) => {
            if mode == "auto" && e.kind() == io::ErrorKind::ConnectionRefused {
                start_detached(program);
            }
            None
        }
    }
}

/// Sends `call` and waits for the answer, each wait bounded by [`BEAT_WAIT`].
fn exchange(socket: &Path, call: Call) -> io::Result<Option<Reply>> {
    let mut stream = UnixStream::connect(socket)?;
    stream.set_read_timeout(Some(BEAT_WAIT))?;
    stream.set_write_timeout(Some(BEAT_WAIT))?;
    Message::Call(Box::new(call)).write_to(&mut stream)?;
    let limit = Instant::now() + CALL_LIMIT;
    while Instant::now() < limit {
        match Message::read_from(&mut stream)? {
            Message::Accepted { .. } | Message::Beat => {}
            Message::Answer {
                exit_code,
                stdout,
                stderr,
            } => {
                return Ok(Some(Reply {
                    stdout,
                    stderr,
                    exit_code,
                }));
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// Starts `program daemon run` detached; a daemon already running (or starting) keeps
/// the socket, and this one exits at once.
fn start_detached(program: &Path) {
    let argv = [
        program.as_os_str().to_owned(),
        "daemon".into(),
        "run".into(),
    ];
    let _ = crate::exec::spawn_detached(&argv, b"");
}

/// Sends `message` (a status question, a stop) to the daemon at `socket` and gives its
/// answer, within [`BEAT_WAIT`]; the socket must be the user's own ([`check_private`]).
pub fn ask(socket: &Path, message: &Message) -> io::Result<Message> {
    check_private(socket).map_err(|e| io::Error::new(io::ErrorKind::PermissionDenied, e))?;
    let mut stream = UnixStream::connect(socket)?;
    stream.set_read_timeout(Some(BEAT_WAIT))?;
    stream.set_write_timeout(Some(BEAT_WAIT))?;
    message.write_to(&mut stream)?;
    Message::read_from(&mut stream)
}
