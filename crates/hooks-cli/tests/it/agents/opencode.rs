//! OpenCode (`opencode-ai` 1.18.33, its Linux binary) against the scripted model server as
//! an OpenAI-compatible provider, with the bridge installed as its plugin (`hooks install
//! opencode` writes `.opencode/plugin/agentic-hooks.js`, or the user's
//! `$XDG_CONFIG_HOME/opencode/plugin/` with `--scope user`): the engine's guard refuses
//! `rm -r` and the model gets its reason verbatim as the tool's result, a harmless command
//! runs, a rewrite of the engine's hooks is what OpenCode's tools run (in OpenCode's
//! argument names), a PostToolUse hook's context is appended to the tool's output, and a
//! bridge that cannot be run, or does not answer in time, blocks the call. `hooks uninstall
//! opencode` removes the plugin each time.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::bridge::{bridged, bridged_script, home_file, hooks};
use super::{Agent, AgentOutput, AgentRun, GUARD_REASON, Step, hooks_bin, shell_then_done};

/// The `state` of the `tool_use` events of OpenCode's `--format json` output, in order.
fn tool_states(out: &AgentOutput) -> Vec<Value> {
    out.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "tool_use")
        .map(|v| v["part"]["state"].clone())
        .collect()
}

/// The `content` of the `role: "tool"` messages of model turn `n`, in order: what the
/// model read as each tool call's result.
fn tool_messages(out: &AgentOutput, n: usize) -> Vec<String> {
    out.turn(n)["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// The status (`completed`, `error`) of the first tool call.
fn first_status(out: &AgentOutput) -> String {
    let states = tool_states(out);
    let state = states
        .first()
        .unwrap_or_else(|| panic!("no tool_use event:\n{out}"));
    state["status"].as_str().unwrap_or_default().to_owned()
}

#[test]
fn the_engines_guard_refuses_rm_r_through_the_plugin() {
    let (run, out) = bridged(Agent::Opencode, "rm -r victim", None);
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    // The reason reaches the model verbatim, as the tool's result.
    assert_eq!(tool_messages(&out, 1), [GUARD_REASON], "{out}");
    assert_eq!(first_status(&out), "error", "{out}");
    assert_eq!(tool_states(&out)[0]["error"], GUARD_REASON, "{out}");
    // The guard got the call in the canonical vocabulary, with OpenCode's call id.
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap_or_default();
    let asked: Value = serde_json::from_str(log.lines().next().unwrap_or("null")).unwrap();
    assert_eq!(asked["tool_name"], "Bash", "{log}");
    assert_eq!(asked["tool_input"]["command"], "rm -r victim", "{log}");
    assert_eq!(asked["tool_use_id"], "call_hooks_1", "{log}");
    assert_eq!(
        Path::new(asked["cwd"].as_str().unwrap_or_default()),
        run.project(),
        "{log}"
    );
}

#[test]
fn a_harmless_command_passes_the_engines_guard_and_runs() {
    let (run, out) = bridged(Agent::Opencode, "touch made", None);
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
    assert_eq!(first_status(&out), "completed", "{out}");
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap_or_default();
    assert!(
        log.contains("touch made"),
        "the guard was not asked: {log}\n{out}"
    );
}

/// A rewrite of the engine's hooks, written in the canonical tools' names, is what
/// OpenCode's tools run: the shell command replaced, and a write's `file_path` (OpenCode's
/// `filePath`) moved to another file. A PostToolUse hook's context follows the shell
/// tool's output in what the model reads.
#[test]
fn rewrites_and_post_tool_context_of_the_engines_hooks_reach_opencode() {
    let config = r#"hooks:
  - id: rename
    event: PreToolUse
    matcher: Bash
    if: "Bash(touch original)"
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch rewritten"}}}'
  - id: elsewhere
    event: PreToolUse
    matcher: Write
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"rewritten.txt","content":"from the hook"}}}'
  - id: checked
    event: PostToolUse
    matcher: Bash
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Context from the engine: checked."}}'
"#;
    let run = AgentRun::new(
        Agent::Opencode,
        vec![
            Step::Shell("touch original".to_owned()),
            Step::Tool(
                "write".to_owned(),
                json!({"filePath": "original.txt", "content": "from the model"}),
            ),
            Step::Text("Finished.".to_owned()),
        ],
    );
    let (run, out) = bridged_script(run, None, |run| {
        home_file(run, ".config/hooks/hooks.yaml", config);
    });
    out.assert_success();
    let project = run.project();
    assert!(project.join("rewritten").exists(), "{out}");
    assert!(!project.join("original").exists(), "{out}");
    assert_eq!(
        std::fs::read_to_string(project.join("rewritten.txt"))
            .ok()
            .as_deref(),
        Some("from the hook"),
        "{out}"
    );
    assert!(!project.join("original.txt").exists(), "{out}");
    let result = &tool_messages(&out, 1)[0];
    assert!(
        result.ends_with("\n\nContext from the engine: checked."),
        "{result:?}\n{out}"
    );
}

