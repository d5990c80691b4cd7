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

/// A native guard, the source the merge tests convert.
const NATIVE_GUARD: &str =
    "hooks:\n  - id: guard\n    event: PreToolUse\n    matcher: Bash\n    command: ./guard.sh\n";

/// The hook count `hooks list -c FILE` gives.
fn total(env: &Env, file: &str) -> u64 {
    let list = env.run(&["list", "-c", file, "--json"]).json();
    list["total"].as_u64().unwrap()
}

/// Converting a Claude settings file onto itself changes nothing: `permissions`, `env`
/// and every other key stay (they were dropped, with exit 0).
#[test]
fn converting_a_file_onto_itself_keeps_it_whole() {
    let env = Env::new();
    let settings = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls)"], "deny": ["Read(./.env)"]},
  "env": {"NODE_ENV": "test"},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]
  }
}
"#;
    env.write(".claude/settings.json", settings);
    let run = env.run(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "claude",
        "-o",
        ".claude/settings.json",
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    let after = std::fs::read_to_string(env.path().join(".claude/settings.json")).unwrap();
    assert_eq!(after, settings);
}

/// Writing over an existing file of the target dialect adds the converted hooks to it and
/// keeps every other key, comment and hook, in each dialect: (file, text, what must stay).
const EXISTING: &[(&str, &str, &str, &str)] = &[
    (
        "claude",
        ".claude/settings.json",
        "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"env\": {\"A\": \"1\"},\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./done.sh\"}]}]}\n}\n",
        "\"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"env\": {\"A\": \"1\"},",
    ),
    (
        "autohand",
        ".autohand/config.json",
        "{\n  \"provider\": \"openrouter\",\n  \"hooks\": {\"enabled\": true, \"hooks\": [{\"event\": \"stop\", \"command\": \"./done.sh\"}]}\n}\n",
        "\"provider\": \"openrouter\"",
    ),
    (
        "fabro",
        "run.toml",
        "_version = 1\n\n[run]\ngoal = \"ship it\" # the goal\n\n[[run.hooks]]\nevent = \"run_complete\"\nscript = \"./done.sh\"\n",
        "goal = \"ship it\" # the goal",
    ),
    (
        "native",
        "mine.yaml",
        "# my hooks\nvars:\n  X: \"1\"\nhooks:\n  - id: done\n    event: Stop\n    command: ./done.sh\n",
        "# my hooks\nvars:\n  X: \"1\"\n",
    ),
];

#[test]
fn writing_over_an_existing_file_merges_into_it() {
    for (to, file, text, kept) in EXISTING {
        let env = Env::new();
        env.write("guard.yaml", NATIVE_GUARD);
        env.write(file, text);
        let run = env.run(&["convert", "guard.yaml", "--to", to, "-o", file]);
        assert_eq!(run.code, 0, "{to}: {run:?}");
        assert!(
            run.stdout
                .starts_with(&format!("merged 1 hook into {file}")),
            "{to}: {}",
            run.stdout
        );
        let after = std::fs::read_to_string(env.path().join(file)).unwrap();
        assert!(after.contains(kept), "{to}: lost what was there:\n{after}");
        assert_eq!(
            total(&env, file),
            2,
            "{to}: the old hook and the new:\n{after}"
        );
        // Converting again adds nothing twice.
        let again = env.run(&["convert", "guard.yaml", "--to", to, "-o", file]);
        assert_eq!(again.code, 0, "{to}: {again:?}");
        assert_eq!(total(&env, file), 2, "{to}");
    }
}

