//! `hooks bridge AGENT`: the engine as the one hook command of an agent. It reads the event
//! the agent writes on stdin, finds the project root as the agent does, loads every
//! discovered layer with trust and managed policy as `hooks run` does (the agent's own
//! settings files excepted: the agent runs their hooks itself), dispatches, and answers in
//! the agent's protocol (`hooks_core::reply`). Async hooks go to a detached background
//! process, so the answer never waits for them; what must span the agent's separate
//! invocations (the stop-loop count, async results) is in the state store (`state`).
//! An engine error is answered too, never a hang or a silent allow (see [`on_error`]).

pub mod fold;
pub mod install;
pub mod install_cline;
pub mod state;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use hooks::EngineBuilder;
use hooks::config::Locations;
use hooks::core::reply::Reply;
use hooks::core::{Aggregate, BuiltinEvent, Decision, Event, EventCatalog, EventContext};
use hooks::exec::{AuditLog, CancellationToken};
use serde_json::Value;

use self::state::StateStore;
use crate::cli::{Agent, BridgeArgs, ConfigArgs};

/// The variable that chooses what an engine error means for a tool event: `block` (the
/// default) or `allow`.
pub const ON_ERROR_VAR: &str = "HOOKS_BRIDGE_ON_ERROR";

/// The variable naming the audit log (default: `audit.jsonl` in the state directory).
pub const AUDIT_LOG_VAR: &str = "HOOKS_AUDIT_LOG";

/// Answers one hook call of `args.agent`; the exit code is the answer's.
pub fn run(args: &BridgeArgs) -> Result<u8> {
    let agent = args.agent;
    let (stdin, payload) = match read_event() {
        Ok(read) => read,
        Err(e) => return Ok(write(&unreadable(&e))),
    };
    if args.async_worker {
        return worker(agent, payload);
    }
    let mut ctx = match event_of(agent, payload) {
        Ok(Some(ctx)) => ctx,
        // An event this engine does not know (a newer agent's): no hook can be for it.
        Ok(None) => return Ok(write(&Reply::proceed())),
        Err(e) => return Ok(write(&unreadable(&e))),
    };
    if hooks::exec::is_nested() {
        return Ok(write(&nested(agent, &ctx)));
    }
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        answer(agent, &mut ctx, &stdin)
    }));
    let agg = match answered {
        Ok(Ok(agg)) => agg,
        Ok(Err(e)) => on_error(ctx.event(), &format!("{e:#}")),
        Err(_) => on_error(ctx.event(), "the engine stopped unexpectedly (a panic)"),
    };
    Ok(write(&reply_for(agent, &ctx, &agg)))
}

/// The answer of a bridge started inside a hook of the engine (the nesting mark,
/// `HOOKS_DEPTH`, is set): proceed, without dispatching, since the engine that started the
/// hook runs these same hooks; said on stderr and in the audit log. Whatever started it
/// (another agent's bridge entry, a user's script), no chain of bridges can recurse.
fn nested(agent: Agent, ctx: &EventContext) -> Reply {
    let why = format!(
        "hooks bridge {}: started inside a hook of this engine ({}={}), so it does not run the hooks again (the engine that started this hook runs them)",
        agent.as_str(),
        hooks::exec::DEPTH_VAR,
        hooks::exec::nesting_depth()
    );
    if let Some(log) = audit_log(agent, StateStore::open().as_ref()) {
        log.record_note(ctx, &why);
    }
    Reply {
        stdout: String::new(),
        stderr: format!("{why}\n"),
        exit_code: 0,
    }
}

/// The answer to a call whose arguments the command line refused (an unknown flag or
/// agent: a stale install, an upgrade that renamed a flag): an engine error, so a tool
/// event is blocked in the agent's protocol unless `HOOKS_BRIDGE_ON_ERROR=allow`, and
/// every other event goes on with the message. The agent is the one named, else guessed
/// from the event's shape (Cline's `hookName`), else Claude Code's protocol, whose exit 2
/// Gemini CLI, Codex and Cursor also read as a deny. Never dispatches.
pub fn refused(args: &[String], error: &str) -> u8 {
    let named = args
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .find_map(|a| <Agent as clap::ValueEnum>::from_str(a, true).ok());
    let error = format!(
        "`hooks {}` was refused: {}",
        args.join(" "),
        error
            .lines()
            .map(str::trim)
            .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
            .collect::<Vec<_>>()
            .join(" ")
            .trim_start_matches("error: ")
    );
    let read = read_event().and_then(|(_, payload)| {
        let agent = named.unwrap_or(if payload.get("hookName").is_some() {
            Agent::Cline
        } else {
            Agent::Claude
        });
        let ctx =
            event_of(agent, payload)?.context("the event on stdin is not one this engine knows")?;
        Ok((agent, ctx))
    });
    match read {
        Ok((agent, ctx)) => write(&reply_for(agent, &ctx, &on_error(ctx.event(), &error))),
        // No event to decide on: refuse as every agent but Cline reads a deny.
        Err(e) => write(&Reply {
            stdout: String::new(),
            stderr: format!("hooks bridge: {error} ({e:#})\n"),
            exit_code: 2,
        }),
    }
}

