//! `hooks bridge codex` inside the real Codex, after `hooks install codex` (its entries
//! trusted by the install alone, no `--dangerously-bypass-hook-trust`): a rewrite of the
//! engine's config is what Codex's shell runs (Codex 0.171.0 honours `updatedInput` given
//! with `permissionDecision: "allow"`), and the context of SessionStart and
//! UserPromptSubmit hooks reaches the model's first request; and in a project Codex
//! trusts, the bridge installed into the project's `.codex/hooks.json` is called; and
//! Codex's own hooks moved into the engine by `--migrate` run once, through the bridge;
//! and an enabled plugin's hook, which the engine now discovers, runs once too: Codex runs
//! it, the bridge leaves it to Codex.

use super::bridge::{bridged_with, home_file, hooks};
use super::{Agent, AgentRun, GUARD_REASON, Step, guard, shell_then_done};

/// The `hooks/hooks.json` of the plugin `tool@acme`: a SessionStart hook appending the
/// plugin's root to `$RUN/plugin.log`.
const PLUGIN_HOOKS: &str = r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo \"$PLUGIN_ROOT\" >> LOG", "timeout": 30}]}]}}"#;

/// The engine's user config: a rewrite of `touch original` into `touch rewritten` (in
/// Claude Code's answer shape, which the native format reads), and two context hooks.
const REWRITE_AND_CONTEXT: &str = r#"hooks:
  - id: rename
    event: PreToolUse
    matcher: Bash
    if: "Bash(touch original)"
    command: |
      echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch rewritten"}}}'
  - id: build
    event: SessionStart
    command: "echo 'Context from SessionStart: the build uses make.'"
  - id: brief
    event: UserPromptSubmit
    command: "echo 'Context from UserPromptSubmit: be brief.'"
"#;

#[test]
fn codex_takes_the_engines_rewrite_and_context() {
    let (run, out) = bridged_with(Agent::Codex, "touch original", None, |run| {
        home_file(run, ".config/hooks/hooks.yaml", REWRITE_AND_CONTEXT);
    });
    out.assert_success();
    assert!(run.project().join("rewritten").exists(), "{out}");
    assert!(!run.project().join("original").exists(), "{out}");
    let first = out.turn(0).to_string();
    for context in [
        "Context from SessionStart: the build uses make.",
        "Context from UserPromptSubmit: be brief.",
    ] {
        assert!(first.contains(context), "{context:?} not in {first}");
    }
}

/// In a project Codex trusts (`[projects."<path>"] trust_level = "trusted"`), `hooks install
/// codex --scope project` writes the project's `.codex/hooks.json` with Codex's trust of
/// it in the user config, and Codex calls the bridge from there: the engine's guard
/// refuses `rm -r`. Uninstall gives `config.toml` back and removes the file.
#[test]
fn codex_calls_the_bridge_from_a_trusted_projects_layer() {
    let run = AgentRun::new(Agent::Codex, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    home_file(
        &run,
        ".config/hooks/hooks.yaml",
        &format!(
            "hooks:\n  - id: no-rm-r\n    event: PreToolUse\n    matcher: Bash\n    command: {}\n",
            guard(&run)
        ),
    );
    let config = run.codex_home().join("config.toml");
    let project = std::fs::canonicalize(run.project()).unwrap();
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
        project.display()
    ));
    std::fs::write(&config, &text).unwrap();
    hooks(&run, &["install", "codex", "--scope", "project"]);
    let project_file = run.project().join(".codex/hooks.json");
    assert!(project_file.exists());
    assert!(!run.codex_home().join("hooks.json").exists());
    let out = run.run();
    hooks(&run, &["uninstall", "codex", "--scope", "project"]);
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(out.tool_result().contains(GUARD_REASON), "{out}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
    assert!(!project_file.exists());
}

