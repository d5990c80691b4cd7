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
    // Hooks are numbered per event, and named by event (in any spelling) and number; an
    // event with one hook needs no number.
    let input = "\
x PreToolUse 1
t Stop
a
post-tool
Edit|Write
echo formatted
Format files
x post-tool
t pre-tool 1
r PostToolUse 1
n
r PostToolUse 1
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
    let (out, code) = session(
        &env,
        &["-c", ".autohand/config.json"],
        "x pre-tool 1\nt pre-tool 1\ng\nq\n",
    );
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

/// A compact file stays compact: a toggled and an added hook are written in the file's
/// own style, with no space after a comma or a colon.
#[test]
fn a_compact_json_file_keeps_its_style() {
    let env = Env::new();
    let config = "{\"hooks\":{\"enabled\":true,\"hooks\":[{\"event\":\"stop\",\"command\":\"./done.sh\"}]}}\n";
    env.write(".autohand/config.json", config);
    let (_, code) = session(
        &env,
        &["-c", ".autohand/config.json"],
        "t stop 1\na\npre-tool\n\n./guard.sh\nGuard\nq\n",
    );
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(env.path().join(".autohand/config.json")).unwrap();
    assert_eq!(
        text,
        "{\"hooks\":{\"enabled\":true,\"hooks\":[{\"event\":\"stop\",\"command\":\"./done.sh\",\"enabled\":false},{\"event\":\"pre-tool\",\"command\":\"./guard.sh\",\"description\":\"Guard\"}]}}\n"
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

/// Adding to the project's file, whose hooks wait for trust, says so before the hook is
/// asked for, with both ways to a hook that runs: trusting the file, or the user's config.
#[test]
fn adding_to_an_untrusted_project_file_says_at_once_what_to_do() {
    let env = Env::new();
    std::fs::create_dir_all(env.path().join("home/.config")).unwrap();
    let (out, code) = session(&env, &["--project", "."], "a\n");
    assert_eq!(code, 0);
    let before = out
        .split("event: ")
        .next()
        .and_then(|s| s.split("adding to ").nth(1))
        .unwrap_or_default();
    assert!(
        before.contains("run once it is trusted")
            && before.contains("`hooks trust ./.hooks/hooks.yaml`"),
        "{out}"
    );
    assert!(
        before.contains("`hooks manage -c ") && before.contains("/home/.config/hooks/hooks.yaml`"),
        "{out}"
    );
    // A file named with `-c` needs no trust: nothing to say.
    env.write("mine.yaml", "hooks: []\n");
    let (out, _) = session(&env, &["-c", "mine.yaml"], "a\n");
    assert!(!out.contains("trusted"), "{out}");
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

/// The hooks of the display example of Autohand's `/hooks` documentation.
const SEED_HOOKS: &str = r#"{
  "hooks": {
    "enabled": true,
    "hooks": [
      {"event": "pre-tool", "command": "echo \"Running tool: $HOOK_TOOL\"", "description": "Log tool usage"},
      {"event": "pre-tool", "command": "./notify.sh", "description": "Notify slack"},
      {"event": "post-tool", "command": "./metrics.sh", "description": "Track metrics"},
      {"event": "stop", "command": "./track-tokens.sh", "description": "Track token usage"},
      {"event": "session-start", "command": "./log-session.sh", "description": "Log sessions"}
    ]
  }
}
"#;

/// The view as Autohand's documentation shows it (its display example), without the line
/// naming the file, which Autohand does not print.
#[test]
fn the_view_is_autohands_display_numbered_per_event() {
    let seed = "\
Hooks
──────────────────────────────────────────────────
Mode: enabled

pre-tool (2/2 enabled)
  1. [enabled] echo \"Running tool: $HOOK_TOOL\" - Log tool usage
  2. [enabled] ./notify.sh - Notify slack

post-tool (1/1 enabled)
  1. [enabled] ./metrics.sh - Track metrics

stop (1/1 enabled)
  1. [enabled] ./track-tokens.sh - Track token usage

session-start (1/1 enabled)
  1. [enabled] ./log-session.sh - Log sessions

──────────────────────────────────────────────────
Total: 5 hooks (5 enabled, 0 disabled)
";
    let env = Env::new();
    env.write(".autohand/config.json", SEED_HOOKS);
    // Named with -c, and discovered in the user layer (`~/.autohand/config.json`): the
    // events are spelt as the listed file spells them either way.
    env.write("home/.autohand/config.json", SEED_HOOKS);
    std::fs::create_dir_all(env.path().join("elsewhere")).unwrap();
    for args in [
        &["-c", ".autohand/config.json"][..],
        &["--project", "elsewhere"],
    ] {
        let (out, code) = session(&env, args, "q\n");
        assert_eq!(code, 0);
        let view: String = out
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("File: "))
            .take_while(|l| !l.starts_with("commands: "))
            .collect();
        assert_eq!(view, seed, "hooks manage {args:?}");
    }
}

/// A hook is named by its event (any spelling) and its number in that event's group.
#[test]
fn a_hook_is_named_by_event_and_number() {
    let env = Env::new();
    env.write(".autohand/config.json", SEED_HOOKS);
    // (what follows `x`, what the session says)
    let cases = [
        ("pre-tool 2", "testing `Notify slack`"),
        ("PreToolUse 1", "testing `Log tool usage`"),
        ("pre_tool_use 2", "testing `Notify slack`"),
        ("stop", "testing `Track token usage`"),
        ("post-tool 1", "testing `Track metrics`"),
        (
            "2",
            "hooks are numbered per event: say which, as in `x pre-tool 1`",
        ),
        (
            "pre-tool",
            "pre-tool has 2 hooks: say which, as in `x pre-tool 1`",
        ),
        (
            "pre-tool 3",
            "`pre-tool 3` is not a hook: pre-tool has hooks 1 to 2",
        ),
        ("session-end 1", "no hook is listed for session-end"),
    ];
    for (arg, expect) in cases {
        let (out, code) = session(
            &env,
            &["-c", ".autohand/config.json"],
            &format!("x {arg}\nq\n"),
        );
        assert_eq!(code, 0);
        let answer = out.split_once(&format!("> x {arg}\n")).unwrap().1;
        assert!(answer.starts_with(expect), "x {arg}:\n{answer}");
    }
}

/// A hook that waits for trust is `[untrusted]`, never `[enabled]`, and is not counted as
/// enabled; each file to trust is named once.
#[test]
fn a_hook_waiting_for_trust_is_shown_untrusted() {
    let project = r#"{"hooks": {"hooks": [
      {"event": "session-start", "command": "./start.sh", "description": "Start"},
      {"event": "pre-tool", "command": "./guard.sh", "description": "Guard"},
      {"event": "stop", "command": "./done.sh", "description": "Done", "enabled": false}
    ]}}"#;
    // Listed by event, the two files' hooks alternate: native, Autohand, native, Autohand.
    let native = "hooks:\n  - event: SessionStart\n    command: ./hello.sh\n  - event: PreToolUse\n    command: ./second.sh\n";
    // (what is done before, the lines the view must hold)
    let cases: &[(&str, &[&str])] = &[
        (
            "never trusted",
            &[
                "SessionStart (0/2 enabled)\n  1. [untrusted] ./hello.sh",
                "  2. [untrusted] ./start.sh - Start",
                "PreToolUse (0/2 enabled)\n  1. [untrusted] ./second.sh",
                "  2. [untrusted] ./guard.sh - Guard",
                "Stop (0/1 enabled)\n  1. [disabled] ./done.sh - Done",
                "Total: 5 hooks (0 enabled, 1 disabled, 4 untrusted)",
            ],
        ),
        (
            "trusted",
            &[
                "SessionStart (1/2 enabled)\n  1. [untrusted] ./hello.sh",
                "  2. [enabled] ./start.sh - Start",
                "  2. [enabled] ./guard.sh - Guard",
                "Total: 5 hooks (2 enabled, 1 disabled, 2 untrusted)",
            ],
        ),
        (
            "trusted, then edited by hand",
            &[
                "  2. [untrusted] ./start.sh - Start",
                "  2. [untrusted] ./guard2.sh - Guard",
                "Total: 5 hooks (0 enabled, 1 disabled, 4 untrusted)",
            ],
        ),
    ];
    for (before, expect) in cases {
        let env = Env::new();
        env.write(".autohand/config.json", project);
        env.write(".hooks/hooks.yaml", native);
        if before.starts_with("trusted") {
            assert_eq!(env.run(&["trust", ".autohand/config.json"]).code, 0);
        }
        if before.ends_with("by hand") {
            env.write(
                ".autohand/config.json",
                &project.replace("./guard.sh", "./guard2.sh"),
            );
        }
        let (out, code) = session(&env, &["--project", "."], "q\n");
        assert_eq!(code, 0);
        for line in *expect {
            assert!(out.contains(line), "{before}: no `{line}` in\n{out}");
        }
        let shown = |path: &str| {
            out.lines()
                .filter(|l| l.starts_with("untrusted: ") && l.contains(path))
                .count()
        };
        // The native file's two hooks sit in groups that are not next to each other.
        assert_eq!(shown("/.hooks/hooks.yaml"), 1, "{before}:\n{out}");
        let autohand = usize::from(*before != "trusted");
        assert_eq!(
            shown("/.autohand/config.json"),
            autohand,
            "{before}:\n{out}"
        );
    }
}

