//! The check of where the bridge is installed ([`doctor`]): for each agent, its settings
//! files (Cline's hooks directories), whether they call the bridge (and whether the
//! program they name is there), and what each installed event would run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{BridgeCommands, CLIENT, Options, all_handlers, cline};
use crate::Error;
use crate::bridge::agents::{AGENTS, Agent, Plugin, Scope};
use crate::config::{Inactive, cline_is_bridge_script, cline_is_executable};
use crate::core::Dialect;

/// What [`doctor`] found, one section per agent in [`AGENTS`] order.
#[non_exhaustive]
#[derive(Debug)]
pub struct Report {
    /// The agents' sections.
    pub agents: Vec<AgentReport>,
}

/// What [`doctor`] found for one agent.
#[non_exhaustive]
#[derive(Debug)]
pub struct AgentReport {
    /// The agent.
    pub agent: &'static Agent,
    /// The file that switches all of the agent's hooks off, if they are (Cline's
    /// `hooksEnabled: false`): the agent calls no hook, the bridge's included.
    pub switched_off: Option<PathBuf>,
    /// Its files (the user's, then the project's), each once.
    pub files: Vec<FileReport>,
    /// The events the bridge is installed on, for an agent whose hooks are files (Cline's),
    /// after all its directories; a settings file's are in its [`Found::Hooks`].
    pub events: Vec<EventReport>,
}

/// One of an agent's files (or hook directories).
#[non_exhaustive]
#[derive(Debug)]
pub struct FileReport {
    /// The file (or directory).
    pub path: PathBuf,
    /// What is in it.
    pub found: Found,
}

/// What one of an agent's files holds.
#[non_exhaustive]
#[derive(Debug)]
pub enum Found {
    /// There is no such file (or no hook file in the directory).
    Nothing,
    /// The file is not JSON: the agent ignores it.
    NotJson,
    /// Hooks: `bridged` call the bridge, `other` the agent runs itself.
    Hooks {
        /// How many entries (hook files) call a bridge.
        bridged: usize,
        /// How many other hooks the agent runs itself.
        other: usize,
        /// The events of the bridge's entries, each once per entry.
        events: Vec<EventReport>,
    },
}

/// One installed event: what the agent calls, and what that runs.
#[non_exhaustive]
#[derive(Debug)]
pub struct EventReport {
    /// The event, by the agent's own name.
    pub event: String,
    /// What the entry calls.
    pub calls: Calls,
    /// What the event would run.
    pub runs: Runs,
}

/// What an installed entry calls.
#[non_exhaustive]
#[derive(Debug)]
pub enum Calls {
    /// This `hooks` program (the one of the doctor's options).
    ThisProgram,
    /// Another `hooks` program, which is there.
    Other(String),
    /// A program that is missing: the agent's hook call fails.
    Missing(String),
    /// The agent does not call the entry, and why (`not called: ...`).
    NotCalled(String),
}

/// What an event would run: the hooks of the loaded config, with why each that does not
/// run does not. Other agents' bridge entries are counted, not listed: they never run,
/// since they run these same hooks.
#[non_exhaustive]
#[derive(Debug, Default)]
pub struct Runs {
    /// The hooks, by display id, each with why it does not run, if it does not.
    pub hooks: Vec<(String, Option<String>)>,
    /// How many other agents' bridge entries the config holds for the event.
    pub bridges: usize,
    /// The agents of those entries, by name for people, in order, each once.
    pub bridge_agents: Vec<String>,
}

/// Checks, for each agent the bridge answers, its settings files in the project
/// `project`: whether they call the bridge (the `hooks` program of `options`), and what
/// each installed event would run there.
pub fn doctor(project: &Path, options: &Options) -> Result<Report, Error> {
    let agents = AGENTS
        .iter()
        .map(|agent| doctor_agent(agent, project, options))
        .collect::<Result<_, _>>()?;
    Ok(Report { agents })
}