/// `hooks install codex --migrate`: a guard of Codex's own `hooks.json` moves into the
/// engine's config and runs once per call, through the bridge (its log has one line for
/// the one shell call), still refusing `rm -r` as in Codex; uninstall gives `hooks.json`
/// and `config.toml` back byte for byte.
#[test]
fn codex_hooks_migrated_into_the_engine_run_once_through_the_bridge() {
    let run = AgentRun::new(Agent::Codex, shell_then_done("rm -r victim"));
    run.write("victim/keep.txt", "precious");
    run.add_hook("PreToolUse", Some("Bash"), &guard(&run));
    let hooks_json = run.hooks_file();
    let config = run.codex_home().join("config.toml");
    let (json_before, config_before) = (
        std::fs::read_to_string(&hooks_json).unwrap(),
        std::fs::read_to_string(&config).unwrap(),
    );
    hooks(&run, &["install", "codex", "--migrate"]);
    let out = run.run();
    hooks(&run, &["uninstall", "codex"]);
    out.assert_success();
    assert!(
        run.project().join("victim/keep.txt").exists(),
        "rm -r ran:\n{out}"
    );
    assert!(out.tool_result().contains(GUARD_REASON), "{out}");
    let log = std::fs::read_to_string(run.root().join("guard.log")).unwrap();
    assert_eq!(
        log.lines().count(),
        1,
        "the guard ran other than once:\n{log}"
    );
    assert_eq!(std::fs::read_to_string(&hooks_json).unwrap(), json_before);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), config_before);
}

/// A plugin enabled in Codex's `config.toml` (`[plugins."tool@acme"]`), installed in its
/// cache, has a SessionStart hook: Codex runs it (trust bypassed for the plugin's hook),
/// and the bridge, which discovers the same file, leaves it to Codex: its log has one line,
/// while the engine's own SessionStart hook ran through the bridge.
#[test]
fn an_enabled_codex_plugins_hook_runs_once_with_the_bridge() {
    let mut run = AgentRun::new(Agent::Codex, vec![Step::Text("Finished.".to_owned())]);
    run.codex_bypass_hook_trust();
    // Enabling plugins makes Codex sync its curated plugin catalogue at start-up (git and
    // HTTPS to github.com and chatgpt.com): a proxy on a closed loopback port keeps every
    // connection on this machine, and the sync fails at once.
    for var in [
        "HTTPS_PROXY",
        "HTTP_PROXY",
        "ALL_PROXY",
        "https_proxy",
        "http_proxy",
        "all_proxy",
    ] {
        run.env(var, "http://127.0.0.1:9");
    }
    run.env("NO_PROXY", "127.0.0.1,localhost");
    run.env("no_proxy", "127.0.0.1,localhost");
    let root = run.codex_home().join("plugins/cache/acme/tool/1.0.0");
    let write = |rel: &str, text: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        ".codex-plugin/plugin.json",
        r#"{"name": "tool", "version": "1.0.0"}"#,
    );
    let log = run.root().join("plugin.log");
    write(
        "hooks/hooks.json",
        &PLUGIN_HOOKS.replace("LOG", &log.display().to_string()),
    );
    let config = run.codex_home().join("config.toml");
    // The harness switches Codex's plugins off; this run needs them.
    let mut text = std::fs::read_to_string(&config)
        .unwrap()
        .replace("plugins = false", "plugins = true");
    text.push_str("\n[plugins.\"tool@acme\"]\nenabled = true\n");
    std::fs::write(&config, text).unwrap();
    let engine_log = run.root().join("engine.log");
    home_file(
        &run,
        ".config/hooks/hooks.yaml",
        &format!(
            "hooks:\n  - id: start\n    event: SessionStart\n    command: echo engine >> {}\n",
            engine_log.display()
        ),
    );
    hooks(&run, &["install", "codex"]);
    let out = run.run();
    hooks(&run, &["uninstall", "codex"]);
    out.assert_success();
    let engine = std::fs::read_to_string(&engine_log)
        .unwrap_or_else(|e| panic!("the bridge was not called ({e}):\n{out}"));
    assert_eq!(engine.lines().count(), 1, "{engine}\n{out}");
    let plugin = std::fs::read_to_string(&log)
        .unwrap_or_else(|e| panic!("Codex did not run the plugin's hook ({e}):\n{out}"));
    assert_eq!(
        plugin.lines().count(),
        1,
        "the plugin's hook ran other than once:\n{plugin}\n{out}"
    );
    let canonical = std::fs::canonicalize(&root).unwrap();
    assert!(
        plugin
            .lines()
            .all(|l| l == root.display().to_string() || l == canonical.display().to_string()),
        "{plugin}"
    );
}
