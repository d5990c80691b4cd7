//! `hooks install cline` and `hooks uninstall cline`. Cline has no settings file: its hooks
//! are executable files named after their events in its hooks directories (the project's
//! `.clinerules/hooks/`, the user's `~/Documents/Cline/Hooks/`), and Cline runs every one
//! it finds. Install writes one small script per event, `exec <this hooks binary> bridge
//! cline`, mode 0755, atomically, marked as the bridge's
//! ([`CLINE_BRIDGE_MARKER`]), so that the engine's own
//! discovery does not run it again. It never replaces a hook file of the user's: it
//! refuses, naming the files, and writes nothing. Uninstall removes exactly the files
//! install wrote and that are still as written (the install journal keeps their text), and
//! names what it left.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hooks::config::{CLINE_BRIDGE_MARKER, cline_is_bridge_script, cline_is_executable};

use super::install::{Installed, Journal, bridge_command, configured_events};
use crate::cli::{InstallArgs, Scope};
use hooks::config::edit::atomic;

/// Cline's hooks directory for `scope`: the project's `.clinerules/hooks/`, the user's
/// `~/Documents/Cline/Hooks/`.
pub fn hooks_dir(scope: Scope, project: &Path) -> Result<PathBuf> {
    Ok(match scope {
        Scope::Project => project.join(".clinerules/hooks"),
        Scope::User => std::env::var_os("HOME")
            .map(PathBuf::from)
            .context("HOME is not set")?
            .join("Documents/Cline/Hooks"),
    })
}

/// The hook file that runs `command` (the bridge).
pub fn script(command: &str) -> String {
    format!(
        "#!/bin/sh\n{CLINE_BRIDGE_MARKER}\n# `hooks uninstall cline` removes it.\nexec {command}\n"
    )
}

/// `hooks install cline`.
pub fn install(args: &InstallArgs, project: &Path) -> Result<u8> {
    if args.migrate {
        bail!(
            "`--migrate` does not apply to Cline: its hook files are scripts, not settings; move a hook file out of {} by hand (the engine runs Cline hook files from its own config too, see docs/migrating-cline.md)",
            hooks_dir(args.scope, project)?.display()
        );
    }
    let dir = hooks_dir(args.scope, project)?;
    let names: Vec<String> = if args.all_events {
        hooks::core::cline::EVENTS
            .iter()
            .map(|(n, _)| (*n).to_owned())
            .collect()
    } else {
        configured_events(args.agent, project)?
    };
    let mut out = std::io::stdout().lock();
    if names.is_empty() {
        writeln!(
            out,
            "no event has a hook in the engine's config yet; nothing to install (`--all-events` installs every event)"
        )?;
        return Ok(0);
    }
    let text = script(&bridge_command(args.agent)?);
    let mut write = Vec::new();
    let mut theirs = Vec::new();
    for name in &names {
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(bytes) => {
                let now = String::from_utf8_lossy(&bytes).into_owned();
                if now == text {
                    continue;
                }
                if cline_is_bridge_script(&bytes) {
                    // Written by another hooks binary: it now calls this one.
                    write.push((path, Some(now)));
                } else {
                    theirs.push(path);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => write.push((path, None)),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }
    if !theirs.is_empty() {
        let list: Vec<String> = theirs.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "Cline already runs hook files of yours here: {}. Nothing was written. The engine runs them too (it discovers Cline's hook files), but Cline would run them once more beside the bridge: move them out of {} (into the engine's config, see docs/migrating-cline.md) and install again",
            list.join(", "),
            dir.display()
        );
    }
    if write.is_empty() {
        writeln!(
            out,
            "{}: the bridge is already installed for every event with a hook",
            dir.display()
        )?;
        return Ok(0);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let (mut journal, journal_text) = Journal::open()?;
    let mut added = Vec::new();
    for (path, before) in &write {
        atomic::write_with_mode(path, &text, before.as_deref(), Some(0o755))?;
        journal.files.insert(
            path.clone(),
            Installed {
                original: None,
                migrated: None,
                installed: text.clone(),
            },
        );
        added.push(
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        );
    }
    journal.save(journal_text.as_deref())?;
    writeln!(
        out,
        "{}: hook files that run the bridge: {}",
        dir.display(),
        added.join(", ")
    )?;
    writeln!(
        out,
        "undo: `hooks uninstall cline{}`",
        match args.scope {
            Scope::User => " --scope user",
            Scope::Project => "",
        }
    )?;
    Ok(0)
}

/// `hooks uninstall cline`: removes the hook files install wrote that are still as it
/// wrote them, and says what it left in the directory.
pub fn uninstall(args: &InstallArgs, project: &Path) -> Result<u8> {
    let dir = hooks_dir(args.scope, project)?;
    let (mut journal, journal_text) = Journal::open()?;
    let mut out = std::io::stdout().lock();
    let mut removed = Vec::new();
    let mut changed = Vec::new();
    for (name, _) in hooks::core::cline::EVENTS {
        let path = dir.join(name);
        let Some(record) = journal.files.get(&path) else {
            continue;
        };
        match std::fs::read_to_string(&path) {
            Ok(now) if now == record.installed => {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
                removed.push(*name);
            }
            Ok(_) => changed.push(*name),
            Err(_) => {}
        }
        journal.files.remove(&path);
    }
    journal.save(journal_text.as_deref())?;
    if removed.is_empty() && changed.is_empty() {
        writeln!(
            out,
            "{}: the bridge was not installed here by `hooks install`",
            dir.display()
        )?;
    } else if !removed.is_empty() {
        writeln!(out, "{}: removed {}", dir.display(), removed.join(", "))?;
    }
    if !changed.is_empty() {
        writeln!(
            out,
            "{}: left {} (changed since `hooks install`; remove them by hand if they are no longer wanted)",
            dir.display(),
            changed.join(", ")
        )?;
    }
    let left: Vec<String> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !changed.iter().any(|c| c == n))
        .collect();
    if !left.is_empty() {
        let mut left = left;
        left.sort();
        writeln!(
            out,
            "{}: left the files that are not the bridge's: {}",
            dir.display(),
            left.join(", ")
        )?;
    } else if std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_none()) {
        // The directory install created, now empty.
        let _ = std::fs::remove_dir(&dir);
    }
    Ok(0)
}

