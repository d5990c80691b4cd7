//! `hooks bridge AGENT` through the real binary, as an agent calls it: the agent's stdin
//! JSON in, the answer (stdout, exit code, stderr) out. One table of cases per agent; then
//! the rules that span calls (the stop-loop cap across processes, the state store's
//! cleanup, async hooks finishing after the answer), the agent's own hooks never run twice,
//! engine errors answered, and the audit log.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Env, env_with};

/// The start of a user config (no trust needed) both bridges' tables use: a fail-closed
/// guard refusing `rm -r`, a rewrite of `npm` to `bun`, and context on UserPromptSubmit (a
/// macro, so that each table's config stays one literal).
macro_rules! guard_rewrite_context {
    () => {
        r#"hooks:
  - id: guard
    event: PreToolUse
    matcher: Bash
    on_failure: block
    command: |
      case "$(cat)" in *"rm -r"*) echo "refusing rm -r" >&2; exit 2;; esac
  - id: npm-to-bun
    event: PreToolUse
    matcher: Bash
    if: "Bash(npm *)"
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"bun test"}}}'
  - id: today
    event: UserPromptSubmit
    command: echo "today is Monday"
"#
    };
}
pub(crate) use guard_rewrite_context;

/// A user config (no trust needed) with a fail-closed guard, a rewrite, a context hook
/// and a Stop hook that always blocks.
const CONFIG: &str = concat!(
    guard_rewrite_context!(),
    r#"  - id: keep-going
    event: Stop
    command: echo '{"decision":"block","reason":"tests still fail"}'
"#
);

fn payload(env: &Env, event: &str, extra: Value) -> String {
    let mut p = json!({
        "session_id": "s-1",
        "transcript_path": "/dev/null",
        "cwd": env.path().join("proj").display().to_string(),
        "hook_event_name": event,
    });
    for (k, v) in extra.as_object().unwrap() {
        p[k] = v.clone();
    }
    p.to_string()
}

/// Runs `hooks bridge AGENT` with `stdin` and checks stdout (`null`: empty), exit code and
/// a substring of stderr.
#[track_caller]
fn check(env: &Env, agent: &str, stdin: &str, stdout: Value, code: i32, stderr: &str) {
    let run = env.run_with_stdin(&["bridge", agent], stdin);
    let got = if run.stdout.is_empty() {
        Value::Null
    } else {
        run.json()
    };
    assert_eq!(got, stdout, "{agent} {stdin}\nstderr: {}", run.stderr);
    assert_eq!(
        run.code, code,
        "{agent} {stdin}: exit code\nstderr: {}",
        run.stderr
    );
    assert!(
        run.stderr.contains(stderr),
        "{agent} {stdin}: stderr {:?} lacks {stderr:?}",
        run.stderr
    );
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1"})
}

#[test]
fn claude_code_cases() {
    let env = env_with(CONFIG);
    let none = Value::Null;
    check(
        &env,
        "claude",
        &payload(&env, "PreToolUse", bash("rm -r victim")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "refusing rm -r"}}),
        0,
        "",
    );
    check(
        &env,
        "claude",
        &payload(&env, "PreToolUse", bash("ls")),
        none.clone(),
        0,
        "",
    );
    check(
        &env,
        "claude",
        &payload(&env, "PreToolUse", bash("npm test")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "bun test"}}}),
        0,
        "",
    );
    check(
        &env,
        "claude",
        &payload(&env, "UserPromptSubmit", json!({"prompt": "hi"})),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "today is Monday"}}),
        0,
        "",
    );
    check(
        &env,
        "claude",
        &payload(&env, "Stop", json!({"stop_hook_active": false})),
        json!({"decision": "block", "reason": "tests still fail"}),
        0,
        "",
    );
    // An event the engine does not know (a newer agent's) has no hooks: proceed.
    check(
        &env,
        "claude",
        &payload(&env, "SomeFutureEvent", json!({})),
        none.clone(),
        0,
        "",
    );
    // No event name: a failed hook call (exit 1), which the agent shows and goes on from.
    check(&env, "claude", "{}", none, 1, "no `hook_event_name`");
}

#[test]
fn codex_cases() {
    let env = env_with(CONFIG);
    // Codex ignores `decision: "deny"`: the deny is exit 2 with the reason on stderr.
    check(
        &env,
        "codex",
        &payload(&env, "PreToolUse", bash("rm -r victim")),
        Value::Null,
        2,
        "refusing rm -r",
    );
    check(
        &env,
        "codex",
        &payload(&env, "PreToolUse", bash("ls")),
        Value::Null,
        0,
        "",
    );
    check(
        &env,
        "codex",
        &payload(&env, "PreToolUse", bash("npm test")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "bun test"}}}),
        0,
        "",
    );
    // Codex's model-facing shell tool (`exec_command {"cmd": ..}`) is read as the
    // canonical shell tool and input: a hook reading `tool_input.command` guards it.
    let reads_command = env_with(
        "hooks:\n  - id: reads-command\n    event: PreToolUse\n    matcher: Bash\n    command: |\n      case \"$(cat)\" in *'\"tool_input\":{\"command\":\"rm -r victim\"}'*) echo \"refusing rm -r\" >&2; exit 2;; esac\n",
    );
    check(
        &reads_command,
        "codex",
        &payload(
            &reads_command,
            "PreToolUse",
            json!({"tool_name": "exec_command", "tool_input": {"cmd": "rm -r victim"}, "turn_id": "t-1", "model": "gpt-5.5"}),
        ),
        Value::Null,
        2,
        "refusing rm -r",
    );
    check(
        &env,
        "codex",
        &payload(&env, "Stop", json!({"stop_hook_active": false})),
        json!({"decision": "block", "reason": "tests still fail"}),
        0,
        "",
    );
}

