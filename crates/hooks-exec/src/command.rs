//! The command executor: runs a hook's script or argv in its own process group, feeds it
//! the event JSON, captures capped output, and kills every process it started on timeout
//! or cancellation.

use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use hooks_core::{
    Action, CommandAction, CommandLine, Dialect, EventContext, FailureKind, HookOutcome, HookSpec,
    HookStatus, Shell, parse_output_in, takes_env_file,
};
use rustix::process::Signal;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin};

use crate::budget;
use crate::channel::{Channel, Offer, PROMPT_SOCKET_ENV, Serving};
use crate::executor::{Executor, HookRun};
use crate::reap::{self, RunProcesses};
use crate::sandbox::{BubblewrapSandbox, Sandbox, SandboxCommand};
use crate::spawn::{SpawnRequest, describe_spawn_error, spawn};

/// The default cap on captured stdout and on captured stderr: 1 MiB each.
pub const DEFAULT_OUTPUT_CAP: usize = 1024 * 1024;

/// The default time between SIGTERM and SIGKILL.
pub const DEFAULT_KILL_GRACE: Duration = Duration::from_millis(500);

/// The default time a hook's output may stay open after its main process exited.
pub const DEFAULT_ORPHAN_GRACE: Duration = Duration::from_secs(1);

/// Runs command hooks.
///
/// - **What runs**: a script as `sh -c SCRIPT` (`bash -c` for Fabro hooks, whose scripts
///   are Bash), an argv exec'd directly, never joined into a shell string. A sandboxed
///   hook's argv is wrapped by the [`Sandbox`] first.
/// - **Environment**: the engine's own, plus the dialect's variables
///   ([`hooks_core::env_vars`]: `HOOK_*`, `FABRO_*`, ...; one the kernel cannot take, over
///   128 KiB or holding a NUL byte, is left out and named in `HOOKS_OMITTED_ENV`), plus
///   the dialect's project-root variables ([`hooks_core::project_dir_vars`]:
///   `CLAUDE_PROJECT_DIR` for Claude Code, echo-agent and native hooks, with
///   `CURSOR_PROJECT_DIR` for Cursor's) (the event's
///   `project_dir`, else the executor's project root: see
///   [`CommandExecutorBuilder::project_dir`]), plus `CLAUDE_ENV_FILE` for Claude Code and
///   native hooks on SessionStart, Setup, CwdChanged and FileChanged
///   ([`hooks_core::takes_env_file`]; not sandboxed: a new empty file of the hook's own,
///   whose `export NAME=value` lines become the outcome's `env` once the hook answered,
///   removed after), plus `FABRO_HOOK_CONTEXT` for a sandboxed Fabro hook (the path of a
///   JSON file holding the event context, mounted read-only in the sandbox and removed
///   once the hook is over), plus the hook's own `env` (later wins), plus
///   `HOOKS_PROMPT_SOCKET` when the dispatcher has a prompt evaluator and the hook is not
///   sandboxed (see below).
/// - **Working directory**: the hook's `cwd` (relative to the event's `cwd`), else the
///   event's `cwd` if it is an existing directory, else the engine's.
/// - **Input**: the event JSON for the hook's dialect on stdin, followed by a newline,
///   written concurrently with reading stdout and stderr, so a hook that never reads its
///   stdin cannot stall the run whatever the payload size (a closed pipe is fine).
/// - **Output**: stdout and stderr are each kept up to a cap (1 MiB by default); the rest
///   is read and dropped, and the outcome's truncation flag is set.
/// - **Starting**: at most a process-wide number of command hooks run at once, sized from
///   the descriptor limit (`(soft RLIMIT_NOFILE - a reserve) / 8`, at least 1) and shared
///   by every dispatcher and executor of the process; the others wait for a slot. A spawn
///   that fails for lack of descriptors or processes (`EMFILE`, `ENFILE`, `EAGAIN`) waits
///   for another hook to end and tries again, for up to the hook's timeout, before it is
///   a spawn failure; the timeout itself starts once the hook runs.
/// - **Ending**: the hook leads its own process group, and everything it starts carries
///   the run's mark (`HOOKS_RUN`) in its environment. On timeout or cancellation the
///   group, every marked process and every descendant of those (found on `/proc`,
///   whatever group or session they moved to) get SIGTERM, then SIGKILL after a grace
///   period; the failure message says how many were killed and names, by pid, any that
///   survived. If the hook's main process exits but something it started keeps stdout or
///   stderr open, the engine waits a short grace period (1 s by default), then ends those
///   processes the same way and uses the exit status it has. A hook that exits with its
///   output closed costs no look at the process table; what it left running in the
///   background with its output closed is left alone.
/// - **Answer**: [`hooks_core::parse_output_in`] for the hook's dialect. A hook that cannot be started (missing
///   program or interpreter, not executable, bad `#!` line, missing working directory) is
///   a [`FailureKind::Spawn`]; so is a script the shell could not run (exit 126 or 127).
/// - **Asking the host's model**: run by a [`crate::Dispatcher`] that has a
///   [`PromptEvaluator`](crate::PromptEvaluator), a hook that is not sandboxed gets a
///   private channel to it for this run only: a Unix socket of its own, named in
///   `HOOKS_PROMPT_SOCKET`, served while the run lasts and removed when it ends, however it
///   ends, in a directory the dispatcher makes fresh on its first channel (mode 0700, in
///   the temporary directory, so no other user can reach it) and removes when it is
///   dropped. A hook asks with `hooks builtin ask` (or [`crate::ask_prompt_channel`]);
///   the evaluator gets the question as a
///   [`PromptMode::Answer`](hooks_core::PromptMode::Answer) request.
///   Questions are served one at a time, each of at most
///   [`MAX_QUESTION_BYTES`](crate::MAX_QUESTION_BYTES), at most
///   [`MAX_QUESTIONS_PER_RUN`](crate::MAX_QUESTIONS_PER_RUN) per run, each bounded by
///   what is left of the hook's timeout and by cancellation; the hook's secrets are masked
///   in the question before the evaluator sees it and in the answer. A sandboxed hook gets
///   no channel (it would be a way out of the sandbox), nor does any hook without an
///   evaluator: then the run costs nothing extra.
#[derive(Clone, Debug)]
pub struct CommandExecutor {
    config: Arc<Config>,
}

