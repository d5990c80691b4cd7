//! The engine as the one hook command of an agent (`hooks bridge AGENT`): it reads the
//! event the agent writes on stdin, finds the project root as the agent does, loads every
//! discovered layer with trust and managed policy as `hooks run` does (the agent's own
//! settings files excepted: the agent runs their hooks itself), dispatches, and answers in
//! the agent's protocol (`hooks_core::reply`). Async hooks go to a detached background
//! process, so the answer never waits for them; what must span the agent's separate
//! invocations (the stop-loop count, async results) is in the state store (`state`).
//! An engine error is answered too, never a hang or a silent allow (see [`on_error`]).
//!
//! A program that is an agent's hook command answers a call with [`read_event`] and
//! [`answer`], and writes the [`Reply`] it gets: its stdout, its stderr, its exit code.
//! What the bridge knows of each agent is in [`agents`]; installing the bridge as an
//! agent's hook command, taking it out again and checking where it is installed are in
//! [`install`].
//!
//! ```no_run
//! use hooks::bridge::{self, Options};
//! use hooks::core::Dialect;
//!
//! let agent = Dialect::from_name("claude").expect("an agent the bridge answers");
//! let options = Options::new(std::env::current_exe().ok());
//! let reply = match bridge::read_event() {
//!     Ok((stdin, payload)) => bridge::answer(agent, &stdin, payload, &options),
//!     Err(e) => bridge::unreadable(&e),
//! };
//! print!("{}", reply.stdout);
//! eprint!("{}", reply.stderr);
//! // The program then exits with `reply.exit_code`.
//! ```

pub mod agents;
mod fold;
pub mod install;
pub mod state;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::Value;

use self::agents::{Agent, OwnFiles};
use self::state::StateStore;
use crate::config::{Interpolation, Locations, TrustStore};
use crate::core::reply::Reply;
use crate::core::{
    Aggregate, BuiltinEvent, Decision, Dialect, Effects, Event, EventCatalog, EventContext,
    TelemetryLayers,
};
use crate::error::Context;
use crate::exec::{AuditLog, CancellationToken};
#[cfg(feature = "otel")]
use crate::telemetry::Recorder;
use crate::{BrokenConfig, Engine, EngineBuilder, Error, LoadCache};

/// The variable that chooses what an engine error means for a tool event: `block` (the
/// default) or `allow`.
pub const ON_ERROR_VAR: &str = "HOOKS_BRIDGE_ON_ERROR";

/// The variable naming the audit log (default: `audit.jsonl` in the state directory).
pub const AUDIT_LOG_VAR: &str = "HOOKS_AUDIT_LOG";

/// The variable that says what a broken config file of the user's own means: `block`
/// (the default) or `allow`.
pub const ON_BROKEN_CONFIG_VAR: &str = "HOOKS_ON_BROKEN_CONFIG";

/// What a bridge call needs besides the event.
#[non_exhaustive]
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The `hooks` program: configs may call it as `{{ vars.HOOKS_BIN }}`, it runs the
    /// event's async hooks (`PROGRAM bridge AGENT --async-worker`), and install writes it
    /// into the agent's settings (`PROGRAM bridge AGENT`). `None`: unknown, so async hooks
    /// do not run and nothing can be installed.
    pub program: Option<PathBuf>,
    /// The event's name as the call's command line gives it (`hooks bridge copilot
    /// preToolUse`), for an agent whose event does not name itself (GitHub Copilot
    /// CLI's camelCase events); an event that names itself (`hook_event_name`) is that.
    pub event: Option<String>,
    /// The configs loaded by earlier calls of a long-lived process (the resident engine's
    /// workers, [`crate::daemon`]), reused while their files are unchanged; `None` loads
    /// every call's config afresh, as a bridge process started per call does.
    pub cache: Option<Arc<LoadCache>>,
}

impl Options {
    /// The options of a bridge whose `hooks` program is `program`.
    pub fn new(program: Option<PathBuf>) -> Options {
        Options {
            program,
            event: None,
            cache: None,
        }
    }

    /// These options with the configs of earlier calls kept in `cache`.
    #[must_use]
    pub fn with_cache(mut self, cache: Arc<LoadCache>) -> Options {
        self.cache = Some(cache);
        self
    }

    /// These options for a call whose command line names the event `event`.
    #[must_use]
    pub fn with_event(mut self, event: Option<String>) -> Options {
        self.event = event;
        self
    }
}

