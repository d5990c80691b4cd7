//! What an Autohand `config.json` hook is given and what its output means, end to end
//! through `hooks run` in a fresh home and project: the seed's JSON Input Structure on
//! stdin (every key, `null` where it does not apply, `session_id` and `cwd` always),
//! `HOOK_WORKSPACE` always set, and plain stdout logged rather than given to the model.

use serde_json::{Value, json};

use crate::support::Env;
use crate::trust::run_in;

/// The JSON Input Structure of Autohand's hooks documentation, as written there.
const SEED_INPUT: &str = r#"{
  "session_id": "abc123",
  "cwd": "/path/to/workspace",
  "hook_event_name": "pre-tool",
  "tool_name": "write_file",
  "tool_input": { "path": "src/index.ts", "content": "..." },
  "tool_use_id": "call_123",
  "tool_response": null,
  "tool_success": null,
  "file_path": null,
  "change_type": null,
  "instruction": null,
  "mentioned_files": null,
  "tokens_used": null,
  "tokens_usage_status": null,
  "tool_calls_count": null,
  "turn_tool_calls": null,
  "turn_duration": null,
  "duration": null,
  "error": null,
  "error_code": null,
  "session_type": null,
  "session_end_reason": null,
  "subagent_id": null,
  "subagent_name": null,
  "subagent_type": null,
  "subagent_success": null,
  "subagent_error": null,
  "subagent_duration": null,
  "permission_type": null,
  "notification_type": null,
  "notification_message": null,
  "automode_session_id": null,
  "automode_prompt": null,
  "automode_iteration": null,
  "automode_max_iterations": null,
  "automode_actions": null,
  "automode_files_created": null,
  "automode_files_modified": null,
  "automode_cancel_reason": null,
  "automode_checkpoint_commit": null,
  "automode_total_cost": null,
  "review_path": null,
  "review_scope": null,
  "review_instructions": null,
  "review_error": null,
  "team_name": null,
  "teammate_name": null,
  "teammate_agent_name": null,
  "teammate_pid": null,
  "team_task_id": null,
  "team_task_owner": null,
  "team_task_result": null,
  "team_member_count": null,
  "team_tasks_completed": null,
  "team_tasks_total": null,
  "additional_workspaces": null
}"#;

/// A project `p` whose `.autohand/config.json` has, for each event given, a hook that
/// saves its stdin and its `HOOK_WORKSPACE|HOOK_SESSION_ID` under `out/`.
fn recording_project(events: &[&str]) -> Env {
    let env = Env::new();
    let out = env.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let out = out.display();
    let hooks: Vec<Value> = events
        .iter()
        .map(|event| {
            json!({
                "event": event,
                "command": format!(
                    "cat > '{out}/'\"$HOOK_EVENT\".json; printf '%s|%s' \"$HOOK_WORKSPACE\" \"$HOOK_SESSION_ID\" > '{out}/'\"$HOOK_EVENT\".env"
                ),
            })
        })
        .collect();
    let config = json!({"hooks": {"enabled": true, "hooks": hooks}});
    env.write("p/.autohand/config.json", &config.to_string());
    std::fs::create_dir_all(env.path().join("p/src")).unwrap();
    let trust = run_in(&env, "p", &["trust", ".autohand/config.json"]);
    assert_eq!(trust.code, 0, "{trust:?}");
    env
}

/// What the hook of `event` recorded: its stdin JSON and its `HOOK_WORKSPACE|HOOK_SESSION_ID`.
fn recorded(env: &Env, event: &str) -> (Value, String) {
    let read = |ext: &str| {
        std::fs::read_to_string(env.path().join(format!("out/{event}.{ext}")))
            .unwrap_or_else(|e| panic!("the {event} hook recorded no .{ext} ({e})"))
    };
    let stdin = serde_json::from_str(&read("json")).unwrap();
    (stdin, env.normalise(&read("env")))
}

