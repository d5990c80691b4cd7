//! `hooks convert`: another dialect on stdout or into a file, with what the target cannot
//! express as warnings on stderr.

use insta::assert_snapshot;

use crate::support::Env;

const CLAUDE: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 30}]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "./done.sh", "async": true}]}
    ]
  }
}"#;

#[test]
fn claude_to_autohand_on_stdout() {
    let env = Env::new();
    env.write("settings.json", CLAUDE);
    let run = env.run(&["convert", "settings.json", "--to", "autohand"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout);
    assert_eq!(run.stderr, "");
}

#[test]
fn losses_are_warnings_on_stderr() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - id: g\n    event: PreToolUse\n    args: [./guard, --strict]\n    on_failure: block\n",
    );
    let run = env.run(&["convert", "hooks.yaml", "--to", "autohand"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stderr);
}

#[test]
fn into_a_file_that_loads_back_the_same() {
    let env = Env::new();
    env.write("settings.json", CLAUDE);
    let run = env.run(&[
        "convert",
        "settings.json",
        "--to",
        "native",
        "-o",
        "out.toml",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "");
    let text = std::fs::read_to_string(env.path().join("out.toml")).unwrap();
    assert_snapshot!(text);
    let before = env.run(&["list", "-c", "settings.json", "--json"]).json();
    let after = env.run(&["list", "-c", "out.toml", "--json"]).json();
    let events = |v: &serde_json::Value| {
        v["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["event"].clone(), e["total"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(events(&before), events(&after));
}

#[test]
fn a_file_that_does_not_load_is_an_error() {
    let env = Env::new();
    env.write("bad.yaml", "hooks:\n  - event: Nope\n    command: x\n");
    let run = env.run(&["convert", "bad.yaml", "--to", "claude"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("bad.yaml:2:12: error: unknown event `Nope`"),
        "{}",
        run.stderr
    );
    let run = env.run(&["convert", "bad.yaml", "--to", "yaml"]);
    assert_eq!(run.code, 1, "an unknown dialect is a usage error");
}