#[test]
fn gemini_cli_cases() {
    let env = env_with(CONFIG);
    let shell = |command: &str| json!({"tool_name": "run_shell_command", "tool_input": {"command": command}, "timestamp": "2026-01-01T00:00:00Z"});
    // Gemini CLI's names (BeforeTool, run_shell_command) reach the hooks written for Bash,
    // and the deny is the top-level decision Gemini CLI reads.
    check(
        &env,
        "gemini",
        &payload(&env, "BeforeTool", shell("rm -r victim")),
        json!({"decision": "deny", "reason": "refusing rm -r"}),
        0,
        "",
    );
    check(
        &env,
        "gemini",
        &payload(&env, "BeforeTool", shell("ls")),
        Value::Null,
        0,
        "",
    );
    check(
        &env,
        "gemini",
        &payload(&env, "BeforeAgent", json!({"prompt": "hi"})),
        json!({"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "today is Monday"}}),
        0,
        "",
    );
    check(
        &env,
        "gemini",
        &payload(
            &env,
            "AfterAgent",
            json!({"prompt": "p", "prompt_response": "r", "stop_hook_active": false}),
        ),
        json!({"decision": "deny", "reason": "tests still fail"}),
        0,
        "",
    );
}

/// A Stop hook that always blocks is capped across separate bridge processes: the first
/// eight blocks keep the agent going, the ninth is overridden (Claude Code's cap of 8).
/// Cursor's documented payloads (`tests/fixtures/cursor-bridge`, whose README names the
/// source) through `hooks bridge cursor`: each event read into the canonical one, the hooks
/// of `hooks.yaml` (written for Claude Code's tools) run, and the answer is the JSON Cursor
/// reads for that event. Cursor's own hooks file of the project is Cursor's to run: the
/// bridge does not run it.
#[test]
fn cursor_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cursor-bridge");
    let env = env_with(&std::fs::read_to_string(dir.join("hooks.yaml")).unwrap());
    env.write(
        "proj/.cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "touch ran; echo '{\"permission\": \"deny\"}'"}]}}"#,
    );
    let trusted = env.run(&["trust", ".cursor/hooks.json"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    let root = env.path().join("proj").display().to_string();
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .ok()
            .map(|t| t.replace("$ROOT", &root))
    };
    for case in [
        "shell-deny",
        "shell-allow",
        "shell-rewrite",
        "shell-ask",
        "read-deny",
        "mcp-allow",
        "prompt-block",
        "stop-followup",
        "stop-error",
        "after-edit",
        "after-shell",
        "session-start",
    ] {
        let stdin = read(&format!("{case}.stdin.json")).unwrap();
        let stdout = read(&format!("{case}.stdout.json"))
            .map_or(Value::Null, |t| serde_json::from_str(&t).unwrap());
        check(&env, "cursor", &stdin, stdout, 0, "");
    }
    assert!(
        !env.path().join("proj/ran").exists(),
        "the bridge ran Cursor's own hook"
    );
}

#[test]
fn stop_cap_holds_across_processes() {
    let env = env_with(CONFIG);
    let first = payload(&env, "Stop", json!({"stop_hook_active": false}));
    let next = payload(&env, "Stop", json!({"stop_hook_active": true}));
    let block = json!({"decision": "block", "reason": "tests still fail"});
    check(&env, "claude", &first, block.clone(), 0, "");
    for _ in 2..=8 {
        check(&env, "claude", &next, block.clone(), 0, "");
    }
    let run = env.run_with_stdin(&["bridge", "claude"], &next);
    let answer = run.json();
    assert_eq!(answer.get("decision"), None, "{answer}");
    assert!(
        answer["systemMessage"]
            .as_str()
            .unwrap()
            .contains("stop-loop cap"),
        "{answer}"
    );
    // The streak starts again after the cap.
    check(&env, "claude", &next, block, 0, "");
}

/// What a hook exports through its `CLAUDE_ENV_FILE` is appended to Claude Code's own
/// `CLAUDE_ENV_FILE`, which Claude Code sources before its later Bash commands.
#[test]
fn exports_reach_claude_codes_env_file() {
    let env = env_with(
        "hooks:\n  - id: exports\n    event: SessionStart\n    command: echo 'export GREETING=\"hello there\"' >> \"$CLAUDE_ENV_FILE\"\n",
    );
    let file = env.write("claude-env.sh", "export EARLIER=1\n");
    let stdin = payload(&env, "SessionStart", json!({"source": "startup"}));
    let run = env
        .command()
        .args(["bridge", "claude"])
        .env("CLAUDE_ENV_FILE", &file)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "export EARLIER=1\nexport GREETING='hello there'\n"
    );
}

/// SessionEnd removes the session's state file.
#[test]
fn session_end_cleans_up_the_state() {
    let env = env_with(CONFIG);
    let sessions = env.path().join("home/.local/state/hooks/sessions");
    check(
        &env,
        "claude",
        &payload(&env, "Stop", json!({"stop_hook_active": false})),
        json!({"decision": "block", "reason": "tests still fail"}),
        0,
        "",
    );
    assert_eq!(std::fs::read_dir(&sessions).unwrap().count(), 1);
    check(
        &env,
        "claude",
        &payload(&env, "SessionEnd", json!({"reason": "other"})),
        Value::Null,
        0,
        "",
    );
    assert_eq!(std::fs::read_dir(&sessions).unwrap().count(), 0);
}

/// A Claude Code settings file's PreToolUse guard on `Bash` that touches `ran` (in the
/// folder `$dir` names) and refuses with `reason`.
fn claude_guard(dir: &str, reason: &str) -> String {
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
        "command": format!("touch \"${dir}/ran\"; echo '{reason}' >&2; exit 2")}]}]}})
    .to_string()
}

