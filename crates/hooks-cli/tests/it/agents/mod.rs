//! End-to-end runs of the real coding agents (Claude Code, Codex CLI, Gemini CLI, Cline, Qwen
//! Code, Factory Droid), from the
//! npm packages pinned in the workspace's `package.json`, offline: each run gets a temp
//! `HOME`, `TMPDIR` and (Codex) `CODEX_HOME`, a project directory, the agent's own config
//! pointing every base URL at a [`ModelServer`] on 127.0.0.1 that follows a script, and a
//! hard timeout that kills every process of the run. [`AgentRun`] is the harness;
//! `docs/testing-agents.md` says how it works and what to watch out for.
//!
//! ```text
//! let run = AgentRun::new(Agent::Claude, vec![
//!     Step::Shell("rm -r victim".into()),
//!     Step::Text("Done.".into()),
//! ]);
//! run.write("victim/keep.txt", "precious");
//! run.add_hook("PreToolUse", Some("Bash"), &guard(&run)); // or: run.hooks_command(&["install", "claude"])
//! let out = run.run();
//! out.assert_success();
//! assert!(run.project().join("victim/keep.txt").exists());
//! assert!(out.tool_result().contains(GUARD_REASON));
//! ```

mod bridge;
mod claude;
mod claude_bridge;
mod cline;
mod codex;
mod codex_bridge;
mod codex_trust;
mod copilot;
mod gemini;
mod gemini_bridge;
pub(crate) mod model_server;
mod opencode;
mod qwen_droid;

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

pub(crate) use model_server::{Api, ModelServer, Recorded, Step};

use crate::support::workspace_root;

/// The hard limit on one agent run; past it the run's processes are killed and the test
/// fails. A run takes a few seconds; an agent that lost its model server retries for
/// ever.
pub(crate) const RUN_TIMEOUT: Duration = Duration::from_secs(90);

/// The timeout, in seconds, given to each hook in the agent's own config.
const HOOK_TIMEOUT_SECS: u64 = 30;

/// One of the real agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agent {
    /// Claude Code (`@anthropic-ai/claude-code`), `claude -p`.
    Claude,
    /// Cline's CLI (`cline`), `cline --json PROMPT`.
    Cline,
    /// OpenAI Codex CLI (`@openai/codex`), `codex exec`.
    Codex,
    /// Gemini CLI (`@google/gemini-cli`), `gemini -p`.
    Gemini,
    /// Qwen Code (`@qwen-code/qwen-code`), `qwen --yolo PROMPT`.
    Qwen,
    /// Factory Droid (`@factory/cli`), `droid exec`.
    Droid,
    /// GitHub Copilot CLI (`@github/copilot`), `copilot -p`.
    Copilot,
    /// OpenCode (`opencode-ai`), `opencode run --format json`.
    Opencode,
}

impl Agent {
    /// The name of its binary in `node_modules/.bin`.
    pub(crate) fn bin_name(self) -> &'static str {
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

    /// The model API it speaks.
    pub(crate) fn api(self) -> Api {
        match self {
            Agent::Claude => Api::Anthropic,
            Agent::Cline | Agent::Qwen | Agent::Droid | Agent::Copilot | Agent::Opencode => {
                Api::ChatCompletions
            }
            Agent::Codex => Api::OpenAi,
            Agent::Gemini => Api::Gemini,
        }
    }

    /// The npm package it comes from.
    fn package(self) -> &'static str {
        match self {
            Agent::Claude => "@anthropic-ai/claude-code",
            Agent::Cline => "cline",
            Agent::Codex => "@openai/codex",
            Agent::Gemini => "@google/gemini-cli",
            Agent::Qwen => "@qwen-code/qwen-code",
            Agent::Droid => "@factory/cli",
            Agent::Copilot => "@github/copilot",
            Agent::Opencode => "opencode-ai",
        }
    }

    /// Its installed binary; a missing one fails the test, saying how to install it.
    pub(crate) fn bin(self) -> PathBuf {
        let bin = match self {
            // The platform package's binary itself: the launcher's is a placeholder until
            // its postinstall script has run.
            Agent::Opencode => {
                workspace_root().join("node_modules/opencode-linux-x64/bin/opencode")
            }
            _ => workspace_root()
                .join("node_modules/.bin")
                .join(self.bin_name()),
        };
        assert!(
            bin.exists(),
            "{} is not installed ({} is missing): run `cargo xtask peers` (`npm install` from the lock file) in \
             the workspace root to install the pinned test peers of package.json",
            self.package(),
            bin.display()
        );
        bin
    }
}

