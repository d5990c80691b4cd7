//! `hooks serve --stdio`: the framing and JSON-RPC errors spoken directly from Rust, the
//! lifecycle (shutdown, exit, end of input), concurrency, reload, and a real client
//! (vscode-jsonrpc under node) driving the built binary.

// These tests start the server binary, node, and mkfifo as real processes.
#![allow(clippy::disallowed_methods)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A loose bound on any single wait: a hang fails the test instead of blocking it.
const PATIENCE: Duration = Duration::from_secs(60);

/// How long the watch tests listen for more `hooks/didReload` notifications after one
/// arrived: ten times the server's 200 ms debounce, so that a reload setting off another
/// would show.
const QUIET: Duration = Duration::from_secs(2);

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("hooks")
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}

/// How the test frames what it sends.
#[derive(Clone, Copy)]
enum Wire {
    Headers,
    Lines,
}

/// A running `hooks serve --stdio`, read by a thread that parses each frame it writes.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    frames: Receiver<Value>,
    stderr: Option<JoinHandle<String>>,
    wire: Wire,
}

impl Server {
    fn start(config: &Path, extra: &[&str], wire: Wire) -> Server {
        let mut command = Command::new(bin());
        command
            .args(["serve", "--stdio", "-c"])
            .arg(config)
            .args(extra);
        Server::spawn(command, wire)
    }

    /// The server with a soft limit of `nofile` open descriptors (`ulimit -n`, set by the
    /// shell that then execs it).
    fn start_limited(config: &Path, nofile: u32, wire: Wire) -> Server {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!(r#"ulimit -n {nofile} && exec "$0" "$@""#))
            .arg(bin())
            .args(["serve", "--stdio", "-c"])
            .arg(config);
        Server::spawn(command, wire)
    }

    /// Starts `command` (a `hooks serve --stdio` with its arguments and environment).
    fn spawn(mut command: Command, wire: Wire) -> Server {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, frames) = channel();
        std::thread::spawn(move || read_frames(stdout, wire, &tx));
        let mut stderr = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Server {
            stdin: child.stdin.take(),
            child,
            frames,
            stderr: Some(stderr),
            wire,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let bytes = match self.wire {
            Wire::Headers => format!("Content-Length: {}\r\n\r\n{body}", body.len()),
            Wire::Lines => format!("{body}\n"),
        };
        self.send_raw(bytes.as_bytes());
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let frame = self.recv();
            if frame.get("id") == Some(&json!(id)) {
                return frame;
            }
            assert!(
                frame.get("method").is_some(),
                "an answer to another request: {frame}"
            );
        }
    }

    /// The next frame the server wrote.
    fn recv(&mut self) -> Value {
        match self.frames.recv_timeout(PATIENCE) {
            Ok(frame) => frame,
            Err(RecvTimeoutError::Timeout) => panic!("no frame within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => {
                // The reader stopped (the server closed stdout, or wrote a bad frame):
                // stop the server so that its stderr can be read to the end.
                let _ = self.child.kill();
                panic!(
                    "no more frames from the server; stderr:\n{}",
                    self.stderr
                        .take()
                        .map(|h| h.join().unwrap())
                        .unwrap_or_default()
                )
            }
        }
    }

    /// The next frame the server writes within `within`, or `None` when it writes none.
    fn recv_within(&mut self, within: Duration) -> Option<Value> {
        match self.frames.recv_timeout(within) {
            Ok(frame) => Some(frame),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("no more frames from the server"),
        }
    }

    /// Closes stdin, then collects what is left on stdout until the server exits.
    fn finish(mut self) -> (ExitStatus, Vec<Value>, String) {
        self.stdin = None;
        self.drain()
    }

    /// Collects what is left on stdout until the server exits (stdin stays as it is).
    fn drain(mut self) -> (ExitStatus, Vec<Value>, String) {
        let mut rest = Vec::new();
        loop {
            match self.frames.recv_timeout(PATIENCE) {
                Ok(frame) => rest.push(frame),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("the server did not close stdout within {PATIENCE:?}")
                }
            }
        }
        let status = self.child.wait().unwrap();
        let stderr = self.stderr.take().unwrap().join().unwrap();
        (status, rest, stderr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A failed test must not leave a server behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parses frames off the server's stdout, checking the framing strictly: every byte must
/// belong to a well-formed frame.
fn read_frames(mut out: BufReader<impl Read>, wire: Wire, tx: &std::sync::mpsc::Sender<Value>) {
    loop {
        let body = match wire {
            Wire::Lines => {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap() == 0 {
                    return;
                }
                assert!(line.ends_with('\n'), "a line without its newline: {line:?}");
                line.into_bytes()
            }
            Wire::Headers => {
                let mut header = String::new();
                if out.read_line(&mut header).unwrap() == 0 {
                    return;
                }
                let length: usize = header
                    .strip_prefix("Content-Length: ")
                    .and_then(|h| h.strip_suffix("\r\n"))
                    .unwrap_or_else(|| panic!("not a Content-Length header: {header:?}"))
                    .parse()
                    .unwrap();
                let mut blank = String::new();
                out.read_line(&mut blank).unwrap();
                assert_eq!(blank, "\r\n", "the header ends with a blank line");
                let mut body = vec![0; length];
                out.read_exact(&mut body).unwrap();
                body
            }
        };
        let value: Value = serde_json::from_slice(&body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&body)));
        // A batch's answer is an array of responses.
        let messages = match &value {
            Value::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        for message in messages {
            assert_eq!(message["jsonrpc"], "2.0", "{value}");
        }
        if tx.send(value).is_err() {
            return;
        }
    }
}

/// `bytes` framed with a Content-Length header.
fn framed(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// A temp dir with `hooks.yaml` holding `config`.
fn config_dir(config: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hooks.yaml");
    write(&file, config);
    (dir, file)
}

const GUARD: &str = r#"
hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    description: Blocks rm -rf
    command: "grep -q 'rm -rf' && { echo 'rm -rf is not allowed' >&2; exit 2; } || exit 0"
"#;

/// Replaces what changes from run to run: the temp dir, timestamps and durations.
fn scrub(value: &mut Value, dir: &Path) {
    let dir = dir.display().to_string();
    match value {
        Value::String(s) => *s = s.replace(&dir, "[dir]"),
        Value::Array(items) => items.iter_mut().for_each(|v| scrub(v, Path::new(&dir))),
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match key.as_str() {
                    "timestamp" => *v = json!("[timestamp]"),
                    "duration_ms" if v.is_number() => *v = json!("[ms]"),
                    _ => scrub(v, Path::new(&dir)),
                }
            }
        }
        _ => {}
    }
}

