//! The resident engine (`hooks daemon`) as the bridge meets it: a real daemon process on a
//! socket in the test's runtime directory, real bridge processes handing it their calls.
//! Every answer is compared with the answer the bridge gives on its own
//! (`HOOKS_DAEMON=off`), and the daemon's count of calls served tells which of the two
//! answered. Then what must never cost an answer: a config edited between calls, the
//! daemon killed in the middle of a call, the socket a killed daemon left, a daemon that
//! refuses, hangs or talks nonsense, a socket that is not the caller's own.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use hooks::daemon::wire::Message;
use serde_json::{Value, json};

use crate::cage::run_within;
use crate::support::{Env, clients};

/// How long one bridge call may take before the test calls it hung.
const LIMIT: Duration = Duration::from_secs(30);

/// A test home with a runtime directory for the socket, and the daemon serving it.
struct Served {
    env: Env,
    daemon: Option<Child>,
}

/// The runtime directory of `env` (made private, as a login session's is).
fn runtime(env: &Env) -> PathBuf {
    let dir = env.path().join("run");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    dir
}

fn socket(env: &Env) -> PathBuf {
    runtime(env).join("hooks/daemon.sock")
}

/// `hooks ARGS` in `env`, with its runtime directory.
fn command(env: &Env, args: &[&str]) -> std::process::Command {
    let mut cmd = env.std_command();
    cmd.args(args)
        .env("XDG_RUNTIME_DIR", runtime(env))
        .env_remove("HOOKS_DAEMON")
        .env_remove("HOOKS_DAEMON_SOCKET");
    cmd
}

