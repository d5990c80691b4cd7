//! `hooks run EVENT [-p PAYLOAD|-] [--json]`: dispatches one event through the configured
//! hooks and prints the outcome.

use std::io::Write;
use std::sync::Arc;
use std::time::SystemTime;

use anyhow::Result;
use hooks::core::{Aggregate, EventContext, HookSpec};
use hooks::exec::NotificationSink;
use hooks::telemetry::Recorder;
use serde_json::Value;

use super::notes::{Note, Why};
use super::render::{self, Style};
use crate::cli::RunArgs;
use hooks::bridge::state::StateStore;

/// Dispatches the event; exit 0 when the action may proceed, 2 when it is blocked or denied
/// (also when one of the user's own config files does not load, under
/// `--on-broken-config block`), 1 on a bad event name or payload.
///
/// `--json` prints exactly one object, the aggregate (see `docs/cli.md`); the human form
/// prints the decision, each hook's line, and what the hooks returned.
pub fn run(args: &RunArgs) -> Result<u8> {
    let mut ctx = render::event_context(
        &args.event,
        super::payload(args.payload.as_deref())?,
        args.from.as_deref(),
    )?;
    if hooks::exec::is_nested() {
        return nested(&ctx, args.json);
    }
    let config = super::for_event(&args.config, &ctx)?;
    super::default_cwd(&mut ctx, &super::project_dir(&config)?);
    let mut builder = super::engine_builder(&config)?.notification_sink(Arc::new(RewakeToStderr));
    // Each `hooks run` is its own process, as each of an agent's hook calls is: the
    // stop-loop counts of a session live in the state store `hooks bridge` keeps them in,
    // so that the cap holds across invocations (and across `run` and `bridge`).
    if let Some(session) = ctx.get_str("session_id").filter(|s| !s.is_empty())
        && let Some(store) = StateStore::open()
    {
        builder = builder.stop_streaks(Arc::new(store.streaks(session)));
    }
    let engine = render::load_engine_from(builder)?;
    // A file that does not load is skipped (or blocks the event); say so where a script
    // reading the outcome on stdout still gets one object.
    render::note_broken_files(&engine)?;
    let queued = render::async_matches(&engine, &ctx);
    // Telemetry: nothing is built unless the config's `telemetry` settings or the `OTEL_*`
    // variables turn export on.
    let mut recorder = Recorder::start(SystemTime::now(), engine.loaded().hooks.telemetry());
    if let Some(recorder) = &mut recorder {
        let index = engine.dispatcher().index();
        recorder.matched(index.matching(&ctx).into_iter().map(|i| index.spec(i)));
    }
    let runtime = super::runtime()?;
    let agg = runtime.block_on(engine.dispatch(&ctx));
    let notes = Why::new(&engine, &config)?.notes(&ctx, &agg, &queued);
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&with_notes(&agg, &notes)?)?
        )?;
    } else {
        // The human output already names the async hooks.
        let mut err = std::io::stderr().lock();
        for note in notes.iter().filter(|n| n.kind != "async") {
            write!(err, "{}", note.human())?;
        }
        drop(err);
        let style = Style::stdout();
        write!(out, "{}", render::outcome(style, &agg, ""))?;
        if !queued.is_empty() {
            writeln!(
                out,
                "  async (ran in the background): {}",
                queued.join(", ")
            )?;
        }
    }
    // The answer is out before the async hooks end; only then does the process wait
    // (bounded by their timeouts) for them, as a short-lived process must.
    out.flush()?;
    drop(out);
    if let Some(recorder) = recorder {
        // Spooled for a detached exporter, after the answer is out.
        let program = std::env::current_exe().ok();
        recorder.finish(&ctx, &agg, None, program.as_deref());
    }
    runtime.block_on(engine.dispatcher().flush_async());
    Ok(exit_code(&agg))
}

/// `hooks run` started inside a hook of the engine (`HOOKS_DEPTH` is set): the event
/// proceeds without dispatching, since the engine that started the hook runs these same
/// hooks, so no chain of hooks calling `hooks run` can recurse. Said on stderr, and in
/// `--json` as a note of kind `nested`.
fn nested(ctx: &EventContext, json: bool) -> Result<u8> {
    let agg = Aggregate::empty(ctx.event());
    let why = format!(
        "hooks run: started inside a hook of this engine ({}={}), so it does not run the hooks again (the engine that started this hook runs them)",
        hooks::exec::DEPTH_VAR,
        hooks::exec::nesting_depth()
    );
    writeln!(std::io::stderr().lock(), "{why}")?;
    let mut out = std::io::stdout().lock();
    if json {
        let note = Note::new("nested", why);
        writeln!(
            out,
            "{}",
            serde_json::to_string(&with_notes(&agg, &[note])?)?
        )?;
    } else {
        write!(out, "{}", render::outcome(Style::stdout(), &agg, ""))?;
    }
    Ok(exit_code(&agg))
}

/// The `--json` object of `agg`, with a `notes` array when nothing ran or a matching hook
/// waits for trust (see [`super::notes`]); without notes it is the aggregate alone.
pub fn with_notes(agg: &Aggregate, notes: &[Note]) -> Result<Value> {
    let mut value = serde_json::to_value(agg)?;
    if let (false, Value::Object(map)) = (notes.is_empty(), &mut value) {
        map.insert(
            "notes".to_owned(),
            Value::Array(notes.iter().map(Note::to_json).collect()),
        );
    }
    Ok(value)
}

/// 2 when the event is blocked or denied, else 0.
pub fn exit_code(agg: &Aggregate) -> u8 {
    if agg.is_blocked() { 2 } else { 0 }
}

/// Says on stderr when a background `asyncRewake` hook exits 2: the agent `hooks run`
/// stands in for would be woken with the message now.
struct RewakeToStderr;

impl NotificationSink for RewakeToStderr {
    fn rewake(&self, ctx: &EventContext, spec: &HookSpec, message: &str) {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "hooks: async hook `{}` ({}) on {} exited 2 and wakes the agent: {message}",
            spec.display_id(),
            spec.provenance,
            ctx.event().name()
        );
    }
}