#[derive(Clone, Debug)]
struct Config {
    stdout_cap: usize,
    stderr_cap: usize,
    kill_grace: Duration,
    orphan_grace: Duration,
    sandbox: Arc<dyn Sandbox>,
    sandbox_network: bool,
    sandbox_by_default: Vec<Dialect>,
    shells: Vec<(Dialect, String)>,
    env_file_dir: Option<PathBuf>,
    /// `CLAUDE_PROJECT_DIR` for hooks whose event names none: the project root given, else
    /// the working directory when the executor was built.
    project_dir: Option<String>,
}

/// The shell of a script whose hook and dialect name none: `/bin/sh`, as Claude Code and
/// Gemini CLI run theirs (Node's `shell: true`), where it exists; else `sh` found on
/// `PATH`. Named outright, the spawn skips the search of `PATH` (a failed `exec` per
/// folder before the one that holds `sh`).
fn default_shell() -> &'static str {
    static SHELL: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();
    SHELL.get_or_init(|| {
        if cfg!(unix) && Path::new("/bin/sh").is_file() {
            "/bin/sh"
        } else {
            "sh"
        }
    })
}

impl Default for CommandExecutor {
    fn default() -> CommandExecutor {
        CommandExecutor::builder().build()
    }
}

impl CommandExecutor {
    /// A builder with the defaults.
    pub fn builder() -> CommandExecutorBuilder {
        CommandExecutorBuilder {
            config: Config {
                stdout_cap: DEFAULT_OUTPUT_CAP,
                stderr_cap: DEFAULT_OUTPUT_CAP,
                kill_grace: DEFAULT_KILL_GRACE,
                orphan_grace: DEFAULT_ORPHAN_GRACE,
                sandbox: Arc::new(BubblewrapSandbox::default()),
                sandbox_network: false,
                sandbox_by_default: Dialect::ALL
                    .into_iter()
                    .filter(|d| d.sandboxed_by_default())
                    .collect(),
                shells: Dialect::ALL
                    .into_iter()
                    .filter_map(|d| Some((d, d.profile().shell?.to_owned())))
                    .collect(),
                env_file_dir: None,
                project_dir: None,
            },
        }
    }

    /// The same executor with `dir` as the project root its hooks get as
    /// `CLAUDE_PROJECT_DIR` (see [`CommandExecutorBuilder::project_dir`]).
    #[must_use]
    pub fn with_project_dir(&self, dir: &Path) -> CommandExecutor {
        let mut config = Config::clone(&self.config);
        config.project_dir = Some(dir.to_string_lossy().into_owned());
        CommandExecutor {
            config: Arc::new(config),
        }
    }

    /// Whether `spec` runs in the sandbox: its own `sandbox` setting, else its dialect's
    /// default (Fabro hooks are sandboxed, as in Fabro; others are not).
    pub fn is_sandboxed(&self, spec: &HookSpec) -> bool {
        match &spec.action {
            Action::Command(c) => c
                .sandbox
                .unwrap_or_else(|| self.config.sandbox_by_default.contains(&spec.dialect)),
            _ => false,
        }
    }

    /// The session's env file, when an env-file directory is configured:
    /// `<dir>/<session_id>.env` (`session.env` without a session id). Each hook gets a
    /// `CLAUDE_ENV_FILE` of its own; once a hook that answered is over, what it wrote there
    /// is appended to this file, so the host can source the session's `export` lines.
    pub fn env_file_for(&self, session_id: Option<&str>) -> Option<PathBuf> {
        let dir = self.config.env_file_dir.as_ref()?;
        let name: String = session_id
            .unwrap_or("session")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Some(dir.join(format!("{name}.env")))
    }

