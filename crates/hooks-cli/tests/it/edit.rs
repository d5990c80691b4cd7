//! `hooks enable|disable|add|remove` end to end through the binary: a file of each dialect
//! edited in place (the whole resulting text snapshotted: comments and formatting kept),
//! re-loaded to the expected hooks; addressing, errors, discovery, the atomic write and the
//! safety net that refuses an edit the editor got wrong.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// A scratch project with its own home, so discovery never sees the real user's files.
struct Project {
    dir: TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home/.config")).unwrap();
        Project { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }

    fn hooks(&self) -> Command {
        let mut cmd = Command::cargo_bin("hooks").unwrap();
        cmd.current_dir(self.dir.path())
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("home/.config"))
            .env("NO_COLOR", "1")
            .env_remove("CLICOLOR_FORCE");
        cmd
    }

    /// Runs `hooks ARGS`; returns the transcript: the command, its output, its exit code
    /// when not 0.
    fn run(&self, args: &[&str]) -> String {
        let out = self.hooks().args(args).output().unwrap();
        let mut t = format!("$ hooks {}\n", args.join(" "));
        t.push_str(&String::from_utf8_lossy(&out.stdout));
        for line in String::from_utf8_lossy(&out.stderr).lines() {
            t.push_str(&format!("stderr: {line}\n"));
        }
        if out.status.code() != Some(0) {
            t.push_str(&format!("exit: {:?}\n", out.status.code()));
        }
        t
    }

    /// Files in the directory of `rel`, sorted (temporary files would show here).
    fn listing(&self, rel: &str) -> Vec<String> {
        let dir = self.path(rel);
        let dir = dir.parent().unwrap();
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
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
    let p = Project::new();
    p.write(file, text);
    let before = p.listing(file);
    let mut transcript = String::new();
    for step in steps {
        let mut args: Vec<&str> = step.to_vec();
        args.extend(["-c", file]);
        transcript.push_str(&p.run(&args));
    }
    transcript.push_str(&format!("--- {file}\n{}", p.read(file)));
    insta::assert_snapshot!(name, transcript);
    assert_eq!(
        loaded(&p.path(file)),
        expect,
        "{name}: the hooks it loads to"
    );
    assert_eq!(p.listing(file), before, "{name}: no temporary files left");
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
    let p = Project::new();
    p.write("run.toml", FABRO);
    p.hooks()
        .args(["disable", "notify", "-c", "run.toml"])
        .assert()
        .success();
    p.hooks()
        .args(["disable", "lint", "-c", "run.toml"])
        .assert()
        .success();
    assert_eq!(loaded(&p.path("run.toml")), Vec::<String>::new());
    p.hooks()
        .args(["enable", "lint", "-c", "run.toml"])
        .assert()
        .success();
    p.hooks()
        .args(["enable", "notify", "-c", "run.toml"])
        .assert()
        .success();
    assert_eq!(p.read("run.toml"), FABRO);
    // A commented-out hook can be removed outright.
    p.hooks()
        .args(["disable", "lint", "-c", "run.toml"])
        .assert()
        .success();
    p.hooks()
        .args(["remove", "lint", "-c", "run.toml"])
        .assert()
        .success();
    assert!(!p.read("run.toml").contains("lint"));
    assert_eq!(loaded(&p.path("run.toml")), ["notify on"]);
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
    let p = Project::new();
    p.hooks()
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
    insta::assert_snapshot!("created_claude", p.read(".claude/settings.json"));
    p.hooks()
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
    insta::assert_snapshot!("created_native_toml", p.read("new.toml"));
    assert_eq!(loaded(&p.path("new.toml")), ["done on"]);
}

#[test]
fn without_config_add_writes_the_project_native_config() {
    let p = Project::new();
    let t = p.run(&[
        "add",
        "--event",
        "Stop",
        "--command",
        "./done.sh",
        "--id",
        "done",
    ]);
    assert!(t.contains("added `done` on Stop to"), "{t}");
    assert!(t.contains("hooks trust"), "a note on trust: {t}");
    assert_eq!(
        p.read(".hooks/hooks.yaml"),
        "hooks:\n  - id: done\n    event: Stop\n    command: ./done.sh\n"
    );
}

#[test]
fn without_config_the_file_that_defines_the_hook_is_edited() {
    let p = Project::new();
    p.write(".hooks/hooks.yaml", NATIVE_YAML);
    p.write(".claude/settings.json", CLAUDE);
    p.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - id: mine\n    event: Stop\n    command: ./mine.sh\n",
    );
    p.hooks().args(["disable", "mine"]).assert().success();
    assert_eq!(
        p.read("home/.config/hooks/hooks.yaml"),
        "hooks:\n  - id: mine\n    event: Stop\n    command: ./mine.sh\n    enabled: false\n"
    );
    p.hooks().args(["remove", "./notify.sh"]).assert().success();
    assert!(!p.read(".claude/settings.json").contains("notify"));
    assert_eq!(p.read(".hooks/hooks.yaml"), NATIVE_YAML);
}

