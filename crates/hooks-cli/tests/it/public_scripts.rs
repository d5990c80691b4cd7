//! Real public hook scripts of Gemini CLI, Codex and Claude Code run through `hooks run`
//! as their users would run them, at home and guarding another agent's tools: Gemini CLI's
//! documented `block-secrets.sh` and its example extension, the PreToolUse script of
//! Codex's own test suite, and `claude-code-rm-guard`'s `validate-rm.py` guarding Gemini
//! CLI's shell tool. Where each comes from is in its fixture's header.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::Env;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

/// `hooks run EVENT --json -c CONFIG -p PAYLOAD [extra]`, its outcome and exit code.
fn run(env: &Env, config: &Path, event: &str, payload: Value, extra: &[&str]) -> (Value, i32) {
    let payload = env.write("payload.json", &payload.to_string());
    let mut command = env.command();
    command
        .args(["run", event, "--json", "-c"])
        .arg(config)
        .arg("-p")
        .arg(payload)
        .args(extra)
        .timeout(Duration::from_secs(60));
    let out = env.finish(&mut command);
    let value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", out.stdout, out.stderr));
    (value, out.code)
}

#[test]
fn gemini_block_secrets_denies_a_secret_and_leaves_the_rest_to_gemini() {
    let env = Env::new();
    let script = fixture("conformance/gemini/fixtures/block-secrets.sh");
    let config = env.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
            {"name": "block-secrets", "type": "command", "command": format!("bash {}", script.display()), "timeout": 5000}
        ]}]}})
        .to_string(),
    );
    let secret = json!({"tool_name": "write_file", "tool_input": {"file_path": "a.env", "content": "api_key=123"}});
    let (out, code) = run(&env, &config, "BeforeTool", secret, &[]);
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(
        out["reason"],
        "Security Policy: Potential secret detected in content."
    );
    assert_eq!(
        out["system_message"],
        "🔒 Security scanner blocked operation"
    );
    assert_eq!(code, 2);
    let harmless = json!({"tool_name": "replace", "tool_input": {"file_path": "a.rs", "old_string": "a", "new_string": "b"}});
    let (out, code) = run(&env, &config, "BeforeTool", harmless, &[]);
    // Gemini CLI's `allow` does not bypass the agent's own checks: no opinion here.
    assert_eq!(out["decision"], "none", "{out}");
    assert_eq!(code, 0);
    let shell =
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "echo password"}});
    let (out, _) = run(&env, &config, "BeforeTool", shell, &[]);
    assert_eq!(
        out["hooks"],
        json!([]),
        "the matcher selects write_file|replace only"
    );
}

#[test]
fn gemini_extension_hook_prints_a_message_for_the_user() {
    let env = Env::new();
    let ext = env.path().join("home/.gemini/extensions/hooks-example");
    let src = fixture("conformance/gemini/fixtures/extensions/hooks-example");
    for rel in [
        "gemini-extension.json",
        "hooks/hooks.json",
        "scripts/on-start.js",
    ] {
        let text = std::fs::read_to_string(src.join(rel)).unwrap();
        env.write(
            &format!("home/.gemini/extensions/hooks-example/{rel}"),
            &text,
        );
    }
    let (out, _) = run(
        &env,
        &ext.join("hooks/hooks.json"),
        "SessionStart",
        json!({"source": "startup"}),
        &[],
    );
    assert_eq!(
        out["system_message"],
        "Session Started! This is running from a script in the hooks-example extension.",
        "{out}"
    );
    assert_eq!(
        out["additional_context"],
        json!([]),
        "plain stdout is not context in Gemini CLI"
    );
}

