//! Sandboxes a command hook runs through: the [`Sandbox`] trait and the built-in
//! bubblewrap sandbox.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::Error;

/// What a sandbox is asked to confine: the command, its working directory and whether it
/// may use the network.
#[non_exhaustive]
#[derive(Clone, Copy, Debug)]
pub struct SandboxCommand<'a> {
    /// The hook's argv (`["sh", "-c", SCRIPT]` for scripts).
    pub argv: &'a [String],
    /// The working directory, the one place the hook may write.
    pub cwd: &'a Path,
    /// Whether the hook may reach the network.
    pub allow_network: bool,
    /// Host files the hook must be able to read at the same path (a Fabro hook's
    /// `FABRO_HOOK_CONTEXT` file).
    pub read_only: &'a [PathBuf],
}

impl<'a> SandboxCommand<'a> {
    /// A command to confine.
    pub fn new(argv: &'a [String], cwd: &'a Path, allow_network: bool) -> SandboxCommand<'a> {
        SandboxCommand {
            argv,
            cwd,
            allow_network,
            read_only: &[],
        }
    }

    /// Host files the hook must be able to read, each at its own path.
    #[must_use]
    pub fn with_read_only(mut self, files: &'a [PathBuf]) -> SandboxCommand<'a> {
        self.read_only = files;
        self
    }
}

/// A way to confine a command hook: it rewrites the hook's argv into one that runs the
/// hook inside the sandbox (`bwrap ... -- sh -c SCRIPT`, `docker exec ...`,
/// `ssh host ...`).
///
/// The wrapped command is started like any other hook (same stdin, environment, process
/// group, timeout and output caps), so a sandbox needs to do nothing but build the argv.
/// Its processes must stay in the hook's process group (no `setsid`), or be killed with
/// their parent, so that a timeout still kills everything.
pub trait Sandbox: Send + Sync + fmt::Debug {
    /// The argv that runs `command` inside the sandbox, or why it cannot.
    fn wrap(&self, command: &SandboxCommand<'_>) -> Result<Vec<String>, Error>;
}

/// System directories mounted read-only inside the bubblewrap sandbox (those that exist;
/// symlinks such as a merged `/bin -> usr/bin` are recreated as symlinks).
const SYSTEM_PATHS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
];

/// The built-in Linux sandbox: [bubblewrap](https://github.com/containers/bubblewrap)
/// (`apt-get install bubblewrap`).
///
/// Inside it a hook sees the system directories (`/usr`, `/bin`, `/lib*`, `/etc`, `/opt`)
/// read-only, a private `/proc`, `/dev` and an empty `/tmp`, its working directory
/// read-write, and nothing else of the host's filesystem; it has its own PID, IPC and UTS
/// namespaces, and no network (a private network namespace with only a loopback device)
/// unless the command allows it. An absolute program path (`/path/to/hook.sh`) and the
/// files the command names ([`SandboxCommand::read_only`]) are mounted read-only so the
/// hook can run and read them; add other paths with [`BubblewrapSandbox::read_only`]
/// and [`BubblewrapSandbox::writable`].
///
/// The hook runs in its own user namespace, under its own uid but with every capability
/// dropped (`--unshare-user --cap-drop ALL`), so it cannot remount a read-only path
/// writable even when the engine runs as root; and it may not create user namespaces
/// (`--disable-userns`), the one way a process without capabilities gets a full set back.
/// Bubblewrap therefore needs user namespaces (as root, or as an ordinary user where
/// unprivileged user namespaces are allowed) and must be 0.8 or later; where either is
/// missing, a sandboxed hook fails to start rather than run with privileges.
#[derive(Debug)]
pub struct BubblewrapSandbox {
    program: String,
    read_only: Vec<PathBuf>,
    writable: Vec<PathBuf>,
    /// The system mounts, computed once (a few `lstat` calls).
    system: OnceLock<Vec<String>>,
    /// Where the program was found in `PATH`, looked up once.
    resolved: OnceLock<Option<PathBuf>>,
}

impl Default for BubblewrapSandbox {
    fn default() -> BubblewrapSandbox {
        BubblewrapSandbox {
            program: "bwrap".to_owned(),
            read_only: Vec::new(),
            writable: Vec::new(),
            system: OnceLock::new(),
            resolved: OnceLock::new(),
        }
    }
}

impl BubblewrapSandbox {
    /// Uses `program` instead of `bwrap` found in `PATH`.
    #[must_use]
    pub fn program(mut self, program: impl Into<String>) -> BubblewrapSandbox {
        self.program = program.into();
        self.resolved = OnceLock::new();
        self
    }