/// The doctor's section for one agent.
fn doctor_agent(
    agent: &'static Agent,
    project: &Path,
    options: &Options,
) -> Result<AgentReport, Error> {
    let commands = BridgeCommands::of(agent, options)?;
    let engine = super::super::engine_builder(agent.dialect, project, options)?.build()?;
    let loaded = engine.loaded();
    let mut report = AgentReport {
        agent,
        switched_off: None,
        files: Vec::new(),
        events: Vec::new(),
    };
    let Some(settings) = agent.settings else {
        match agent.plugin {
            Some(plugin) => plugin_files(&mut report, &plugin, project, options, &loaded)?,
            None => hook_files(&mut report, project, &commands, &loaded)?,
        }
        return Ok(report);
    };
    let mut seen = BTreeSet::new();
    for scope in [Scope::User, Scope::Project] {
        let path = (settings.path)(scope, project)?;
        if !seen.insert(path.clone()) {
            continue;
        }
        let found = match std::fs::read_to_string(&path) {
            Err(_) => Found::Nothing,
            Ok(text) => match serde_json::from_str::<Value>(&text) {
                Err(_) => Found::NotJson,
                Ok(value) => {
                    let mut bridged = Vec::new();
                    let mut other = 0;
                    for (event, h) in all_handlers(&settings, &value) {
                        let cmd = settings.command_of(h);
                        if let Some(program) = bridge_program(cmd, agent.name()) {
                            bridged.push((event.to_owned(), cmd.to_owned(), program));
                        } else {
                            other += 1;
                        }
                    }
                    let events = bridged
                        .iter()
                        .map(|(event, cmd, program)| EventReport {
                            event: event.clone(),
                            calls: (settings.not_called)(&value, &path, &text, cmd).map_or_else(
                                || {
                                    let this =
                                        commands.both().map(|c| settings.command_for(c, event));
                                    calls(cmd, program, &this)
                                },
                                Calls::NotCalled,
                            ),
                            runs: runs(&loaded, event),
                        })
                        .collect();
                    Found::Hooks {
                        bridged: bridged.len(),
                        other,
                        events,
                    }
                }
            },
        };
        report.files.push(FileReport { path, found });
    }
    Ok(report)
}

/// The doctor's findings for Cline's hook files: per hooks directory, the bridge's files
/// and the others (which Cline runs itself), whether Cline's hooks are switched off,
/// whether each bridge file is executable (Cline's "enabled") and the program it calls is
/// there.
fn hook_files(
    report: &mut AgentReport,
    project: &Path,
    commands: &BridgeCommands,
    loaded: &crate::Loaded,
) -> Result<(), Error> {
    report.switched_off = crate::config::cline_hooks_switched_off();
    for scope in [Scope::User, Scope::Project] {
        let dir = cline::hooks_dir(scope, project)?;
        let mut bridged = Vec::new();
        let mut other = 0;
        for (name, _) in crate::core::cline::EVENTS {
            let path = dir.join(name);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if cline_is_bridge_script(text.as_bytes()) {
                bridged.push((*name, path, text));
            } else {
                other += 1;
            }
        }
        if bridged.is_empty() && other == 0 {
            report.files.push(FileReport {
                path: dir,
                found: Found::Nothing,
            });
            continue;
        }
        report.files.push(FileReport {
            path: dir,
            found: Found::Hooks {
                bridged: bridged.len(),
                other,
                events: Vec::new(),
            },
        });
        for (name, path, text) in bridged {
            let exec_line = text
                .lines()
                .find_map(|l| l.strip_prefix("exec "))
                .unwrap_or_default();
            let calls = if std::fs::metadata(&path).is_ok_and(|m| cline_is_executable(&m)) {
                let program = bridge_program(exec_line, report.agent.name()).unwrap_or_default();
                calls(exec_line, &program, &commands.both())
            } else {
                Calls::NotCalled("not called: not executable (Cline's hook is off)".to_owned())
            };
            report.events.push(EventReport {
                event: name.to_owned(),
                calls,
                runs: runs(loaded, name),
            });
        }
    }
    Ok(())
}

