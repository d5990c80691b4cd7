//! What the commands share for output and input: colours when stdout is a terminal, the
//! human form of an event's outcome, one-line summaries of events, and resolving an event
//! name and payload into a context.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

use anyhow::Result;
use hooks::core::{
    Aggregate, Decision, Event, EventCatalog, EventContext, HookReport, HookSpec, HookStatus,
};
use hooks::{Engine, EngineBuilder};
use serde_json::Value;

use crate::cli::ConfigArgs;

pub use hooks_server::report::{shown_path, trust_command, warnings};

/// The `--color` flag of this run: 0 `auto`, 1 `always`, 2 `never`.
static COLOR: AtomicU8 = AtomicU8::new(0);

/// Sets what the global `--color` flag said; [`Style::stdout`] obeys it.
pub fn set_color(choice: clap::ColorChoice) {
    let value = match choice {
        clap::ColorChoice::Auto => 0,
        clap::ColorChoice::Always => 1,
        clap::ColorChoice::Never => 2,
    };
    COLOR.store(value, Ordering::Relaxed);
}

/// ANSI colours. `--color always` and `--color never` decide; with `--color auto` (the
/// default) colours are on only when stdout is a terminal and `NO_COLOR` is unset (see
/// <https://no-color.org>), and `CLICOLOR_FORCE=1` turns them on for pipes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    color: bool,
}

