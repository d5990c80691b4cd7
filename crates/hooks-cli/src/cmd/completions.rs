//! `hooks completions SHELL` and `hooks man [--dir DIR]`: shell completion scripts and
//! manual pages, generated from the clap definitions in [`crate::cli`], so they never
//! drift from the commands.

use std::io::Write;

use anyhow::{Context, Result};
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs};

/// Prints the completion script for `args.shell` on stdout.
pub fn completions(args: &CompletionsArgs) -> Result<u8> {
    let mut command = Cli::command();
    // Rendered into memory first: the generator panics on a failed write, and a reader
    // that closes the pipe early (`| head`) is no error.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "hooks", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(0)
}

/// Prints `hooks.1` on stdout, or writes `hooks.1` and one `hooks-COMMAND.1` per command
/// into `args.dir`.
pub fn man(args: &ManArgs) -> Result<u8> {
    let command = Cli::command();
    match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(command, dir)
                .with_context(|| format!("writing manual pages into {}", dir.display()))?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(command).render(&mut out)?;
            out.flush()?;
        }
    }
    Ok(0)
}
