//! `hooks install AGENT`, `hooks uninstall AGENT` and `hooks doctor`: the work is
//! [`hooks::bridge::install`]'s; this module reads the arguments, runs `hooks migrate`
//! when the install or uninstall asks for it, and says what was done.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hooks::bridge::agents::{self, Agent as Row};
use hooks::bridge::install::{
    self, Calls, EventReport, Found, Migration, Outcome, Request, Restored, Runs,
};

use crate::cli::{Agent, ConfigArgs, DoctorArgs, InstallArgs, MigrateArgs, Scope};
use crate::cmd::render::plural;

/// What the bridge knows of `agent` (every agent of the command line has a row).
fn row(agent: Agent) -> Result<&'static Row> {
    agents::agent(agent.dialect())
        .with_context(|| format!("the bridge does not install {}", agent.as_str()))
}

/// The bridge's scope for the command line's, else the agent's default.
fn scope_of(scope: Option<Scope>, agent: &Row) -> agents::Scope {
    match scope {
        Some(Scope::User) => agents::Scope::User,
        Some(Scope::Project) => agents::Scope::Project,
        None => agent
            .settings
            .map_or(agents::Scope::Project, |s| s.default_scope),
    }
}

fn project_of(dir: Option<&PathBuf>) -> Result<PathBuf> {
    let project = super::super::project_dir(&ConfigArgs {
        project: dir.cloned(),
        ..ConfigArgs::default()
    })?;
    Ok(std::path::absolute(&project).unwrap_or(project))
}

/// `hooks migrate` (or `hooks migrate --undo`) as the install or uninstall asks for it.
fn migrate(migration: &Migration<'_>) -> Result<()> {
    super::super::migrate::run(&MigrateArgs {
        from: migration.agent.name().to_owned(),
        settings: Some(migration.file.to_path_buf()),
        to: None,
        undo: migration.undo,
        project: Some(migration.project.to_path_buf()),
    })?;
    Ok(())
}

/// `hooks install AGENT`.
pub fn install(args: &InstallArgs) -> Result<u8> {
    let project = project_of(args.project.as_ref())?;
    let agent = row(args.agent)?;
    let scope = scope_of(args.scope, agent);
    let plan = install::plan(agent, scope, &project, &super::options())?;
    if let Some(why) = plan.note() {
        writeln!(std::io::stdout().lock(), "note: {why}")?;
    }
    if let Some(why) = std::env::current_exe().ok().as_deref().and_then(transient) {
        writeln!(std::io::stdout().lock(), "note: {why}")?;
    }
    let done = plan.run(
        Request::new(args.migrate, args.all_events),
        &mut |m: &Migration<'_>| migrate(m),
    )?;
    let mut out = std::io::stdout().lock();
    let target = done.target.display();
    let trusted = |out: &mut dyn Write| -> Result<()> {
        if let Some(config) = &done.trusted {
            writeln!(
                out,
                "{}: Codex trusts the bridge's entries ([hooks.state])",
                config.display()
            )?;
        }
        Ok(())
    };
    match &done.outcome {
        Outcome::AlreadyInstalled => {
            writeln!(
                out,
                "{target}: the bridge is already installed for every event with a hook"
            )?;
            trusted(&mut out)?;
            return Ok(0);
        }
        Outcome::NothingToInstall => {
            writeln!(
                out,
                "no event has a hook in the engine's config yet; nothing to install (`--all-events` installs every event)"
            )?;
            return Ok(0);
        }
        Outcome::Entries { command, events } => {
            trusted(&mut out)?;
            writeln!(
                out,
                "{target}: `{command}` runs on {}",
                if events.is_empty() {
                    "no new event".to_owned()
                } else {
                    events.join(", ")
                }
            )?;
        }
        Outcome::HookFiles(files) => writeln!(
            out,
            "{target}: hook files that run the bridge: {}",
            files.join(", ")
        )?,
        _ => {}
    }
    writeln!(
        out,
        "undo: `hooks uninstall {}{}`",
        args.agent.as_str(),
        scope_flag(scope, agent)
    )?;
    Ok(0)
}

/// Why the binary at `exe`, whose path the agent's settings will name, may not stay there:
/// a copy that `npx agentic-hooks` runs lives in npm's npx cache, which npm may clear.
fn transient(exe: &Path) -> Option<String> {
    exe.components().any(|c| c.as_os_str() == "_npx").then(|| {
        format!(
            "{} is in npm's npx cache, which npm may clear; for an install that lasts, \
                 `npm install -g agentic-hooks` and run `hooks install` again",
            exe.display()
        )
    })
}

/// The `--scope` that names `scope` for `agent` (none for its default).
fn scope_flag(scope: agents::Scope, agent: &Row) -> &'static str {
    let default = agent
        .settings
        .map_or(agents::Scope::Project, |s| s.default_scope);
    match scope {
        _ if scope == default => "",
        agents::Scope::User => " --scope user",
        agents::Scope::Project => " --scope project",
    }
}

