//! Helpers for running the `hooks` binary end to end: an isolated home, trust store and
//! working directory per test, and output normalised for snapshots (durations, temporary
//! paths, the binary's own path), and a loopback HTTP peer for http hooks.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use assert_cmd::Command;
use regex::Regex;
use tempfile::TempDir;

/// What one run of the binary gave.
#[derive(Debug)]
pub(crate) struct Run {
    /// The exit code.
    pub(crate) code: i32,
    /// Stdout, normalised.
    pub(crate) stdout: String,
    /// Stderr, normalised.
    pub(crate) stderr: String,
}

impl Run {
    /// Stdout parsed as one JSON value.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}):\n{}", self.stdout))
    }
}

/// A temporary directory that is the test's home, trust store location and (by default)
/// working directory.
pub(crate) struct Env {
    dir: TempDir,
    cwd: PathBuf,
}

impl Env {
    /// A fresh environment whose working directory is the temporary directory.
    pub(crate) fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().to_path_buf();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Env { dir, cwd }
    }

    /// A fresh environment working in the workspace root (for the examples).
    pub(crate) fn in_workspace() -> Env {
        let mut env = Env::new();
        env.cwd = workspace_root();
        env
    }

    /// The same environment working in `rel` under the temporary directory (created).
    pub(crate) fn in_dir(mut self, rel: &str) -> Env {
        self.cwd = self.dir.path().join(rel);
        std::fs::create_dir_all(&self.cwd).unwrap();
        self
    }

    /// A fresh environment working in the project `proj`, a git work tree (`proj/.git`).
    pub(crate) fn in_project() -> Env {
        let env = Env::new().in_dir("proj");
        std::fs::create_dir_all(env.path().join("proj/.git")).unwrap();
        env
    }

    /// The temporary directory.
    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `rel` under the temporary directory (creating directories).
    pub(crate) fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The binary, with its environment isolated from the user's: home, config and data
    /// directories and the trust store under the temporary directory, colours off.
    pub(crate) fn command(&self) -> Command {
        Command::from_std(self.std_command())
    }

    /// Like [`Env::command`], as a `std::process::Command`, for tests that talk to the
    /// binary while it runs (`hooks serve --stdio`).
    // The test starts the binary itself, as a real child process.
    #[allow(clippy::disallowed_methods)]
    pub(crate) fn std_command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("hooks"));
        self.isolate(&mut cmd);
        cmd
    }

    /// The hook command's client (`hooks-bridge`) in this environment, as
    /// [`Env::std_command`] is the `hooks` binary.
    // The test starts the binary itself, as a real child process.
    #[allow(clippy::disallowed_methods)]
    pub(crate) fn client_command(&self) -> std::process::Command {
        self.client_command_of(&assert_cmd::cargo::cargo_bin("hooks-bridge"))
    }

    /// Like [`Env::client_command`], for the client at `program` (one of [`clients`]).
    // The test starts the binary itself, as a real child process.
    #[allow(clippy::disallowed_methods)]
    pub(crate) fn client_command_of(&self, program: &Path) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        self.isolate(&mut cmd);
        cmd
    }

    /// Gives `cmd` this environment's working directory and isolated variables (see
    /// [`Env::command`]).
    pub(crate) fn isolate(&self, cmd: &mut std::process::Command) {
        let home = self.dir.path().join("home");
        cmd.current_dir(&self.cwd)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("HOOKS_TRUST_STORE", self.dir.path().join("trust.json"))
            .env("HOOKS_EXAMPLE_LOG", self.dir.path().join("example.log"))
            .env("NO_COLOR", "1")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("HOOKS_HOME")
            // The agents' homes are the test's, not the machine's.
            .env_remove("CODEX_HOME")
            .env_remove("CLINE_DIR")
            .env_remove("CLINE_DATA_DIR")
            .env_remove("COPILOT_HOME")
            // A test run inside GitHub Copilot CLI must not look like Copilot's call.
            .env_remove("COPILOT_CLI")
            // Telemetry export only where a test turns it on, never to the machine's collector.
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
            .env_remove("HOOKS_DEPTH");
    }

    /// Runs the binary with `args` and returns its normalised output.
    pub(crate) fn run(&self, args: &[&str]) -> Run {
        self.finish(self.command().args(args))
    }

    /// Runs the binary with `args` and `stdin`.
    pub(crate) fn run_with_stdin(&self, args: &[&str], stdin: &str) -> Run {
        self.finish(self.command().args(args).write_stdin(stdin))
    }

    /// Runs a prepared command and returns its normalised output.
    pub(crate) fn finish(&self, cmd: &mut Command) -> Run {
        let out = cmd.output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: self.normalise(&String::from_utf8(out.stdout).unwrap()),
            stderr: self.normalise(&String::from_utf8(out.stderr).unwrap()),
        }
    }

    /// Masks what changes from run to run: the temporary directory, the binary's path,
    /// durations, grant times.
    pub(crate) fn normalise(&self, text: &str) -> String {
        static PATTERNS: LazyLock<Vec<(Regex, &str)>> = LazyLock::new(|| {
            vec![
                (Regex::new(r"\b\d+ ms\b").unwrap(), "[ms]"),
                // Error numbers differ between systems (ECONNREFUSED is 111 on Linux).
                (Regex::new(r"os error \d+").unwrap(), "os error [n]"),
                (
                    Regex::new(r#""(duration_ms|duration)":\d+"#).unwrap(),
                    r#""$1":"[ms]""#,
                ),
                (
                    Regex::new(r#""granted_at":\d+"#).unwrap(),
                    r#""granted_at":"[time]""#,
                ),
                (
                    Regex::new(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ").unwrap(),
                    "[time]",
                ),
            ]
        });
        let bin = assert_cmd::cargo::cargo_bin("hooks");
        // Longest first: the temporary directory may hold the binary's directory or not.
        let mut text = text.replace(&bin.display().to_string(), "[hooks]");
        let dir = self.dir.path().display().to_string();
        let canonical = std::fs::canonicalize(self.dir.path())
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| dir.clone());
        text = text.replace(&canonical, "[dir]").replace(&dir, "[dir]");
        for (re, with) in PATTERNS.iter() {
            text = re.replace_all(&text, *with).into_owned();
        }
        text
    }
}

/// Makes a FIFO at `rel` under the temporary directory of `env`.
#[cfg(unix)]
pub(crate) fn mkfifo(env: &Env, rel: &str) {
    use rustix::fs::{CWD, FileType, Mode, mknodat};
    let path = env.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    mknodat(CWD, &path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).unwrap();
}

/// The hook command's clients: cargo's portable `hooks-bridge` beside `hooks`, and on
/// Linux the one the packages ship, `hooks-bridge-lite` (no C library), beside a link to
/// the same `hooks` ([`shipped_client`]). Both must answer every call alike.
pub(crate) fn clients() -> Vec<PathBuf> {
    let mut all = vec![assert_cmd::cargo::cargo_bin("hooks-bridge")];
    if cfg!(target_os = "linux") {
        all.push(shipped_client().to_path_buf());
    }
    all
}

/// The Linux client as the packages ship it (`cargo xtask client`: `$HOOKS_TEST_CLIENT`
/// when `cargo xtask ci` built it, else built here once, in a target directory of its own),
/// copied as `hooks-bridge` into a directory beside a link to cargo's `hooks`, which it
/// runs when the daemon does not answer.
// The test builds the client with cargo, as `cargo xtask ci` does.
#[allow(clippy::disallowed_methods)]
pub(crate) fn shipped_client() -> &'static Path {
    // Kept for the test run (a static is never dropped), in cargo's temporary directory.
    static CLIENT: LazyLock<(TempDir, PathBuf)> = LazyLock::new(|| {
        let built = match std::env::var_os("HOOKS_TEST_CLIENT") {
            Some(path) => PathBuf::from(path),
            None => {
                let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shipped-client");
                let child = std::process::Command::new(env!("CARGO"))
                    .args(["xtask", "client"])
                    .current_dir(workspace_root())
                    .env("CARGO_TARGET_DIR", &target)
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                let pid = child.id();
                let (done, finished) = std::sync::mpsc::channel();
                std::thread::spawn(move || done.send(child.wait_with_output()));
                let Ok(out) = finished.recv_timeout(Duration::from_secs(900)) else {
                    let _ = std::process::Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .status();
                    panic!("cargo xtask client took over 15 minutes");
                };
                let out = out.unwrap();
                assert!(
                    out.status.success(),
                    "cargo xtask client: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
            }
        };
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let client = dir.path().join("hooks-bridge");
        std::fs::copy(&built, &client)
            .unwrap_or_else(|e| panic!("the shipped client {}: {e}", built.display()));
        std::os::unix::fs::symlink(
            assert_cmd::cargo::cargo_bin("hooks"),
            dir.path().join("hooks"),
        )
        .unwrap();
        (dir, client)
    });
    &CLIENT.1
}

/// The hook command `hooks install AGENT` writes in these tests: the client cargo builds
/// beside the `hooks` binary, `/…/hooks-bridge AGENT` (its path needs no quoting).
pub(crate) fn installed_command(agent: &str) -> String {
    let client = Path::new(env!("CARGO_BIN_EXE_hooks-bridge"));
    assert_eq!(
        Some(client),
        assert_cmd::cargo::cargo_bin("hooks")
            .with_file_name("hooks-bridge")
            .as_path()
            .into(),
        "the client is not beside the hooks binary"
    );
    format!("{} {agent}", client.display())
}

/// The workspace root (where `examples/` is).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A native config with a hook of each kind the tests need: a blocking guard, a context
/// hook, a filtered hook, a rewrite behind an `if` condition, a disabled hook and one
/// that crashes.
pub(crate) const POLICY: &str = r#"# Test policy.
hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    description: Refuse rm -rf
    command: |
      case "$(cat)" in *"rm -rf"*) echo "refusing rm -rf" >&2; exit 2;; esac
  - id: npm-rewrite
    event: PreToolUse
    matcher: Bash
    if: "Bash(npm *)"
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"bun test"}}}'
  - id: old-check
    event: PreToolUse
    matcher: Bash
    command: "true"
    enabled: false
  - id: add-context
    event: UserPromptSubmit
    command: echo "Remember the style guide."
  - id: ts-only
    event: PostToolUse
    matcher: Write|Edit
    filter:
      path: ["**/*.ts"]
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"typescript changed"}}'
  - id: crashy
    event: Stop
    command: echo boom >&2; exit 3