/// The agent `dialect` is, if the bridge answers it.
fn agent_of(dialect: Dialect) -> Result<&'static Agent, Error> {
    agents::agent(dialect)
        .ok_or_else(|| Error::bridge(format!("the bridge does not answer {}", dialect.as_str())))
}

/// Answers one hook call of the agent `dialect`: `stdin` is the event as the agent wrote
/// it (see [`read_event`]), `payload` its JSON. The reply is the agent's protocol's:
/// proceed for an event this engine does not know, the hooks' decision otherwise, and a
/// block of a tool event when the engine fails (see [`on_error`]).
pub fn answer(dialect: Dialect, stdin: &[u8], payload: Value, options: &Options) -> Reply {
    let agent = match agent_of(dialect) {
        Ok(agent) => agents::caller(agent, &payload),
        Err(e) => return unreadable(&e),
    };
    let mut ctx = match event_of(agent, payload, options.event.as_deref()) {
        Ok(Some(ctx)) => ctx,
        // An event this engine does not know (a newer agent's): no hook can be for it.
        Ok(None) => return Reply::proceed(),
        Err(e) => return unreadable(&e),
    };
    if crate::exec::is_nested() {
        return nested(agent, &ctx);
    }
    // Telemetry: decided once the engine is built, from its config's `telemetry` settings
    // and the `OTEL_*` variables; nothing is built unless they turn export on.
    let started = SystemTime::now();
    let mut recorder = None;
    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        dispatch(agent, &mut ctx, stdin, options, started, &mut recorder)
    }));
    let agg = match answered {
        Ok(Ok(agg)) => agg,
        Ok(Err(e)) => {
            // No engine, no config: the variables alone say whether the failure is
            // exported.
            recorder = recorder.or_else(|| Recorder::start(started, &TelemetryLayers::default()));
            on_error(ctx.event(), &e.chain())
        }
        Err(_) => on_error(ctx.event(), "the engine stopped unexpectedly (a panic)"),
    };
    if let Some(recorder) = recorder {
        // Spooled for a detached exporter: never a wait on a collector, never a change
        // to the answer (a panic in it is caught and ignored).
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            recorder.finish(&ctx, &agg, Some(agent.name()), options.program.as_deref());
        }));
    }
    reply_for(agent.dialect, &ctx, &agg)
}

/// Without the `otel` feature, a recorder that is never started.
#[cfg(not(feature = "otel"))]
enum Recorder {}

#[cfg(not(feature = "otel"))]
impl Recorder {
    fn start(_: SystemTime, _: &TelemetryLayers) -> Option<Recorder> {
        None
    }

    fn matched<'a>(&mut self, _: impl IntoIterator<Item = &'a crate::core::HookSpec>) {
        match *self {}
    }

    fn finish(self, _: &EventContext, _: &Aggregate, _: Option<&str>, _: Option<&Path>) {
        match self {}
    }
}

