//! `hooks enable|disable|add|remove` end to end through the binary: a file of each dialect
//! edited in place (the whole resulting text snapshotted: comments and formatting kept),
//! re-loaded to the expected hooks; addressing, errors, discovery, the atomic write and the
//! safety net that refuses an edit the editor got wrong.

use std::path::Path;

use assert_cmd::Command;

use crate::support::Env;

/// The text of `rel` under the test's directory.
fn read(env: &Env, rel: &str) -> String {
    std::fs::read_to_string(env.path().join(rel)).unwrap()
}

/// Runs `hooks ARGS`; returns the transcript: the command, its output, its exit code
/// when not 0.
fn transcript(env: &Env, args: &[&str]) -> String {
    let run = env.run(args);
    let mut t = format!("$ hooks {}\n{}", args.join(" "), run.stdout);
    for line in run.stderr.lines() {
        t.push_str(&format!("stderr: {line}\n"));
    }
    if run.code != 0 {
        t.push_str(&format!("exit: {}\n", run.code));
    }
    t
}

/// Files in the directory of `rel`, sorted (temporary files would show here).
fn listing(env: &Env, rel: &str) -> Vec<String> {
    let path = env.path().join(rel);
    let mut names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The hooks a file loads to: `label on|off`, in declaration order.
fn loaded(path: &Path) -> Vec<String> {
    let file = hooks::config::load_file(path, &hooks::config::LoadOptions::new()).unwrap();
    file.hooks()
        .map(|h| {
            format!(
                "{} {}",
                h.display_id(),
                if h.enabled { "on" } else { "off" }
            )
        })
        .collect()
}

/// Writes `text` to `file`, runs each command with `-c file`, and snapshots the transcript
/// and the resulting text; checks that the file loads to `expect` and that the
/// directory holds no leftovers.
#[track_caller]
fn check(name: &str, file: &str, text: &str, steps: &[&[&str]], expect: &[&str]) {
    let p = Env::new();
    p.write(file, text);
    let before = listing(&p, file);
    let mut session = String::new();
    for step in steps {
        let mut args: Vec<&str> = step.to_vec();
        args.extend(["-c", file]);
        session.push_str(&transcript(&p, &args));
    }
    session.push_str(&format!("--- {file}\n{}", read(&p, file)));
    insta::assert_snapshot!(name, session);
    assert_eq!(
        loaded(&p.path().join(file)),
        expect,
        "{name}: the hooks it loads to"
    );
    assert_eq!(listing(&p, file), before, "{name}: no temporary files left");
}

const NATIVE_YAML: &str = "\
# Project hooks. Keep this list short.
version: 1
hooks:
  # Blocks dangerous shell commands.
  - id: guard
    event: PreToolUse   # before every tool
    matcher: Bash
    command: ./guard.sh
    timeout: 5s

  - id: log
    event: Stop
    command: |
      echo done >> log.txt
      echo more >> log.txt
    async: true

# End of the hooks.
";

#[test]
fn native_yaml_keeps_its_comments() {
    check(
        "native_yaml",
        ".hooks/hooks.yaml",
        NATIVE_YAML,
        &[
            &["disable", "guard"],
            &["disable", "guard"],
            &[
                "add",
                "--event",
                "post-tool",
                "--matcher",
                "Edit|Write",
                "--command",
                "npx prettier --write \"$FILE\"",
                "--id",
                "fmt",
                "--description",
                "Format: changed files",
                "--timeout",
                "30s",
            ],
            &["remove", "log"],
            &["enable", "guard"],
        ],
        &["guard on", "fmt on"],
    );
}

#[test]
fn native_yaml_removing_every_hook_leaves_an_empty_list() {
    check(
        "native_yaml_empty",
        "hooks.yaml",
        NATIVE_YAML,
        &[
            &["remove", "guard"],
            &["remove", "log"],
            &[
                "add",
                "--event",
                "Stop",
                "--command",
                "echo bye",
                "--disabled",
            ],
        ],
        &["command: echo bye off"],
    );
}

#[test]
fn native_toml_keeps_its_comments() {
    check(
        "native_toml",
        "hooks.toml",
        "\
# Native hooks in TOML.
version = 1

[[hooks]]
id = \"guard\"       # the guard
event = \"PreToolUse\"
matcher = \"Bash\"
args = [\"./guard.sh\", \"--strict\"]

[[hooks]]
id = \"log\"
event = \"Stop\"
command = \"echo done\"
async = true
",
        &[
            &["disable", "guard"],
            &[
                "add",
                "--event",
                "SessionStart",
                "--command",
                "echo \"hello\"",
                "--id",
                "hello",
            ],
            &["remove", "log"],
            &["enable", "guard"],
        ],
        &["guard on", "hello on"],
    );
}

const CLAUDE: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "./guard.sh", "timeout": 5 }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "./notify.sh"
          }
        ]
      }
    ]
  },
  "permissions": {"allow": ["Bash(ls)"]}
}
"#;

