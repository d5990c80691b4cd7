//! Codex CLI's hook trust as `hooks::config::edit::codex_trust` computes and writes it, checked
//! against the real Codex: `codex app-server`'s `hooks/list` (JSON-RPC over stdio) gives
//! the same key and hash for every hook of `config.toml` and `hooks.json`, and `codex
//! exec` runs a guard trusted only by the `[hooks.state]` written here (no
//! `--dangerously-bypass-hook-trust`), and skips it once that trust is removed.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use hooks::config::edit::codex_trust::{
    TrustEntry, codex_home, file_trust_entries, remove_trust, write_trust,
};
use serde_json::{Value, json};

use super::{
    Agent, AgentRun, GUARD_REASON, RUN_MARK, Step, end_run, guard, read_in_thread, shell_then_done,
};

/// How long `codex app-server` may take to answer `hooks/list` (it answers in well under
/// a second).
const RPC_TIMEOUT: Duration = Duration::from_secs(30);

/// The run's `$CODEX_HOME`, spelled as Codex spells it in keys.
fn home(run: &AgentRun) -> PathBuf {
    codex_home(Some(run.codex_home().as_os_str()), None).unwrap()
}

/// The trust entries of every hook in the run's `config.toml` and `hooks.json`.
fn our_entries(run: &AgentRun) -> Vec<TrustEntry> {
    let home = home(run);
    let mut entries = file_trust_entries(&home.join("config.toml")).unwrap();
    let json = home.join("hooks.json");
    if json.exists() {
        entries.extend(file_trust_entries(&json).unwrap());
    }
    entries
}

/// Trusts every hook of the run's Codex files by writing `[hooks.state]`.
fn trust_all(run: &AgentRun) -> Vec<TrustEntry> {
    let entries = our_entries(run);
    assert!(!entries.is_empty(), "no hooks to trust");
    assert!(write_trust(&home(run).join("config.toml"), &entries).unwrap());
    entries
}

/// Codex's own list of the hooks it discovers for the run's project: `initialize`,
/// `initialized`, then `hooks/list` sent to a real `codex app-server` with the run's
/// environment; every process it started is killed after the answer, or after
/// [`RPC_TIMEOUT`], which fails the test.
fn codex_hooks_list(run: &AgentRun) -> Vec<Value> {
    // The test starts the real agent, as a real child process.
    #[allow(clippy::disallowed_methods)]
    let mut cmd = Command::new(Agent::Codex.bin());
    cmd.arg("app-server");
    run.apply_env(&mut cmd);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().expect("starting codex app-server");
    let pid = child.id();
    let stderr = read_in_thread(child.stderr.take().expect("piped stderr"));
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().expect("piped stdin");
    let project = run.project().display().to_string();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "hooks-tests", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list",
               "params": {"cwds": [project]}}),
    ] {
        writeln!(stdin, "{message}").expect("writing to codex app-server");
    }
    stdin.flush().expect("flushing codex app-server's stdin");
    let deadline = Instant::now() + RPC_TIMEOUT;
    let mut seen = Vec::new();
    let answer = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(line) = rx.recv_timeout(left) else {
            break None;
        };
        let message: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        if message["id"] == 2 {
            break Some(message);
        }
        seen.push(line);
    };
    drop(stdin);
    if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.wait();
    let left = end_run(pid as i32, &run.root().display().to_string());
    assert!(
        left.is_empty(),
        "processes {left:?} of codex app-server survived"
    );
    let Some(answer) = answer else {
        panic!(
            "codex app-server gave no hooks/list answer within {RPC_TIMEOUT:?} \
             ({RUN_MARK} run {}); it wrote:\n{}\nstderr:\n{}",
            run.root().display(),
            seen.join("\n"),
            super::collect(&stderr)
        );
    };
    let data = &answer["result"]["data"];
    assert_eq!(data.as_array().map(Vec::len), Some(1), "{answer:#}");
    assert_eq!(data[0]["errors"], json!([]), "{answer:#}");
    data[0]["hooks"]
        .as_array()
        .expect("a list of hooks")
        .clone()
}

/// `(key, hash)` of each of Codex's hooks, sorted.
fn codex_pairs(hooks: &[Value]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = hooks
        .iter()
        .map(|h| {
            (
                h["key"].as_str().expect("a key").to_owned(),
                h["currentHash"].as_str().expect("a hash").to_owned(),
            )
        })
        .collect();
    pairs.sort();
    pairs
}

fn our_pairs(entries: &[TrustEntry]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = entries
        .iter()
        .map(|e| (e.key.clone(), e.trusted_hash.clone()))
        .collect();
    pairs.sort();
    pairs
}