/// The engine's user config: a guard on the shell tool that `script` is (a shell command
/// line), failing closed.
fn guard_config(run: &AgentRun, script: &str) {
    let guard = run.script("slow-guard.sh", script);
    home_file(
        run,
        ".config/hooks/hooks.yaml",
        &format!(
            "hooks:\n  - id: guard\n    event: PreToolUse\n    matcher: Bash\n    on_failure: block\n    timeout: 120\n    command: {}\n",
            guard.display()
        ),
    );
}

/// The plugin installed with a `hooks` program that is gone by the time OpenCode calls it
/// (a copy of the binary, removed after the install): the call is blocked, with why, and
/// `hooks doctor` says the program is missing. Uninstall still removes the plugin.
#[test]
fn a_bridge_that_cannot_be_run_blocks_the_call() {
    let run = AgentRun::new(Agent::Opencode, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    guard_config(&run, "exit 0\n");
    let copy = run.root().join("gone/hooks");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(hooks_bin(), &copy).unwrap();
    // The copy of the binary under test, as a real child process.
    #[allow(clippy::disallowed_methods)]
    let mut install = std::process::Command::new(&copy);
    install.args(["install", "opencode"]);
    run.apply_env(&mut install);
    let installed = install.output().unwrap();
    assert!(installed.status.success(), "{installed:?}");
    std::fs::remove_file(&copy).unwrap();
    let doctor = run.hooks_command(&["doctor"]).output().unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains(&format!(
            "tool.execute.before: calls {}, which is missing",
            copy.display()
        )),
        "{report}"
    );
    let out = run.run();
    hooks(&run, &["uninstall", "opencode"]);
    assert!(
        !run.project()
            .join(".opencode/plugin/agentic-hooks.js")
            .exists(),
        "uninstall left the plugin"
    );
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert_eq!(first_status(&out), "error", "{out}");
    let result = &tool_messages(&out, 1)[0];
    assert!(
        result.starts_with(&format!("hooks bridge could not run {}", copy.display()))
            && result.ends_with("so the call is blocked"),
        "{result:?}\n{out}"
    );
}

/// A guard that does not answer within the plugin's timeout (`HOOKS_OPENCODE_TIMEOUT_MS`,
/// 2 s here; the hook's own is 120 s): the call is blocked, with why.
#[test]
fn a_bridge_that_does_not_answer_in_time_blocks_the_call() {
    let mut run = AgentRun::new(Agent::Opencode, shell_then_done("rm -r victim"));
    run.env("HOOKS_OPENCODE_TIMEOUT_MS", "2000");
    let started = std::time::Instant::now();
    let (run, out) = bridged_script(run, None, |run| {
        guard_config(run, "exec sleep 100\n");
    });
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    let result = &tool_messages(&out, 1)[0];
    assert!(
        result.starts_with("hooks bridge no answer within 2000 ms")
            && result.ends_with("so the call is blocked"),
        "{result:?}\n{out}"
    );
    assert!(started.elapsed() < Duration::from_secs(60), "{out}");
}

/// `hooks install opencode --scope user` writes the plugin into the user's config
/// directory (`$XDG_CONFIG_HOME/opencode/plugin/`), which OpenCode loads for every project:
/// the engine's guard refuses `rm -r` from there. Installed in the project too, OpenCode
/// loads both plugins and calls the bridge twice for the call: the guard still runs once
/// (the second call gets the first's answer).
#[test]
fn the_plugin_installed_for_the_user_guards_the_project() {
    let run = AgentRun::new(Agent::Opencode, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    let log = run.root().join("runs.log");
    guard_config(
        &run,
        &format!(
            "echo ran >> '{}'\ncase \"$(cat)\" in *'rm -r'*) echo 'refused for the user' >&2; exit 2;; esac\n",
            log.display()
        ),
    );
    hooks(&run, &["install", "opencode", "--scope", "user"]);
    let plugin = run.home().join(".config/opencode/plugin/agentic-hooks.js");
    assert!(plugin.exists(), "install wrote no {}", plugin.display());
    hooks(&run, &["install", "opencode"]);
    let out = run.run();
    hooks(&run, &["uninstall", "opencode", "--scope", "user"]);
    hooks(&run, &["uninstall", "opencode"]);
    assert!(!plugin.exists(), "uninstall left {}", plugin.display());
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert_eq!(tool_messages(&out, 1), ["refused for the user"], "{out}");
    let runs = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(runs.lines().count(), 1, "the guard ran {runs:?}\n{out}");
}

/// `OPENCODE_PURE=1` runs OpenCode without plugins: the bridge's plugin is not loaded and
/// `rm -r` runs (a bypass in the user's hands, which `hooks doctor` names).
#[test]
fn opencode_pure_runs_without_the_plugin() {
    let mut run = AgentRun::new(Agent::Opencode, shell_then_done("rm -r victim"));
    run.env("OPENCODE_PURE", "1");
    run.write("victim/keep.txt", "precious");
    guard_config(&run, "cat >/dev/null; echo refused >&2; exit 2\n");
    hooks(&run, &["install", "opencode"]);
    let doctor = run.hooks_command(&["doctor"]).output().unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains("tool.execute.before: not called: OPENCODE_PURE is set"),
        "{report}"
    );
    let out = run.run();
    hooks(&run, &["uninstall", "opencode"]);
    out.assert_success();
    assert!(!run.project().join("victim").exists(), "{out}");
    assert_eq!(first_status(&out), "completed", "{out}");
}
