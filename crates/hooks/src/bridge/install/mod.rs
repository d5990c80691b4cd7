//! The bridge installed as an agent's hook command in its own settings file (Claude Code's
//! or Gemini CLI's `settings.json`, Codex's and Cursor's `hooks.json`), taken out again,
//! and checked ([`doctor`]). Cline, which has hook files instead of a settings file, has
//! its own module, with this journal, and so has an agent whose hooks are plugins
//! (OpenCode's: `plugin.rs`).
//!
//! Install adds one minimal entry per event (`{"hooks": [{"type": "command", "command":
//! "<the client beside the hooks program> claude"}]}`, [`bridge_command`]; Gemini CLI's
//! with `matcher: "*"` and a timeout in milliseconds, under its own event names: the agent
//! row's [`Settings::entry`]) to the file's `hooks`, for every event that has a hook in the
//! engine's config (or every event the agent has, with [`Request::all_events`]), editing
//! the file in place (every other byte stays) and atomically; an event that already calls
//! the bridge is left alone, so installing twice changes nothing. An entry calling the
//! bridge by the other spelling of the same program (`hooks bridge claude`, written before
//! the client was there) is rewritten in place. The file's text before the first install
//! is kept in the install journal (`installs.json` in the state directory), and uninstall
//! writes it back byte for byte. [`Request::migrate`] first moves the file's own hooks into the
//! engine's native config, through the caller's [`Migration`] hook (the `hooks` program's
//! `hooks migrate`), so that they run once, through the bridge; uninstall undoes that too.
//!
//! Install and uninstall are planned, then run ([`plan`], [`Install::run`]; [`uninstall`],
//! [`Uninstall::take_out_trust`] and [`Uninstall::restore`]), so that a caller can say what
//! a plan found before the migration's own report; what they did is returned as data
//! ([`Installed`], [`Uninstalled`]), never printed.

mod cline;
mod doctor;
mod plugin;

pub use self::doctor::{AgentReport, Calls, EventReport, FileReport, Found, Report, Runs, doctor};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Options;
use super::agents::{Agent, Scope, Settings};
use super::state::StateStore;
use crate::Error;
use crate::config::edit::codex_trust::{self, TrustEntry};
use crate::config::edit::json::JsonDoc;
use crate::config::edit::{Doc, Seg, atomic};
use crate::core::BuiltinEvent;
use crate::error::Context;

/// What the journal keeps of one installed file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Record {
    /// The file's text before the first install (`None`: there was no file).
    original: Option<String>,
    /// Its text after the migration (with `--migrate`).
    migrated: Option<String>,
    /// Its text as the last install left it.
    installed: String,
}

/// The install journal: installed files by path.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Journal {
    files: BTreeMap<PathBuf, Record>,
}

fn journal_path() -> Result<PathBuf, Error> {
    let store = StateStore::open()
        .context("no state directory for the install journal (set HOME or HOOKS_STATE_DIR)")?;
    Ok(store.audit_path().with_file_name("installs.json"))
}

impl Journal {
    /// The journal, and its text as read (`None`: there was none).
    fn open() -> Result<(Journal, Option<String>), Error> {
        match std::fs::read_to_string(journal_path()?) {
            Ok(text) => Ok((
                serde_json::from_str(&text).context("reading the install journal")?,
                Some(text),
            )),
            Err(_) => Ok((Journal::default(), None)),
        }
    }

    /// Writes the journal, which was `before` when read.
    fn save(&self, before: Option<&str>) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self).map_err(Error::bridge)?;
        Ok(atomic::write(&journal_path()?, &text, before)?)
    }
}

/// The file name of the client, the small program that is the hook command where it is
/// installed beside the `hooks` program (`crates/hooks-cli/src/bin/hooks-bridge.rs`).
pub use crate::config::BRIDGE_CLIENT as CLIENT;

