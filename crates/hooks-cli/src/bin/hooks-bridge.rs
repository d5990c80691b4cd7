//! `hooks-bridge AGENT [EVENT]`: the hook command `hooks install` writes into an agent's
//! settings. It answers exactly as `hooks bridge AGENT [EVENT]` does, by one of two roads:
//!
//! - with a resident engine serving the user (`hooks daemon`), it hands the event to it and
//!   writes its answer: a call that costs about what starting `/bin/true` costs, because
//!   this program is the standard library and a socket where `hooks` is the whole
//!   engine;
//! - otherwise it runs `hooks bridge` (the `hooks` program beside it): by `exec` when it
//!   has not read the event (no daemon, `HOOKS_DAEMON=off`, arguments it does not forward),
//!   else as a child given the event's bytes, whose answer and exit code it passes on (the
//!   daemon refused the call or stopped answering).
//!
//! Whatever this program cannot do itself is `hooks bridge`'s to answer, so the two can
//! only answer alike; `docs/daemon.md` has the whole story. This is the portable client
//! (macOS, Windows, `cargo install`, the wheel); the Linux packages ship
//! `crates/hooks-bridge-lite` under this name, which takes the same road without a C
//! library.

// This program is the standard library and a socket, so that it starts fast: it starts
// `hooks` itself rather than through hooks-exec's spawn module, and says what went wrong
// on stderr, as a hook command does.
#![allow(clippy::disallowed_methods, clippy::print_stderr)]

use std::ffi::OsString;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let Some(engine) = engine() else {
        eprintln!("hooks-bridge: no `hooks` program beside this one to answer the call");
        return ExitCode::from(2);
    };
    #[cfg(unix)]
    {
        client::run(&engine, args)
    }
    #[cfg(not(unix))]
    {
        let status = std::process::Command::new(&engine)
            .arg("bridge")
            .args(&args)
            .status();
        passed_on(status, &engine)
    }
}

/// The exit code of `hooks bridge` (the `engine` program) passed on: its own, 1 when a
/// signal ended it, 2 (the agents' "blocked") when it could not be run or waited for.
fn passed_on(
    status: std::io::Result<std::process::ExitStatus>,
    engine: &std::path::Path,
) -> ExitCode {
    match status {
        Ok(status) => ExitCode::from(
            status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1),
        ),
        Err(e) => {
            eprintln!("hooks-bridge: running {}: {e}", engine.display());
            ExitCode::from(2)
        }
    }
}

/// The `hooks` program beside this one (the path it was started by, its links resolved).
fn engine() -> Option<std::path::PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let name = if cfg!(windows) { "hooks.exe" } else { "hooks" };
    Some(exe.with_file_name(name))
}

#[cfg(unix)]
mod client {
    use std::ffi::OsString;
    use std::io::{IsTerminal as _, Write as _};
    use std::os::unix::process::CommandExt as _;
    use std::path::Path;
    use std::process::{Command, ExitCode, Stdio};

    use hooks_client::wire::Call;
    use hooks_client::{Mode, STDIN_LIMIT, VERSION, check_private, hand_over, read_within};

    /// Answers the call: through the daemon, else by `hooks bridge` (see the crate docs).
    pub(crate) fn run(engine: &Path, args: Vec<OsString>) -> ExitCode {
        let Some((agent, event)) = forwardable(&args) else {
            return exec(engine, &args);
        };
        if Mode::from_env() == Mode::Off {
            return exec(engine, &args);
        }
        // No runtime directory: the socket, if any, is in the state directory, which only
        // the engine knows how to find.
        let Some(socket) = hooks_client::socket_path(|| None) else {
            return exec(engine, &args);
        };
        // A daemon that is not there (`HOOKS_DAEMON=auto` has the engine start one), or a
        // socket that is not the caller's own: the engine says so and answers.
        if check_private(&socket).is_err() || std::io::stdin().is_terminal() {
            return exec(engine, &args);
        }
        let stdin = std::io::stdin();
        let text = match read_within(std::os::fd::AsFd::as_fd(&stdin), STDIN_LIMIT) {
            Ok(text) => text,
            // The agent never closed stdin: the engine, given what was read and a stdin
            // that stays open, waits as long and answers so.
            Err((read, _)) => return child(engine, &args, &read, true),
        };
        let Ok(cwd) = std::env::current_dir() else {
            return child(engine, &args, &text, false);
        };
        let call = Call {
            version: VERSION.to_owned(),
            program: engine.to_path_buf(),
            agent,
            event,
            cwd,
            env: std::env::vars_os().collect(),
            stdin: text,
        };
        match hand_over(&socket, &call) {
            Ok(Some(answer)) => {
                let _ = std::io::stdout().lock().write_all(answer.stdout.as_bytes());
                let _ = std::io::stderr().lock().write_all(answer.stderr.as_bytes());
                ExitCode::from(u8::try_from(answer.exit_code).unwrap_or(1))
            }
            // Refused, or the daemon stopped answering: the engine answers.
            Ok(None) | Err(_) => child(engine, &args, &call.stdin, false),
        }
    }

    /// The agent and the event of a call the daemon may take: `AGENT` or `AGENT EVENT`,
    /// as text, no option among them (anything else is the engine's to read, or refuse).
    fn forwardable(args: &[OsString]) -> Option<(String, Option<String>)> {
        let words: Vec<&str> = args.iter().map(|a| a.to_str()).collect::<Option<_>>()?;
        if words.iter().any(|w| w.is_empty() || w.starts_with('-')) {
            return None;
        }
        match words.as_slice() {
            [agent] => Some(((*agent).to_owned(), None)),
            [agent, event] => Some(((*agent).to_owned(), Some((*event).to_owned()))),
            _ => None,
        }
    }

    /// Becomes `hooks bridge` with the same arguments, stdin untouched.
    fn exec(engine: &Path, args: &[OsString]) -> ExitCode {
        let e = Command::new(engine).arg("bridge").args(args).exec();
        eprintln!("hooks-bridge: running {}: {e}", engine.display());
        ExitCode::from(2)
    }

    /// Runs `hooks bridge` with the same arguments and `text` on its stdin (kept open
    /// until it exits when `hold`), its stdout and stderr this program's, and gives its
    /// exit code.
    fn child(engine: &Path, args: &[OsString], text: &[u8], hold: bool) -> ExitCode {
        let spawned = Command::new(engine)
            .arg("bridge")
            .args(args)
            .stdin(Stdio::piped())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => return super::passed_on(Err(e), engine),
        };
        let mut pipe = child.stdin.take();
        if let Some(p) = pipe.as_mut() {
            // The engine reads its stdin before anything else: the write cannot block
            // past its reading.
            let _ = p.write_all(text);
        }
        if !hold {
            drop(pipe.take());
        }
        let status = child.wait();
        drop(pipe);
        super::passed_on(status, engine)
    }
}
