//! `hooks daemon`: start, stop and ask the resident engine (`hooks::daemon`), run it, and
//! install the user service that starts it.

use std::io::Write as _;
use std::os::fd::AsFd as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use hooks::daemon::wire::Message;
use hooks::daemon::{self, Daemon, client, service};

use crate::cli::DaemonCommand;

/// Writes one line on stdout (a closed stdout is not an error of the command).
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// How long `start` and `stop` wait for the daemon to come or go.
const WAIT: Duration = Duration::from_secs(10);

/// Runs one `hooks daemon` command.
pub fn run(command: &DaemonCommand) -> Result<u8> {
    match command {
        DaemonCommand::Run => serve(),
        DaemonCommand::Worker { socket } => {
            // Unbuffered: the worker waits on the descriptor for the daemon's next call.
            let input = std::fs::File::from(std::io::stdin().as_fd().try_clone_to_owned()?);
            daemon::worker::serve(input, std::io::stdout().lock(), socket.as_deref())?;
            Ok(0)
        }
        DaemonCommand::Start => start(),
        DaemonCommand::Stop => stop(),
        DaemonCommand::Status(args) => status(args.json),
        DaemonCommand::Install => install(),
        DaemonCommand::Uninstall => uninstall(),
    }
}

fn socket() -> Result<PathBuf> {
    daemon::socket_path().ok_or_else(|| {
        anyhow!(
            "no place for the daemon's socket: set XDG_RUNTIME_DIR, HOME or {}",
            daemon::SOCKET_VAR
        )
    })
}

fn program() -> Result<PathBuf> {
    std::env::current_exe().context("finding the hooks program")
}

fn serve() -> Result<u8> {
    let socket = socket()?;
    let daemon = Daemon::bind(&socket, &program()?)?;
    // The first line, which a caller waiting for the daemon to serve may read.
    let _ = writeln!(
        std::io::stderr().lock(),
        "hooks daemon {} (pid {}) serving {}",
        daemon::VERSION,
        std::process::id(),
        socket.display()
    );
    daemon.serve()?;
    Ok(0)
}

/// The running daemon's state, if one answers.
fn report(socket: &std::path::Path) -> Option<serde_json::Value> {
    match client::ask(socket, &Message::Status) {
        Ok(Message::Report(json)) => serde_json::from_str(&json).ok(),
        _ => None,
    }
}

fn start() -> Result<u8> {
    let socket = socket()?;
    if let Some(state) = report(&socket) {
        say!(
            "hooks daemon already runs: pid {}, version {}, on {}",
            state["pid"],
            state["version"].as_str().unwrap_or("?"),
            socket.display()
        );
        return Ok(0);
    }
    let argv = [program()?.into_os_string(), "daemon".into(), "run".into()];
    hooks::exec::spawn_detached(&argv, b"").context("starting the daemon")?;
    let deadline = Instant::now() + WAIT;
    while Instant::now() < deadline {
        if let Some(state) = report(&socket) {
            say!(
                "hooks daemon started: pid {}, on {}",
                state["pid"],
                socket.display()
            );
            return Ok(0);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(anyhow!(
        "the daemon did not answer on {} within {} s (`hooks daemon run` shows why)",
        socket.display(),
        WAIT.as_secs()
    ))
}

fn stop() -> Result<u8> {
    let socket = socket()?;
    match client::ask(&socket, &Message::Stop) {
        Ok(Message::Stopping) => {}
        _ => {
            say!("no hooks daemon runs on {}", socket.display());
            return Ok(0);
        }
    }
    // Stopped once its process lets go of the socket's lock.
    let deadline = Instant::now() + WAIT;
    while daemon::server::is_held(&socket) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    say!("hooks daemon stopped");
    Ok(0)
}

fn status(json: bool) -> Result<u8> {
    let socket = socket()?;
    let Some(state) = report(&socket) else {
        if json {
            say!(
                "{}",
                serde_json::json!({"running": false, "socket": socket})
            );
        } else {
            let why = daemon::check_private(&socket)
                .err()
                .filter(|_| socket.exists())
                .map(|e| format!(" ({e})"))
                .unwrap_or_default();
            say!("no hooks daemon runs on {}{why}", socket.display());
        }
        return Ok(3);
    };
    let version = state["version"].as_str().unwrap_or("?").to_owned();
    let stale = version != daemon::VERSION;
    if json {
        let mut state = state;
        state["running"] = true.into();
        state["stale"] = stale.into();
        say!("{state}");
        return Ok(0);
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "hooks daemon {version}, pid {}, on {}",
        state["pid"],
        socket.display()
    )?;
    if stale {
        writeln!(
            out,
            "  stale: this program is {}; the bridge answers calls itself until the daemon is restarted (`hooks daemon stop`, then `hooks daemon start`)",
            daemon::VERSION
        )?;
    }
    writeln!(
        out,
        "  workers: {} ({} idle); calls served: {}, not taken: {}",
        state["workers"], state["idle_workers"], state["served"], state["refused"]
    )?;
    Ok(0)
}

fn service_file() -> Result<service::ServiceFile> {
    // The user's home and config directory as discovery reads them.
    let places = hooks::config::Locations::from_env(None);
    let (Some(home), Some(config)) = (places.home, places.config_dir) else {
        return Err(anyhow!("HOME is not set"));
    };
    service::service_file(&program()?, &home, &config)
        .ok_or_else(|| anyhow!("this system has neither systemd nor launchd user services"))
}

fn install() -> Result<u8> {
    let file = service_file()?;
    if let Some(dir) = file.path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&file.path, &file.text)
        .with_context(|| format!("writing {}", file.path.display()))?;
    say!("wrote {}", file.path.display());
    say!("start it now and at every login with:\n  {}", file.enable);
    Ok(0)
}

fn uninstall() -> Result<u8> {
    let file = service_file()?;
    match std::fs::remove_file(&file.path) {
        Ok(()) => {
            say!("removed {}", file.path.display());
            say!("if it is loaded, stop it with:\n  {}", file.disable);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            say!("no service file at {}", file.path.display());
        }
        Err(e) => return Err(e).with_context(|| format!("removing {}", file.path.display())),
    }
    Ok(0)
}