/// One prepared run of an agent: its directories, its config, the model server (already
/// listening) and the prompt. Change the config (directly, through [`AgentRun::add_hook`],
/// or by running `hooks install` with [`AgentRun::apply_env`]) before [`AgentRun::run`].
pub(crate) struct AgentRun {
    agent: Agent,
    dir: TempDir,
    server: ModelServer,
    prompt: String,
    env: Vec<(String, String)>,
    args: Vec<String>,
    timeout: Duration,
    cage: Option<crate::cage::Cage>,
}

/// What one run gave.
#[derive(Debug)]
pub(crate) struct AgentOutput {
    /// Which agent ran.
    pub(crate) agent: Agent,
    /// How it exited.
    pub(crate) status: ExitStatus,
    /// Its stdout (Claude: stream-json lines; Codex: JSONL events; Gemini: one JSON).
    pub(crate) stdout: String,
    /// Its stderr.
    pub(crate) stderr: String,
    /// Every request the model server received, in order.
    pub(crate) requests: Vec<Recorded>,
    /// How long the agent ran.
    pub(crate) elapsed: Duration,
}

impl AgentRun {
    /// A run of `agent` whose model answers by `script`: a temp directory with `home/`,
    /// `tmp/`, `codex-home/` and the project `project/`, the model server bound, and the
    /// agent's base config written (Codex's `config.toml` with the loopback provider,
    /// Gemini's user settings; Claude Code needs none).
    pub(crate) fn new(agent: Agent, script: Vec<Step>) -> AgentRun {
        let dir = tempfile::tempdir().expect("a temp dir for the agent run");
        for sub in ["home", "tmp", "codex-home", "project"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("creating the run's dirs");
        }
        let server = ModelServer::start(agent.api(), script);
        let run = AgentRun {
            agent,
            dir,
            server,
            prompt: "Do the task.".to_owned(),
            env: Vec::new(),
            args: Vec::new(),
            timeout: RUN_TIMEOUT,
            cage: None,
        };
        match agent {
            Agent::Claude => {}
            // Cline's provider settings, as `cline auth -p openai-compatible -b URL` writes
            // them: the loopback server as an OpenAI-compatible provider (without
            // `updatedAt` the entry is ignored and Cline calls its own service).
            Agent::Cline => write_json(
                &run.home().join(".cline/data/settings/providers.json"),
                &json!({"version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
                    "providers": {"openai-compatible": {"settings": {
                        "provider": "openai-compatible", "apiKey": "sk-test-key",
                        "model": "scripted", "baseUrl": run.server.base_url()},
                        "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}}}),
            ),
            Agent::Codex => run.write_file(
                &run.codex_home().join("config.toml"),
                &codex_config(&run.server.base_url()),
            ),
            Agent::Gemini => write_json(
                &run.home().join(".gemini/settings.json"),
                &json!({
                    "security": {"auth": {"selectedType": "gemini-api-key"}},
                    "privacy": {"usageStatisticsEnabled": false},
                    "telemetry": {"enabled": false},
                    "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
                }),
            ),
            // The loopback server as Qwen Code's OpenAI provider; telemetry, usage
            // statistics and update checks off.
            Agent::Qwen => write_json(
                &run.home().join(".qwen/settings.json"),
                &json!({
                    "security": {"auth": {"selectedType": "openai"}},
                    "privacy": {"usageStatisticsEnabled": false},
                    "telemetry": {"enabled": false},
                    "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
                }),
            ),
            // The loopback server as a custom model, addressed as `custom:Scripted-0`.
            Agent::Droid => write_json(
                &run.home().join(".factory/settings.json"),
                &json!({"customModels": [{"model": "scripted", "displayName": "Scripted",
                    "baseUrl": run.server.base_url(), "apiKey": "sk-test-key",
                    "provider": "generic-chat-completion-api", "maxOutputTokens": 4096}]}),
            ),
            // Copilot's home (`$COPILOT_HOME`), outside `HOME`, holds its user hooks.
            Agent::Copilot => {
                std::fs::create_dir_all(run.copilot_home()).expect("creating Copilot's home")
            }
            Agent::Opencode => opencode_config(&run),
        }
        run
    }

    /// The project directory the agent works in.
    pub(crate) fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// The temp `HOME`.
    pub(crate) fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The temp `CODEX_HOME` (set for every agent; only Codex reads it).
    pub(crate) fn codex_home(&self) -> PathBuf {
        self.dir.path().join("codex-home")
    }

    /// The temp `COPILOT_HOME` (set for every agent; only GitHub Copilot CLI reads it).
    pub(crate) fn copilot_home(&self) -> PathBuf {
        self.dir.path().join("copilot-home")
    }

    /// The run's temp directory (holding `home/`, `tmp/`, `codex-home/`, `project/`), a
    /// place for hook scripts and logs outside the project.
    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The config file that [`AgentRun::add_hook`] writes the agent's own hooks to:
    /// `.claude/settings.json` and `.gemini/settings.json` in the project, Codex's
    /// `$CODEX_HOME/hooks.json`; for Cline, its hooks directory `.clinerules/hooks/` in
    /// the project, where each hook is a file named after its event.
    pub(crate) fn hooks_file(&self) -> PathBuf {
        match self.agent {
            Agent::Claude => self.project().join(".claude/settings.json"),
            Agent::Cline => self.project().join(".clinerules/hooks"),
            Agent::Codex => self.codex_home().join("hooks.json"),
            Agent::Gemini => self.project().join(".gemini/settings.json"),
            Agent::Qwen => self.project().join(".qwen/settings.json"),
            Agent::Droid => self.project().join(".factory/settings.json"),
            Agent::Copilot => self.copilot_home().join("hooks/test.json"),
            // OpenCode's hooks are plugins, in its plugin directory.
            Agent::Opencode => self.project().join(".opencode/plugin"),
        }
    }

    /// Sets the prompt (default "Do the task.").
    pub(crate) fn prompt(&mut self, prompt: &str) -> &mut AgentRun {
        prompt.clone_into(&mut self.prompt);
        self
    }

    /// Adds an environment variable of the agent (and of what [`AgentRun::apply_env`]
    /// prepares).
    pub(crate) fn env(&mut self, key: &str, value: &str) -> &mut AgentRun {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Adds arguments to the agent's command line (before the prompt).
    pub(crate) fn arg(&mut self, arg: &str) -> &mut AgentRun {
        self.args.push(arg.to_owned());
        self
    }

    /// Lets Codex run hooks it has not trusted (`--dangerously-bypass-hook-trust`); Codex
    /// skips untrusted hooks silently otherwise.
    pub(crate) fn codex_bypass_hook_trust(&mut self) -> &mut AgentRun {
        assert_eq!(self.agent, Agent::Codex, "only Codex has hook trust");
        self.arg("--dangerously-bypass-hook-trust")
    }

    /// Runs the agent, and every process it starts, under a cap of `max` processes
    /// ([`Cage`](crate::cage::Cage)), for a run whose hooks could fork without bound (a
    /// bridge installed in several agents' files).
    pub(crate) fn caged(&mut self, max: u64) -> &mut AgentRun {
        self.cage = Some(crate::cage::Cage::new(max));
        self
    }

    /// How many forks the run's cap refused (`None`: no cap, or no cgroup to count in).
    pub(crate) fn refused_forks(&self) -> Option<u64> {
        self.cage.as_ref().and_then(crate::cage::Cage::refused)
    }

    /// Sets the hard timeout of the run (default [`RUN_TIMEOUT`]).
    pub(crate) fn timeout(&mut self, timeout: Duration) -> &mut AgentRun {
        self.timeout = timeout;
        self
    }

    /// Writes `text` to `rel` in the project (creating directories) and returns the path.
    pub(crate) fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.project().join(rel);
        self.write_file(&path, text);
        path
    }

    /// Writes an executable `sh` script `name` in the run's root (outside the project)
    /// and returns its path, for use as a hook command.
    pub(crate) fn script(&self, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.root().join(name);
        self.write_file(&path, &format!("#!/bin/sh\n{body}"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .expect("making the script executable");
        path
    }

    fn write_file(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("a file path has a parent"))
            .expect("creating the file's directory");
        std::fs::write(path, text).expect("writing a file of the run");
    }

    /// Adds one command hook to the agent's own config ([`AgentRun::hooks_file`]), in its
    /// own format: `event` is the agent's event name (`PreToolUse`, `BeforeTool`, ..),
    /// `matcher` its matcher (`None`: every tool), `command` a shell command line.
    /// Other keys of the file are kept.
    pub(crate) fn add_hook(&self, event: &str, matcher: Option<&str>, command: &str) {
        assert_ne!(
            self.agent,
            Agent::Opencode,
            "OpenCode's hooks are JavaScript plugins, not command hooks"
        );
        if self.agent == Agent::Cline {
            // A Cline hook is an executable file named after its event; it has no matcher.
            assert!(matcher.is_none(), "Cline's hooks have no matcher");
            use std::os::unix::fs::PermissionsExt;
            let path = self.hooks_file().join(event);
            self.write_file(&path, &format!("#!/bin/sh\n{command}\n"));
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .expect("making the hook file executable");
            return;
        }
        let path = self.hooks_file();
        let mut config: Value = std::fs::read_to_string(&path)
            .ok()
            .map(|text| serde_json::from_str(&text).expect("the agent's hooks file is JSON"))
            .unwrap_or_else(|| json!({}));
        let timeout = match self.agent {
            Agent::Claude
            | Agent::Cline
            | Agent::Codex
            | Agent::Qwen
            | Agent::Droid
            | Agent::Copilot
            | Agent::Opencode => HOOK_TIMEOUT_SECS,
            Agent::Gemini => HOOK_TIMEOUT_SECS * 1000,
        };
        let mut group =
            json!({"hooks": [{"type": "command", "command": command, "timeout": timeout}]});
        if let Some(matcher) = matcher {
            group["matcher"] = json!(matcher);
        }
        if self.agent == Agent::Gemini {
            config["hooksConfig"]["enabled"] = json!(true);
        }
        // Copilot reads Claude Code's form under PascalCase events, in a versioned file.
        if self.agent == Agent::Copilot {
            config["version"] = json!(1);
        }
        let groups = &mut config["hooks"][event];
        if !groups.is_array() {
            *groups = json!([]);
        }
        groups
            .as_array_mut()
            .expect("an array of matcher groups")
            .push(group);
        write_json(&path, &config);
    }

    /// Sets on `cmd` the environment the agent runs with (the temp `HOME`, `TMPDIR`,
    /// `CODEX_HOME`, XDG directories, the model server's base URL and key, telemetry and
    /// update checks off, and what [`AgentRun::env`] added), clearing everything else but
    /// `PATH` (with the directory of the `hooks` binary under test first, so a hook
    /// command can call `hooks` by name), and the project as its working directory.
    pub(crate) fn apply_env(&self, cmd: &mut Command) {
        let home = self.home();
        cmd.env_clear()
            .current_dir(self.project())
            .env("PATH", path_with_hooks())
            .env("HOME", &home)
            .env("TMPDIR", self.root().join("tmp"))
            .env("CODEX_HOME", self.codex_home())
            .env("COPILOT_HOME", self.copilot_home())
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("XDG_CACHE_HOME", home.join(".cache"))
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .env("SHELL", "/bin/bash")
            .env(RUN_MARK, self.mark())
            // Gemini CLI starts itself again in a child node process otherwise (a second
            // start-up, about a second).
            .env("GEMINI_CLI_NO_RELAUNCH", "true");
        match self.agent {
            Agent::Claude => {
                cmd.env("ANTHROPIC_BASE_URL", self.server.base_url())
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-key")
                    .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                    .env("DISABLE_AUTOUPDATER", "1")
                    .env("DISABLE_TELEMETRY", "1")
                    .env("DISABLE_ERROR_REPORTING", "1");
            }
            // Without it the CLI starts a background "hub" daemon that runs the session
            // (and its hooks) and outlives the run.
            Agent::Cline => {
                cmd.env("CLINE_SESSION_BACKEND_MODE", "local");
            }
            Agent::Codex => {}
            Agent::Gemini => {
                cmd.env("GEMINI_API_KEY", "gemini-test-key")
                    .env("GOOGLE_GEMINI_BASE_URL", self.server.base_url())
                    .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
                    .env("NO_BROWSER", "1");
            }
            Agent::Qwen => {
                let system = self.root().join("qwen-system");
                cmd.env("OPENAI_API_KEY", "sk-test-key")
                    .env("OPENAI_BASE_URL", self.server.base_url())
                    .env("OPENAI_MODEL", "scripted")
                    .env("QWEN_CODE_NO_RELAUNCH", "true")
                    .env("NO_BROWSER", "1")
                    // The system settings (`/etc/qwen-code`) of the machine are not read.
                    .env(
                        "QWEN_CODE_SYSTEM_SETTINGS_PATH",
                        system.join("settings.json"),
                    )
                    .env(
                        "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
                        system.join("system-defaults.json"),
                    );
            }
            // Droid's own service is the loopback server too (it answers 404, which Droid
            // tolerates).
            Agent::Droid => {
                let origin = self.server.base_url().trim_end_matches("/v1").to_owned();
                cmd.env("FACTORY_API_KEY", "fk-test-key")
                    .env("FACTORY_API_BASE_URL", &origin)
                    .env("FACTORY_TELEMETRY_INGEST_BASE_URL", &origin)
                    .env("FACTORY_DROID_AUTO_UPDATE_ENABLED", "false")
                    .env("FACTORY_DISABLE_KEYRING", "1");
            }
            // Offline: the loopback server as a BYOK OpenAI provider, no GitHub sign-in,
            // telemetry or update check.
            Agent::Copilot => {
                cmd.env("COPILOT_OFFLINE", "true")
                    .env("COPILOT_PROVIDER_BASE_URL", self.server.base_url())
                    .env("COPILOT_PROVIDER_TYPE", "openai")
                    .env("COPILOT_PROVIDER_API_KEY", "sk-test-key")
                    .env("COPILOT_MODEL", "scripted")
                    .env("COPILOT_AUTO_UPDATE", "false");
            }
            // No models.dev fetch, update check, sharing, LSP download or built-in plugin.
            Agent::Opencode => {
                for name in [
                    "OPENCODE_DISABLE_MODELS_FETCH",
                    "OPENCODE_DISABLE_AUTOUPDATE",
                    "OPENCODE_DISABLE_SHARE",
                    "OPENCODE_DISABLE_LSP_DOWNLOAD",
                    "OPENCODE_DISABLE_DEFAULT_PLUGINS",
                ] {
                    cmd.env(name, "1");
                }
            }
        }
        for (key, value) in &self.env {
            cmd.env(key, value);
        }
    }

    /// The `hooks` binary under test with `args`, in the project and with the agent's
    /// environment ([`AgentRun::apply_env`]): `hooks install AGENT` run through it writes
    /// into this run's `HOME`, `CODEX_HOME` and project.
    pub(crate) fn hooks_command(&self, args: &[&str]) -> Command {
        // The test starts the binary under test, as a real child process.
        #[allow(clippy::disallowed_methods)]
        let mut cmd = Command::new(hooks_bin());
        cmd.args(args);
        self.apply_env(&mut cmd);
        cmd
    }

    /// The value of [`RUN_MARK`] in this run's processes.
    fn mark(&self) -> String {
        self.root().display().to_string()
    }

    /// The agent's command line: the binary, the headless flags, [`AgentRun::arg`]s and
    /// the prompt.
    fn command(&self) -> Command {
        // The test starts the real agent, as a real child process.
        #[allow(clippy::disallowed_methods)]
        let mut cmd = match &self.cage {
            Some(cage) => cage.command(&self.agent.bin(), &[]),
            None => Command::new(self.agent.bin()),
        };
        match self.agent {
            Agent::Claude => {
                cmd.args(["--output-format", "stream-json", "--verbose"])
                    .args(["--allowedTools", "Bash"]);
            }
            Agent::Cline => {
                cmd.arg("--json");
            }
            Agent::Codex => {
                cmd.args(["exec", "--skip-git-repo-check", "--json", "-C"])
                    .arg(self.project());
            }
            Agent::Gemini => {
                cmd.args(["--yolo", "-o", "json"]);
            }
            Agent::Qwen => {
                cmd.args(["--yolo", "-o", "json", "--auth-type", "openai"]);
            }
            Agent::Droid => {
                cmd.args(["exec", "--skip-permissions-unsafe", "-o", "json"])
                    .args(["-m", "custom:Scripted-0"]);
            }
            Agent::Copilot => {
                cmd.args(["--allow-all-tools", "--no-auto-update"]).args([
                    "--disable-client-telemetry",
                    "--output-format",
                    "json",
                ]);
            }
            Agent::Opencode => {
                cmd.args(["run", "--format", "json"]);
            }
        }
        cmd.args(&self.args);
        match self.agent {
            Agent::Claude | Agent::Gemini | Agent::Copilot => cmd.arg("-p").arg(&self.prompt),
            // Cline's `-p` is its plan mode, Qwen Code's is deprecated: the prompt is the
            // argument.
            Agent::Cline | Agent::Codex | Agent::Qwen | Agent::Droid | Agent::Opencode => {
                cmd.arg(&self.prompt)
            }
        };
        self.apply_env(&mut cmd);
        cmd
    }

    /// Runs the agent to its end; a run that hits the timeout fails the test with
    /// everything it gave so far.
    pub(crate) fn run(&self) -> AgentOutput {
        self.try_run().unwrap_or_else(|TimedOut(out)| {
            panic!(
                "{:?} did not finish within {:?}; its processes were killed.\n{out}",
                self.agent, self.timeout
            )
        })
    }

    /// Runs the agent to its end, or past the timeout kills it and returns
    /// [`TimedOut`]. Then, after a normal exit too, every process of the run is killed
    /// (its process group, and every process with the run's [`RUN_MARK`] in its
    /// environment: agents start hooks in groups of their own), and the run returns only
    /// once none is left, so nothing the agent started (a hook, a shell command) outlives
    /// the run.
    pub(crate) fn try_run(&self) -> Result<AgentOutput, TimedOut> {
        let mut cmd = self.command();
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let started = Instant::now();
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", self.agent.bin().display()));
        let pid = rustix::process::Pid::from_child(&child);
        let stdout = read_in_thread(child.stdout.take().expect("piped stdout"));
        let stderr = read_in_thread(child.stderr.take().expect("piped stderr"));
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait());
        });
        let waited = rx.recv_timeout(self.timeout);
        let elapsed = started.elapsed();
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        let (status, timed_out) = match waited {
            Ok(status) => (status.expect("waiting for the agent"), false),
            Err(_) => (
                rx.recv_timeout(GROUP_END)
                    .expect("the agent ends after SIGKILL")
                    .expect("waiting for the agent"),
                true,
            ),
        };
        let left = end_run(pid.as_raw_nonzero().get(), &self.mark());
        assert!(
            left.is_empty(),
            "processes {left:?} of {:?}'s run survived SIGKILL",
            self.agent
        );
        let out = AgentOutput {
            agent: self.agent,
            status,
            stdout: collect(&stdout),
            stderr: collect(&stderr),
            requests: self.server.requests(),
            elapsed,
        };
        if timed_out {
            Err(TimedOut(out))
        } else {
            Ok(out)
        }
    }
}

/// A run that hit its timeout: what it gave until its processes were killed.
#[derive(Debug)]
pub(crate) struct TimedOut(pub(crate) AgentOutput);

/// How long the processes of a killed run may take to be gone.
const GROUP_END: Duration = Duration::from_secs(10);

/// The environment variable that marks every process of a run (its value is the run's
/// temp directory): Claude Code and Codex start each hook in a process group of its own,
/// which the kill of the agent's group does not reach.
const RUN_MARK: &str = "HOOKS_E2E_RUN";

/// Kills, with SIGKILL, every live process of process group `pgid` or carrying `mark` in
/// its environment, until none is left or [`GROUP_END`] has passed; returns the pids still
/// alive then (a zombie counts as ended).
fn end_run(pgid: i32, mark: &str) -> Vec<i32> {
    let deadline = Instant::now() + GROUP_END;
    let marked = format!("{RUN_MARK}={mark}");
    loop {
        let alive = run_members(pgid, marked.as_bytes());
        if alive.is_empty() || Instant::now() >= deadline {
            return alive;
        }
        for &pid in &alive {
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The live (not zombie) processes in group `pgid` or whose environment holds `marked`.
fn run_members(pgid: i32, marked: &[u8]) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            let Some((state, group)) = proc_stat(pid) else {
                return false;
            };
            let in_run = group == pgid
                || std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == marked));
            in_run && state != 'Z' && state != 'X'
        })
        .collect()
}

