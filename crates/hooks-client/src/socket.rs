//! The daemon's socket: where it is, whether it is the caller's own, and one call's
//! exchange over it.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::AsFd as _;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::wire::{Call, Message, write_call};
use crate::{BEAT_WAIT, CALL_LIMIT, DAEMON_VAR, SOCKET_VAR};

/// Whether calls go to the daemon, as [`DAEMON_VAR`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `off`: never; the bridge answers every call itself.
    Off,
    /// `auto`: to a daemon that runs, and one is started (for the calls that follow)
    /// when none does.
    Auto,
    /// Anything else (the default): to a daemon that runs.
    On,
}

impl Mode {
    /// The mode the environment asks for.
    pub fn from_env() -> Mode {
        Mode::from_value(std::env::var_os(DAEMON_VAR).as_deref())
    }

    /// The mode a value of [`DAEMON_VAR`] asks for.
    pub fn from_value(value: Option<&OsStr>) -> Mode {
        match value.and_then(OsStr::to_str) {
            Some("off") => Mode::Off,
            Some("auto") => Mode::Auto,
            _ => Mode::On,
        }
    }
}

/// The socket of this user's daemon, as the environment names it: [`SOCKET_VAR`], else
/// `hooks/daemon.sock` in `$XDG_RUNTIME_DIR`, else `daemon.sock` in the state directory
/// `state_dir` gives; `None` when there is no directory to keep it in.
pub fn socket_path(state_dir: impl FnOnce() -> Option<PathBuf>) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(SOCKET_VAR).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let runtime = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    match runtime {
        Some(dir) => Some(dir.join("hooks").join("daemon.sock")),
        None => Some(state_dir()?.join("daemon.sock")),
    }
}

/// Whether `path`, the socket, and the directory it is in, are this user's alone: both
/// owned by the user, the directory with no permission for anyone else, the socket not a
/// link. A socket anywhere else could be another user's process waiting for this user's
/// events (and the secrets in their environment): a bridge never connects to it.
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

/// The socket of the daemon's worker for calls made in `cwd` with the environment `env`
/// (in any order), beside the daemon's `socket`: `w-HASH.sock`, `HASH` a hash of the two
/// ([`key_hash`]). A worker listens there once the daemon has started it for a first
/// such call; it takes only calls whose directory and environment are exactly its own.
pub fn worker_socket(socket: &Path, cwd: &Path, env: &[(OsString, OsString)]) -> PathBuf {
    socket.with_file_name(crate::frame::worker_file_name(key_hash(cwd, env)))
}

/// A hash (64-bit FNV-1a) of a working directory and an environment, the environment's
/// order aside: the same for every call an agent makes from one directory, and the same
/// in every program of this version.
pub fn key_hash(cwd: &Path, env: &[(OsString, OsString)]) -> u64 {
    use std::os::unix::ffi::OsStrExt as _;
    let mut pairs: Vec<(&[u8], &[u8])> = env
        .iter()
        .map(|(k, v)| (k.as_bytes(), v.as_bytes()))
        .collect();
    crate::frame::key_hash(cwd.as_os_str().as_bytes(), &mut pairs)
}

/// Hands `call` to this user's daemon at `socket` (checked with [`check_private`]): to
/// its worker for the call's directory and environment when one listens
/// ([`worker_socket`]), else (none, or it did not take the call) to the daemon. `Ok(None)`
/// or an error: neither answered it; the caller answers it itself.
pub fn hand_over(socket: &Path, call: &Call) -> io::Result<Option<Answer>> {
    let worker = worker_socket(socket, &call.cwd, &call.env);
    if check_private(&worker).is_ok()
        && let Ok(Some(answer)) = exchange(&worker, call)
    {
        return Ok(Some(answer));
    }
    exchange(socket, call)
}

/// A call's answer, as the daemon gives it: what the bridge writes and exits with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The exit code.
    pub exit_code: i32,
    /// What goes to stdout.
    pub stdout: String,
    /// What goes to stderr.
    pub stderr: String,
}

