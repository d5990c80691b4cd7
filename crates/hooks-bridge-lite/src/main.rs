//! `hooks-bridge-lite AGENT [EVENT]`, shipped as `hooks-bridge` in the Linux packages:
//! the hook command `hooks install` writes, answering exactly as `hooks bridge AGENT
//! [EVENT]` does. With a resident engine serving the user (`hooks daemon`) it hands the
//! call over (to the worker for the caller's directory and environment, else to the
//! daemon) and writes the answer; in every other case it becomes `hooks bridge` (the
//! `hooks` program beside it) by `exec`, given the event's bytes when it has read them.
//! It takes the same road as the portable `hooks-bridge` client (`hooks-cli`'s
//! `src/bin/hooks-bridge.rs`) in every case; `docs/daemon.md` has the whole story.
//!
//! It links no C library and no standard library: on every tool call a C library's
//! start-up (probing the processor, setting up threads' storage and its own I/O) costs
//! more than the whole hand-over, and this program needs none of it. System calls go
//! through rustix; the frames are `hooks-client`'s; the entry point, the allocator and
//! `exec` are in [`rt`]. Build it with `cargo xtask client`.

#![no_std]
#![no_main]

extern crate alloc;

mod rt;

use alloc::ffi::CString;
use alloc::vec::Vec;
use core::time::Duration;

use hooks_client::frame::{self, CallParts, Fields, MAX_MESSAGE, tag};
use hooks_client::{BEAT_WAIT, CALL_LIMIT, DAEMON_VAR, SOCKET_VAR, STDIN_LIMIT, VERSION};
use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::io::Errno;

use crate::rt::Start;

/// Answers the call; the program's exit code (when it did not become `hooks bridge`).
fn run(start: &Start) -> i32 {
    let Some(engine) = engine() else {
        say(b"hooks-bridge: no `hooks` program beside this one to answer the call\n");
        return 2;
    };
    let args = start.args.get(1..).unwrap_or_default();
    let Some((agent, event)) = forwardable(args) else {
        return become_engine(start, &engine, args, None);
    };
    if start.var(DAEMON_VAR.as_bytes()) == Some(b"off") {
        return become_engine(start, &engine, args, None);
    }
    // No runtime directory: the socket, if any, is in the state directory, which only the
    // engine knows how to find.
    let Some(socket) = socket_path(start) else {
        return become_engine(start, &engine, args, None);
    };
    // No daemon there, or a socket that is not the caller's own: the engine says so and
    // answers.
    let stdin = rt::stdin();
    if !private(&socket) || rustix::termios::isatty(stdin) {
        return become_engine(start, &engine, args, None);
    }
    let text = match read_within(stdin, STDIN_LIMIT) {
        Ok(text) => text,
        // The agent never closed stdin: the engine answers what it wrote.
        Err(read) => return become_engine(start, &engine, args, Some(&read)),
    };
    let Ok(cwd) = rustix::process::getcwd(Vec::new()) else {
        return become_engine(start, &engine, args, Some(&text));
    };
    let env: Vec<(&[u8], &[u8])> = start.env.iter().filter_map(|e| split_entry(e)).collect();
    let call = CallParts {
        version: VERSION.as_bytes(),
        program: engine.to_bytes(),
        agent,
        event,
        cwd: cwd.to_bytes(),
        env: &env,
        stdin: &text,
    };
    let Some(frame) = frame::call_frame(&call) else {
        return become_engine(start, &engine, args, Some(&text));
    };
    let worker = sibling(
        &socket,
        frame::worker_file_name(frame::key_hash(cwd.to_bytes(), &mut env.clone())).as_bytes(),
    );
    let answer = private(&worker)
        .then(|| exchange(&worker, &frame))
        .flatten()
        .or_else(|| exchange(&socket, &frame));
    match answer {
        Some(answer) => {
            rt::block_sigpipe();
            write_all(rt::stdout(), answer.stdout);
            write_all(rt::stderr(), answer.stderr);
            u8::try_from(answer.exit_code).map_or(1, i32::from)
        }
        // Refused, or the daemon stopped answering: the engine answers.
        None => become_engine(start, &engine, args, Some(&text)),
    }
}

/// The `hooks` program beside this one (the path it was started by, its links resolved).
fn engine() -> Option<CString> {
    let exe = rustix::fs::readlink("/proc/self/exe", Vec::new()).ok()?;
    let exe = exe.to_bytes();
    let dir = &exe[..exe.iter().rposition(|&b| b == b'/')?];
    let mut path = dir.to_vec();
    path.extend_from_slice(b"/hooks");
    CString::new(path).ok()
}

/// The agent and the event of a call the daemon may take: `AGENT` or `AGENT EVENT`, as
/// text, no option among them (anything else is the engine's to read, or refuse).
fn forwardable<'a>(args: &[&'a [u8]]) -> Option<(&'a [u8], Option<&'a [u8]>)> {
    let word = |a: &[u8]| core::str::from_utf8(a).is_ok() && !a.is_empty() && a[0] != b'-';
    match args {
        [agent] if word(agent) => Some((agent, None)),
        [agent, event] if word(agent) && word(event) => Some((agent, Some(event))),
        _ => None,
    }
}

