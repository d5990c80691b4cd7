//! The one place in the workspace that starts a process, and the words for why it could not.

use std::io;
use std::path::Path;
use std::process::Stdio;

use tokio::process::{Child, Command};

/// One process to start: the argv (never joined into a shell string), its working
/// directory and the variables added to the inherited environment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpawnRequest<'a> {
    /// The program and its arguments; the program is looked up in `PATH` when it has no `/`.
    pub(crate) argv: &'a [String],
    /// The working directory; `None` keeps the host's.
    pub(crate) cwd: Option<&'a Path>,
    /// Variables set on top of the host's environment, in order (later wins).
    pub(crate) env: &'a [(String, String)],
    /// The run's mark, set last as `HOOKS_RUN` so that everything the process starts can
    /// be found and ended with it (see the `reap` module).
    pub(crate) mark: &'a str,
}

/// Starts `request` with piped stdin, stdout and stderr, as the leader of a new process
/// group (so the whole group can be signalled on timeout), killed if the handle is dropped.
///
/// The process group is set with `Command::process_group(0)`, which the standard library
/// hands to `posix_spawn`; a `pre_exec` closure would force fork+exec and cost about
/// 0.2 ms per hook, so there is none.
// Reason: hooks-exec's spawn module is the single place allowed to start processes; the
// workspace bans `Command::new` everywhere else (clippy.toml) to keep that true.
#[allow(clippy::disallowed_methods)]
pub(crate) fn spawn(request: &SpawnRequest<'_>) -> io::Result<Child> {
    let Some((program, args)) = request.argv.split_first() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the command is empty",
        ));
    };
    let mut command = Command::new(program);
    command
        .args(args)
        .envs(request.env.iter().map(|(k, v)| (k, v)))
        .env(crate::reap::RUN_MARK, request.mark)
        .env(crate::depth::DEPTH_VAR, crate::depth::child_mark())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    if let Some(dir) = request.cwd {
        command.current_dir(dir);
    }
    command.spawn()
}

/// Starts `argv` detached from the caller: in a process group of its own (so that the
/// signals an agent sends its hook's group do not reach it), with `stdin` written to its
/// standard input and closed, its stdout and stderr discarded, and never waited for, so
/// that the caller can answer and exit while it runs on. The child's own work must be
/// bounded (the `hooks bridge` background process runs hooks under their timeouts). Only
/// the bytes of `stdin` that fit the pipe are written without blocking the caller for
/// long: the child reads them at once.
pub fn spawn_detached(argv: &[std::ffi::OsString], stdin: &[u8]) -> io::Result<u32> {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    let mut child = command_of(argv)?
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    let pid = child.id();
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(stdin)?;
    }
    // Not waited for: the child is reparented when the caller exits.
    drop(child);
    Ok(pid)
}

/// The command that runs `argv` (its program, then its arguments), not started yet.
// Reason: as for `spawn`, this module is the one place that starts processes.
#[allow(clippy::disallowed_methods)]
fn command_of(argv: &[std::ffi::OsString]) -> io::Result<std::process::Command> {
    let Some((program, args)) = argv.split_first() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the command is empty",
        ));
    };
    let mut command = std::process::Command::new(program);
    command.args(args);
    Ok(command)
}

/// A long-lived helper process talking over its stdin and stdout (the resident engine's
/// workers), started by [`spawn_with_env`].
#[derive(Debug)]
pub struct Helper {
    child: std::process::Child,
    /// Its standard input.
    pub input: std::process::ChildStdin,
    /// Its standard output, buffered.
    pub output: io::BufReader<std::process::ChildStdout>,
}

impl Helper {
    /// Whether it still runs (not exited, not reaped).
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends it (SIGKILL) and reaps it.
    pub fn end(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `argv` as a long-lived helper with exactly the environment `env` (nothing of
/// the caller's own) in the directory `cwd`: its stdin and stdout piped for the caller's
/// messages, its stderr discarded, in a process group of its own. The resident engine
/// runs each caller's calls in such a process, started with that caller's environment.
pub fn spawn_with_env(
    argv: &[std::ffi::OsString],
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    cwd: &Path,
) -> io::Result<Helper> {
    use std::os::unix::process::CommandExt as _;
    let mut child = command_of(argv)?
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    match (child.stdin.take(), child.stdout.take()) {
        (Some(input), Some(output)) => Ok(Helper {
            child,
            input,
            output: io::BufReader::new(output),
        }),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            Err(io::Error::other("the helper's pipes were not made"))
        }
    }
}

/// A clear account of why `request` could not be started: which program, and what to check.
pub(crate) fn describe_spawn_error(request: &SpawnRequest<'_>, err: &io::Error) -> String {
    let program = request.argv.first().map_or("", String::as_str);
    if let Some(dir) = request.cwd
        && !dir.is_dir()
    {
        return format!(
            "cannot start `{program}`: its working directory `{}` does not exist",
            dir.display()
        );
    }
    // ENOEXEC: the kernel does not know the file's format (no `#!` line, or a binary for
    // another machine).
    const ENOEXEC: i32 = 8;
    if err.raw_os_error() == Some(ENOEXEC) {
        return format!(
            "cannot start `{program}`: exec format error (a script needs a `#!` line naming its interpreter)"
        );
    }
    match err.kind() {
        io::ErrorKind::NotFound => {
            let path = Path::new(program);
            if program.contains('/') && path.is_file() {
                // The file exists, so what is missing is the interpreter its `#!` names.
                match shebang(path) {
                    Some(line) => {
                        format!("cannot start `{program}`: its interpreter `{line}` was not found")
                    }
                    None => format!("cannot start `{program}`: a file it needs was not found"),
                }
            } else if program.contains('/') {
                format!("cannot start `{program}`: no such file")
            } else {
                format!("cannot start `{program}`: command not found in PATH")
            }
        }
        io::ErrorKind::PermissionDenied => {
            format!("cannot start `{program}`: permission denied (is it executable? `chmod +x`)")
        }
        io::ErrorKind::InvalidInput => format!("cannot start the hook: {err}"),
        _ => format!("cannot start `{program}`: {err}"),
    }
}

/// The `#!` line of a script, without the `#!`, if it has one.
fn shebang(path: &Path) -> Option<String> {
    use std::io::Read;

    let mut head = [0u8; 256];
    let n = std::fs::File::open(path).ok()?.read(&mut head).ok()?;
    let head = head.get(..n)?.strip_prefix(b"#!")?;
    let line = head.split(|&b| b == b'\n').next()?;
    Some(String::from_utf8_lossy(line).trim().to_owned())
}
