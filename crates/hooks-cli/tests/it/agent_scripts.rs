//! Hook scripts written for other agents, run through `hooks run` where their users keep
//! them, and behaving as at home: a Cursor `beforeShellExecution` guard that reads the
//! top-level `command` Cursor sends (from `tests/fixtures/cursor`), and Cline hook files
//! that read `preToolUse.toolName` and `postToolUse.executionTimeMs` (from
//! `tests/fixtures/cline`), whichever agent the event comes from.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::Env;

/// A fresh environment holding a copy of the fixture project `name`, its hook scripts
/// still executable, the project's files trusted.
fn project(name: &str, trusted: &[&str]) -> Env {
    let env = Env::new();
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    copy_dir(&from, env.path());
    std::fs::create_dir_all(env.path().join(".git")).unwrap();
    for file in trusted {
        let out = env.run(&["trust", file]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    env
}

/// Copies the directory `from` into `to`, recursively, keeping permissions.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            // `copy` keeps the permissions, so the scripts stay executable.
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// `hooks run EVENT --json` with `payload`, through discovery in `env`'s project.
fn run(env: &Env, event: &str, payload: Value) -> Value {
    let file = env.write("payload.json", &payload.to_string());
    let out = env.finish(
        env.command()
            .args(["run", event, "--json", "-p"])
            .arg(file)
            .timeout(Duration::from_secs(60)),
    );
    serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", out.stdout, out.stderr))
}

/// Claude Code's PreToolUse payload for its `Bash` tool.
fn claude_bash(command: &str) -> Value {
    json!({
        "session_id": "s-1",
        "transcript_path": "/t.jsonl",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
        "tool_use_id": "toolu_1"
    })
}

#[test]
fn a_cursor_git_guard_guards_claude_codes_bash_tool() {
    let env = project("cursor", &[".cursor/hooks.json"]);
    let push = run(&env, "PreToolUse", claude_bash("git push origin main"));
    assert_eq!(push["decision"], "deny", "{push}");
    assert_eq!(
        push["reason"],
        "Raw git commands are blocked by a project hook; use the gh tool instead."
    );
    assert_eq!(
        push["system_message"],
        "Git command blocked. Please use the GitHub CLI (gh) tool instead."
    );
    let gh = run(&env, "PreToolUse", claude_bash("gh pr create"));
    assert_eq!(gh["decision"], "ask", "{gh}");
    let ls = run(&env, "PreToolUse", claude_bash("ls -la"));
    assert_eq!(ls["decision"], "allow", "{ls}");
}

#[test]
fn a_cursor_shell_guard_is_not_run_for_other_tools() {
    let env = project("cursor", &[".cursor/hooks.json"]);
    let read = run(
        &env,
        "PreToolUse",
        json!({"tool_name": "Read", "tool_input": {"file_path": "git"}}),
    );
    assert_eq!(read["decision"], "none", "{read}");
    assert_eq!(read["hooks"], json!([]), "{read}");
}

#[test]
fn a_cline_context_hook_sees_its_tool_under_clines_name() {
    let env = project(
        "cline",
        &[
            ".clinerules/hooks/PreToolUse",
            ".clinerules/hooks/PostToolUse",
        ],
    );
    // From Claude Code: its `Bash` is Cline's `execute_command`.
    let bash = run(&env, "PreToolUse", claude_bash("npm test"));
    assert_eq!(
        bash["additional_context"],
        json!(["Tool execute_command is about to run."]),
        "{bash}"
    );
    // From Cline itself.
    let read = run(
        &env,
        "PreToolUse",
        json!({"tool_name": "read_file", "tool_input": {"path": "README.md"}}),
    );
    assert_eq!(
        read["additional_context"],
        json!(["Tool read_file is about to run."]),
        "{read}"
    );
}

#[test]
fn a_cline_validation_hook_cancels_the_task() {
    let env = project("cline", &[".clinerules/hooks/PreToolUse"]);
    // Claude Code's `Write` with `file_path` is Cline's `write_to_file` with `path`.
    let write = run(
        &env,
        "PreToolUse",
        json!({"tool_name": "Write", "tool_input": {"file_path": "src/a.js", "content": "x"}}),
    );
    assert_eq!(write["continue"], false, "{write}");
    assert_eq!(
        write["stop_reason"],
        "Cannot create .js files in TypeScript project"
    );
    assert_eq!(write["additional_context"], json!([]), "{write}");
}

#[test]
fn a_cline_monitoring_hook_reads_the_execution_time() {
    let env = project("cline", &[".clinerules/hooks/PostToolUse"]);
    let slow = run(
        &env,
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": "ok", "duration_ms": 7000}),
    );
    assert_eq!(
        slow["additional_context"],
        json!(["Tool execute_command took 7000ms."]),
        "{slow}"
    );
    let fast = run(
        &env,
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "ok", "duration_ms": 3}),
    );
    assert_eq!(fast["additional_context"], json!([]), "{fast}");
}

#[test]
fn a_cline_readme_in_the_hooks_directory_is_not_a_hook() {
    let env = project("cline", &[".clinerules/hooks/PreToolUse"]);
    let out = env.run(&["validate"]);
    assert!(
        !out.stdout.contains("README") && !out.stderr.contains("README"),
        "{}{}",
        out.stdout,
        out.stderr
    );
    let list = env.run(&["list", "--json"]);
    let listed: Value = serde_json::from_str(&list.stdout).unwrap();
    let files: Vec<String> = listed["events"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["hooks"].as_array().cloned().unwrap_or_default())
        .filter_map(|h| h["source"].as_str().map(str::to_owned))
        .collect();
    assert!(!files.is_empty(), "{listed}");
    assert!(files.iter().all(|f| !f.contains("README")), "{files:?}");
}