/// Starts `hooks daemon run` in `env` and waits for the line it prints once it serves.
fn start(env: &Env) -> Child {
    let mut child = command(env, &["daemon", "run"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving"), "the daemon did not start: {line}");
    child
}

impl Served {
    /// A project with `config` as the user's config, and a daemon serving it.
    fn new(config: &str) -> Served {
        let env = Env::in_project();
        env.write("home/.config/hooks/hooks.yaml", config);
        let daemon = Some(start(&env));
        Served { env, daemon }
    }

    /// The daemon's state.
    fn status(&self) -> Value {
        let out = command(&self.env, &["daemon", "status", "--json"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn served(&self) -> u64 {
        self.status()["served"].as_u64().unwrap_or(0)
    }

    /// Kills the daemon with SIGKILL (its workers are left to notice).
    fn kill(&mut self) {
        let mut child = self.daemon.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = command(&self.env, &["daemon", "stop"]).output();
        if let Some(mut child) = self.daemon.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One bridge call of Claude Code in `env`: exit code, stdout, stderr.
fn bridge(env: &Env, stdin: &str, vars: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = command(env, &["bridge", "claude"]);
    cmd.current_dir(env.path().join("proj"));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let (code, stdout, stderr, _) = run_within(&mut cmd, stdin, LIMIT);
    (code.expect("the bridge call hung"), stdout, stderr)
}

/// The same call answered by the bridge alone.
fn alone(env: &Env, stdin: &str) -> (i32, String, String) {
    bridge(env, stdin, &[("HOOKS_DAEMON", "off")])
}

/// Claude Code's PreToolUse for the shell command `command`, tool call `id`.
fn pre_tool(env: &Env, command: &str, id: &str) -> String {
    json!({"session_id": "s1", "transcript_path": "/dev/null",
        "cwd": env.path().join("proj"), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": id})
    .to_string()
}

/// A guard that refuses `rm -r`, and a hook that shows the model the caller's `$GREETING`
/// and working directory.
const GUARD: &str = r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: |
      case "$(cat)" in *"rm -r"*) echo "refusing rm -r" >&2; exit 2;; esac
  - id: greet
    event: UserPromptSubmit
    command: 'echo "greeting=${GREETING:-none} dir=$(pwd)"'
"#;

fn is_deny(stdout: &str) -> bool {
    serde_json::from_str::<Value>(stdout).is_ok_and(|v| {
        v["hookSpecificOutput"]["permissionDecision"] == "deny"
            && v["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .is_some_and(|r| r.contains("refusing rm -r"))
    })
}

#[test]
fn the_daemon_answers_every_call_as_the_bridge_alone_does() {
    let served = Served::new(GUARD);
    let env = &served.env;
    let prompt = json!({"session_id": "s1", "transcript_path": "/dev/null",
        "cwd": env.path().join("proj"), "hook_event_name": "UserPromptSubmit",
        "prompt": "hi"})
    .to_string();
    let calls = [
        pre_tool(env, "ls", "t1"),
        pre_tool(env, "rm -r victim", "t2"),
        prompt,
        // An event this engine does not know, and an event that is not JSON.
        json!({"hook_event_name": "SomethingNew", "session_id": "s1"}).to_string(),
        "not json".to_owned(),
    ];
    for (n, call) in calls.iter().enumerate() {
        let before = served.served();
        let through = bridge(env, call, &[]);
        assert_eq!(served.served(), before + 1, "call {n} was not the daemon's");
        // A second tool-use id: the bridge alone must not be answered by the first's claim.
        let call = call
            .replace("\"t1\"", "\"t1b\"")
            .replace("\"t2\"", "\"t2b\"");
        assert_eq!(through, alone(env, &call), "call {n}");
    }
    assert!(is_deny(
        &bridge(env, &pre_tool(env, "rm -r x", "t3"), &[]).1
    ));
}

#[test]
fn hooks_run_with_the_callers_environment_and_directory() {
    let served = Served::new(GUARD);
    let env = &served.env;
    let prompt = json!({"session_id": "s1", "transcript_path": "/dev/null",
        "hook_event_name": "UserPromptSubmit", "prompt": "hi"})
    .to_string();
    let sub = env.path().join("proj/sub");
    std::fs::create_dir_all(&sub).unwrap();
    let context = |vars: &[(&str, &str)], dir: &Path| {
        let mut cmd = command(env, &["bridge", "claude"]);
        cmd.current_dir(dir);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let (code, stdout, _, _) = run_within(&mut cmd, &prompt, LIMIT);
        assert_eq!(code, Some(0));
        stdout
    };
    let proj = env.path().join("proj");
    let real = std::fs::canonicalize(&proj).unwrap().display().to_string();
    let one = context(&[("GREETING", "one")], &proj);
    let two = context(&[("GREETING", "two")], &proj);
    // From a folder of the project, hooks still run at its root.
    let below = context(&[("GREETING", "one")], &sub);
    let again = context(&[("GREETING", "one")], &proj);
    assert!(one.contains(&format!("greeting=one dir={real}")), "{one}");
    assert!(two.contains(&format!("greeting=two dir={real}")), "{two}");
    assert_eq!(below, one);
    assert_eq!(again, one);
    // One worker per environment and directory; the last call reused the first's.
    let status = served.status();
    assert_eq!(status["served"], 4, "{status}");
    assert_eq!(status["workers"], 3, "{status}");
}

#[test]
fn an_edited_config_is_in_force_at_the_next_call() {
    let served = Served::new("hooks: []\n");
    let env = &served.env;
    let call = |id: &str| bridge(env, &pre_tool(env, "rm -r victim", id), &[]);
    assert_eq!(call("t1"), (0, String::new(), String::new()));
    env.write("home/.config/hooks/hooks.yaml", GUARD);
    assert!(is_deny(&call("t2").1));
    // A project file waits for trust, through the daemon as without it.
    env.write("home/.config/hooks/hooks.yaml", "hooks: []\n");
    env.write(
        "proj/.hooks/hooks.yaml",
        &GUARD.replace("refusing", "project refusing"),
    );
    let untrusted = call("t3");
    assert!(!untrusted.1.contains("deny"), "{untrusted:?}");
    let file = env.path().join("proj/.hooks/hooks.yaml");
    let trust = command(env, &["trust", &file.display().to_string()])
        .output()
        .unwrap();
    assert!(trust.status.success(), "{trust:?}");
    let trusted = call("t4");
    assert!(trusted.1.contains("project refusing rm -r"), "{trusted:?}");
    assert_eq!(served.served(), 4);
}

#[test]
fn a_daemon_killed_mid_call_costs_no_answer() {
    // The guard's first run tells the test it started, then waits for the test's word.
    let env = Env::in_project();
    for fifo in ["started", "release"] {
        crate::support::mkfifo(&env, fifo);
    }
    let dir = env.path().display().to_string();
    env.write(
        "home/.config/hooks/hooks.yaml",
        &format!(
            r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: |
      input="$(cat)"
      if mkdir '{dir}/first' 2>/dev/null; then echo up > '{dir}/started'; read x < '{dir}/release'; fi
      case "$input" in *"rm -r"*) echo "refusing rm -r" >&2; exit 2;; esac
"#
        ),
    );
    let mut served = Served {
        daemon: Some(start(&env)),
        env,
    };
    let env = &served.env;
    let stdin = pre_tool(env, "rm -r victim", "t1");
    let mut cmd = command(env, &["bridge", "claude"]);
    cmd.current_dir(env.path().join("proj"));
    let call = std::thread::spawn(move || run_within(&mut cmd, &stdin, LIMIT));
    let mut up = String::new();
    std::fs::File::open(env.path().join("started"))
        .unwrap()
        .read_to_string(&mut up)
        .unwrap();
    assert_eq!(up.trim(), "up");
    served.kill();
    std::fs::OpenOptions::new()
        .write(true)
        .open(served.env.path().join("release"))
        .unwrap()
        .write_all(b"go\n")
        .unwrap();
    let (code, stdout, stderr, _) = call.join().unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(is_deny(&stdout), "{stdout} {stderr}");
}

#[test]
fn a_socket_left_by_a_killed_daemon_costs_no_answer_and_no_wait() {
    let mut served = Served::new(GUARD);
    served.kill();
    let env = &served.env;
    assert!(socket(env).exists());
    let started = Instant::now();
    let answer = bridge(env, &pre_tool(env, "rm -r victim", "t1"), &[]);
    assert!(started.elapsed() < LIMIT);
    assert!(is_deny(&answer.1), "{answer:?}");
    assert_eq!(answer, alone(env, &pre_tool(env, "rm -r victim", "t2")));
    let status = command(env, &["daemon", "status"]).output().unwrap();
    assert_eq!(status.status.code(), Some(3));
    // A new daemon takes the socket over.
    served.daemon = Some(start(env));
    bridge(env, &pre_tool(env, "ls", "t3"), &[]);
    assert_eq!(served.served(), 1);
}

/// What an impostor answers a call with.
type Answer = fn(&mut std::os::unix::net::UnixStream);

/// A way to make the socket not the caller's own, and its name.
type Spoil<'a> = (&'static str, Box<dyn Fn() + 'a>);

/// A listener at `env`'s socket that answers every connection with `answer` (after
/// reading the call), the way a daemon of another version, a hung one or a broken one
/// would; gives how many calls it took.
fn impostor(
    env: &Env,
    answer: fn(&mut std::os::unix::net::UnixStream),
) -> std::thread::JoinHandle<usize> {
    let socket = socket(env);
    std::fs::create_dir_all(socket.parent().unwrap()).unwrap();
    std::fs::set_permissions(
        socket.parent().unwrap(),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();
    let listener = UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let mut taken = 0;
        let deadline = Instant::now() + LIMIT;
        while Instant::now() < deadline {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    stream.set_nonblocking(false).unwrap();
                    if matches!(Message::read_from(&mut stream), Ok(Message::Call(_))) {
                        taken += 1;
                    }
                    answer(&mut stream);
                    // The connection stays open until the caller gives up on it.
                    let mut rest = Vec::new();
                    let _ = stream.read_to_end(&mut rest);
                    return taken;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        taken
    })
}

#[test]
fn a_daemon_that_refuses_hangs_or_talks_nonsense_costs_no_answer() {
    let answers: [(&str, Answer); 3] = [
        ("another version", |s| {
            let _ = Message::Refused {
                version: "0.0.0".into(),
                reason: "version".into(),
            }
            .write_to(s);
        }),
        ("accepted, then silent", |s| {
            let _ = Message::Accepted {
                version: hooks::daemon::VERSION.into(),
            }
            .write_to(s);
        }),
        ("nonsense", |s| {
            let _ = s.write_all(b"\x05\x00\x00\x00garbage");
        }),
    ];
    // The engine's own hand-over (`hooks bridge`), then each client's.
    let callers: Vec<Option<PathBuf>> = std::iter::once(None)
        .chain(clients().into_iter().map(Some))
        .collect();
    for ((what, answer), caller) in answers
        .iter()
        .flat_map(|a| callers.iter().map(move |c| (a, c)))
    {
        let env = Env::in_project();
        env.write("home/.config/hooks/hooks.yaml", GUARD);
        let taken = impostor(&env, *answer);
        let stdin = pre_tool(&env, "rm -r victim", "t1");
        let through = match caller {
            None => bridge(&env, &stdin, &[]),
            Some(program) => client_of(program, &env, &["claude"], &stdin, &[]),
        };
        let what = format!("{what} ({caller:?})");
        assert_eq!(
            taken.join().unwrap(),
            1,
            "{what}: the call was not handed over"
        );
        assert!(is_deny(&through.1), "{what}: {through:?}");
        assert_eq!(
            through,
            alone(&env, &pre_tool(&env, "rm -r victim", "t2")),
            "{what}"
        );
    }
}

#[test]
fn a_socket_that_is_not_the_callers_own_is_never_used() {
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", GUARD);
    let socket = socket(&env);
    let dir = socket.parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&dir).unwrap();
    let listener = UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let mut cases: Vec<Spoil<'_>> = vec![(
        "a directory others may enter",
        Box::new(|| {
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        }),
    )];
    if rustix::process::geteuid().is_root() {
        // Another user's socket in a private directory of theirs.
        cases.push((
            "another user's socket",
            Box::new(|| {
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
                std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).unwrap();
                std::os::unix::fs::chown(&socket, Some(65534), Some(65534)).unwrap();
            }),
        ));
    }
    for (what, make) in cases {
        make();
        let stdin = pre_tool(&env, "rm -r victim", "t1");
        let mut answers = vec![bridge(&env, &stdin, &[])];
        for program in clients() {
            answers.push(client_of(&program, &env, &["claude"], &stdin, &[]));
        }
        for through in answers {
            assert!(is_deny(&through.1), "{what}: {through:?}");
        }
        assert!(
            listener.accept().is_err(),
            "{what}: a bridge or client connected to a socket that is not its caller's"
        );
        let status = command(&env, &["daemon", "status"]).output().unwrap();
        assert_eq!(status.status.code(), Some(3), "{what}");
        assert!(
            String::from_utf8_lossy(&status.stdout).contains("not private")
                || String::from_utf8_lossy(&status.stdout).contains("not a socket of this user"),
            "{what}: {status:?}"
        );
    }
}

#[test]
fn two_users_daemons_each_answer_their_own() {
    let first = Served::new(GUARD);
    let second = Served::new("hooks: []\n");
    let call = |served: &Served, id: &str| {
        bridge(&served.env, &pre_tool(&served.env, "rm -r victim", id), &[])
    };
    assert!(is_deny(&call(&first, "t1").1));
    assert_eq!(call(&second, "t1"), (0, String::new(), String::new()));
    assert_eq!(first.served(), 1);
    assert_eq!(second.served(), 1);
}

#[test]
fn with_hooks_daemon_auto_the_first_call_starts_a_daemon_for_the_next() {
    let env = Env::in_project();
    env.write("home/.config/hooks/hooks.yaml", GUARD);
    let auto = [("HOOKS_DAEMON", "auto")];
    let first = bridge(&env, &pre_tool(&env, "rm -r victim", "t1"), &auto);
    assert!(is_deny(&first.1), "{first:?}");
    // The daemon it started comes up on its own time: asked until it answers (bounded).
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        let out = command(&env, &["daemon", "status", "--json"])
            .output()
            .unwrap();
        if out.status.success() || Instant::now() > deadline {
            break out;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.status.success(), "no daemon was started: {status:?}");
    let served = Served { env, daemon: None };
    let env = &served.env;
    let second = bridge(env, &pre_tool(env, "rm -r victim", "t2"), &auto);
    assert_eq!(second, first);
    assert_eq!(served.served(), 1, "the second call was not the daemon's");
}

#[cfg(target_os = "linux")]
#[test]
fn daemon_install_writes_the_user_unit_and_uninstall_removes_it() {
    let env = Env::new();
    let unit = env
        .path()
        .join("home/.config/systemd/user/agentic-hooks.service");
    let installed = command(&env, &["daemon", "install"]).output().unwrap();
    assert!(installed.status.success(), "{installed:?}");
    let text = std::fs::read_to_string(&unit).unwrap();
    let program = assert_cmd::cargo::cargo_bin("hooks");
    assert!(
        text.contains(&format!("ExecStart=\"{}\" daemon run\n", program.display())),
        "{text}"
    );
    assert!(
        String::from_utf8_lossy(&installed.stdout).contains("systemctl --user"),
        "{installed:?}"
    );
    let removed = command(&env, &["daemon", "uninstall"]).output().unwrap();
    assert!(removed.status.success(), "{removed:?}");
    assert!(!unit.exists());
}

/// `hooks-bridge ARGS` (the hook command `hooks install` writes; `program`, one of
/// [`clients`]) in `env`'s project, with its runtime directory: exit code, stdout, stderr.
fn client_of(
    program: &Path,
    env: &Env,
    args: &[&str],
    stdin: &str,
    vars: &[(&str, &str)],
) -> (i32, String, String) {
    let mut cmd = env.client_command_of(program);
    cmd.args(args)
        .current_dir(env.path().join("proj"))
        .env("XDG_RUNTIME_DIR", runtime(env))
        .env_remove("HOOKS_DAEMON")
        .env_remove("HOOKS_DAEMON_SOCKET");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let (code, stdout, stderr, _) = run_within(&mut cmd, stdin, LIMIT);
    (code.expect("the client call hung"), stdout, stderr)
}

/// The sockets of the daemon's workers in `env`.
fn worker_sockets(env: &Env) -> Vec<PathBuf> {
    let dir = socket(env).parent().unwrap().to_path_buf();
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("w-") && n.ends_with(".sock"))
        })
        .collect();
    found.sort();
    found
}

/// The client answers every call as the bridge alone does: through the daemon's worker
/// (on the worker's own socket from the second call on), and by running `hooks bridge`
/// when no daemon serves; anything it does not forward (an unknown agent, an option) is
/// the engine's answer too.
#[test]
fn the_client_answers_as_the_bridge_alone_with_or_without_a_daemon() {
    // Each client the hook command may be (cargo's, the one the packages ship).
    for program in clients() {
        let client = |env: &Env, args: &[&str], stdin: &str, vars: &[(&str, &str)]| {
            client_of(&program, env, args, stdin, vars)
        };
        let served = Served::new(GUARD);
        let env = &served.env;
        let calls = [
            pre_tool(env, "ls", "c1"),
            pre_tool(env, "rm -r victim", "c2"),
            "not json".to_owned(),
        ];
        for (n, call) in calls.iter().enumerate() {
            let before = served.served();
            let through = client(env, &["claude"], call, &[]);
            assert_eq!(served.served(), before + 1, "call {n} was not the daemon's");
            let call = call
                .replace("\"c1\"", "\"c1b\"")
                .replace("\"c2\"", "\"c2b\"");
            assert_eq!(through, alone(env, &call), "call {n}");
        }
        // The worker listens for its caller's later calls.
        assert_eq!(worker_sockets(env).len(), 1, "{:?}", worker_sockets(env));
        assert!(is_deny(
            &client(env, &["claude"], &pre_tool(env, "rm -r x", "c3"), &[]).1
        ));
        // Not forwarded: the engine answers (and refuses) as `hooks bridge` does.
        let before = served.served();
        let stdin = pre_tool(env, "rm -r x", "c4");
        for args in [
            &["nonagent"][..],
            &["--no-such-flag", "claude"],
            &["claude", "a", "b"],
        ] {
            let mut engine = command(env, &[&["bridge"][..], args].concat());
            engine.current_dir(env.path().join("proj"));
            let (code, stdout, stderr, _) = run_within(&mut engine, &stdin, LIMIT);
            let expected = (code.unwrap(), stdout, stderr);
            assert_eq!(client(env, args, &stdin, &[]), expected, "{args:?}");
        }
        assert_eq!(
            served.served(),
            before,
            "a call the client does not forward"
        );
        // HOOKS_DAEMON=off and no daemon at all: `hooks bridge` answers.
        let off = client(
            env,
            &["claude"],
            &pre_tool(env, "rm -r x", "c5"),
            &[("HOOKS_DAEMON", "off")],
        );
        assert!(is_deny(&off.1), "{off:?}");
        assert_eq!(served.served(), before);
        drop(served);
        let env = Env::in_project();
        env.write("home/.config/hooks/hooks.yaml", GUARD);
        for (n, call) in calls.iter().enumerate() {
            let through = client(&env, &["claude"], call, &[]);
            let call = call
                .replace("\"c1\"", "\"c1b\"")
                .replace("\"c2\"", "\"c2b\"");
            assert_eq!(through, alone(&env, &call), "call {n} with no daemon");
        }
    }
}

/// A worker killed (its socket left behind) costs no answer: the call goes to the daemon,
/// which starts a new worker in its place.
#[test]
fn a_killed_worker_costs_no_answer() {
    // Each client the hook command may be (cargo's, the one the packages ship).
    for program in clients() {
        let client = |env: &Env, args: &[&str], stdin: &str, vars: &[(&str, &str)]| {
            client_of(&program, env, args, stdin, vars)
        };
        let served = Served::new(GUARD);
        let env = &served.env;
        assert!(is_deny(
            &client(env, &["claude"], &pre_tool(env, "rm -r x", "k1"), &[]).1
        ));
        let sockets = worker_sockets(env);
        assert_eq!(sockets.len(), 1);
        let stream = std::os::unix::net::UnixStream::connect(&sockets[0]).unwrap();
        let peer = rustix::net::sockopt::socket_peercred(&stream).unwrap();
        drop(stream);
        let pid = rustix::process::Pid::from_raw(peer.pid.as_raw_nonzero().get()).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
        // The socket stays until a worker replaces it: no one listens there now.
        let deadline = Instant::now() + LIMIT;
        while std::os::unix::net::UnixStream::connect(&sockets[0]).is_ok() {
            assert!(Instant::now() < deadline, "the killed worker still answers");
            std::thread::yield_now();
        }
        let before = served.served();
        let answer = client(env, &["claude"], &pre_tool(env, "rm -r x", "k2"), &[]);
        assert!(is_deny(&answer.1), "{answer:?}");
        assert_eq!(
            served.served(),
            before + 1,
            "the daemon's new worker answered"
        );
        let answer = client(env, &["claude"], &pre_tool(env, "ls", "k3"), &[]);
        assert_eq!(answer, (0, String::new(), String::new()));
    }
}

/// On its socket a worker takes only its own caller's calls: the same directory and
/// environment, the same version, an agent the bridge answers; it refuses the rest.
#[test]
fn a_worker_takes_only_its_own_callers_calls() {
    // Each client the hook command may be (cargo's, the one the packages ship).
    for program in clients() {
        let client = |env: &Env, args: &[&str], stdin: &str, vars: &[(&str, &str)]| {
            client_of(&program, env, args, stdin, vars)
        };
        let served = Served::new(GUARD);
        let env = &served.env;
        let stdin = pre_tool(env, "ls", "w1");
        assert_eq!(client(env, &["claude"], &stdin, &[]).0, 0);
        let sockets = worker_sockets(env);
        assert_eq!(sockets.len(), 1);
        let ask = |call: hooks::daemon::wire::Call| {
            let mut stream = std::os::unix::net::UnixStream::connect(&sockets[0]).unwrap();
            stream.set_read_timeout(Some(LIMIT)).unwrap();
            Message::Call(Box::new(call)).write_to(&mut stream).unwrap();
            Message::read_from(&mut stream).unwrap()
        };
        // The caller's call as the client made it: its environment, read back from the
        // environment the test gave the client.
        let mut cmd = env.client_command();
        cmd.env("XDG_RUNTIME_DIR", runtime(env))
            .env_remove("HOOKS_DAEMON")
            .env_remove("HOOKS_DAEMON_SOCKET");
        let mut vars: Vec<(std::ffi::OsString, std::ffi::OsString)> = std::env::vars_os()
            .filter(|(k, _)| !cmd.get_envs().any(|(n, _)| n == k))
            .collect();
        vars.extend(
            cmd.get_envs()
                .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))),
        );
        let own = hooks::daemon::wire::Call {
            version: hooks::daemon::VERSION.to_owned(),
            program: assert_cmd::cargo::cargo_bin("hooks"),
            agent: "claude".to_owned(),
            event: None,
            cwd: std::fs::canonicalize(env.path().join("proj")).unwrap(),
            env: vars,
            stdin: pre_tool(env, "rm -r x", "w2").into_bytes(),
        };
        assert_eq!(
            hooks_client::worker_socket(&socket(env), &own.cwd, &own.env),
            sockets[0],
            "the test's call is the client's"
        );
        let answer = ask(own.clone());
        assert!(
            matches!(&answer, Message::Answer { stdout, .. } if is_deny(stdout)),
            "{answer:?}"
        );
        let mut other_env = own.clone();
        other_env.env.push(("INTRUDER".into(), "1".into()));
        let mut other_dir = own.clone();
        other_dir.cwd = env.path().to_path_buf();
        let mut other_version = own.clone();
        other_version.version = "0.0.0".to_owned();
        let mut other_agent = own.clone();
        other_agent.agent = "nonagent".to_owned();
        for (what, call) in [
            ("environment", other_env),
            ("directory", other_dir),
            ("version", other_version),
            ("agent", other_agent),
        ] {
            let answer = ask(call);
            assert!(
                matches!(answer, Message::Refused { .. }),
                "{what}: {answer:?}"
            );
        }
    }
}