/// The answer of a bridge started inside a hook of the engine (the nesting mark,
/// `HOOKS_DEPTH`, is set): proceed, without dispatching, since the engine that started the
/// hook runs these same hooks; said on stderr and in the audit log. Whatever started it
/// (another agent's bridge entry, a user's script), no chain of bridges can recurse.
fn nested(agent: &Agent, ctx: &EventContext) -> Reply {
    let why = format!(
        "hooks bridge {}: started inside a hook of this engine ({}={}), so it does not run the hooks again (the engine that started this hook runs them)",
        agent.name(),
        crate::exec::DEPTH_VAR,
        crate::exec::nesting_depth()
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

/// The answer to a call whose arguments were refused (an unknown flag or agent: a stale
/// install, an upgrade that renamed a flag): an engine error, so a tool event is blocked
/// in the agent's protocol unless `HOOKS_BRIDGE_ON_ERROR=allow`, and every other event
/// goes on with the message. `call` is the refused command line (`hooks bridge ...`),
/// `error` why it was refused. The agent is `named`, else guessed from the event's shape
/// (Cline's `hookName`), else Claude Code's protocol, whose exit 2 Gemini CLI, Codex and
/// Cursor also read as a deny. Never dispatches; reads the event itself.
pub fn refused(named: Option<Dialect>, call: &str, error: &str) -> Reply {
    let error = format!(
        "`{call}` was refused: {}",
        error
            .lines()
            .map(str::trim)
            .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
            .collect::<Vec<_>>()
            .join(" ")
            .trim_start_matches("error: ")
    );
    let read = read_event().and_then(|(_, payload)| {
        let agent = named
            .and_then(agents::agent)
            .unwrap_or_else(|| agents::guess(&payload));
        let agent = agents::caller(agent, &payload);
        let ctx = event_of(agent, payload, None)?
            .context("the event on stdin is not one this engine knows")?;
        Ok((agent, ctx))
    });
    match read {
        Ok((agent, ctx)) => reply_for(agent.dialect, &ctx, &on_error(ctx.event(), &error)),
        // No event to decide on: refuse as every agent but Cline reads a deny, unless
        // `HOOKS_BRIDGE_ON_ERROR=allow` lets every call through (exit 0, the message on
        // stderr).
        Err(e) => Reply {
            stdout: String::new(),
            stderr: format!("hooks bridge: {error} ({})\n", e.chain()),
            exit_code: if errors_allowed() { 0 } else { 2 },
        },
    }
}

/// The agent's event, from the JSON it wrote on stdin: reshaped first where the agent's
/// events have a shape of their own (Cline's `hookName`, `taskId`, `preToolUse`; Copilot's
/// `sessionId`, `toolArgs`), named by its `hook_event_name`, else by `named` (the event the
/// call's command line names), then read through its profile ([`read_context`]), with the
/// name as the agent spelled it recorded. `None` for an event this engine does not know.
fn event_of(
    agent: &Agent,
    payload: Value,
    named: Option<&str>,
) -> Result<Option<EventContext>, Error> {
    let payload = agent.dialect.profile().reshape_to_claude(payload);
    let name = payload
        .get("hook_event_name")
        .and_then(Value::as_str)
        .or(named)
        .context("the event on stdin has no `hook_event_name`, and the call names no event")?
        .to_owned();
    let Some(event) = agent_event(&name) else {
        return Ok(None);
    };
    let mut ctx = read_context(agent, event, payload)?;
    ctx.set_sent_as(name);
    Ok(Some(ctx))
}

/// The event as the agent sent it, read into the engine's context through the agent's
/// profile: its fields, tool names and tool arguments in the canonical vocabulary (Gemini
/// CLI's `run_shell_command` is `Bash`, its `dir_path` of `grep_search` is `path`).
fn read_context(agent: &Agent, event: Event, payload: Value) -> Result<EventContext, Error> {
    agent
        .dialect
        .profile()
        .read_context(event, payload)
        .map_err(Error::bridge)
}

pub use hooks_client::STDIN_LIMIT;

/// The event the agent wrote on stdin, read to its end (within [`STDIN_LIMIT`]): its bytes
/// (which an async worker is handed as they are) and its JSON. Unlike `hooks run`, the
/// bridge always waits for it: an agent that is slow to write (a loaded machine) must not
/// have its event ignored, which would let a guarded call through.
pub fn read_event() -> Result<(Vec<u8>, Value), Error> {
    parse_event(read_stdin()?)
}

/// The bytes the agent wrote on stdin, read as [`read_event`] reads them (bounded in
/// time), not yet parsed.
pub fn read_stdin() -> Result<Vec<u8>, Error> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(Error::bridge(
            "stdin is a terminal: the agent writes its event there",
        ));
    }
    hooks_client::read_within(std::os::fd::AsFd::as_fd(&stdin), STDIN_LIMIT)
        .map_err(|(_, e)| Error::bridge(e.to_string()))
}

/// The event the agent wrote, `text`, with its JSON.
pub fn parse_event(text: Vec<u8>) -> Result<(Vec<u8>, Value), Error> {
    let payload = serde_json::from_slice(&text).context("the event on stdin is not JSON")?;
    Ok((text, payload))
}

/// The answer of the agent `dialect` to `agg`, for the event of `ctx`.
pub fn reply_for(dialect: Dialect, ctx: &EventContext, agg: &Aggregate) -> Reply {
    // Every agent the bridge takes has a writer in its profile.
    dialect
        .profile()
        .reply
        .map_or_else(Reply::proceed, |write| write(ctx, agg))
}

/// The answer to a call whose event cannot be read: exit 1 with the reason, which every
/// agent shows the user as a failed hook and goes on from (no event, no decision to take).
pub fn unreadable(e: &Error) -> Reply {
    Reply {
        stdout: String::new(),
        stderr: format!("hooks bridge: {}\n", e.chain()),
        exit_code: 1,
    }
}

/// Makes the claim files of the state store the environment names (see
/// [`fold::make_slots`]); a resident engine's worker calls it when it starts.
pub(crate) fn make_claim_slots() {
    if let Some(store) = StateStore::open() {
        fold::make_slots(&store);
    }
}