"#;

/// A loopback HTTP peer that keeps every request it gets (head and body, as text) and
/// answers with the path it was sent to: 200 with a blocking JSON answer quoting it, or,
/// under `/fail/`, a 500 whose body quotes it.
pub(crate) struct Peer {
    /// Where it listens, on 127.0.0.1.
    pub(crate) port: u16,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Peer {
    /// Starts the peer on a free loopback port; it lives as long as the test process.
    pub(crate) fn start() -> Peer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&requests);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(mut conn) = conn else { return };
                let kept = Arc::clone(&kept);
                std::thread::spawn(move || {
                    let Some(request) = read_request(&mut conn) else {
                        return;
                    };
                    let path = request.split(' ').nth(1).unwrap_or_default().to_owned();
                    kept.lock().unwrap().push(request);
                    let (status, body) = if path.starts_with("/fail/") {
                        ("500 Internal Server Error", format!("bad token at {path}"))
                    } else {
                        (
                            "200 OK",
                            format!(r#"{{"decision":"block","reason":"server saw {path}"}}"#),
                        )
                    };
                    let _ = write!(
                        conn,
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                });
            }
        });
        Peer { port, requests }
    }

    /// Every request received so far.
    pub(crate) fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

/// One HTTP/1.1 request as a loopback peer received it.
#[derive(Debug, Clone)]
pub(crate) struct HttpRequest {
    /// The request line and header lines, as sent (without the blank line).
    pub(crate) head: String,
    /// The method (`POST`, `HEAD`, ..).
    pub(crate) method: String,
    /// The request target (path and query).
    pub(crate) target: String,
    /// The body, de-chunked when it was sent chunked.
    pub(crate) body: Vec<u8>,
}

