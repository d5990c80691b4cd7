//! `hooks init [--dir DIR] [--force]`: installs the built-in hooks, all disabled.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::cli::InitArgs;

/// Installs into `--dir`, else `$HOOKS_HOME`, else `~/.hooks`.
pub fn run(args: &InitArgs) -> Result<u8> {
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => match std::env::var_os("HOOKS_HOME") {
            Some(h) => h.into(),
            None => PathBuf::from(std::env::var_os("HOME").context("HOME is not set; pass --dir")?)
                .join(".hooks"),
        },
    };
    let bin = std::env::current_exe().context("locating the hooks binary")?;
    let done = crate::builtin::install(&dir, &bin, args.force)?;
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
    Ok(0)
}