/// Sends `call` to the daemon at `socket` (which the caller checked with
/// [`check_private`]) and waits for its answer, each wait for the daemon's next word
/// bounded by [`BEAT_WAIT`] and the whole by [`CALL_LIMIT`]. `Ok(None)`: the daemon did
/// not take the call, or stopped answering; the caller answers it itself.
pub fn exchange(socket: &Path, call: &Call) -> io::Result<Option<Answer>> {
    let mut stream = UnixStream::connect(socket)?;
    stream.set_read_timeout(Some(BEAT_WAIT))?;
    stream.set_write_timeout(Some(BEAT_WAIT))?;
    write_call(call, &mut stream)?;
    let limit = Instant::now() + CALL_LIMIT;
    while Instant::now() < limit {
        let next = Instant::now() + BEAT_WAIT;
        if !input_by(stream.as_fd(), next, "waiting for the daemon's answer")? {
            return Ok(None);
        }
        match Message::read_from(&mut stream)? {
            Message::Accepted { .. } | Message::Beat => {}
            Message::Answer {
                exit_code,
                stdout,
                stderr,
            } => {
                return Ok(Some(Answer {
                    exit_code,
                    stdout,
                    stderr,
                }));
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// Whether `fd` has input (or its end) before `deadline`, waited for in `poll` for input
/// alone (`what` says what for, in an error). A socket's blocking read would also wake
/// each time the peer takes bytes this side sent (the room to write grew): a wake-up of
/// the caller, and often a move to another CPU, while the daemon works.
fn input_by(fd: std::os::fd::BorrowedFd<'_>, deadline: Instant, what: &str) -> io::Result<bool> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(false);
        }
        let timeout = Timespec::try_from(left).map_err(io::Error::other)?;
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            // Timed out: the next turn says so once the deadline has passed.
            Ok(0) | Err(rustix::io::Errno::INTR) => {}
            Ok(_) => return Ok(true),
            Err(e) => return Err(with_context(e, what)),
        }
    }
}

/// Everything `fd` gives until its end, waiting at most `limit` in all: each read is
/// preceded by a `poll` bounded by the time left, on this thread (a thread of its own
/// would cost its start on every call). On an error, what was read before it, and the
/// error: [`io::ErrorKind::TimedOut`] when `limit` passed first.
pub fn read_within(
    fd: std::os::fd::BorrowedFd<'_>,
    limit: Duration,
) -> Result<Vec<u8>, (Vec<u8>, io::Error)> {
    let deadline = Instant::now() + limit;
    let mut text = Vec::new();
    loop {
        match input_by(fd, deadline, "waiting for the event on stdin") {
            Ok(true) => {}
            Ok(false) => {
                let e = io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("the agent did not close stdin within {} s", limit.as_secs()),
                );
                return Err((text, e));
            }
            Err(e) => return Err((text, e)),
        }
        // Read into the buffer's spare room, never zeroed; it grows only when full.
        if text.len() == text.capacity() {
            text.reserve(64 * 1024);
        }
        match rustix::io::read(fd, rustix::buffer::spare_capacity(&mut text)) {
            Ok(0) => return Ok(text),
            Ok(_) => {}
            Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => {}
            Err(e) => return Err((text, with_context(e, "reading the event from stdin"))),
        }
    }
}