/// `hooks uninstall AGENT`: the file as it was before the first install, byte for byte
/// (and the migrated hooks back in it); if the file was edited since, only the bridge's
/// entries are taken out.
pub fn uninstall(args: &InstallArgs) -> Result<u8> {
    let project = project_of(args.project.as_ref())?;
    let agent = row(args.agent)?;
    let mut plan = install::uninstall(
        agent,
        scope_of(args.scope, agent),
        &project,
        &super::options(),
    )?;
    if let Some(config) = plan.take_out_trust(&mut |m: &Migration<'_>| migrate(m))? {
        writeln!(
            std::io::stdout().lock(),
            "{}: the bridge's trust is removed",
            config.display()
        )?;
    }
    let restored = plan.restore(&mut |m: &Migration<'_>| migrate(m))?;
    let mut out = std::io::stdout().lock();
    match restored {
        Restored::NotInstalled(path) => not_installed(&mut out, &path)?,
        Restored::EntriesRemoved(path) => writeln!(
            out,
            "{} changed since `hooks install`: only the bridge's entries were removed",
            path.display()
        )?,
        Restored::AsBefore(path) => writeln!(
            out,
            "{}: restored as it was before `hooks install`",
            path.display()
        )?,
        Restored::HookFiles {
            dir,
            removed,
            changed,
            left,
        } => {
            let shown = dir.display();
            if removed.is_empty() && changed.is_empty() {
                not_installed(&mut out, &dir)?;
            } else if !removed.is_empty() {
                writeln!(out, "{shown}: removed {}", removed.join(", "))?;
            }
            if !changed.is_empty() {
                writeln!(
                    out,
                    "{shown}: left {} (changed since `hooks install`; remove them by hand if they are no longer wanted)",
                    changed.join(", ")
                )?;
            }
            if !left.is_empty() {
                writeln!(
                    out,
                    "{shown}: left the files that are not the bridge's: {}",
                    left.join(", ")
                )?;
            }
        }
        _ => {}
    }
    Ok(0)
}

fn not_installed(out: &mut impl Write, path: &Path) -> Result<()> {
    writeln!(
        out,
        "{}: the bridge was not installed here by `hooks install`",
        path.display()
    )?;
    Ok(())
}

/// `hooks doctor`: for each agent, its settings files, whether they call the bridge (and
/// whether the binary they name is there), and what each installed event would run.
pub fn doctor(args: &DoctorArgs) -> Result<u8> {
    let project = project_of(args.project.as_ref())?;
    let report = install::doctor(&project, &super::options())?;
    let mut out = std::io::stdout().lock();
    for agent in &report.agents {
        let title = agent.agent.title();
        // Hook files (Cline's) are counted as files, a settings file's hooks as entries.
        let (one, many) = if agent.agent.settings.is_some() {
            ("entry", "entries")
        } else {
            ("file", "files")
        };
        writeln!(out, "{title}")?;
        if let Some(state) = &agent.switched_off {
            writeln!(
                out,
                "  {title}'s hooks are switched off (`hooksEnabled: false` in {}): {title} calls no hook file, the bridge's included",
                state.display()
            )?;
        }
        for file in &agent.files {
            let path = file.path.display();
            match &file.found {
                Found::Nothing => writeln!(out, "  {path}: none")?,
                Found::NotJson => writeln!(out, "  {path}: not JSON ({title} ignores it)")?,
                Found::Hooks {
                    bridged,
                    other,
                    events,
                } => {
                    writeln!(
                        out,
                        "  {path}: {bridged} bridge {}, {other} other hook{} ({title} runs those itself)",
                        if *bridged == 1 { one } else { many },
                        plural(*other)
                    )?;
                    event_lines(&mut out, events, title)?;
                }
                _ => {}
            }
        }
        event_lines(&mut out, &agent.events, title)?;
    }
    Ok(0)
}

/// The doctor's line for each installed event of the agent `title`.
fn event_lines(out: &mut impl Write, events: &[EventReport], title: &str) -> Result<()> {
    for event in events {
        let calls = match &event.calls {
            Calls::ThisProgram => "calls this binary".to_owned(),
            Calls::Other(binary) => format!("calls {binary}"),
            Calls::Missing(binary) => {
                format!("calls {binary}, which is missing: {title}'s hook call fails")
            }
            Calls::NotCalled(why) => why.clone(),
            _ => String::new(),
        };
        writeln!(
            out,
            "    {}: {calls}; runs {}",
            event.event,
            runs(&event.runs)
        )?;
    }
    Ok(())
}

/// What an event would run: its hooks, with why each that does not run does not; "no
/// hook" without any; other agents' bridge entries counted.
fn runs(runs: &Runs) -> String {
    let hooks: Vec<String> = runs
        .hooks
        .iter()
        .map(|(id, why)| match why {
            None => id.clone(),
            Some(why) => format!("{id} (not running: {why})"),
        })
        .collect();
    let mut text = if hooks.is_empty() {
        "no hook".to_owned()
    } else {
        hooks.join(", ")
    };
    if runs.bridges > 0 {
        let count = runs.bridges;
        text.push_str(&format!(
            " ({count} bridge entr{} of {}: not run, they run these same hooks)",
            if count == 1 { "y" } else { "ies" },
            runs.bridge_agents.join(", ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_in_the_npx_cache_is_said_to_be_transient() {
        let npx = "/home/u/.npm/_npx/0a1b2c/node_modules/@agentic-hooks/linux-x64/bin/hooks";
        assert!(transient(Path::new(npx)).is_some_and(|why| why.contains("npm install -g")));
        let global =
            "/usr/lib/node_modules/agentic-hooks/node_modules/@agentic-hooks/linux-x64/bin/hooks";
        assert_eq!(transient(Path::new(global)), None);
    }
}
