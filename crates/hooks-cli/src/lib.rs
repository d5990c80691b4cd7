//! The `hooks` command line, as a library so that its parts are testable: the binary in
//! `main.rs` only calls [`run`].
//!
//! Today it answers `hooks events [--json]` (the event catalog), `hooks builtin NAME` (the
//! built-in hooks, reading an event on stdin) and `--version`; the commands of the stable
//! contract (validate, list, explain, run, replay, ...) arrive with the config and exec
//! crates.

pub mod builtin;

use std::io::Write;

use anyhow::{Context, Result};
use hooks_core::BuiltinEvent;

const USAGE: &str = "\
usage: hooks <command>

commands:
  events [--json]   list the event catalog: names, aliases, matcher fields, what each honours
  builtin NAME      run a built-in hook on the event JSON read from stdin (security-guard)
  init [--dir DIR] [--force]
                    install the built-in hooks (all disabled) into DIR (default ~/.hooks)
  --version         print the version
";

/// Runs the command line `args` (without the program name); returns the exit code.
pub fn run(args: &[String]) -> u8 {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["events"] => events(false),
        ["events", "--json"] => events(true),
        ["builtin", name] => return builtin(name),
        ["init", rest @ ..] => init(rest),
        ["--version" | "-V"] => {
            writeln!(std::io::stdout(), "hooks {}", env!("CARGO_PKG_VERSION")).map_err(Into::into)
        }
        ["--help" | "-h" | "help"] => write!(std::io::stdout(), "{USAGE}").map_err(Into::into),
        _ => {
            let _ = write!(std::io::stderr(), "{USAGE}");
            return 1;
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            1
        }
    }
}

fn init(args: &[&str]) -> Result<()> {
    let mut dir: Option<std::path::PathBuf> = None;
    let mut force = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match *arg {
            "--force" => force = true,
            "--dir" => dir = Some(rest.next().context("--dir needs a directory")?.into()),
            other => anyhow::bail!(
                "unexpected argument `{other}` (usage: hooks init [--dir DIR] [--force])"
            ),
        }
    }
    let dir = match dir {
        Some(d) => d,
        None => match std::env::var_os("HOOKS_HOME") {
            Some(h) => h.into(),
            None => std::path::PathBuf::from(
                std::env::var_os("HOME").context("HOME is not set; pass --dir")?,
            )
            .join(".hooks"),
        },
    };
    let bin = std::env::current_exe().context("locating the hooks binary")?;
    let done = builtin::install(&dir, &bin, force)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "installed {} built-in scripts into {}",
        done.scripts.len(),
        dir.join("scripts").display()
    )?;
    if done.config_written {
        writeln!(
            out,
            "wrote {} (every hook disabled; enable with `hooks enable ID`)",
            done.config.display()
        )?;
    } else {
        writeln!(
            out,
            "kept the existing {} (use --force to replace it)",
            done.config.display()
        )?;
    }
    Ok(())
}

fn builtin(name: &str) -> u8 {
    match builtin::run(name, &mut std::io::stdin().lock()) {
        Ok((code, stderr)) => {
            if !stderr.is_empty() {
                let _ = writeln!(std::io::stderr(), "{stderr}");
            }
            code
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            1
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
