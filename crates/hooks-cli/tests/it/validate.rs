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
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": 5}]}]}}"#,
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
         hint: give it a `hooks` key (native, Claude, echo-agent, Autohand or Cursor shape) or \
         Fabro's `_version`/`[run]`, or name the dialect: \
         `--dialect native|claude|echo|fabro|autohand|cursor|cline` on the command line, `LoadOptions::with_dialect` in code\ninvalid: 1 error, 0 warnings\n"
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

/// A project whose hooks run scripts that are missing or not executable, an http hook no
/// allow-list lets through and a Claude Code hook left to the 600 s default.
fn project_with_script_problems() -> Env {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let script = |rel: &str, mode: u32| {
        let path = env.write(rel, "#!/bin/sh\nexit 0\n");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    script(".claude/hooks/ok.sh", 0o755);
    script("noexec.sh", 0o644);
    script("sub/bin/tool", 0o755);
    script("tools/run.sh", 0o755);
    env.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/ok.sh", "timeout": 10},
    {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/missing.sh --flag"},
    {"type": "command", "command": "./noexec.sh", "timeout": 5},
    {"type": "command", "command": "bash ./scripts/gone.sh", "timeout": 5},
    {"type": "command", "command": "jq . >/dev/null && ./noexec.sh", "timeout": 5},
    {"type": "http", "url": "https://hooks.example.com/x", "timeout": 5}
]}]}}"#,
    );
    env.write(
        ".hooks/hooks.yaml",
        "hooks:
  - event: Stop
    args: [bin/tool, --check]
    cwd: sub
  - event: Stop
    args: [bin/tool]
  - event: Stop
    command: FORCE=1 $TOOLS/run.sh
    env: {TOOLS: ./tools}
  - event: Stop
    command: ${NOT_SET_ANYWHERE_H}/x.sh
",
    );
    env.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/hooks/stop.sh", "timeout": 5}]}]}}"#,
    );
    env
}

#[test]
fn missing_scripts_and_clamped_defaults_are_warnings() {
    let env = project_with_script_problems();
    let run = env.run(&["validate"]);
    assert_eq!(run.code, 0, "{run:?}");
    // (where, what): each warning, at its hook's file:line:col, with a hint.
    let expected = [
        (
            "[dir]/.claude/settings.json:3:5",
            "the hook has no `timeout`, and the claude default of 10m is above the maximum of 5m; using 5m",
        ),
        (
            "[dir]/.claude/settings.json:3:5",
            "the hook runs `[dir]/.claude/hooks/missing.sh`, which does not exist",
        ),
        (
            "[dir]/.claude/settings.json:4:5",
            "the hook runs `./noexec.sh`, which is not executable",
        ),
        (
            "[dir]/.claude/settings.json:5:5",
            "the hook runs `./scripts/gone.sh`, which does not exist",
        ),
        (
            "[dir]/.hooks/hooks.yaml:5:5",
            "the hook runs `bin/tool`, which does not exist",
        ),
        (
            "[dir]/home/.claude/settings.json:1:32",
            "the hook runs `[dir]/hooks/stop.sh`, which does not exist",
        ),
    ];
    for (at, what) in expected {
        let line = format!("{at}: warning: {what}");
        let Some(start) = run.stdout.find(&line) else {
            panic!("missing `{line}` in:\n{}", run.stdout);
        };
        let next = run.stdout[start..].lines().nth(1).unwrap_or_default();
        let hint = run.stdout[start..]
            .lines()
            .skip(1)
            .take(3)
            .any(|l| l.trim_start().starts_with("hint: "));
        assert!(
            hint,
            "no hint after `{line}` (next: {next}):\n{}",
            run.stdout
        );
    }
    // Nothing else: the scripts that exist and run, a bare name, an unknown variable.
    assert_eq!(
        run.stdout.matches(": warning: ").count(),
        expected.len(),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with(&format!("{} warnings\n", expected.len())),
        "{}",
        run.stdout
    );
    // A listing is not a linter: the clamped default is for `validate` only.
    let list = env.run(&["list"]);
    assert!(!list.stdout.contains("no `timeout`"), "{}", list.stdout);
}