/// Testing a hook gives it sample values of its own dialect's domain: Autohand's tool
/// names, change types (`create|modify|delete`) and session end reasons
/// (`quit|clear|exit|error`).
#[test]
fn a_test_uses_sample_values_of_the_hooks_dialect() {
    let record = |field: &str| format!("jq -r '.{field}' > {field}.txt");
    // (event in each dialect, the stdin field recorded, Autohand's value, native's value)
    let cases = [
        ("pre-tool", "PreToolUse", "tool_name", "run_command", "Bash"),
        (
            "post-tool",
            "PostToolUse",
            "tool_name",
            "run_command",
            "Bash",
        ),
        (
            "permission-request",
            "PermissionRequest",
            "tool_name",
            "run_command",
            "Bash",
        ),
        (
            "file-modified",
            "FileChanged",
            "change_type",
            "modify",
            "modified",
        ),
        (
            "session-end",
            "SessionEnd",
            "session_end_reason",
            "quit",
            "null",
        ),
        ("session-end", "SessionEnd", "reason", "quit", "other"),
    ];
    for (autohand_event, native_event, field, autohand, native) in cases {
        for (file, text, expect) in [
            (
                ".autohand/config.json",
                serde_json::json!({"hooks": {"hooks": [
                    {"event": autohand_event, "command": record(field)}
                ]}})
                .to_string(),
                autohand,
            ),
            (
                "hooks.yaml",
                format!(
                    "hooks:\n  - event: {native_event}\n    command: \"{}\"\n",
                    record(field)
                ),
                native,
            ),
        ] {
            let env = Env::new();
            env.write(file, &text);
            let (out, code) = session(&env, &["-c", file], "x 1\nq\n");
            assert_eq!(code, 0, "{out}");
            let got = std::fs::read_to_string(env.path().join(format!("{field}.txt")))
                .unwrap_or_else(|e| {
                    panic!("{file} {autohand_event}: nothing recorded ({e})\n{out}")
                });
            assert_eq!(
                got.trim(),
                expect,
                "{file}: {autohand_event} `{field}`\n{out}"
            );
        }
    }
}
