//! `hooks list`: grouped by event, with state, source and trust; JSON; colours only on a
//! terminal (or when forced).

use insta::{assert_json_snapshot, assert_snapshot};

use crate::support::{Env, POLICY};

/// A project whose `.claude/settings.json` is discovered (and so needs trust), next to a
/// user-level native config.
fn project() -> Env {
    let env = Env::new();
    env.write("home/.config/hooks/hooks.yaml", POLICY);
    env.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "./check.sh"}]}]}}"#,
    );
    env
}

#[test]
fn grouped_by_event_with_state_source_and_trust() {
    let env = project();
    let run = env.run(&["list"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_snapshot!(run.stdout);
}

#[test]
fn json_listing() {
    let env = project();
    let run = env.run(&["list", "--json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_json_snapshot!(run.json());
}

#[test]
fn named_files_need_no_trust() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let json = env.run(&["list", "-c", "hooks.yaml", "--json"]).json();
    assert_eq!(json["total"], 6);
    assert_eq!(json["enabled"], 5);
    let states: Vec<&str> = json["events"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["hooks"].as_array().unwrap())
        .map(|h| h["trust"].as_str().unwrap())
        .collect();
    assert!(states.iter().all(|s| *s == "not_needed"), "{states:?}");
}

#[test]
fn colours_only_when_asked_or_on_a_terminal() {
    let env = Env::new();
    env.write("hooks.yaml", POLICY);
    let plain = env.run(&["list", "-c", "hooks.yaml"]);
    assert!(!plain.stdout.contains('\x1b'), "piped output is plain");
    let forced = env.finish(
        env.command()
            .args(["list", "-c", "hooks.yaml"])
            .env_remove("NO_COLOR")
            .env("CLICOLOR_FORCE", "1"),
    );
    assert!(
        forced.stdout.contains("\x1b[32m[enabled]\x1b[0m"),
        "{}",
        forced.stdout
    );
}

#[test]
fn disable_all_hooks_is_the_mode() {
    let env = Env::new();
    env.write(
        "settings.json",
        r#"{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let run = env.run(&["list", "-c", "settings.json"]);
    assert_snapshot!(run.stdout);
}

/// `-c` names Cline's hooks directory (one executable per event) as discovery loads it:
/// its files named after Cline's events, for `list` and `run` alike.
#[test]
fn a_clines_hooks_directory_can_be_named_with_c() {
    let env = Env::new();
    for (event, body) in [
        ("PreToolUse", "#!/bin/sh\necho '{\"cancel\": false}'\n"),
        ("TaskStart", "#!/bin/sh\necho '{}'\n"),
    ] {
        let path = env.write(&format!(".clinerules/hooks/{event}"), body);
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&path, perms).unwrap();
    }
    env.write(".clinerules/hooks/README.md", "notes, not a hook\n");
    let list = env.run(&["list", "--json", "-c", ".clinerules/hooks"]);
    assert_eq!(list.code, 0, "{list:?}");
    let files: Vec<String> = list.json()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["path"].as_str().unwrap(), f["dialect"]))
        .collect();
    assert_eq!(
        files,
        [
            ".clinerules/hooks/TaskStart \"cline\"",
            ".clinerules/hooks/PreToolUse \"cline\""
        ]
    );
    let run = env.run(&[
        "run",
        "PreToolUse",
        "--json",
        "-c",
        ".clinerules/hooks",
        "-p",
        r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}}"#,
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["hooks"][0]["status"], "ok", "{run:?}");
}