    /// The argv, working directory, environment and stdin of one run.
    fn prepare(&self, run: &HookRun<'_>, action: &CommandAction) -> Result<Prepared, String> {
        let spec = run.spec;
        let mut argv = match &action.command {
            CommandLine::Script(script) => match action.shell {
                Some(Shell::Bash) => vec!["bash".to_owned(), "-c".to_owned(), script.clone()],
                Some(Shell::Powershell) => vec![
                    powershell().to_owned(),
                    "-NoProfile".to_owned(),
                    "-NonInteractive".to_owned(),
                    "-Command".to_owned(),
                    script.clone(),
                ],
                None => {
                    let shell = self
                        .config
                        .shells
                        .iter()
                        .find(|(d, _)| *d == spec.dialect)
                        .map_or_else(|| default_shell(), |(_, s)| s.as_str());
                    vec![shell.to_owned(), "-c".to_owned(), script.clone()]
                }
            },
            CommandLine::Argv(argv) if argv.is_empty() => {
                return Err("the hook's argv is empty".to_owned());
            }
            CommandLine::Argv(argv) => argv.clone(),
        };
        let ctx_dir = run.ctx.working_dir().map(Path::new).filter(|d| d.is_dir());
        let mut cwd = match &action.cwd {
            Some(dir) if dir.is_relative() => Some(match ctx_dir {
                Some(base) => base.join(dir),
                None => dir.clone(),
            }),
            Some(dir) => Some(dir.clone()),
            None => ctx_dir.map(Path::to_path_buf),
        };
        let filled = if spec.dialect.profile().fills_session_and_cwd {
            autohand_defaults(run.ctx)
        } else {
            None
        };
        let ctx = filled.as_ref().unwrap_or(run.ctx);
        let mut stdin = serde_json::to_vec(&ctx.input_for(spec))
            .map_err(|e| format!("cannot encode the event as JSON: {e}"))?;
        let mut context_file = None;
        let sandboxed = self.is_sandboxed(spec);
        if sandboxed {
            let dir = match cwd.take() {
                Some(dir) => dir,
                None => std::env::current_dir()
                    .map_err(|e| format!("cannot sandbox the hook: no working directory: {e}"))?,
            };
            // Fabro gives a sandboxed hook its context as a file (`FABRO_HOOK_CONTEXT`).
            if spec.dialect.profile().sandbox_context_file {
                context_file = Some(
                    RunFile::write("fabro-hook-context", ".json", &stdin)
                        .map_err(|e| format!("cannot write the hook's context file: {e}"))?,
                );
            }
            let files: Vec<PathBuf> = context_file.iter().map(|f| f.0.clone()).collect();
            argv = self
                .config
                .sandbox
                .wrap(
                    &SandboxCommand::new(&argv, &dir, self.config.sandbox_network)
                        .with_read_only(&files),
                )
                .map_err(|e| e.to_string())?;
            cwd = Some(dir);
        }

        let mut env = fit_env(hooks_core::env_vars(ctx, spec.dialect));
        if let Some(dir) = &self.config.project_dir
            && ctx
                .get("project_dir")
                .is_none_or(serde_json::Value::is_null)
        {
            for name in hooks_core::project_dir_vars(spec.dialect) {
                env.push(((*name).to_owned(), dir.clone()));
            }
        }
        // A sandboxed hook may write only in its working directory, so it gets no env file.
        let env_file = if takes_env_file(spec.dialect, run.ctx.event()) && !self.is_sandboxed(spec)
        {
            let file = RunFile::write("hooks-env", ".sh", b"")
                .map_err(|e| format!("cannot create the hook's CLAUDE_ENV_FILE: {e}"))?;
            env.push((
                "CLAUDE_ENV_FILE".to_owned(),
                file.0.to_string_lossy().into_owned(),
            ));
            Some(file)
        } else {
            None
        };
        if let Some(file) = &context_file {
            env.push((
                "FABRO_HOOK_CONTEXT".to_owned(),
                file.0.to_string_lossy().into_owned(),
            ));
        }
        env.extend(action.env.iter().cloned());

        stdin.push(b'\n');
        let is_script = matches!(action.command, CommandLine::Script(_));
        Ok(Prepared {
            argv,
            cwd,
            env,
            stdin,
            is_script,
            _context_file: context_file,
            sandboxed,
            env_file,
        })
    }