#[track_caller]
fn check(server: &mut Server, input: &[u8], expect: Value) {
    server.send_raw(input);
    let got = server.recv();
    assert_eq!(
        got,
        expect,
        "for input {:?}",
        String::from_utf8_lossy(input)
    );
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[test]
fn malformed_input_gets_json_rpc_errors_and_the_session_goes_on() {
    let (_dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &[], Wire::Headers);
    // The first message chooses Content-Length framing.
    check(
        &mut s,
        &framed("not json"),
        error(
            json!(null),
            -32700,
            "parse error: expected ident at line 1 column 2",
        ),
    );
    check(
        &mut s,
        b"hello there\r\n",
        error(
            json!(null),
            -32700,
            "malformed frame: expected a header like `Content-Length: 42`, found `hello there`",
        ),
    );
    check(
        &mut s,
        b"Content-Lenght: 2\r\n\r\n{}",
        error(
            json!(null),
            -32700,
            "malformed frame: a header block without `Content-Length`",
        ),
    );
    check(
        &mut s,
        b"Content-Length: many\r\n\r\n",
        error(
            json!(null),
            -32700,
            "malformed frame: `Content-Length: many` is not a byte count",
        ),
    );
    // After a malformed frame the reader finds the next header, even glued to garbage.
    check(
        &mut s,
        b"{\"x\":1}Content-Length: 51\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"hooks/lst\"}",
        error(json!("after"), -32601, "no method `hooks/lst` (did you mean `hooks/list`?)"),
    );
    check(
        &mut s,
        &framed("[]"),
        error(json!(null), -32600, "an empty batch"),
    );
    check(
        &mut s,
        &framed("42"),
        error(
            json!(null),
            -32600,
            "a message must be a JSON object, not a number",
        ),
    );
    check(
        &mut s,
        &framed(r#"{"jsonrpc":"1.0","id":1,"method":"hooks/list"}"#),
        error(json!(1), -32600, "`jsonrpc` must be \"2.0\", not \"1.0\""),
    );
    check(
        &mut s,
        &framed(r#"{"jsonrpc":"2.0","id":2}"#),
        error(json!(2), -32600, "`method` is missing"),
    );
    check(
        &mut s,
        &framed(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"hooks/list"}"#),
        error(
            json!(null),
            -32600,
            "`id` must be a string, a number or null, not an object",
        ),
    );
    check(
        &mut s,
        &framed(r#"{"jsonrpc":"2.0","id":3,"method":"hooks/list","params":"all"}"#),
        error(
            json!(3),
            -32600,
            "`params` must be an object or an array, not a string",
        ),
    );
    check(
        &mut s,
        &framed(
            r#"{"jsonrpc":"2.0","id":4,"method":"hooks/dispatch","params":{"event":"PreToolUs"}}"#,
        ),
        json!({"jsonrpc": "2.0", "id": 4, "error": {
            "code": -32602,
            "message": "unknown event `PreToolUs` (did you mean `PreToolUse`?)",
            "data": {"event": "PreToolUs", "suggestion": "PreToolUse"},
        }}),
    );
    check(
        &mut s,
        &framed(r#"{"jsonrpc":"2.0","id":5,"method":"hooks/dispatch","params":{}}"#),
        error(
            json!(5),
            -32602,
            "`hooks/dispatch` needs the parameter `event`",
        ),
    );
    check(
        &mut s,
        &framed(
            r#"{"jsonrpc":"2.0","id":6,"method":"hooks/dispatch","params":{"event":"Stop","payload":[1]}}"#,
        ),
        error(
            json!(6),
            -32602,
            "invalid hook: an event payload must be a JSON object, not an array",
        ),
    );
    check(
        &mut s,
        &framed(
            r#"{"jsonrpc":"2.0","id":7,"method":"hooks/dispatch","params":{"event":"Stop","paylod":{}}}"#,
        ),
        error(
            json!(7),
            -32602,
            "`hooks/dispatch` has no parameter `paylod` (did you mean `payload`?); it takes `event`, `payload`",
        ),
    );
    check(
        &mut s,
        &framed(r#"{"jsonrpc":"2.0","id":8,"method":"hooks/list","params":{"verbose":true}}"#),
        error(
            json!(8),
            -32602,
            "`hooks/list` has no parameter `verbose`; it takes none",
        ),
    );
    // Notifications get no answer, known or not; the next answer is the next request's.
    s.send_raw(&framed(
        r#"{"jsonrpc":"2.0","method":"workspace/didChange"}"#,
    ));
    s.send_raw(&framed(
        r#"{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}"#,
    ));
    let list = s.request(9, "hooks/list", json!({}));
    assert_eq!(
        list["result"]["events"][0]["hooks"][0]["id"], "guard",
        "{list}"
    );
    // A body cut short by the end of the input is reported, then the session ends cleanly.
    s.send_raw(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"");
    let (status, rest, stderr) = s.finish();
    assert_eq!(
        rest,
        [error(
            json!(null),
            -32700,
            "malformed frame: the input ended inside a message body (10 of 100 bytes)"
        )]
    );
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("ignored the unknown notification `workspace/didChange`"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("setTrace"),
        "`$/` notifications are ignored quietly: {stderr}"
    );
}

#[test]
fn newline_delimited_json_is_accepted_and_answered_in_kind() {
    let (_dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &[], Wire::Lines);
    check(
        &mut s,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hooks/nope\"}\n",
        error(json!(1), -32601, "no method `hooks/nope`"),
    );
    check(
        &mut s,
        b"\n\r\n{oops}\n",
        error(
            json!(null),
            -32700,
            "parse error: key must be a string at line 1 column 2",
        ),
    );
    // A batch is answered with one array; its notifications get no entry.
    s.send_raw(
        b"[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hooks/explain\",\"params\":[\"pre-tool\",{\"tool_name\":\"Edit\"}]},{\"jsonrpc\":\"2.0\",\"method\":\"noted\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}]\n",
    );
    let batch = s.recv();
    assert_eq!(
        batch,
        json!([
            {"jsonrpc": "2.0", "id": 2, "result": {
                "event": "PreToolUse",
                "subjects": [{"field": "tool_name", "value": "Edit"}],
                "runs": 0,
                "hooks": [{
                    "index": 0,
                    "id": "guard",
                    "source": batch[0]["result"]["hooks"][0]["source"],
                    "runs": false,
                    "async": false,
                    "state": "enabled",
                    "why_not": "matcher `Bash` did not match tool_name = `Edit`",
                }],
                "other_events": 0,
            }},
            {"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no method `nope`"}},
        ])
    );
    // The last line may lack its newline.
    s.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"hooks/list\"}");
    let (status, rest, _) = s.finish();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0]["id"], 4);
    assert_eq!(status.code(), Some(0));
}

#[test]
fn end_of_input_answers_what_is_in_flight_then_exits_0() {
    let (_dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &[], Wire::Headers);
    s.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "hooks/dispatch", "params": {
        "event": "PreToolUse",
        "payload": {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "t1"},
    }}));
    let (status, rest, stderr) = s.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(rest.len(), 2, "{rest:?}");
    // The event's notification is written before its answer.
    assert_eq!(rest[0]["method"], "autohand.hook.preTool");
    assert_eq!(rest[0]["params"]["toolId"], "t1");
    assert_eq!(rest[1]["id"], 1);
    assert_eq!(rest[1]["result"]["decision"], "block");
    assert_eq!(rest[1]["result"]["reason"], "rm -rf is not allowed");
}

