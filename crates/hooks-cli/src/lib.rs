//! The `hooks` command line, as a library so that its parts are testable: the binary in
//! `main.rs` only calls [`run`].
//!
//! The contract (commands, flags, JSON output, exit codes) is documented in `docs/cli.md`
//! and defined in [`cli`]; each command lives in its own module under [`cmd`].

pub mod builtin;
pub mod cli;
pub mod cmd;
pub mod handle;

use std::io::Write;

use clap::Parser;

/// Runs the command line `args` (without the program name); returns the exit code:
/// 0 success (for `hooks run`: proceed), 2 blocked or denied (`hooks run`, `hooks test`),
/// 1 any error (bad usage, bad config, a failed command).
pub fn run(args: &[String]) -> u8 {
    if let Some(bridge) = bridge_call(args) {
        return finish(cmd::bridge::run(&bridge));
    }
    let argv = std::iter::once("hooks".to_owned()).chain(args.iter().cloned());
    let cli = match cli::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let shown = matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            );
            // An agent's hook call with a bad argument must not switch its guards off.
            if !shown && args.first().is_some_and(|a| a == "bridge") {
                return cmd::bridge::refused(args, &e.to_string());
            }
            let _ = e.print();
            return if shown { 0 } else { 1 };
        }
    };
    cmd::render::set_color(cli.color);
    finish(cmd::dispatch(cli.command))
}

/// `hooks bridge AGENT [EVENT]` as agents call it, with nothing else on the line: read
/// without building the whole command line's parser, which an agent's every tool call
/// would pay for. Anything else (a flag, `--help`, an unknown agent) goes through the
/// parser.
fn bridge_call(args: &[String]) -> Option<cli::BridgeArgs> {
    let (command, agent, event) = match args {
        [command, agent] => (command, agent, None),
        [command, agent, event] if !event.starts_with('-') => (command, agent, Some(event)),
        _ => return None,
    };
    if command != "bridge" {
        return None;
    }
    let agent = <cli::Agent as clap::ValueEnum>::from_str(agent, false).ok()?;
    Some(cli::BridgeArgs {
        agent,
        event: event.cloned(),
        async_worker: false,
    })
}

/// The exit code of a command's result, its error printed.
fn finish(result: anyhow::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        // A reader that closed the pipe (`hooks list | head`) has seen enough: not an error.
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e:#}");
            1
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use clap::{Parser, ValueEnum};

    use super::*;

    /// `hooks bridge AGENT` read without the parser, as the parser reads it.
    fn parsed(args: &[&str]) -> Option<cli::BridgeArgs> {
        let argv = std::iter::once("hooks").chain(args.iter().copied());
        match cli::Cli::try_parse_from(argv).ok()?.command {
            cli::Command::Bridge(b) => Some(b),
            _ => None,
        }
    }

    #[track_caller]
    fn check(args: &[&str], fast: bool) {
        let owned: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        let got = bridge_call(&owned);
        assert_eq!(got.is_some(), fast, "{args:?}");
        if let Some(got) = got {
            let want = parsed(args).expect("the parser takes it too");
            assert_eq!(
                (got.agent, got.async_worker),
                (want.agent, want.async_worker)
            );
        }
    }

    #[test]
    fn the_bridge_is_read_without_the_parser_only_when_nothing_else_is_given() {
        for agent in cli::Agent::value_variants() {
            let name = agent.to_possible_value().expect("a name");
            check(&["bridge", name.get_name()], true);
        }
        check(&["bridge", "nobody"], false);
        check(&["bridge", "claude", "--async-worker"], false);
        check(&["bridge", "--help"], false);
        check(&["run", "claude"], false);
        check(&["bridge"], false);
    }
}