    /// Runs the hook, offering it a prompt channel when `offer` is given (see the type's
    /// documentation).
    pub(crate) async fn execute_offered(
        &self,
        run: HookRun<'_>,
        offer: Option<Offer<'_>>,
    ) -> HookOutcome {
        let Action::Command(action) = &run.spec.action else {
            return HookOutcome::failed(
                FailureKind::Spawn,
                format!(
                    "the command executor cannot run a `{}` hook",
                    run.spec.action.type_name()
                ),
            );
        };
        match self.prepare(&run, action) {
            Ok(prepared) => self.run_process(&run, prepared, offer).await,
            Err(message) => HookOutcome::failed(FailureKind::Spawn, message),
        }
    }

    async fn run_process(
        &self,
        run: &HookRun<'_>,
        mut prepared: Prepared,
        offer: Option<Offer<'_>>,
    ) -> HookOutcome {
        let mark = reap::next_mark();
        // A slot of the process-wide budget, held until the hook's processes and pipes
        // are gone, so events in flight cannot exhaust the descriptors between them.
        let _slot = tokio::select! {
            slot = budget::budget().slot() => slot,
            () = run.cancel.cancelled() => return cancelled_before_start(),
        };
        // The prompt channel, opened once the slot is held (its descriptors count in it).
        let channel = match offer {
            Some(offer) if !prepared.sandboxed => match Channel::open(offer.home) {
                Ok(channel) => {
                    prepared.env.push((
                        PROMPT_SOCKET_ENV.to_owned(),
                        channel.path().to_string_lossy().into_owned(),
                    ));
                    Some((channel, offer))
                }
                Err(err) => {
                    // The hook runs without it, as it would without an evaluator.
                    tracing::debug!(%err, "could not open a prompt channel for a hook");
                    None
                }
            },
            Some(_) | None => None,
        };
        let request = SpawnRequest {
            argv: &prepared.argv,
            cwd: prepared.cwd.as_deref(),
            env: &prepared.env,
            mark: &mark,
        };
        let mut child = match start(run, &request).await {
            Ok(child) => child,
            Err(outcome) => return outcome,
        };
        let mut guard = RunGuard {
            procs: RunProcesses::new(mark, child.id()),
            armed: true,
        };
        let stdin = child.stdin.take();
        // The engine's ends of the output pipes stay open until the run is over, so that
        // the processes holding their other ends can be found by them when it is ended.
        let mut stdout = child.stdout.take();
        let mut stderr = child.stderr.take();
        guard.procs.set_pipes(
            [
                stdout.as_ref().map(AsRawFd::as_raw_fd),
                stderr.as_ref().map(AsRawFd::as_raw_fd),
            ]
            .into_iter()
            .flatten()
            .collect(),
        );
        let cfg = &self.config;

        let mut feed = pin!(write_stdin(stdin, &prepared.stdin));
        // What was read so far stays readable when reading stops before the end (a process
        // the engine cannot end holds the pipe), so the hook's answer is not lost.
        let kept_out = Mutex::new(Captured::default());
        let kept_err = Mutex::new(Captured::default());
        let mut pipes = pin!(async {
            tokio::join!(
                read_capped(stdout.as_mut(), cfg.stdout_cap, &kept_out),
                read_capped(stderr.as_mut(), cfg.stderr_cap, &kept_err)
            )
        });
        let deadline = tokio::time::Instant::now() + run.timeout;
        let mut timer = pin!(tokio::time::sleep_until(deadline));
        // The prompt channel, served while the run lasts; dropping it removes it.
        let mut serve: Option<Serving<'_>> =
            channel.map(|(channel, offer)| channel.serve(offer, run.ctx, deadline, run.cancel));

        let mut status: Option<io::Result<ExitStatus>> = None;
        let mut output: Option<()> = None;
        let mut fed = false;
        let mut ending: Option<Ending> = None;
        let mut signal = Stage::None;
        while status.is_none() || output.is_none() {
            tokio::select! {
                s = child.wait(), if status.is_none() => {
                    status = Some(s);
                    guard.procs.leader_reaped();
                    if output.is_none() && ending.is_none() {
                        // The main process is gone but its output is still open: something
                        // it started holds the pipe. Give it a moment, then end those.
                        let orphan = tokio::time::Instant::now() + cfg.orphan_grace;
                        timer.as_mut().reset(orphan.min(deadline));
                    }
                }
                ((), ()) = &mut pipes, if output.is_none() => {
                    output = Some(());
                    guard.procs.output_closed();
                }
                () = &mut feed, if !fed => fed = true,
                () = async {
                    match serve.as_mut() {
                        Some(serving) => serving.await,
                        None => std::future::pending().await,
                    }
                }, if serve.is_some() => serve = None,
                () = run.cancel.cancelled(), if ending.is_none() => {
                    ending = Some(Ending::Cancelled);
                    signal = guard.escalate(signal);
                    timer.as_mut().reset(tokio::time::Instant::now() + cfg.kill_grace);
                }
                () = &mut timer => {
                    if ending.is_none() {
                        ending = Some(if status.is_some() { Ending::Orphaned } else { Ending::TimedOut });
                    }
                    if signal == Stage::Kill {
                        // Something the engine cannot end holds the pipes open (it left the
                        // run's processes and cleared its mark): stop reading rather than
                        // wait for it.
                        break;
                    }
                    signal = guard.escalate(signal);
                    timer.as_mut().reset(tokio::time::Instant::now() + cfg.kill_grace);
                }
            }
        }
        // The run is over: its channel closes now, before any wait below.
        drop(serve);
        if status.is_none() {
            // Only reached after SIGKILL; the leader is dead or about to be.
            status = Some(child.wait().await);
            guard.procs.leader_reaped();
        }
        // What became of the processes signalled (only when the run was ended: the normal
        // path reads no process table).
        let killed = match ending {
            Some(_) => guard.procs.report(cfg.kill_grace).await.to_string(),
            None => String::new(),
        };
        guard.disarm();

        let take = |kept: &Mutex<Captured>| {
            std::mem::take(&mut *kept.lock().unwrap_or_else(PoisonError::into_inner))
        };
        let (stdout, stderr) = (take(&kept_out), take(&kept_err));
        let mut outcome = match ending {
            Some(Ending::TimedOut) => HookOutcome::failed(
                FailureKind::Timeout,
                format!(
                    "timed out after {}; {killed}",
                    humantime::format_duration(run.timeout)
                ),
            ),
            Some(Ending::Cancelled) => HookOutcome::failed(
                FailureKind::Cancelled,
                format!("the dispatch was cancelled; {killed}"),
            ),
            None | Some(Ending::Orphaned) => {
                let mut outcome = self.answer(run, &prepared, status, &stdout, &stderr);
                if ending == Some(Ending::Orphaned) {
                    outcome.effects.messages.push(format!(
                        "hook `{}` exited but left processes holding its output open; {killed}",
                        run.spec.display_id()
                    ));
                }
                outcome
            }
        };
        if let Some(file) = &prepared.env_file {
            self.read_env_file(run, file, &mut outcome);
        }
        outcome.run.stdout_truncated = stdout.truncated;
        outcome.run.stderr_truncated = stderr.truncated;
        if stdout.truncated
            && let Some(failure) = &mut outcome.run.failure
            && failure.kind == FailureKind::MalformedOutput
        {
            failure
                .message
                .push_str(&format!(" (stdout was cut at {} bytes)", cfg.stdout_cap));
        }
        outcome
    }