#[test]
fn claude_json_changes_only_the_hook() {
    check(
        "claude_json",
        ".claude/settings.json",
        CLAUDE,
        &[
            &[
                "add",
                "--event",
                "PreToolUse",
                "--matcher",
                "Bash",
                "--command",
                "./audit.sh",
            ],
            &[
                "add",
                "--event",
                "UserPromptSubmit",
                "--command",
                "./context.sh",
                "--description",
                "Adding context",
            ],
            &["remove", "./notify.sh"],
            &["disable", "./guard.sh"],
            &["enable", "./guard.sh"],
        ],
        &[
            "command: ./guard.sh on",
            "command: ./audit.sh on",
            "command: ./context.sh on",
        ],
    );
}

const AUTOHAND: &str = r#"{
  "provider": "openrouter",
  "hooks": {
    "enabled": true,
    "hooks": [
      {
        "event": "pre-tool",
        "command": "echo \"Running tool: $HOOK_TOOL\" >> ~/.autohand/hooks.log",
        "description": "Log tool usage",
        "async": true
      },
      {"event": "stop", "command": "./track-tokens.sh", "description": "Track token usage", "enabled": false}
    ]
  }
}
"#;

#[test]
fn autohand_json_changes_only_the_hook() {
    check(
        "autohand_json",
        ".autohand/config.json",
        AUTOHAND,
        &[
            &["disable", "Log tool usage"],
            &["enable", "Track token usage"],
            &[
                "add",
                "--event",
                "session-start",
                "--command",
                "./log-session.sh",
                "--description",
                "Log sessions",
                "--timeout",
                "2s",
            ],
            &["remove", "./track-tokens.sh"],
        ],
        &[
            "command: echo \"Running tool: $HOOK_TOOL\" >> ~/.autohand/hook… off",
            "command: ./log-session.sh on",
        ],
    );
}

const FABRO: &str = "\
_version = 1

[run]
goal = \"ship it\"

# Lint before every stage.
[[run.hooks]]
id = \"lint\"
event = \"stage_start\"
script = \"make lint\"   # fast
timeout = \"30s\"

[[run.hooks]]
name = \"notify\"
event = \"run_complete\"
url = \"https://hooks.example.com/done\"
[run.hooks.headers]
X-Run = \"fabro\"

[run.model]
name = \"sonnet\"
";

#[test]
fn fabro_disable_comments_the_table_out_and_enable_restores_it() {
    check(
        "fabro_toml",
        ".fabro/project.toml",
        FABRO,
        &[
            &["disable", "lint"],
            &["disable", "notify"],
            &["disable", "lint"],
            &["enable", "notify"],
            &[
                "add",
                "--event",
                "pre_tool_use",
                "--matcher",
                "Bash",
                "--command",
                "./guard.sh",
                "--id",
                "guard",
            ],
            &[
                "add",
                "--event",
                "stage_complete",
                "--command",
                "./report.sh",
                "--id",
                "report",
                "--disabled",
            ],
        ],
        &["notify on", "guard on"],
    );
}

#[test]
fn fabro_enable_of_a_commented_hook_restores_the_original_bytes() {
    let p = Env::new();
    p.write("run.toml", FABRO);
    p.command()
        .args(["disable", "notify", "-c", "run.toml"])
        .assert()
        .success();
    p.command()
        .args(["disable", "lint", "-c", "run.toml"])
        .assert()
        .success();
    assert_eq!(loaded(&p.path().join("run.toml")), Vec::<String>::new());
    p.command()
        .args(["enable", "lint", "-c", "run.toml"])
        .assert()
        .success();
    p.command()
        .args(["enable", "notify", "-c", "run.toml"])
        .assert()
        .success();
    assert_eq!(read(&p, "run.toml"), FABRO);
    // A commented-out hook can be removed outright.
    p.command()
        .args(["disable", "lint", "-c", "run.toml"])
        .assert()
        .success();
    p.command()
        .args(["remove", "lint", "-c", "run.toml"])
        .assert()
        .success();
    assert!(!read(&p, "run.toml").contains("lint"));
    assert_eq!(loaded(&p.path().join("run.toml")), ["notify on"]);
}

const ECHO: &str = "\
# echo-agent settings
model: gpt-4o
hooks:
  PreToolUse:
    - matcher: \"Bash\"   # shell only
      hooks:
        - type: command
          command: ./guard.sh
          timeout: 5
  Stop:
  - hooks:
    - type: prompt
      prompt: Summarise what you did.
";