/// The state letter and process group of `pid`, from `/proc/PID/stat`.
fn proc_stat(pid: i32) -> Option<(char, i32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
    let mut fields = text[text.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let _ppid = fields.next()?;
    let group = fields.next()?.parse().ok()?;
    Some((state, group))
}

/// The `hooks` binary under test.
pub(crate) fn hooks_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("hooks")
}

/// `PATH` with the directory of the `hooks` binary under test first.
fn path_with_hooks() -> std::ffi::OsString {
    let bin = hooks_bin();
    let dir = bin.parent().expect("the binary is in a directory");
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&rest)))
        .expect("PATH entries without separators")
}

/// Reads `pipe` to its end in a thread; the text arrives on the receiver.
fn read_in_thread(mut pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    rx
}

/// What a reader thread read, waiting at most 10 s (a process outside the killed group
/// could hold the pipe open).
fn collect(rx: &mpsc::Receiver<String>) -> String {
    rx.recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| "(output still open after the run)".to_owned())
}

/// One line per request: method and target.
fn summary(requests: &[Recorded]) -> String {
    requests
        .iter()
        .map(|r| format!("  {} {}\n", r.request.method, r.request.target))
        .collect()
}

fn write_json(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().expect("a file path has a parent"))
        .expect("creating the file's directory");
    let text = serde_json::to_string_pretty(value).expect("JSON serialises");
    std::fs::write(path, text + "\n").expect("writing a JSON file of the run");
}