impl Style {
    /// The style for stdout: the one place where colour is decided.
    pub fn stdout() -> Style {
        let color = match COLOR.load(Ordering::Relaxed) {
            1 => true,
            2 => false,
            _ => {
                let forced = std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| v != "0");
                let banned = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !banned && (forced || std::io::stdout().is_terminal())
            }
        };
        Style { color }
    }

    /// A style that never colours.
    pub fn plain() -> Style {
        Style { color: false }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// Bold text.
    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Dim text, for details.
    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Red text, for blocks, denials and failures.
    pub fn red(self, text: &str) -> String {
        self.paint("31", text)
    }

    /// Green text, for what runs and passes.
    pub fn green(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Yellow text, for questions and warnings.
    pub fn yellow(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// Cyan text, for event names.
    pub fn cyan(self, text: &str) -> String {
        self.paint("36", text)
    }

    /// A decision's name, coloured by how restrictive it is.
    pub fn decision(self, decision: Decision) -> String {
        let name = decision.as_str();
        match decision {
            Decision::Block | Decision::Deny => self.red(name),
            Decision::Ask | Decision::Defer => self.yellow(name),
            Decision::Allow => self.green(name),
            _ => self.dim(name),
        }
    }

    /// A hook status, coloured.
    pub fn status(self, status: HookStatus) -> String {
        let name = status.as_str();
        match status {
            HookStatus::Ok => self.green(name),
            HookStatus::Blocked | HookStatus::Failed | HookStatus::TimedOut => self.red(name),
            _ => self.dim(name),
        }
    }
}

/// Builds the engine for `args`; a config that does not load is one error listing every
/// diagnostic, each with file:line:col.
pub fn load_engine(args: &ConfigArgs) -> Result<Engine> {
    load_engine_from(super::engine_builder(args)?)
}

/// Says on stderr which config files of `engine` did not load and why (a device, a FIFO, a
/// parse error), one warning each; the file's hooks do not run, so a command that goes on
/// without them must say so. Stderr, so that `--json` output stays one object.
pub fn note_broken_files(engine: &Engine) -> Result<()> {
    use std::io::Write as _;
    let mut err = std::io::stderr().lock();
    for note in engine.loaded().broken_notes() {
        writeln!(err, "{note}")?;
    }
    Ok(())
}

/// Builds `builder`'s engine, with [`load_engine`]'s error.
pub fn load_engine_from(builder: EngineBuilder) -> Result<Engine> {
    builder.build().map_err(|e| match e {
        hooks::Error::Config(e) => {
            let diagnostics = e.diagnostics();
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            let text: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
            anyhow::anyhow!(
                "the config does not load ({errors} error{}):\n{}",
                plural(errors),
                text.join("\n")
            )
        }
        other => anyhow::Error::new(other),
    })
}

/// Resolves an event name in any dialect's spelling, with a did-you-mean on a typo.
pub fn resolve_event(name: &str) -> Result<Event> {
    EventCatalog::new()
        .resolve(name)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// The context of the event named `name` with `payload`'s fields, as the agent `from`
/// sent it (default: the agent whose spelling `name` is, else Claude Code): a payload in
/// the agent's own shape (Cline's `hookName`, `taskId`, `preToolUse`) reshaped by its
/// profile, then read through that profile into the canonical vocabulary (its tool names
/// and arguments), so that every hook is matched against and given its own agent's names.
pub fn event_context(name: &str, payload: Value, from: Option<&str>) -> Result<EventContext> {
    let event = resolve_event(name)?;
    let sender = match from {
        Some(f) => hooks::core::Dialect::from_name(f)
            .ok_or_else(|| anyhow::anyhow!("unknown agent `{f}`"))?,
        None => event
            .info()
            .aliases()
            .iter()
            .find(|a| a.name == name && a.name != event.name())
            .map_or(hooks::core::Dialect::Claude, |a| a.dialect),
    };
    let profile = sender.profile();
    let mut payload = profile.reshape_to_claude(payload);
    object_or_null(&payload)?;
    // The event's name as its agent writes it (Cursor's `beforeShellExecution`, which its
    // profile reads differently from `preToolUse`) when the payload does not say.
    if let Value::Object(fields) = &mut payload {
        fields
            .entry("hook_event_name")
            .or_insert_with(|| Value::String(name.to_owned()));
    }
    profile
        .read_context(event, payload)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// The context of `event` with `payload`'s fields (an object, or null for none).
pub fn context(event: Event, payload: Value) -> Result<EventContext> {
    object_or_null(&payload)?;
    EventContext::from_value(event, payload).map_err(|e| anyhow::anyhow!("{e}"))
}

/// Refuses a payload that is neither a JSON object nor null.
fn object_or_null(payload: &Value) -> Result<()> {
    if !matches!(payload, Value::Object(_) | Value::Null) {
        anyhow::bail!(
            "the payload must be a JSON object, not {}",
            hooks::core::json_kind(payload)
        );
    }
    Ok(())
}

/// `""` or `"s"`.
pub fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `text` cut to `max` characters, with an ellipsis, on one line.
pub fn shorten(text: &str, max: usize) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match one_line.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

/// What an event is about, in a few words: the tool and its command or file for tool
/// events, the prompt, the session source, the agent type, else the matcher subjects.
pub fn subject(ctx: &EventContext) -> String {
    if let Some(tool) = ctx.tool_name() {
        let input = ctx.tool_input();
        let detail = input
            .and_then(|i| i.get("command"))
            .or_else(|| input.and_then(|i| i.get("file_path")))
            .or_else(|| input.and_then(|i| i.get("path")))
            .or_else(|| input.and_then(|i| i.get("url")))
            .and_then(Value::as_str);
        return match detail {
            Some(d) => format!("{tool}: {}", shorten(d, 60)),
            None => tool.to_owned(),
        };
    }
    if let Some(prompt) = ctx.get_str("prompt") {
        return format!("\"{}\"", shorten(prompt, 60));
    }
    let mut parts: Vec<String> = ctx
        .matcher_subjects()
        .map(|(field, value)| format!("{field}={}", shorten(&value, 40)))
        .collect();
    for key in ["reason", "stop_hook_active", "file_path", "change_type"] {
        if let Some(v) = ctx.get(key) {
            let v = match v {
                Value::String(s) => shorten(s, 40),
                other => other.to_string(),
            };
            let part = format!("{key}={v}");
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
    }
    parts.join(" ")
}

/// One hook's lines: status, exit code, decision and id, then its duration (last, so that
/// tests can mask it); a failure's account on a second line. Every line starts with
/// `indent` and ends with a newline.
pub fn hook_lines(style: Style, report: &HookReport, indent: &str) -> String {
    let status = report.run.status.as_str();
    let mut line = format!(
        "{indent}{}{}",
        style.status(report.run.status),
        pad(status, 9)
    );
    let exit = report
        .run
        .exit_code
        .map(|c| format!("exit {c}"))
        .unwrap_or_default();
    line.push_str(&format!("{exit:<9}"));
    let decision = match report.decision {
        Decision::None => String::new(),
        d => {
            line.push_str(&style.decision(d));
            d.as_str().to_owned()
        }
    };
    line.push_str(&pad(&decision, 6));
    line.push_str(&report.id);
    if report.run.truncated() {
        line.push_str(&format!("  {}", style.yellow("(output truncated)")));
    }
    if let Some(ms) = report.run.duration_ms() {
        line.push_str(&format!("  {}", style.dim(&format!("{ms} ms"))));
    }
    line.push('\n');
    if let Some(failure) = &report.run.failure {
        line.push_str(&format!(
            "{indent}  {}\n",
            style.red(&format!(
                "{}: {}",
                failure.kind.as_str(),
                shorten(&failure.message, 160)
            ))
        ));
    }
    line
}

/// Spaces that pad `printed` (visible text) to `width`, at least one.
fn pad(printed: &str, width: usize) -> String {
    " ".repeat(width.saturating_sub(printed.chars().count()).max(1))
}

/// The whole outcome of one event, for `hooks run` and `hooks test`: decision and reason,
/// each hook, then what the hooks returned. Every line starts with `indent`.
pub fn outcome(style: Style, agg: &Aggregate, indent: &str) -> String {
    let mut out = String::new();
    let verdict = if agg.is_blocked() {
        String::new()
    } else {
        format!(" ({})", style.green("proceed"))
    };
    let _ = writeln!(
        out,
        "{indent}{}: {}{verdict}",
        style.cyan(&agg.event),
        style.decision(agg.effects.decision)
    );
    if let Some(reason) = &agg.effects.reason {
        let _ = writeln!(out, "{indent}  reason: {reason}");
    }
    details(&mut out, style, agg, indent);
    if agg.hooks.is_empty() {
        let _ = writeln!(out, "{indent}  no hook matched");
    } else {
        let _ = writeln!(out, "{indent}  hooks:");
        for report in &agg.hooks {
            out.push_str(&hook_lines(style, report, &format!("{indent}    ")));
            let _ = writeln!(out, "{indent}      {}", style.dim(&report.source));
        }
    }
    out
}

/// The fields hooks returned, one per line: stop, rewritten input, context, messages,
/// conflicts and ignored fields.
pub fn details(out: &mut String, style: Style, agg: &Aggregate, indent: &str) {
    if !agg.effects.continue_ {
        let reason = agg
            .effects
            .stop_reason
            .as_deref()
            .unwrap_or("no reason given");
        let _ = writeln!(
            out,
            "{indent}  {} {reason}",
            style.red("stop: the agent is asked to stop:")
        );
    }
    if let Some(input) = &agg.effects.updated_input {
        let _ = writeln!(out, "{indent}  updated input: {input}");
    }
    if agg.effects.skip {
        let _ = writeln!(out, "{indent}  skip: a hook asks to skip this step");
    }
    if let Some(edge) = &agg.effects.override_edge {
        let _ = writeln!(out, "{indent}  override: take the edge to `{edge}`");
    }
    for text in &agg.effects.additional_context {
        let _ = writeln!(out, "{indent}  context: {}", shorten(text, 160));
    }
    if let Some(text) = &agg.effects.system_message {
        let _ = writeln!(out, "{indent}  system message: {}", shorten(text, 160));
    }
    for text in &agg.effects.messages {
        let _ = writeln!(out, "{indent}  message: {}", shorten(text, 160));
    }
    for c in &agg.conflicts {
        let _ = writeln!(
            out,
            "{indent}  {} {}: `{}` replaced `{}`",
            style.yellow("conflict:"),
            c.field,
            c.kept,
            c.overridden
        );
    }
    for i in &agg.ignored {
        let _ = writeln!(
            out,
            "{indent}  ignored: {} from `{}` ({})",
            i.field, i.hook, i.reason
        );
    }
}

/// The async hooks `ctx` selects: they are queued, never part of the outcome.
pub fn async_matches(engine: &Engine, ctx: &EventContext) -> Vec<String> {
    let index = engine.dispatcher().index();
    index
        .matching(ctx)
        .into_iter()
        .map(|i| index.spec(i))
        .filter(|spec| spec.is_async)
        .map(HookSpec::display_id)
        .collect()
}
