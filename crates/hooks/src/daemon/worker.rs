//! A worker of the daemon (`hooks daemon worker [--socket PATH]`): a process started with
//! one caller's environment and working directory, answering that caller's calls as the
//! bridge would answer them, its loaded configs kept between calls.
//!
//! Calls come two ways: from the daemon, on the worker's stdin (the first call of a
//! directory and environment, which made the daemon start the worker), and straight from
//! the bridges, on the worker's own socket ([`hooks_client::worker_socket`]), which saves
//! the daemon's hop on every later call. On its socket a worker takes only calls of this
//! user (the peer's credentials), of its version, of a known agent and of exactly its own
//! directory and environment; it refuses the others, which the bridge then hands to the
//! daemon. A call on the socket runs on a thread of its own (calls of one agent may come
//! at once), with a [`Message::Beat`] every [`BEAT`] while it runs.
//!
//! The worker ends when the daemon closes its stdin, or when no call came for
//! [`IDLE_LIMIT`]; it removes its socket then.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::LoadCache;
use crate::bridge::{self, Options};
use crate::core::Dialect;
use crate::core::reply::Reply;

use super::wire::{Call, Message};
use super::{BEAT, VERSION};

/// A worker that answered no call for this long ends.
pub const IDLE_LIMIT: Duration = Duration::from_secs(10 * 60);

/// How long a bridge connected to the worker's socket has to send its call.
const READ_LIMIT: Duration = Duration::from_secs(5);

/// The most calls on the socket running at once; more wait for one to end.
const MAX_THREADS: usize = 16;

/// What the worker's threads share.
struct Shared {
    cache: Arc<LoadCache>,
    /// The directory and the (sorted) environment the worker runs with.
    cwd: PathBuf,
    env: Vec<(OsString, OsString)>,
    /// The calls running from the socket, with when they started (for their beats), and
    /// when the last call ended.
    running: Mutex<Running>,
    threads: AtomicUsize,
    idle: AtomicUsize,
    /// The calls answered from the socket.
    served: AtomicU64,
}

#[derive(Default)]
struct Running {
    calls: Vec<(u64, Instant, UnixStream)>,
    next: u64,
    pipe_calls: usize,
    last: Option<Instant>,
}

/// Answers every call read from `input` (and, with `socket`, every call on that socket)
/// until `input` ends (the daemon closed it, or is gone) or no call came for
/// [`IDLE_LIMIT`]. On `input`, a [`Message::Status`] is answered with a
/// [`Message::Report`] of the calls answered from the socket (`{"served":N}`); any other
/// message that is not a call ends the worker with an error.
pub fn serve(
    mut input: impl Read + AsFd,
    mut output: impl Write,
    socket: Option<&Path>,
) -> io::Result<()> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
    env.sort_unstable();
    let shared = Arc::new(Shared {
        cache: Arc::new(LoadCache::watching()),
        cwd: std::env::current_dir()?,
        env,
        running: Mutex::new(Running::default()),
        threads: AtomicUsize::new(0),
        idle: AtomicUsize::new(0),
        served: AtomicU64::new(0),
    });
    // Off any call's clock: the claim files its calls will use.
    std::thread::spawn(crate::bridge::make_claim_slots);
    let listening = socket.and_then(listen);
    if let Some((listener, _)) = &listening {
        let listener = Arc::new(listener.try_clone()?);
        spawn_acceptor(&shared, &listener);
        let beats = Arc::clone(&shared);
        std::thread::spawn(move || beat(&beats));
    }
    let ended = serve_pipe(&shared, &mut input, &mut output);
    if let (Some(path), Some((_, bound))) = (socket, listening) {
        // The socket, unless another worker's has replaced it.
        if socket_id(path) == Some(bound) {
            let _ = std::fs::remove_file(path);
        }
    }
    ended
}

/// The calls of the daemon, on the worker's stdin; returns when it ends, or when the
/// worker was idle for [`IDLE_LIMIT`].
fn serve_pipe(
    shared: &Shared,
    input: &mut (impl Read + AsFd),
    output: &mut impl Write,
) -> io::Result<()> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let started = Instant::now();
    loop {
        let idle_since = {
            let running = lock(&shared.running);
            (running.calls.is_empty() && running.pipe_calls == 0)
                .then(|| running.last.unwrap_or(started))
        };
        let wait = match idle_since {
            Some(since) if since.elapsed() >= IDLE_LIMIT => return Ok(()),
            Some(since) => IDLE_LIMIT - since.elapsed(),
            None => IDLE_LIMIT,
        };
        let timeout = Timespec::try_from(wait).map_err(io::Error::other)?;
        let mut fds = [PollFd::new(input, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => {}
            Err(e) => return Err(e.into()),
        }
        let call = match Message::read_from(input) {
            Ok(Message::Call(call)) => call,
            Ok(Message::Status) => {
                let served = shared.served.load(Ordering::Relaxed);
                Message::Report(format!("{{\"served\":{served}}}")).write_to(output)?;
                continue;
            }
            Ok(other) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a worker takes calls, not {other:?}"),
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        };
        lock(&shared.running).pipe_calls += 1;
        let reply = answer(*call, &shared.cache);
        {
            let mut running = lock(&shared.running);
            running.pipe_calls -= 1;
            running.last = Some(Instant::now());
        }
        answer_message(reply).write_to(output)?;
    }
}