#[test]
fn echo_yaml_keeps_its_comments() {
    check(
        "echo_yaml",
        "echo-agent.yaml",
        ECHO,
        &[
            &[
                "add",
                "--event",
                "PreToolUse",
                "--matcher",
                "Bash",
                "--command",
                "./audit.sh",
            ],
            &["add", "--event", "Stop", "--command", "./stop.sh"],
            &[
                "add",
                "--event",
                "SessionStart",
                "--command",
                "./start.sh",
                "--timeout",
                "3",
            ],
            &["disable", "./guard.sh"],
            &["remove", "./guard.sh"],
            &["remove", "./audit.sh"],
        ],
        &[
            "prompt: Summarise what you did. on",
            "command: ./stop.sh on",
            "command: ./start.sh on",
        ],
    );
}

#[test]
fn skill_frontmatter_is_edited_and_the_body_kept() {
    check(
        "skill_md",
        "skills/fmt/SKILL.md",
        "\
---
name: fmt
description: Formats code
hooks:
  PostToolUse:
    - matcher: Edit|Write
      hooks:
        - type: command
          command: ./fmt.sh
---
# Formatting

hooks: this line is Markdown, not YAML.
",
        &[
            &["add", "--event", "Stop", "--command", "echo done"],
            &[
                "add",
                "--event",
                "PostToolUse",
                "--matcher",
                "Edit|Write",
                "--command",
                "./lint.sh",
            ],
            &["remove", "./fmt.sh"],
        ],
        &["command: ./lint.sh on", "command: echo done on"],
    );
}

#[test]
fn add_creates_a_missing_file_in_the_dialect_its_name_says() {
    let p = Env::new();
    p.command()
        .args([
            "add",
            "--event",
            "PreToolUse",
            "--matcher",
            "Bash",
            "--command",
            "./guard.sh",
            "-c",
            ".claude/settings.json",
        ])
        .assert()
        .success();
    insta::assert_snapshot!("created_claude", read(&p, ".claude/settings.json"));
    p.command()
        .args([
            "add",
            "--event",
            "Stop",
            "--command",
            "./done.sh",
            "--id",
            "done",
            "-c",
            "new.toml",
        ])
        .assert()
        .success();
    insta::assert_snapshot!("created_native_toml", read(&p, "new.toml"));
    assert_eq!(loaded(&p.path().join("new.toml")), ["done on"]);
}

#[test]
fn without_config_add_writes_the_project_native_config() {
    let p = Env::new();
    let t = transcript(
        &p,
        &[
            "add",
            "--event",
            "Stop",
            "--command",
            "./done.sh",
            "--id",
            "done",
        ],
    );
    assert!(t.contains("added `done` on Stop to"), "{t}");
    assert!(t.contains("hooks trust"), "a note on trust: {t}");
    // The other way to a hook that runs: the user's own config.
    assert!(
        t.contains("`hooks add -c ") && t.contains("/home/.config/hooks/hooks.yaml ...`"),
        "{t}"
    );
    assert_eq!(
        read(&p, ".hooks/hooks.yaml"),
        "hooks:\n  - id: done\n    event: Stop\n    command: ./done.sh\n"
    );
}

#[test]
fn without_config_the_file_that_defines_the_hook_is_edited() {
    let p = Env::new();
    p.write(".hooks/hooks.yaml", NATIVE_YAML);
    p.write(".claude/settings.json", CLAUDE);
    p.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - id: mine\n    event: Stop\n    command: ./mine.sh\n",
    );
    p.command().args(["disable", "mine"]).assert().success();
    assert_eq!(
        read(&p, "home/.config/hooks/hooks.yaml"),
        "hooks:\n  - id: mine\n    event: Stop\n    command: ./mine.sh\n    enabled: false\n"
    );
    p.command()
        .args(["remove", "./notify.sh"])
        .assert()
        .success();
    assert!(!read(&p, ".claude/settings.json").contains("notify"));
    assert_eq!(read(&p, ".hooks/hooks.yaml"), NATIVE_YAML);
}

