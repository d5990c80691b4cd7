//! `hooks migrate claude` (and `cursor`): a Claude Code settings file's hooks move into the native config
//! of the same layer and run once, from there, deciding as before; every other key stays
//! byte for byte; trust moves with the hooks and never grows; `--undo` restores the files
//! byte for byte; a second run changes nothing.

use serde_json::Value;

use crate::support::Env;

/// A guard that blocks `rm -rf` (with 600 s, which loads clamped) and a hook that allows.
const HOOKS: &str = r#"{
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "case \"$(cat)\" in *'rm -rf'*) echo 'no rm -rf' >&2; exit 2;; esac", "timeout": 600}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "echo done", "statusMessage": "Say done"}]}]
  }"#;

/// A settings file whose other keys are written in several styles.
fn settings(hooks: &str) -> String {
    format!(
        "{{\n  \"permissions\": {{\"allow\": [\"Bash(npm test)\"],\n                  \"deny\": []}},\n  \"hooks\": {hooks},\n  \"env\":{{\"A\" :\"1\"}},\n  \"model\": \"opus\"\n}}\n"
    )
}

/// The same file without its `hooks` key.
const WITHOUT_HOOKS: &str = "{\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"],\n                  \"deny\": []},\n  \"env\":{\"A\" :\"1\"},\n  \"model\": \"opus\"\n}\n";

const BLOCKED: &str = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
const ALLOWED: &str = r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#;