fn with_context(e: rustix::io::Errno, what: &str) -> io::Error {
    let e = io::Error::from(e);
    io::Error::new(e.kind(), format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::time::{Duration, Instant};

    use super::{Mode, read_within};

    #[test]
    fn stdin_is_read_to_its_end_across_writes() {
        let (reader, mut writer) = std::io::pipe().expect("pipe");
        let big = "x".repeat(200_000);
        let writing = std::thread::spawn(move || {
            writer.write_all(b"{\"a\":\"").expect("write");
            writer.write_all(big.as_bytes()).expect("write");
            writer.write_all(b"\"}").expect("write");
        });
        let text = read_within(reader.as_fd(), Duration::from_secs(30)).expect("read");
        writing.join().expect("writer");
        assert_eq!(text.len(), 200_008);
        assert!(text.ends_with(b"\"}"));
    }

    #[test]
    fn a_stdin_never_closed_ends_at_the_limit_with_what_was_read() {
        let (reader, mut writer) = std::io::pipe().expect("pipe");
        writer.write_all(b"{").expect("write");
        let start = Instant::now();
        let (read, err) =
            read_within(reader.as_fd(), Duration::from_millis(200)).expect_err("bounded");
        assert!(start.elapsed() >= Duration::from_millis(200));
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(read, b"{");
        assert_eq!(err.kind(), std::io::ErrorKind::TimedOut);
        assert!(err.to_string().contains("did not close stdin"), "{err:#}");
        drop(writer);
    }

    #[test]
    fn the_key_hash_ignores_the_order_of_the_environment_only() {
        use super::key_hash;
        use std::path::Path;
        let env = |pairs: &[(&str, &str)]| -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
            pairs
                .iter()
                .map(|(k, v)| ((*k).into(), (*v).into()))
                .collect()
        };
        let a = key_hash(Path::new("/p"), &env(&[("A", "1"), ("B", "2")]));
        assert_eq!(
            a,
            key_hash(Path::new("/p"), &env(&[("B", "2"), ("A", "1")]))
        );
        assert_ne!(
            a,
            key_hash(Path::new("/q"), &env(&[("A", "1"), ("B", "2")]))
        );
        assert_ne!(
            a,
            key_hash(Path::new("/p"), &env(&[("A", "1"), ("B", "3")]))
        );
        // Where one field ends and the next begins counts.
        assert_ne!(
            key_hash(Path::new("/p"), &env(&[("AB", "")])),
            key_hash(Path::new("/p"), &env(&[("A", "B")]))
        );
    }

    /// The thread's id and its voluntary context switches so far, from `/proc`.
    #[cfg(target_os = "linux")]
    fn thread_id() -> String {
        let link = std::fs::read_link("/proc/thread-self").expect("/proc/thread-self");
        let id = link.file_name().expect("a thread id");
        id.to_string_lossy().into_owned()
    }

    #[cfg(target_os = "linux")]
    fn switches(tid: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/self/task/{tid}/status"))
            .expect("the thread's status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("a count of voluntary switches")
    }

    /// Waits (at most 10 s) until thread `tid` sleeps.
    #[cfg(target_os = "linux")]
    fn until_asleep(tid: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat"))
                .expect("the thread's stat");
            // The state follows the command's closing parenthesis.
            if stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('S'))
            {
                return;
            }
            std::thread::yield_now();
        }
        panic!("thread {tid} did not wait within 10 s");
    }

    /// The caller sleeps through the daemon's work, from the call taken off the socket to
    /// the answer: the daemon reading the call does not wake it (a blocking read's wait
    /// would: the room the read frees on the socket wakes the caller's side).
    #[cfg(target_os = "linux")]
    #[test]
    fn the_daemon_taking_the_call_does_not_wake_the_caller() {
        use super::exchange;
        use crate::wire::{Call, Message};
        let path = std::env::temp_dir().join(format!("hooks-client-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let listener = std::os::unix::net::UnixListener::bind(&path).expect("bind");
        let call = Call {
            version: "1".into(),
            program: "/bin/hooks".into(),
            agent: "claude".into(),
            event: None,
            cwd: "/".into(),
            env: vec![("HOME".into(), "/h".into())],
            stdin: b"{}".to_vec(),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let socket = path.clone();
        let caller = std::thread::spawn(move || {
            tx.send(thread_id()).expect("send the thread's id");
            exchange(&socket, &call)
        });
        let tid = rx.recv().expect("the caller's thread id");
        let (mut stream, _) = listener.accept().expect("accept");
        // The call sits in the socket; the caller waits for the answer.
        until_asleep(&tid);
        let before = switches(&tid);
        let Ok(Message::Call(taken)) = Message::read_from(&mut stream) else {
            panic!("no call on the socket");
        };
        assert_eq!(taken.agent, "claude");
        until_asleep(&tid);
        let after = switches(&tid);
        Message::Answer {
            exit_code: 0,
            stdout: "ok".into(),
            stderr: String::new(),
        }
        .write_to(&mut stream)
        .expect("answer");
        let answer = caller.join().expect("the caller").expect("exchange");
        let _ = std::fs::remove_file(&path);
        assert_eq!(answer.map(|a| a.stdout).as_deref(), Some("ok"));
        assert_eq!(
            after, before,
            "the caller woke when the daemon took the call"
        );
    }

    #[test]
    fn only_off_and_auto_change_the_mode() {
        assert_eq!(Mode::from_value(Some(OsStr::new("off"))), Mode::Off);
        assert_eq!(Mode::from_value(Some(OsStr::new("auto"))), Mode::Auto);
        assert_eq!(Mode::from_value(Some(OsStr::new("OFF"))), Mode::On);
        assert_eq!(Mode::from_value(None), Mode::On);
    }
}
