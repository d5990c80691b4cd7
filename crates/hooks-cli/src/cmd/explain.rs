//! `hooks explain EVENT [-p PAYLOAD] [--json]`: which hooks an event would run and why each
//! other hook would not, without running anything.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Result;
use hooks::config::{HookSet, MergedHook};
use hooks::core::{EventContext, HookIndex, Mismatch};
use serde_json::{Value, json};

use super::render::{self, Style, plural};
use crate::cli::ExplainArgs;

/// Why one hook would or would not run for the event.
#[derive(Debug)]
pub struct Verdict<'a> {
    /// Its position in the merged list.
    pub index: usize,
    /// The hook.
    pub hook: &'a MergedHook,
    /// Whether its event, matcher, filter and condition select the context (as if it
    /// were active).
    pub mismatch: Option<Mismatch>,
}

impl Verdict<'_> {
    /// Whether the hook would run: active and selected.
    pub fn runs(&self) -> bool {
        self.hook.is_active() && self.mismatch.is_none()
    }

    /// Why it would not run, in words; `None` when it runs.
    pub fn why_not(&self) -> Option<String> {
        let mut why = Vec::new();
        if let Some(inactive) = &self.hook.inactive {
            why.push(inactive.describe());
        }
        if let Some(mismatch) = &self.mismatch {
            why.push(mismatch.to_string());
        } else if !self.hook.is_active() {
            why.push("it would match otherwise".to_owned());
        }
        if why.is_empty() {
            None
        } else {
            Some(why.join("; "))
        }
    }
}

/// One verdict per hook of `set` for `ctx`, in merged declaration order. Inactive hooks
/// (disabled, untrusted, ...) are matched as if they were active, so that the reason says
/// both why they do not run and whether they would match.
pub fn verdicts<'a>(set: &'a HookSet, ctx: &EventContext) -> Vec<Verdict<'a>> {
    verdicts_in(&every_hook(set), set, ctx)
}

/// An index of every hook of `set`, active or not, as [`verdicts`] matches them: built
/// once for commands that explain many events.
pub fn every_hook(set: &HookSet) -> HookIndex {
    let specs = set
        .hooks()
        .iter()
        .map(|h| h.spec.clone().with_enabled(true))
        .collect();
    HookIndex::new(specs)
}

/// [`verdicts`] with the index [`every_hook`] built for `set`.
pub fn verdicts_in<'a>(
    index: &HookIndex,
    set: &'a HookSet,
    ctx: &EventContext,
) -> Vec<Verdict<'a>> {
    index
        .explain(ctx)
        .into_iter()
        .map(|report| Verdict {
            index: report.index.get(),
            hook: &set.hooks()[report.index.get()],
            mismatch: report.mismatch,
        })
        .collect()
}

/// Explains the event; exit 0, or 1 on a bad event, payload or config.
pub fn run(args: &ExplainArgs) -> Result<u8> {
    let mut ctx = render::event_context(
        &args.event,
        super::payload(args.payload.as_deref())?,
        args.from.as_deref(),
    )?;
    super::default_cwd(&mut ctx, &super::project_dir(&args.config)?);
    let engine = render::load_engine(&args.config)?;
    render::note_broken_files(&engine)?;
    let loaded = engine.loaded();
    let mut out = std::io::stdout().lock();
    if args.json {
        let line = to_json(&loaded.hooks, &ctx);
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
    } else {
        let all = verdicts(&loaded.hooks, &ctx);
        let (same, other): (Vec<&Verdict<'_>>, Vec<&Verdict<'_>>) =
            all.iter().partition(|v| v.hook.spec.event == *ctx.event());
        write!(out, "{}", human(Style::stdout(), &ctx, &same, other.len()))?;
    }
    Ok(0)
}

/// The JSON of `hooks explain --json` (also `hooks serve`'s `hooks/explain` result).
pub fn to_json(set: &HookSet, ctx: &EventContext) -> Value {
    let all = verdicts(set, ctx);
    let (same, other): (Vec<&Verdict<'_>>, Vec<&Verdict<'_>>) =
        all.iter().partition(|v| v.hook.spec.event == *ctx.event());
    let hooks: Vec<Value> = same
        .iter()
        .map(|v| {
            json!({
                "index": v.index,
                "id": v.hook.spec.display_id(),
                "source": v.hook.spec.provenance.to_string(),
                "runs": v.runs(),
                "async": v.hook.spec.is_async,
                "state": super::list::state(v.hook),
                "why_not": v.why_not(),
            })
        })
        .collect();
    json!({
        "event": ctx.event().name(),
        "subjects": ctx.matcher_subjects().map(|(f, v)| json!({"field": f, "value": v})).collect::<Vec<_>>(),
        "runs": same.iter().filter(|v| v.runs()).count(),
        "hooks": hooks,
        "other_events": other.len(),
    })
}

fn human(style: Style, ctx: &EventContext, same: &[&Verdict<'_>], other: usize) -> String {
    let mut out = String::new();
    let runs = same.iter().filter(|v| v.runs()).count();
    let subject = render::subject(ctx);
    let _ = writeln!(
        out,
        "{}{}: {runs} of {} hook{} would run",
        style.cyan(ctx.event().name()),
        if subject.is_empty() {
            String::new()
        } else {
            format!(" ({subject})")
        },
        same.len(),
        plural(same.len())
    );
    let fields = ctx.event().info().matcher_fields();
    if fields.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            style.dim("  (this event has no matcher fields: matchers are ignored)")
        );
    }
    for v in same {
        let spec = &v.hook.spec;
        let what = render::shorten(&spec.display_id(), 60);
        match v.why_not() {
            None => {
                let note = if spec.is_async { " (async)" } else { "" };
                let _ = writeln!(out, "  {} {what}{note}", style.green("runs   "));
            }
            Some(why) => {
                let _ = writeln!(out, "  {} {what}: {why}", style.yellow("skipped"));
            }
        }
        let _ = writeln!(out, "          {}", style.dim(&spec.provenance.to_string()));
    }
    if other > 0 {
        let _ = writeln!(
            out,
            "{}",
            style.dim(&format!(
                "  {other} other hook{} listen{} to other events",
                plural(other),
                if other == 1 { "s" } else { "" }
            ))
        );
    }
    out
}