    /// Takes what a hook that answered wrote to its `CLAUDE_ENV_FILE` into its outcome (and
    /// the session's env file, when there is one); a hook that failed, timed out or was
    /// cancelled contributes nothing, as it contributes nothing of its output.
    fn read_env_file(&self, run: &HookRun<'_>, file: &RunFile, outcome: &mut HookOutcome) {
        if !matches!(outcome.run.status, HookStatus::Ok | HookStatus::Blocked) {
            return;
        }
        let text = file.read(self.config.stdout_cap);
        if text.trim().is_empty() {
            return;
        }
        outcome.effects.env = hooks_core::parse_env_file(&text);
        if let Some(session) = self.env_file_for(run.ctx.get_str("session_id")) {
            use std::io::Write as _;
            let appended = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&session)
                .and_then(|mut f| {
                    let mut text = text.into_bytes();
                    if text.last() != Some(&b'\n') {
                        text.push(b'\n');
                    }
                    f.write_all(&text)
                });
            if let Err(err) = appended {
                outcome.effects.messages.push(format!(
                    "hook `{}`: cannot add its exports to {}: {err}",
                    run.spec.display_id(),
                    session.display()
                ));
            }
        }
    }

    /// The outcome of a run whose main process exited.
    fn answer(
        &self,
        run: &HookRun<'_>,
        prepared: &Prepared,
        status: Option<io::Result<ExitStatus>>,
        stdout: &Captured,
        stderr: &Captured,
    ) -> HookOutcome {
        let status = match status {
            Some(Ok(status)) => status,
            Some(Err(err)) => {
                return HookOutcome::failed(
                    FailureKind::Crash,
                    format!("could not wait for the hook's process: {err}"),
                );
            }
            None => return HookOutcome::failed(FailureKind::Crash, "the hook's process vanished"),
        };
        let code = status.code();
        if prepared.is_script
            && let Some(code @ (126 | 127)) = code
        {
            // The shell's own codes: 127 command not found, 126 found but not executable
            // (or a bad interpreter). The hook never ran.
            let what = if code == 127 {
                "command not found"
            } else {
                "command not executable"
            };
            let detail = String::from_utf8_lossy(&stderr.bytes);
            let detail = detail.trim();
            let mut outcome = HookOutcome::failed(
                FailureKind::Spawn,
                if detail.is_empty() {
                    format!("the shell could not run the hook ({what}, exit {code})")
                } else {
                    format!("the shell could not run the hook ({what}, exit {code}): {detail}")
                },
            );
            outcome.run.exit_code = Some(code);
            return outcome;
        }
        let mut outcome = parse_output_in(
            run.spec.dialect,
            run.ctx.event(),
            code,
            &stdout.bytes,
            &stderr.bytes,
        );
        hooks_core::merge_updated_input(run.spec.dialect, run.ctx, &mut outcome);
        // Claude Code's `asyncRewake`: exit 2 wakes the agent with stderr, or stdout when
        // stderr is empty; the reason carries that text to the async queue.
        if code == Some(2) && matches!(&run.spec.action, Action::Command(c) if c.rewake) {
            let text = |c: &Captured| String::from_utf8_lossy(&c.bytes).trim().to_owned();
            let message = Some(text(stderr))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| text(stdout));
            outcome.effects.reason = Some(message);
        }
        if code.is_none()
            && let Some(failure) = &mut outcome.run.failure
        {
            use std::os::unix::process::ExitStatusExt;
            if let Some(sig) = status.signal() {
                failure.message = format!("{} (signal {sig})", failure.message);
            }
        }
        outcome
    }
}

