//! The bridge's side: hand a call to the daemon and take its answer, or learn that the
//! bridge must answer the call itself.

use std::io;
use std::path::Path;

use crate::core::reply::Reply;

use super::wire::{Call, Message};
use super::{BEAT_WAIT, Mode, VERSION, check_private, socket_path};

/// The answer of this user's daemon to the call of `agent` (the event named on the
/// command line, if any; `stdin`, the event as the agent wrote it; `program`, the `hooks`
/// program making the call), with the caller's working directory and environment. `None`
/// when the bridge must answer the call itself: no daemon, `HOOKS_DAEMON=off`, a socket
/// that is not the caller's own, or a daemon that refused the call or stopped answering.
/// With `HOOKS_DAEMON=auto`, a daemon is started (detached) when none runs, for the calls
/// that follow.
pub fn forward(agent: &str, event: Option<&str>, stdin: &[u8], program: &Path) -> Option<Reply> {
    let mode = Mode::from_env();
    if mode == Mode::Off {
        return None;
    }
    let socket = socket_path()?;
    if !socket.exists() {
        if mode == Mode::Auto {
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
    match hooks_client::hand_over(&socket, &call) {
        Ok(answer) => answer.map(|a| Reply {
            stdout: a.stdout,
            stderr: a.stderr,
            exit_code: a.exit_code,
        }),
        Err(e) => {
            if mode == Mode::Auto && e.kind() == io::ErrorKind::ConnectionRefused {
                start_detached(program);
            }
            None
        }
    }
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
    use std::os::unix::net::UnixStream;
    check_private(socket).map_err(|e| io::Error::new(io::ErrorKind::PermissionDenied, e))?;
    let mut stream = UnixStream::connect(socket)?;
    stream.set_read_timeout(Some(BEAT_WAIT))?;
    stream.set_write_timeout(Some(BEAT_WAIT))?;
    message.write_to(&mut stream)?;
    Message::read_from(&mut stream)
}