/// The agent's event, from the JSON it wrote on stdin: reshaped first where the agent's
/// events have a shape of their own (Cline's `hookName`, `taskId`, `preToolUse`), then read
/// through its profile ([`read_context`]). `None` for an event this engine does not know.
fn event_of(agent: Agent, payload: Value) -> Result<Option<EventContext>> {
    let payload = agent.dialect().profile().reshape_to_claude(payload);
    let event = {
        let name = payload
            .get("hook_event_name")
            .and_then(Value::as_str)
            .context("the event on stdin has no `hook_event_name`")?;
        agent_event(name)
    };
    event
        .map(|event| read_context(agent, event, payload))
        .transpose()
}

/// The event as the agent sent it, read into the engine's context through the agent's
/// profile: its fields, tool names and tool arguments in the canonical vocabulary (Gemini
/// CLI's `run_shell_command` is `Bash`, its `dir_path` of `grep_search` is `path`).
fn read_context(agent: Agent, event: Event, payload: Value) -> Result<EventContext> {
    agent
        .dialect()
        .profile()
        .read_context(event, payload)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// How long the agent may take to write its event and close stdin. Agents write it at
/// once; the bound only keeps a bridge whose stdin is never closed from hanging.
pub const STDIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The event the agent wrote on stdin, read to its end (within [`STDIN_LIMIT`]): its bytes
/// (which an async worker is handed as they are) and its JSON. Unlike `hooks run`, the
/// bridge always waits for it: an agent that is slow to write (a loaded machine) must not
/// have its event ignored, which would let a guarded call through.
fn read_event() -> Result<(Vec<u8>, Value)> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        anyhow::bail!("stdin is a terminal: the agent writes its event there");
    }
    let text = read_within(std::os::fd::AsFd::as_fd(&stdin), STDIN_LIMIT)?;
    let payload = serde_json::from_slice(&text).context("the event on stdin is not JSON")?;
    Ok((text, payload))
}

/// Everything `fd` gives until its end, waiting at most `limit` in all: each read is
/// preceded by a `poll` bounded by the time left, on this thread (a thread of its own
/// would cost its start on every call).
fn read_within(fd: std::os::fd::BorrowedFd<'_>, limit: std::time::Duration) -> Result<Vec<u8>> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let deadline = std::time::Instant::now() + limit;
    let mut text = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            anyhow::bail!("the agent did not close stdin within {} s", limit.as_secs());
        }
        let timeout = Timespec::try_from(left).context("the time left to read stdin")?;
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            // Timed out: the loop says so once the deadline has passed.
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => {}
            Err(e) => return Err(e).context("waiting for the event on stdin"),
        }
        // Read into the buffer's spare room, never zeroed; it grows only when full.
        if text.len() == text.capacity() {
            text.reserve(64 * 1024);
        }
        match rustix::io::read(fd, rustix::buffer::spare_capacity(&mut text)) {
            Ok(0) => return Ok(text),
            Ok(_) => {}
            Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => {}
            Err(e) => return Err(e).context("reading the event from stdin"),
        }
    }
}

/// The agent's answer to `agg`, for the event of `ctx`.
pub fn reply_for(agent: Agent, ctx: &EventContext, agg: &Aggregate) -> Reply {
    // Every agent the bridge takes has a writer in its profile.
    agent
        .dialect()
        .profile()
        .reply
        .map_or_else(Reply::proceed, |write| write(ctx, agg))
}

/// Writes `reply`, flushes and closes both streams' buffers, and gives its exit code.
fn write(reply: &Reply) -> u8 {
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(reply.stdout.as_bytes())
        .and_then(|()| out.flush());
    drop(out);
    let mut err = std::io::stderr().lock();
    let _ = err
        .write_all(reply.stderr.as_bytes())
        .and_then(|()| err.flush());
    u8::try_from(reply.exit_code).unwrap_or(1)
}

