//! The install into Cline, which has no settings file: its hooks are executable files
//! named after their events in its hooks directories (the project's `.clinerules/hooks/`,
//! the user's `~/Documents/Cline/Hooks/`), and Cline runs every one it finds. Install
//! writes one small script per event, `exec <the bridge command>` (the client beside the
//! `hooks` program, `hooks-bridge cline`, else `hooks bridge cline`:
//! [`super::bridge_command`]), mode 0755, atomically, marked as the bridge's
//! ([`CLINE_BRIDGE_MARKER`]), so that the engine's own discovery does not run it again;
//! installing again rewrites a bridge file that calls another command. It never replaces
//! a hook file of the user's: it refuses, naming the files, and writes nothing. Uninstall
//! removes exactly the files install wrote and that are still as written (the install
//! journal keeps their text), and names what it left.

use std::path::{Path, PathBuf};

use super::{Install, Installed, Journal, Outcome, Record, Request, Restored, configured_events};
use crate::Error;
use crate::bridge::agents::{Scope, home};
use crate::config::edit::atomic;
use crate::config::{CLINE_BRIDGE_MARKER, cline_is_bridge_script};
use crate::error::Context;

/// Cline's hooks directory for `scope`: the project's `.clinerules/hooks/`, the user's
/// `~/Documents/Cline/Hooks/`.
pub(super) fn hooks_dir(scope: Scope, project: &Path) -> Result<PathBuf, Error> {
    Ok(match scope {
        Scope::Project => project.join(".clinerules/hooks"),
        Scope::User => home()?.join("Documents/Cline/Hooks"),
    })
}

/// The hook file that runs `command` (the bridge).
fn script(command: &str) -> String {
    format!(
        "#!/bin/sh\n{CLINE_BRIDGE_MARKER}\n# `hooks uninstall cline` removes it.\nexec {command}\n"
    )
}

/// The install into Cline's hooks directory `install.target`.
pub(super) fn install(install: &Install, request: Request) -> Result<Installed, Error> {
    let dir = install.target.clone();
    if request.migrate {
        return Err(Error::bridge(format!(
            "`--migrate` does not apply to Cline: its hook files are scripts, not settings; move a hook file out of {} by hand (the engine runs Cline hook files from its own config too, see docs/migrating-cline.md)",
            dir.display()
        )));
    }
    let names: Vec<String> = if request.all_events {
        crate::core::cline::EVENTS
            .iter()
            .map(|(n, _)| (*n).to_owned())
            .collect()
    } else {
        configured_events(install.agent, &install.project, &install.options)?
    };
    if names.is_empty() {
        return Ok(Installed {
            target: dir,
            outcome: Outcome::NothingToInstall,
            trusted: None,
        });
    }
    let text = script(&install.commands.written);
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
        return Err(Error::bridge(format!(
            "Cline already runs hook files of yours here: {}. Nothing was written. The engine runs them too (it discovers Cline's hook files), but Cline would run them once more beside the bridge: move them out of {} (into the engine's config, see docs/migrating-cline.md) and install again",
            list.join(", "),
            dir.display()
        )));
    }
    if write.is_empty() {
        return Ok(Installed {
            target: dir,
            outcome: Outcome::AlreadyInstalled,
            trusted: None,
        });
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let (mut journal, journal_text) = Journal::open()?;
    let mut added = Vec::new();
    for (path, before) in &write {
        atomic::write_with_mode(path, &text, before.as_deref(), Some(0o755))?;
        journal.files.insert(
            path.clone(),
            Record {
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
    Ok(Installed {
        target: dir,
        outcome: Outcome::HookFiles(added),
        trusted: None,
    })
}

/// Removes the hook files in `dir` that install wrote and that are still as it wrote
/// them (`journal`, read as `journal_text`, knows them), and finds what it left in the
/// directory.
pub(super) fn uninstall(
    dir: PathBuf,
    mut journal: Journal,
    journal_text: Option<&str>,
) -> Result<Restored, Error> {
    let mut removed = Vec::new();
    let mut changed = Vec::new();
    for (name, _) in crate::core::cline::EVENTS {
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
    journal.save(journal_text)?;
    // The directory install created goes when it is empty.
    let left = super::left_in(&dir, |n| changed.contains(&n), true);
    Ok(Restored::HookFiles {
        dir,
        removed,
        changed,
        left,
    })
}