#[test]
fn requests_are_answered_as_they_finish() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("gate");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    // The `wait` dispatch's hook blocks until the test opens the FIFO for writing; the
    // `go` dispatch's hook answers at once.
    let config = format!(
        r#"
hooks:
  - id: gate
    event: PreToolUse
    matcher: Wait
    timeout: 30
    command: "read -r _ < '{}'; echo released"
  - id: quick
    event: PreToolUse
    matcher: Go
    command: "echo quick"
"#,
        fifo.display()
    );
    let file = dir.path().join("hooks.yaml");
    write(&file, &config);
    let mut s = Server::start(&file, &[], Wire::Headers);
    for (id, tool) in [(1, "Wait"), (2, "Go")] {
        s.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "hooks/dispatch",
            "params": {"event": "PreToolUse", "payload": {"tool_name": tool}}}),
        );
    }
    // The second request is answered while the first still runs.
    let mut seen = Vec::new();
    loop {
        let frame = s.recv();
        assert_ne!(
            frame["id"], 1,
            "the blocked request was answered first: {frame}"
        );
        let done = frame["id"] == 2;
        seen.push(frame);
        if done {
            break;
        }
    }
    assert_eq!(seen.last().unwrap()["result"]["hooks"][0]["id"], "quick");
    let mut gate = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writeln!(gate, "go").unwrap();
    drop(gate);
    let first = loop {
        let frame = s.recv();
        if frame["id"] == 1 {
            break frame;
        }
        seen.push(frame);
    };
    assert_eq!(first["result"]["hooks"][0]["id"], "gate");
    assert_eq!(first["result"]["hooks"][0]["status"], "ok");
    let tools: Vec<&Value> = seen
        .iter()
        .filter(|f| f["method"] == "autohand.hook.preTool")
        .map(|f| &f["params"]["toolName"])
        .collect();
    assert_eq!(tools.len(), 2, "one notification per dispatch: {seen:?}");
    let (status, rest, _) = s.finish();
    assert_eq!((status.code(), rest), (Some(0), vec![]));
}