/// OpenCode's config for a run: the project's `opencode.json` with the model server as an
/// OpenAI-compatible provider (bundled in OpenCode: nothing fetched), and its config
/// directories (the project's `.opencode/`, the user's `$XDG_CONFIG_HOME/opencode/`)
/// seeded with the dependency OpenCode installs into each (`@opencode-ai/plugin`) as
/// already installed, which it otherwise fetches from npm before the first step.
fn opencode_config(run: &AgentRun) {
    write_json(
        &run.project().join("opencode.json"),
        &json!({"$schema": "https://opencode.ai/config.json", "autoupdate": false,
            "share": "disabled",
            "provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                "options": {"baseURL": run.server.base_url(), "apiKey": "sk-test-key"},
                "models": {"m1": {"name": "Scripted m1", "tool_call": true}}}},
            "model": "scripted/m1", "small_model": "scripted/m1"}),
    );
    let dependency = json!({"@opencode-ai/plugin": "1.18.33"});
    for dir in [
        run.project().join(".opencode"),
        run.home().join(".config/opencode"),
    ] {
        std::fs::create_dir_all(dir.join("node_modules")).expect("creating node_modules");
        write_json(
            &dir.join("package.json"),
            &json!({"dependencies": dependency}),
        );
        write_json(
            &dir.join("package-lock.json"),
            &json!({"lockfileVersion": 3, "packages": {"": {"dependencies": dependency}}}),
        );
    }
}

