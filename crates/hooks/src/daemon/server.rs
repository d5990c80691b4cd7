//! The daemon (`hooks daemon run`): the socket, the callers it takes, and the pool of
//! workers that run their calls.

use std::ffi::OsString;
use std::fs::File;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use crate::Error;
use crate::error::Context as _;
use crate::exec::Helper;

use super::wire::{Call, Message};
use super::{BEAT, VERSION, check_private};

/// The most calls in flight; a call beyond it is not taken (its bridge answers it).
const MAX_CALLS: usize = 64;

/// The most workers alive at once.
const MAX_WORKERS: usize = 32;

/// How long a caller has to send its call once connected.
const READ_LIMIT: Duration = Duration::from_secs(5);

/// A call still running after this long has its worker ended (its bridge, no longer
/// hearing beats, answers it itself).
const CALL_LIMIT: Duration = Duration::from_secs(20 * 60);

/// How often ended workers and the socket are looked at.
const REAP_EVERY: Duration = Duration::from_secs(30);

/// The socket file's identity (device and inode), `None` when it is gone.
fn socket_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// A daemon bound to its socket, ready to serve.
#[derive(Debug)]
pub struct Daemon {
    socket: PathBuf,
    bound: Option<(u64, u64)>,
    listener: UnixListener,
    shared: Arc<Shared>,
    // Held for the daemon's life: one daemon per socket.
    _lock: File,
}

/// What the daemon's threads share.
#[derive(Debug)]
struct Shared {
    program: PathBuf,
    socket: PathBuf,
    started: SystemTime,
    pool: Mutex<Vec<Worker>>,
    workers: AtomicUsize,
    calls: AtomicUsize,
    idle: AtomicUsize,
    queued: AtomicUsize,
    served: AtomicU64,
    refused: AtomicU64,
    stop: AtomicBool,
}

/// A worker process and the key of the calls it serves.
#[derive(Debug)]
struct Worker {
    key: Key,
    process: Helper,
    /// The socket it listens on for its caller's later calls (unless another worker of
    /// the same caller held it when it started).
    socket: PathBuf,
    used: Instant,
}

/// What a worker is started with: the caller's environment (in order) and directory.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    env: Vec<(OsString, OsString)>,
    cwd: PathBuf,
}