#[test]
fn an_http_hook_outside_the_allow_list_in_force_is_a_warning_with_a_hint() {
    let env = Env::new();
    env.write(
        "hooks.yaml",
        "allowed_http_hook_urls: [\"https://hooks.example.com/ci\"]\nhooks:\n  - event: Stop\n    url: https://hooks.example.com/cider\n    timeout: 5\n  - event: Stop\n    url: https://hooks.example.com/ci/run\n    timeout: 5\n",
    );
    let run = env.run(&["validate", "-c", "hooks.yaml"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout, @r"
    hooks.yaml:3:5: warning: http hook `http: https://hooks.example.com/cider` does not run: its URL is not in the allowed HTTP hook URLs
      hint: add a pattern that covers it to `allowed_http_hook_urls` (`allowedHttpHookUrls` in Claude Code's settings), such as `https://hooks.example.com/`; the lists in force: https://hooks.example.com/ci
    valid: 1 file, 2 hooks, 1 warning
    ");
}

/// The hint a broken file gets from `hooks run`, "`hooks validate FILE` shows every
/// problem", is a command that works: run as printed, with the file, it shows every problem.
#[test]
fn the_broken_file_hint_names_a_command_that_works() {
    let env = Env::new();
    env.write(
        "a.yaml",
        "hooks:\n  - event: PreToolUse\n    matchr: Bash\n    command: ./guard.sh\n",
    );
    let run = env.run(&["run", "PreToolUse", "-c", "a.yaml", "-p", "{}"]);
    let hint = run
        .stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("hint: `"))
        .unwrap_or_else(|| panic!("no hint: {run:?}"));
    let command = hint.split('`').next().unwrap().replace("FILE", "a.yaml");
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[..2], ["hooks", "validate"], "{hint}");
    let validate = env.run(&words[1..]);
    assert_eq!(validate.code, 1, "{validate:?}");
    assert!(
        validate
            .stdout
            .contains("a.yaml:3:5: error: unknown key `matchr` in `hooks[0]`"),
        "{validate:?}"
    );
}

/// Every command a hint or message of the command line names (each backquoted
/// `hooks ...` in the sources, placeholders filled in) is one the command line takes: no
/// unknown subcommand, argument or value.
#[test]
fn every_hooks_command_a_hint_names_parses() {
    use clap::Parser;
    use clap::error::ErrorKind;
    let root = crate::support::workspace_root().join("crates");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.ends_with("tests") {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let placeholders = [
        ("FILE", "a.yaml"),
        ("HOOK_ID", "guard"),
        ("TARGET", "guard"),
        ("AGENT", "claude"),
        ("EVENT", "PreToolUse"),
        ("NAME", "ask"),
        ("SETTINGS", "settings.json"),
        ("DIALECT", "native"),
        ("{label}", "guard"),
        ("SHELL", "bash"),
    ];
    // What a format string's `{}` may stand for: a file, an agent, nothing.
    let fillings = ["a.yaml", "claude", ""];
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for piece in text.split('`').skip(1).step_by(2) {
            let Some(rest) = piece.strip_prefix("hooks ") else {
                continue;
            };
            // Synopses (`hooks trust [FILE|HOOK_ID] ...`) and alternatives are not commands.
            let is_word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase());
            if !rest.split_whitespace().next().is_some_and(is_word)
                || rest.contains(['[', '|', '<', '\n', '"', '\\', '.'])
                || rest
                    .split_whitespace()
                    .any(|w| w.starts_with('{') && w.len() > 2 && w != "{label}")
            {
                continue;
            }
            // A flag named on its own (`hooks run --from`) is a mention, not a command.
            if rest
                .split_whitespace()
                .last()
                .is_some_and(|w| w.starts_with("--"))
            {
                continue;
            }
            let mut command = rest.to_owned();
            for (from, to) in placeholders {
                command = command.replace(from, to);
            }
            let parse = |filling: &str| {
                let command = command.replace("{}", filling);
                let args = std::iter::once("hooks").chain(command.split_whitespace());
                match hooks_cli::cli::Cli::try_parse_from(args) {
                    Ok(_) => Ok(()),
                    Err(e)
                        if matches!(
                            e.kind(),
                            ErrorKind::MissingRequiredArgument
                                | ErrorKind::MissingSubcommand
                                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                        ) =>
                    {
                        Ok(())
                    }
                    Err(e) => Err(e.to_string().lines().next().unwrap_or_default().to_owned()),
                }
            };
            let errors: Vec<String> = fillings.iter().filter_map(|f| parse(f).err()).collect();
            if errors.len() == fillings.len() {
                wrong.push(format!(
                    "`hooks {rest}` in {}: {}",
                    file.display(),
                    errors[0]
                ));
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 100, "only {checked} commands found");
}
