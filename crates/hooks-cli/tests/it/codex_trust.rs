//! Codex CLI's hook trust (`hooks::config::edit::codex_trust`): keys and hashes against values
//! the real Codex 0.171.0 gave in `hooks/list` (the end-to-end check against the live
//! binary is `agents::codex_trust`), the entries of whole hook tables, and the edits of
//! `[hooks.state]`, which keep every other byte and undo to the original text.

use std::path::Path;

use hooks::config::edit::codex_trust::{
    CodexCommandHook, TrustEntry, codex_home, file_trust_entries, file_trust_entries_where,
    hook_key, remove_trust, text_trust_entries_where, trust_entries, trusted_hash, with_trust,
    without_trust, write_trust,
};
use insta::assert_snapshot;
use serde_json::json;

#[track_caller]
fn check_hash(hook: CodexCommandHook<'_>, expect: &str) {
    assert_eq!(trusted_hash(&hook).unwrap(), expect, "{hook:?}");
}

/// Each hash below is what `codex app-server` 0.171.0 reported as `currentHash` for the
/// hook described.
#[test]
fn hashes_are_the_ones_codex_computes() {
    let bridge = CodexCommandHook {
        matcher: Some("Bash"),
        timeout_secs: Some(60),
        ..CodexCommandHook::new("PreToolUse", "/usr/bin/hooks bridge codex")
    };
    check_hash(
        bridge,
        "sha256:9fc7e7656cf2f5a671f915eb8c99b03ba39be30d613a7f6ca718563bcbf5f7c8",
    );
    // No timeout: Codex's 600 s. Stop ignores its matcher, which the hash leaves out.
    check_hash(
        CodexCommandHook {
            matcher: Some("ignored"),
            ..CodexCommandHook::new("Stop", "echo stop")
        },
        "sha256:236335e9e512004a0f5f42af65a07ea9059bd9a23dbb68286ed57fecf2b69ddf",
    );
    // A timeout of 0 is 1 s; the status message counts.
    let with_message = |event| CodexCommandHook {
        matcher: Some("M"),
        timeout_secs: Some(0),
        status_message: Some("s"),
        ..CodexCommandHook::new(event, "")
    };
    check_hash(
        CodexCommandHook {
            command: "echo PreToolUse",
            ..with_message("PreToolUse")
        },
        "sha256:6540f866aad6297dc4096affa832a0023826bd2fc63958de0205d6e10f76fff8",
    );
    check_hash(
        CodexCommandHook {
            command: "echo SessionEnd",
            ..with_message("SessionEnd")
        },
        "sha256:f5b239611309d58cdf882e197d5d3862ddbb1cf7fdba7f2806157f2645d58c2e",
    );
    check_hash(
        CodexCommandHook {
            command: "echo PreCompact",
            ..with_message("PreCompact")
        },
        "sha256:d66009b9bd865f6645aa13f55f789cd2b35e63112eb0780ad622556593cfdfb6",
    );
    // SessionEnd's timeout is 1 s when unset, and at most 3 s.
    for (timeout, expect) in [
        (
            None,
            "sha256:f3041eae9d0be5faed5367060d633bb905ed83825e2f4d9c7bc7f5ef19fe4bc7",
        ),
        (
            Some(0),
            "sha256:f3041eae9d0be5faed5367060d633bb905ed83825e2f4d9c7bc7f5ef19fe4bc7",
        ),
        (
            Some(2),
            "sha256:3ced4c28664694cfa2c555f972196962bf7eab06d8fa69f1836ce22690440de3",
        ),
        (
            Some(30),
            "sha256:b1aa6329f3a5daf36ae487200db1136f90a884bb805ddb24a6326c98dd6f29f6",
        ),
    ] {
        check_hash(
            CodexCommandHook {
                timeout_secs: timeout,
                ..CodexCommandHook::new("SessionEnd", "x")
            },
            expect,
        );
    }
    // Other events have no ceiling.
    check_hash(
        CodexCommandHook {
            timeout_secs: Some(100_000),
            ..CodexCommandHook::new("Stop", "x")
        },
        "sha256:9ac8dce413265baf8fcc853eb923aa3952860157e4fe6f1c1af61ed4643224f1",
    );
    // Quotes, non-ASCII and control characters, as serde_json escapes them; async.
    check_hash(
        CodexCommandHook {
            is_async: true,
            ..CodexCommandHook::new("PostToolUse", "a \"q\" \u{e9}\n\t\u{1}")
        },
        "sha256:656798935fd553cfe061c1e2b1c465750a8538c1f06b6f7d9ebe0526f35b90f9",
    );
    // An empty matcher is kept; the context limit counts.
    check_hash(
        CodexCommandHook {
            matcher: Some(""),
            additional_context_limit: Some(100),
            ..CodexCommandHook::new("PostToolUse", "b")
        },
        "sha256:51ce8461c82263f0d9df3eab7e5d1e0b7656cb3055611a470827a15577437369",
    );
}

