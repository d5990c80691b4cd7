//! `hooks bridge opencode` through the real binary, with the payloads the bridge's OpenCode
//! plugin writes (`agentic-hooks.js`: Claude-shaped, under OpenCode's event names, its tool
//! names and camelCase arguments as OpenCode gave them), and the answers the plugin acts
//! on (always exit 0; `decision: "deny"` with the reason it throws, `args` it writes into
//! the call, `context` it appends to the tool's output; nothing to go on). Then `hooks run
//! --from opencode` with the same payload.

use serde_json::{Value, json};

use crate::support::{Env, env_with};

/// A user config (no trust needed): a fail-closed guard on the canonical shell tool, a
/// rewrite of a shell command and of an edit (in the canonical names), a hook asking to
/// confirm reads, context after a read, and a Stop hook that always blocks.
const CONFIG: &str = concat!(
    crate::bridge::guard_rewrite_context!(),
    r#"  - id: all-of-them
    event: PreToolUse
    matcher: Edit
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"b.txt","old_string":"x","new_string":"y","replace_all":true}}}'
  - id: confirm-env
    event: PreToolUse
    matcher: Read
    command: |
      case "$(cat)" in *".env"*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"reading secrets"}}';; esac
  - id: read-context
    event: PostToolUse
    matcher: Read
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"the file is generated"}}'
  - id: keep-going
    event: Stop
    command: echo '{"decision":"block","reason":"tests still fail"}'
"#
);

/// The plugin's payload of `event` (OpenCode's name) with `extra` fields.
fn payload(env: &Env, event: &str, extra: Value) -> String {
    let mut p = json!({
        "hook_event_name": event,
        "session_id": "ses_1",
        "cwd": env.path().join("proj").display().to_string(),
    });
    for (k, v) in extra.as_object().into_iter().flatten() {
        p[k] = v.clone();
    }
    p.to_string()
}

/// A tool call of OpenCode's `tool` with `args`, before it runs.
fn before(env: &Env, tool: &str, args: Value) -> String {
    payload(
        env,
        "tool.execute.before",
        json!({"tool_name": tool, "tool_input": args, "tool_use_id": "call_1"}),
    )
}

/// Runs `hooks bridge opencode` with `stdin`: the answer is `stdout` (`Value::Null`:
/// nothing written), with exit 0.
#[track_caller]
fn check(env: &Env, stdin: &str, stdout: Value) {
    let run = env.run_with_stdin(&["bridge", "opencode"], stdin);
    assert_eq!(run.code, 0, "{stdin}\nstderr: {}", run.stderr);
    let got = if run.stdout.trim().is_empty() {
        Value::Null
    } else {
        run.json()
    };
    assert_eq!(got, stdout, "{stdin}\nstderr: {}", run.stderr);
}

#[test]
fn opencode_cases() {
    let env = env_with(CONFIG);
    let e = &env;
    let deny = |reason: &str| json!({"decision": "deny", "reason": reason});
    // The guard refuses OpenCode's `bash`, the canonical `Bash`.
    check(
        e,
        &before(
            e,
            "bash",
            json!({"command": "rm -r victim", "description": "x"}),
        ),
        deny("refusing rm -r"),
    );
    check(e, &before(e, "bash", json!({"command": "ls"})), Value::Null);
    // A rewrite is the whole input, in OpenCode's argument names.
    check(
        e,
        &before(e, "bash", json!({"command": "npm test", "workdir": "/w"})),
        json!({"args": {"command": "bun test"}}),
    );
    check(
        e,
        &before(
            e,
            "edit",
            json!({"filePath": "a.txt", "oldString": "x", "newString": "y"}),
        ),
        json!({"args": {"filePath": "b.txt", "oldString": "x", "newString": "y",
            "replaceAll": true}}),
    );
    // OpenCode's plugins cannot ask: an ask is a deny, with its reason.
    check(
        e,
        &before(e, "read", json!({"filePath": ".env"})),
        deny(
            "reading secrets (a hook asks to confirm this call, and OpenCode's plugins cannot ask: it is denied)",
        ),
    );
    check(
        e,
        &before(e, "read", json!({"filePath": "a.txt"})),
        Value::Null,
    );
    // After the call: the context, which the plugin appends to the tool's output.
    check(
        e,
        &payload(
            e,
            "tool.execute.after",
            json!({"tool_name": "read", "tool_input": {"filePath": "a.txt"},
                "tool_use_id": "call_2",
                "tool_response": {"title": "a.txt", "output": "1: x", "metadata": {}}}),
        ),
        json!({"context": "the file is generated"}),
    );
    // A Stop hook's block has no place in OpenCode's `session.idle`: nothing is written.
    check(e, &payload(e, "session.idle", json!({})), Value::Null);
    check(e, &payload(e, "session.created", json!({})), Value::Null);
}

/// A payload the bridge cannot read is exit 1, which the plugin turns into a blocked call.
#[test]
fn an_unreadable_payload_is_an_error_for_the_plugin() {
    let env = env_with(CONFIG);
    let run = env.run_with_stdin(&["bridge", "opencode"], "{\"tool_name\": \"bash\"}");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(run.stderr.contains("hook_event_name"), "{}", run.stderr);
}

/// `hooks run --from opencode` reads the plugin's payload as the bridge does: the hook sees
/// the canonical tool and arguments, and the session event's canonical fields.
#[test]
fn hooks_run_reads_the_plugins_payload() {
    let env = env_with(
        "hooks:\n  - id: show\n    event: PreToolUse\n    command: cat > \"$HOME/seen.json\"\n  - id: start\n    event: SessionStart\n    command: cat > \"$HOME/start.json\"\n",
    );
    let p = env.write(
        "payload.json",
        &before(&env, "write", json!({"filePath": "a.txt", "content": "c"})),
    );
    let run = env.run(&[
        "run",
        "tool.execute.before",
        "--from",
        "opencode",
        "-p",
        &p.display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let seen: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path().join("home/seen.json")).unwrap())
            .unwrap();
    assert_eq!(seen["hook_event_name"], "PreToolUse");
    assert_eq!(seen["tool_name"], "Write");
    assert_eq!(
        seen["tool_input"],
        json!({"file_path": "a.txt", "content": "c"})
    );
    assert_eq!(seen["tool_use_id"], "call_1");
    let p = env.write("start.json", &payload(&env, "session.created", json!({})));
    let run = env.run(&[
        "run",
        "session.created",
        "--from",
        "opencode",
        "-p",
        &p.display().to_string(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let start: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path().join("home/start.json")).unwrap())
            .unwrap();
    assert_eq!(start["hook_event_name"], "SessionStart");
    assert_eq!(start["source"], "startup");
    assert_eq!(start["session_id"], "ses_1");
}