/// The canonical event for the agent's event name: the catalog knows every agent's names
/// (Gemini CLI's `BeforeTool` is PreToolUse, from its profile; Cursor's
/// `beforeShellExecution` too, which its profile's reader then reads as PreToolUse on
/// `Bash`).
pub(crate) fn agent_event(name: &str) -> Option<Event> {
    EventCatalog::new().get(name)
}

/// The project root as the agent finds it: the one the agent names (its row's
/// [`Agent::project_dir`]: `CLAUDE_PROJECT_DIR`, a workspace root, ...), else the root of
/// the payload's `cwd` (the nearest ancestor with a config, else the git root), else the
/// current directory's.
fn project_root(
    agent: &Agent,
    ctx: &EventContext,
    cache: Option<&LoadCache>,
) -> Result<PathBuf, Error> {
    if let Some(dir) = (agent.project_dir)(ctx) {
        return Ok(dir);
    }
    let cwd = ctx.working_dir().map(PathBuf::from).filter(|p| p.is_dir());
    match cwd {
        Some(cwd) => {
            let home = std::env::var_os("HOME").map(PathBuf::from);
            Ok(match cache {
                Some(cache) => cache.project_root(&cwd, home.as_deref()),
                None => Locations::project_root(&cwd, home.as_deref()),
            })
        }
        None => current_project(),
    }
}

/// The project root of the current directory ([`Locations::project_root`]: the nearest
/// ancestor with a config, else the git root, else the current directory itself).
fn current_project() -> Result<PathBuf, Error> {
    let cwd = std::env::current_dir().context("reading the current directory")?;
    // Compared with the current directory, which has its symlinks resolved.
    let home = std::env::var_os("HOME")
        .map(|h| std::fs::canonicalize(&h).unwrap_or_else(|_| PathBuf::from(h)));
    Ok(Locations::project_root(&cwd, home.as_deref()))
}

/// The engine's builder for the project `project`, as `hooks run` builds it there: the
/// standard locations with the user's trust store, `{{ vars.HOOKS_BIN }}` the `hooks`
/// program, `$HOOKS_ON_BROKEN_CONFIG` for a broken file, and `CLAUDE_PROJECT_DIR` the
/// project root; without the files the agent `dialect` reads hooks from itself
/// ([`without_own_files`]).
pub fn engine_builder(
    dialect: Dialect,
    project: &Path,
    options: &Options,
) -> Result<EngineBuilder, Error> {
    let agent = agent_of(dialect)?;
    let mut interpolation = Interpolation::default();
    if let Some(program) = &options.program {
        interpolation
            .vars
            .insert("HOOKS_BIN".to_owned(), program.display().to_string());
    }
    // `CLAUDE_PROJECT_DIR` is the project root, as an absolute path, whatever `cwd` a
    // payload gives.
    let root = std::path::absolute(project).unwrap_or_else(|_| project.to_path_buf());
    let mut builder = Engine::builder()
        .interpolation(interpolation)
        .on_broken_config(on_broken_config()?)
        .project_dir(root)
        .discover(Some(project));
    if let Ok(store) = TrustStore::open_default() {
        builder = builder.trust_store(store);
    }
    if let Some(cache) = &options.cache {
        // Everything else the load reads (the environment, the working directory) is the
        // process's, the same for every call a cache serves.
        let key = format!(
            "{}\n{}\n{:?}",
            dialect.as_str(),
            project.display(),
            options.program
        );
        builder = builder.load_cache(Arc::clone(cache), key);
    }
    Ok(without_own_files(builder, agent))
}

/// What a broken config file of the user's own means: `$HOOKS_ON_BROKEN_CONFIG`, else
/// block.
fn on_broken_config() -> Result<BrokenConfig, Error> {
    match std::env::var(ON_BROKEN_CONFIG_VAR) {
        Ok(text) if !text.is_empty() => BrokenConfig::parse(&text).with_context(|| {
            format!("{ON_BROKEN_CONFIG_VAR} is `{text}`; it takes `block` or `allow`")
        }),
        _ => Ok(BrokenConfig::default()),
    }
}