#[async_trait]
impl Executor for CommandExecutor {
    async fn execute(&self, run: HookRun<'_>) -> HookOutcome {
        self.execute_offered(run, None).await
    }
}

/// Builds a [`CommandExecutor`].
#[derive(Debug)]
pub struct CommandExecutorBuilder {
    config: Config,
}

impl CommandExecutorBuilder {
    /// How many bytes of stdout to keep (1 MiB by default); the rest is read and dropped.
    #[must_use]
    pub fn stdout_cap(mut self, bytes: usize) -> CommandExecutorBuilder {
        self.config.stdout_cap = bytes;
        self
    }

    /// How many bytes of stderr to keep (1 MiB by default).
    #[must_use]
    pub fn stderr_cap(mut self, bytes: usize) -> CommandExecutorBuilder {
        self.config.stderr_cap = bytes;
        self
    }

    /// How long a hook's processes have between SIGTERM and SIGKILL (500 ms by default),
    /// and how long those sent SIGKILL have to be gone before they are reported as
    /// survivors.
    #[must_use]
    pub fn kill_grace(mut self, grace: Duration) -> CommandExecutorBuilder {
        self.config.kill_grace = grace;
        self
    }

    /// How long a hook's output may stay open after its main process exited (1 s by
    /// default) before the processes it left are killed.
    #[must_use]
    pub fn orphan_grace(mut self, grace: Duration) -> CommandExecutorBuilder {
        self.config.orphan_grace = grace;
        self
    }

    /// The sandbox sandboxed hooks run through (bubblewrap by default).
    #[must_use]
    pub fn sandbox(mut self, sandbox: Arc<dyn Sandbox>) -> CommandExecutorBuilder {
        self.config.sandbox = sandbox;
        self
    }

    /// Whether sandboxed hooks may use the network (no by default).
    #[must_use]
    pub fn sandbox_network(mut self, allow: bool) -> CommandExecutorBuilder {
        self.config.sandbox_network = allow;
        self
    }

    /// Whether hooks of `dialect` that do not say run sandboxed (only Fabro's do by
    /// default).
    #[must_use]
    pub fn sandbox_by_default(mut self, dialect: Dialect, on: bool) -> CommandExecutorBuilder {
        self.config.sandbox_by_default.retain(|d| *d != dialect);
        if on {
            self.config.sandbox_by_default.push(dialect);
        }
        self
    }

    /// The shell that runs scripts of `dialect` as `SHELL -c SCRIPT` (`/bin/sh`, and
    /// `bash` for Fabro, by default).
    #[must_use]
    pub fn shell(mut self, dialect: Dialect, shell: impl Into<String>) -> CommandExecutorBuilder {
        self.config.shells.retain(|(d, _)| *d != dialect);
        self.config.shells.push((dialect, shell.into()));
        self
    }

    /// Also appends what each hook wrote to its `CLAUDE_ENV_FILE` to the session's file
    /// in `dir` (see [`CommandExecutor::env_file_for`]).
    #[must_use]
    pub fn env_file_dir(mut self, dir: impl Into<PathBuf>) -> CommandExecutorBuilder {
        self.config.env_file_dir = Some(dir.into());
        self
    }

    /// The project root, which Claude Code, echo-agent and native hooks get as
    /// `CLAUDE_PROJECT_DIR` when their event names no `project_dir` (by default the
    /// working directory when the executor is built; never the event's `cwd`, which
    /// follows the agent's `cd` and worktrees).
    #[must_use]
    pub fn project_dir(mut self, dir: impl AsRef<Path>) -> CommandExecutorBuilder {
        self.config.project_dir = Some(dir.as_ref().to_string_lossy().into_owned());
        self
    }

    /// The executor.
    pub fn build(mut self) -> CommandExecutor {
        if self.config.project_dir.is_none() {
            self.config.project_dir = std::env::current_dir()
                .ok()
                .map(|d| d.to_string_lossy().into_owned());
        }
        CommandExecutor {
            config: Arc::new(self.config),
        }
    }
}

