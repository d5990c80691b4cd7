//! Nothing succeeds silently: when `hooks run` or `hooks replay` runs no hook, stderr says
//! why (hooks waiting for trust with the `hooks trust FILE` to run, the file that switched
//! every hook off, disabled hooks, no config at all and where discovery looked), and
//! `--json` carries the same reasons in a `notes` array.

use crate::support::Env;

const BASH_RM: &str = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;

const GUARD: &str = r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    command: echo refusing >&2; exit 2
"#;

/// `hooks run PreToolUse` on an `rm -rf /` in an environment holding `files`: the human
/// form's stderr is `stderr` (after the temporary directory is masked), and the `--json`
/// object's `notes` have the kinds `kinds`.
#[track_caller]
fn check(files: &[(&str, &str)], extra: &[&str], stderr: &str, kinds: &[&str]) {
    let env = Env::new();
    for (rel, text) in files {
        env.write(rel, text);
    }
    let mut args = vec!["run", "PreToolUse", "-p", BASH_RM];
    args.extend_from_slice(extra);
    let human = env.run(&args);
    assert_eq!(human.code, 0, "{files:?}: {human:?}");
    assert_eq!(human.stderr, stderr, "{files:?}");
    args.push("--json");
    let json = env.run(&args);
    assert_eq!(json.code, 0, "{files:?}: {json:?}");
    let value = json.json();
    let found: Vec<&str> = value["notes"]
        .as_array()
        .map(|notes| notes.iter().map(|n| n["kind"].as_str().unwrap()).collect())
        .unwrap_or_default();
    assert_eq!(found, kinds, "{files:?}: {value}");
}

