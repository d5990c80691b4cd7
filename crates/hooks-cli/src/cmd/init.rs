//! `hooks init [--dir DIR] [--force] [--autohand]`: installs the built-in hooks, all
//! disabled, into the user's native config directory, where every command discovers them,
//! or the Autohand way, into `~/.autohand`.

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
    if args.autohand {
        return autohand(args, &locations);
    }
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
        if legacy.is_file() && !hooks::config::edit::atomic::same_file(&legacy, &done.config) {
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
        .any(|c| c.layer == Layer::User && hooks::config::edit::atomic::same_file(&c.path, config))
}

/// `hooks init --autohand`: the scripts into `~/.autohand/hooks` (or `DIR/hooks`) and their
/// entries into `~/.autohand/config.json` (or `DIR/config.json`), naming the scripts as
/// Autohand's documentation does (`~/.autohand/hooks/sound-alert.sh`), so its own config
/// lines work; the guard's entry runs this binary's built-in.
fn autohand(args: &InitArgs, locations: &Locations) -> Result<u8> {
    let home = locations.home.as_ref();
    let default = home.map(|h| h.join(".autohand"));
    let dir = match (&args.dir, &default) {
        (Some(d), _) => d.clone(),
        (None, Some(d)) => d.clone(),
        (None, None) => anyhow::bail!("HOME is not set; pass --dir"),
    };
    let at_home = default
        .as_ref()
        .is_some_and(|d| hooks::config::edit::atomic::same_file(d, &dir) || *d == dir);
    let scripts_word = if at_home {
        "~/.autohand/hooks".to_owned()
    } else {
        hooks::config::shell_quote(&dir.join("hooks").display().to_string())
    };
    let bin = std::env::current_exe().context("finding the hooks binary")?;
    let bin = hooks::config::shell_quote(&bin.display().to_string());
    let done = crate::builtin::install_autohand(&dir, &scripts_word, &bin, args.force)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "installed {} built-in scripts into {}",
        done.scripts.len(),
        dir.join("hooks").display()
    )?;
    let config = done.config.display();
    if done.created {
        writeln!(
            out,
            "wrote {config} (every hook disabled; enable one with `hooks enable DESCRIPTION` or `hooks manage`)"
        )?;
    } else if done.added > 0 {
        writeln!(
            out,
            "added {} built-in hooks to {config}, every one disabled (its other settings and hooks are kept)",
            done.added
        )?;
    } else {
        writeln!(out, "{config} already has every built-in hook")?;
    }
    if !is_discovered(locations, &done.config) {
        writeln!(
            out,
            "note: {config} is not a place hooks looks for configs; name it with `-c {}`",
            hooks::config::shell_quote(&done.config.display().to_string())
        )?;
    }
    Ok(0)
}