/// Checks that `hooks bridge claude` leaves Claude Code's guard (see [`claude_guard`]) to
/// Claude Code (`ran` is not made), and that another agent's bridge runs it (a hook
/// written for Claude Code guards Gemini CLI's shell tool).
#[track_caller]
fn assert_left_to_claude_code(env: &Env, ran: &Path, reason: &str) {
    check(
        env,
        "claude",
        &payload(env, "PreToolUse", bash("ls")),
        Value::Null,
        0,
        "",
    );
    assert!(!ran.exists(), "the bridge ran Claude Code's own hook");
    check(
        env,
        "gemini",
        &payload(
            env,
            "BeforeTool",
            json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
        ),
        json!({"decision": "deny", "reason": reason}),
        0,
        "",
    );
    assert!(ran.exists());
}

/// The hooks in Claude Code's own settings files are Claude Code's to run: `hooks bridge
/// claude` does not run them again, while another agent's bridge runs them.
#[test]
fn the_agents_own_hooks_do_not_run_twice() {
    let env = env_with("hooks: []\n");
    env.write(
        "proj/.claude/settings.json",
        &claude_guard("CLAUDE_PROJECT_DIR", "claude settings guard"),
    );
    let trusted = env.run(&["trust", ".claude/settings.json"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    assert_left_to_claude_code(&env, &env.path().join("proj/ran"), "claude settings guard");
}

/// A user's `~/.claude/settings.json` kept as a link into a dotfiles folder is still
/// Claude Code's own.
#[test]
fn a_linked_claude_settings_file_is_still_claude_codes_own() {
    let env = env_with("hooks: []\n");
    let target = env.write(
        "home/dotfiles/claude-settings.json",
        &claude_guard("HOME", "linked guard"),
    );
    std::fs::create_dir_all(env.path().join("home/.claude")).unwrap();
    std::os::unix::fs::symlink(&target, env.path().join("home/.claude/settings.json")).unwrap();
    assert_left_to_claude_code(&env, &env.path().join("home/ran"), "linked guard");
}

/// Engine errors are answered: a broken user config blocks the tool call (fail closed) with
/// a message the user sees; a fail-closed hook whose program is missing blocks it; a
/// broken project file never makes the bridge fail.
#[test]
fn errors_are_answered() {
    let env = env_with("hooks: [\n");
    let run = env.run_with_stdin(
        &["bridge", "claude"],
        &payload(&env, "PreToolUse", bash("ls")),
    );
    let answer = run.json();
    assert_eq!(run.code, 0);
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    assert!(
        answer["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("does not load"),
        "{answer}"
    );

    let env = env_with(
        "hooks:\n  - id: scanner\n    event: PreToolUse\n    on_failure: block\n    command: /nonexistent/scanner\n",
    );
    let run = env.run_with_stdin(
        &["bridge", "codex"],
        &payload(&env, "PreToolUse", bash("ls")),
    );
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("scanner"), "{run:?}");

    let env = env_with("hooks: []\n");
    env.write("proj/.hooks/hooks.yaml", "hooks: [\n");
    check(
        &env,
        "claude",
        &payload(&env, "PreToolUse", bash("ls")),
        Value::Null,
        0,
        "",
    );
}

/// An async hook never delays the answer: the bridge's stdout reaches end-of-file long
/// before the hook ends, and the hook's audit line (naming the agent, session and event)
/// appears later.
#[test]
fn async_hooks_finish_after_the_answer() {
    let env = env_with(
        "hooks:\n  - id: slow-notes\n    event: PostToolUse\n    async: true\n    command: sleep 2; echo noted\n",
    );
    let audit = env.path().join("audit.jsonl");
    let started = Instant::now();
    let mut child = env
        .std_command()
        .args(["bridge", "claude"])
        .env("HOOKS_AUDIT_LOG", &audit)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let mut extra = bash("ls");
        extra["tool_response"] = json!({"stdout": ""});
        stdin
            .write_all(payload(&env, "PostToolUse", extra).as_bytes())
            .unwrap();
    }
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let answered = started.elapsed();
    assert!(child.wait().unwrap().success());
    assert!(
        answered < Duration::from_millis(1500),
        "stdout closed only after {answered:?}"
    );
    assert!(
        !has_line(&audit, "slow-notes"),
        "the async hook ended before the answer"
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while !has_line(&audit, "slow-notes") {
        assert!(
            Instant::now() < deadline,
            "no audit line for the async hook"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&audit).unwrap();
    let line: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(line["agent"], "claude");
    assert_eq!(line["session_id"], "s-1");
    assert_eq!(line["event"], "PostToolUse");
    assert_eq!(line["async"], true);
    // Its output is delivered with the session's next event.
    let run = env.run_with_stdin(
        &["bridge", "claude"],
        &payload(&env, "UserPromptSubmit", json!({"prompt": "x"})),
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.is_empty() || !run.stdout.contains("error"),
        "{run:?}"
    );
}

fn has_line(path: &Path, text: &str) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.contains(text))
}

/// Every hook the bridge runs is in the audit log with the agent, session and event.
#[test]
fn the_audit_log_names_the_agent() {
    let env = env_with(CONFIG);
    let audit = env.path().join("home/.local/state/hooks/audit.jsonl");
    env.run_with_stdin(
        &["bridge", "gemini"],
        &payload(
            &env,
            "BeforeTool",
            json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
        ),
    );
    let text = std::fs::read_to_string(&audit).unwrap();
    let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(line["agent"], "gemini");
    assert_eq!(line["session_id"], "s-1");
    assert_eq!(line["event"], "PreToolUse");
    assert_eq!(line["hook"], "guard");
}

/// A Claude Code settings file with other keys, its own hook and odd formatting, which
/// install must keep byte for byte outside the entries it adds.
const SETTINGS: &str = "{\n  \"model\": \"x\",\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}\n    ]\n  },\n  \"env\": {\"A\":   \"1\"}\n}\n";

/// Install adds the bridge for the events with a hook, idempotently, keeping every other
/// byte; uninstall restores the file byte for byte; with `--migrate` the file's own hooks
/// move into the engine's config (so they run once, through the bridge) and come back.
#[test]
fn install_and_uninstall_claude() {
    let command = crate::support::installed_command("claude");
    for migrate in [false, true] {
        let env = env_with(CONFIG);
        let settings = env.write("proj/.claude/settings.json", SETTINGS);
        let mut install = vec!["install", "claude"];
        if migrate {
            install.push("--migrate");
        }
        let run = env.run(&install);
        assert_eq!(run.code, 0, "{run:?}");
        let text = std::fs::read_to_string(&settings).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        for event in ["PreToolUse", "UserPromptSubmit", "Stop"] {
            let groups = value["hooks"][event].as_array().unwrap();
            assert!(
                groups
                    .iter()
                    .any(|g| g["hooks"][0]["command"] == command.as_str()),
                "{event}: {text}"
            );
        }
        assert_eq!(value["hooks"].get("SessionStart"), None, "{text}");
        assert!(text.contains("\"env\": {\"A\":   \"1\"}"), "{text}");
        let own_hook_kept = text.contains("echo hi");
        assert_eq!(own_hook_kept, !migrate, "{text}");
        if migrate {
            assert!(env.path().join("proj/.hooks/hooks.yaml").exists());
        }
        // Installing again changes nothing.
        let again = env.run(&install);
        assert_eq!(again.code, 0, "{again:?}");
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), text);
        let doctor = env.run(&["doctor"]);
        assert!(
            doctor
                .stdout
                .contains("PreToolUse: calls this binary; runs guard, npm-to-bun"),
            "{}",
            doctor.stdout
        );
        let run = env.run(&["uninstall", "claude"]);
        assert_eq!(run.code, 0, "{run:?}");
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), SETTINGS);
        assert!(!env.path().join("proj/.hooks/hooks.yaml").exists());
    }
}

