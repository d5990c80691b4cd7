//! `hooks replay SESSION.jsonl [--json]`: replays a recorded session, one
//! `{"event": .., "payload": ..}` per line, through the configured hooks, and prints per
//! event what fired and what was decided, then a summary.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use anyhow::{Context as _, Result};
use hooks::core::{Aggregate, Decision, EventContext, HookStatus};
use serde_json::Value;

use super::notes::{Note, Why};
use super::render::{self, Style, plural};
use crate::cli::ReplayArgs;

/// One event of the session, with the line it came from.
#[derive(Debug)]
pub struct Step {
    /// 1-based line number in the session file.
    pub line: usize,
    /// The event's context.
    pub ctx: EventContext,
}

/// Reads a session: every non-blank line must be UTF-8 text holding
/// `{"event": NAME, "payload": {..}}` (`payload` may be left out). All malformed lines are
/// reported at once, each as `FILE:LINE: ...`, before any event runs, so that a bad line
/// never leaves a session half replayed.
pub fn parse_session(path: &Path, bytes: &[u8]) -> Result<Vec<Step>> {
    let mut steps = Vec::new();
    let mut errors = Vec::new();
    // Lines as `str::lines` splits them (`\n`, a `\r` before it dropped, no empty last
    // line), but each decoded on its own, so that a bad byte names its line.
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = i + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = match std::str::from_utf8(raw) {
            Ok(line) => line,
            Err(e) => {
                errors.push(format!(
                    "{}:{number}: not valid UTF-8 (byte {} of the line is not part of a \
                     character)",
                    path.display(),
                    e.valid_up_to() + 1
                ));
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(ctx) => steps.push(Step { line: number, ctx }),
            Err(e) => errors.push(format!("{}:{number}: {e}", path.display())),
        }
    }
    if !errors.is_empty() {
        anyhow::bail!(
            "the session has {} malformed line{}:\n{}",
            errors.len(),
            plural(errors.len()),
            errors.join("\n")
        );
    }
    Ok(steps)
}

fn parse_line(line: &str) -> Result<EventContext> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| anyhow::anyhow!("not valid JSON: {e}"))?;
    let Value::Object(mut object) = value else {
        anyhow::bail!("expected an object {{\"event\": .., \"payload\": ..}}");
    };
    let name = match object.remove("event") {
        Some(Value::String(name)) => name,
        Some(_) => anyhow::bail!("`event` must be a string"),
        None => anyhow::bail!("missing `event`"),
    };
    let payload = object.remove("payload").unwrap_or(Value::Null);
    if let Some(key) = object.keys().next() {
        anyhow::bail!("unknown key `{key}` (a line holds `event` and `payload`)");
    }
    render::event_context(&name, payload, None)
}

/// What a replay counted, for the summary.
#[derive(Debug, Default)]
struct Tally {
    events: usize,
    with_hooks: usize,
    runs: usize,
    by_status: [usize; 5],
    async_queued: usize,
    decisions: Vec<(Decision, usize)>,
    rewritten: usize,
    context: usize,
    stops: usize,
    blocked: Vec<String>,
    failures: Vec<String>,
    /// Hooks' descriptions by display id, shown under their failures: a failure that is
    /// a demonstration says so.
    descriptions: std::collections::HashMap<String, String>,
}