/// The answer to a call whose event cannot be read: exit 1 with the reason, which every
/// agent shows the user as a failed hook and goes on from (no event, no decision to take).
fn unreadable(e: &anyhow::Error) -> Reply {
    Reply {
        stdout: String::new(),
        stderr: format!("hooks bridge: {e:#}\n"),
        exit_code: 1,
    }
}

/// The canonical event for the agent's event name: the catalog knows every agent's names
/// (Gemini CLI's `BeforeTool` is PreToolUse, from its profile; Cursor's
/// `beforeShellExecution` too, which its profile's reader then reads as PreToolUse on
/// `Bash`).
pub(crate) fn agent_event(name: &str) -> Option<Event> {
    EventCatalog::new().get(name)
}

/// The project root as the agent finds it: `CLAUDE_PROJECT_DIR` (Claude Code; Gemini CLI
/// sets it too, with `GEMINI_PROJECT_DIR`); Cline's first workspace root
/// (`workspaceRoots[0]`) as it is; Cursor's first workspace root (`workspace_roots[0]`),
/// else `CURSOR_PROJECT_DIR`; else the root of the payload's `cwd` (the nearest ancestor
/// with a config, else the git root), else the current directory's.
fn project_root(agent: Agent, ctx: &EventContext) -> Result<PathBuf> {
    let dir = |p: PathBuf| Some(p).filter(|p| p.is_absolute() && p.is_dir());
    let var = |name: &str| std::env::var_os(name).map(PathBuf::from).and_then(dir);
    let first_root = || {
        ctx.get("workspace_roots")
            .and_then(|roots| roots.get(0))
            .and_then(Value::as_str)
            .map(PathBuf::from)
            .and_then(dir)
    };
    let from_env = match agent {
        Agent::Claude => var("CLAUDE_PROJECT_DIR"),
        Agent::Cline => first_root(),
        Agent::Codex => None,
        Agent::Cursor => first_root().or_else(|| var("CURSOR_PROJECT_DIR")),
        Agent::Gemini => var("GEMINI_PROJECT_DIR").or_else(|| var("CLAUDE_PROJECT_DIR")),
    };
    if let Some(dir) = from_env {
        return Ok(dir);
    }
    let cwd = ctx.working_dir().map(PathBuf::from).filter(|p| p.is_dir());
    match cwd {
        Some(cwd) => {
            let home = std::env::var_os("HOME").map(PathBuf::from);
            Ok(Locations::project_root(&cwd, home.as_deref()))
        }
        None => super::project_dir(&ConfigArgs::default()),
    }
}

/// `builder` without the files the agent reads hooks from itself: the bridge does not run
/// their hooks again. Claude Code reads `~/.claude/settings.json`, the project's
/// `.claude/settings.json` and `.claude/settings.local.json` and its managed settings (its
/// `.mcp.json` and `~/.claude.json` hold MCP servers, not hooks, and stay).
/// Cline, Codex, Cursor and Gemini CLI read every file of their dialect that the engine
/// discovers: Cline every hook file in its hooks directories; Codex its `hooks.json` and
/// `config.toml` in `$CODEX_HOME` (`~/.codex`), the hooks files of the plugins it enables,
/// and the project's `.codex/` (a project's files are Codex's to run or, for an untrusted
/// project, to skip), and
/// `/etc/codex/requirements.toml`; Cursor its `hooks.json` files (the project's, the
/// user's, the enterprise one); Gemini CLI its `settings.json` files (system, user,
/// project) and its extensions' `hooks/hooks.json`, where `hooks install gemini` also
/// writes the bridge, which must not call itself. Those are skipped by their dialect,
/// among the files the engine discovers anyway, not by a discovery of their own.
pub fn without_own_files(builder: EngineBuilder, agent: Agent) -> EngineBuilder {
    match agent {
        Agent::Claude => builder.skip_discovered_if(is_claude_settings),
        Agent::Cline | Agent::Codex | Agent::Cursor | Agent::Gemini => {
            builder.skip_discovered_dialect(agent.dialect())
        }
    }
}