/// Codex's `config.toml`: the loopback provider, no retries, no approvals or sandbox, no
/// update check, analytics or plugin fetch.
fn codex_config(base_url: &str) -> String {
    format!(
        r#"model = "gpt-5.5"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.fake]
name = "Scripted model server"
base_url = "{base_url}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false
"#
    )
}

impl AgentOutput {
    /// Fails the test, with everything the run gave, unless the agent exited 0.
    pub(crate) fn assert_success(&self) {
        assert!(
            self.status.success(),
            "{:?} failed ({}):\n{self}",
            self.agent,
            self.status
        );
    }

    /// The bodies of the conversation turns the model answered from its script, in order.
    pub(crate) fn turns(&self) -> Vec<&Value> {
        self.requests
            .iter()
            .filter(|r| r.turn)
            .map(|r| &r.body)
            .collect()
    }

    /// Turn `n` (from 0), failing the test with the run's output when there is none.
    pub(crate) fn turn(&self, n: usize) -> &Value {
        self.turns()
            .get(n)
            .copied()
            .unwrap_or_else(|| panic!("{:?} made no model turn {n}:\n{self}", self.agent))
    }

    /// The model turn that carries the result of the first tool call: the texts of that
    /// result (Claude `tool_result` content, Codex `function_call_output` output, Gemini
    /// `functionResponse.response`), as one string.
    pub(crate) fn tool_result(&self) -> String {
        let turn = self.turn(1);
        let mut texts = Vec::new();
        match self.agent {
            Agent::Claude => find(
                turn,
                &|m| m.get("type") == Some(&json!("tool_result")),
                &mut texts,
            ),
            Agent::Codex => find(
                turn,
                &|m| {
                    m.get("type")
                        .and_then(Value::as_str)
                        .is_some_and(|t| t.ends_with("call_output"))
                },
                &mut texts,
            ),
            Agent::Gemini => find(turn, &|m| m.contains_key("functionResponse"), &mut texts),
            Agent::Cline | Agent::Qwen | Agent::Droid | Agent::Copilot | Agent::Opencode => {
                find(turn, &|m| m.get("role") == Some(&json!("tool")), &mut texts);
            }
        }
        assert!(
            !texts.is_empty(),
            "{:?}'s turn 1 has no tool result:\n{turn:#}",
            self.agent
        );
        texts.join("\n")
    }
}

