//! `hooks manage` driven through whole sessions by piped stdin: view, add, toggle, test
//! (the hook really runs), remove, toggle all, quit; the transcript is snapshotted and the
//! file checked after.

use crate::support::Env;

/// Runs `hooks manage ARGS` with `input` on stdin; returns stdout (durations masked) and
/// the exit code.
fn session(env: &Env, args: &[&str], input: &str) -> (String, i32) {
    let mut all = vec!["manage"];
    all.extend(args);
    let run = env.run_with_stdin(&all, input);
    assert_eq!(run.stderr, "", "nothing on stderr");
    (run.stdout, run.code)
}

const HOOKS: &str = "\
# My hooks
hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: \"echo 'blocked by guard' >&2; exit 2\"
    description: Block shell commands
  - event: Stop
    command: ./notify.sh
    description: Notify slack
    enabled: false
";

#[test]
fn a_whole_session_on_a_native_file() {
    let env = Env::new();
    std::fs::write(env.path().join("hooks.yaml"), HOOKS).unwrap();
    let input = "\
x 1
t 2
a
post-tool
Edit|Write
echo formatted
Format files
x 3
t 1
r 3
n
r 3
y
g
q
";
    let (out, code) = session(&env, &["-c", "hooks.yaml"], input);
    assert_eq!(code, 0);
    insta::assert_snapshot!("manage_native", out);
    let text = std::fs::read_to_string(env.path().join("hooks.yaml")).unwrap();
    assert_eq!(
        text,
        "\
# My hooks
hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: \"echo 'blocked by guard' >&2; exit 2\"
    description: Block shell commands
    enabled: false
  - event: Stop
    command: ./notify.sh
    description: Notify slack
    enabled: true
disable_all_hooks: true
"
    );
}

#[test]
fn a_session_on_an_autohand_file() {
    let env = Env::new();
    let config = r#"{
  "hooks": {
    "enabled": true,
    "hooks": [
      {"event": "pre-tool", "command": "echo \"Running tool: $HOOK_TOOL\"", "description": "Log tool usage"},
      {"event": "stop", "command": "./track-tokens.sh", "description": "Track token usage", "enabled": false}
    ]
  }
}
"#;
    std::fs::create_dir_all(env.path().join(".autohand")).unwrap();
    std::fs::write(env.path().join(".autohand/config.json"), config).unwrap();
    let (out, code) = session(&env, &["-c", ".autohand/config.json"], "x 1\nt 1\ng\nq\n");
    assert_eq!(code, 0);
    insta::assert_snapshot!("manage_autohand", out);
    let text = std::fs::read_to_string(env.path().join(".autohand/config.json")).unwrap();
    assert!(
        text.contains("\"enabled\": false,\n    \"hooks\""),
        "{text}"
    );
    assert!(
        text.contains("\"description\": \"Log tool usage\", \"enabled\": false}"),
        "{text}"
    );
}

#[test]
fn refusals_and_bad_input_keep_the_session_going() {
    let env = Env::new();
    let config = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}]}}
"#;
    std::fs::create_dir_all(env.path().join(".claude")).unwrap();
    std::fs::write(env.path().join(".claude/settings.json"), config).unwrap();
    // Toggling a Claude hook is refused, a number out of range and an unknown command are
    // reported, an add with an unknown event fails with a hint, and end of input quits.
    let input = "t 1\nt 7\nfrobnicate\na\nStpo\nr 1\ny\n";
    let (out, code) = session(&env, &["-c", ".claude/settings.json"], input);
    assert_eq!(code, 0);
    insta::assert_snapshot!("manage_refusals", out);
    let text = std::fs::read_to_string(env.path().join(".claude/settings.json")).unwrap();
    assert_eq!(text, "{\"hooks\": {}}\n");
}