#[test]
fn codex_test_suite_hook_denies_and_blocks_as_in_codex() {
    let env = Env::new();
    let script = fixture("conformance/codex/fixtures/pre_tool_use_hook.py");
    let log = env.path().join("log.jsonl");
    let hook = |mode: &str| {
        json!({"type": "command", "command": format!(
            "HOOK_MODE={mode} HOOK_REASON='blocked by policy' HOOK_LOG='{}' python3 '{}'",
            log.display(),
            script.display()
        ), "statusMessage": "running pre tool use hook"})
    };
    for (mode, decision) in [("json_deny", "deny"), ("exit_2", "block")] {
        let config = env.write(
            ".codex/hooks.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "^Bash$", "hooks": [hook(mode)]}]}})
                .to_string(),
        );
        let payload = json!({"session_id": "s", "turn_id": "t-1", "model": "gpt-5-codex",
            "tool_name": "Bash", "tool_input": {"command": "rm -r build"}, "tool_use_id": "call_1"});
        let (out, code) = run(&env, &config, "PreToolUse", payload, &[]);
        assert_eq!(out["decision"], decision, "{mode}: {out}");
        assert_eq!(out["reason"], "blocked by policy", "{mode}: {out}");
        assert_eq!(code, 2);
    }
    let logged: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(logged.len(), 2);
    assert_eq!(logged[0]["turn_id"], "t-1");
    assert_eq!(logged[0]["tool_name"], "Bash");
    assert!(logged[0].get("timestamp").is_none(), "{}", logged[0]);
}

/// `.claude/settings.json` with the public Claude Code `rm` guard
/// (`fixtures/claude-validate-rm.py`) on `Bash`; its path.
fn claude_rm_guard(env: &Env) -> std::path::PathBuf {
    let script = fixture("fixtures/claude-validate-rm.py");
    env.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("python3 {}", script.display())}
        ]}]}})
        .to_string(),
    )
}

#[test]
fn a_claude_code_guard_guards_gemini_clis_shell_tool() {
    let env = Env::new();
    let config = claude_rm_guard(&env);
    let work = env.path().join("work");
    std::fs::create_dir_all(work.join("build")).unwrap();
    let cwd = work.display().to_string();
    let outside = json!({"cwd": cwd, "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /etc/passwd"}});
    let (out, code) = run(&env, &config, "BeforeTool", outside, &["--from", "gemini"]);
    assert_eq!(out["decision"], "block", "{out}");
    assert!(
        out["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("rm targets path outside working directory"),
        "{out}"
    );
    assert_eq!(code, 2);
    let inside = json!({"cwd": cwd, "tool_name": "run_shell_command", "tool_input": {"command": "rm -r build"}});
    let (out, code) = run(&env, &config, "BeforeTool", inside, &["--from", "gemini"]);
    assert_eq!(out["decision"], "none", "{out}");
    assert_eq!(out["hooks"][0]["status"], "ok", "the guard ran: {out}");
    assert_eq!(code, 0);
}