/// The bridge's commands in the Claude Code settings `text`, per event (every hook whose
/// command says `bridge`).
fn bridge_entries(text: &str) -> Vec<(String, String)> {
    let value: Value = serde_json::from_str(text).unwrap();
    let mut found = Vec::new();
    for (event, groups) in value["hooks"].as_object().unwrap() {
        for group in groups.as_array().unwrap() {
            for hook in group["hooks"].as_array().unwrap() {
                let command = hook["command"].as_str().unwrap();
                if command.contains("bridge") {
                    found.push((event.clone(), command.to_owned()));
                }
            }
        }
    }
    found
}

/// The hook command install writes is the client `hooks-bridge` when it sits beside the
/// `hooks` program, else `hooks bridge`; the two are the bridge's own alike: an install
/// over the other's entries leaves one entry per event, in the new spelling, uninstall
/// takes either out, doctor accepts either as this program's.
#[test]
fn install_writes_the_client_beside_hooks_and_takes_the_other_command_as_its_own() {
    let env = env_with(CONFIG);
    let settings = env.write("proj/.claude/settings.json", SETTINGS);
    // A `hooks` of its own directory, the client beside it or not: a hard link, since the
    // program knows itself by the path it was started by.
    let dir = env.path().join("opt/bin");
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join("hooks");
    std::fs::hard_link(assert_cmd::cargo::cargo_bin("hooks"), &program).unwrap();
    let client = dir.join("hooks-bridge");
    let with_client = |beside: bool| {
        if beside {
            std::fs::hard_link(env!("CARGO_BIN_EXE_hooks-bridge"), &client).unwrap();
        } else {
            std::fs::remove_file(&client).unwrap();
        }
    };
    let quoted = |p: &Path| hooks::config::shell_quote(&p.display().to_string());
    let engine = format!("{} bridge claude", quoted(&program));
    let through_client = format!("{} claude", quoted(&client));
    // The test starts the binary itself, as a real child process.
    #[allow(clippy::disallowed_methods)]
    let run = |args: &[&str]| {
        let mut cmd = std::process::Command::new(&program);
        env.isolate(&mut cmd);
        cmd.args(args);
        env.finish(&mut assert_cmd::Command::from_std(cmd))
    };
    let entries_are = |command: &str| {
        let text = std::fs::read_to_string(&settings).unwrap();
        let entries = bridge_entries(&text);
        let mut events: Vec<&str> = entries.iter().map(|(e, _)| e.as_str()).collect();
        events.sort_unstable();
        assert_eq!(events, ["PreToolUse", "Stop", "UserPromptSubmit"], "{text}");
        assert!(entries.iter().all(|(_, c)| c == command), "{text}");
        assert!(text.contains("echo hi"), "{text}");
    };
    let doctor_says_this_program = || {
        let doctor = run(&["doctor"]);
        assert!(
            doctor.stdout.contains("PreToolUse: calls this binary;"),
            "{}",
            doctor.stdout
        );
    };

    // No client: the engine's command.
    assert_eq!(run(&["install", "claude"]).code, 0);
    entries_are(&engine);
    // The client arrives: the old entries are still this program's.
    with_client(true);
    doctor_says_this_program();
    // Installing again makes them call the client, in place: one entry per event.
    let again = run(&["install", "claude"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again
            .stdout
            .contains("/opt/bin/hooks-bridge claude` runs on Stop, PreToolUse, UserPromptSubmit"),
        "{again:?}"
    );
    entries_are(&through_client);
    doctor_says_this_program();
    // Uninstall puts the file back as it was.
    assert_eq!(run(&["uninstall", "claude"]).code, 0);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), SETTINGS);

    // The other way round: the client's entries, then the client gone (an install by
    // another package of the engine, say): install calls the engine again.
    assert_eq!(run(&["install", "claude"]).code, 0);
    entries_are(&through_client);
    with_client(false);
    assert_eq!(run(&["install", "claude"]).code, 0);
    entries_are(&engine);

    // An edited file loses only the bridge's entries, in either spelling: here the
    // engine's, with the client beside it; then the client's, with the client gone.
    with_client(true);
    let edit = |from: &str, to: &str| {
        let text = std::fs::read_to_string(&settings).unwrap();
        assert!(text.contains(from), "{text}");
        std::fs::write(&settings, text.replace(from, to)).unwrap();
    };
    let uninstall_leaves_no_bridge = |model: &str| {
        let out = run(&["uninstall", "claude"]);
        assert_eq!(out.code, 0, "{out:?}");
        assert!(
            out.stdout
                .contains("only the bridge's entries were removed"),
            "{out:?}"
        );
        let text = std::fs::read_to_string(&settings).unwrap();
        assert_eq!(bridge_entries(&text), [], "{text}");
        assert!(text.contains(model) && text.contains("echo hi"), "{text}");
    };
    edit("\"model\": \"x\"", "\"model\": \"y\"");
    uninstall_leaves_no_bridge("\"model\": \"y\"");

    // Both spellings in one event (two installs by two versions): one is left.
    assert_eq!(run(&["install", "claude"]).code, 0);
    entries_are(&through_client);
    edit(
        "\"PreToolUse\": [",
        &format!(
            "\"PreToolUse\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": {}}}]}},",
            serde_json::to_string(&engine).unwrap()
        ),
    );
    assert_eq!(run(&["install", "claude"]).code, 0);
    entries_are(&through_client);

    with_client(false);
    edit("\"model\": \"y\"", "\"model\": \"z\"");
    uninstall_leaves_no_bridge("\"model\": \"z\"");
}