/// Becomes `hooks bridge` with the same arguments: with stdin untouched, or (`read`)
/// with the event's bytes this program read as its stdin. Returns only when it could not.
fn become_engine(start: &Start, engine: &CString, args: &[&[u8]], read: Option<&[u8]>) -> i32 {
    let failed = |what: &str, e: Errno| {
        let mut line = Vec::new();
        line.extend_from_slice(b"hooks-bridge: ");
        line.extend_from_slice(what.as_bytes());
        line.extend_from_slice(b" ");
        line.extend_from_slice(engine.to_bytes());
        line.extend_from_slice(alloc::format!(": {e}\n").as_bytes());
        say(&line);
        2
    };
    if let Some(read) = read
        && let Err(e) = stdin_holding(read)
    {
        return failed("handing the event to", e);
    }
    let mut argv: Vec<CString> = Vec::with_capacity(args.len() + 2);
    argv.push(engine.clone());
    argv.push(CString::from(c"bridge"));
    for arg in args {
        match CString::new(*arg) {
            Ok(arg) => argv.push(arg),
            // The kernel gave it NUL-terminated: it holds no NUL.
            Err(_) => return failed("running", Errno::INVAL),
        }
    }
    let argv: Vec<&core::ffi::CStr> = argv.iter().map(CString::as_c_str).collect();
    failed("running", rt::exec(start, engine, &argv))
}

/// Makes stdin a new in-memory file holding `bytes`, read from its start.
fn stdin_holding(bytes: &[u8]) -> Result<(), Errno> {
    use rustix::fs::{MemfdFlags, SeekFrom, memfd_create, seek};
    let file = memfd_create("hooks-event", MemfdFlags::CLOEXEC)?;
    write_all_or(file.as_fd(), bytes)?;
    seek(&file, SeekFrom::Start(0))?;
    rustix::stdio::dup2_stdin(&file)
}

/// The daemon's socket as the environment names it: [`SOCKET_VAR`], else
/// `hooks/daemon.sock` in an absolute `$XDG_RUNTIME_DIR`.
fn socket_path(start: &Start) -> Option<Vec<u8>> {
    if let Some(path) = start.var(SOCKET_VAR.as_bytes()).filter(|p| !p.is_empty()) {
        return Some(path.to_vec());
    }
    let dir = start
        .var(b"XDG_RUNTIME_DIR")
        .filter(|d| d.first() == Some(&b'/'))?;
    let mut path = dir.to_vec();
    while path.len() > 1 && path.ends_with(b"/") {
        path.pop();
    }
    if !path.ends_with(b"/") {
        path.push(b'/');
    }
    path.extend_from_slice(b"hooks/daemon.sock");
    Some(path)
}

/// `path` with its last component replaced by `name` (`Path::with_file_name`).
fn sibling(path: &[u8], name: &[u8]) -> Vec<u8> {
    let mut trimmed = path;
    while trimmed.len() > 1 && trimmed.ends_with(b"/") {
        trimmed = &trimmed[..trimmed.len() - 1];
    }
    let mut out = match trimmed.iter().rposition(|&b| b == b'/') {
        Some(at) => trimmed[..=at].to_vec(),
        None => Vec::new(),
    };
    out.extend_from_slice(name);
    out
}

/// Whether `path`, a socket, and the directory it is in are this user's alone: both owned
/// by the user, the directory with no permission for anyone else, the socket not a link
/// (`hooks_client::check_private`).
fn private(path: &[u8]) -> bool {
    use rustix::fs::{FileType, lstat, stat};
    let uid = rustix::process::getuid().as_raw();
    let dir = match path.iter().rposition(|&b| b == b'/') {
        Some(0) => &b"/"[..],
        Some(at) => &path[..at],
        None => &b""[..],
    };
    let dir_ok = stat(dir).is_ok_and(|d| d.st_uid == uid && d.st_mode & 0o077 == 0);
    dir_ok
        && lstat(path).is_ok_and(|s| {
            FileType::from_raw_mode(s.st_mode) == FileType::Socket && s.st_uid == uid
        })
}

/// An environment entry as `(name, value)`, as the standard library splits it: at the
/// first `=` after the first byte; `None` for an entry without one.
fn split_entry(entry: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = entry.get(1..)?.iter().position(|&b| b == b'=')? + 1;
    Some((&entry[..at], &entry[at + 1..]))
}

/// Now, on the monotonic clock.
fn now() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

/// Whether `fd` has input (or its end) before `deadline`, waited for in `poll`.
fn input_by(fd: BorrowedFd<'_>, deadline: Duration) -> Result<bool, Errno> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    loop {
        let left = deadline.saturating_sub(now());
        if left.is_zero() {
            return Ok(false);
        }
        let timeout = Timespec::try_from(left).map_err(|_| Errno::INVAL)?;
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(Errno::INTR) => {}
            Ok(_) => return Ok(true),
            Err(e) => return Err(e),
        }
    }
}