impl Tally {
    fn add(&mut self, number: usize, ctx: &EventContext, agg: &Aggregate, queued: usize) {
        self.events += 1;
        self.async_queued += queued;
        if !agg.hooks.is_empty() || queued > 0 {
            self.with_hooks += 1;
        }
        self.runs += agg.hooks.len();
        for report in &agg.hooks {
            self.by_status[status_slot(report.run.status)] += 1;
            if let Some(failure) = &report.run.failure {
                let mut line = format!(
                    "#{number} {} `{}`: {}",
                    agg.event,
                    report.id,
                    render::shorten(&failure.message, 100)
                );
                if let Some(description) = self.descriptions.get(&report.id) {
                    let _ = write!(line, "\n      ({description})");
                }
                self.failures.push(line);
            }
        }
        if agg.effects.decision != Decision::None {
            match self
                .decisions
                .iter_mut()
                .find(|(d, _)| *d == agg.effects.decision)
            {
                Some((_, n)) => *n += 1,
                None => self.decisions.push((agg.effects.decision, 1)),
            }
        }
        if agg.effects.updated_input.is_some() {
            self.rewritten += 1;
        }
        self.context += agg.effects.additional_context.len();
        if !agg.effects.continue_ {
            self.stops += 1;
        }
        if agg.is_blocked() {
            let by: Vec<&str> = agg
                .hooks
                .iter()
                .filter(|h| h.decision.is_blocking())
                .map(|h| h.id.as_str())
                .collect();
            self.blocked.push(format!(
                "#{number} {} {} ({} by {}): {}",
                agg.event,
                render::subject(ctx),
                agg.effects.decision,
                by.join(", "),
                render::shorten(
                    agg.effects.reason.as_deref().unwrap_or("no reason given"),
                    100
                )
            ));
        }
    }