/// `builder` without the files the agent reads hooks from itself: the bridge does not run
/// their hooks again. An agent whose own files are named ([`OwnFiles::Named`], Claude
/// Code's settings files) skips those by path ([`EngineBuilder::skip_discovered_if`]);
/// every other agent skips every discovered file of its dialect
/// ([`EngineBuilder::skip_discovered_dialect`]), among the files the engine discovers
/// anyway, not by a discovery of their own.
pub fn without_own_files(builder: EngineBuilder, agent: &Agent) -> EngineBuilder {
    match agent.own_files {
        OwnFiles::Named(is_own) => builder.skip_discovered_if(is_own),
        OwnFiles::Dialect => builder.skip_discovered_dialect(agent.dialect),
    }
}

/// What the bridge dispatches the event to: the engine, built as `hooks run` builds it,
/// plus the bridge's parts.
struct Prepared {
    engine: Engine,
    store: Option<StateStore>,
    session: String,
}

/// The engine for the event of `ctx`, whose `cwd` it defaults to the project root, with
/// the state store the call opened (the session's stop-loop counts, the audit log).
fn prepare(
    agent: &Agent,
    ctx: &mut EventContext,
    store: Option<StateStore>,
    options: &Options,
) -> Result<Prepared, Error> {
    let root = project_root(agent, ctx, options.cache.as_deref())?;
    if ctx.get("cwd").is_none() {
        ctx.set("cwd", root.display().to_string());
    }
    let session = ctx.get_str("session_id").unwrap_or_default().to_owned();
    let mut builder = engine_builder(agent.dialect, &root, options)?.hand_off_async(true);
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
fn audit_log(agent: &Agent, store: Option<&StateStore>) -> Option<AuditLog> {
    let path = match std::env::var_os(AUDIT_LOG_VAR).filter(|p| !p.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => store?.audit_path(),
    };
    AuditLog::open(path)
        .ok()
        .map(|log| log.with_agent(agent.name()))
}

thread_local! {
    /// The async runtime a thread dispatches with: made at its first dispatch, kept for
    /// the next (a worker of the resident engine answers many calls on one thread).
    static RUNTIME: std::cell::OnceCell<tokio::runtime::Runtime> =
        const { std::cell::OnceCell::new() };
}

/// Dispatches the event and folds in what the store holds for the session (the results
/// of async hooks finished since the last event); `stdin` is the event as the agent wrote
/// it, for the async worker. The `recorder` of the dispatch `started` then is set once the
/// engine is built, when its config and the environment turn export on, and hears of the
/// hooks matched; it stays unset when another call of the same event answers (that call
/// records it).
fn dispatch(
    agent: &Agent,
    ctx: &mut EventContext,
    stdin: &[u8],
    options: &Options,
    started: SystemTime,
    recorder: &mut Option<Recorder>,
) -> Result<Aggregate, Error> {
    let event = ctx.event().clone();
    let began = fold::now_ms();
    let store = StateStore::open();
    let key = fold::key(ctx, stdin, !agent.runs_files_of.is_empty());
    let claims = store.clone().zip(key);
    // Whether another call of the same event (another bridge of this engine the agent
    // also runs) answered it: then this one answers with its decision.
    let other_answer = |create: bool| {
        claims
            .as_ref()
            .and_then(|(s, k)| fold::claim(s, k, create, began))
    };
    // A process that loads its config afresh asks before loading it. One that keeps its
    // configs (a resident engine's worker) loads first, at little cost, and asks once:
    // when it claims the event, or, with nothing to run, without claiming it.
    let asks_first = options.cache.is_none();
    if asks_first && let Some(fold::Claim::Answered(effects)) = other_answer(false) {
        return Ok(answered(agent, ctx, store.as_ref(), *effects));
    }
    let Prepared {
        engine,
        store,
        session,
    } = match prepare(agent, ctx, store, options) {
        Ok(prepared) => prepared,
        Err(e) => {
            if !asks_first && let Some(fold::Claim::Answered(effects)) = other_answer(false) {
                let store = claims.as_ref().map(|(s, _)| s);
                return Ok(answered(agent, ctx, store, *effects));
            }
            return Err(e);
        }
    };
    let index = engine.dispatcher().index();
    let matched = index.matching(ctx);
    // The first call claims the event, unless it has nothing to answer: no hook matches
    // and the session has no state (no async results to deliver, no stop-loop count).
    // Another call then finds nothing to run either, and both answer alike, without a
    // claim file written per event.
    let mut held = None;
    if let Some((claims, _)) = &claims {
        let claiming = !matched.is_empty() || claims.has_session(&session);
        if claiming || !asks_first {
            match other_answer(claiming) {
                Some(fold::Claim::Answered(effects)) => {
                    return Ok(answered(agent, ctx, Some(claims), *effects));
                }
                Some(fold::Claim::Held(h)) => held = Some(h),
                None => {}
            }
        }
    }
    let ctx = &*ctx;
    let has_async = matched.iter().any(|&i| index.spec(i).is_async);
    let has_sync = matched.iter().any(|&i| !index.spec(i).is_async);
    *recorder = Recorder::start(started, engine.loaded().hooks.telemetry());
    if let Some(recorder) = recorder {
        recorder.matched(matched.iter().map(|&i| index.spec(i)));
    }
    let mut agg = if has_sync {
        RUNTIME.with(|kept| -> Result<Aggregate, Error> {
            let runtime = match kept.get() {
                Some(runtime) => runtime,
                None => {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .context("starting the async runtime")?;
                    kept.get_or_init(|| runtime)
                }
            };
            Ok(runtime.block_on(engine.dispatch(ctx)))
        })?
    } else {
        Aggregate::empty(&event)
    };
    if has_async {
        start_worker(agent, stdin, options, &mut agg);
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
    if let Some(var) = agent.env_file {
        export_env(var, &agg);
    }
    Ok(agg)
}

/// The answer of a call whose event another call answered: that call's effects, noted
/// in the audit log.
fn answered(
    agent: &Agent,
    ctx: &EventContext,
    store: Option<&StateStore>,
    effects: Effects,
) -> Aggregate {
    let mut agg = Aggregate::empty(ctx.event());
    agg.effects = effects;
    if let Some(log) = audit_log(agent, store) {
        log.record_note(
            ctx,
            "answered with the decision of another call of the same event, which ran the hooks",
        );
    }
    agg
}

/// Starts the detached background process that runs the event's async hooks; says so in
/// the answer's messages if it cannot be started.
fn start_worker(agent: &Agent, stdin: &[u8], options: &Options, agg: &mut Aggregate) {
    let Some(exe) = &options.program else {
        agg.effects
            .messages
            .push("hooks bridge: async hooks not run: the hooks program is unknown".to_owned());
        return;
    };
    let mut argv = vec![
        exe.clone().into_os_string(),
        "bridge".into(),
        agent.name().into(),
    ];
    if let Some(event) = &options.event {
        argv.push(event.into());
    }
    argv.push("--async-worker".into());
    if let Err(e) = crate::exec::spawn_detached(&argv, stdin) {
        agg.effects
            .messages
            .push(format!("hooks bridge: async hooks not run: {e}"));
    }
}

/// The background process of a call whose event has async hooks (the `hooks` program
/// started with `bridge AGENT --async-worker` and the event on its stdin): runs the
/// event's async hooks (each bounded by its timeout, audited), and keeps their context and
/// messages in the store for the session's next event. `false`: the event is not one this
/// engine knows.
pub fn run_async(dialect: Dialect, payload: Value, options: &Options) -> Result<bool, Error> {
    let agent = agents::caller(agent_of(dialect)?, &payload);
    let Some(mut ctx) = event_of(agent, payload, options.event.as_deref())? else {
        return Ok(false);
    };
    let event = ctx.event().clone();
    let Prepared {
        engine,
        store,
        session,
    } = prepare(agent, &mut ctx, StateStore::open(), options)?;
    let index = engine.dispatcher().index();
    let specs: Vec<_> = index
        .matching(&ctx)
        .into_iter()
        .map(|i| index.spec(i))
        .filter(|s| s.is_async)
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
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
    Ok(true)
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
    if tool_event && !errors_allowed() {
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

/// Whether `HOOKS_BRIDGE_ON_ERROR=allow` lets a call through when the engine fails.
fn errors_allowed() -> bool {
    std::env::var(ON_ERROR_VAR).is_ok_and(|v| v.trim().eq_ignore_ascii_case("allow"))
}

/// Appends what the hooks exported to the file the variable `var` names (Claude Code's
/// `CLAUDE_ENV_FILE`), which the agent sources before its later shell commands.
fn export_env(var: &str, agg: &Aggregate) {
    if agg.effects.env.is_empty() {
        return;
    }
    let Some(file) = std::env::var_os(var).filter(|f| !f.is_empty()) else {
        return;
    };
    let mut text = String::new();
    for (name, value) in &agg.effects.env {
        text.push_str(&format!(
            "export {name}={}\n",
            crate::config::shell_quote(value)
        ));
    }
    let _ = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(file)
        .and_then(|mut f| f.write_all(text.as_bytes()));
}