#[test]
fn an_autohand_hook_reads_the_seeds_json_input_structure() {
    let seed: Value = serde_json::from_str(SEED_INPUT).unwrap();
    let seed_keys: Vec<&String> = seed.as_object().unwrap().keys().collect();
    // (event, payload, the keys of the stdin JSON that must hold these values)
    let cases = [
        // The seed's own example, with the seed's own values: the stdin is the seed's.
        ("pre-tool", seed.clone(), seed.clone()),
        // The canonical (Claude Code) names the host may send fill Autohand's keys.
        (
            "pre-prompt",
            json!({"prompt": "fix the tests", "mentioned_files": ["src/a.rs"]}),
            json!({"hook_event_name": "pre-prompt", "instruction": "fix the tests",
                   "mentioned_files": ["src/a.rs"], "tool_name": null}),
        ),
        (
            "session-start",
            json!({"source": "resume"}),
            json!({"hook_event_name": "session-start", "session_type": "resume",
                   "session_end_reason": null}),
        ),
        (
            "session-end",
            json!({"reason": "quit", "duration": 60000}),
            json!({"session_end_reason": "quit", "duration": 60000, "session_type": null}),
        ),
        (
            "stop",
            json!({"tokens_used": 1200, "tool_calls_count": 4, "turn_duration": 9000}),
            json!({"hook_event_name": "stop", "tokens_used": 1200, "tool_calls_count": 4,
                   "turn_duration": 9000, "tool_use_id": null}),
        ),
        (
            "file-modified",
            json!({"file_path": "src/main.rs", "change_type": "modify"}),
            json!({"file_path": "src/main.rs", "change_type": "modify", "instruction": null}),
        ),
    ];
    let events: Vec<&str> = cases.iter().map(|(e, _, _)| *e).collect();
    let env = recording_project(&events);
    let mut sessions = Vec::new();
    for (event, payload, expect) in &cases {
        let run = run_in(&env, "p/src", &["run", event, "-p", &payload.to_string()]);
        assert_eq!(run.code, 0, "{event}: {run:?}");
        let (stdin, vars) = recorded(&env, event);
        let keys: Vec<&String> = stdin.as_object().unwrap().keys().collect();
        assert_eq!(
            keys[..seed_keys.len()],
            seed_keys[..],
            "{event}: every key of the seed's structure, in its order"
        );
        for (key, value) in expect.as_object().unwrap() {
            assert_eq!(&stdin[key], value, "{event}: `{key}` in {stdin:#}");
        }
        // `session_id` and `cwd` always: the host's, else the project root and a session
        // id of this run, which the variables follow.
        let session = stdin["session_id"]
            .as_str()
            .unwrap_or_else(|| panic!("{event}: no session_id in {stdin:#}"))
            .to_owned();
        assert!(!session.is_empty(), "{event}");
        let workspace = if payload.get("cwd").is_some() {
            "/path/to/workspace".to_owned()
        } else {
            env.normalise(&env.path().join("p").display().to_string())
        };
        assert_eq!(env.normalise(stdin["cwd"].as_str().unwrap()), workspace);
        assert_eq!(vars, format!("{workspace}|{session}"), "{event}");
        sessions.push(session);
    }
    assert_eq!(sessions[0], "abc123", "the host's session id is kept");
}

#[test]
fn plain_stdout_of_an_autohand_hook_is_logged_not_context() {
    // (file, its text, additional_context, messages): the same hook, printing plain text
    // on pre-prompt, in Autohand's format and in the native one.
    let cases = [
        (
            "p/.autohand/config.json",
            r#"{"hooks": {"hooks": [{"event": "pre-prompt", "command": "echo 'the tests live in tests/'"}]}}"#,
            json!([]),
            json!(["the tests live in tests/"]),
        ),
        (
            "p/.autohand/config.json",
            r#"{"hooks": {"hooks": [{"event": "pre-prompt", "command": "echo '{\"additionalContext\": \"the tests live in tests/\"}'"}]}}"#,
            json!(["the tests live in tests/"]),
            json!([]),
        ),
        (
            "p/.hooks/hooks.yaml",
            "hooks:\n  - event: UserPromptSubmit\n    command: echo 'the tests live in tests/'\n",
            json!(["the tests live in tests/"]),
            json!([]),
        ),
    ];
    for (file, text, context, messages) in cases {
        let env = Env::new();
        env.write(file, text);
        let name = file.trim_start_matches("p/");
        let run = run_in(
            &env,
            "p",
            &[
                "run",
                "UserPromptSubmit",
                "-c",
                name,
                "-p",
                r#"{"prompt": "hi"}"#,
                "--json",
            ],
        );
        assert_eq!(run.code, 0, "{run:?}");
        let out = run.json();
        assert_eq!(
            out["additional_context"], context,
            "{file}: {text}\n{out:#}"
        );
        assert_eq!(out["messages"], messages, "{file}: {text}\n{out:#}");
    }
}