/// Everything `fd` gives until its end, within `limit` in all; on a timeout or an error,
/// what was read.
fn read_within(fd: BorrowedFd<'_>, limit: Duration) -> Result<Vec<u8>, Vec<u8>> {
    let deadline = now() + limit;
    let mut text = Vec::new();
    loop {
        if input_by(fd, deadline) != Ok(true) {
            return Err(text);
        }
        if text.len() == text.capacity() {
            text.reserve(64 * 1024);
        }
        match rustix::io::read(fd, rustix::buffer::spare_capacity(&mut text)) {
            Ok(0) => return Ok(text),
            Ok(_) | Err(Errno::INTR | Errno::AGAIN) => {}
            Err(_) => return Err(text),
        }
    }
}

/// A call's answer, as the daemon gives it.
struct Answer<'a> {
    exit_code: i32,
    stdout: &'a [u8],
    stderr: &'a [u8],
}

/// Sends the call's `frame` to the daemon (or worker) at `socket` and waits for its
/// answer, each wait for its next word bounded by [`BEAT_WAIT`] and the whole by
/// [`CALL_LIMIT`] (`hooks_client::exchange`). `None`: it did not take the call, or
/// stopped answering.
fn exchange(socket: &[u8], frame: &[u8]) -> Option<Answer<'static>> {
    use rustix::net::{
        AddressFamily, SendFlags, SocketAddrUnix, SocketFlags, SocketType, connect, send,
        socket_with, sockopt,
    };
    let fd: OwnedFd = socket_with(
        AddressFamily::UNIX,
        SocketType::STREAM,
        SocketFlags::CLOEXEC,
        None,
    )
    .ok()?;
    connect(&fd, &SocketAddrUnix::new(socket).ok()?).ok()?;
    sockopt::set_socket_timeout(&fd, sockopt::Timeout::Recv, Some(BEAT_WAIT)).ok()?;
    sockopt::set_socket_timeout(&fd, sockopt::Timeout::Send, Some(BEAT_WAIT)).ok()?;
    let mut sent = 0;
    while sent < frame.len() {
        match send(&fd, &frame[sent..], SendFlags::NOSIGNAL) {
            Ok(n) => sent += n,
            Err(Errno::INTR) => {}
            Err(_) => return None,
        }
    }
    let limit = now() + CALL_LIMIT;
    while now() < limit {
        if input_by(fd.as_fd(), now() + BEAT_WAIT) != Ok(true) {
            return None;
        }
        let message = read_frame(fd.as_fd())?;
        let (&kind, body) = message.split_first()?;
        match kind {
            tag::ACCEPTED | tag::BEAT => {}
            tag::ANSWER => return answer(body),
            _ => return None,
        }
    }
    None
}

/// The fields of an answer's frame body, leaked for the rest of the program's short life.
fn answer(body: &[u8]) -> Option<Answer<'static>> {
    let body: &'static [u8] = Vec::leak(body.to_vec());
    let mut fields = Fields(body);
    let code = core::str::from_utf8(fields.bytes()?).ok()?.parse().ok()?;
    let stdout = fields.bytes()?;
    let stderr = fields.bytes()?;
    let text = |b: &[u8]| core::str::from_utf8(b).is_ok();
    (fields.is_empty() && text(stdout) && text(stderr)).then_some(Answer {
        exit_code: code,
        stdout,
        stderr,
    })
}

/// One message from `fd`: its tag and fields (the length read and checked first).
fn read_frame(fd: BorrowedFd<'_>) -> Option<Vec<u8>> {
    let mut len = [0u8; 4];
    read_exact(fd, &mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len == 0 || len > MAX_MESSAGE {
        return None;
    }
    let mut frame = alloc::vec![0u8; len];
    read_exact(fd, &mut frame)?;
    Some(frame)
}

/// Fills `buf` from `fd` (each read bounded by the socket's timeout).
fn read_exact(fd: BorrowedFd<'_>, buf: &mut [u8]) -> Option<()> {
    let mut at = 0;
    while at < buf.len() {
        match rustix::io::read(fd, &mut buf[at..]) {
            Ok(0) => return None,
            Ok(n) => at += n,
            Err(Errno::INTR) => {}
            Err(_) => return None,
        }
    }
    Some(())
}

/// Writes all of `bytes` to `fd`, or says why not.
fn write_all_or(fd: BorrowedFd<'_>, mut bytes: &[u8]) -> Result<(), Errno> {
    while !bytes.is_empty() {
        match rustix::io::write(fd, bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(Errno::INTR) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Writes all of `bytes` to `fd`, letting an output the agent closed go.
fn write_all(fd: BorrowedFd<'_>, bytes: &[u8]) {
    let _ = write_all_or(fd, bytes);
}

/// Writes `line` to stderr, as a hook command says what went wrong.
fn say(line: &[u8]) {
    write_all(rt::stderr(), line);
}