/// What `hooks run` decided for a payload: exit code, decision, reason, hooks that ran.
fn decide(env: &Env, event: &str, payload: &str) -> (i32, Value, Value, usize) {
    let run = env.run(&["run", event, "--json", "-p", payload]);
    let json = run.json();
    let ran = json["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["status"] != "skipped")
        .count();
    (
        run.code,
        json["decision"].clone(),
        json["reason"].clone(),
        ran,
    )
}

/// Every decision the tests compare before and after.
fn decisions(env: &Env) -> Vec<(i32, Value, Value, usize)> {
    vec![
        decide(env, "PreToolUse", BLOCKED),
        decide(env, "PreToolUse", ALLOWED),
        decide(env, "Stop", "{}"),
    ]
}

/// `(file, declared id)` of each hook `hooks list --json` shows.
fn listed(env: &Env) -> Vec<(String, Option<String>, String)> {
    let json = env.run(&["list", "--json"]).json();
    let mut out = Vec::new();
    for event in json["events"].as_array().unwrap() {
        for h in event["hooks"].as_array().unwrap() {
            let file = h["file"].as_str().unwrap();
            let rel = file.rsplit_once("/p/").map_or(file, |(_, r)| r);
            out.push((
                rel.to_owned(),
                h["declared_id"].as_str().map(str::to_owned),
                h["trust"].as_str().unwrap_or_default().to_owned(),
            ));
        }
    }
    out
}

/// An environment working in the project `p/`, with the given Claude settings.
fn project(text: &str) -> Env {
    let env = Env::new().in_dir("p");
    env.write("p/.claude/settings.json", text);
    env
}

#[test]
fn a_trusted_project_file_moves_runs_once_decides_the_same_and_comes_back_byte_for_byte() {
    let original = settings(HOOKS);
    let env = project(&original);
    assert_eq!(env.run(&["trust", ".claude/settings.json"]).code, 0);
    let before = decisions(&env);
    assert_eq!(before[0].0, 2, "the guard blocks before: {before:?}");
    assert_eq!(before[1].0, 0, "{before:?}");

    let run = env.run(&["migrate", "claude"]);
    assert_eq!(run.code, 0, "{run:?}");
    insta::assert_snapshot!("migrate_project", run.stdout);
    let path = env.path().join("p/.claude/settings.json");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), WITHOUT_HOOKS);
    // Each hook once, from the native file, still trusted.
    assert_eq!(
        listed(&env),
        [
            (
                ".hooks/hooks.yaml".to_owned(),
                Some("project-pre-tool-use-1".to_owned()),
                "trusted".to_owned()
            ),
            (
                ".hooks/hooks.yaml".to_owned(),
                Some("project-stop-1".to_owned()),
                "trusted".to_owned()
            ),
        ]
    );
    assert_eq!(decisions(&env), before);

    // A second run changes nothing.
    let native = std::fs::read_to_string(env.path().join("p/.hooks/hooks.yaml")).unwrap();
    let again = env.run(&["migrate", "claude"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout.contains("were already moved"), "{again:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), WITHOUT_HOOKS);
    assert_eq!(
        std::fs::read_to_string(env.path().join("p/.hooks/hooks.yaml")).unwrap(),
        native
    );

    let undo = env.run(&["migrate", "claude", "--undo"]);
    assert_eq!(undo.code, 0, "{undo:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    assert!(!env.path().join("p/.hooks/hooks.yaml").exists());
    // Trusted again as the file it was, with no new grant needed.
    assert_eq!(
        listed(&env)
            .iter()
            .map(|(f, _, t)| (f.as_str(), t.as_str()))
            .collect::<Vec<_>>(),
        [
            (".claude/settings.json", "trusted"),
            (".claude/settings.json", "trusted")
        ]
    );
    assert_eq!(decisions(&env), before);
}

#[test]
fn untrusted_hooks_stay_untrusted_when_moved_into_a_trusted_file() {
    let env = project(&settings(HOOKS));
    env.write(
        "p/.hooks/hooks.yaml",
        "# mine\nhooks:\n  - id: mine\n    event: Stop\n    command: echo mine\n",
    );
    assert_eq!(env.run(&["trust", ".hooks/hooks.yaml"]).code, 0);
    let before = decisions(&env);
    // The repository's guard waits for trust: nothing blocks.
    assert_eq!(before[0].0, 0, "{before:?}");

    let run = env.run(&["migrate", "claude"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("note: 2 hooks of .hooks/hooks.yaml wait for trust: review it, then `hooks trust .hooks/hooks.yaml`"),
        "{run:?}"
    );
    let text = std::fs::read_to_string(env.path().join("p/.hooks/hooks.yaml")).unwrap();
    assert!(
        text.starts_with("# mine\nhooks:\n  - id: mine\n    event: Stop\n    command: echo mine\n  - id: project-pre-tool-use-1\n"),
        "{text}"
    );
    assert_eq!(
        listed(&env)
            .iter()
            .map(|(_, id, t)| (id.clone().unwrap_or_default(), t.clone()))
            .collect::<Vec<_>>(),
        [
            ("project-pre-tool-use-1".to_owned(), "untrusted".to_owned()),
            ("mine".to_owned(), "trusted".to_owned()),
            ("project-stop-1".to_owned(), "untrusted".to_owned()),
        ]
    );
    assert_eq!(decisions(&env), before);
}

#[test]
fn user_and_local_settings_move_into_their_own_layers_native_file() {
    for (settings_file, native, id) in [
        (
            "home/.claude/settings.json",
            "home/.config/hooks/hooks.yaml",
            "user-stop-1",
        ),
        (
            "p/.claude/settings.local.json",
            "p/.hooks/hooks.local.yaml",
            "local-stop-1",
        ),
    ] {
        let env = Env::new().in_dir("p");
        let text = "{\"model\": \"opus\", \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo done\"}]}]}}\n";
        let path = env.write(settings_file, text);
        let arg = path.display().to_string();
        let run = env.run(&["migrate", "claude", &arg]);
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"model\": \"opus\"}\n"
        );
        let moved = std::fs::read_to_string(env.path().join(native)).unwrap();
        assert!(moved.contains(&format!("id: {id}")), "{moved}");
        let undo = env.run(&["migrate", "claude", "--undo", &arg]);
        assert_eq!(undo.code, 0, "{undo:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

#[test]
fn generated_ids_avoid_the_ids_of_other_layers() {
    let env = project(&settings(HOOKS));
    // A user hook with the id the first moved hook would get: the same id would replace it.
    env.write(
        "home/.config/hooks/hooks.yaml",
        "hooks:\n  - id: project-pre-tool-use-1\n    event: Stop\n    command: echo user\n",
    );
    let run = env.run(&["migrate", "claude"]);
    assert_eq!(run.code, 0, "{run:?}");
    let text = std::fs::read_to_string(env.path().join("p/.hooks/hooks.yaml")).unwrap();
    assert!(text.contains("id: project-pre-tool-use-2\n"), "{text}");
    assert!(!text.contains("id: project-pre-tool-use-1\n"), "{text}");
}

#[test]
fn refusals_leave_every_file_as_it_is() {
    let env = project(&settings(HOOKS));
    let path = env.path().join("p/.claude/settings.json");
    assert_eq!(env.run(&["migrate", "claude"]).code, 0);

    // Hooks added to the settings file again: a second migration would lose the undo.
    let readded =
        settings(r#"{"Stop": [{"hooks": [{"type": "command", "command": "echo again"}]}]}"#);
    std::fs::write(&path, &readded).unwrap();
    let native = std::fs::read_to_string(env.path().join("p/.hooks/hooks.yaml")).unwrap();
    let run = env.run(&["migrate", "claude"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr.contains("was migrated to")
            && run.stderr.contains("undo the earlier migration first"),
        "{run:?}"
    );
    // And the undo refuses too: the settings file was edited since.
    let undo = env.run(&["migrate", "claude", "--undo"]);
    assert_eq!(undo.code, 1, "{undo:?}");
    assert!(
        undo.stderr.contains("was edited after the migration"),
        "{undo:?}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), readded);
    assert_eq!(
        std::fs::read_to_string(env.path().join("p/.hooks/hooks.yaml")).unwrap(),
        native
    );

    // Nothing to undo, nothing to migrate, a file outside the standard places.
    let other = project("{\"model\": \"opus\"}\n");
    let none = other.run(&["migrate", "claude", "--undo"]);
    assert_eq!(none.code, 1, "{none:?}");
    assert!(none.stderr.contains("no migration of"), "{none:?}");
    let nothing = other.run(&["migrate", "claude"]);
    assert_eq!(nothing.code, 0, "{nothing:?}");
    assert!(
        nothing.stdout.contains("has no hooks; nothing to migrate"),
        "{nothing:?}"
    );
    other.write("p/elsewhere/settings.json", &settings(HOOKS));
    let elsewhere = other.run(&["migrate", "claude", "elsewhere/settings.json"]);
    assert_eq!(elsewhere.code, 1, "{elsewhere:?}");
    assert!(
        elsewhere
            .stderr
            .contains("name the native file with `--to FILE`"),
        "{elsewhere:?}"
    );
}

/// `hooks migrate cursor ~/.cursor/hooks.json`: the user's Cursor hooks move into the
/// user's native config, keeping their Cursor dialect, their `loop_limit` (Cursor's default
/// of 5 written out) and the folder Cursor runs them in (`~/.cursor/`): the moved `stop`
/// hook still runs there, its follow-up read as Cursor's. `--undo` gives the file back
/// byte for byte.
#[test]
fn user_cursor_hooks_move_and_keep_running_in_the_cursor_folder() {
    let env = Env::new().in_dir("p");
    std::fs::create_dir_all(env.path().join("p/.git")).unwrap();
    let text = r#"{"version": 1, "hooks": {"stop": [{"command": "echo \"{\\\"followup_message\\\": \\\"again in $(pwd)\\\"}\""}]}}"#;
    let path = env.write("home/.cursor/hooks.json", text);
    let arg = path.display().to_string();
    let run = env.run(&["migrate", "cursor", &arg]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), r#"{"version": 1}"#);
    let moved = std::fs::read_to_string(env.path().join("home/.config/hooks/hooks.yaml")).unwrap();
    assert!(
        moved.contains("    event: stop\n    dialect: cursor\n")
            && moved.contains("/home/.cursor\n")
            && moved.contains("    loop_limit: 5\n"),
        "{moved}"
    );
    let stop = serde_json::json!({
        "session_id": "s-1",
        "transcript_path": "/dev/null",
        "cwd": env.path().join("p"),
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    })
    .to_string();
    let run = env.run_with_stdin(&["bridge", "claude"], &stop);
    assert_eq!(run.code, 0, "{run:?}");
    let answer = run.json();
    assert_eq!(answer["decision"], "block", "{answer}");
    assert!(
        answer["reason"].as_str().unwrap().ends_with("home/.cursor"),
        "the hook runs in ~/.cursor: {answer}"
    );
    let undo = env.run(&["migrate", "cursor", "--undo", &arg]);
    assert_eq!(undo.code, 0, "{undo:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}