    fn write(&self, out: &mut String, style: Style) {
        let _ = writeln!(out, "{}", style.bold("Summary"));
        let _ = writeln!(
            out,
            "  events     {} replayed, {} with hooks",
            self.events, self.with_hooks
        );
        let names = ["ok", "blocked", "failed", "timed out", "skipped"];
        let statuses: Vec<String> = names
            .iter()
            .zip(self.by_status)
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("{n} {name}"))
            .collect();
        let _ = writeln!(
            out,
            "  hook runs  {}{}{}",
            self.runs,
            if statuses.is_empty() {
                String::new()
            } else {
                format!(" ({})", statuses.join(", "))
            },
            if self.async_queued > 0 {
                format!(", {} async in the background", self.async_queued)
            } else {
                String::new()
            }
        );
        let mut decisions = self.decisions.clone();
        decisions.sort_by_key(|d| std::cmp::Reverse(d.0));
        let decided: Vec<String> = decisions
            .iter()
            .map(|(d, n)| format!("{n} {}", style.decision(*d)))
            .collect();
        let proceeded = self.events - decisions.iter().map(|(_, n)| n).sum::<usize>();
        let _ = writeln!(
            out,
            "  decisions  {}{proceeded} with no decision",
            if decided.is_empty() {
                String::new()
            } else {
                format!("{}, ", decided.join(", "))
            }
        );
        let _ = writeln!(
            out,
            "  changes    {} input{} rewritten, {} context addition{} for the model, {} stop request{}",
            self.rewritten,
            plural(self.rewritten),
            self.context,
            plural(self.context),
            self.stops,
            plural(self.stops)
        );
        if !self.blocked.is_empty() {
            let _ = writeln!(out, "  {}:", style.red("blocked or denied"));
            for line in &self.blocked {
                let _ = writeln!(out, "    {line}");
            }
        }
        if !self.failures.is_empty() {
            let _ = writeln!(out, "  {}:", style.yellow("hook failures"));
            for line in &self.failures {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
}

fn status_slot(status: HookStatus) -> usize {
    match status {
        HookStatus::Ok => 0,
        HookStatus::Blocked => 1,
        HookStatus::Failed => 2,
        HookStatus::TimedOut => 3,
        _ => 4,
    }
}

/// Replays the session; exit 0 when it replayed (whatever the hooks decided), 1 on a
/// malformed session or a config that does not load.
pub fn run(args: &ReplayArgs) -> Result<u8> {
    let bytes = std::fs::read(&args.session)
        .with_context(|| format!("reading {}", args.session.display()))?;
    let mut steps = parse_session(&args.session, &bytes)?;
    let project = super::project_dir(&args.config)?;
    for step in &mut steps {
        super::default_cwd(&mut step.ctx, &project);
    }
    let engine = render::load_engine(&args.config)?;
    render::note_broken_files(&engine)?;
    let style = Style::stdout();
    let mut out = std::io::stdout().lock();
    if !args.json {
        let loaded = engine.loaded();
        let active = loaded
            .hooks
            .hooks()
            .iter()
            .filter(|h| h.is_active())
            .count();
        writeln!(
            out,
            "Replaying {} ({} event{}) through {active} active hook{} from {} file{}",
            args.session.display(),
            steps.len(),
            plural(steps.len()),
            plural(active),
            loaded.files.len(),
            plural(loaded.files.len())
        )?;
    }
    let runtime = super::runtime()?;
    let why = Why::new(&engine, &args.config)?;
    let mut tally = Tally::default();
    for hook in engine.loaded().hooks.hooks() {
        if let Some(description) = &hook.spec.description {
            tally
                .descriptions
                .entry(hook.spec.display_id())
                .or_insert_with(|| description.clone());
        }
    }
    // Why events ran nothing, each reason once with the number of events it explains.
    let mut reasons: Vec<(Note, usize)> = Vec::new();
    for (n, step) in steps.iter().enumerate() {
        let number = n + 1;
        let queued = render::async_matches(&engine, &step.ctx);
        let agg = runtime.block_on(engine.dispatch(&step.ctx));
        tally.add(number, &step.ctx, &agg, queued.len());
        let notes = why.notes(&step.ctx, &agg, &queued);
        if args.json {
            let line = super::run::with_notes(&agg, &notes)?;
            writeln!(out, "{}", serde_json::to_string(&line)?)?;
        } else {
            write!(out, "{}", event_block(style, number, step, &agg, &queued))?;
        }
        // The per-event blocks and the summary already name the async hooks and count
        // the events with none.
        for note in notes
            .into_iter()
            .filter(|n| n.kind != "async" && n.kind != "no_match")
        {
            match reasons.iter_mut().find(|(seen, _)| *seen == note) {
                Some((_, count)) => *count += 1,
                None => reasons.push((note, 1)),
            }
        }
    }
    runtime.block_on(engine.dispatcher().flush_async());
    if !args.json {
        let mut summary = String::new();
        tally.write(&mut summary, style);
        write!(out, "\n{summary}")?;
        drop(out);
        let mut err = std::io::stderr().lock();
        for (mut note, count) in reasons {
            note.message = format!("{} ({count} event{})", note.message, plural(count));
            write!(err, "{}", note.human())?;
        }
    }
    Ok(0)
}

/// One event's block: the event and its subject, the outcome, each hook that ran, what
/// they returned, and the async hooks queued.
fn event_block(
    style: Style,
    number: usize,
    step: &Step,
    agg: &Aggregate,
    queued: &[String],
) -> String {
    let mut out = String::new();
    let verdict = if agg.is_blocked() {
        style.red(&agg.effects.decision.as_str().to_uppercase())
    } else if agg.hooks.is_empty() {
        style.dim("proceed")
    } else if agg.effects.decision == Decision::None {
        style.green("proceed")
    } else {
        style.decision(agg.effects.decision)
    };
    let mut subject = render::subject(&step.ctx);
    if !subject.is_empty() {
        subject.insert(0, ' ');
    }
    let _ = writeln!(
        out,
        "\n#{number:<3}{}{subject}  -> {verdict}",
        style.cyan(&agg.event),
    );
    if let Some(reason) = &agg.effects.reason {
        let _ = writeln!(out, "      reason: {}", render::shorten(reason, 160));
    }
    for report in &agg.hooks {
        out.push_str(&render::hook_lines(style, report, "      "));
    }
    if !queued.is_empty() {
        let _ = writeln!(
            out,
            "      {}",
            style.dim(&format!("async: {}", queued.join(", ")))
        );
    }
    render::details(&mut out, style, agg, "    ");
    out
}