/// The client beside the `hooks` program `program` (a file named [`CLIENT`] in the same
/// directory), if there is one: a regular file (or a link to one) that may be executed.
/// This is the one rule for which hook command install writes ([`bridge_command`]).
pub fn client_beside(program: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let client = program.with_file_name(CLIENT);
    let meta = std::fs::metadata(&client).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(client)
}

/// The two commands by which an agent calls the bridge of one `hooks` program: through
/// the client beside it (`'/dir/hooks-bridge' AGENT`), or through the engine itself
/// (`'/dir/hooks' bridge AGENT`, what installs wrote before the client). Both are the
/// bridge's own entries: install writes [`BridgeCommands::written`] and replaces
/// [`BridgeCommands::other`], uninstall takes either out, doctor accepts either.
#[derive(Debug, Clone)]
pub(crate) struct BridgeCommands {
    /// The command install writes: the client's when it is beside the program, else the
    /// engine's.
    pub(crate) written: String,
    /// The other spelling, for the same directory.
    pub(crate) other: String,
}

impl BridgeCommands {
    /// The commands by which `agent` calls the bridge of the `hooks` program of `options`,
    /// its path as the shell reads it.
    pub(crate) fn of(agent: &Agent, options: &Options) -> Result<BridgeCommands, Error> {
        let program = options
            .program
            .as_ref()
            .context("finding the hooks binary")?;
        let quoted = |p: &Path| crate::config::shell_quote(&p.display().to_string());
        let engine = format!("{} bridge {}", quoted(program), agent.name());
        let client = format!(
            "{} {}",
            quoted(&program.with_file_name(CLIENT)),
            agent.name()
        );
        Ok(if client_beside(program).is_some() {
            BridgeCommands {
                written: client,
                other: engine,
            }
        } else {
            BridgeCommands {
                written: engine,
                other: client,
            }
        })
    }

    /// Both commands, the written one first.
    pub(crate) fn both(&self) -> [&str; 2] {
        [&self.written, &self.other]
    }

    /// Whether a hook's command `cmd` is a call of the bridge by either command (on some
    /// event, where the line names the event).
    pub(crate) fn calls(&self, settings: &Settings, cmd: &str) -> bool {
        self.both()
            .iter()
            .any(|c| settings.is_bridge_command(cmd, c))
    }
}

/// The command `agent` runs to call the bridge of the `hooks` program of `options`: the
/// client beside that program, if there is one ([`client_beside`]), with the agent's name
/// (`'/dir/hooks-bridge' claude`), else the program itself, by its path as the shell reads
/// it, and `bridge AGENT` (`'/dir/hooks' bridge claude`). The client answers exactly as
/// `hooks bridge` does, and starts much faster (`docs/decisions.md`).
pub fn bridge_command(agent: &Agent, options: &Options) -> Result<String, Error> {
    Ok(BridgeCommands::of(agent, options)?.written)
}

/// A move of the hooks of one of an agent's files into the engine's native config, or
/// back (`hooks migrate AGENT FILE [--undo]`), which install and uninstall ask of their
/// caller.
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
pub struct Migration<'a> {
    /// The agent whose file it is.
    pub agent: &'static Agent,
    /// The file whose hooks move (its settings file, or its trust file: Codex's
    /// `config.toml`).
    pub file: &'a Path,
    /// The project root.
    pub project: &'a Path,
    /// Whether the hooks go back into the file, as they were.
    pub undo: bool,
}

/// What an install is asked to do besides writing the bridge's entries.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    /// Also move the file's own hooks into the engine's config first (uninstall puts them
    /// back).
    pub migrate: bool,
    /// Install an entry for every event the agent has, not only those with a hook.
    pub all_events: bool,
}

impl Request {
    /// An install with [`Request::migrate`] and [`Request::all_events`] as given.
    pub fn new(migrate: bool, all_events: bool) -> Request {
        Request {
            migrate,
            all_events,
        }
    }
}