/// Pushes, for every object under `value` for which `is` holds, all its string leaves.
fn find(
    value: &Value,
    is: &dyn Fn(&serde_json::Map<String, Value>) -> bool,
    out: &mut Vec<String>,
) {
    match value {
        Value::Object(map) if is(map) => strings(value, out),
        Value::Object(map) => map.values().for_each(|v| find(v, is, out)),
        Value::Array(items) => items.iter().for_each(|v| find(v, is, out)),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

impl std::fmt::Display for AgentOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "status: {} after {:?}", self.status, self.elapsed)?;
        writeln!(f, "stdout:\n{}", self.stdout)?;
        writeln!(f, "stderr:\n{}", self.stderr)?;
        writeln!(f, "requests:\n{}", summary(&self.requests))
    }
}

/// The script of one tool call of `command`, then a final text.
pub(crate) fn shell_then_done(command: &str) -> Vec<Step> {
    vec![
        Step::Shell(command.to_owned()),
        Step::Text("Finished.".to_owned()),
    ]
}

/// A guard hook for every agent: refuses any tool input holding `rm -r` (exit 2, the
/// reason on stderr), lets everything else through, and logs each call's stdin to
/// `guard.log` in the run's root.
pub(crate) fn guard(run: &AgentRun) -> String {
    let log = run.root().join("guard.log");
    run.script(
        "guard.sh",
        &format!(
            "input=$(cat)\nprintf '%s\\n' \"$input\" >> '{}'\ncase \"$input\" in\n  *'rm -r'*) echo \"{GUARD_REASON}\" >&2; exit 2;;\nesac\nexit 0\n",
            log.display()
        ),
    )
    .display()
    .to_string()
}

