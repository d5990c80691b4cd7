//! `hooks validate`: exit 0 for valid configs, 1 with every diagnostic at file:line:col.

use insta::{assert_json_snapshot, assert_snapshot};

use crate::support::{Env, POLICY};

#[test]
fn the_example_configs_are_valid() {
    let env = Env::in_workspace();
    let run = env.run(&["validate", "-c", "examples/session"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout, @"valid: 5 files, 15 hooks, 0 warnings");
}

#[test]
fn every_error_of_every_file_at_once() {
    let env = Env::new();
    env.write("good.yaml", POLICY);
    env.write(
        "a.yaml",
        "hooks:\n  - event: PreToolUze\n    command: x\n    timout: 5\n",
    );
    env.write(
        "b.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"type": "command", "command": "x"}]}]}}"#,
    );
    let run = env.run(&[
        "validate",
        "-c",
        "good.yaml",
        "-c",
        "a.yaml",
        "-c",
        "b.json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_snapshot!(run.stdout);
}

#[test]
fn warnings_are_printed_and_do_not_fail() {
    let env = Env::new();
    env.write(
        "slow.yaml",
        "hooks:\n  - id: slow\n    event: Stop\n    command: sleep 1\n    timeout: 900\n",
    );
    let run = env.run(&["validate", "-c", "slow.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout);
}

#[test]
fn json_report() {
    let env = Env::new();
    env.write("a.yaml", "hooks:\n  - event: Stop\n    comand: x\n");
    let run = env.run(&["validate", "-c", "a.yaml", "--json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_json_snapshot!(run.json());
}

#[test]
fn nothing_to_discover_is_valid() {
    let env = Env::new();
    let run = env.run(&["validate"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "no config files found\n");
}

#[test]
fn discovered_project_configs_are_checked() {
    let env = Env::new();
    env.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "comand", "command": "x"}]}]}}"#,
    );
    let run = env.run(&["validate"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("[dir]/.claude/settings.json:1:"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_directory_with_no_configs_is_an_error() {
    let env = Env::new();
    env.write("empty/readme.txt", "nothing here");
    let run = env.run(&["validate", "-c", "empty"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("holds no config files"),
        "{}",
        run.stderr
    );
}

/// The config example of `docs/cli.md` loads, and its `{{ vars.HOOKS_BIN }}` runs this very
/// binary's built-in guard.
#[test]
fn the_docs_example_config_works() {
    let docs =
        std::fs::read_to_string(crate::support::workspace_root().join("docs/cli.md")).unwrap();
    let start = docs.find("```yaml\n").unwrap() + "```yaml\n".len();
    let end = start + docs[start..].find("```").unwrap();
    let env = Env::new();
    env.write("guard.yaml", &docs[start..end]);
    let run = env.run(&["validate", "-c", "guard.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
    let run = env.run(&[
        "test",
        "security-guard",
        "-c",
        "guard.yaml",
        "-p",
        r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#,
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stdout.contains("rm -rf / would erase"),
        "{}",
        run.stdout
    );
    let listed = env.run(&["list", "-c", "guard.yaml", "--json"]).json();
    assert_eq!(
        listed["events"][0]["hooks"][0]["action"],
        "command: [hooks] builtin security-guard"
    );
}

#[test]
fn dialect_names_the_dialect_of_every_config_file() {
    let env = Env::new();
    env.write("weird.json", "{\"foo\": 1}\n");
    let run = env.run(&["validate", "-c", "weird.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "weird.json: error: cannot tell which dialect this file is written in\n  \
         hint: give it a `hooks` key (native, Claude, echo-agent or Autohand shape) or Fabro's \
         `_version`/`[run]`, or name the dialect: `--dialect native|claude|echo|fabro|autohand` \
         on the command line, `LoadOptions::with_dialect` in code\ninvalid: 1 error, 0 warnings\n"
    );
    // An echo-agent-looking YAML file read as Claude Code settings, by every command that
    // loads `-c` files.
    env.write(
        "agent.yml",
        "hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo hi\n",
    );
    let dialect_of = |args: &[&str]| {
        let mut all = vec!["list"];
        all.extend_from_slice(args);
        all.push("--json");
        env.run(&all).json()["events"][0]["hooks"][0]["dialect"].clone()
    };
    assert_eq!(dialect_of(&["-c", "agent.yml"]), "echo");
    assert_eq!(
        dialect_of(&["-c", "agent.yml", "--dialect", "claude"]),
        "claude"
    );
    let run = env.run(&[
        "disable",
        "command: echo hi",
        "-c",
        "agent.yml",
        "--dialect",
        "claude",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .starts_with("error: Claude Code hooks have no per-hook switch"),
        "{}",
        run.stderr
    );
    let run = env.run(&[
        "convert",
        "agent.yml",
        "--dialect",
        "claude",
        "--to",
        "native",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("timeout: 300"),
        "Claude's default: {}",
        run.stdout
    );
    // It names the `-c` files' dialect, so it needs them.
    let run = env.run(&["list", "--dialect", "claude"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("--config <FILE>"), "{}", run.stderr);
}