#[test]
fn without_config_add_creates_the_project_native_config() {
    let env = Env::new();
    std::fs::create_dir_all(env.path().join("home/.config")).unwrap();
    let input = "a\nSessionStart\n\necho hello\nGreet\nq\n";
    let (out, code) = session(&env, &["--project", "."], input);
    assert_eq!(code, 0);
    assert!(out.contains("No hooks yet"), "{out}");
    // A project file's hooks need trust, so the new hook is listed as waiting for it.
    assert!(out.contains("1. [untrusted] echo hello - Greet"), "{out}");
    assert!(
        out.contains("review it, then `hooks trust ./.hooks/hooks.yaml`"),
        "{out}"
    );
    let text = std::fs::read_to_string(env.path().join(".hooks/hooks.yaml")).unwrap();
    assert_eq!(
        text,
        "hooks:\n  - description: Greet\n    event: SessionStart\n    command: echo hello\n"
    );
}

#[test]
fn switching_all_off_and_on_again_gives_the_file_back_byte_for_byte() {
    for (path, text) in [
        ("hooks.yaml", HOOKS),
        (
            ".claude/settings.json",
            "{\n  \"model\": \"opus\",\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./done.sh\"}]}]}\n}\n",
        ),
        (
            ".autohand/config.json",
            "{\n  \"hooks\": {\n    \"hooks\": [{\"event\": \"stop\", \"command\": \"./done.sh\"}]\n  }\n}\n",
        ),
    ] {
        let env = Env::new();
        env.write(path, text);
        let (out, code) = session(&env, &["-c", path], "g\ng\nq\n");
        assert_eq!(code, 0, "{out}");
        assert_eq!(
            std::fs::read_to_string(env.path().join(path)).unwrap(),
            text,
            "{out}"
        );
        // After `g` the screen shows every hook switched off, and after the second, on.
        let (off, on) = out
            .split_once("> g\n")
            .unwrap()
            .1
            .split_once("> g\n")
            .unwrap();
        assert!(off.contains("[switched off] "), "{off}");
        assert!(off.contains("Mode: disabled"), "{off}");
        assert!(!on.contains("[switched off]"), "{on}");
        assert!(on.contains("Mode: enabled"), "{on}");
        assert!(on.contains("back on"), "{on}");
    }
}

#[test]
fn the_switch_message_names_the_file_that_decides() {
    let env = Env::new();
    env.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - event: Stop\n    command: ./user.sh\n",
    );
    env.write(
        ".hooks/hooks.yaml",
        "hooks:\n  - event: Stop\n    command: ./project.sh\n",
    );
    // An untrusted project file's switch is ignored: `g` would switch nothing.
    let (out, _) = session(&env, &["--project", "."], "g\nq\n");
    assert!(
        out.contains("./.hooks/hooks.yaml is not trusted as a whole, so its `disable_all_hooks` is ignored and would switch nothing; nothing was changed\n  hint: review it, then `hooks trust ./.hooks/hooks.yaml`"),
        "{out}"
    );
    assert_eq!(env.run(&["trust", ".hooks/hooks.yaml"]).code, 0);
    let (out, _) = session(&env, &["--project", "."], "g\nq\n");
    assert!(
        out.contains("switched off every hook of every layer but managed: `disable_all_hooks: true` in ./.hooks/hooks.yaml"),
        "{out}"
    );
    assert!(out.contains("[switched off] ./user.sh"), "{out}");
    // A trusted local file that says `false` decides over the project file.
    env.write(".hooks/hooks.local.yaml", "disable_all_hooks: false\n");
    assert_eq!(env.run(&["trust", ".hooks/hooks.local.yaml"]).code, 0);
    let (out, _) = session(&env, &["--project", "."], "g\nq\n");
    assert!(out.contains("Mode: enabled"), "{out}");
    assert!(
        out.contains("/.hooks/hooks.local.yaml (local layer) sets the switch for all hooks and decides over ./.hooks/hooks.yaml, so nothing was changed"),
        "{out}"
    );
}

#[test]
fn a_directory_given_to_c_is_viewed_and_names_one_file_for_adding() {
    let env = Env::new();
    env.write(
        "conf/a.yaml",
        "hooks:\n  - id: a\n    event: Stop\n    command: ./a.sh\n",
    );
    env.write(
        "conf/settings.json",
        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./b.sh\"}]}]}}\n",
    );
    let (out, code) = session(&env, &["-c", "conf"], "t 1\na\ng\nq\n");
    assert_eq!(code, 0);
    insta::assert_snapshot!("manage_directory", out);
}