/// The reason the [`guard`] gives.
pub(crate) const GUARD_REASON: &str = "guard: recursive delete refused by policy";

/// The harness's bound, for `agent`: a run past its timeout ends with every process it
/// started killed, here an `event` hook that would sleep for five minutes, which Claude
/// Code and Codex start in a process group of its own. (Gemini CLI runs its hooks in its
/// own process group, which the kill of the group covers; its start-up, several seconds on a
/// loaded machine, would make the test slow.)
pub(crate) fn assert_a_hung_hook_is_killed(agent: Agent, event: &str) {
    let mut run = AgentRun::new(agent, vec![Step::Text("Hello.".to_owned())]);
    let pid_file = run.root().join("hook.pid");
    // Long enough for the agent to start and call the hook on a loaded machine (it takes
    // under a second alone), short enough to keep the test fast.
    let timeout = Duration::from_secs(8);
    run.env("HOOK_PID_FILE", &pid_file.display().to_string())
        .timeout(timeout);
    if agent == Agent::Codex {
        run.codex_bypass_hook_trust();
    }
    run.add_hook(
        event,
        None,
        r#"echo $$ > "$HOOK_PID_FILE.tmp"; mv "$HOOK_PID_FILE.tmp" "$HOOK_PID_FILE"; exec sleep 300"#,
    );
    let TimedOut(out) = run.try_run().expect_err("the run should time out");
    assert!(out.elapsed < timeout + Duration::from_secs(5), "{out}");
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap_or_else(|e| panic!("the hook did not start ({e}):\n{out}"))
        .trim()
        .parse()
        .unwrap();
    assert!(
        proc_stat(pid).is_none_or(|(state, _)| state == 'Z'),
        "the hook's process {pid} outlived the run"
    );
}
