//! `hooks init [--dir DIR] [--force]`: installs the built-in hooks, all disabled, into the
//! user's native config directory, where every command discovers them.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hooks::config::Locations;
use hooks::core::Layer;

use crate::cli::InitArgs;

/// Installs into `--dir`, else the user's native config directory
/// (`$XDG_CONFIG_HOME/hooks`, else `~/.config/hooks`), whose `hooks.yaml` discovery reads
/// for every command. A `--dir` whose `hooks.yaml` is not discovered is said so, with how
/// to use it.
pub fn run(args: &InitArgs) -> Result<u8> {
    let locations = Locations::from_env(None);
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => user_dir(&locations)?,
    };
    let done = crate::builtin::install(&dir, args.force)?;
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
    if !is_discovered(&locations, &done.config) {
        writeln!(
            out,
            "note: {} is not a place hooks looks for configs; name it with `-c {}`, or run `hooks init` without --dir",
            done.config.display(),
            hooks::config::shell_quote(&done.config.display().to_string())
        )?;
    }
    if let Some(home) = &locations.home {
        let legacy = home.join(".hooks/hooks.yaml");
        if legacy.is_file() && !crate::edit::atomic::same_file(&legacy, &done.config) {
            writeln!(
                out,
                "note: {} (from an earlier `hooks init`) is not read by any command; its hooks are now in {}",
                legacy.display(),
                done.config.display()
            )?;
        }
    }
    Ok(0)
}

/// The user layer's native config directory: where `hooks/hooks.yaml` is discovered.
fn user_dir(locations: &Locations) -> Result<PathBuf> {
    locations
        .config_dir
        .as_ref()
        .map(|c| c.join("hooks"))
        .context("neither XDG_CONFIG_HOME nor HOME is set; pass --dir")
}

/// Whether `config` is one of the user-layer files discovery reads.
fn is_discovered(locations: &Locations, config: &Path) -> bool {
    locations
        .candidates()
        .iter()
        .any(|c| c.layer == Layer::User && crate::edit::atomic::same_file(&c.path, config))
}