#[test]
fn run_says_why_no_hook_ran() {
    check(
        &[(".hooks/hooks.yaml", GUARD)],
        &[],
        "note: 1 hook for PreToolUse waits for trust in .hooks/hooks.yaml: review it, \
         then run `hooks trust .hooks/hooks.yaml`\n",
        &["untrusted"],
    );
    check(
        &[(
            "home/.config/hooks/hooks.yaml",
            &format!("disable_all_hooks: true\n{GUARD}"),
        )],
        &[],
        "note: 1 hook for PreToolUse did not run: `disable_all_hooks` in \
         home/.config/hooks/hooks.yaml switches every hook off\n",
        &["all_hooks_disabled"],
    );
    check(
        &[
            ("home/.config/hooks/hooks.yaml", GUARD),
            ("home/.claude/settings.json", r#"{"disableAllHooks": true}"#),
        ],
        &[],
        "note: 1 hook for PreToolUse did not run: `disableAllHooks` in \
         home/.claude/settings.json switches every hook off\n",
        &["all_hooks_disabled"],
    );
    check(
        &[("hooks.yaml", &format!("{GUARD}    enabled: false\n"))],
        &["-c", "hooks.yaml"],
        "note: 1 hook for PreToolUse is disabled: guard (turn one on with `hooks enable guard`)\n",
        &["disabled"],
    );
    check(
        &[(
            "hooks.yaml",
            "hooks:\n  - id: s\n    event: Stop\n    command: \"true\"\n",
        )],
        &["-c", "hooks.yaml"],
        "note: no hook listens to PreToolUse (1 hook in 1 file; `hooks list` shows them)\n",
        &["no_match"],
    );
    check(
        &[(
            "hooks.yaml",
            &GUARD.replace("matcher: Bash", "matcher: Write"),
        )],
        &["-c", "hooks.yaml"],
        "note: none of the 1 hook for PreToolUse matches this payload \
         (`hooks explain PreToolUse` with the same payload says why)\n",
        &["no_match"],
    );
    // The human output names async hooks on stdout already; `--json` has them as a note.
    check(
        &[("hooks.yaml", &format!("{GUARD}    async: true\n"))],
        &["-c", "hooks.yaml"],
        "",
        &["async"],
    );
    // A hook that runs needs no note, and the JSON is the aggregate alone.
    let env = Env::new();
    env.write("hooks.yaml", GUARD);
    let run = env.run(&[
        "run",
        "PreToolUse",
        "-p",
        BASH_RM,
        "-c",
        "hooks.yaml",
        "--json",
    ]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, "");
    assert!(run.json().get("notes").is_none(), "{}", run.stdout);
}

#[test]
fn with_no_config_run_says_where_it_looked() {
    let env = Env::new();
    let run = env.run(&["run", "PreToolUse", "-p", BASH_RM]);
    assert_eq!(run.code, 0, "{run:?}");
    let first = run.stderr.lines().next().unwrap();
    assert_eq!(
        first,
        "note: no config file found for the project [dir], so no hook ran \
         (`hooks init` installs the built-in hooks; `hooks add` adds one to the project)"
    );
    for place in [
        "    [dir]/home/.config/hooks/hooks.{yaml,yml,toml,json}",
        "    [dir]/home/.claude/settings.json",
        "    [dir]/.hooks/hooks.{yaml,yml,toml,json}",
        "    [dir]/.claude/settings.local.json",
        // Files that have one spelling are named as they are.
        "    [dir]/home/.gemini/extensions/*/hooks/hooks.json",
        "    [dir]/home/.codex/plugins/cache/*/*/*/hooks/hooks.json",
        "    [dir]/home/.cline/hooks/*",
        "    [dir]/.clinerules/hooks/*",
    ] {
        assert!(
            run.stderr.lines().any(|l| l == place),
            "{place}:\n{}",
            run.stderr
        );
    }
    let json = env
        .run(&["run", "PreToolUse", "-p", BASH_RM, "--json"])
        .json();
    assert_eq!(json["notes"][0]["kind"], "no_config", "{json}");
    assert!(
        json["notes"][0]["looked_in"]
            .as_array()
            .unwrap()
            .contains(&"[dir]/.claude/settings.json".into()),
        "{json}"
    );
}

#[test]
fn the_trust_command_a_note_gives_makes_the_hook_run() {
    let env = Env::new();
    env.write(".hooks/hooks.yaml", GUARD);
    let before = env
        .run(&["run", "PreToolUse", "-p", BASH_RM, "--json"])
        .json();
    let command = before["notes"][0]["command"].as_str().unwrap().to_owned();
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(words[0], "hooks", "{command}");
    let trust = env.run(&words[1..]);
    assert_eq!(trust.code, 0, "{trust:?}");
    let after = env.run(&["run", "PreToolUse", "-p", BASH_RM, "--json"]);
    assert_eq!(after.code, 2, "the guard runs once trusted: {after:?}");
    assert!(after.json().get("notes").is_none(), "{}", after.stdout);
}

#[test]
fn replay_says_once_why_events_ran_nothing() {
    let env = Env::new();
    env.write(".hooks/hooks.yaml", GUARD);
    let line = format!(r#"{{"event": "PreToolUse", "payload": {BASH_RM}}}"#);
    env.write(
        "s.jsonl",
        &format!("{line}\n{line}\n{{\"event\": \"Stop\"}}\n"),
    );
    let human = env.run(&["replay", "s.jsonl"]);
    assert_eq!(human.code, 0, "{human:?}");
    assert_eq!(
        human.stderr,
        "note: 1 hook for PreToolUse waits for trust in .hooks/hooks.yaml: review it, \
         then run `hooks trust .hooks/hooks.yaml` (2 events)\n"
    );
    let json = env.run(&["replay", "s.jsonl", "--json"]);
    let kinds: Vec<String> = json
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["notes"][0]["kind"].as_str().unwrap_or("-").to_owned()
        })
        .collect();
    assert_eq!(kinds, ["untrusted", "untrusted", "no_match"]);
}

/// A matching project hook that waits for trust is named, once, with the command that
/// trusts it, also when another hook ran.
#[test]
fn run_names_a_hook_waiting_for_trust_when_another_hook_ran() {
    let user = "hooks:\n  - id: log\n    event: PreToolUse\n    command: 'true'\n";
    check(
        &[
            ("home/.config/hooks/hooks.yaml", user),
            (".hooks/hooks.yaml", GUARD),
        ],
        &[],
        "note: 1 hook for PreToolUse waits for trust in .hooks/hooks.yaml: review it, \
         then run `hooks trust .hooks/hooks.yaml`\n",
        &["untrusted"],
    );
    // Nothing to say when nothing waits.
    check(&[("home/.config/hooks/hooks.yaml", user)], &[], "", &[]);
}
