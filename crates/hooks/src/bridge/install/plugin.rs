//! The install into an agent whose hooks are plugins (OpenCode's): one plugin file in the
//! agent's plugin directory of the scope, written atomically with the `hooks` program's
//! absolute path in it, calls the bridge on every event the agent has. It never replaces
//! a file of the user's of the same name: it refuses and writes nothing. Uninstall removes
//! the file if it is still as the install wrote it (the install journal keeps its text),
//! and names it if it changed since.

use std::path::PathBuf;

use super::{Install, Installed, Journal, Outcome, Record, Request, Restored, configured_events};
use crate::Error;
use crate::bridge::agents::Plugin;
use crate::config::edit::atomic;
use crate::error::Context;

/// The install of `plugin` into `install.target`, its plugin directory.
pub(super) fn install(
    plugin: &Plugin,
    install: &Install,
    request: Request,
) -> Result<Installed, Error> {
    let dir = install.target.clone();
    let title = install.agent.title();
    if request.migrate {
        return Err(Error::bridge(format!(
            "`--migrate` does not apply to {title}: its hooks are plugins, which the engine does not read; install without it"
        )));
    }
    if !request.all_events
        && configured_events(install.agent, &install.project, &install.options)?.is_empty()
    {
        return Ok(Installed {
            target: dir,
            outcome: Outcome::NothingToInstall,
            trusted: None,
        });
    }
    let program = install
        .options
        .program
        .as_ref()
        .context("finding the hooks binary")?;
    let program =
        std::path::absolute(program).with_context(|| format!("finding {}", program.display()))?;
    let text = (plugin.text)(&program.display().to_string());
    let path = dir.join(plugin.file);
    let before = match std::fs::read_to_string(&path) {
        Ok(now) if now == text => {
            return Ok(Installed {
                target: dir,
                outcome: Outcome::AlreadyInstalled,
                trusted: None,
            });
        }
        Ok(now) if plugin.is_bridge(&now) => Some(now),
        Ok(_) => {
            return Err(Error::bridge(format!(
                "{} is a plugin of yours, not the bridge's: nothing was written; rename it and install again",
                path.display()
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let (mut journal, journal_text) = Journal::open()?;
    atomic::write(&path, &text, before.as_deref())?;
    journal.files.insert(
        path,
        Record {
            original: None,
            migrated: None,
            installed: text,
        },
    );
    journal.save(journal_text.as_deref())?;
    Ok(Installed {
        target: dir,
        outcome: Outcome::HookFiles(vec![plugin.file.to_owned()]),
        trusted: None,
    })
}

/// Removes `plugin`'s file from `dir` if the install wrote it and it is still as written
/// (`journal`, read as `journal_text`, knows it).
pub(super) fn uninstall(
    plugin: &Plugin,
    dir: PathBuf,
    mut journal: Journal,
    journal_text: Option<&str>,
) -> Result<Restored, Error> {
    let path = dir.join(plugin.file);
    let mut removed = Vec::new();
    let mut changed = Vec::new();
    if let Some(record) = journal.files.remove(&path) {
        match std::fs::read_to_string(&path) {
            Ok(now) if now == record.installed => {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
                removed.push(plugin.file);
            }
            Ok(_) => changed.push(plugin.file),
            Err(_) => {}
        }
        journal.save(journal_text)?;
    }
    // The directory the install created goes when it is empty, once the plugin is out.
    let left = super::left_in(&dir, |n| changed.contains(&n), !removed.is_empty());
    Ok(Restored::HookFiles {
        dir,
        removed,
        changed,
        left,
    })
}