/// The doctor's lines for Cline: per hooks directory, the bridge's files and the others
/// (which Cline runs itself), whether Cline's hooks are switched off, whether each bridge
/// file is executable (Cline's "enabled") and the binary it calls is there.
pub fn doctor(
    out: &mut impl Write,
    project: &Path,
    command: &str,
) -> Result<Vec<(String, String)>> {
    let mut installed = Vec::new();
    if let Some(state) = hooks::config::cline_hooks_switched_off() {
        writeln!(
            out,
            "  Cline's hooks are switched off (`hooksEnabled: false` in {}): Cline calls no hook file, the bridge's included",
            state.display()
        )?;
    }
    for scope in [Scope::User, Scope::Project] {
        let dir = hooks_dir(scope, project)?;
        let mut bridged = Vec::new();
        let mut other = Vec::new();
        for (name, _) in hooks::core::cline::EVENTS {
            let path = dir.join(name);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if cline_is_bridge_script(text.as_bytes()) {
                bridged.push((*name, path, text));
            } else {
                other.push(*name);
            }
        }
        if bridged.is_empty() && other.is_empty() {
            writeln!(out, "  {}: none", dir.display())?;
            continue;
        }
        let files = if bridged.len() == 1 { "file" } else { "files" };
        super::install::tally(out, &dir, bridged.len(), files, other.len(), "Cline")?;
        for (name, path, text) in bridged {
            let exec_line = text
                .lines()
                .find_map(|l| l.strip_prefix("exec "))
                .unwrap_or_default()
                .to_owned();
            let calls = if std::fs::metadata(&path).is_ok_and(|m| cline_is_executable(&m)) {
                super::install::calls(&exec_line, command, "Cline")
            } else {
                "not called: not executable (Cline's hook is off)".to_owned()
            };
            installed.push((name.to_owned(), calls));
        }
    }
    Ok(installed)
}