/// `--all-events` installs every Claude Code event; a file that did not exist is removed
/// again by uninstall.
#[test]
fn install_all_events_in_a_new_file() {
    let env = env_with("hooks: []\n");
    let run = env.run(&["install", "claude", "--all-events"]);
    assert_eq!(run.code, 0, "{run:?}");
    let settings = env.path().join("proj/.claude/settings.json");
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    // Every event of Claude Code's profile, TaskCompleted and TeammateIdle included.
    let hooks = value["hooks"].as_object().unwrap();
    assert_eq!(hooks.len(), 31);
    assert!(hooks.contains_key("TeammateIdle") && hooks.contains_key("DirectoryAdded"));
    env.run(&["uninstall", "claude"]);
    assert!(!settings.exists());
}

/// The bridge waits for an event written late (a loaded machine) instead of answering
/// without it, and a call whose stdin is not JSON exits 1 with the reason.
#[test]
fn the_event_is_read_even_when_written_late() {
    let env = env_with(CONFIG);
    let event = payload(&env, "PreToolUse", bash("rm -r victim"));
    let mut child = env
        .std_command()
        .args(["bridge", "codex"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Longer than `hooks run`'s 200 ms wait for a piped payload: the bridge must not give
    // up on it. Half a second is the delay under test, not a synchronisation.
    std::thread::sleep(Duration::from_millis(500));
    {
        use std::io::Write;
        stdin.write_all(event.as_bytes()).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing rm -r"));
    check(&env, "claude", "not json", Value::Null, 1, "not JSON");
}

/// An engine error (here the engine cannot be set up: `HOOKS_ON_BROKEN_CONFIG` is not a
/// policy) blocks a tool call by default, lets it through with `HOOKS_BRIDGE_ON_ERROR=allow`,
/// and lets every other event go on; the user is told each time.
#[test]
fn engine_errors_follow_the_failure_policy() {
    let env = env_with(CONFIG);
    let tool = payload(&env, "PreToolUse", bash("ls"));
    let run = |stdin: &str, policy: Option<&str>| {
        let mut cmd = env.command();
        cmd.args(["bridge", "claude"])
            .env("HOOKS_ON_BROKEN_CONFIG", "bogus")
            .write_stdin(stdin);
        if let Some(p) = policy {
            cmd.env("HOOKS_BRIDGE_ON_ERROR", p);
        }
        env.finish(&mut cmd)
    };
    let blocked = run(&tool, None).json();
    assert_eq!(
        blocked["hookSpecificOutput"]["permissionDecision"], "deny",
        "{blocked}"
    );
    assert!(
        blocked["systemMessage"]
            .as_str()
            .unwrap()
            .contains("HOOKS_ON_BROKEN_CONFIG"),
        "{blocked}"
    );
    let allowed = run(&tool, Some("allow")).json();
    assert_eq!(allowed.get("hookSpecificOutput"), None, "{allowed}");
    assert!(
        allowed["systemMessage"]
            .as_str()
            .unwrap()
            .contains("could not run the hooks"),
        "{allowed}"
    );
    let stop = run(&payload(&env, "Stop", json!({})), None).json();
    assert_eq!(stop.get("decision"), None, "{stop}");
    assert!(stop["systemMessage"].as_str().is_some(), "{stop}");
}

/// Gemini CLI: entries under its own event names, with a matcher and a timeout in
/// milliseconds; uninstall restores the file byte for byte.
#[test]
fn install_and_uninstall_gemini() {
    let env = env_with(CONFIG);
    let original = "{\"general\": {\"vimMode\": true}}\n";
    let settings = env.write("proj/.gemini/settings.json", original);
    let run = env.run(&["install", "gemini"]);
    assert_eq!(run.code, 0, "{run:?}");
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let mut events: Vec<&String> = value["hooks"].as_object().unwrap().keys().collect();
    events.sort();
    assert_eq!(events, ["AfterAgent", "BeforeAgent", "BeforeTool"]);
    let handler = &value["hooks"]["BeforeTool"][0];
    assert_eq!(handler["matcher"], "*");
    assert_eq!(handler["hooks"][0]["timeout"], 600_000);
    assert_eq!(
        handler["hooks"][0]["command"],
        crate::support::installed_command("gemini")
    );
    assert_eq!(value["general"]["vimMode"], true);
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains("BeforeTool: calls this binary; runs guard, npm-to-bun"),
        "{}",
        doctor.stdout
    );
    assert_eq!(env.run(&["uninstall", "gemini"]).code, 0);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
}

/// A Gemini CLI settings file with other keys, a disabled hook, a sequential group and
/// timeouts in milliseconds.
const GEMINI_SETTINGS: &str = "{\n  \"general\": {\"vimMode\": true},\n  \"hooksConfig\": {\"enabled\": true, \"disabled\": [\"quiet\"]},\n  \"hooks\": {\n    \"BeforeTool\": [{\"matcher\": \"run_shell_command|read_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"./check.sh\", \"timeout\": 5000}]}],\n    \"AfterAgent\": [{\"sequential\": true, \"hooks\": [{\"type\": \"command\", \"name\": \"quiet\", \"command\": \"echo hi\"}]}]\n  }\n}\n";

/// `hooks install gemini --migrate` moves the hooks of Gemini CLI's settings into the
/// native config of the same layer (canonical event names, seconds, each hook kept in
/// Gemini CLI's dialect with its tool names, so it is given Gemini CLI's JSON), installs
/// the bridge for their events, and `hooks uninstall gemini` gives back both files as they
/// were, a matcher that is a regular expression over Gemini CLI's tool names too.
#[test]
fn install_gemini_migrates_its_hooks_and_uninstall_restores_them() {
    let env = env_with(CONFIG);
    let settings = env.write("proj/.gemini/settings.json", GEMINI_SETTINGS);
    let native = env.path().join("proj/.hooks/hooks.yaml");
    let run = env.run(&["install", "gemini", "--migrate"]);
    assert_eq!(run.code, 0, "{run:?}");
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(
        !text.contains("check.sh") && !text.contains("echo hi"),
        "{text}"
    );
    assert!(text.contains("\"general\": {\"vimMode\": true}"), "{text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    let mut events: Vec<&String> = value["hooks"].as_object().unwrap().keys().collect();
    events.sort();
    assert_eq!(
        events,
        ["AfterAgent", "BeforeAgent", "BeforeTool"],
        "{text}"
    );
    let moved = std::fs::read_to_string(&native).unwrap();
    assert_eq!(
        moved,
        "hooks:\n  - id: project-pre-tool-use-1\n    event: PreToolUse\n    dialect: gemini\n    matcher: run_shell_command|read_file\n    command: ./check.sh\n    timeout: 5\n  - id: project-stop-1\n    name: quiet\n    event: Stop\n    dialect: gemini\n    command: echo hi\n    timeout: 60\n    sequential: Stop\n    enabled: false\n"
    );
    // The moved guard is still given Gemini CLI's JSON: a script that refuses Gemini
    // CLI's `run_shell_command` by name still refuses it through the bridge.
    env.write(
        "proj/check.sh",
        "#!/bin/sh\nif grep -q '\"tool_name\":\"run_shell_command\"'; then echo '{\"decision\": \"deny\", \"reason\": \"not in this repo\"}'; fi\n",
    );
    std::fs::set_permissions(
        env.path().join("proj/check.sh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let trusted = env.run(&["trust", ".hooks/hooks.yaml"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    let call = payload(
        &env,
        "BeforeTool",
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
    );
    let answer = env.run_with_stdin(&["bridge", "gemini"], &call);
    assert_eq!(answer.code, 0, "{answer:?}");
    assert_eq!(answer.json()["decision"], "deny", "{answer:?}");
    assert_eq!(answer.json()["reason"], "not in this repo", "{answer:?}");
    let run = env.run(&["uninstall", "gemini"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), GEMINI_SETTINGS);
    assert!(!native.exists());
    // A regular expression over Gemini CLI's tool names moves as it is: the hook keeps
    // Gemini CLI's dialect, where it is matched.
    let regex = GEMINI_SETTINGS.replace("run_shell_command|read_file", "run_.*");
    env.write("proj/.gemini/settings.json", &regex);
    let run = env.run(&["install", "gemini", "--migrate"]);
    assert_eq!(run.code, 0, "{run:?}");
    let moved = std::fs::read_to_string(&native).unwrap();
    assert!(
        moved.contains("    dialect: gemini\n    matcher: run_.*\n"),
        "{moved}"
    );
    let run = env.run(&["uninstall", "gemini"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), regex);
    assert!(!native.exists());
}

/// Codex: entries in `$CODEX_HOME/hooks.json` for the events Codex runs hooks on, trusted
/// in `config.toml`'s `[hooks.state]`; the doctor tells a trusted entry from one Codex
/// would skip; uninstall restores both files byte for byte.
#[test]
fn install_and_uninstall_codex() {
    let env = env_with(CONFIG);
    let original = "# my Codex settings\nmodel = \"o4\"\n";
    let config = env.write("home/.codex/config.toml", original);
    let hooks_json = env.path().join("home/.codex/hooks.json");
    let run = env.run(&["install", "codex"]);
    assert_eq!(run.code, 0, "{run:?}");
    let value: Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_json).unwrap()).unwrap();
    let mut events: Vec<&String> = value["hooks"].as_object().unwrap().keys().collect();
    events.sort();
    assert_eq!(events, ["PreToolUse", "Stop", "UserPromptSubmit"]);
    let trusted = std::fs::read_to_string(&config).unwrap();
    assert!(trusted.starts_with(original), "{trusted}");
    assert_eq!(
        trusted.matches("trusted_hash = \"sha256:").count(),
        3,
        "{trusted}"
    );
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains("PreToolUse: calls this binary; runs guard, npm-to-bun"),
        "{}",
        doctor.stdout
    );
    // Without its trust, Codex would skip the entry: the doctor says so.
    std::fs::write(&config, original).unwrap();
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains("PreToolUse: not called: Codex does not trust it"),
        "{}",
        doctor.stdout
    );
    // Installing again trusts it again.
    assert_eq!(env.run(&["install", "codex"]).code, 0);
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains("PreToolUse: calls this binary; runs guard, npm-to-bun"),
        "{}",
        doctor.stdout
    );
    assert_eq!(env.run(&["uninstall", "codex"]).code, 0);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), original);
    assert!(!hooks_json.exists());
}