/// The worker's socket at `path`, bound (mode 600) unless a live worker holds it (a
/// second worker of the same caller, started while the first was busy), with its
/// identity.
fn listen(path: &Path) -> Option<(UnixListener, (u64, u64))> {
    use std::os::unix::fs::PermissionsExt as _;
    let listener = match UnixListener::bind(path) {
        Ok(listener) => listener,
        // A dead worker's socket is replaced; a live one's is left to it.
        Err(e) if e.kind() == io::ErrorKind::AddrInUse && super::is_dead_socket(path) => {
            std::fs::remove_file(path).ok()?;
            UnixListener::bind(path).ok()?
        }
        Err(_) => return None,
    };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).ok()?;
    Some((listener, socket_id(path)?))
}

/// The identity (device and inode) of the file at `path`.
fn socket_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// Starts a thread that takes the socket's calls, unless [`MAX_THREADS`] run.
fn spawn_acceptor(shared: &Arc<Shared>, listener: &Arc<UnixListener>) {
    if shared.threads.fetch_add(1, Ordering::SeqCst) >= MAX_THREADS {
        shared.threads.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    let (own, listener) = (Arc::clone(shared), Arc::clone(listener));
    if std::thread::Builder::new()
        .spawn(move || accept(&own, &listener))
        .is_err()
    {
        // The threads already running take the calls.
        shared.threads.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Takes the socket's calls one after the other; one thread always waits for the next,
/// so that a long call never holds up another.
fn accept(shared: &Arc<Shared>, listener: &Arc<UnixListener>) {
    loop {
        shared.idle.fetch_add(1, Ordering::SeqCst);
        let taken = listener.accept();
        if shared.idle.fetch_sub(1, Ordering::SeqCst) == 1 {
            spawn_acceptor(shared, listener);
        }
        if let Ok((stream, _)) = taken {
            take(shared, stream);
        }
    }
}

/// One connection on the socket: a call this worker may answer, else a refusal.
fn take(shared: &Shared, mut stream: UnixStream) {
    match rustix::net::sockopt::socket_peercred(&stream) {
        Ok(peer) if peer.uid == rustix::process::getuid() => {}
        _ => return,
    }
    if stream.set_read_timeout(Some(READ_LIMIT)).is_err()
        || stream.set_write_timeout(Some(READ_LIMIT)).is_err()
    {
        return;
    }
    let Ok(Message::Call(call)) = Message::read_from(&mut stream) else {
        return;
    };
    if let Err(reason) = takes(shared, &call) {
        let _ = Message::Refused {
            version: VERSION.to_owned(),
            reason,
        }
        .write_to(&mut stream);
        return;
    }
    let id = {
        let Ok(beats) = stream.try_clone() else {
            return;
        };
        let mut running = lock(&shared.running);
        let id = running.next;
        running.next += 1;
        running.calls.push((id, Instant::now(), beats));
        id
    };
    let reply = answer(*call, &shared.cache);
    {
        // Out of the beats' list before the answer goes: the two never interleave.
        let mut running = lock(&shared.running);
        running.calls.retain(|(i, _, _)| *i != id);
        running.last = Some(Instant::now());
    }
    let sent = answer_message(reply).write_to(&mut stream);
    if sent.is_ok() {
        shared.served.fetch_add(1, Ordering::Relaxed);
    }
}

/// Why this worker does not take `call` from its socket, if it does not: another
/// version, an agent the bridge does not answer, another directory or environment.
fn takes(shared: &Shared, call: &Call) -> Result<(), String> {
    if call.version != VERSION {
        return Err(format!(
            "this worker is version {VERSION}, the call's {}",
            call.version
        ));
    }
    if let Some(reason) = super::unknown_agent(&call.agent) {
        return Err(reason);
    }
    let mut env: Vec<&(OsString, OsString)> = call.env.iter().collect();
    env.sort_unstable();
    if call.cwd != shared.cwd || !env.iter().copied().eq(shared.env.iter()) {
        return Err("the call's directory or environment is another worker's".to_owned());
    }
    Ok(())
}

/// Tells every bridge whose call has run for [`BEAT`] or more that it still runs, every
/// [`BEAT`] (a look twice a second, not a wake-up at every call's start: that would cost
/// each call a thread switch).
fn beat(shared: &Shared) {
    loop {
        std::thread::sleep(BEAT);
        let mut running = lock(&shared.running);
        for (_, started, stream) in &mut running.calls {
            if started.elapsed() >= BEAT {
                let _ = Message::Beat.write_to(stream);
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `reply` as the message that answers a call.
fn answer_message(reply: Reply) -> Message {
    Message::Answer {
        exit_code: reply.exit_code,
        stdout: reply.stdout,
        stderr: reply.stderr,
    }
}

/// The bridge's answer to `call`, with the configs of earlier calls from `cache`.
fn answer(call: Call, cache: &Arc<LoadCache>) -> Reply {
    let Some(dialect) = Dialect::from_name(&call.agent) else {
        let reason = super::unknown_agent(&call.agent).unwrap_or_default();
        return bridge::unreadable(&crate::Error::bridge(reason));
    };
    let options = Options::new(Some(call.program))
        .with_event(call.event)
        .with_cache(Arc::clone(cache));
    match bridge::parse_event(call.stdin) {
        Ok((stdin, payload)) => bridge::answer(dialect, &stdin, payload, &options),
        Err(e) => bridge::unreadable(&e),
    }
}