#[test]
fn unknown_hook_is_an_error_with_a_did_you_mean() {
    let p = Project::new();
    p.write("hooks.yaml", NATIVE_YAML);
    let t = p.run(&["disable", "gaurd", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("unknown_hook", t);
    assert_eq!(p.read("hooks.yaml"), NATIVE_YAML);
}

#[test]
fn an_address_that_names_two_hooks_lists_them() {
    let p = Project::new();
    let text = "hooks:\n  - event: Stop\n    command: ./same.sh\n  - event: SessionEnd\n    command: ./same.sh\n";
    p.write("hooks.yaml", text);
    let t = p.run(&["remove", "./same.sh", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("ambiguous", t);
    // FILE:LINE (or :LINE) picks one.
    p.hooks()
        .args(["remove", "hooks.yaml:4", "-c", "hooks.yaml"])
        .assert()
        .success();
    assert_eq!(
        p.read("hooks.yaml"),
        "hooks:\n  - event: Stop\n    command: ./same.sh\n"
    );
}

#[test]
fn a_file_that_does_not_parse_is_an_error() {
    let p = Project::new();
    let text = "hooks:\n  - id: a\n    event: PreToolUze\n    command: x\n";
    p.write("hooks.yaml", text);
    let t = p.run(&["disable", "a", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("does_not_parse", t);
    assert_eq!(p.read("hooks.yaml"), text);
}

#[test]
fn claude_and_echo_hooks_cannot_be_disabled_in_place() {
    let p = Project::new();
    p.write(".claude/settings.json", CLAUDE);
    let t = p.run(&["disable", "./guard.sh", "-c", ".claude/settings.json"]);
    insta::assert_snapshot!("claude_disable_refused", t);
    assert_eq!(p.read(".claude/settings.json"), CLAUDE);
    p.write("echo-agent.yaml", ECHO);
    let out = p
        .hooks()
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
    assert_eq!(p.read("echo-agent.yaml"), ECHO);
}

#[test]
fn what_a_dialect_cannot_hold_is_refused_on_add() {
    let p = Project::new();
    p.write(".claude/settings.json", CLAUDE);
    let t = p.run(&[
        "add",
        "--event",
        "Stop",
        "--command",
        "x",
        "--id",
        "named",
        "-c",
        ".claude/settings.json",
    ]);
    insta::assert_snapshot!("claude_add_id_refused", t);
    assert_eq!(p.read(".claude/settings.json"), CLAUDE);
}

#[test]
fn permissions_and_symlinks_survive_an_edit() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    p.write("real/hooks.yaml", NATIVE_YAML);
    std::fs::set_permissions(
        p.path("real/hooks.yaml"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    std::os::unix::fs::symlink(p.path("real/hooks.yaml"), p.path("link.yaml")).unwrap();
    p.hooks()
        .args(["disable", "log", "-c", "link.yaml"])
        .assert()
        .success();
    let link = std::fs::symlink_metadata(p.path("link.yaml")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is still a link");
    let real = std::fs::metadata(p.path("real/hooks.yaml")).unwrap();
    assert_eq!(real.permissions().mode() & 0o777, 0o640);
    assert!(
        p.read("real/hooks.yaml")
            .contains("    async: true\n    enabled: false\n")
    );
    assert_eq!(p.listing("real/hooks.yaml"), ["hooks.yaml"]);
}

/// Runs `hooks ARGS` with a file-size limit of 512 bytes, so writing the new config fails
/// part way. With `ignore_signal`, the write returns an error; without, the kernel kills
/// the process mid-write (SIGXFSZ), as a crash would.
fn run_with_size_limit(p: &Project, args: &[&str], ignore_signal: bool) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("hooks");
    let trap = if ignore_signal { "trap '' XFSZ; " } else { "" };
    let script = format!("{trap}ulimit -f 1; exec \"$0\" \"$@\"");
    let mut cmd = Command::new("sh");
    cmd.current_dir(p.dir.path())
        .env("HOME", p.path("home"))
        .env("XDG_CONFIG_HOME", p.path("home/.config"))
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
    let p = Project::new();
    let text = big_config();
    p.write("cfg/hooks.yaml", &text);
    let out = run_with_size_limit(&p, &["disable", "guard", "-c", "cfg/hooks.yaml"], true);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write a temporary file for hooks.yaml"),
        "{err}"
    );
    assert_eq!(p.read("cfg/hooks.yaml"), text);
    assert_eq!(p.listing("cfg/hooks.yaml"), ["hooks.yaml"]);
}

#[test]
fn a_crash_mid_write_leaves_the_file_untouched() {
    use std::os::unix::process::ExitStatusExt;
    let p = Project::new();
    let text = big_config();
    p.write("cfg/hooks.yaml", &text);
    let out = run_with_size_limit(&p, &["disable", "guard", "-c", "cfg/hooks.yaml"], false);
    assert_eq!(out.status.signal(), Some(25), "killed by SIGXFSZ");
    assert_eq!(p.read("cfg/hooks.yaml"), text);
    // A crash can leave the half-written temporary file, never a half-written config; the
    // leftover is a hidden file that no loader reads.
    for name in p.listing("cfg/hooks.yaml") {
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
    let p = Project::new();
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
    let t = p.run(&["disable", "one", "-c", "hooks.yaml"]);
    insta::assert_snapshot!("safety_net", t);
    assert_eq!(p.read("hooks.yaml"), text);
    // The second hook's own entry is edited normally.
    p.hooks()
        .args(["disable", "two", "-c", "hooks.yaml"])
        .assert()
        .success();
    assert_eq!(loaded(&p.path("hooks.yaml")), ["one on", "two off"]);
}
