//! `hooks bridge` inside the real agents: after `hooks install AGENT` in the run's temp
//! home and project, a native guard of the engine's config (fail closed) refuses `rm -r`
//! through the agent's own hook call, a harmless command runs, and `hooks uninstall AGENT`
//! restores the agent's settings file byte for byte.

use std::path::{Path, PathBuf};

use super::{Agent, AgentRun, GUARD_REASON, Step, guard, shell_then_done};

/// The engine's user config (no trust needed): the guard on the canonical shell tool.
fn engine_config(run: &AgentRun) {
    let path = run.home().join(".config/hooks/hooks.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!(
            "hooks:\n  - id: no-rm-r\n    event: PreToolUse\n    matcher: Bash\n    on_failure: block\n    command: {}\n",
            guard(run)
        ),
    )
    .unwrap();
}

/// The agent's settings file `hooks install` writes.
fn settings(run: &AgentRun, agent: Agent) -> PathBuf {
    match agent {
        Agent::Claude => run.project().join(".claude/settings.json"),
        // Cline has no settings file; install writes a hook file per event.
        Agent::Cline => run.project().join(".clinerules/hooks/PreToolUse"),
        Agent::Gemini => run.project().join(".gemini/settings.json"),
        Agent::Codex => run.codex_home().join("hooks.json"),
        Agent::Qwen => run.project().join(".qwen/settings.json"),
        Agent::Droid => run.project().join(".factory/settings.json"),
        // Its user hooks, the default scope of its install.
        Agent::Copilot => run.copilot_home().join("hooks/agentic-hooks.json"),
        // OpenCode's hooks are plugins; install writes the bridge's.
        Agent::Opencode => run.project().join(".opencode/plugin/agentic-hooks.js"),
    }
}