impl Daemon {
    /// Binds the socket `socket` (its directory made, private to the user), running
    /// workers as `program daemon worker`. Fails when another daemon holds the socket, or
    /// when its directory is not private to the user.
    pub fn bind(socket: &Path, program: &Path) -> Result<Daemon, Error> {
        let dir = socket
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .ok_or_else(|| Error::bridge("the daemon's socket needs a directory"))?;
        if !dir.is_dir() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .with_context(|| format!("making {} private", dir.display()))?;
        }
        let lock_path = lock_path(socket);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("opening {}", lock_path.display()))?;
        if let Err(e) = lock.try_lock() {
            return Err(Error::bridge(format!(
                "a daemon already serves {} ({e})",
                socket.display()
            )));
        }
        // Holding the lock, any socket left there is a dead daemon's.
        let _ = std::fs::remove_file(socket);
        let listener = UnixListener::bind(socket).with_context(|| {
            format!(
                "binding {} (a socket path must be under 108 bytes; {} names another)",
                socket.display(),
                super::SOCKET_VAR
            )
        })?;
        std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o600))
            .with_context(|| format!("making {} private", socket.display()))?;
        check_private(socket).map_err(Error::bridge)?;
        let mut pid = &lock;
        let _ = pid
            .set_len(0)
            .and_then(|()| writeln!(pid, "{}", rustix::process::getpid().as_raw_nonzero()));
        Ok(Daemon {
            socket: socket.to_path_buf(),
            bound: socket_id(socket),
            listener,
            shared: Arc::new(Shared {
                program: program.to_path_buf(),
                socket: socket.to_path_buf(),
                started: SystemTime::now(),
                pool: Mutex::new(Vec::new()),
                workers: AtomicUsize::new(0),
                calls: AtomicUsize::new(0),
                idle: AtomicUsize::new(0),
                queued: AtomicUsize::new(0),
                served: AtomicU64::new(0),
                refused: AtomicU64::new(0),
                stop: AtomicBool::new(false),
            }),
            _lock: lock,
        })
    }

    /// The socket it serves.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// Serves calls until asked to stop ([`Message::Stop`]), then waits (at most a few
    /// seconds) for the calls in flight, ends the workers and removes the socket.
    pub fn serve(self) -> Result<(), Error> {
        let reaper = Arc::clone(&self.shared);
        std::thread::spawn(move || reap(&reaper));
        // Connections go to handler threads that wait for the next one when done (a thread
        // started per call would cost its start on every call).
        let (sender, streams) = mpsc::channel::<UnixStream>();
        let streams = Arc::new(Mutex::new(streams));
        use rustix::event::{PollFd, PollFlags, Timespec, poll};
        // The stop flag is looked at every second at least, and at once after a
        // connection (`stop` connects to wake the loop).
        let tick = Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        };
        while !self.shared.stop.load(Ordering::SeqCst) {
            let mut fds = [PollFd::new(&self.listener, PollFlags::IN)];
            match poll(&mut fds, Some(&tick)) {
                Ok(0) | Err(rustix::io::Errno::INTR) => continue,
                Ok(_) => {}
                Err(e) => return Err(Error::bridge(format!("waiting for calls: {e}"))),
            }
            if self.shared.stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok((stream, _)) = self.listener.accept() else {
                continue;
            };
            if self.shared.calls.fetch_add(1, Ordering::SeqCst) >= MAX_CALLS {
                self.shared.calls.fetch_sub(1, Ordering::SeqCst);
                self.shared.refused.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            // A handler is started unless an idle one is there for this connection too.
            let queued = self.shared.queued.load(Ordering::SeqCst);
            if self.shared.idle.load(Ordering::SeqCst) <= queued {
                let shared = Arc::clone(&self.shared);
                let streams = Arc::clone(&streams);
                if std::thread::Builder::new()
                    .spawn(move || handle(&shared, &streams))
                    .is_err()
                {
                    self.shared.calls.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
            }
            self.shared.queued.fetch_add(1, Ordering::SeqCst);
            if sender.send(stream).is_err() {
                self.shared.queued.fetch_sub(1, Ordering::SeqCst);
                self.shared.calls.fetch_sub(1, Ordering::SeqCst);
            }
        }
        drop(sender);
        // The socket, unless another daemon's has replaced it.
        if socket_id(&self.socket) == self.bound {
            let _ = std::fs::remove_file(&self.socket);
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while self.shared.calls.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        for mut worker in lock(&self.shared.pool).drain(..) {
            end(&mut worker);
        }
        Ok(())
    }
}

/// The lock file beside `socket`, which the daemon serving it holds for its life.
fn lock_path(socket: &Path) -> PathBuf {
    let name = socket.file_name().unwrap_or_default().to_string_lossy();
    socket.with_file_name(format!("{name}.lock"))
}

/// Whether a daemon process holds `socket` (it may be starting, serving or stopping).
pub fn is_held(socket: &Path) -> bool {
    File::open(lock_path(socket)).is_ok_and(|file| match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(_) => true,
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Forgets the workers that ended (a worker ends itself when idle for
/// [`IDLE_LIMIT`](super::worker::IDLE_LIMIT)), checking twice a minute; stops the daemon
/// when its socket is gone or replaced (its directory removed, say): no bridge can reach
/// it.
fn reap(shared: &Shared) {
    let bound = socket_id(&shared.socket);
    while !shared.stop.load(Ordering::SeqCst) {
        std::thread::sleep(REAP_EVERY);
        if socket_id(&shared.socket) != bound {
            shared.stop.store(true, Ordering::SeqCst);
            return;
        }
        let mut pool = lock(&shared.pool);
        let mut ended = Vec::new();
        for mut worker in std::mem::take(&mut *pool) {
            if worker.process.is_running() {
                pool.push(worker);
            } else {
                ended.push(worker);
            }
        }
        drop(pool);
        for mut worker in ended {
            end(&mut worker);
            shared.workers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Ends `worker`, and removes its socket unless a live worker (another of the same
/// caller) holds it.
fn end(worker: &mut Worker) {
    worker.process.end();
    if super::is_dead_socket(&worker.socket) {
        let _ = std::fs::remove_file(&worker.socket);
    }
}

/// A handler thread: takes connections one after the other until the daemon stops.
fn handle(shared: &Shared, streams: &Mutex<mpsc::Receiver<UnixStream>>) {
    loop {
        shared.idle.fetch_add(1, Ordering::SeqCst);
        let next = lock(streams).recv();
        shared.idle.fetch_sub(1, Ordering::SeqCst);
        let Ok(stream) = next else { return };
        shared.queued.fetch_sub(1, Ordering::SeqCst);
        take(shared, stream);
        shared.calls.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One connection: a call, a status question or a stop, from this user only.
fn take(shared: &Shared, mut stream: UnixStream) {
    let own = rustix::process::getuid();
    match rustix::net::sockopt::socket_peercred(&stream) {
        Ok(peer) if peer.uid == own => {}
        _ => return,
    }
    if stream.set_read_timeout(Some(READ_LIMIT)).is_err()
        || stream.set_write_timeout(Some(READ_LIMIT)).is_err()
    {
        return;
    }
    let Ok(message) = Message::read_from(&mut stream) else {
        return;
    };
    match message {
        Message::Call(call) => run_call(shared, stream, *call),
        Message::Status => {
            let _ = Message::Report(status(shared)).write_to(&mut stream);
        }
        Message::Stop => {
            shared.stop.store(true, Ordering::SeqCst);
            let _ = Message::Stopping.write_to(&mut stream);
            // Wakes the accept loop, which then sees the stop.
            let _ = UnixStream::connect(&shared.socket);
        }
        _ => {}
    }
}

/// The daemon's state, as `hooks daemon status` shows it; `served` counts the calls the
/// daemon relayed and those its idle workers answered on their own sockets.
fn status(shared: &Shared) -> String {
    let mut pool = lock(&shared.pool);
    let idle = pool.len();
    let direct: u64 = pool.iter_mut().filter_map(served_by).sum();
    drop(pool);
    let started = shared
        .started
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    serde_json::json!({
        "version": VERSION,
        "pid": rustix::process::getpid().as_raw_nonzero(),
        "socket": shared.socket.display().to_string(),
        "program": shared.program.display().to_string(),
        "started": started,
        "workers": shared.workers.load(Ordering::SeqCst),
        "idle_workers": idle,
        "calls_in_flight": shared.calls.load(Ordering::SeqCst).saturating_sub(1),
        "served": shared.served.load(Ordering::Relaxed) + direct,
        "refused": shared.refused.load(Ordering::Relaxed),
    })
    .to_string()
}

/// The calls an idle `worker` answered on its socket, asked on its pipe (within
/// [`BEAT`]); `None` when it does not say.
fn served_by(worker: &mut Worker) -> Option<u64> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    Message::Status.write_to(&mut worker.process.input).ok()?;
    if worker.process.output.buffer().is_empty() {
        let wait = Timespec::try_from(BEAT).ok()?;
        let mut fds = [PollFd::new(worker.process.output.get_ref(), PollFlags::IN)];
        if poll(&mut fds, Some(&wait)).ok()? == 0 {
            return None;
        }
    }
    match Message::read_from(&mut worker.process.output).ok()? {
        Message::Report(json) => serde_json::from_str::<serde_json::Value>(&json)
            .ok()?
            .get("served")?
            .as_u64(),
        _ => None,
    }
}

/// Runs `call` in a worker and relays its answer, with beats while it runs; refuses it
/// (so its bridge answers it) when it is of another version or no worker can take it.
fn run_call(shared: &Shared, mut stream: UnixStream, call: Call) {
    let refuse = |stream: &mut UnixStream, reason: String| {
        shared.refused.fetch_add(1, Ordering::Relaxed);
        let _ = Message::Refused {
            version: VERSION.to_owned(),
            reason,
        }
        .write_to(stream);
    };
    if call.version != VERSION {
        refuse(
            &mut stream,
            format!(
                "this daemon is version {VERSION}, the call's {}",
                call.version
            ),
        );
        // The program this daemon runs was replaced by another version: it steps down
        // (a service manager starts the new one).
        if call.program == shared.program {
            shared.stop.store(true, Ordering::SeqCst);
            let _ = UnixStream::connect(&shared.socket);
        }
        return;
    }
    if let Some(reason) = super::unknown_agent(&call.agent) {
        return refuse(&mut stream, reason);
    }
    let key = Key {
        env: call.env.clone(),
        cwd: call.cwd.clone(),
    };
    let mut worker = match worker_for(shared, key) {
        Ok(worker) => worker,
        Err(reason) => return refuse(&mut stream, reason),
    };
    if (Message::Accepted {
        version: VERSION.to_owned(),
    })
    .write_to(&mut stream)
    .is_err()
    {
        return give_back(shared, worker);
    }
    let answer = relay(&mut worker, &stream, call);
    match answer {
        Some(answer) => {
            let _ = answer.write_to(&mut stream);
            shared.served.fetch_add(1, Ordering::Relaxed);
            give_back(shared, worker);
        }
        None => {
            end(&mut worker);
            shared.workers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Hands `call` to `worker` and waits for its answer, beating on `stream` every [`BEAT`]
/// meanwhile (on this thread: a thread of its own would cost its start on every call);
/// `None` when the worker failed, or ran past [`CALL_LIMIT`] and was ended.
fn relay(worker: &mut Worker, mut stream: &UnixStream, call: Call) -> Option<Message> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    Message::Call(Box::new(call))
        .write_to(&mut worker.process.input)
        .ok()?;
    let started = Instant::now();
    let beat = Timespec::try_from(BEAT).ok()?;
    loop {
        // What the worker wrote may already be in the reader's buffer.
        if !worker.process.output.buffer().is_empty() {
            break;
        }
        let mut fds = [PollFd::new(worker.process.output.get_ref(), PollFlags::IN)];
        match poll(&mut fds, Some(&beat)) {
            Ok(0) => {
                if started.elapsed() > CALL_LIMIT || Message::Beat.write_to(&mut stream).is_err() {
                    return None;
                }
            }
            Ok(_) => break,
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return None,
        }
    }
    match Message::read_from(&mut worker.process.output) {
        Ok(answer @ Message::Answer { .. }) => Some(answer),
        _ => None,
    }
}

/// An idle worker for `key`, or a new one.
fn worker_for(shared: &Shared, key: Key) -> Result<Worker, String> {
    let mut pool = lock(&shared.pool);
    if let Some(at) = pool.iter().position(|w| w.key == key) {
        let mut worker = pool.swap_remove(at);
        drop(pool);
        // A worker that ended since (killed, crashed) is replaced.
        if worker.process.is_running() {
            return Ok(worker);
        }
        end(&mut worker);
        shared.workers.fetch_sub(1, Ordering::SeqCst);
        return worker_for(shared, key);
    }
    if shared.workers.load(Ordering::SeqCst) >= MAX_WORKERS {
        // Room is made by ending the idle worker used least recently.
        let oldest = pool
            .iter()
            .enumerate()
            .min_by_key(|(_, w)| w.used)
            .map(|(i, _)| i);
        let Some(oldest) = oldest else {
            return Err(format!("all {MAX_WORKERS} workers are busy"));
        };
        let mut old = pool.swap_remove(oldest);
        end(&mut old);
        shared.workers.fetch_sub(1, Ordering::SeqCst);
    }
    shared.workers.fetch_add(1, Ordering::SeqCst);
    drop(pool);
    start(shared, key).inspect_err(|_| {
        shared.workers.fetch_sub(1, Ordering::SeqCst);
    })
}

/// Starts a worker with `key`'s environment and directory.
fn start(shared: &Shared, key: Key) -> Result<Worker, String> {
    let socket = hooks_client::worker_socket(&shared.socket, &key.cwd, &key.env);
    let argv = [
        shared.program.as_os_str().to_owned(),
        "daemon".into(),
        "worker".into(),
        "--socket".into(),
        socket.as_os_str().to_owned(),
    ];
    let process = crate::exec::spawn_with_env(&argv, &key.env, &key.cwd)
        .map_err(|e| format!("cannot start a worker in {}: {e}", key.cwd.display()))?;
    Ok(Worker {
        key,
        process,
        socket,
        used: Instant::now(),
    })
}

fn give_back(shared: &Shared, mut worker: Worker) {
    worker.used = Instant::now();
    lock(&shared.pool).push(worker);
}

impl Drop for Daemon {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_daemon_on_the_same_socket_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("d/daemon.sock");
        let first = Daemon::bind(&socket, Path::new("/bin/false")).unwrap();
        let second = Daemon::bind(&socket, Path::new("/bin/false")).unwrap_err();
        assert!(second.to_string().contains("already serves"), "{second}");
        assert_eq!(
            std::fs::metadata(socket.parent().unwrap())
                .unwrap()
                .permissions()
                .mode()
                & 0o777,
            0o700
        );
        drop(first);
    }

    #[test]
    fn a_socket_left_by_a_dead_daemon_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::set_permissions(dir.path().join("d"), std::fs::Permissions::from_mode(0o700))
            .unwrap();
        let socket = dir.path().join("d/daemon.sock");
        drop(UnixListener::bind(&socket).unwrap());
        assert!(socket.exists());
        let daemon = Daemon::bind(&socket, Path::new("/bin/false")).unwrap();
        assert!(UnixStream::connect(daemon.socket()).is_ok());
    }
}

#[cfg(test)]
mod stale_tests {
    use super::*;

    fn call(version: &str, program: &Path) -> Call {
        Call {
            version: version.to_owned(),
            program: program.to_path_buf(),
            agent: "claude".to_owned(),
            event: None,
            cwd: std::env::temp_dir(),
            env: Vec::new(),
            stdin: b"{}".to_vec(),
        }
    }

    fn send(socket: &Path, message: Message) -> Message {
        let mut stream = UnixStream::connect(socket).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        message.write_to(&mut stream).unwrap();
        Message::read_from(&mut stream).unwrap()
    }

    /// A call of another version is refused; when it comes from the daemon's own program
    /// path (the binary was upgraded in place), the daemon also stops, for its service
    /// manager to start the new one. A call of another install's program does not stop it.
    #[test]
    fn a_call_of_another_version_is_refused_and_an_upgraded_program_stops_the_daemon() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("d/daemon.sock");
        let program = Path::new("/opt/hooks/bin/hooks");
        let daemon = Daemon::bind(&socket, program).unwrap();
        let serving = std::thread::spawn(move || daemon.serve());
        let other = send(
            &socket,
            Message::Call(Box::new(call("0.0.0", Path::new("/elsewhere/hooks")))),
        );
        assert!(
            matches!(&other, Message::Refused { reason, .. } if reason.contains("0.0.0")),
            "{other:?}"
        );
        assert!(
            matches!(send(&socket, Message::Status), Message::Report(_)),
            "still serving"
        );
        let upgraded = send(&socket, Message::Call(Box::new(call("0.0.0", program))));
        assert!(matches!(upgraded, Message::Refused { .. }), "{upgraded:?}");
        serving.join().unwrap().unwrap();
        assert!(!socket.exists(), "the stopped daemon removed its socket");
        assert!(!is_held(&socket));
    }
}