/// Whether a discovered file is one of Claude Code's settings files, which it runs the
/// hooks of itself: `.claude/settings.json` and `.claude/settings.local.json` (the user's
/// and the project's), and its managed `managed-settings.json`.
fn is_claude_settings(path: &Path) -> bool {
    path.ends_with(".claude/settings.json")
        || path.ends_with(".claude/settings.local.json")
        || path
            .file_name()
            .is_some_and(|n| n == "managed-settings.json")
}

/// What the bridge dispatches the event to: the engine, built as `hooks run` builds it,
/// plus the bridge's parts.
struct Prepared {
    engine: hooks::Engine,
    store: Option<StateStore>,
    session: String,
}

/// The engine for the event of `ctx`, whose `cwd` it defaults to the project root, with
/// the state store the call opened (the session's stop-loop counts, the audit log).
fn prepare(agent: Agent, ctx: &mut EventContext, store: Option<StateStore>) -> Result<Prepared> {
    let root = project_root(agent, ctx)?;
    super::default_cwd(ctx, &root);
    let session = ctx.get_str("session_id").unwrap_or_default().to_owned();
    let args = ConfigArgs {
        project: Some(root.clone()),
        ..ConfigArgs::default()
    };
    let mut builder = without_own_files(super::engine_builder(&args)?, agent).hand_off_async(true);
    if let Some(log) = audit_log(agent, store.as_ref()) {
        builder = builder.audit_log(log);
    }
    if let Some(store) = &store {
        builder = builder.stop_streaks(Arc::new(store.streaks(&session)));
    }
    let engine = builder.build()?;
    Ok(Prepared {
        engine,
        store,
        session,
    })
}

/// The audit log every hook run through the bridge is written to, naming the agent:
/// `$HOOKS_AUDIT_LOG`, else `audit.jsonl` in the state directory. None when it cannot be
/// opened (the hooks still run).
fn audit_log(agent: Agent, store: Option<&StateStore>) -> Option<AuditLog> {
    let path = match std::env::var_os(AUDIT_LOG_VAR).filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => store?.audit_path(),
    };
    AuditLog::open(path)
        .ok()
        .map(|log| log.with_agent(agent.as_str()))
}

/// Dispatches the event and folds in what the store holds for the session (the results
/// of async hooks finished since the last event); `stdin` is the event as the agent wrote
/// it, for the async worker.
fn answer(agent: Agent, ctx: &mut EventContext, stdin: &[u8]) -> Result<Aggregate> {
    let event = ctx.event().clone();
    let store = StateStore::open();
    // A second call of the same event (another bridge of this engine the agent also runs)
    // answers with the first's decision, before any config is loaded for it.
    let claim = store
        .as_ref()
        .zip(fold::key(ctx, stdin))
        .and_then(|(store, key)| fold::claim(store, &key));
    let held = match claim {
        Some(fold::Claim::Answered(effects)) => {
            let mut agg = Aggregate::empty(&event);
            agg.effects = *effects;
            if let Some(log) = audit_log(agent, store.as_ref()) {
                log.record_note(
                    ctx,
                    "answered with the decision of another call of the same event, which ran the hooks",
                );
            }
            return Ok(agg);
        }
        Some(fold::Claim::Held(held)) => Some(held),
        None => None,
    };
    let Prepared {
        engine,
        store,
        session,
    } = prepare(agent, ctx, store)?;
    let ctx = &*ctx;
    let index = engine.dispatcher().index();
    let matched = index.matching(ctx);
    let has_async = matched.iter().any(|&i| index.spec(i).is_async);
    let has_sync = matched.iter().any(|&i| !index.spec(i).is_async);
    let mut agg = if has_sync {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the async runtime")?;
        runtime.block_on(engine.dispatch(ctx))
    } else {
        Aggregate::empty(&event)
    };
    if has_async {
        start_worker(agent, stdin, &mut agg);
    }
    if let Some(store) = &store {
        store.deliver(&session, &event, &mut agg);
        if event.builtin() == Some(BuiltinEvent::SessionEnd) {
            store.end_session(&session);
        }
    }
    if let Some(held) = held {
        held.answer(&agg.effects);
    }
    if agent == Agent::Claude {
        export_env(&agg);
    }
    Ok(agg)
}

/// Starts the detached background process that runs the event's async hooks; says so in
/// the answer's messages if it cannot be started.
fn start_worker(agent: Agent, stdin: &[u8], agg: &mut Aggregate) {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            agg.effects
                .messages
                .push(format!("hooks bridge: async hooks not run: {e}"));
            return;
        }
    };
    let argv = [
        exe.into_os_string(),
        "bridge".into(),
        agent.as_str().into(),
        "--async-worker".into(),
    ];
    if let Err(e) = hooks::exec::spawn_detached(&argv, stdin) {
        agg.effects
            .messages
            .push(format!("hooks bridge: async hooks not run: {e}"));
    }
}