/// One event called through two agents' bridges (an agent that runs another's settings
/// too), both handed to the daemon's worker: the hooks run once, and the second call
/// answers with the first's deny in its own protocol (the worker loads the config before
/// it asks whether another call answered, and asks once, when it claims the event).
#[test]
fn two_calls_of_one_event_through_the_daemon_run_the_hooks_once() {
    let log = tempfile::NamedTempFile::new().unwrap();
    let config = format!(
        r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: |
      echo ran >> '{log}'
      case "$(cat)" in *"rm -r"*) echo "refusing rm -r" >&2; exit 2;; esac
"#,
        log = log.path().display()
    );
    let served = Served::new(&config);
    let env = &served.env;
    let runs = || std::fs::read_to_string(log.path()).unwrap().lines().count();
    let call = |agent: &str, stdin: &str| {
        let mut cmd = command(env, &["bridge", agent]);
        cmd.current_dir(env.path().join("proj"));
        let (code, stdout, stderr, _) = run_within(&mut cmd, stdin, LIMIT);
        (code.expect("the bridge call hung"), stdout, stderr)
    };
    let before = served.served();
    let stdin = pre_tool(env, "rm -r victim", "fold-1");
    let (code, stdout, stderr) = call("claude", &stdin);
    assert_eq!(code, 0, "{stderr}");
    assert!(is_deny(&stdout), "{stdout}\n{stderr}");
    assert_eq!(runs(), 1);
    // Codex's call of the same event: its answer is a deny in Codex's form (exit 2, the
    // reason on stderr), from the first call's claim.
    let (code, _, stderr) = call("codex", &stdin);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("refusing rm -r"), "{stderr}");
    assert_eq!(runs(), 1, "the second call ran the hooks again");
    assert_eq!(
        served.served(),
        before + 2,
        "a call the daemon did not answer"
    );
    // Another event (another tool-use id) runs them again.
    let (_, stdout, _) = call("claude", &pre_tool(env, "rm -r victim", "fold-2"));
    assert!(is_deny(&stdout), "{stdout}");
    assert_eq!(runs(), 2);
}