#[test]
fn shutdown_then_exit_ends_with_0_and_refuses_requests_in_between() {
    let (_dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &[], Wire::Headers);
    let answer = s.request(1, "shutdown", json!(null));
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 1, "result": null}));
    let refused = s.request(2, "hooks/list", json!({}));
    assert_eq!(
        refused,
        error(json!(2), -32600, "the server is shutting down")
    );
    s.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    // `exit` ends the process even though stdin stays open.
    let (status, rest, stderr) = s.drain();
    assert_eq!((status.code(), rest), (Some(0), vec![]), "{stderr}");
}

#[test]
fn exit_without_shutdown_ends_with_1() {
    let (_dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &[], Wire::Headers);
    s.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    let (status, rest, stderr) = s.drain();
    assert_eq!((status.code(), rest), (Some(1), vec![]), "{stderr}");
}

/// A config that does not load is served failing closed, and the log says why.
/// Every line `hooks serve` writes on stderr starts with its prefix, so that a host that
/// shows the server's stderr beside other logs can tell whose it is.
#[track_caller]
fn assert_prefixed(stderr: &str) {
    assert!(!stderr.is_empty(), "nothing on stderr");
    for line in stderr.lines() {
        assert!(
            line.starts_with("hooks serve: "),
            "a line without the prefix: {line:?}; stderr:\n{stderr}"
        );
    }
}

#[test]
fn a_config_that_does_not_load_is_logged_at_start() {
    let (_dir, file) = config_dir("hooks:\n  - id: x\n    event: PreToolUs\n    command: true\n");
    let out = Command::new(bin())
        .args(["serve", "--stdio", "-c"])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing but protocol on stdout");
    assert!(
        stderr.contains("hooks.yaml:3:12: warning: this named file does not load"),
        "{stderr}"
    );
    // The warning's hint is on a line of its own, prefixed too.
    assert!(stderr.contains("hooks serve:   hint: "), "{stderr}");
    assert_prefixed(&stderr);
}

/// An error that stops the server (a directory with no config in it) is on stderr with
/// the server's prefix too, and exits 1.
#[test]
fn an_error_at_start_is_prefixed_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(bin())
        .args(["serve", "--stdio", "-c"])
        .arg(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing but protocol on stdout");
    assert!(stderr.contains("holds no config files"), "{stderr}");
    assert_prefixed(&stderr);
}

#[test]
fn list_reload_and_explain_follow_the_config() {
    let (dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &[], Wire::Headers);
    let mut listed = s.request(1, "hooks/list", json!({}));
    scrub(&mut listed, dir.path());
    insta::assert_json_snapshot!("serve_list", listed);

    let more = format!(
        "{GUARD}  - id: ask-edits\n    event: PreToolUse\n    matcher: Edit\n    type: permission\n    decision: ask\n  - id: off\n    event: Stop\n    command: \"true\"\n    enabled: false\n"
    );
    write(&file, &more);
    let reloaded = s.request(2, "hooks/reload", json!(null));
    assert_eq!(
        reloaded["result"],
        json!({"status": "applied", "active": 2}),
        "{reloaded}"
    );
    let mut explained = s.request(
        3,
        "hooks/explain",
        json!({"event": "PreToolUse", "payload": {"tool_name": "Edit", "tool_input": {"file_path": "a.rs"}}}),
    );
    scrub(&mut explained, dir.path());
    insta::assert_json_snapshot!("serve_explain", explained);
    let asked = s.request(
        4,
        "hooks/dispatch",
        json!({"event": "PreToolUse", "payload": {"tool_name": "Edit"}}),
    );
    assert_eq!(asked["result"]["decision"], "ask", "{asked}");

    // A broken config is refused; the hooks in force stay.
    write(&file, "hooks:\n  - id: guard\n    evnt: PreToolUse\n");
    let mut refused = s.request(5, "hooks/reload", json!({}));
    scrub(&mut refused, dir.path());
    insta::assert_json_snapshot!("serve_reload_refused", refused);
    let still = s.request(6, "hooks/list", json!({}));
    assert_eq!(still["result"]["total"], 3, "{still}");
    let (status, _, _) = s.finish();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn watch_reloads_on_change_and_notifies() {
    let (_dir, file) = config_dir(GUARD);
    let mut s = Server::start(&file, &["--watch"], Wire::Headers);
    // A request first, so the server is surely up and watching before the edit.
    let listed = s.request(1, "hooks/list", json!({}));
    assert_eq!(listed["result"]["total"], 1);
    // Replace the file whole, as editors do, so the watcher never sees half a config.
    let next = file.with_extension("yaml.tmp");
    write(
        &next,
        &format!("{GUARD}  - id: second\n    event: Stop\n    command: \"true\"\n"),
    );
    std::fs::rename(&next, &file).unwrap();
    let note = loop {
        let frame = s.recv();
        if frame["method"] == "hooks/didReload" {
            break frame;
        }
    };
    assert_eq!(
        note["params"],
        json!({"status": "applied", "active": 2}),
        "{note}"
    );
    let listed = s.request(2, "hooks/list", json!({}));
    assert_eq!(listed["result"]["total"], 2);
    let (status, _, _) = s.finish();
    assert_eq!(status.code(), Some(0));
}

/// Replaces `path` whole with `text`, as editors save: a temporary file renamed over it.
fn replace(path: &Path, text: &str) {
    let next = path.with_extension("saving");
    write(&next, text);
    std::fs::rename(&next, path).unwrap();
}

/// The `hooks/didReload` notifications that one edit gives: waits (bounded) for the
/// first, listens [`QUIET`] for more, then sends `hooks/list` with id `marker`, whose
/// answer marks the point up to which every frame has been read. Returns the params of
/// each notification, and the answer.
fn reloads_of_one_edit(s: &mut Server, marker: i64) -> (Vec<Value>, Value) {
    let mut notes = Vec::new();
    while notes.is_empty() {
        let frame = s.recv();
        if frame["method"] == "hooks/didReload" {
            notes.push(frame["params"].clone());
        }
    }
    let until = Instant::now() + QUIET;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match s.recv_within(left) {
            Some(frame) if frame["method"] == "hooks/didReload" => {
                notes.push(frame["params"].clone());
            }
            Some(_) => {}
            None => break,
        }
    }
    s.send(&json!({"jsonrpc": "2.0", "id": marker, "method": "hooks/list"}));
    loop {
        let frame = s.recv();
        if frame["id"] == marker {
            return (notes, frame);
        }
        if frame["method"] == "hooks/didReload" {
            notes.push(frame["params"].clone());
        }
    }
}

