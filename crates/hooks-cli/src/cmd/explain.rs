//! `hooks explain EVENT [-p PAYLOAD] [--json]`: which hooks an event would run and why each
//! other hook would not, without running anything.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Result;
use hooks::core::EventContext;
use hooks_server::report;

use super::render::{self, Style, plural};
use crate::cli::ExplainArgs;

pub use hooks_server::report::{Verdict, every_hook, verdicts, verdicts_in};

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
        let line = report::explain(&loaded.hooks, &ctx);
        writeln!(out, "{}", serde_json::to_string(&line)?)?;
    } else {
        let all = verdicts(&loaded.hooks, &ctx);
        let (same, other): (Vec<&Verdict<'_>>, Vec<&Verdict<'_>>) =
            all.iter().partition(|v| v.hook.spec.event == *ctx.event());
        write!(out, "{}", human(Style::stdout(), &ctx, &same, other.len()))?;
    }
    Ok(0)
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