#[test]
fn unknown_hook_is_an_error_with_a_did_you_mean() {
    let p = Env::new();
    p.write("hooks.yaml", NATIVE_YAML);
    let t = transcript(&p, &["disable", "gaurd", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("unknown_hook", t);
    assert_eq!(read(&p, "hooks.yaml"), NATIVE_YAML);
}

#[test]
fn an_address_that_names_two_hooks_lists_them() {
    let p = Env::new();
    let text = "hooks:\n  - event: Stop\n    command: ./same.sh\n  - event: SessionEnd\n    command: ./same.sh\n";
    p.write("hooks.yaml", text);
    let t = transcript(&p, &["remove", "./same.sh", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("ambiguous", t);
    // FILE:LINE (or :LINE) picks one.
    p.command()
        .args(["remove", "hooks.yaml:4", "-c", "hooks.yaml"])
        .assert()
        .success();
    assert_eq!(
        read(&p, "hooks.yaml"),
        "hooks:\n  - event: Stop\n    command: ./same.sh\n"
    );
}

#[test]
fn a_file_that_does_not_parse_is_an_error() {
    let p = Env::new();
    let text = "hooks:\n  - id: a\n    event: PreToolUze\n    command: x\n";
    p.write("hooks.yaml", text);
    let t = transcript(&p, &["disable", "a", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("does_not_parse", t);
    assert_eq!(read(&p, "hooks.yaml"), text);
}

#[test]
fn claude_and_echo_hooks_cannot_be_disabled_in_place() {
    let p = Env::new();
    p.write(".claude/settings.json", CLAUDE);
    let t = transcript(
        &p,
        &["disable", "./guard.sh", "-c", ".claude/settings.json"],
    );
    insta::assert_snapshot!("claude_disable_refused", t);
    assert_eq!(read(&p, ".claude/settings.json"), CLAUDE);
    p.write("echo-agent.yaml", ECHO);
    let out = p
        .command()
        .args([
            "add",
            "--event",
            "Stop",
            "--command",
            "x",
            "--disabled",
            "-c",
            "echo-agent.yaml",
        ])
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("echo-agent hooks have no per-hook switch"),
        "{err}"
    );
    assert_eq!(read(&p, "echo-agent.yaml"), ECHO);
}

#[test]
fn what_a_dialect_cannot_hold_is_refused_on_add() {
    let p = Env::new();
    p.write(".claude/settings.json", CLAUDE);
    let t = transcript(
        &p,
        &[
            "add",
            "--event",
            "Stop",
            "--command",
            "x",
            "--id",
            "named",
            "-c",
            ".claude/settings.json",
        ],
    );
    insta::assert_snapshot!("claude_add_id_refused", t);
    assert_eq!(read(&p, ".claude/settings.json"), CLAUDE);
}

#[test]
fn permissions_and_symlinks_survive_an_edit() {
    use std::os::unix::fs::PermissionsExt;
    let p = Env::new();
    p.write("real/hooks.yaml", NATIVE_YAML);
    std::fs::set_permissions(
        p.path().join("real/hooks.yaml"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    std::os::unix::fs::symlink(p.path().join("real/hooks.yaml"), p.path().join("link.yaml"))
        .unwrap();
    p.command()
        .args(["disable", "log", "-c", "link.yaml"])
        .assert()
        .success();
    let link = std::fs::symlink_metadata(p.path().join("link.yaml")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is still a link");
    let real = std::fs::metadata(p.path().join("real/hooks.yaml")).unwrap();
    assert_eq!(real.permissions().mode() & 0o777, 0o640);
    assert!(read(&p, "real/hooks.yaml").contains("    async: true\n    enabled: false\n"));
    assert_eq!(listing(&p, "real/hooks.yaml"), ["hooks.yaml"]);
}

/// Runs `hooks ARGS` with a file-size limit of 512 bytes, so writing the new config fails
/// part way. With `ignore_signal`, the write returns an error; without, the kernel kills
/// the process mid-write (SIGXFSZ), as a crash would.
fn run_with_size_limit(p: &Env, args: &[&str], ignore_signal: bool) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("hooks");
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    let script = format!("{trap}ulimit -f 1; exec \"$0\" \"$@\"");
    let mut cmd = Command::new("sh");
    cmd.current_dir(p.path())
        .env("HOME", p.path().join("home"))
        .env("XDG_CONFIG_HOME", p.path().join("home/.config"))
        .args(["-c", &script])
        .arg(bin)
        .args(args);
    cmd.output().unwrap()
}

fn big_config() -> String {
    let mut text = NATIVE_YAML.to_owned();
    for i in 0..20 {
        text.push_str(&format!(
            "# padding line {i} to make the file larger than the limit\n"
        ));
    }
    assert!(text.len() > 1024);
    text
}

#[test]
fn a_failed_write_leaves_the_file_untouched_and_no_temporary_file() {
    let p = Env::new();
    let text = big_config();
    p.write("cfg/hooks.yaml", &text);
    let out = run_with_size_limit(&p, &["disable", "guard", "-c", "cfg/hooks.yaml"], true);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write a temporary file for hooks.yaml"),
        "{err}"
    );
    assert_eq!(read(&p, "cfg/hooks.yaml"), text);
    assert_eq!(listing(&p, "cfg/hooks.yaml"), ["hooks.yaml"]);
}

#[test]
fn a_crash_mid_write_leaves_the_file_untouched() {
    use std::os::unix::process::ExitStatusExt;
    let p = Env::new();
    let text = big_config();
    p.write("cfg/hooks.yaml", &text);
    let out = run_with_size_limit(&p, &["disable", "guard", "-c", "cfg/hooks.yaml"], false);
    assert_eq!(out.status.signal(), Some(25), "killed by SIGXFSZ");
    assert_eq!(read(&p, "cfg/hooks.yaml"), text);
    // A crash can leave the half-written temporary file, never a half-written config; the
    // leftover is a hidden file that no loader reads.
    for name in listing(&p, "cfg/hooks.yaml") {
        assert!(
            name == "hooks.yaml" || (name.starts_with(".hooks.yaml.") && name.ends_with(".tmp")),
            "{name}"
        );
    }
}

#[test]
fn the_safety_net_refuses_an_edit_that_changes_other_hooks() {
    // The second hook copies the first through a YAML merge key: switching the first off
    // in its text would switch the second off too. The edited text is loaded again before
    // it is written, the difference is noticed, and the file is left alone.
    let p = Env::new();
    let text = "\
hooks:
  - &base
    id: one
    event: Stop
    command: ./notify.sh
  - <<: *base
    id: two
";
    p.write("hooks.yaml", text);
    let t = transcript(&p, &["disable", "one", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("safety_net", t);
    assert_eq!(read(&p, "hooks.yaml"), text);
    // The second hook's own entry is edited normally.
    p.command()
        .args(["disable", "two", "-c", "hooks.yaml"])
        .assert()
        .success();
    assert_eq!(loaded(&p.path().join("hooks.yaml")), ["one on", "two off"]);
}

#[test]
fn builtin_hooks_from_init_are_enabled_in_place() {
    let p = Env::new();
    p.command()
        .args(["init", "--dir", "builtin"])
        .assert()
        .success();
    let before = read(&p, "builtin/hooks.yaml");
    p.command()
        .args(["enable", "security-guard", "-c", "builtin/hooks.yaml"])
        .assert()
        .success();
    let after = read(&p, "builtin/hooks.yaml");
    // Exactly one line differs: the guard's `enabled`.
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed, [("    enabled: false", "    enabled: true")]);
    assert_eq!(before.lines().count(), after.lines().count());
    let on: Vec<String> = loaded(&p.path().join("builtin/hooks.yaml"))
        .into_iter()
        .filter(|h| h.ends_with(" on"))
        .collect();
    assert_eq!(on, ["security-guard on"]);
}

#[test]
fn a_directive_on_an_inherited_hook_is_flipped() {
    let p = Env::new();
    p.write(
        "local.yaml",
        "hooks:\n  - id: guard   # inherited from the user's config\n    enabled: false\n",
    );
    let t = transcript(&p, &["enable", "guard", "-c", "local.yaml"]);
    assert_eq!(
        t,
        "$ hooks enable guard -c local.yaml\nenabled `guard` in local.yaml:2\n"
    );
    assert_eq!(
        read(&p, "local.yaml"),
        "hooks:\n  - id: guard   # inherited from the user's config\n    enabled: true\n"
    );
    p.command()
        .args(["remove", "guard", "-c", "local.yaml"])
        .assert()
        .success();
    assert_eq!(read(&p, "local.yaml"), "hooks: []\n");
}

#[test]
fn line_endings_and_a_missing_final_newline_are_kept() {
    let p = Env::new();
    p.write(
        "crlf.yaml",
        "hooks:\r\n  - id: a\r\n    event: Stop\r\n    command: x\r\n",
    );
    p.command()
        .args([
            "add",
            "--event",
            "Stop",
            "--command",
            "./y.sh",
            "--id",
            "b",
            "-c",
            "crlf.yaml",
        ])
        .assert()
        .success();
    p.command()
        .args(["disable", "a", "-c", "crlf.yaml"])
        .assert()
        .success();
    assert_eq!(
        read(&p, "crlf.yaml"),
        "hooks:\r\n  - id: a\r\n    event: Stop\r\n    command: x\r\n    enabled: false\r\n  - id: b\r\n    event: Stop\r\n    command: ./y.sh\r\n"
    );
    p.write(
        "bare.json",
        "{\"hooks\": {\"enabled\": true, \"hooks\": []}}",
    );
    std::fs::create_dir_all(p.path().join(".autohand")).unwrap();
    std::fs::rename(
        p.path().join("bare.json"),
        p.path().join(".autohand/config.json"),
    )
    .unwrap();
    p.command()
        .args([
            "add",
            "--event",
            "stop",
            "--command",
            "./x.sh",
            "-c",
            ".autohand/config.json",
        ])
        .assert()
        .success();
    assert_eq!(
        read(&p, ".autohand/config.json"),
        "{\"hooks\": {\"enabled\": true, \"hooks\": [{\"event\": \"stop\", \"command\": \"./x.sh\"}]}}"
    );
}

#[test]
fn a_file_changed_by_someone_else_meanwhile_is_not_overwritten() {
    let p = Env::new();
    let path = p.write("cfg/hooks.yaml", "hooks: []\n");
    let err =
        hooks::config::edit::atomic::write(&path, "hooks: [] # new\n", Some("hooks: [] # old\n"))
            .unwrap_err();
    assert!(
        format!("{err:#}").contains("changed while it was being edited"),
        "{err:#}"
    );
    assert_eq!(read(&p, "cfg/hooks.yaml"), "hooks: []\n");
    assert_eq!(listing(&p, "cfg/hooks.yaml"), ["hooks.yaml"]);
    // A file that appeared meanwhile is not replaced by a "new" one either.
    assert!(hooks::config::edit::atomic::write(&path, "x", None).is_err());
    assert_eq!(read(&p, "cfg/hooks.yaml"), "hooks: []\n");
    assert_eq!(listing(&p, "cfg/hooks.yaml"), ["hooks.yaml"]);
}

/// Every config file of the examples, relative to `examples/`.
const EXAMPLES: &[&str] = &[
    "configs/autohand/.autohand/config.json",
    "configs/claude/.claude/settings.json",
    "configs/claude/.claude/settings.local.json",
    "configs/claude/managed/managed-settings.json",
    "configs/echo/echo-agent.yaml",
    "configs/echo/skills/safe-shell/SKILL.md",
    "configs/fabro/.fabro/project.toml",
    "configs/fabro/home/.fabro/settings.toml",
    "configs/fabro/hooks.toml",
    "configs/fabro/run.toml",
    "configs/native/hooks.json",
    "configs/native/hooks.toml",
    "configs/native/hooks.yaml",
    "session/autohand.json",
    "session/echo-agent.yaml",
    "session/hooks.yaml",
    "session/run.toml",
    "session/settings.json",
];

#[test]
fn every_hook_of_every_example_config_can_be_removed_toggled_and_added_to() {
    use hooks::config::edit::{Change, ConfigEdit};
    use hooks::core::{Action, Dialect};

    // The skill's MCP hook names its repository through a variable only a host supplies,
    // and a Fabro hook a secret: editing needs neither.
    let options = hooks_cli::cmd::edit::load_options();
    let mut edits = 0;
    for rel in EXAMPLES {
        let path = crate::support::workspace_root().join("examples").join(rel);
        let open = || ConfigEdit::open(&path, &options).unwrap_or_else(|e| panic!("{rel}: {e:#}"));
        let dialect = open().file().dialect;
        let count = open().entries().len();
        assert!(count > 0, "{rel} has hooks");
        for i in 0..count {
            let mut file = open();
            let entry = file.entries()[i].clone();
            let what = format!("{rel}: `{}`", entry.label());
            let change = file
                .remove(&entry)
                .unwrap_or_else(|e| panic!("{what}: remove: {e:#}"));
            assert_eq!(change, Change::Changed, "{what}");
            assert_eq!(file.entries().len(), count - 1, "{what}: one fewer");
            let mut file = open();
            let toggled = file.set_enabled(&entry, !entry.enabled);
            if matches!(dialect, Dialect::Claude | Dialect::Echo) && entry.enabled {
                assert!(toggled.is_err(), "{what}: no per-hook switch");
            } else {
                assert_eq!(
                    toggled.unwrap_or_else(|e| panic!("{what}: toggle: {e:#}")),
                    Change::Changed,
                    "{what}"
                );
            }
            edits += 2;
        }
        let mut file = open();
        // Fabro's workflow events differ from the agents' events.
        let event = if dialect == Dialect::Fabro {
            "run_complete"
        } else {
            "Stop"
        };
        let spec =
            hooks_cli::cmd::edit::build_hook(event, None, Action::script("echo added"), dialect)
                .unwrap();
        let event = spec.event.info().name_in(dialect).to_owned();
        let change = file
            .add(&spec)
            .unwrap_or_else(|e| panic!("{rel}: add on {event}: {e:#}"));
        assert_eq!(change, Change::Changed);
        assert_eq!(
            file.file().hooks().count(),
            open().file().hooks().count() + 1
        );
        // Nothing was written: the edits stayed in memory.
        assert!(file.is_changed());
    }
    assert!(edits > 50, "{edits} edits");
}

#[test]
fn editing_needs_no_values_for_variables_environment_or_secrets() {
    let p = Env::new();
    let text = "hooks:\n  - id: notify\n    event: Stop\n    url: \"https://{{ vars.HOST }}/{{ env.HOOKS_TEST_UNSET_VARIABLE }}\"\n    headers:\n      Authorization: \"Bearer {{ secrets.HOOKS_TEST_UNSET_SECRET }}\"\n";
    p.write("hooks.yaml", text);
    let t = transcript(&p, &["disable", "notify", "-c", "hooks.yaml"]);
    assert_eq!(
        t,
        "$ hooks disable notify -c hooks.yaml\ndisabled `notify` in hooks.yaml:2\n"
    );
    assert_eq!(
        read(&p, "hooks.yaml"),
        format!("{text}    enabled: false\n")
    );
}

/// Applies `op` (`disable ID`, `enable ID`, `remove ID` or `add`, which adds
/// `{id: new, event: Stop, command: ./new.sh}`) to a YAML file holding `before`, through
/// the library, and compares the text with `after` (`Err(part)`: the edit fails with a
/// message containing `part`, and the text is unchanged).
#[track_caller]
fn check_yaml(before: &str, op: &str, after: Result<&str, &str>) {
    use hooks::config::edit::ConfigEdit;
    use hooks::core::{Action, Dialect};

    let p = Env::new();
    let path = p.write("hooks.yaml", before);
    let options = hooks_cli::cmd::edit::load_options();
    let mut file = ConfigEdit::open(&path, &options).unwrap();
    let (verb, id) = op.split_once(' ').unwrap_or((op, ""));
    let result = match verb {
        "add" => {
            let mut spec = hooks_cli::cmd::edit::build_hook(
                "Stop",
                None,
                Action::script("./new.sh"),
                Dialect::Native,
            )
            .unwrap();
            spec.id = Some("new".to_owned());
            file.add(&spec)
        }
        _ => {
            let found = hooks_cli::handle::find(std::slice::from_ref(&file), id).unwrap();
            match verb {
                "disable" => file.set_enabled(&found.entry, false),
                "enable" => file.set_enabled(&found.entry, true),
                _ => file.remove(&found.entry),
            }
        }
    };
    match (result, after) {
        (Ok(_), Ok(want)) => assert_eq!(file.text(), want, "{op}"),
        (Err(e), Err(part)) => {
            assert!(format!("{e:#}").contains(part), "{op}: {e:#}");
            assert_eq!(file.text(), before);
        }
        (Ok(_), Err(part)) => panic!("{op} should fail with `{part}`, gave:\n{}", file.text()),
        (Err(e), Ok(_)) => panic!("{op} failed: {e:#}"),
    }
}

const ZERO_INDENT: &str = "hooks:\n- id: a\n  event: Stop\n  command: ./a.sh\n";

#[test]
fn yaml_zero_indented_list() {
    check_yaml(
        ZERO_INDENT,
        "disable a",
        Ok("hooks:\n- id: a\n  event: Stop\n  command: ./a.sh\n  enabled: false\n"),
    );
    check_yaml(
        ZERO_INDENT,
        "add",
        Ok(
            "hooks:\n- id: a\n  event: Stop\n  command: ./a.sh\n- id: new\n  event: Stop\n  command: ./new.sh\n",
        ),
    );
    check_yaml(ZERO_INDENT, "remove a", Ok("hooks: []\n"));
}

#[test]
fn yaml_wide_indentation_and_dash_spacing() {
    let before = "hooks:\n    -   id: a\n        event: Stop\n        command: ./a.sh\n";
    check_yaml(
        before,
        "add",
        Ok(
            "hooks:\n    -   id: a\n        event: Stop\n        command: ./a.sh\n    -   id: new\n        event: Stop\n        command: ./new.sh\n",
        ),
    );
    check_yaml(
        before,
        "disable a",
        Ok(
            "hooks:\n    -   id: a\n        event: Stop\n        command: ./a.sh\n        enabled: false\n",
        ),
    );
}

#[test]
fn yaml_trailing_comments_and_spacing_of_a_value_are_kept() {
    let before = "hooks:\n  - id: a\n    event: Stop\n    command: ./a.sh\n    enabled: false   # until it is fixed\n";
    check_yaml(
        before,
        "enable a",
        Ok(
            "hooks:\n  - id: a\n    event: Stop\n    command: ./a.sh\n    enabled: true   # until it is fixed\n",
        ),
    );
    let before = "version: 1\nhooks:   # none yet\n";
    check_yaml(
        before,
        "add",
        Ok(
            "version: 1\nhooks:   # none yet\n  - id: new\n    event: Stop\n    command: ./new.sh\n",
        ),
    );
}

#[test]
fn yaml_document_markers_and_comments_between_keys() {
    let before = "%YAML 1.2\n---\n# hooks\nhooks:\n  - id: a\n    # what it runs\n    command: ./a.sh\n\n    event: Stop\n...\n";
    check_yaml(
        before,
        "disable a",
        Ok(
            "%YAML 1.2\n---\n# hooks\nhooks:\n  - id: a\n    # what it runs\n    command: ./a.sh\n\n    event: Stop\n    enabled: false\n...\n",
        ),
    );
}

#[test]
fn yaml_flow_style_is_refused_not_guessed() {
    let before = "hooks: [{id: a, event: Stop, command: ./a.sh}]\n";
    check_yaml(
        before,
        "disable a",
        Err("a layout the editor does not follow"),
    );
    check_yaml(before, "add", Err("flow style"));
}

#[test]
fn yaml_a_missing_hooks_key_is_created() {
    check_yaml(
        "version: 1\n",
        "add",
        Ok("version: 1\nhooks:\n  - id: new\n    event: Stop\n    command: ./new.sh\n"),
    );
    check_yaml(
        "",
        "add",
        Ok("hooks:\n  - id: new\n    event: Stop\n    command: ./new.sh\n"),
    );
    check_yaml(
        "hooks: []\n",
        "add",
        Ok("hooks:\n  - id: new\n    event: Stop\n    command: ./new.sh\n"),
    );
}

#[test]
fn a_dialect_that_cannot_hold_an_id_is_named_with_its_article() {
    for (file, text, expect) in [
        (
            "autohand.json",
            AUTOHAND,
            "error: an Autohand config cannot hold this hook as asked:",
        ),
        (
            "echo-agent.yaml",
            ECHO,
            "error: an echo-agent config cannot hold this hook as asked:",
        ),
        (
            ".claude/settings.json",
            CLAUDE,
            "error: a Claude Code config cannot hold this hook as asked:",
        ),
    ] {
        let env = Env::new();
        env.write(file, text);
        let run = env.run(&[
            "add",
            "--event",
            "Stop",
            "--command",
            "x",
            "--id",
            "named",
            "-c",
            file,
        ]);
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(run.stderr.lines().next(), Some(expect), "{file}");
    }
}

#[test]
fn a_timeout_that_is_not_one_says_what_a_timeout_looks_like() {
    let hint = "  hint: write a number of seconds (`30`) or a duration (`30s`, `500ms`, `1m 30s`)";
    for (timeout, why) in [
        ("abc", "a duration is a number and a unit"),
        ("5x", "`x` is not a unit (use ms, s, m or h)"),
        ("3.5.5s", "`.` cannot be part of a duration"),
        ("", "it is empty"),
    ] {
        let env = Env::new();
        env.write("hooks.yaml", NATIVE_YAML);
        let run = env.run(&[
            "add",
            "--event",
            "Stop",
            "--command",
            "x",
            "--timeout",
            timeout,
            "-c",
            "hooks.yaml",
        ]);
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(
            run.stderr,
            format!("error: `--timeout {timeout}` is not a timeout: {why}\n{hint}\n")
        );
    }
}

#[test]
fn a_directory_as_the_file_to_write_names_the_files_to_choose_from() {
    let env = Env::new();
    std::fs::create_dir_all(env.path().join("empty")).unwrap();
    env.write("one/hooks.yaml", NATIVE_YAML);
    env.write("two/a.yaml", NATIVE_YAML);
    env.write("two/b.json", CLAUDE);
    for (dir, expect) in [
        (
            "empty",
            "error: `-c empty` is a directory, and new hooks and switches go to one file; name it: `-c empty/hooks.yaml`\n",
        ),
        (
            "one",
            "error: `-c one` is a directory, and new hooks and switches go to one file; name it: `-c one/hooks.yaml`\n",
        ),
        (
            "two",
            "error: `-c two` is a directory, and new hooks and switches go to one file; name one of its files: `-c two/a.yaml`, `-c two/b.json`\n",
        ),
    ] {
        let run = env.run(&["add", "--event", "Stop", "--command", "x", "-c", dir]);
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(run.stderr, expect);
    }
}

#[test]
fn a_line_that_starts_no_hook_says_so_and_shows_the_nearest_hooks() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "hooks:\n  - id: guard\n    event: PreToolUse\n    command: echo hi\n  - event: Stop\n    command: echo bye\n",
    );
    let why = "the line is inside a hook, or the file changed since the line was shown";
    for (address, hint) in [
        (
            "hooks.yaml:3",
            "the nearest hooks start at hooks.yaml:2 (`guard`) and hooks.yaml:5 (`command: echo bye`)",
        ),
        (":1", "the nearest hook starts at hooks.yaml:2 (`guard`)"),
        (
            "hooks.yaml:40",
            "the nearest hook starts at hooks.yaml:5 (`command: echo bye`)",
        ),
    ] {
        let run = env.run(&["disable", address, "-c", "hooks.yaml"]);
        assert_eq!(run.code, 1, "{run:?}");
        assert_eq!(
            run.stderr,
            format!("error: no hook starts at `{address}`: {why}\n  hint: {hint}\n")
        );
    }
    // The line a hook starts on still works.
    assert_eq!(
        env.run(&["disable", "hooks.yaml:5", "-c", "hooks.yaml"])
            .code,
        0
    );
}