impl HttpRequest {
    /// The value of header `name` (case-insensitive), if sent.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then_some(value.trim())
        })
    }

    /// Head and body as one text.
    pub(crate) fn text(&self) -> String {
        format!(
            "{}\r\n\r\n{}",
            self.head,
            String::from_utf8_lossy(&self.body)
        )
    }
}

/// The largest request head a test peer reads.
const MAX_HEAD: usize = 64 * 1024;
/// The largest request body a test peer reads.
const MAX_BODY: usize = 32 * 1024 * 1024;

/// Reads one request (head and a `Content-Length` or chunked body), waiting at most 60 s
/// for each read and reading at most [`MAX_HEAD`] and [`MAX_BODY`] bytes; `None` when the
/// client closed, stalled, or sent something else.
pub(crate) fn read_http(conn: &mut TcpStream) -> Option<HttpRequest> {
    conn.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    let mut data = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let end = loop {
        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        if data.len() > MAX_HEAD {
            return None;
        }
        let n = conn.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8(data[..end].to_vec()).ok()?;
    let mut rest = data.split_off(end + 4);
    let mut parts = head.split(' ');
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut request = HttpRequest {
        head,
        method,
        target,
        body: Vec::new(),
    };
    let chunked = request
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    // Reads until `rest` holds `want` bytes.
    let mut fill = |rest: &mut Vec<u8>, want: usize| -> Option<()> {
        while rest.len() < want {
            if want > MAX_BODY + MAX_HEAD {
                return None;
            }
            let n = conn.read(&mut buf).ok()?;
            if n == 0 {
                return None;
            }
            rest.extend_from_slice(&buf[..n]);
        }
        Some(())
    };
    if chunked {
        let mut at = 0;
        loop {
            let line_end = loop {
                if let Some(i) = rest[at..].windows(2).position(|w| w == b"\r\n") {
                    break at + i;
                }
                let want = rest.len() + 1;
                fill(&mut rest, want)?;
            };
            let size_text = std::str::from_utf8(&rest[at..line_end]).ok()?;
            let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
            if request.body.len() + size > MAX_BODY {
                return None;
            }
            fill(&mut rest, line_end + 2 + size + 2)?;
            request
                .body
                .extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
            at = line_end + 2 + size + 2;
            if size == 0 {
                return Some(request);
            }
        }
    }
    let len: usize = request
        .header("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if len > MAX_BODY {
        return None;
    }
    fill(&mut rest, len)?;
    rest.truncate(len);
    request.body = rest;
    Some(request)
}

/// Reads one request (head and body) and returns it as text.
pub(crate) fn read_request(conn: &mut TcpStream) -> Option<String> {
    read_http(conn).map(|r| r.text())
}

/// Runs `git ARGS` in `repo` (a real git, for the built-ins that drive one) and returns its
/// stdout; a failing git fails the test with its stderr.
// The test runs git itself, as a real child process.
#[allow(clippy::disallowed_methods)]
pub(crate) fn git(repo: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .current_dir(repo)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// An environment working in the project `proj` (a git work tree) whose user config
/// (`~/.config/hooks/hooks.yaml`, no trust needed) is `config`.
pub(crate) fn env_with(config: &str) -> Env {
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", config);
    env
}