/// An existing file of another dialect is never replaced.
#[test]
fn an_existing_file_of_another_dialect_is_refused() {
    let env = Env::new();
    env.write("guard.yaml", NATIVE_GUARD);
    let text = "{\"permissions\": {\"allow\": [\"Bash(ls)\"]}}\n";
    env.write(".claude/settings.json", text);
    let run = env.run(&[
        "convert",
        "guard.yaml",
        "--to",
        "autohand",
        "-o",
        ".claude/settings.json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .contains("is a Claude Code config, not Autohand; nothing was written"),
        "{}",
        run.stderr
    );
    let after = std::fs::read_to_string(env.path().join(".claude/settings.json")).unwrap();
    assert_eq!(after, text);
}

/// A native hook written for Fabro keeps running outside the sandbox (Fabro sandboxes
/// hooks that do not say otherwise): the hook, a real process writing outside its working
/// directory, does its job after the conversion as before.
#[test]
fn a_native_hook_converted_to_fabro_is_not_sandboxed_by_the_change() {
    let env = Env::new();
    let marker = env.path().join("outside/ran");
    std::fs::create_dir_all(marker.parent().unwrap()).unwrap();
    env.write(
        "hooks.yaml",
        &format!(
            "hooks:\n  - id: mark\n    event: PreToolUse\n    command: \"touch '{}'\"\n",
            marker.display()
        ),
    );
    let run = env.run(&["convert", "hooks.yaml", "--to", "fabro", "-o", "run.toml"]);
    assert_eq!(run.code, 0, "{run:?}");
    let project = env.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let mut cmd = env.command();
    cmd.current_dir(&project).args([
        "run",
        "PreToolUse",
        "-c",
        env.path().join("run.toml").to_str().unwrap(),
        "-p",
        r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}}"#,
    ]);
    let ran = env.finish(&mut cmd);
    assert_eq!(ran.code, 0, "the hook runs as it did: {ran:?}");
    assert!(marker.exists(), "the hook did its job: {ran:?}");
}

/// Every change of meaning a target forces is a warning naming the hook: the sandbox a
/// target cannot hold, and dialect variables the new dialect is not given.
#[test]
fn changes_of_meaning_are_warnings_naming_the_hook() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "run.toml",
            "_version = 1\n\n[[run.hooks]]\nid = \"lint\"\nevent = \"stage_start\"\nscript = \"make lint\"\n",
            "claude",
            "hook `lint`: the sandbox (the hook now runs outside it) dropped",
        ),
        (
            "settings.json",
            r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/check.sh"}]}]}}"#,
            "autohand",
            "the command reads `$CLAUDE_PROJECT_DIR`, which autohand hooks are not given",
        ),
        (
            "config.json",
            r#"{"hooks": {"hooks": [{"event": "pre-tool", "command": "echo $HOOK_TOOL", "description": "log"}]}}"#,
            "fabro",
            "hook `command: echo $HOOK_TOOL`: the command reads `$HOOK_TOOL`, which fabro hooks are not given",
        ),
    ];
    for (file, text, to, warning) in cases {
        let env = Env::new();
        env.write(file, text);
        let run = env.run(&["convert", file, "--to", to]);
        assert_eq!(run.code, 0, "{file} to {to}: {run:?}");
        assert!(
            run.stderr.contains(warning),
            "{file} to {to}: {}",
            run.stderr
        );
    }
    // A Fabro hook converted to native stays sandboxed, saying so.
    let env = Env::new();
    env.write("run.toml", cases[0].1);
    let run = env.run(&["convert", "run.toml", "--to", "native"]);
    assert!(run.stdout.contains("sandbox: true"), "{}", run.stdout);
}

#[test]
fn into_a_directory_that_does_not_exist_says_so() {
    let env = Env::new();
    env.write("settings.json", CLAUDE);
    for (out, expect) in [
        (
            "missing/out.yaml",
            "error: cannot write missing/out.yaml: the directory missing does not exist (create it first)\n",
        ),
        (
            "settings.json/out.yaml",
            "error: cannot write settings.json/out.yaml: settings.json is a file, not a directory\n",
        ),
    ] {
        let run = env.run(&["convert", "settings.json", "--to", "native", "-o", out]);
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(run.stderr, expect);
    }
}
