//! `hooks replay`: the README's main job (the example session through the example configs)
//! and malformed sessions.

use insta::assert_snapshot;

use crate::support::{Env, POLICY};

/// The README's first command: replaying `examples/session.jsonl` through the configs in
/// `examples/session/` prints per event what fired and what was decided, then a summary.
#[test]
fn the_example_session_replays_through_the_example_configs() {
    let env = Env::in_workspace();
    let run = env.run(&["replay", "examples/session.jsonl", "-c", "examples/session"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "");
    assert_snapshot!(run.stdout);
    // The one hook failure is the deliberate fail-open demonstration, and says so.
    let failures = run.stdout.split("  hook failures:\n").nth(1).unwrap();
    assert_eq!(
        failures.lines().collect::<Vec<_>>(),
        [
            "    #16 Notification `fail-open-demo`: POST http://127.0.0.1:9/hooks/notification: \
             error sending request: client error (Connect): tcp conne…",
            "      (Fail-open demonstration: nothing listens on port 9, so this hook fails and the \
             event proceeds)",
        ]
    );
    // The async logger ran for every tool call, the subagent stop and the session end, and
    // the replay waited for it before exiting.
    let log = std::fs::read_to_string(env.path().join("example.log")).unwrap();
    assert_eq!(log.lines().count(), 13, "{log}");
    assert!(log.lines().all(|l| l.contains("sess-7f3a")), "{log}");
}

#[test]
fn the_example_session_as_json_lines() {
    let env = Env::in_workspace();
    let run = env.run(&[
        "replay",
        "examples/session.jsonl",
        "-c",
        "examples/session",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 25);
    let decisions: Vec<&str> = lines
        .iter()
        .map(|l| l["decision"].as_str().unwrap())
        .collect();
    assert_eq!(decisions.iter().filter(|d| **d == "block").count(), 5);
    assert_eq!(decisions.iter().filter(|d| **d == "ask").count(), 1);
    let rewrite = lines
        .iter()
        .find(|l| !l["updated_input"].is_null())
        .unwrap();
    assert_eq!(rewrite["updated_input"]["command"], "bun test");
    // Stop is blocked once, then allowed when `stop_hook_active` is true.
    let stops: Vec<&str> = lines
        .iter()
        .filter(|l| l["event"] == "Stop")
        .map(|l| l["decision"].as_str().unwrap())
        .collect();
    assert_eq!(stops, ["block", "none"]);
}

#[test]
fn a_small_session_with_aliases_and_blank_lines() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    env.write(
        "s.jsonl",
        concat!(
            r#"{"event":"user-prompt-submit","payload":{"prompt":"hello"}}"#,
            "\n\n",
            r#"{"event":"pre-tool","payload":{"tool_name":"Bash","tool_input":{"command":"rm -rf ~/x"}}}"#,
            "\n",
            r#"{"event":"Stop"}"#,
            "\n"
        ),
    );
    let run = env.run(&["replay", "s.jsonl", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout);
}

#[test]
fn malformed_lines_are_all_named_and_nothing_runs() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - event: SessionStart\n    command: touch ran\n",
    );
    env.write(
        "s.jsonl",
        concat!(
            r#"{"event":"SessionStart","payload":{"source":"startup"}}"#,
            "\n",
            r#"{"event":"SessionStrat"}"#,
            "\n",
            "{not json\n",
            r#"{"payload":{}}"#,
            "\n",
            r#"{"event":"Stop","payload":[1]}"#,
            "\n",
            r#"{"event":"Stop","extra":1}"#,
            "\n",
        ),
    );
    let run = env.run(&["replay", "s.jsonl", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stdout, "");
    assert_snapshot!(run.stderr);
    assert!(!env.path().join("ran").exists(), "no event may run");
}

/// A line that is not UTF-8 is named like every other malformed line (with the byte of
/// the line that is not), and the lines around it are still checked.
#[test]
fn a_line_of_invalid_utf8_is_named() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - event: SessionStart\n    command: touch ran\n",
    );
    let mut session = br#"{"event":"SessionStart","payload":{"source":"startup"}}"#.to_vec();
    session.extend_from_slice(b"\n{\"event\":\"Stop\",\"payload\":{\"x\":\"\xff\xfe\"}}\r\n");
    session.extend_from_slice(b"{\"event\":\"Stopp\"}\n\xc3\n");
    std::fs::write(env.path().join("s.jsonl"), session).unwrap();
    let run = env.run(&["replay", "s.jsonl", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: the session has 3 malformed lines:\n\
         s.jsonl:2: not valid UTF-8 (byte 33 of the line is not part of a character)\n\
         s.jsonl:3: unknown event `Stopp` (did you mean `Stop`?)\n\
         s.jsonl:4: not valid UTF-8 (byte 1 of the line is not part of a character)\n"
    );
    assert!(!env.path().join("ran").exists(), "no event may run");
}

#[test]
fn a_missing_session_file_is_an_error() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let run = env.run(&["replay", "nope.jsonl", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("nope.jsonl"), "{}", run.stderr);
}