/// A config named by a relative path is watched, and each edit, saved by rename as
/// editors do, gives exactly one `hooks/didReload`: the reload reading the files again is
/// not a change of them.
#[test]
fn watch_reloads_a_relative_config_once_per_edit() {
    let env = crate::support::Env::new();
    let file = env.write("hooks.yaml", GUARD);
    let mut command = env.std_command();
    command.args(["serve", "--stdio", "--watch", "-c", "hooks.yaml"]);
    let mut s = Server::spawn(command, Wire::Headers);
    // A request first, so the server is surely up and watching before the edit.
    let listed = s.request(1, "hooks/list", json!({}));
    assert_eq!(listed["result"]["total"], 1);
    let mut config = GUARD.to_owned();
    for (active, id) in [(2, "second"), (3, "third")] {
        config.push_str(&format!(
            "  - id: {id}\n    event: Stop\n    command: echo {id}\n"
        ));
        replace(&file, &config);
        let (notes, listed) = reloads_of_one_edit(&mut s, 10 + active);
        assert_eq!(
            notes,
            [json!({"status": "applied", "active": active})],
            "one edit, one reload"
        );
        assert_eq!(listed["result"]["total"], active, "{listed}");
    }
    let (status, _, stderr) = s.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
}

/// The repository root, where `npm ci` installs `node_modules`.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn vscode_jsonrpc_drives_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("meet");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.display();
    // The guard meets the other dispatch at a FIFO before deciding, so the two requests
    // only finish if the server runs them at the same time.
    let config = format!(
        r#"
hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    description: Blocks rm -rf
    timeout: 30
    command: |
      input=$(cat)
      case "$input" in
        *'rm -rf'*) read -r _ < '{fifo}'; echo 'rm -rf is not allowed' >&2; exit 2 ;;
        *) echo go > '{fifo}'; exit 0 ;;
      esac
  - id: context
    event: UserPromptSubmit
    command: "echo 'the tests live in tests/'"
  - id: hang
    event: Notification
    timeout: 30
    command: "exec sleep 60"
  - id: off
    event: Stop
    command: "true"
    enabled: false
"#
    );
    let file = dir.path().join("hooks.yaml");
    write(&file, &config);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node/serve_client.mjs");
    let out = match Command::new("node")
        .arg(&script)
        .env("HOOKS_BIN", bin())
        .env("HOOKS_CONFIG", &file)
        .current_dir(repo_root())
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!(
            "cannot run node ({e}): this test drives the server with vscode-jsonrpc under node. \
             Install Node.js (apt-get install nodejs npm) and run `cargo xtask peers` at the repository root"
        ),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(
        out.status.code(),
        Some(3),
        "vscode-jsonrpc is missing: run `cargo xtask peers` at the repository root\n{stderr}"
    );
    assert!(
        out.status.success(),
        "the node client failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    let mut summary: Value = serde_json::from_str(&stdout).unwrap();
    scrub(&mut summary, dir.path());
    insta::assert_json_snapshot!("serve_vscode_jsonrpc", summary);
}

/// The body of the first fenced block after `marker` in `text`.
fn block_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let rest = &text[text.find(marker).expect(marker)..];
    let fence = rest.find("```").unwrap();
    let body = fence + rest[fence..].find('\n').unwrap() + 1;
    let end = body + rest[body..].find("```").unwrap();
    &rest[body..end]
}