/// A tool call that comes from Cline (`execute_command`) is the canonical shell tool, so a
/// Claude Code guard on `Bash` selects it, and Cline's own name reaches no further.
#[test]
fn a_claude_code_guard_guards_clines_shell_tool() {
    let env = Env::new();
    let config = claude_rm_guard(&env);
    let work = env.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let payload = json!({"cwd": work.display().to_string(), "tool_name": "execute_command", "tool_input": {"command": "rm -rf /etc/passwd"}});
    let (out, code) = run(
        &env,
        &config,
        "PreToolUse",
        payload.clone(),
        &["--from", "cline"],
    );
    assert_eq!(out["decision"], "block", "{out}");
    assert_eq!(code, 2);
    // Sent as Claude Code's, `execute_command` is some other tool: the guard is not run.
    let (out, code) = run(&env, &config, "PreToolUse", payload, &[]);
    assert_eq!(out["hooks"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(code, 0);
}

/// An event in Cursor's own shape (`beforeShellExecution` with the command at the top
/// level, `conversation_id`, `workspace_roots`) is read into the canonical one, so a
/// Claude Code guard on `Bash` guards Cursor's shell, by Cursor's event name or with
/// `--from cursor`; a `beforeReadFile` is the `Read` tool, which the guard does not select.
#[test]
fn a_claude_code_guard_guards_cursors_shell_events() {
    let env = Env::new();
    let config = claude_rm_guard(&env);
    let work = env.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let root = work.display().to_string();
    let shell = json!({"conversation_id": "c-1", "generation_id": "g-1", "hook_event_name": "beforeShellExecution",
        "workspace_roots": [root], "command": "rm -rf /etc/passwd", "cwd": root});
    let (out, code) = run(&env, &config, "beforeShellExecution", shell.clone(), &[]);
    assert_eq!(out["decision"], "block", "{out}");
    assert_eq!(code, 2);
    // Named canonically, the payload's own `hook_event_name` says how to read it.
    let (out, code) = run(&env, &config, "PreToolUse", shell, &["--from", "cursor"]);
    assert_eq!(out["decision"], "block", "{out}");
    assert_eq!(code, 2);
    let read = json!({"conversation_id": "c-1", "hook_event_name": "beforeReadFile", "workspace_roots": [root],
        "file_path": "/etc/passwd", "content": "root:x", "attachments": []});
    let (out, code) = run(&env, &config, "beforeReadFile", read, &[]);
    assert_eq!(out["hooks"].as_array().map(Vec::len), Some(0), "{out}");
    assert_eq!(code, 0);
}

/// `hooks run EVENT -p PAYLOAD` in `dir` with discovery (no `-c`).
fn discover_run(env: &Env, dir: &str, event: &str, payload: &str) -> Value {
    let out = env.finish(
        env.command()
            .current_dir(env.path().join(dir))
            .args(["run", event, "--json", "-p", payload])
            .timeout(Duration::from_secs(60)),
    );
    serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", out.stdout, out.stderr))
}

#[test]
fn gemini_and_codex_files_are_found_where_their_users_keep_them_and_a_projects_needs_trust() {
    let env = Env::new();
    let deny = |why: &str| format!("echo '{{\"decision\":\"deny\",\"reason\":\"{why}\"}}'");
    let gemini = |why: &str| {
        json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": deny(why)}]}]}})
            .to_string()
    };
    env.write("home/.gemini/settings.json", &gemini("user gemini"));
    std::fs::create_dir_all(env.path().join("p/.git")).unwrap();
    env.write("p/.gemini/settings.json", &gemini("project gemini"));
    env.write(
        "p/.codex/config.toml",
        "[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo codex >&2; exit 2\"\n",
    );
    let payload = r#"{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#;
    let out = discover_run(&env, "p", "BeforeTool", payload);
    let sources: Vec<&str> = out["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["source"].as_str())
        .collect();
    assert_eq!(out["reason"], "user gemini", "{out}");
    assert_eq!(
        sources.len(),
        1,
        "the project's files wait for trust: {out}"
    );
    for file in [".gemini/settings.json", ".codex/config.toml"] {
        let run = crate::trust::run_in(&env, "p", &["trust", file]);
        assert_eq!(run.code, 0, "{run:?}");
    }
    let out = discover_run(&env, "p", "BeforeTool", payload);
    assert_eq!(out["hooks"].as_array().unwrap().len(), 3, "{out}");
    // Codex's exit 2 blocks, which is stricter than the Gemini CLI hooks' deny.
    assert_eq!(out["decision"], "block", "{out}");
    assert_eq!(out["reason"], "codex", "{out}");
}

#[test]
fn dialect_names_a_gemini_or_codex_file_anywhere_and_list_shows_it() {
    let env = Env::new();
    let gemini = env.write(
        "team/gemini-hooks.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "true", "timeout": 1500}]}]}})
        .to_string(),
    );
    let codex = env.write(
        "team/codex.toml",
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\ntimeout = 2\n",
    );
    for (file, dialect, event, timeout) in [
        (&gemini, "gemini", "PreToolUse", 1500),
        (&codex, "codex", "Stop", 2000),
    ] {
        let out = env.finish(
            env.command()
                .args(["list", "--json", "--dialect", dialect, "-c"])
                .arg(file)
                .timeout(Duration::from_secs(60)),
        );
        let listed: Value = serde_json::from_str(&out.stdout).unwrap();
        let hook = &listed["events"][0]["hooks"][0];
        assert_eq!(listed["events"][0]["event"], event, "{listed}");
        assert_eq!(hook["dialect"], dialect, "{listed}");
        assert_eq!(hook["timeout_ms"], timeout, "{listed}");
        let out = env.finish(
            env.command()
                .args(["validate", "--dialect", dialect, "-c"])
                .arg(file)
                .timeout(Duration::from_secs(60)),
        );
        assert_eq!(out.code, 0, "{out:?}");
    }
    // Without `--dialect`, its Gemini CLI event names say whose it is: 1500 ms, not 1500 s.
    let out = env.finish(
        env.command()
            .args(["list", "--json", "-c"])
            .arg(&gemini)
            .timeout(Duration::from_secs(60)),
    );
    let listed: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        listed["events"][0]["hooks"][0]["dialect"], "gemini",
        "{listed}"
    );
    assert_eq!(
        listed["events"][0]["hooks"][0]["timeout_ms"], 1500,
        "{listed}"
    );
}