/// Cursor: one flat entry per Cursor event (`{"command": .., "timeout": 600}`, `stop` with
/// `loop_limit: null`) in the project's `.cursor/hooks.json`, beside the file's own hooks,
/// every other byte kept; installing twice changes nothing; the doctor shows it; uninstall
/// gives the file back byte for byte; `--scope user` writes `~/.cursor/hooks.json`, a new
/// file with Cursor's `version`.
#[test]
fn install_and_uninstall_cursor() {
    let env = env_with(CONFIG);
    let original = "{\n  \"$schema\": \"https://unpkg.com/cursor-hooks@latest/schema/hooks.schema.json\",\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \"./hooks/format.sh\" }]\n  }\n}\n";
    let file = env.write("proj/.cursor/hooks.json", original);
    let run = env.run(&["install", "cursor"]);
    assert_eq!(run.code, 0, "{run:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[{ \"command\": \"./hooks/format.sh\" }"),
        "{text}"
    );
    let value: Value = serde_json::from_str(&text).unwrap();
    let mut events: Vec<&String> = value["hooks"].as_object().unwrap().keys().collect();
    events.sort();
    assert_eq!(
        events,
        ["afterFileEdit", "beforeSubmitPrompt", "preToolUse", "stop"]
    );
    assert_eq!(
        value["hooks"]["afterFileEdit"][0]["command"],
        "./hooks/format.sh"
    );
    let entry = &value["hooks"]["preToolUse"][0];
    assert_eq!(
        entry["command"],
        crate::support::installed_command("cursor")
    );
    assert_eq!(entry["timeout"], 600);
    assert_eq!(value["hooks"]["stop"][0]["loop_limit"], Value::Null);
    assert!(value["hooks"]["stop"][0].get("loop_limit").is_some());
    let again = env.run(&["install", "cursor"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    let doctor = env.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("Cursor\n")
            && doctor
                .stdout
                .contains("preToolUse: calls this binary; runs guard, npm-to-bun")
            && doctor
                .stdout
                .contains("1 other hook (Cursor runs those itself)"),
        "{}",
        doctor.stdout
    );
    assert_eq!(env.run(&["uninstall", "cursor"]).code, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);

    let user = env.path().join("home/.cursor/hooks.json");
    let run = env.run(&["install", "cursor", "--scope", "user", "--all-events"]);
    assert_eq!(run.code, 0, "{run:?}");
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&user).unwrap()).unwrap();
    assert_eq!(value["version"], 1);
    for event in [
        "preToolUse",
        "postToolUse",
        "sessionStart",
        "afterAgentResponse",
        "beforeTabFileRead",
        "subagentStop",
    ] {
        assert!(value["hooks"][event].is_array(), "{event}: {value}");
    }
    assert!(
        value["hooks"].get("beforeShellExecution").is_none(),
        "one name per event: {value}"
    );
    assert_eq!(env.run(&["uninstall", "cursor", "--scope", "user"]).code, 0);
    assert!(!user.exists());
}