#[test]
fn an_unknown_event_is_an_error_naming_the_known_ones() {
    let err = trusted_hash(&CodexCommandHook::new("BeforeTool", "x")).unwrap_err();
    assert!(
        err.to_string().contains("no hook event `BeforeTool`"),
        "{err}"
    );
    assert!(err.to_string().contains("PreToolUse"), "{err}");
    assert!(hook_key(Path::new("/c/config.toml"), "Notification", 0, 0).is_err());
}

#[test]
fn keys_are_the_source_the_event_label_and_the_indexes() {
    assert_eq!(
        hook_key(Path::new("/home/me/.codex/config.toml"), "PreToolUse", 0, 0).unwrap(),
        "/home/me/.codex/config.toml:pre_tool_use:0:0"
    );
    assert_eq!(
        hook_key(Path::new("/c/hooks.json"), "UserPromptSubmit", 2, 5).unwrap(),
        "/c/hooks.json:user_prompt_submit:2:5"
    );
}

/// What Codex 0.171.0 listed for this table: the groups with an invalid matcher, the
/// empty command and the prompt handler get no entry but count for the indexes.
#[test]
fn the_entries_of_a_table_follow_codex_positions() {
    let hooks = json!({
        "state": {"ignored": {"enabled": false}},
        "Notification": [{"hooks": [{"type": "command", "command": "not a Codex event"}]}],
        "Stop": [{"matcher": "[", "hooks": [{"type": "command", "command": "kept: Stop ignores matchers"}]}],
        "PreToolUse": [
            {"matcher": "[", "hooks": [{"type": "command", "command": "bad"}]},
            {"matcher": "Bash", "hooks": [
                {"type": "command", "command": "  "},
                {"type": "prompt"},
                {"type": "command", "command": "guard", "timeout": 5},
            ]},
        ],
    });
    let source = Path::new("/c/hooks.json");
    let entries = trust_entries(source, &hooks).unwrap();
    let keys: Vec<&str> = entries.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        ["/c/hooks.json:pre_tool_use:1:2", "/c/hooks.json:stop:0:0"]
    );
    let guard = CodexCommandHook {
        matcher: Some("Bash"),
        timeout_secs: Some(5),
        ..CodexCommandHook::new("PreToolUse", "guard")
    };
    assert_eq!(entries[0].trusted_hash, trusted_hash(&guard).unwrap());
}

/// An installer trusts its own entries only; the indexes stay those of the whole file.
#[test]
fn only_the_hooks_kept_get_entries_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "model = \"m\"\n\n[[hooks.PreToolUse]]\nhooks = [{ type = \"command\", command = \"mine\" }]\n\n\
         [[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"bridge\" }]\n",
    )
    .unwrap();
    let ours = file_trust_entries_where(&config, &|h| h.command == "bridge").unwrap();
    let all = file_trust_entries(&config).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(ours, all[1..]);
    assert!(
        ours[0].key.ends_with("config.toml:pre_tool_use:1:0"),
        "{ours:?}"
    );
    let text = std::fs::read_to_string(&config).unwrap();
    assert_eq!(
        text_trust_entries_where(&config, &text, &|h| h.command == "bridge").unwrap(),
        ours
    );
    assert_eq!(
        file_trust_entries(&dir.path().join("hooks.json")).unwrap(),
        []
    );
}

#[test]
fn a_table_codex_would_refuse_is_an_error() {
    let source = Path::new("/c/hooks.json");
    for (hooks, says) in [
        (json!({"PreToolUse": {}}), "`PreToolUse` is not a list"),
        (
            json!({"PreToolUse": [{"matcher": 1, "hooks": []}]}),
            "`matcher` is not a string",
        ),
        (
            json!({"PreToolUse": [{"hooks": [{"type": "http", "url": "x"}]}]}),
            "`type` is not command",
        ),
        (
            json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}),
            "`timeout` is not a whole number",
        ),
        (
            json!({"PreToolUse": [{"hooks": [{"type": "command"}]}]}),
            "`command` is missing",
        ),
    ] {
        let err = trust_entries(source, &hooks).unwrap_err().to_string();
        assert!(err.contains(says), "{hooks}: {err}");
        assert!(err.contains("/c/hooks.json"), "{err}");
    }
}