/// The background process: runs the event's async hooks (each bounded by its timeout,
/// audited), and keeps their context and messages in the store for the session's next
/// event.
fn worker(agent: Agent, payload: Value) -> Result<u8> {
    let Some(mut ctx) = event_of(agent, payload)? else {
        return Ok(1);
    };
    let event = ctx.event().clone();
    let Prepared {
        engine,
        store,
        session,
    } = prepare(agent, &mut ctx, StateStore::open())?;
    let index = engine.dispatcher().index();
    let specs: Vec<_> = index
        .matching(&ctx)
        .into_iter()
        .map(|i| index.spec(i))
        .filter(|s| s.is_async)
        .collect();
    let runtime = super::runtime()?;
    let cancel = CancellationToken::new();
    let outcomes = runtime.block_on(futures_util::future::join_all(
        specs
            .iter()
            .map(|spec| engine.dispatcher().run_hook(spec, &ctx, &cancel)),
    ));
    if let Some(store) = &store {
        for (spec, outcome) in specs.iter().zip(&outcomes) {
            store.record_async(&session, &event, &spec.display_id(), outcome);
        }
    }
    Ok(0)
}

/// What an engine error means: on a tool event (PreToolUse, PermissionRequest) a block
/// (`HOOKS_BRIDGE_ON_ERROR=block`, the default: a guard that could not run must not let
/// the call through), or, with `allow`, the call proceeds; on every other event the agent
/// goes on. The user is told either way.
pub fn on_error(event: &Event, error: &str) -> Aggregate {
    let mut agg = Aggregate::empty(event);
    let tool_event = matches!(
        event.builtin(),
        Some(BuiltinEvent::PreToolUse | BuiltinEvent::PermissionRequest)
    );
    let allow = std::env::var(ON_ERROR_VAR).is_ok_and(|v| v.trim().eq_ignore_ascii_case("allow"));
    if tool_event && !allow {
        agg.effects.decision = Decision::Block;
        agg.effects.reason = Some(format!(
            "hooks bridge could not run the hooks ({error}), so the call is blocked ({ON_ERROR_VAR}=allow lets it through)"
        ));
    }
    agg.effects
        .messages
        .push(format!("hooks bridge could not run the hooks: {error}"));
    agg
}

/// Appends what the hooks exported to Claude Code's `CLAUDE_ENV_FILE`, which Claude Code
/// sources before its later Bash commands.
fn export_env(agg: &Aggregate) {
    if agg.effects.env.is_empty() {
        return;
    }
    let Some(file) = std::env::var_os("CLAUDE_ENV_FILE").filter(|f| !f.is_empty()) else {
        return;
    };
    let mut text = String::new();
    for (name, value) in &agg.effects.env {
        text.push_str(&format!(
            "export {name}={}\n",
            hooks::config::shell_quote(value)
        ));
    }
    let _ = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(file)
        .and_then(|mut f| f.write_all(text.as_bytes()));
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::time::{Duration, Instant};

    use super::read_within;

    #[test]
    fn stdin_is_read_to_its_end_across_writes() {
        let (reader, mut writer) = std::io::pipe().expect("pipe");
        let big = "x".repeat(200_000);
        let writing = std::thread::spawn(move || {
            writer.write_all(b"{\"a\":\"").expect("write");
            writer.write_all(big.as_bytes()).expect("write");
            writer.write_all(b"\"}").expect("write");
        });
        let text = read_within(reader.as_fd(), Duration::from_secs(30)).expect("read");
        writing.join().expect("writer");
        assert_eq!(text.len(), 200_008);
        assert!(text.ends_with(b"\"}"));
    }

    #[test]
    fn a_stdin_never_closed_ends_at_the_limit() {
        let (reader, mut writer) = std::io::pipe().expect("pipe");
        writer.write_all(b"{").expect("write");
        let start = Instant::now();
        let err = read_within(reader.as_fd(), Duration::from_millis(200)).expect_err("bounded");
        assert!(start.elapsed() >= Duration::from_millis(200));
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        assert!(err.to_string().contains("did not close stdin"), "{err:#}");
        drop(writer);
    }
}