pub(super) fn hooks(run: &AgentRun, args: &[&str]) {
    let out = run.hooks_command(args).output().unwrap();
    assert!(out.status.success(), "hooks {args:?}: {out:?}");
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Installs the bridge, runs the agent on `command`, and uninstalls; returns the run's
/// output and whether the settings file came back as it was.
pub(super) fn bridged(
    agent: Agent,
    command: &str,
    before: Option<&str>,
) -> (AgentRun, super::AgentOutput) {
    bridged_with(agent, command, before, engine_config)
}

/// [`bridged`] with the engine's config written by `config`.
pub(super) fn bridged_with(
    agent: Agent,
    command: &str,
    before: Option<&str>,
    config: impl Fn(&AgentRun),
) -> (AgentRun, super::AgentOutput) {
    bridged_script(
        AgentRun::new(agent, shell_then_done(command)),
        before,
        config,
    )
}

/// Installs the bridge in `run` (whose agent's settings file holds `before`, and whose
/// engine config `config` writes), runs the agent, and uninstalls, checking that every
/// file the install wrote comes back as it was; returns the run and its output.
pub(super) fn bridged_script(
    run: AgentRun,
    before: Option<&str>,
    config: impl Fn(&AgentRun),
) -> (AgentRun, super::AgentOutput) {
    run.write("victim/keep.txt", "precious");
    config(&run);
    let out = install_run_uninstall(&run, before);
    (run, out)
}

/// Writes `before` (if any) as the agent's settings file, runs `hooks install AGENT`, the
/// agent and `hooks uninstall AGENT`, and checks that the agent's settings file (and
/// Codex's `config.toml`) came back byte for byte; returns the run's output.
pub(super) fn install_run_uninstall(run: &AgentRun, before: Option<&str>) -> super::AgentOutput {
    install_run_uninstall_with(run, before, None)
}

/// [`install_run_uninstall`], with the installed command's client (cargo's
/// `hooks-bridge`, beside `hooks`) swapped for `client` when given: the Linux packages'
/// client, which sits beside a link to the same `hooks`.
fn install_run_uninstall_with(
    run: &AgentRun,
    before: Option<&str>,
    client: Option<&Path>,
) -> super::AgentOutput {
    let agent = run.agent;
    let path = settings(run, agent);
    if let Some(text) = before {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let codex_config = run.codex_home().join("config.toml");
    let codex_config_before = read(&codex_config);
    hooks(run, &["install", agent.bin_name_for_install()]);
    let cargo_client = assert_cmd::cargo::cargo_bin("hooks-bridge");
    let swap = |from: &Path, to: &Path| {
        let text = std::fs::read_to_string(&path).unwrap();
        let (from, to) = (from.to_str().unwrap(), to.to_str().unwrap());
        assert!(text.contains(from), "{text}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    };
    if let Some(client) = client {
        swap(&cargo_client, client);
    }
    let out = run.run();
    // Back to what install wrote, which uninstall knows as its own.
    if let Some(client) = client {
        swap(client, &cargo_client);
    }
    hooks(run, &["uninstall", agent.bin_name_for_install()]);
    assert_eq!(
        read(&codex_config),
        codex_config_before,
        "uninstall did not restore {}",
        codex_config.display()
    );
    assert_eq!(
        read(&path).as_deref(),
        before,
        "uninstall did not restore {}",
        path.display()
    );
    out
}

impl Agent {
    /// The name `hooks install` takes.
    fn bin_name_for_install(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Cline => "cline",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Qwen => "qwen",
            Agent::Droid => "droid",
            Agent::Copilot => "copilot",
            Agent::Opencode => "opencode",
        }
    }
}

#[test]
fn claude_code_runs_the_engines_guard_through_the_bridge() {
    let (run, out) = bridged(
        Agent::Claude,
        "rm -r victim",
        Some("{\n  \"model\": \"x\"\n}\n"),
    );
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(out.tool_result().contains(GUARD_REASON), "{out}");
    let (run, out) = bridged(Agent::Claude, "touch made", None);
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
}

#[test]
fn gemini_cli_runs_the_engines_guard_through_the_bridge() {
    let (run, out) = bridged(
        Agent::Gemini,
        "rm -r victim",
        Some("{\"hooksConfig\": {\"enabled\": true}}\n"),
    );
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(out.tool_result().contains(GUARD_REASON), "{out}");
}

/// Codex runs only hooks it trusts: `hooks install codex` writes the bridge's entry and its
/// trust (no `--dangerously-bypass-hook-trust`), so the engine's guard refuses `rm -r`, a
/// harmless command runs, and uninstall gives back `hooks.json` and `config.toml`.
#[test]
fn codex_runs_the_engines_guard_through_the_bridge() {
    let (run, out) = bridged(Agent::Codex, "rm -r victim", None);
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    let result = out.tool_result();
    assert!(
        result.contains("Command blocked by PreToolUse hook"),
        "{out}"
    );
    assert!(result.contains(GUARD_REASON), "{out}");
    let (run, out) = bridged(Agent::Codex, "touch made", None);
    out.assert_success();
    assert!(run.project().join("made").exists(), "{out}");
}

/// Codex has no cap on consecutive Stop blocks: a Stop hook that always blocks would keep
/// it going forever. Through the bridge, whose state store counts the blocks across its
/// separate invocations, the ninth block is overridden (the cap of 8) and Codex stops: one
/// first turn and eight continuations reach the model.
#[test]
fn codex_stop_blocks_are_capped_across_bridge_calls() {
    let mut run = AgentRun::new(Agent::Codex, vec![Step::Text("Finished.".to_owned())]);
    run.codex_bypass_hook_trust();
    let path = run.home().join(".config/hooks/hooks.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "hooks:\n  - id: never-done\n    event: Stop\n    command: echo '{\"decision\":\"block\",\"reason\":\"keep going\"}'\n",
    )
    .unwrap();
    let bridge = format!("{} bridge codex", super::hooks_bin().display());
    run.add_hook("Stop", None, &bridge);
    let out = run.run();
    out.assert_success();
    let turns = out.turns().len();
    assert_eq!(turns, 9, "{out}");
}

/// Writes `text` to `rel` under the run's home.
pub(super) fn home_file(run: &AgentRun, rel: &str, text: &str) {
    let path = run.home().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A rewrite's `updatedInput` is what Claude Code's tool runs, and a UserPromptSubmit
/// hook's text reaches the model, both from the engine's native config.
#[test]
fn claude_code_takes_the_engines_rewrite_and_context() {
    let (run, out) = bridged_with(Agent::Claude, "touch original", None, |run| {
        home_file(
            run,
            ".config/hooks/hooks.yaml",
            "hooks:\n  - id: rename\n    event: PreToolUse\n    matcher: Bash\n    if: \"Bash(touch original)\"\n    command: |\n      echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"command\":\"touch rewritten\"}}}'\n  - id: brief\n    event: UserPromptSubmit\n    command: \"echo 'Context from the engine: be brief.'\"\n",
        );
    });
    out.assert_success();
    assert!(run.project().join("rewritten").exists(), "{out}");
    assert!(!run.project().join("original").exists(), "{out}");
    assert!(
        out.turn(0)
            .to_string()
            .contains("Context from the engine: be brief."),
        "{out}"
    );
}

/// A hook written in another agent's dialect (an Autohand `pre-tool` entry in
/// `~/.autohand/config.json`) guards Gemini CLI's shell tool through the bridge.
#[test]
fn an_autohand_hook_guards_gemini_clis_shell() {
    let (run, out) = bridged_with(
        Agent::Gemini,
        "rm -r victim",
        Some("{\"hooksConfig\": {\"enabled\": true}}\n"),
        |run| {
            home_file(
                run,
                ".autohand/config.json",
                &serde_json::json!({"hooks": {"hooks": [{"event": "pre-tool", "command": guard(run)}]}})
                    .to_string(),
            );
            // `hooks install` covers the events with a hook: the guard's.
        },
    );
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(out.tool_result().contains(GUARD_REASON), "{out}");
}

/// Stops the daemon of a run when the test ends, passed or not.
struct DaemonOf<'a>(&'a AgentRun);

impl Drop for DaemonOf<'_> {
    fn drop(&mut self) {
        let _ = self.0.hooks_command(&["daemon", "stop"]).output();
    }
}

/// With `hooks daemon` running in the agent's environment, the agent's bridge calls are
/// answered by the daemon (it counts them), one worker serving them all, and the guard still
/// stops `rm -r` in the real agent, with its reason given to the model, while `touch made`
/// runs.
#[test]
fn the_guard_runs_through_the_daemon_inside_claude_code_and_copilot_cli() {
    // Each agent with each client the hook command may be (cargo's, the packages').
    let clients = crate::support::clients();
    for (agent, client) in [Agent::Claude, Agent::Copilot]
        .into_iter()
        .flat_map(|a| clients.iter().map(move |c| (a, c)))
    {
        let script = vec![
            Step::Shell("rm -r victim".to_owned()),
            Step::Shell("touch made".to_owned()),
            Step::Text("Done.".to_owned()),
        ];
        let run = AgentRun::new(agent, script);
        run.write("victim/keep.txt", "precious");
        engine_config(&run);
        // A second hook writes down the process that ran it: a worker of the daemon.
        let runners = run.root().join("runners.log");
        let config = run.home().join(".config/hooks/hooks.yaml");
        let mut text = std::fs::read_to_string(&config).unwrap();
        text.push_str(&format!(
            "  - id: runner\n    event: PreToolUse\n    command: 'echo \"$PPID $(tr \"\\\\0\" \" \" < /proc/$PPID/cmdline)\" >> {}'\n",
            runners.display()
        ));
        std::fs::write(&config, text).unwrap();
        // Not marked as the run's: the run's end kills what it marks (the workers, started
        // with the agent's environment, are).
        let started = run
            .hooks_command(&["daemon", "start"])
            .env_remove("HOOKS_E2E_RUN")
            .output()
            .unwrap();
        assert!(started.status.success(), "{started:?}");
        let daemon = DaemonOf(&run);
        let swap = (*client != assert_cmd::cargo::cargo_bin("hooks-bridge")).then_some(&**client);
        let out = install_run_uninstall_with(&run, None, swap);
        let agent = format!("{agent:?} with {}", client.display());
        let status = run
            .hooks_command(&["daemon", "status", "--json"])
            .output()
            .unwrap();
        let state: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
        drop(daemon);
        out.assert_success();
        assert!(
            run.project().join("victim/keep.txt").exists(),
            "{agent}: rm -r ran:\n{out}"
        );
        assert!(out.tool_result().contains(GUARD_REASON), "{agent}: {out}");
        assert!(run.project().join("made").exists(), "{agent}: {out}");
        // Both calls were the daemon's, and the second reused the first's worker (which
        // took it on its own socket): the agent gives its hooks the same environment at
        // every call. The daemon counts the call it relayed; the worker, ended with the
        // run, took its count with it.
        assert!(
            state["served"].as_u64().is_some_and(|n| n >= 1),
            "{agent}: the daemon answered no call: {state}"
        );
        assert_eq!(state["workers"], 1, "{agent}: {state}");
        let lines: Vec<String> = std::fs::read_to_string(&runners)
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect();
        assert!(lines.len() >= 2, "{agent}: {lines:?}");
        assert!(
            lines
                .iter()
                .all(|l| l.contains("daemon worker") && *l == lines[0]),
            "{agent}: the calls were not one worker's: {lines:?}"
        );
    }
}
