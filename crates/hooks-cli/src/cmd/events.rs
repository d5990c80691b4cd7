//! `hooks events [EVENT] [--json]`: the event catalog, or one event in detail.

use std::io::Write;

use anyhow::Result;
use hooks::core::{BuiltinEvent, EventCatalog, EventInfo, Fields};

use crate::cli::EventsArgs;

/// Where the second line of an event starts: under its aliases.
const INDENT: usize = 29;

/// Prints every built-in event (name, whether it blocks, aliases, description, then an
/// indented line with its matcher fields and the fields it honours), or one event in
/// detail with `EVENT`; one JSON object per line with `--json`.
pub fn run(args: &EventsArgs) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    let one = match &args.event {
        Some(name) => Some(EventCatalog::new().resolve(name)?),
        None => None,
    };
    let events: Vec<&EventInfo> = match &one {
        Some(event) => vec![event.info()],
        None => BuiltinEvent::ALL.iter().map(|e| e.info()).collect(),
    };
    for info in events {
        if args.json {
            writeln!(out, "{}", json(info))?;
        } else if one.is_some() {
            detail(&mut out, info)?;
        } else {
            row(&mut out, info)?;
        }
    }
    if !args.json && one.is_none() {
        writeln!(
            out,
            "\nEvery event also honours continue, stopReason and systemMessage. \
             `hooks events EVENT` shows one event."
        )?;
    }
    Ok(0)
}

fn json(info: &EventInfo) -> serde_json::Value {
    let aliases: serde_json::Map<String, serde_json::Value> = info
        .aliases()
        .iter()
        .map(|a| (a.dialect.as_str().to_owned(), a.name.clone().into()))
        .collect();
    serde_json::json!({
        "name": info.name(),
        "aliases": aliases,
        "matcher_fields": info.matcher_fields(),
        "can_block": info.can_block(),
        "honours": info.honoured().names(),
        "description": info.describe(),
    })
}

/// The optional fields an event honours besides blocking (which has its own column).
fn honours(info: &EventInfo) -> Vec<&'static str> {
    let block = Fields::BLOCK.names();
    info.honoured()
        .names()
        .into_iter()
        .filter(|n| !block.contains(n))
        .collect()
}

/// What a hook's matcher is tried against.
fn matcher(info: &EventInfo) -> String {
    if info.matcher_fields().is_empty() {
        "no matcher (every hook matches)".to_owned()
    } else {
        format!("matcher on {}", info.matcher_fields().join(", "))
    }
}

fn row(out: &mut impl Write, info: &EventInfo) -> Result<()> {
    let aliases: Vec<String> = info
        .aliases()
        .iter()
        .map(|a| format!("{}={}", a.dialect, a.name))
        .collect();
    let block = if info.can_block() { "blocks" } else { "      " };
    writeln!(
        out,
        "{:<20} {block}  {:<40} {}",
        info.name(),
        aliases.join(" "),
        info.describe()
    )?;
    let honours = match honours(info)[..] {
        [] => "the common fields only".to_owned(),
        ref names => names.join(", "),
    };
    writeln!(out, "{:INDENT$}{}; honours {honours}", "", matcher(info))?;
    Ok(())
}

fn detail(out: &mut impl Write, info: &EventInfo) -> Result<()> {
    writeln!(out, "{}", info.name())?;
    writeln!(out, "  {}", info.describe())?;
    let aliases: Vec<String> = info
        .aliases()
        .iter()
        .map(|a| format!("{} `{}`", a.dialect, a.name))
        .collect();
    if !aliases.is_empty() {
        writeln!(out, "  also named: {}", aliases.join(", "))?;
    }
    let matcher = if info.matcher_fields().is_empty() {
        "none: the event ignores matchers, every hook of it runs".to_owned()
    } else {
        format!(
            "{} (a hook fires when its matcher matches any of them)",
            info.matcher_fields().join(", ")
        )
    };
    writeln!(out, "  matcher fields: {matcher}")?;
    let blocks = if info.can_block() {
        "yes (exit code 2, `decision: \"block\"`, a failure under `on_failure: block`)"
    } else {
        "no"
    };
    writeln!(out, "  blocks: {blocks}")?;
    let honours = match honours(info)[..] {
        [] => "continue, stopReason and systemMessage only, as every event".to_owned(),
        ref names => format!(
            "{}, and continue, stopReason and systemMessage as every event",
            names.join(", ")
        ),
    };
    writeln!(out, "  honours: {honours}")?;
    Ok(())
}