/// The longest `NAME=value` the kernel accepts in an environment (`MAX_ARG_STRLEN`, 128 KiB
/// with its NUL).
const MAX_ENV_ENTRY: usize = 128 * 1024 - 1;

/// What all dialect variables together may take, well under the kernel's limit on argv
/// plus environment (a quarter of the stack limit, 2 MiB by default).
const ENV_BUDGET: usize = 1024 * 1024;

/// The name of the variable listing dialect variables left out because the kernel could
/// not take them.
const OMITTED_ENV: &str = "HOOKS_OMITTED_ENV";

/// An Autohand hook is always given a session id and a workspace (`session_id` and `cwd`
/// on stdin, `HOOK_SESSION_ID` and `HOOK_WORKSPACE`), as Autohand gives them: the host's,
/// else the session id of this process ([`process_session_id`]) and the engine's working
/// directory. `None` when the context has both, so the common case copies nothing.
fn autohand_defaults(ctx: &EventContext) -> Option<EventContext> {
    let has = |key: &str| ctx.get(key).is_some_and(|v| !v.is_null());
    if has("session_id") && has("cwd") {
        return None;
    }
    let mut filled = ctx.clone();
    if !has("session_id") {
        filled.set("session_id", process_session_id());
    }
    if !has("cwd")
        && let Ok(dir) = std::env::current_dir()
    {
        filled.set("cwd", dir.to_string_lossy().into_owned());
    }
    Some(filled)
}

/// The session id Autohand hooks get when the host names none: one per process
/// (`hooks-<pid>-<start time in ms>`), so every event of one agent run shares it, as the
/// events of one Autohand session do.
fn process_session_id() -> &'static str {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        format!("hooks-{}-{started}", std::process::id())
    })
}

/// Keeps the dialect variables the kernel can take. The values come from the event
/// payload, so a hostile one must not stop the hook from starting: a variable too large
/// for the kernel (a 10 MB `HOOK_ARGS`) or holding a NUL byte (which no environment string
/// can hold: a `prompt` or `cwd` of `"a\u0000b"`) would make every command hook fail to
/// spawn, so it is left out whole (cutting it would make it wrong) and named in
/// `HOOKS_OMITTED_ENV`; the full value is on stdin.
fn fit_env(vars: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut used = 0;
    let mut omitted = Vec::new();
    let mut kept = Vec::with_capacity(vars.len() + 1);
    for (name, value) in vars {
        let size = name.len() + value.len() + 2;
        if size > MAX_ENV_ENTRY || used + size > ENV_BUDGET || value.as_bytes().contains(&0) {
            omitted.push(name);
        } else {
            used += size;
            kept.push((name, value));
        }
    }
    if !omitted.is_empty() {
        let names = omitted.join(",");
        tracing::debug!(omitted = %names, "environment variables a hook's environment cannot hold were left out");
        kept.push((OMITTED_ENV.to_owned(), names));
    }
    kept
}

/// What one run starts.
struct Prepared {
    argv: Vec<String>,
    cwd: Option<PathBuf>,
    env: Vec<(String, String)>,
    stdin: Vec<u8>,
    is_script: bool,
    /// The context file of a sandboxed Fabro hook, removed when the run is over.
    _context_file: Option<RunFile>,
    /// The hook's `CLAUDE_ENV_FILE`, read and removed when the run is over.
    env_file: Option<RunFile>,
    /// Whether the hook runs in the sandbox (and so gets no prompt channel).
    sandboxed: bool,
}

/// A file of one run in the temporary directory (created new, readable by the engine's
/// user only), removed when dropped, however the run ended: a sandboxed Fabro hook's
/// `FABRO_HOOK_CONTEXT` (the event JSON) or a Claude Code hook's `CLAUDE_ENV_FILE`
/// (empty, for the hook to append `export` lines to).
struct RunFile(PathBuf);

impl RunFile {
    fn write(prefix: &str, suffix: &str, contents: &[u8]) -> io::Result<RunFile> {
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "{prefix}-{}-{}{suffix}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)?;
        let file_guard = RunFile(path);
        file.write_all(contents)?;
        Ok(file_guard)
    }

