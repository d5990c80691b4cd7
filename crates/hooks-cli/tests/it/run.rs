//! `hooks run`: one event through the hooks, its outcome and its exit code.

use insta::{assert_json_snapshot, assert_snapshot};

use crate::support::{Env, POLICY};

#[track_caller]
fn check(args: &[&str], code: i32) -> crate::support::Run {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-c", "hooks.yaml"]);
    let run = env.run(&all);
    assert_eq!(run.code, code, "{run:?}");
    run
}

#[test]
fn a_rewrite_proceeds_with_exit_0() {
    let run = check(
        &[
            "PreToolUse",
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"npm test"}}"#,
        ],
        0,
    );
    assert_snapshot!(run.stdout);
}

#[test]
fn a_block_exits_2_and_json_has_the_contract_keys() {
    let run = check(
        &[
            "pre-tool",
            "--json",
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}"#,
        ],
        2,
    );
    let json = run.json();
    for key in [
        "event",
        "decision",
        "continue",
        "stop_reason",
        "updated_input",
        "additional_context",
        "system_message",
        "messages",
        "hooks",
    ] {
        assert!(json.get(key).is_some(), "missing `{key}` in {json}");
    }
    for key in [
        "id",
        "source",
        "status",
        "exit_code",
        "duration_ms",
        "decision",
        "truncated",
    ] {
        assert!(json["hooks"][0].get(key).is_some(), "missing hooks[].{key}");
    }
    assert_eq!(run.stdout.lines().count(), 1, "exactly one object");
    assert_json_snapshot!(json);
}

#[test]
fn a_crashing_hook_fails_open_and_is_reported() {
    let run = check(&["Stop", "--json"], 0);
    assert_json_snapshot!(run.json());
}

#[test]
fn context_from_a_prompt_hook() {
    let run = check(&["UserPromptSubmit", "-p", r#"{"prompt":"hi"}"#], 0);
    assert_snapshot!(run.stdout);
}

#[test]
fn no_hook_matched() {
    let run = check(&["SessionStart", "--json"], 0);
    assert_eq!(run.json()["hooks"], serde_json::json!([]));
    assert_eq!(run.json()["decision"], "none");
}

#[test]
fn the_payload_can_come_from_stdin() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let run = env.run_with_stdin(
        &["run", "PreToolUse", "-c", "hooks.yaml", "-p", "-", "--json"],
        r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x"}}"#,
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.json()["reason"], "refusing rm -rf");
}

#[test]
fn the_payload_can_come_from_a_file() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    env.write(
        "event.json",
        r#"{"tool_name":"Bash","tool_input":{"command":"npm ci"}}"#,
    );
    let run = env.run(&[
        "run",
        "PreToolUse",
        "-c",
        "hooks.yaml",
        "-p",
        "@event.json",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["updated_input"]["command"], "bun test");
}

/// A config file that does not load is not an error: see `policy.rs`, where it blocks.
#[test]
fn errors_exit_1() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let cases: &[(&[&str], &str)] = &[
        (
            &["run", "PreToolUze", "-c", "hooks.yaml"],
            "did you mean `PreToolUse`?",
        ),
        (
            &["run", "PreToolUse", "-c", "hooks.yaml", "-p", "{nope"],
            "not valid JSON",
        ),
        (
            &["run", "PreToolUse", "-c", "hooks.yaml", "-p", "[1]"],
            "must be a JSON object",
        ),
    ];
    for (args, expect) in cases {
        let run = env.run(args);
        assert_eq!(run.code, 1, "{args:?}: {run:?}");
        assert!(run.stderr.contains(expect), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
}

/// Guards on paths see through `.`, `..`, the absolute form and a symlinked working
/// directory, and an exclude cannot be escaped with `..`: every spelling of a guarded file
/// is blocked, end to end through `hooks run`.
#[test]
fn path_guards_see_every_spelling_of_a_path() {
    let env = Env::new();
    env.write("repo/secrets/key", "hunter2\n");
    env.write("repo/src/generated/g.ts", "");
    env.write(
        "hooks.yaml",
        r#"hooks:
  - id: secrets-guard
    event: PreToolUse
    matcher: Edit
    filter: { path: ["secrets/**"] }
    command: echo "secrets are off limits" >&2; exit 2
  - id: review-src
    event: PreToolUse
    matcher: Edit
    filter: { path: ["src/**", "!src/generated/**"] }
    command: echo "src needs review" >&2; exit 2
  - id: no-reading-secrets
    event: PreToolUse
    matcher: Read
    if: "Read(secrets/**)"
    command: echo "secrets are unreadable" >&2; exit 2
"#,
    );
    let repo = env.path().join("repo");
    let link = env.path().join("link");
    std::os::unix::fs::symlink(&repo, &link).unwrap();
    let (repo, link) = (repo.to_str().unwrap(), link.to_str().unwrap());
    // (tool, file_path, cwd, the reason it is blocked, or None when it proceeds)
    let cases: &[(&str, String, &str, Option<&str>)] = &[
        (
            "Edit",
            "secrets/key".into(),
            repo,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            "./secrets/key".into(),
            repo,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            "lib/../secrets/key".into(),
            repo,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            format!("{repo}/secrets/key"),
            repo,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            format!("{repo}/./secrets/key"),
            repo,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            format!("{link}/./secrets/key"),
            link,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            format!("{link}/lib/../secrets/key"),
            link,
            Some("secrets are off limits"),
        ),
        (
            "Edit",
            "src/generated/../a.ts".into(),
            repo,
            Some("src needs review"),
        ),
        (
            "Edit",
            format!("{repo}/src/generated/../a.ts"),
            repo,
            Some("src needs review"),
        ),
        ("Edit", "src/generated/g.ts".into(), repo, None),
        ("Edit", "lib/key".into(), repo, None),
        (
            "Read",
            "lib/../secrets/key".into(),
            repo,
            Some("secrets are unreadable"),
        ),
        (
            "Read",
            format!("{repo}/./secrets/key"),
            repo,
            Some("secrets are unreadable"),
        ),
    ];
    for (tool, path, cwd, reason) in cases {
        let payload = serde_json::json!({
            "tool_name": tool,
            "tool_input": {"file_path": path},
            "cwd": cwd,
        })
        .to_string();
        let run = env.run(&[
            "run",
            "PreToolUse",
            "-c",
            "hooks.yaml",
            "-p",
            &payload,
            "--json",
        ]);
        let expect_code = if reason.is_some() { 2 } else { 0 };
        assert_eq!(run.code, expect_code, "{tool} `{path}` in `{cwd}`: {run:?}");
        assert_eq!(
            run.json()["reason"].as_str(),
            *reason,
            "{tool} `{path}` in `{cwd}`"
        );
    }
}

#[test]
fn sequential_true_runs_the_events_hooks_as_a_pipeline() {
    // The second hook sees the first one's rewrite, and rewrites it again; run side by
    // side instead, it would see `npm test` and block.
    let env = Env::new();
    env.write(
        "hooks.yaml",
        r#"hooks:
  - event: PreToolUse
    matcher: Bash
    sequential: true
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"bun test"}}}'
  - event: PreToolUse
    matcher: Bash
    sequential: true
    command: |
      case "$(cat)" in
        *'"command":"bun test"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"bun test --bail"}}}' ;;
        *) echo "saw the input before the rewrite" >&2; exit 2 ;;
      esac