/// A project's Cursor `hooks.json` with other keys, a `beforeShellExecution` guard with a
/// matcher over the command text, and a `stop` hook with `loop_limit: 2`.
const CURSOR_HOOKS: &str = r#"{
  "$schema": "https://unpkg.com/cursor-hooks@latest/schema/hooks.schema.json",
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{"command": "touch guard-ran; echo '{\"permission\": \"deny\", \"user_message\": \"no force push\"}'", "matcher": "git\\s+push\\s+--force"}],
    "stop": [{"command": "./again.sh", "loop_limit": 2}]
  }
}
"#;

/// `hooks install cursor --migrate` moves the hooks of the project's `.cursor/hooks.json`
/// into the native config, each keeping its Cursor dialect (Cursor's event name, its
/// matcher over the command text as `filter: {command}`, its `loop_limit`, the project
/// root Cursor runs it in), leaves the file its other keys and the bridge's entries, and
/// the bridge then runs the guard as Cursor did: for a matching command only, given
/// Cursor's JSON, its deny read as Cursor's. `hooks uninstall cursor` gives back both
/// files as they were.
#[test]
fn install_cursor_migrates_its_hooks_and_uninstall_restores_them() {
    let env = env_with("hooks: []\n");
    let file = env.write("proj/.cursor/hooks.json", CURSOR_HOOKS);
    let trusted = env.run(&["trust", ".cursor/hooks.json"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    let native = env.path().join("proj/.hooks/hooks.yaml");
    let run = env.run(&["install", "cursor", "--migrate"]);
    assert_eq!(run.code, 0, "{run:?}");
    let root = std::fs::canonicalize(env.path().join("proj")).unwrap();
    let moved = std::fs::read_to_string(&native)
        .unwrap()
        .replace(&root.display().to_string(), "$ROOT");
    assert_eq!(
        moved,
        r#"hooks:
  - id: project-pre-tool-use-1
    event: beforeShellExecution
    dialect: cursor
    matcher: Bash
    command: "touch guard-ran; echo '{\"permission\": \"deny\", \"user_message\": \"no force push\"}'"
    cwd: $ROOT
    timeout: 60
    filter:
      command: git\s+push\s+--force
  - id: project-stop-1
    event: stop
    dialect: cursor
    command: ./again.sh
    cwd: $ROOT
    timeout: 60
    loop_limit: 2
"#
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("{\n  \"$schema\": \"https://unpkg.com/cursor-hooks@latest/schema/hooks.schema.json\",\n  \"version\": 1,\n"),
        "{text}"
    );
    let value: Value = serde_json::from_str(&text).unwrap();
    let mut events: Vec<&String> = value["hooks"].as_object().unwrap().keys().collect();
    events.sort();
    assert_eq!(events, ["preToolUse", "stop"], "{text}");
    for entries in value["hooks"].as_object().unwrap().values() {
        for entry in entries.as_array().unwrap() {
            let command = entry["command"].as_str().unwrap();
            assert_eq!(
                command,
                crate::support::installed_command("cursor"),
                "{text}"
            );
        }
    }
    let shell = |command: &str| {
        json!({
            "conversation_id": "c-1",
            "generation_id": "g-1",
            "workspace_roots": [root],
            "hook_event_name": "beforeShellExecution",
            "command": command,
            "cwd": root,
        })
        .to_string()
    };
    let ran = root.join("guard-ran");
    let run = env.run_with_stdin(
        &["bridge", "cursor"],
        &shell("git push --force origin main"),
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["permission"], "deny", "{run:?}");
    assert!(ran.exists(), "the guard did not run");
    std::fs::remove_file(&ran).unwrap();
    let run = env.run_with_stdin(&["bridge", "cursor"], &shell("git push origin main"));
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.json()["permission"], "allow", "{run:?}");
    assert!(
        !ran.exists(),
        "the guard ran for a command its matcher does not match"
    );
    let run = env.run(&["uninstall", "cursor"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), CURSOR_HOOKS);
    assert!(!native.exists());
}

/// A Cursor `stop` hook's `loop_limit` holds across the agent's separate bridge calls,
/// counted in the session's one stop-loop streak: with `loop_limit: 2` its follow-up keeps
/// the agent going twice, then its block is dropped with a message; without one, Cursor's
/// default of 5 applies; with `null`, no limit, not even the engine's cap of 8. The hook
/// runs in `~/.cursor/`, where Cursor runs user hooks.
#[test]
fn a_cursor_loop_limit_holds_across_processes() {
    #[track_caller]
    fn followups(limit: &str, stops: usize) -> Vec<Value> {
        let env = env_with("hooks: []\n");
        let entry = format!(
            r#"{{"command": "echo \"{{\\\"followup_message\\\": \\\"again in $(pwd)\\\"}}\""{limit}}}"#
        );
        env.write(
            "home/.cursor/hooks.json",
            &format!(r#"{{"version": 1, "hooks": {{"stop": [{entry}]}}}}"#),
        );
        (0..stops)
            .map(|i| {
                let stop = payload(&env, "Stop", json!({"stop_hook_active": i > 0}));
                let run = env.run_with_stdin(&["bridge", "claude"], &stop);
                assert_eq!(run.code, 0, "{run:?}");
                if run.stdout.is_empty() {
                    Value::Null
                } else {
                    run.json()
                }
            })
            .collect()
    }
    let answers = followups(r#", "loop_limit": 2"#, 3);
    for answer in &answers[..2] {
        assert_eq!(answer["decision"], "block", "{answers:?}");
        assert!(
            answer["reason"].as_str().unwrap().ends_with("home/.cursor"),
            "the hook runs in ~/.cursor: {answer}"
        );
    }
    assert_eq!(answers[2].get("decision"), None, "{answers:?}");
    assert!(
        answers[2]["systemMessage"]
            .as_str()
            .unwrap()
            .contains("more than its loop_limit of 2"),
        "{answers:?}"
    );
    let answers = followups("", 6);
    assert!(
        answers[..5].iter().all(|a| a["decision"] == "block"),
        "{answers:?}"
    );
    assert_eq!(answers[5].get("decision"), None, "{answers:?}");
    let answers = followups(r#", "loop_limit": null"#, 10);
    assert!(
        answers.iter().all(|a| a["decision"] == "block"),
        "no limit: {answers:?}"
    );
}

/// Cursor's stop hook also runs when the agent errs: a StopFailure from Claude Code runs
/// it, given Cursor's `status: "error"`, and its follow-up is not a decision there
/// (StopFailure only observes).
#[test]
fn a_cursor_stop_hook_runs_on_stop_failure() {
    let env = env_with("hooks: []\n");
    let seen = env.path().join("seen.json");
    env.write(
        "home/.cursor/hooks.json",
        &json!({"version": 1, "hooks": {"stop": [{"command": format!("cat > '{}'; echo '{{\"followup_message\": \"retry\"}}'", seen.display())}]}})
            .to_string(),
    );
    let failure = payload(&env, "StopFailure", json!({"error": "rate_limit"}));
    let run = env.run_with_stdin(&["bridge", "claude"], &failure);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "", "{run:?}");
    let given: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(given["hook_event_name"], "stop", "{given}");
    assert_eq!(given["status"], "error", "{given}");
}

/// The binary agents start on every tool call is position-dependent on Linux (no
/// relocations to apply before `main`), unless built with `HOOKS_BUILD_PIE=1`.
#[cfg(target_os = "linux")]
#[test]
fn the_binary_is_linked_position_dependent() {
    if option_env!("HOOKS_BUILD_PIE") == Some("1") {
        return;
    }
    let elf = std::fs::read(assert_cmd::cargo::cargo_bin("hooks")).expect("the binary");
    assert_eq!(&elf[..4], b"\x7fELF");
    // `e_type` (little-endian on the targets this runs on): 2 is ET_EXEC, 3 ET_DYN (PIE).
    assert_eq!(u16::from_le_bytes([elf[16], elf[17]]), 2, "e_type");
}