    /// Also mounts `path` read-only (at the same place).
    #[must_use]
    pub fn read_only(mut self, path: impl Into<PathBuf>) -> BubblewrapSandbox {
        self.read_only.push(path.into());
        self
    }

    /// Also mounts `path` read-write (at the same place).
    #[must_use]
    pub fn writable(mut self, path: impl Into<PathBuf>) -> BubblewrapSandbox {
        self.writable.push(path.into());
        self
    }

    /// Whether the sandbox program can be found.
    pub fn is_available(&self) -> bool {
        self.program_path().is_some()
    }

    fn program_path(&self) -> Option<&Path> {
        self.resolved
            .get_or_init(|| find_program(&self.program))
            .as_deref()
    }

    fn system_args(&self) -> &[String] {
        self.system.get_or_init(|| {
            let mut args = Vec::new();
            for path in SYSTEM_PATHS {
                let p = Path::new(path);
                match std::fs::symlink_metadata(p) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        if let Ok(target) = std::fs::read_link(p) {
                            args.push("--symlink".to_owned());
                            args.push(target.to_string_lossy().into_owned());
                            args.push((*path).to_owned());
                        }
                    }
                    Ok(_) => {
                        args.push("--ro-bind".to_owned());
                        args.push((*path).to_owned());
                        args.push((*path).to_owned());
                    }
                    Err(_) => {}
                }
            }
            args
        })
    }
}

impl Sandbox for BubblewrapSandbox {
    fn wrap(&self, command: &SandboxCommand<'_>) -> Result<Vec<String>, Error> {
        let Some(program) = self.program_path() else {
            return Err(Error::sandbox(format!(
                "`{}` (bubblewrap) is not installed: install it (`apt-get install bubblewrap`) \
                 or run the hook with `sandbox = false`",
                self.program
            )));
        };
        let cwd = utf8(command.cwd)?;
        let mut argv = vec![
            program.to_string_lossy().into_owned(),
            // The sandbox dies with the engine, and its PID namespace with it.
            "--die-with-parent".to_owned(),
            // Its own user namespace, and no capabilities in it (bounding set included):
            // without this an engine run as root hands the hook CAP_SYS_ADMIN over the
            // sandbox's mounts, and `mount -o remount,bind,rw /usr` undoes every read-only
            // bind. The hook keeps its uid; it just holds no privilege.
            "--unshare-user".to_owned(),
            "--cap-drop".to_owned(),
            "ALL".to_owned(),
            // And it cannot make a user namespace of its own (`unshare -U`), in which it
            // would hold every capability again, over mounts and namespaces of its
            // making. (Bubblewrap 0.8 and later; an older one refuses the option, and the
            // hook fails to start rather than run with a way back to privilege.)
            "--disable-userns".to_owned(),
            "--unshare-pid".to_owned(),
            "--unshare-ipc".to_owned(),
            "--unshare-uts".to_owned(),
            "--unshare-cgroup-try".to_owned(),
        ];
        if !command.allow_network {
            argv.push("--unshare-net".to_owned());
        }
        argv.extend(self.system_args().iter().cloned());
        for (flag, path) in [("--proc", "/proc"), ("--dev", "/dev"), ("--tmpfs", "/tmp")] {
            argv.push(flag.to_owned());
            argv.push(path.to_owned());
        }
        let mut bind = |flag: &str, path: &str| {
            argv.push(flag.to_owned());
            argv.push(path.to_owned());
            argv.push(path.to_owned());
        };
        for path in self.read_only.iter().chain(command.read_only) {
            bind("--ro-bind", utf8(path)?);
        }
        // A hook given by absolute path must be visible to run (unless a mount above, or
        // the working directory below, already shows it).
        if let Some(exe) = command.argv.first().map(Path::new)
            && exe.is_absolute()
            && exe.exists()
            && !SYSTEM_PATHS.iter().any(|p| exe.starts_with(p))
            && !exe.starts_with(command.cwd)
        {
            bind("--ro-bind", utf8(exe)?);
        }
        bind("--bind", cwd);
        for path in &self.writable {
            bind("--bind", utf8(path)?);
        }
        argv.extend(["--chdir".to_owned(), cwd.to_owned(), "--".to_owned()]);
        argv.extend(command.argv.iter().cloned());
        Ok(argv)
    }
}

fn utf8(path: &Path) -> Result<&str, Error> {
    path.to_str().ok_or_else(|| {
        Error::sandbox(format!(
            "cannot mount `{}`: the path is not valid UTF-8",
            path.display()
        ))
    })
}

/// Looks `program` up like `execvp` would: as given when it has a `/`, else in `PATH`.
fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let path = PathBuf::from(program);
        return path.is_file().then_some(path);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}