/// The framing example of docs/ide.md gives its body's real length.
#[test]
fn the_framing_example_of_docs_ide_md_counts_its_bytes() {
    let page = std::fs::read_to_string(repo_root().join("docs/ide.md")).unwrap();
    let example = block_after(&page, "## Framing");
    let lines: Vec<&str> = example.lines().collect();
    let [header, blank, body] = lines[..] else {
        panic!("the framing example is a header, a blank line and a body: {example:?}");
    };
    let length: usize = header
        .strip_prefix("Content-Length: ")
        .and_then(|h| h.strip_suffix(r"\r\n"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(blank, r"\r\n");
    assert_eq!(length, body.len(), "{body}");
    let _: Value = serde_json::from_str(body).unwrap();
}

#[test]
fn the_example_session_of_docs_ide_md_runs() {
    let page = std::fs::read_to_string(repo_root().join("docs/ide.md")).unwrap();
    let session = &page[page.find("## An example session").unwrap()..];
    let (_dir, file) = config_dir(block_after(session, "With `hooks.yaml`:"));
    let client: Vec<&str> = block_after(session, "Client to server").lines().collect();
    let expected: Vec<&str> = block_after(session, "Server to client:").lines().collect();

    let mut s = Server::start(&file, &[], Wire::Headers);
    let (exit, requests) = client.split_last().unwrap();
    for (i, line) in requests.iter().enumerate() {
        // The first line shows its header, with `\r\n` written out.
        let body = match line.split_once(r"\r\n\r\n") {
            Some((header, body)) => {
                assert_eq!(i, 0);
                assert_eq!(header, format!("Content-Length: {}", body.len()));
                body
            }
            None => line,
        };
        s.send_raw(&framed(body));
    }
    // As a client does, `exit` goes once `shutdown` is answered.
    let mut got = Vec::new();
    while got.last().is_none_or(|f: &Value| f["id"] != 4) {
        got.push(s.recv());
    }
    s.send_raw(&framed(exit));
    let (status, rest, stderr) = s.drain();
    assert_eq!((status.code(), rest), (Some(0), vec![]), "{stderr}");

    let got: Vec<String> = got.iter().map(Value::to_string).collect();
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for line in &expected {
        // `...` ends what the page shows of a message.
        let shown = line.split("...").next().unwrap();
        assert!(
            got.iter().any(|g| if shown.len() < line.len() {
                g.starts_with(shown)
            } else {
                g == line
            }),
            "no answer reads `{line}`; the answers:\n{}",
            got.join("\n")
        );
    }
    // The event's notification comes before its dispatch's answer.
    let position = |needle: &str| got.iter().position(|g| g.contains(needle)).unwrap();
    assert!(position("autohand.hook.preTool") < position(r#""id":2,"#));
}

#[test]
fn a_client_that_reads_gets_every_answer_and_notification() {
    let (_dir, file) = config_dir(
        "hooks:\n  - id: allow-bash\n    event: PreToolUse\n    matcher: Bash\n    type: permission\n    decision: allow\n",
    );
    let mut s = Server::start(&file, &[], Wire::Headers);
    // Requests are sent all at once while the answers are read: the server must neither
    // lose notifications nor answers when it produces faster than the client reads.
    let n = 2000;
    let mut batch = Vec::new();
    for id in 0..n {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "hooks/dispatch", "params": {
            "event": "PreToolUse", "payload": {"tool_name": "Bash", "tool_use_id": format!("t{id}")}}})
        .to_string();
        batch.extend_from_slice(&framed(&body));
    }
    let mut stdin = s.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&batch).unwrap();
        stdin
    });
    let (mut answers, mut notes) = (0, 0);
    while answers < n {
        let frame = s.recv();
        if frame["result"]["decision"] == "allow" {
            answers += 1;
        } else if frame["method"] == "autohand.hook.preTool" {
            notes += 1;
        } else {
            panic!("unexpected: {frame}");
        }
    }
    s.stdin = Some(writer.join().unwrap());
    let (status, rest, stderr) = s.finish();
    notes += rest.len();
    assert_eq!((answers, notes), (n, n as usize), "{stderr}");
    assert_eq!(status.code(), Some(0));
    assert!(!stderr.contains("dropped"), "{stderr}");
}

/// The next `n` answers (frames with an `id`; notifications are skipped), by id.
fn answers(s: &mut Server, n: usize) -> std::collections::BTreeMap<i64, Value> {
    let mut got = std::collections::BTreeMap::new();
    while got.len() < n {
        let frame = s.recv();
        if let Some(id) = frame["id"].as_i64() {
            got.insert(id, frame);
        }
    }
    got
}