/// The doctor's findings for an agent whose hooks are plugins (OpenCode's): per scope, its
/// plugin file (the bridge's, or a file of the user's of that name) and, for the bridge's,
/// the events it forwards, with what it calls (this program, another that is there, one
/// that is missing; not called when the agent loads no plugin) and what each would run.
fn plugin_files(
    report: &mut AgentReport,
    plugin: &Plugin,
    project: &Path,
    options: &Options,
    loaded: &crate::Loaded,
) -> Result<(), Error> {
    let this = options
        .program
        .as_deref()
        .and_then(|p| std::path::absolute(p).ok());
    let mut seen = BTreeSet::new();
    for scope in [Scope::User, Scope::Project] {
        let path = (plugin.dir)(scope, project)?.join(plugin.file);
        if !seen.insert(path.clone()) {
            continue;
        }
        let found = match std::fs::read_to_string(&path) {
            Err(_) => Found::Nothing,
            Ok(text) if !plugin.is_bridge(&text) => Found::Hooks {
                bridged: 0,
                other: 1,
                events: Vec::new(),
            },
            Ok(text) => {
                let program = (plugin.program)(&text).unwrap_or_default();
                let calls = || match (plugin.off)(project) {
                    Some(why) => Calls::NotCalled(why),
                    None if this.as_deref() == Some(Path::new(&program)) => Calls::ThisProgram,
                    None if Path::new(&program).is_file() => Calls::Other(program.clone()),
                    None => Calls::Missing(program.clone()),
                };
                let events = (report.agent.events)()
                    .into_iter()
                    .map(|(_, name)| EventReport {
                        event: name.to_owned(),
                        calls: calls(),
                        runs: runs(loaded, name),
                    })
                    .collect();
                Found::Hooks {
                    bridged: 1,
                    other: 0,
                    events,
                }
            }
        };
        report.files.push(FileReport { path, found });
    }
    Ok(())
}

/// The program through which the hook command `cmd` calls the bridge of the agent named
/// `agent`, if it does: `PROGRAM bridge AGENT ..` (the engine), or `PROGRAM AGENT ..` where
/// PROGRAM is a file named [`CLIENT`] (the client), as the shell reads the words.
fn bridge_program(cmd: &str, agent: &str) -> Option<String> {
    let split = crate::core::shell::split(cmd);
    let argv = &split.commands.first()?.argv;
    match argv.as_slice() {
        [program, bridge, name, ..] if bridge == "bridge" && name == agent => Some(program.clone()),
        [program, name, ..]
            if name == agent && Path::new(program).file_name().is_some_and(|n| n == CLIENT) =>
        {
            Some(program.clone())
        }
        _ => None,
    }
}

/// What the bridge command `cmd`, which calls `program`, calls: this program (`cmd` is
/// one of the lines `this`, the client's and the engine's, and its program is there),
/// another that is there, or one that is missing.
fn calls(cmd: &str, program: &str, this: &[impl AsRef<str>]) -> Calls {
    let there = Path::new(program).is_file();
    if this.first().is_some_and(|c| c.as_ref() == cmd)
        || (there && this.iter().any(|c| c.as_ref() == cmd))
    {
        Calls::ThisProgram
    } else if there {
        Calls::Other(program.to_owned())
    } else {
        Calls::Missing(program.to_owned())
    }
}

/// What the agent's event `event` (its own name) would run in the loaded config.
fn runs(loaded: &crate::Loaded, event: &str) -> Runs {
    let mut runs = Runs::default();
    let event = super::super::agent_event(event);
    for h in loaded
        .hooks
        .hooks()
        .iter()
        .filter(|h| Some(&h.spec.event) == event.as_ref())
    {
        match &h.inactive {
            None => runs.hooks.push((h.spec.display_id(), None)),
            Some(Inactive::Bridge { agent }) => {
                runs.bridges += 1;
                runs.bridge_agents.push(
                    Dialect::from_name(agent)
                        .map_or(agent.as_str(), |d| d.profile().display_name)
                        .to_owned(),
                );
            }
            Some(why) => runs.hooks.push((h.spec.display_id(), Some(why.describe()))),
        }
    }
    runs.bridge_agents.sort_unstable();
    runs.bridge_agents.dedup();
    runs
}
