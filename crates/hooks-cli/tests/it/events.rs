//! The binary end to end: `hooks events` and `hooks builtin security-guard`.

use assert_cmd::Command;

fn hooks() -> Command {
    Command::cargo_bin("hooks").unwrap()
}

#[test]
fn events_json_lists_every_builtin_event() {
    let out = hooks()
        .args(["events", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), hooks_core::BuiltinEvent::ALL.len());
    let pre = lines.iter().find(|l| l["name"] == "PreToolUse").unwrap();
    assert_eq!(pre["aliases"]["autohand"], "pre-tool");
    assert_eq!(pre["can_block"], true);
}

#[test]
fn guard_blocks_with_exit_2_and_the_reason_on_stderr() {
    let event = r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
    let assert = hooks()
        .args(["builtin", "security-guard"])
        .write_stdin(event)
        .assert()
        .code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("rm -rf /"), "{stderr}");
}

#[test]
fn guard_passes_ordinary_commands_with_exit_0() {
    let event = r#"{"tool_name":"Bash","tool_input":{"command":"cargo test"}}"#;
    hooks()
        .args(["builtin", "security-guard"])
        .write_stdin(event)
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn guard_reads_the_command_as_a_shell_does() {
    for (command, code) in [
        (r#"bash -c "rm -rf /""#, 2),
        ("cd / && rm -rf *", 2),
        ("echo k >> ~/.ssh/authorized_keys", 2),
        (r#"echo "rm -rf /""#, 0),
        ("grep -r 'rm -rf /' .", 0),
    ] {
        let event = serde_json::json!({"tool_name": "Bash", "tool_input": {"command": command}});
        let out = hooks()
            .args(["builtin", "security-guard"])
            .write_stdin(event.to_string())
            .timeout(std::time::Duration::from_secs(30))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "`{command}`: {out:?}");
    }
}

#[test]
fn unknown_builtin_is_an_error() {
    hooks()
        .args(["builtin", "nope"])
        .write_stdin("{}")
        .assert()
        .code(1);
}

#[test]
fn bad_usage_exits_1() {
    hooks().arg("frobnicate").assert().code(1);
}

#[test]
fn events_prints_the_catalog_table() {
    let out = hooks()
        .arg("events")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}

#[test]
fn init_reports_what_it_installed() {
    let dir = tempfile::tempdir().unwrap();
    let out = hooks()
        .args(["init", "--dir"])
        .arg(dir.path())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out)
        .unwrap()
        .replace(&dir.path().display().to_string(), "[DIR]");
    insta::assert_snapshot!(text);
}

#[test]
fn events_event_shows_one_event_in_detail_by_any_of_its_names() {
    for name in ["PreToolUse", "pre-tool", "pre_tool_use"] {
        let out = hooks()
            .args(["events", name])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        insta::assert_snapshot!(
            "events_pre_tool_use_detail",
            String::from_utf8(out).unwrap()
        );
    }
    let out = hooks()
        .args(["events", "Stop"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!("events_stop_detail", String::from_utf8(out).unwrap());
}

#[test]
fn events_event_json_is_one_line_and_an_unknown_event_is_an_error() {
    let out = hooks()
        .args(["events", "session-end", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let line: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(line["name"], "SessionEnd");
    assert_eq!(
        line["matcher_fields"],
        serde_json::json!(["reason", "session_end_reason"])
    );
    hooks()
        .args(["events", "PreToolUze"])
        .assert()
        .code(1)
        .stdout("")
        .stderr("error: unknown event `PreToolUze` (did you mean `PreToolUse`?)\n");
}