/// An install of the bridge into one agent's settings, planned by [`plan`]: where it
/// goes, and why there if not where asked.
#[derive(Debug)]
pub struct Install {
    agent: &'static Agent,
    options: Options,
    project: PathBuf,
    commands: BridgeCommands,
    target: PathBuf,
    note: Option<String>,
}

/// Plans the install of the bridge (the `hooks` program of `options`) into `agent`'s
/// settings of `scope`, in the project `project`.
pub fn plan(
    agent: &'static Agent,
    scope: Scope,
    project: &Path,
    options: &Options,
) -> Result<Install, Error> {
    let (target, note) = match agent.settings {
        Some(settings) => (
            (settings.path)(scope, project)?,
            (settings.note)(scope, project)?,
        ),
        None => match agent.plugin {
            Some(plugin) => ((plugin.dir)(scope, project)?, None),
            None => (cline::hooks_dir(scope, project)?, None),
        },
    };
    Ok(Install {
        agent,
        options: options.clone(),
        project: project.to_path_buf(),
        commands: BridgeCommands::of(agent, options)?,
        target,
        note,
    })
}

/// What an install did.
#[non_exhaustive]
#[derive(Debug)]
pub struct Installed {
    /// The settings file (or, for hook files, their directory) installed into.
    pub target: PathBuf,
    /// What was written there.
    pub outcome: Outcome,
    /// The trust file in which the agent now trusts the bridge's entries (Codex's
    /// `config.toml`), if the agent has one.
    pub trusted: Option<PathBuf>,
}

/// What an install wrote into its target.
#[non_exhaustive]
#[derive(Debug)]
pub enum Outcome {
    /// Nothing: the bridge was already installed for every event with a hook.
    AlreadyInstalled,
    /// Nothing: no event has a hook in the engine's config.
    NothingToInstall,
    /// The settings file: `command` runs on `events` (their names in the agent's events;
    /// none when the file was only recorded).
    Entries {
        /// The bridge command the entries run.
        command: String,
        /// The events given an entry, or whose entry of the other spelling now runs
        /// `command`.
        events: Vec<String>,
    },
    /// Hook files that run the bridge, by name.
    HookFiles(Vec<String>),
}