/// Each hook's `trustStatus`, by key.
fn statuses(hooks: &[Value]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = hooks
        .iter()
        .map(|h| {
            (
                h["key"].as_str().unwrap().to_owned(),
                h["trustStatus"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Hooks of every shape `hooks install codex` could write, and some it would not, in both
/// of Codex's files.
const CONFIG_HOOKS: &str = r#"
# The engine's bridge, as `hooks install codex` writes it.
[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "/opt/hooks/bin/hooks bridge codex"
timeout = 60

[[hooks.PreToolUse]]
matcher = "["

[[hooks.PreToolUse.hooks]]
type = "command"
command = "skipped: an invalid matcher"

[[hooks.Stop]]
matcher = "ignored by Stop"
hooks = [
  { type = "prompt" },
  { type = "command", command = "echo 'stop' \"quoted\" é", statusMessage = "Stopping", async = true },
]
"#;

#[test]
fn keys_and_hashes_equal_codex_hooks_list_and_written_trust_is_trusted() {
    let run = AgentRun::new(Agent::Codex, vec![Step::Text("Hello.".to_owned())]);
    let config = run.codex_home().join("config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(CONFIG_HOOKS);
    std::fs::write(&config, text).unwrap();
    for event in [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUse",
        "SessionEnd",
    ] {
        run.add_hook(
            event,
            Some("startup|Bash"),
            "/opt/hooks/bin/hooks bridge codex",
        );
    }
    run.add_hook("PreToolUse", None, "");
    run.add_hook("PreToolUse", Some(""), "  two  spaces\tand a tab");

    let ours = our_entries(&run);
    let listed = codex_hooks_list(&run);
    assert_eq!(our_pairs(&ours), codex_pairs(&listed));
    assert_eq!(ours.len(), 7, "{ours:#?}");
    assert!(
        statuses(&listed).iter().all(|(_, s)| s == "untrusted"),
        "{listed:#?}"
    );

    assert!(write_trust(&config, &ours).unwrap());
    let listed = codex_hooks_list(&run);
    assert_eq!(our_pairs(&ours), codex_pairs(&listed));
    assert!(
        statuses(&listed).iter().all(|(_, s)| s == "trusted"),
        "{listed:#?}"
    );

    // A changed hook is no longer trusted (Codex says `modified`); the others are.
    let json = run.hooks_file();
    let changed = std::fs::read_to_string(&json)
        .unwrap()
        .replace("two  spaces", "two spaces");
    std::fs::write(&json, changed).unwrap();
    let listed = codex_hooks_list(&run);
    let modified: Vec<String> = statuses(&listed)
        .into_iter()
        .filter(|(_, s)| s != "trusted")
        .map(|(k, s)| format!("{k} {s}"))
        .collect();
    let key = format!(
        "{}:pre_tool_use:1:0 modified",
        home(&run).join("hooks.json").display()
    );
    assert_eq!(modified, [key]);
}

/// Runs the guard against `rm -r victim` with the guard trusted by written state only;
/// `in_config`: the guard is in `config.toml` (else in `hooks.json`).
fn check_trusted_guard_blocks(in_config: bool) {
    let run = AgentRun::new(Agent::Codex, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    let command = guard(&run);
    if in_config {
        let config = run.codex_home().join("config.toml");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str(&format!(
            "\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\n\
             type = \"command\"\ncommand = {command:?}\ntimeout = 30\n"
        ));
        std::fs::write(&config, text).unwrap();
    } else {
        run.add_hook("PreToolUse", Some("Bash"), &command);
    }
    trust_all(&run);
    let out = run.run();
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "the trusted guard did not stop rm -r:\n{out}"
    );
    let result = out.tool_result();
    assert!(result.contains(GUARD_REASON), "{result}");
    assert!(run.root().join("guard.log").exists(), "{out}");
}

#[test]
fn a_guard_in_hooks_json_trusted_by_written_state_blocks_rm_r() {
    check_trusted_guard_blocks(false);
}

#[test]
fn a_guard_in_config_toml_trusted_by_written_state_blocks_rm_r() {
    check_trusted_guard_blocks(true);
}

/// Without its trust entry (written, then removed) the guard is skipped: `rm -r` runs,
/// and `config.toml` is byte for byte what it was.
#[test]
fn once_its_trust_is_removed_the_guard_is_skipped() {
    let run = AgentRun::new(Agent::Codex, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    let config = home(&run).join("config.toml");
    let before = std::fs::read_to_string(&config).unwrap();
    let entries = trust_all(&run);
    assert!(remove_trust(&config, &entries).unwrap());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
    let out = run.run();
    out.assert_success();
    assert!(
        !run.project().join("victim").exists(),
        "rm -r did not run:\n{out}"
    );
    assert!(
        !run.root().join("guard.log").exists(),
        "the untrusted guard ran:\n{out}"
    );
}
