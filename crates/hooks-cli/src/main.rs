//! The `hooks` command line.
//!
//! Today it answers `hooks events [--json]` (the event catalog) and `--version`; the
//! commands of the stable contract (validate, list, explain, run, replay, ...) arrive with
//! the config and exec crates.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use hooks_core::BuiltinEvent;

const USAGE: &str = "\
usage: hooks <command>

commands:
  events [--json]   list the event catalog: names, aliases, matcher fields, what each honours
  --version         print the version
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["events"] => events(false),
        ["events", "--json"] => events(true),
        ["--version" | "-V"] => {
            writeln!(std::io::stdout(), "hooks {}", env!("CARGO_PKG_VERSION")).map_err(Into::into)
        }
        ["--help" | "-h" | "help"] => write!(std::io::stdout(), "{USAGE}").map_err(Into::into),
        _ => {
            let _ = write!(std::io::stderr(), "{USAGE}");
            return ExitCode::from(1);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn events(json: bool) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for &event in BuiltinEvent::ALL {
        let info = event.info();
        if json {
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
    Ok(())
}