"#,
    );
    let run = env.run(&[
        "run",
        "PreToolUse",
        "-c",
        "hooks.yaml",
        "--json",
        "-p",
        r#"{"tool_name":"Bash","tool_input":{"command":"npm test"}}"#,
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.json()["updated_input"],
        serde_json::json!({"command": "bun test --bail"})
    );
}

#[test]
fn refusals_and_missing_setup_have_their_own_failure_kinds() {
    // No bubblewrap on PATH, no prompt evaluator in the command line, and a URL (allowed by
    // the file's trust) where nothing listens: three hooks that cannot run, each saying why
    // once.
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:
  - {id: boxed, event: Stop, command: 'true', sandbox: true}
  - {id: judge, event: Stop, prompt: Is it done?}
  - {id: post, event: Stop, url: 'http://127.0.0.1:1/x'}
",
    );
    std::fs::create_dir_all(env.path().join("empty")).unwrap();
    let run = env.finish(env.command().env("PATH", env.path().join("empty")).args([
        "run",
        "Stop",
        "-c",
        "hooks.yaml",
        "--json",
    ]));
    assert_eq!(run.code, 0, "{run:?}");
    let failures: Vec<(String, String, String)> = run.json()["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let message = h["failure"]["message"].as_str().unwrap();
            // A transport failure goes on with the system's words for it.
            let message = match message.split_once(": client error") {
                Some((start, _)) if h["id"] == "post" => start,
                _ => message,
            };
            (
                h["id"].as_str().unwrap().to_owned(),
                h["failure"]["kind"].as_str().unwrap().to_owned(),
                message.to_owned(),
            )
        })
        .collect();
    let want = [
        (
            "boxed",
            "spawn",
            "cannot sandbox the hook: `bwrap` (bubblewrap) is not installed: install it \
             (`apt-get install bubblewrap`) or run the hook with `sandbox = false`",
        ),
        (
            "judge",
            "not_configured",
            "this prompt hook asks a model, but the host configured no prompt evaluator",
        ),
        (
            "post",
            "transport",
            "POST http://127.0.0.1:1/x: error sending request",
        ),
    ];
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
        .collect();
    assert_eq!(failures, want);
}