    /// What the file holds now, up to `cap` bytes, as text; nothing when the hook put
    /// something other than a regular file there (a FIFO would never end the read).
    fn read(&self, cap: usize) -> String {
        use std::io::Read as _;
        let regular = std::fs::symlink_metadata(&self.0).is_ok_and(|m| m.file_type().is_file());
        let mut bytes = Vec::new();
        if regular && let Ok(file) = std::fs::File::open(&self.0) {
            let limit = u64::try_from(cap).unwrap_or(u64::MAX);
            if let Err(err) = file.take(limit).read_to_end(&mut bytes) {
                tracing::debug!(%err, path = %self.0.display(), "could not read a hook's env file");
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Drop for RunFile {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_file(&self.0) {
            tracing::debug!(%err, path = %self.0.display(), "could not remove a hook's run file");
        }
    }
}

/// Why a run ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    TimedOut,
    Cancelled,
    /// The main process exited, but its output stayed open past the grace period.
    Orphaned,
}

/// Which signal the run's processes got last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    None,
    Term,
    Kill,
}

/// The processes of a run: signalled to end it, and killed if the run is dropped half-way
/// (the dispatch future dropped by its caller).
struct RunGuard {
    procs: RunProcesses,
    armed: bool,
}

impl RunGuard {
    /// Sends the next signal to the group and every process of the run: SIGTERM first,
    /// SIGKILL after.
    fn escalate(&mut self, stage: Stage) -> Stage {
        match stage {
            Stage::None => {
                self.procs.signal_all(Signal::TERM);
                Stage::Term
            }
            Stage::Term | Stage::Kill => {
                self.procs.signal_all(Signal::KILL);
                Stage::Kill
            }
        }
    }

    fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        if self.armed {
            self.procs.signal_all(Signal::KILL);
        }
    }
}

/// Starts the hook. A spawn that fails for lack of descriptors or processes is
/// back-pressure: it waits for another hook to end (or a short backoff) and tries again,
/// for at most the hook's timeout; only then is it a spawn failure. The hook's own timeout
/// starts once it runs.
async fn start(run: &HookRun<'_>, request: &SpawnRequest<'_>) -> Result<Child, HookOutcome> {
    let deadline = tokio::time::Instant::now() + run.timeout;
    let mut backoff = budget::first_backoff();
    loop {
        let err = match spawn(request) {
            Ok(child) => return Ok(child),
            Err(err) => err,
        };
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if !budget::is_exhaustion(&err) {
            return Err(HookOutcome::failed(
                FailureKind::Spawn,
                describe_spawn_error(request, &err),
            ));
        }
        if left.is_zero() {
            return Err(HookOutcome::failed(
                FailureKind::Spawn,
                format!(
                    "{}, still after waiting {} for descriptors or processes to free up",
                    describe_spawn_error(request, &err),
                    humantime::format_duration(run.timeout)
                ),
            ));
        }
        tracing::debug!(%err, "out of descriptors or processes; waiting to start a hook");
        tokio::select! {
            next = budget::budget().wait_for_release(backoff.min(left)) => backoff = next,
            () = run.cancel.cancelled() => return Err(cancelled_before_start()),
        }
    }
}

fn cancelled_before_start() -> HookOutcome {
    HookOutcome::failed(
        FailureKind::Cancelled,
        "the dispatch was cancelled before the hook could start",
    )
}

/// What was kept of one output stream.
#[derive(Debug, Default)]
struct Captured {
    bytes: Vec<u8>,
    truncated: bool,
}

/// The most one read of a hook's stdout or stderr takes.
const READ_CHUNK: usize = 8 * 1024;

/// Reads `reader` to its end into `out`, keeping the first `cap` bytes and dropping the
/// rest, so a flood neither fills memory nor blocks the writer. What is kept is in `out`
/// after each read, for a caller that stops waiting for the end.
async fn read_capped<R: AsyncRead + Unpin>(
    reader: Option<&mut R>,
    cap: usize,
    out: &Mutex<Captured>,
) {
    let Some(reader) = reader else {
        return;
    };
    // Read into spare room, never zeroed: most hooks write a line or nothing, and a
    // zeroed buffer of a pipe's size cost more than their whole output.
    let mut chunk = Vec::with_capacity(READ_CHUNK);
    loop {
        chunk.clear();
        match reader.read_buf(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => {
                let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
                let room = cap.saturating_sub(out.bytes.len());
                let keep = n.min(room);
                out.bytes.extend_from_slice(&chunk[..keep]);
                out.truncated |= keep < n;
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => {
                tracing::debug!(%err, "reading a hook's output failed");
                break;
            }
        }
    }
}

/// Writes the event JSON to the hook's stdin and closes it. A hook that exits without
/// reading it closes the pipe (EPIPE): that is fine and ends the write.
async fn write_stdin(stdin: Option<ChildStdin>, payload: &[u8]) {
    let Some(mut stdin) = stdin else {
        return;
    };
    if let Err(err) = stdin.write_all(payload).await {
        tracing::trace!(%err, "the hook did not read all of its stdin");
        return;
    }
    let _ = stdin.shutdown().await;
}

/// The PowerShell to run a `shell: powershell` script with: `pwsh` (PowerShell 7) when it
/// is on `PATH`, else Windows PowerShell's `powershell`, as Claude Code picks.
fn powershell() -> &'static str {
    static FOUND: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();
    FOUND.get_or_init(|| {
        let on_path = std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("pwsh").is_file()));
        if on_path { "pwsh" } else { "powershell" }
    })
}