impl Install {
    /// The settings file the bridge goes into (or the directory of the hook files).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Why the install goes elsewhere than asked, if it does (Codex's project layer, read
    /// only for a project Codex trusts).
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Installs the bridge as planned: `migrate` is asked to move the agent files' own
    /// hooks (with [`Request::migrate`]), before the bridge's entries are written.
    pub fn run<E: From<Error>>(
        self,
        request: Request,
        migrate: &mut dyn FnMut(&Migration<'_>) -> Result<(), E>,
    ) -> Result<Installed, E> {
        let Some(settings) = self.agent.settings else {
            return Ok(match self.agent.plugin {
                Some(plugin) => plugin::install(&plugin, &self, request)?,
                None => cline::install(&self, request)?,
            });
        };
        let Install {
            agent,
            options,
            project,
            commands,
            target: path,
            ..
        } = self;
        let command = commands.written.clone();
        let (mut journal, journal_text) = Journal::open()?;
        let before = std::fs::read_to_string(&path).ok();
        let first = !journal.files.contains_key(&path);
        let mut record = journal.files.get(&path).cloned().unwrap_or(Record {
            original: before.clone(),
            ..Record::default()
        });
        let mut text = before.clone();
        if request.migrate
            && record.migrated.is_none()
            && before
                .as_deref()
                .is_some_and(|t| has_own_hooks(&settings, t, &commands))
        {
            migrate(&Migration {
                agent,
                file: &path,
                project: &project,
                undo: false,
            })?;
            text = std::fs::read_to_string(&path).ok();
            record.migrated = text.clone();
        }
        if request.migrate
            && let Some(trust_file) = settings.trust_file
        {
            migrate_trust_file(agent, &mut journal, &trust_file()?, &project, migrate)?;
        }
        let events: Vec<String> = if request.all_events {
            (agent.events)()
                .into_iter()
                .map(|(_, name)| name.to_owned())
                .collect()
        } else {
            configured_events(agent, &project, &options)?
        };
        let source = text.clone().unwrap_or_else(|| "{}\n".to_owned());
        let value: Value = serde_json::from_str(&source)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        let mut doc = JsonDoc::parse(&source).map_err(Error::from)?;
        if let Some(version) = settings.version
            && value.get("version").is_none()
        {
            doc.set(&[], "version", &json!(version))
                .map_err(Error::from)?;
        }
        if !value.get("hooks").is_some_and(Value::is_object) {
            doc.set(&[], "hooks", &json!({})).map_err(Error::from)?;
        }
        // Entries an install by the other command left (`hooks bridge AGENT` before the
        // client, or the client's where it is gone) now run this one.
        let mut added = upgrade(&settings, &value, &mut doc, &commands)?;
        for event in &events {
            if added.contains(event) || calls_bridge(&settings, &value, event, &command) {
                continue;
            }
            let entry = (settings.entry)(&command, event);
            let at = [Seg::Key("hooks".to_owned())];
            if value["hooks"][event.as_str()].is_array() {
                doc.push(
                    &[Seg::Key("hooks".to_owned()), Seg::Key(event.clone())],
                    &entry,
                )
                .map_err(Error::from)?;
            } else {
                doc.set(&at, event, &json!([entry])).map_err(Error::from)?;
            }
            added.push(event.clone());
        }
        let new_text = doc.text();
        if added.is_empty() && !first {
            let mut trusted = None;
            if let Some(trust_file) = settings.trust_file {
                // Trust lost or stale (an entry moved): trusting again is what fixes it.
                let config = trust_file()?;
                trust_entries(&mut journal, &config, &path, &new_text, &command)?;
                journal.save(journal_text.as_deref())?;
                trusted = Some(config);
            }
            return Ok(Installed {
                target: path,
                outcome: Outcome::AlreadyInstalled,
                trusted,
            });
        }
        if added.is_empty() && events.is_empty() {
            return Ok(Installed {
                target: path,
                outcome: Outcome::NothingToInstall,
                trusted: None,
            });
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        if Some(&new_text) != text.as_ref() {
            atomic::write(&path, &new_text, text.as_deref()).map_err(Error::from)?;
        }
        let mut trusted = None;
        if let Some(trust_file) = settings.trust_file {
            let config = trust_file()?;
            trust_entries(&mut journal, &config, &path, &new_text, &command)?;
            trusted = Some(config);
        }
        record.installed = new_text;
        journal.files.insert(path.clone(), record);
        journal.save(journal_text.as_deref())?;
        Ok(Installed {
            target: path,
            outcome: Outcome::Entries {
                command,
                events: added,
            },
            trusted,
        })
    }
}

/// The trust Codex needs for the bridge entries in `hooks_json` (its text as installed),
/// those whose command is one of `commands`: the `[hooks.state]` entries of
/// `config.toml`, for those entries only.
fn codex_trust_of(
    path: &Path,
    hooks_json: &str,
    commands: &[&str],
) -> Result<Vec<TrustEntry>, Error> {
    Ok(codex_trust::text_trust_entries_where(
        path,
        hooks_json,
        &|h| commands.contains(&h.command),
    )?)
}

/// The events of `agent` with a hook in the engine's config as the bridge loads it (active
/// or waiting for trust), in catalog order, each under the agent's own name.
fn configured_events(
    agent: &'static Agent,
    project: &Path,
    options: &Options,
) -> Result<Vec<String>, Error> {
    let engine = super::engine_builder(agent.dialect, project, options)?.build()?;
    let loaded = engine.loaded();
    let names: BTreeSet<String> = loaded
        .hooks
        .hooks()
        .iter()
        .map(|h| h.spec.event.name().to_owned())
        .collect();
    Ok((agent.events)()
        .into_iter()
        .filter(|(canonical, _): &(Vec<BuiltinEvent>, _)| {
            canonical.iter().any(|c| names.contains(c.name()))
        })
        .map(|(_, name)| name.to_owned())
        .collect())
}

/// The hooks of one entry of an event's list: a matcher group's `hooks`, or, in flat
/// lists (Cursor's), the entry itself.
fn handlers<'a>(settings: &Settings, entry: &'a Value) -> &'a [Value] {
    if settings.flat {
        std::slice::from_ref(entry)
    } else {
        entry["hooks"].as_array().map_or(&[], Vec::as_slice)
    }
}