#[test]
fn running_out_of_descriptors_never_lets_a_fail_open_guard_pass() {
    // Eight fail-open guards (distinct, so none is merged), each denying `rm -rf`, and 64
    // events in flight at once under `ulimit -n 1024`: 512 hooks want 3,000 descriptors.
    let mut config = String::from("hooks:\n");
    for i in 0..8 {
        config.push_str(&format!(
            "  - id: guard-{i}\n    event: PreToolUse\n    matcher: Bash\n    timeout: 60\n    \
             command: \"grep -q 'rm -rf' && {{ echo 'denied by {i}' >&2; exit 2; }} || exit 0\"\n"
        ));
    }
    let (_dir, file) = config_dir(&config);
    let mut s = Server::start_limited(&file, 1024, Wire::Lines);
    let mut all = String::new();
    for id in 0..64 {
        all.push_str(
            &json!({"jsonrpc": "2.0", "id": id, "method": "hooks/dispatch", "params": {
            "event": "PreToolUse",
            "payload": {"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}}})
            .to_string(),
        );
        all.push('\n');
    }
    s.send_raw(all.as_bytes());
    let got = answers(&mut s, 64);
    for (id, answer) in &got {
        let result = &answer["result"];
        assert_eq!(
            result["decision"], "block",
            "event {id} proceeded: {answer:#}"
        );
        let hooks = result["hooks"].as_array().unwrap();
        assert_eq!(hooks.len(), 8, "{answer:#}");
        for hook in hooks {
            assert_eq!(hook["failure"], Value::Null, "event {id}: {hook:#}");
        }
    }
    let (status, _, stderr) = s.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
}

#[test]
fn each_request_of_a_batch_counts_against_the_in_flight_limit() {
    const REQUESTS: usize = 130;
    const IN_FLIGHT: usize = 64;
    let dir = tempfile::tempdir().unwrap();
    for sub in ["run", "seen", "gate"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
    }
    let gates: Vec<PathBuf> = (0..REQUESTS)
        .map(|i| dir.path().join("gate").join(i.to_string()))
        .collect();
    assert!(
        Command::new("mkfifo")
            .args(&gates)
            .status()
            .unwrap()
            .success()
    );
    // Each hook marks itself running, records how many run with it, then waits for its
    // gate; it unmarks itself before it exits.
    let config = r#"
hooks:
  - id: gate
    event: UserPromptSubmit
    timeout: 120
    command: 'i=$HOOK_INSTRUCTION; mkdir run/$i && ls run | wc -l > seen/$i.tmp && mv seen/$i.tmp seen/$i && cat gate/$i > /dev/null; rmdir run/$i'
"#;
    let file = dir.path().join("hooks.yaml");
    write(&file, config);
    // The process's budget of command hooks (32 at once by default) would bind before the
    // server's limit does; raised, the hooks running at once are the requests in flight.
    let mut command = Command::new(bin());
    command
        .args(["serve", "--stdio", "-c"])
        .arg(&file)
        .env("HOOKS_MAX_PROCESSES", REQUESTS.to_string());
    let mut s = Server::spawn(command, Wire::Lines);
    let cwd = dir.path().to_str().unwrap();
    let batch: Vec<Value> = (0..REQUESTS)
        .map(|i| {
            json!({"jsonrpc": "2.0", "id": i, "method": "hooks/dispatch", "params": {
                "event": "UserPromptSubmit", "payload": {"prompt": i.to_string(), "cwd": cwd}}})
        })
        .collect();
    s.send(&Value::Array(batch));

    let started = || -> Vec<usize> {
        std::fs::read_dir(dir.path().join("seen"))
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().to_str()?.parse().ok())
            .collect()
    };
    let deadline = std::time::Instant::now() + PATIENCE;
    let mut released = std::collections::BTreeSet::new();
    while released.len() < REQUESTS {
        // Let the limit fill before opening gates, so that the hooks see the most that
        // the server lets run at once.
        let now = started();
        let waiting = now.len() - released.len();
        if waiting < IN_FLIGHT.min(REQUESTS - released.len()) {
            assert!(
                std::time::Instant::now() < deadline,
                "only {} of {REQUESTS} hooks started, {} released",
                now.len(),
                released.len()
            );
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        for i in now {
            if released.insert(i) {
                open_gate(&gates[i]);
            }
        }
    }
    // The events' notifications come first; one array answers the batch.
    let answer = loop {
        let frame = s.recv();
        if frame.get("method").is_none() {
            break frame;
        }
    };
    let answers = answer.as_array().expect("one array answers the batch");
    assert_eq!(answers.len(), REQUESTS);
    assert!(
        answers
            .iter()
            .all(|a| a["result"]["hooks"][0]["status"] == "ok"),
        "{answer:#}"
    );
    let most = (0..REQUESTS)
        .map(|i| {
            let seen = std::fs::read_to_string(dir.path().join("seen").join(i.to_string()));
            seen.unwrap().trim().parse::<usize>().unwrap()
        })
        .max()
        .unwrap();
    assert_eq!(
        most, IN_FLIGHT,
        "at most {IN_FLIGHT} requests of the batch run at once"
    );
    let (status, _, stderr) = s.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
}

/// Opens the FIFO a hook is about to read (bounded: a hook that never opens it fails the
/// test rather than hanging it).
fn open_gate(gate: &Path) {
    let gate = gate.to_owned();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let opened = std::fs::OpenOptions::new().write(true).open(&gate);
        let _ = tx.send(opened.map(drop));
    });
    rx.recv_timeout(PATIENCE)
        .expect("a hook never opened its gate")
        .unwrap();
}

/// A project whose `.hooks/hooks.yaml` (discovered, so it needs trust) blocks every Bash
/// command, with the test's own home and trust store.
fn trust_project() -> crate::support::Env {
    let env = crate::support::Env::new();
    env.write(
        ".hooks/hooks.yaml",
        "hooks:\n  - id: project-block\n    event: PreToolUse\n    matcher: Bash\n    command: \"echo 'blocked by the project' >&2; exit 2\"\n",
    );
    env
}

/// `hooks serve --stdio` (and `extra`) discovering the config of `env`'s project.
fn serve_in(env: &crate::support::Env, extra: &[&str]) -> Server {
    let mut command = env.std_command();
    command.args(["serve", "--stdio"]).args(extra);
    Server::spawn(command, Wire::Headers)
}

/// The decision of a Bash PreToolUse dispatched now.
fn bash_decision(server: &mut Server, id: i64) -> Value {
    let answer = server.request(
        id,
        "hooks/dispatch",
        json!({"event": "PreToolUse", "payload": {"tool_name": "Bash", "tool_input": {"command": "ls"}}}),
    );
    answer["result"]["decision"].clone()
}

/// Runs `hooks trust ARGS` in the project, as a user would in another terminal.
fn trust(env: &crate::support::Env, args: &[&str]) {
    let run = env.run(&[&["trust"], args].concat());
    assert_eq!(run.code, 0, "{run:?}");
}

/// Grants and revocations made with `hooks trust` while the server runs take effect at the
/// next reload: the trust store is read again, not kept from the start.
#[test]
fn reload_reads_trust_revoked_and_granted_since_start() {
    let env = trust_project();
    trust(&env, &[".hooks/hooks.yaml"]);
    let mut s = serve_in(&env, &[]);
    assert_eq!(bash_decision(&mut s, 1), "block", "trusted at start");

    trust(&env, &["--revoke", ".hooks/hooks.yaml"]);
    let reloaded = s.request(2, "hooks/reload", json!({}));
    assert_eq!(reloaded["result"]["status"], "applied", "{reloaded}");
    assert_eq!(
        bash_decision(&mut s, 3),
        "none",
        "revoked: the hook no longer runs"
    );
    let listed = s.request(4, "hooks/list", json!({}));
    assert_eq!(listed["result"]["enabled"], 0, "{listed}");

    trust(&env, &[".hooks/hooks.yaml"]);
    let reloaded = s.request(5, "hooks/reload", json!({}));
    assert_eq!(reloaded["result"]["status"], "applied", "{reloaded}");
    assert_eq!(bash_decision(&mut s, 6), "block", "trusted again");
    let (status, _, _) = s.finish();
    assert_eq!(status.code(), Some(0));
}

/// With `--watch`, revoking a grant reloads by itself: the trust store is watched too.
#[test]
fn watch_applies_a_revoked_grant() {
    let env = trust_project();
    trust(&env, &[".hooks/hooks.yaml"]);
    let mut s = serve_in(&env, &["--watch"]);
    assert_eq!(bash_decision(&mut s, 1), "block", "trusted at start");
    trust(&env, &["--revoke", ".hooks/hooks.yaml"]);
    let note = loop {
        let frame = s.recv();
        if frame["method"] == "hooks/didReload" {
            break frame;
        }
    };
    assert_eq!(note["params"]["status"], "applied", "{note}");
    assert_eq!(
        bash_decision(&mut s, 2),
        "none",
        "revoked: the hook no longer runs"
    );
    let (status, _, _) = s.finish();
    assert_eq!(status.code(), Some(0));
}

/// An edit to a trusted project file leaves its changed hook waiting for trust: the
/// `hooks/didReload` names the file and the command that trusts it again, and so does
/// stderr. One edit, one notification, though the trust store is watched too.
#[test]
fn watch_says_when_an_edit_leaves_a_discovered_file_untrusted() {
    let env = trust_project();
    trust(&env, &[".hooks/hooks.yaml"]);
    let mut s = serve_in(&env, &["--watch"]);
    assert_eq!(bash_decision(&mut s, 1), "block", "trusted at start");
    replace(
        &env.path().join(".hooks/hooks.yaml"),
        "hooks:\n  - id: project-block\n    event: PreToolUse\n    matcher: Bash\n    command: \"echo 'edited' >&2; exit 2\"\n",
    );
    let (notes, _) = reloads_of_one_edit(&mut s, 2);
    assert_eq!(
        notes,
        [json!({"status": "applied", "active": 0, "untrusted": [{
            "file": ".hooks/hooks.yaml",
            "hooks": 1,
            "command": "hooks trust .hooks/hooks.yaml",
        }]})],
        "one edit, one reload, saying what waits for trust"
    );
    assert_eq!(bash_decision(&mut s, 3), "none", "the edited hook waits");
    let (status, _, stderr) = s.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "hooks serve: .hooks/hooks.yaml: 1 hook waits for trust; run `hooks trust .hooks/hooks.yaml`"
        ),
        "{stderr}"
    );
    assert_prefixed(&stderr);
}