/// The echo-agent guard of the seed, `${SKILL_DIR}/validate.sh` (a script that exits 2),
/// named by a bare file name from its own folder, blocks: `${SKILL_DIR}` is that folder,
/// not the empty string (which made the command `/validate.sh`, failing open).
#[test]
fn skill_dir_of_a_bare_file_name_is_the_current_directory() {
    let guard = r#"hooks:
  PreToolUse:
    - matcher: "Bash"
      hooks:
        - type: command
          command: "${SKILL_DIR}/validate.sh"
          timeout: 5
"#;
    for (name, text) in [
        (
            "SKILL.md",
            format!("---\nname: guard\n{guard}---\n\n# guard\n"),
        ),
        ("echo-agent.yaml", guard.to_owned()),
    ] {
        let env = Env::new().in_dir("skill");
        env.write(&format!("skill/{name}"), &text);
        let script = env.write(
            "skill/validate.sh",
            "#!/bin/sh\necho 'refused by validate.sh' >&2\nexit 2\n",
        );
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let run = env.run(&[
            "run",
            "PreToolUse",
            "-c",
            name,
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
            "--json",
        ]);
        assert_eq!(run.code, 2, "{name}: {run:?}");
        assert!(
            run.stdout.contains("refused by validate.sh"),
            "{name}: {run:?}"
        );
    }
}

/// An async hook never delays the answer: the outcome is printed (and flushed) while the
/// async hook still waits on a FIFO the test opens only after reading that outcome; the
/// process then lets the async hook finish before it exits.
#[cfg(unix)]
#[test]
fn async_hooks_never_delay_the_printed_outcome() {
    use std::io::{BufRead, Write};
    use std::process::Stdio;
    use std::sync::mpsc;
    use std::time::Duration;

    const BOUND: Duration = Duration::from_secs(15);
    let env = Env::new();
    crate::support::mkfifo(&env, "gate");
    let fifo = env.path().join("gate");
    let done = env.path().join("done");
    env.write(
        "hooks.yaml",
        &format!(
            r#"hooks:
  - id: slow-log
    event: PreToolUse
    async: true
    timeout: 30
    command: "read -r _ < '{}'; echo ran > '{}'"
"#,
            fifo.display(),
            done.display()
        ),
    );
    let mut child = env
        .std_command()
        .args(["run", "PreToolUse", "-c", "hooks.yaml", "--json"])
        .args([
            "-p",
            r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (line_tx, line_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let read = std::io::BufReader::new(stdout).read_line(&mut line);
        line_tx.send(read.map(|_| line)).unwrap();
    });
    let printed = line_rx.recv_timeout(BOUND);
    // Releasing the async hook (in a thread: opening a FIFO blocks until its reader does).
    let (gate_tx, gate_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut gate = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        writeln!(gate, "go").unwrap();
        gate_tx.send(()).unwrap();
    });
    let line = printed
        .expect("the outcome was not printed while the async hook was still running")
        .unwrap();
    let outcome: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(outcome["event"], "PreToolUse", "{outcome}");
    gate_rx
        .recv_timeout(BOUND)
        .expect("the async hook never opened its FIFO");
    let (exit_tx, exit_rx) = mpsc::channel();
    std::thread::spawn(move || exit_tx.send(child.wait().unwrap()).unwrap());
    let status = exit_rx
        .recv_timeout(BOUND)
        .expect("the process did not exit");
    assert_eq!(status.code(), Some(0));
    // The process waited for the async hook before exiting.
    assert_eq!(std::fs::read_to_string(&done).unwrap(), "ran\n");
}

/// Each `hooks run` is a process of its own, as each of an agent's hook calls is; the
/// stop-loop counts of a session are kept in the state store (`HOOKS_STATE_DIR`), so the
/// cap holds across invocations: 8 consecutive blocks keep the agent going, the ninth is
/// overridden and says why, and the streak then starts again.
#[test]
fn the_stop_loop_cap_holds_across_invocations() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - id: never-done\n    event: Stop\n    command: echo 'tests still fail' >&2; exit 2\n",
    );
    let state = env.path().join("state");
    let stop = |session: &str| {
        let payload = format!(r#"{{"session_id":"{session}","stop_hook_active":true}}"#);
        env.finish(
            env.command()
                .args(["run", "Stop", "--json", "-c", "hooks.yaml", "-p", &payload])
                .env("HOOKS_STATE_DIR", &state)
                .env_remove("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"),
        )
    };
    for block in 1..=8 {
        let run = stop("s1");
        assert_eq!(run.code, 2, "block {block}: {run:?}");
        assert_eq!(run.json()["decision"], "block", "block {block}: {run:?}");
    }
    // Another session has a streak of its own.
    assert_eq!(stop("s2").code, 2);
    let run = stop("s1");
    assert_eq!(run.code, 0, "the ninth block must be overridden: {run:?}");
    let outcome = run.json();
    assert_eq!(outcome["decision"], "none", "{outcome}");
    let messages = outcome["messages"].to_string();
    assert!(
        messages.contains("stop-loop cap: the Stop hooks blocked 9 consecutive times"),
        "{outcome}"
    );
    // The human output says it too.
    let payload = r#"{"session_id":"s3","stop_hook_active":true}"#;
    let human = |env: &Env| {
        env.finish(
            env.command()
                .args(["run", "Stop", "-c", "hooks.yaml", "-p", payload])
                .env("HOOKS_STATE_DIR", &state)
                .env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "1"),
        )
    };
    assert_eq!(human(&env).code, 2);
    let run = human(&env);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("stop-loop cap"), "{run:?}");
    // After the cap the streak starts again.
    for _ in 0..3 {
        assert_eq!(stop("s1").code, 2);
    }
}
