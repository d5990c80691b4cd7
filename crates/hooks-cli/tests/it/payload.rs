//! How a payload reaches `hooks run`, `explain` and `test`: JSON text, `@FILE`, a bare path
//! of an existing file, `-p -`, or piped on stdin without `-p` (an open stdin that stays
//! silent is ignored with a note, never waited on); and the `cwd` a payload without one
//! gets: the project root, which `HOOK_WORKSPACE` and the hook's working directory follow;
//! `CLAUDE_PROJECT_DIR` is the project root whatever the payload's `cwd`.

use std::sync::mpsc;
use std::time::Duration;

use crate::support::Env;
use crate::trust::run_in;

const RM: &str = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;

const GUARD: &str = r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: case "$(cat)" in *"rm -rf"*) echo refusing >&2; exit 2;; esac
"#;

#[test]
fn every_way_of_giving_a_payload() {
    // (arguments after the command's own, stdin, exit code, a line stderr must hold)
    let cases: &[(&[&str], Option<&str>, i32, &str)] = &[
        (&["-p", RM], None, 2, ""),
        (&["-p", "@rm.json"], None, 2, ""),
        (&["-p", "rm.json"], None, 2, ""),
        (&["-p", "-"], Some(RM), 2, ""),
        (&[], Some(RM), 2, ""),
        (&[], None, 0, ""),
        (&[], Some(""), 0, ""),
        (
            &["-p", "missing.json"],
            None,
            1,
            "error: the payload `missing.json` is neither JSON nor an existing file \
             (did you mean `@missing.json`? -p takes JSON text, @FILE, or - for stdin)",
        ),
        (
            &["-p", r#"{"tool_name": Bash}"#],
            None,
            1,
            "error: the payload is not valid JSON",
        ),
        (
            &["-p", "@missing.json"],
            None,
            1,
            "error: reading the payload file missing.json",
        ),
    ];
    let env = Env::new();
    env.write("hooks.yaml", GUARD);
    env.write("rm.json", RM);
    for command in [&["run", "PreToolUse"][..], &["test", "guard"]] {
        for (extra, stdin, code, stderr) in cases {
            let mut args = command.to_vec();
            args.extend_from_slice(extra);
            args.extend_from_slice(&["-c", "hooks.yaml"]);
            let run = match stdin {
                Some(text) => env.run_with_stdin(&args, text),
                None => env.run(&args),
            };
            // `hooks test` runs its sample (`ls`) when no payload is given.
            assert_eq!(run.code, *code, "{args:?} with stdin {stdin:?}: {run:?}");
            assert!(
                run.stderr.starts_with(stderr),
                "{args:?}: stderr is\n{}",
                run.stderr
            );
            // Otherwise at most a note that no hook matched the empty payload.
            if stderr.is_empty() {
                assert!(
                    run.stderr.is_empty() || run.stderr.starts_with("note: none of the 1 hook"),
                    "{args:?}: stderr is\n{}",
                    run.stderr
                );
            }
        }
    }
    // `explain` reads payloads the same way.
    let run = env.run(&["explain", "PreToolUse", "-p", "rm.json", "-c", "hooks.yaml"]);
    assert!(run.stdout.contains("1 of 1 hook would run"), "{run:?}");
}

#[test]
fn an_open_silent_stdin_is_ignored_with_a_note_not_waited_on() {
    let env = Env::new();
    env.write("hooks.yaml", GUARD);
    let mut child = env
        .std_command()
        .args(["run", "PreToolUse", "-c", "hooks.yaml"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Held open, as an agent that never writes nor closes it.
    let stdin = child.stdin.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("`hooks run` waited on an open, silent stdin")
        .unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap().lines().next(),
        Some(
            "note: stdin is not a terminal but gave nothing within 200 ms, so it was ignored \
             (pass `-p -` to wait for a payload on stdin)"
        )
    );
}

/// A hook that says where it runs: `$CLAUDE_PROJECT_DIR|$HOOK_WORKSPACE|$(pwd)`.
const WHERE: &str = r#"hooks:
  - id: where
    event: UserPromptSubmit
    command: echo "$CLAUDE_PROJECT_DIR|$HOOK_WORKSPACE|$(pwd)"
"#;

#[test]
fn a_payload_without_cwd_runs_in_the_project_root() {
    let env = Env::new();
    env.write("p/.hooks/hooks.yaml", WHERE);
    std::fs::create_dir_all(env.path().join("p/src/deep")).unwrap();
    std::fs::create_dir_all(env.path().join("elsewhere")).unwrap();
    let trust = run_in(&env, "p", &["trust", ".hooks/hooks.yaml"]);
    assert_eq!(trust.code, 0, "{trust:?}");
    let elsewhere = env.path().join("elsewhere").display().to_string();
    let with_cwd = format!(r#"{{"prompt": "hi", "cwd": "{elsewhere}"}}"#);
    // (where to run, the payload, what the hook says)
    let cases = [
        (
            "p/src/deep",
            r#"{"prompt": "hi"}"#,
            "[dir]/p|[dir]/p|[dir]/p",
        ),
        ("p", r#"{"prompt": "hi"}"#, "[dir]/p|[dir]/p|[dir]/p"),
        // The agent moved: its `cwd` is followed, but the project root stays put.
        (
            "p/src",
            with_cwd.as_str(),
            "[dir]/p|[dir]/elsewhere|[dir]/elsewhere",
        ),
    ];
    for (cwd, payload, expect) in cases {
        let run = run_in(
            &env,
            cwd,
            &["run", "UserPromptSubmit", "-p", payload, "--json"],
        );
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(
            run.json()["additional_context"],
            serde_json::json!([expect]),
            "run in {cwd} with {payload}"
        );
    }
    // `hooks test` (its sample) and `hooks replay` give the same cwd.
    let test = run_in(&env, "p/src/deep", &["test", "where", "--json"]);
    assert_eq!(
        test.json()["result"]["additional_context"],
        serde_json::json!(["[dir]/p|[dir]/p|[dir]/p"]),
        "{test:?}"
    );
    env.write(
        "p/src/s.jsonl",
        "{\"event\": \"UserPromptSubmit\", \"payload\": {\"prompt\": \"hi\"}}\n",
    );
    let replay = run_in(&env, "p/src", &["replay", "s.jsonl", "--json"]);
    assert_eq!(
        replay.json()["additional_context"],
        serde_json::json!(["[dir]/p|[dir]/p|[dir]/p"]),
        "{replay:?}"
    );
}

/// `hooks run` started outside any project, with `-c` naming a project's Claude Code
/// settings and a payload whose `cwd` is inside that project: the hook's
/// `CLAUDE_PROJECT_DIR` is that project's root, as Claude Code started there gives it,
/// not the directory `hooks run` was started in.
#[test]
fn claude_project_dir_is_the_root_of_the_events_project_when_run_from_outside_any() {
    let env = Env::new();
    env.write(
        "proj/.claude/settings.json",
        r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command",
            "command": "echo \"$CLAUDE_PROJECT_DIR|$(pwd)\""}]}]}}"#,
    );
    std::fs::create_dir_all(env.path().join("proj/sub")).unwrap();
    std::fs::create_dir_all(env.path().join("other")).unwrap();
    let sub = env.path().join("proj/sub").display().to_string();
    let payload = format!(r#"{{"session_id": "s", "source": "startup", "cwd": "{sub}"}}"#);
    let run = run_in(
        &env,
        "other",
        &[
            "run",
            "SessionStart",
            "-c",
            "../proj/.claude/settings.json",
            "-p",
            &payload,
            "--json",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.json()["additional_context"],
        serde_json::json!(["[dir]/proj|[dir]/proj/sub"]),
        "{run:?}"
    );
}