/// `shutdown` answers once the requests read before it have answered, refusing those
/// that come while it waits; `exit` cancels what still runs, which is answered `-32800`
/// before the process ends.
#[test]
fn shutdown_waits_for_requests_in_flight_and_exit_cancels_them() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("gate");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let config = format!(
        "hooks:\n  - id: gate\n    event: PreToolUse\n    matcher: Wait\n    timeout: 30\n    command: \"read -r _ < '{}'; echo released\"\n",
        fifo.display()
    );
    let file = dir.path().join("hooks.yaml");
    write(&file, &config);
    let wait = json!({"jsonrpc": "2.0", "id": 1, "method": "hooks/dispatch",
        "params": {"event": "PreToolUse", "payload": {"tool_name": "Wait"}}});

    let mut s = Server::start(&file, &[], Wire::Headers);
    s.send(&wait);
    s.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    // Asked while `shutdown` waits: refused at once.
    let refused = s.request(3, "hooks/list", json!({}));
    assert_eq!(
        refused,
        error(json!(3), -32600, "the server is shutting down")
    );
    open_gate(&fifo);
    let mut answers = Vec::new();
    while answers.len() < 2 {
        let frame = s.recv();
        if frame.get("id").is_some() {
            answers.push(frame);
        }
    }
    assert_eq!(
        answers[0]["id"], 1,
        "the dispatch answers first: {answers:?}"
    );
    assert_eq!(answers[0]["result"]["hooks"][0]["status"], "ok");
    assert_eq!(
        answers[1],
        json!({"jsonrpc": "2.0", "id": 2, "result": null})
    );
    s.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    let (status, rest, stderr) = s.drain();
    assert_eq!((status.code(), rest), (Some(0), vec![]), "{stderr}");

    let mut s = Server::start(&file, &[], Wire::Headers);
    s.send(&wait);
    // Its notification says the dispatch is under way.
    while s.recv()["method"] != "autohand.hook.preTool" {}
    s.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    let (status, rest, stderr) = s.drain();
    assert_eq!(status.code(), Some(1), "exit without shutdown: {stderr}");
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(rest[0]["id"], 1);
    assert_eq!(rest[0]["error"]["code"], -32800, "{rest:?}");
}
