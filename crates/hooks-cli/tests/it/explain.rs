//! `hooks explain`: which hooks an event selects, and why the others do not.

use insta::{assert_json_snapshot, assert_snapshot};

use crate::support::{Env, POLICY};

#[track_caller]
fn check(args: &[&str]) -> crate::support::Run {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let mut all = vec!["explain"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-c", "hooks.yaml"]);
    let run = env.run(&all);
    assert_eq!(run.code, 0, "{run:?}");
    run
}

#[test]
fn matcher_condition_and_disabled() {
    let run = check(&[
        "PreToolUse",
        "-p",
        r#"{"tool_name":"Bash","tool_input":{"command":"git status"}}"#,
    ]);
    assert_snapshot!(run.stdout);
}

#[test]
fn another_tool_misses_every_matcher() {
    let run = check(&[
        "PreToolUse",
        "-p",
        r#"{"tool_name":"Read","tool_input":{"file_path":"a.ts"}}"#,
    ]);
    assert_snapshot!(run.stdout);
}

#[test]
fn path_filters() {
    let run = check(&[
        "post-tool",
        "--json",
        "-p",
        r#"{"tool_name":"Write","tool_input":{"file_path":"docs/a.md"}}"#,
    ]);
    assert_json_snapshot!(run.json());
}

#[test]
fn untrusted_hooks_say_so_and_whether_they_would_match() {
    let env = Env::new();
    env.write(
        ".claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}]}}"#,
    );
    let run = env.run(&["explain", "Stop"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout);
}

#[test]
fn an_unknown_event_suggests_the_closest() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let run = env.run(&["explain", "SesionStart", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 1);
    assert_snapshot!(run.stderr, @"error: unknown event `SesionStart` (did you mean `SessionStart`?)");
}