fn entries() -> Vec<TrustEntry> {
    vec![
        TrustEntry {
            key: "/home/me/.codex/config.toml:pre_tool_use:0:0".to_owned(),
            trusted_hash: "sha256:aaaa".to_owned(),
        },
        TrustEntry {
            key: "/home/me/.codex/config.toml:stop:0:0".to_owned(),
            trusted_hash: "sha256:bbbb".to_owned(),
        },
    ]
}

const CONFIG: &str = r#"# My Codex settings.
model = "gpt-5.5"   # the default

[[hooks.PreToolUse]]
matcher = "Bash"

  [[hooks.PreToolUse.hooks]]
  type = "command"
  command = "/usr/bin/hooks bridge codex"

[hooks.state."/home/me/.codex/config.toml:stop:0:0"]
enabled = false # switched off by hand

[analytics]
enabled = false
"#;

/// Writes the trust of [`entries`] into `text`, snapshots the result, and checks that
/// writing again changes nothing and that removing the trust gives `text` back.
#[track_caller]
fn check_round_trip(name: &str, text: &str) {
    let trusted = with_trust(text, &entries()).unwrap();
    assert_snapshot!(name, trusted);
    assert_eq!(with_trust(&trusted, &entries()).unwrap(), trusted);
    assert_eq!(without_trust(&trusted, &entries()).unwrap(), text);
}

#[test]
fn trust_is_written_into_an_empty_file_and_removed_to_nothing() {
    check_round_trip("codex_trust_empty", "");
}

#[test]
fn trust_keeps_comments_order_and_other_state_and_undoes_byte_for_byte() {
    check_round_trip("codex_trust_config", CONFIG);
}

#[test]
fn a_file_with_a_hooks_header_of_its_own_keeps_it() {
    check_round_trip("codex_trust_hooks_header", "[hooks]\n\n[other]\nx = 1\n");
}

#[test]
fn a_hash_trusted_for_something_else_is_not_removed() {
    let text =
        "[hooks.state.\"/home/me/.codex/config.toml:stop:0:0\"]\ntrusted_hash = \"sha256:user\"\n";
    assert_eq!(without_trust(text, &entries()).unwrap(), text);
    // Writing replaces it (the engine's hook is what is at that place now).
    let trusted = with_trust(text, &entries()).unwrap();
    assert!(
        trusted.contains("trusted_hash = \"sha256:bbbb\""),
        "{trusted}"
    );
    assert!(!trusted.contains("sha256:user"), "{trusted}");
}

#[test]
fn hooks_that_are_not_a_table_are_an_error() {
    let err = with_trust("hooks = 1\n", &entries()).unwrap_err();
    assert!(err.to_string().contains("not a table"), "{err}");
    assert!(with_trust("model = \n", &entries()).is_err());
}

#[test]
fn the_file_is_written_atomically_and_restored() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    // A missing file is created, and removing the trust leaves it empty.
    assert!(write_trust(&config, &entries()).unwrap());
    assert!(!write_trust(&config, &entries()).unwrap(), "written twice");
    assert!(remove_trust(&config, &entries()).unwrap());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), "");
    std::fs::write(&config, CONFIG).unwrap();
    assert!(write_trust(&config, &entries()).unwrap());
    assert!(remove_trust(&config, &entries()).unwrap());
    assert!(!remove_trust(&config, &entries()).unwrap());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), CONFIG);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["config.toml"], "leftover temporary files");
    assert!(!remove_trust(&dir.path().join("missing.toml"), &entries()).unwrap());
}

#[test]
fn codex_home_resolves_codex_home_links_but_not_home() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let real = std::fs::canonicalize(&real).unwrap();
    assert_eq!(codex_home(Some(link.as_os_str()), None).unwrap(), real);
    let dotted = format!("{}/./", link.display());
    assert_eq!(codex_home(Some(dotted.as_ref()), None).unwrap(), real);
    assert_eq!(
        codex_home(Some("".as_ref()), Some(&link)).unwrap(),
        link.join(".codex")
    );
    assert_eq!(codex_home(None, Some(&link)).unwrap(), link.join(".codex"));
    let err = codex_home(Some(dir.path().join("gone").as_os_str()), None).unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
}
