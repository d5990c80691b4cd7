//! `hooks events [--json]`: the event catalog.

use std::io::Write;

use anyhow::Result;
use hooks::core::BuiltinEvent;

use crate::cli::EventsArgs;

/// Prints every built-in event: name, aliases, whether it blocks, description; or one JSON
/// object per line with `--json`.
pub fn run(args: &EventsArgs) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    for &event in BuiltinEvent::ALL {
        let info = event.info();
        if args.json {
            let aliases: serde_json::Map<String, serde_json::Value> = info
                .aliases()
                .iter()
                .map(|a| (a.dialect.as_str().to_owned(), a.name.clone().into()))
                .collect();
            let line = serde_json::json!({
                "name": info.name(),
                "aliases": aliases,
                "matcher_fields": info.matcher_fields(),
                "can_block": info.can_block(),
                "honours": info.honoured().names(),
                "description": info.describe(),
            });
            writeln!(out, "{line}")?;
        } else {
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
        }
    }
    Ok(0)
}
