//! The `hooks` command line, as a library so that its parts are testable: the binary in
//! `main.rs` only calls [`run`].
//!
//! The contract (commands, flags, JSON output, exit codes) is documented in `docs/cli.md`
//! and defined in [`cli`]; each command lives in its own module under [`cmd`].

pub mod builtin;
pub mod cli;
pub mod cmd;
pub mod edit;
pub mod handle;

use std::io::Write;

use clap::Parser;

/// Runs the command line `args` (without the program name); returns the exit code:
/// 0 success (for `hooks run`: proceed), 2 blocked or denied (`hooks run`, `hooks test`),
/// 1 any error (bad usage, bad config, a failed command).
pub fn run(args: &[String]) -> u8 {
    let argv = std::iter::once("hooks".to_owned()).chain(args.iter().cloned());
    let cli = match cli::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => 1,
            };
        }
    };
    cmd::render::set_color(cli.color);
    match cmd::dispatch(cli.command) {
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