/// Every hook of the settings `value`, with its event.
fn all_handlers<'a>(settings: &Settings, value: &'a Value) -> Vec<(&'a str, &'a Value)> {
    value["hooks"]
        .as_object()
        .into_iter()
        .flatten()
        .flat_map(|(event, entries)| {
            entries
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(move |e| handlers(settings, e))
                .map(move |h| (event.as_str(), h))
        })
        .collect()
}

/// Whether the entries of `event` in `settings` already call `command` (on that event,
/// where the line names it).
fn calls_bridge(row: &Settings, settings: &Value, event: &str, command: &str) -> bool {
    let line = row.command_for(command, event);
    settings["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|entry| handlers(row, entry))
        .any(|h| row.command_of(h) == line)
}

/// An uninstall of the bridge from one agent's settings, found by [`uninstall`]; run it
/// with [`Uninstall::take_out_trust`], then [`Uninstall::restore`] (or both at once,
/// [`Uninstall::run`]).
#[derive(Debug)]
pub struct Uninstall {
    agent: &'static Agent,
    project: PathBuf,
    commands: BridgeCommands,
    target: PathBuf,
    journal: Journal,
    journal_text: Option<String>,
}

/// What an uninstall did.
#[non_exhaustive]
#[derive(Debug)]
pub struct Uninstalled {
    /// The trust file the bridge's trust was taken out of (Codex's `config.toml`), if any.
    pub trust_removed: Option<PathBuf>,
    /// What became of the settings file (or the hook files).
    pub restored: Restored,
}

/// What an uninstall did to the settings file (or the hook files).
#[non_exhaustive]
#[derive(Debug)]
pub enum Restored {
    /// Nothing: the bridge was not installed in this file (or directory) by an install.
    NotInstalled(PathBuf),
    /// The file is as it was before the first install, byte for byte (and the migrated
    /// hooks are back in it).
    AsBefore(PathBuf),
    /// The file changed since the install: only the bridge's entries were taken out.
    EntriesRemoved(PathBuf),
    /// Hook files in the directory `dir` (none removed and none changed: the bridge was
    /// not installed there).
    HookFiles {
        /// Their directory.
        dir: PathBuf,
        /// The files removed, by name: written by the install and still as written.
        removed: Vec<&'static str>,
        /// The install's files left because they changed since.
        changed: Vec<&'static str>,
        /// The other files left in the directory (not the bridge's), in name order.
        left: Vec<String>,
    },
}

/// Finds what uninstalling the bridge (the `hooks` program of `options`) from `agent`'s
/// settings of `scope`, in the project `project`, takes: the file the install journal
/// knows.
pub fn uninstall(
    agent: &'static Agent,
    scope: Scope,
    project: &Path,
    options: &Options,
) -> Result<Uninstall, Error> {
    let (journal, journal_text) = Journal::open()?;
    let target = match agent.settings {
        Some(settings) => {
            let mut path = (settings.path)(scope, project)?;
            // Where the install went may have changed since (Codex's project trust): the
            // file installed into is the one the journal knows.
            if !journal.files.contains_key(&path) {
                let others = (settings.other_paths)(scope, project)?;
                if let Some(other) = others
                    .iter()
                    .find(|p| journal.files.contains_key(*p))
                    .or(others.last())
                {
                    path = other.clone();
                }
            }
            path
        }
        None => match agent.plugin {
            Some(plugin) => (plugin.dir)(scope, project)?,
            None => cline::hooks_dir(scope, project)?,
        },
    };
    Ok(Uninstall {
        agent,
        project: project.to_path_buf(),
        commands: BridgeCommands::of(agent, options)?,
        target,
        journal,
        journal_text,
    })
}

impl Uninstall {
    /// The settings file the bridge is taken out of (or the directory of the hook files).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Takes the bridge's trust out of the agent's trust file (Codex's `config.toml`):
    /// the file as it was before the install, with the migrated hooks put back through
    /// `migrate`, or, if it changed since, without the bridge's trust entries. The trust
    /// file, if it was taken out of; nothing when the settings file was not installed
    /// into. Its migration, if any, was the later one, so it is undone first.
    pub fn take_out_trust<E: From<Error>>(
        &mut self,
        migrate: &mut dyn FnMut(&Migration<'_>) -> Result<(), E>,
    ) -> Result<Option<PathBuf>, E> {
        let Some(trust_file) = self.agent.settings.and_then(|s| s.trust_file) else {
            return Ok(None);
        };
        let Some(record) = self.journal.files.get(&self.target).cloned() else {
            return Ok(None);
        };
        let config = trust_file()?;
        let Some(trust) = self.journal.files.remove(&config) else {
            return Ok(None);
        };
        let now = std::fs::read_to_string(&config).ok();
        if now.as_deref() == Some(trust.installed.as_str()) {
            match &trust.migrated {
                Some(migrated) => {
                    atomic::write(&config, migrated, now.as_deref()).map_err(Error::from)?;
                    migrate(&Migration {
                        agent: self.agent,
                        file: &config,
                        project: &self.project,
                        undo: true,
                    })?;
                }
                None => restore(&config, trust.original.as_deref(), now.as_deref())?,
            }
        } else {
            let entries = codex_trust_of(&self.target, &record.installed, &self.commands.both())?;
            codex_trust::remove_trust(&config, &entries).map_err(Error::from)?;
        }
        Ok(Some(config))
    }

    /// Restores the settings file as it was before the first install, byte for byte (and
    /// the migrated hooks back in it, through `migrate`); if the file was edited since,
    /// only the bridge's entries are taken out. Hook files are removed where they are
    /// still as the install wrote them.
    pub fn restore<E: From<Error>>(
        self,
        migrate: &mut dyn FnMut(&Migration<'_>) -> Result<(), E>,
    ) -> Result<Restored, E> {
        let Uninstall {
            agent,
            project,
            commands,
            target: path,
            mut journal,
            journal_text,
        } = self;
        let Some(settings) = agent.settings else {
            return Ok(match agent.plugin {
                Some(plugin) => plugin::uninstall(&plugin, path, journal, journal_text.as_deref())?,
                None => cline::uninstall(path, journal, journal_text.as_deref())?,
            });
        };
        let Some(record) = journal.files.get(&path).cloned() else {
            return Ok(Restored::NotInstalled(path));
        };
        let now = std::fs::read_to_string(&path).ok();
        let restored = if now.as_deref() != Some(record.installed.as_str()) {
            let Some(now) = now else {
                return Err(Error::bridge(format!(
                    "{} is gone; nothing to restore",
                    path.display()
                ))
                .into());
            };
            let text = remove_bridge(&settings, &now, &commands)?;
            atomic::write(&path, &text, Some(&now)).map_err(Error::from)?;
            Restored::EntriesRemoved(path.clone())
        } else {
            if let Some(migrated) = &record.migrated {
                atomic::write(&path, migrated, Some(&record.installed)).map_err(Error::from)?;
                migrate(&Migration {
                    agent,
                    file: &path,
                    project: &project,
                    undo: true,
                })?;
            }
            let current = std::fs::read_to_string(&path).ok();
            restore(&path, record.original.as_deref(), current.as_deref())?;
            Restored::AsBefore(path.clone())
        };
        journal.files.remove(&path);
        journal.save(journal_text.as_deref())?;
        Ok(restored)
    }

    /// [`Uninstall::take_out_trust`], then [`Uninstall::restore`].
    pub fn run<E: From<Error>>(
        mut self,
        migrate: &mut dyn FnMut(&Migration<'_>) -> Result<(), E>,
    ) -> Result<Uninstalled, E> {
        let trust_removed = self.take_out_trust(migrate)?;
        let restored = self.restore(migrate)?;
        Ok(Uninstalled {
            trust_removed,
            restored,
        })
    }
}

/// With `--migrate`, moves the hooks of the agent's trust file (Codex's `config.toml`:
/// its `[[hooks.Event]]` tables; `[hooks.state]` stays) into the engine's native config,
/// on the first install only (the journal keeps the text before and after, for
/// uninstall).
fn migrate_trust_file<E: From<Error>>(
    agent: &'static Agent,
    journal: &mut Journal,
    config: &Path,
    project: &Path,
    migrate: &mut dyn FnMut(&Migration<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let config = config.to_path_buf();
    if journal.files.contains_key(&config) {
        return Ok(());
    }
    let Ok(text) = std::fs::read_to_string(&config) else {
        return Ok(());
    };
    if codex_trust::without_hooks(&text).map_err(Error::from)? == text {
        return Ok(());
    }
    migrate(&Migration {
        agent,
        file: &config,
        project,
        undo: false,
    })?;
    journal.files.insert(
        config.clone(),
        Record {
            original: Some(text),
            migrated: std::fs::read_to_string(&config).ok(),
            installed: String::new(),
        },
    );
    Ok(())
}

/// Writes the agent's trust of the bridge entries of `hooks_json` (the text of `path`)
/// into its trust file `config` (Codex's `config.toml`), keeping in the journal what that
/// file was before the first install.
fn trust_entries(
    journal: &mut Journal,
    config: &Path,
    path: &Path,
    hooks_json: &str,
    command: &str,
) -> Result<(), Error> {
    let config = config.to_path_buf();
    let entries = codex_trust_of(path, hooks_json, &[command])?;
    let mut trust = journal.files.get(&config).cloned().unwrap_or(Record {
        original: std::fs::read_to_string(&config).ok(),
        ..Record::default()
    });
    codex_trust::write_trust(&config, &entries)?;
    trust.installed = std::fs::read_to_string(&config).unwrap_or_default();
    journal.files.insert(config, trust);
    Ok(())
}

/// Puts `original` back at `path` (which now holds `current`), or removes the file when
/// there was none.
/// What an uninstall left of the files in `dir`, the directory the bridge's own files
/// were taken out of (Cline's hooks directory, OpenCode's plugin directory): the names of
/// the files there that are not `kept` (a bridge file changed since the install, kept and
/// reported apart), sorted; when nothing at all is left, the directory goes too (when
/// `created`: the install made it, or its own files were all that was there).
fn left_in(dir: &Path, kept: impl Fn(&str) -> bool, created: bool) -> Vec<String> {
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !kept(n))
        .collect();
    left.sort();
    if created && std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none()) {
        let _ = std::fs::remove_dir(dir);
    }
    left
}

fn restore(path: &Path, original: Option<&str>, current: Option<&str>) -> Result<(), Error> {
    match original {
        Some(original) if current != Some(original) => Ok(atomic::write(path, original, current)?),
        Some(_) => Ok(()),
        None => {
            let _ = std::fs::remove_file(path);
            Ok(())
        }
    }
}

/// Whether the settings `text` has hooks other than the bridge's (by either of `commands`).
fn has_own_hooks(settings: &Settings, text: &str, commands: &BridgeCommands) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    all_handlers(settings, &value)
        .iter()
        .any(|(_, h)| !commands.calls(settings, settings.command_of(h)))
}

/// `text` without the entries (matcher groups, Cursor's hooks) whose only hooks call the
/// bridge by one of `commands`.
fn remove_bridge(
    settings: &Settings,
    text: &str,
    commands: &BridgeCommands,
) -> Result<String, Error> {
    let value: Value = serde_json::from_str(text).map_err(Error::bridge)?;
    let mut doc = JsonDoc::parse(text)?;
    let Some(events) = value["hooks"].as_object() else {
        return Ok(text.to_owned());
    };
    for (event, groups) in events {
        let Some(groups) = groups.as_array() else {
            continue;
        };
        for (i, group) in groups.iter().enumerate().rev() {
            let hs = handlers(settings, group);
            let only_bridge = !hs.is_empty()
                && hs
                    .iter()
                    .all(|h| commands.calls(settings, settings.command_of(h)));
            if only_bridge {
                doc.remove(&[
                    Seg::Key("hooks".to_owned()),
                    Seg::Key(event.clone()),
                    Seg::Index(i),
                ])?;
            }
        }
    }
    Ok(doc.text())
}

/// Makes each hook of the settings `value` (whose text `doc` edits) that calls the bridge
/// by [`BridgeCommands::other`] call it by [`BridgeCommands::written`] instead, in place
/// (its matcher group, position and other keys stay, and so does Codex's trust key of
/// it); where its event already calls the written command, the hook is removed instead
/// (with its group, when that was all the group held), so that no event calls the
/// bridge twice. The events changed, in file order.
fn upgrade(
    settings: &Settings,
    value: &Value,
    doc: &mut JsonDoc,
    commands: &BridgeCommands,
) -> Result<Vec<String>, Error> {
    let mut changed = Vec::new();
    let Some(events) = value["hooks"].as_object() else {
        return Ok(changed);
    };
    for (event, groups) in events {
        let Some(groups) = groups.as_array() else {
            continue;
        };
        let line = settings.command_for(&commands.written, event);
        let mut called = calls_bridge(settings, value, event, &commands.written);
        let list = [Seg::Key("hooks".to_owned()), Seg::Key(event.clone())];
        // Per group, the hooks to remove, removed after the replacements, from the last,
        // so that each index still points where it did.
        let mut removals: Vec<(usize, Vec<usize>)> = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let hs = handlers(settings, group);
            let mut removed = Vec::new();
            for (h, hook) in hs.iter().enumerate() {
                if !settings.is_bridge_command(settings.command_of(hook), &commands.other) {
                    continue;
                }
                if called {
                    removed.push(h);
                    continue;
                }
                let mut at = [list.as_slice(), &[Seg::Index(g)]].concat();
                if !settings.flat {
                    at.extend([Seg::Key("hooks".to_owned()), Seg::Index(h)]);
                }
                // The event a line names is its own event: the new line names it too.
                doc.set(&at, settings.command_key, &json!(line))?;
                called = true;
                if !changed.contains(event) {
                    changed.push(event.clone());
                }
            }
            if !removed.is_empty() {
                removals.push((g, removed));
            }
        }
        for (g, removed) in removals.into_iter().rev() {
            let group = [list.as_slice(), &[Seg::Index(g)]].concat();
            if removed.len() == handlers(settings, &groups[g]).len() {
                doc.remove(&group)?;
            } else {
                for h in removed.into_iter().rev() {
                    doc.remove(
                        &[
                            group.as_slice(),
                            &[Seg::Key("hooks".to_owned()), Seg::Index(h)],
                        ]
                        .concat(),
                    )?;
                }
            }
            if !changed.contains(event) {
                changed.push(event.clone());
            }
        }
    }
    Ok(changed)
}
