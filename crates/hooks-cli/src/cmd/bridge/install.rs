//! `hooks install AGENT`, `hooks uninstall AGENT` and `hooks doctor`: the bridge registered
//! as the agent's hook command in its own settings file (Claude Code's or Gemini CLI's
//! `settings.json`), and taken out again. Cline, which has hook files instead of a settings
//! file, has its own module (`install_cline`), with this journal.
//!
//! Install adds one minimal entry per event (`{"hooks": [{"type": "command", "command":
//! "<this hooks binary> bridge claude"}]}`; Gemini CLI's with `matcher: "*"` and a timeout
//! in milliseconds, under its own event names) to the file's `hooks`, for every event that has
//! a hook in the engine's config (or every event the agent has, with `--all-events`),
//! editing the file in place (every other byte stays) and atomically; an event that
//! already calls the bridge is left alone, so installing twice changes nothing. The file's
//! text before the first install is kept in the install journal (`installs.json` in the
//! state directory), and uninstall writes it back byte for byte. `--migrate` first moves
//! the file's own hooks into the engine's native config (`hooks migrate
//! claude|codex|cursor|gemini`), so that they run once, through the bridge; uninstall
//! undoes that too.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hooks::config::Inactive;
use hooks::core::BuiltinEvent;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cli::{Agent, ConfigArgs, DoctorArgs, InstallArgs, MigrateArgs, Scope};
use crate::cmd::render::plural;
use hooks::bridge::agents::{self, Settings};
use hooks::bridge::state::StateStore;
use hooks::config::edit::codex_trust::{self, TrustEntry};
use hooks::config::edit::json::JsonDoc;
use hooks::config::edit::{Doc, Seg, atomic};

/// What the journal keeps of one installed file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Installed {
    /// The file's text before the first install (`None`: there was no file).
    pub(super) original: Option<String>,
    /// Its text after the migration (with `--migrate`).
    pub(super) migrated: Option<String>,
    /// Its text as the last install left it.
    pub(super) installed: String,
}

/// The install journal: installed files by path.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Journal {
    pub(super) files: BTreeMap<PathBuf, Installed>,
}

fn journal_path() -> Result<PathBuf> {
    let store = StateStore::open()
        .context("no state directory for the install journal (set HOME or HOOKS_STATE_DIR)")?;
    Ok(store.audit_path().with_file_name("installs.json"))
}

impl Journal {
    pub(super) fn open() -> Result<(Journal, Option<String>)> {
        match std::fs::read_to_string(journal_path()?) {
            Ok(text) => Ok((
                serde_json::from_str(&text).context("reading the install journal")?,
                Some(text),
            )),
            Err(_) => Ok((Journal::default(), None)),
        }
    }

    pub(super) fn save(&self, before: Option<&str>) -> Result<()> {
        Ok(atomic::write(
            &journal_path()?,
            &serde_json::to_string_pretty(self)?,
            before,
        )?)
    }
}

/// The command the agent runs: this binary, by its absolute path, and `bridge AGENT`.
pub fn bridge_command(agent: Agent) -> Result<String> {
    bridge_command_of(agent.as_str())
}

/// [`bridge_command`] for the agent named `name`.
fn bridge_command_of(name: &str) -> Result<String> {
    let exe = std::env::current_exe().context("finding the hooks binary")?;
    Ok(format!(
        "{} bridge {}",
        hooks::config::shell_quote(&exe.display().to_string()),
        name
    ))
}

/// What the bridge knows of `agent` (every agent of the command line has a row).
fn row(agent: Agent) -> Result<&'static agents::Agent> {
    agents::agent(agent.dialect())
        .with_context(|| format!("the bridge does not install {}", agent.as_str()))
}

/// The bridge's scope for the command line's.
fn scope_of(scope: Scope) -> agents::Scope {
    match scope {
        Scope::User => agents::Scope::User,
        Scope::Project => agents::Scope::Project,
    }
}

/// The trust Codex needs for the bridge entries in `hooks_json` (its text as installed):
/// the `[hooks.state]` entries of `config.toml`, for those entries only.
fn codex_trust_of(path: &Path, hooks_json: &str, command: &str) -> Result<Vec<TrustEntry>> {
    Ok(codex_trust::text_trust_entries_where(
        path,
        hooks_json,
        &|h| h.command == command,
    )?)
}

/// `builder` without the files `agent` reads hooks from itself.
fn without_own_files(builder: hooks::EngineBuilder, agent: Agent) -> Result<hooks::EngineBuilder> {
    Ok(hooks::bridge::without_own_files(builder, row(agent)?))
}

fn project_of(dir: Option<&PathBuf>) -> Result<PathBuf> {
    let project = super::super::project_dir(&ConfigArgs {
        project: dir.cloned(),
        ..ConfigArgs::default()
    })?;
    Ok(std::path::absolute(&project).unwrap_or(project))
}

/// The events with a hook in the engine's config as the bridge loads it (active or
/// waiting for trust), in catalog order.
pub(super) fn configured_events(agent: Agent, project: &Path) -> Result<Vec<String>> {
    let args = ConfigArgs {
        project: Some(project.to_path_buf()),
        ..ConfigArgs::default()
    };
    let engine = without_own_files(super::super::engine_builder(&args)?, agent)?.build()?;
    let loaded = engine.loaded();
    let names: BTreeSet<String> = loaded
        .hooks
        .hooks()
        .iter()
        .map(|h| h.spec.event.name().to_owned())
        .collect();
    Ok(agent_events(agent)?
        .into_iter()
        .filter(|(canonical, _)| canonical.iter().any(|c| names.contains(c.name())))
        .map(|(_, name)| name.to_owned())
        .collect())
}

/// The agent's events, each with the canonical events it stands for, in catalog order.
fn agent_events(agent: Agent) -> Result<Vec<(Vec<BuiltinEvent>, &'static str)>> {
    Ok((row(agent)?.events)())
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

/// Whether the entries of `event` in `settings` already call `command`.
fn calls_bridge(row: &Settings, settings: &Value, event: &str, command: &str) -> bool {
    settings["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|entry| handlers(row, entry))
        .any(|h| h["command"] == command)
}

/// `hooks install AGENT`.
pub fn install(args: &InstallArgs) -> Result<u8> {
    let project = project_of(args.project.as_ref())?;
    let Some(settings) = row(args.agent)?.settings else {
        return super::install_cline::install(args, &project);
    };
    let path = (settings.path)(scope_of(args.scope), &project)?;
    if let Some(why) = (settings.note)(scope_of(args.scope), &project)? {
        writeln!(std::io::stdout().lock(), "note: {why}")?;
    }
    let (mut journal, journal_text) = Journal::open()?;
    let before = std::fs::read_to_string(&path).ok();
    let first = !journal.files.contains_key(&path);
    let mut record = journal.files.get(&path).cloned().unwrap_or(Installed {
        original: before.clone(),
        ..Installed::default()
    });
    let mut out = std::io::stdout().lock();
    let mut text = before.clone();
    let command = bridge_command(args.agent)?;
    if args.migrate
        && record.migrated.is_none()
        && before
            .as_deref()
            .is_some_and(|t| has_own_hooks(&settings, t, &command))
    {
        drop(out);
        super::super::migrate::run(&MigrateArgs {
            from: args.agent.as_str().to_owned(),
            settings: Some(path.clone()),
            to: None,
            undo: false,
            project: Some(project.clone()),
        })?;
        out = std::io::stdout().lock();
        text = std::fs::read_to_string(&path).ok();
        record.migrated = text.clone();
    }
    if args.migrate
        && let Some(trust_file) = settings.trust_file
    {
        drop(out);
        migrate_trust_file(args.agent, &mut journal, &trust_file()?, &project)?;
        out = std::io::stdout().lock();
    }
    let events: Vec<String> = if args.all_events {
        agent_events(args.agent)?
            .into_iter()
            .map(|(_, name)| name.to_owned())
            .collect()
    } else {
        configured_events(args.agent, &project)?
    };
    let source = text.clone().unwrap_or_else(|| "{}\n".to_owned());
    let value: Value =
        serde_json::from_str(&source).with_context(|| format!("{} is not JSON", path.display()))?;
    let mut doc = JsonDoc::parse(&source)?;
    if let Some(version) = settings.version
        && value.get("version").is_none()
    {
        doc.set(&[], "version", &json!(version))?;
    }
    if !value.get("hooks").is_some_and(Value::is_object) {
        doc.set(&[], "hooks", &json!({}))?;
    }
    let mut added = Vec::new();
    for event in &events {
        if calls_bridge(&settings, &value, event, &command) {
            continue;
        }
        let entry = (settings.entry)(&command, event);
        let at = [Seg::Key("hooks".to_owned())];
        if value["hooks"][event.as_str()].is_array() {
            doc.push(
                &[Seg::Key("hooks".to_owned()), Seg::Key(event.clone())],
                &entry,
            )?;
        } else {
            doc.set(&at, event, &json!([entry]))?;
        }
        added.push(event.as_str());
    }
    let new_text = doc.text();
    if added.is_empty() && !first {
        writeln!(
            out,
            "{}: the bridge is already installed for every event with a hook",
            path.display()
        )?;
        if let Some(trust_file) = settings.trust_file {
            // Trust lost or stale (an entry moved): trusting again is what fixes it.
            trust_entries(
                &mut journal,
                &trust_file()?,
                &path,
                &new_text,
                &command,
                &mut out,
            )?;
            journal.save(journal_text.as_deref())?;
        }
        return Ok(0);
    }
    if added.is_empty() && events.is_empty() {
        writeln!(
            out,
            "no event has a hook in the engine's config yet; nothing to install (`--all-events` installs every event)"
        )?;
        return Ok(0);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    if Some(&new_text) != text.as_ref() {
        atomic::write(&path, &new_text, text.as_deref())?;
    }
    if let Some(trust_file) = settings.trust_file {
        trust_entries(
            &mut journal,
            &trust_file()?,
            &path,
            &new_text,
            &command,
            &mut out,
        )?;
    }
    record.installed = new_text;
    journal.files.insert(path.clone(), record);
    journal.save(journal_text.as_deref())?;
    writeln!(
        out,
        "{}: `{command}` runs on {}",
        path.display(),
        if added.is_empty() {
            "no new event".to_owned()
        } else {
            added.join(", ")
        }
    )?;
    writeln!(
        out,
        "undo: `hooks uninstall {}{}`",
        args.agent.as_str(),
        scope_flag(args.scope)
    )?;
    Ok(0)
}

fn scope_flag(scope: Scope) -> &'static str {
    match scope {
        Scope::User => " --scope user",
        Scope::Project => "",
    }
}

/// `hooks uninstall AGENT`: the file as it was before the first install, byte for byte
/// (and the migrated hooks back in it); if the file was edited since, only the bridge's
/// entries are taken out.
pub fn uninstall(args: &InstallArgs) -> Result<u8> {
    let project = project_of(args.project.as_ref())?;
    let Some(settings) = row(args.agent)?.settings else {
        return super::install_cline::uninstall(args, &project);
    };
    let (mut journal, journal_text) = Journal::open()?;
    let mut path = (settings.path)(scope_of(args.scope), &project)?;
    // Where the install went may have changed since (Codex's project trust): the file
    // installed into is the one the journal knows.
    if !journal.files.contains_key(&path) {
        let others = (settings.other_paths)(scope_of(args.scope), &project)?;
        if let Some(other) = others
            .iter()
            .find(|p| journal.files.contains_key(*p))
            .or(others.last())
        {
            path = other.clone();
        }
    }
    let mut out = std::io::stdout().lock();
    let Some(record) = journal.files.get(&path).cloned() else {
        writeln!(
            out,
            "{}: the bridge was not installed here by `hooks install`",
            path.display()
        )?;
        return Ok(0);
    };
    // The trust file (Codex's `config.toml`) first: its migration, if any, was the later
    // one (the native file is put back in the reverse order it was written).
    if let Some(trust_file) = settings.trust_file {
        let config = trust_file()?;
        if let Some(trust) = journal.files.remove(&config) {
            let now = std::fs::read_to_string(&config).ok();
            if now.as_deref() == Some(trust.installed.as_str()) {
                match &trust.migrated {
                    Some(migrated) => {
                        atomic::write(&config, migrated, now.as_deref())?;
                        drop(out);
                        undo_migration(args.agent, &config, &project)?;
                        out = std::io::stdout().lock();
                    }
                    None => restore(&config, trust.original.as_deref(), now.as_deref())?,
                }
            } else {
                let command = bridge_command(args.agent)?;
                let entries = codex_trust_of(&path, &record.installed, &command)?;
                codex_trust::remove_trust(&config, &entries)?;
            }
            writeln!(out, "{}: the bridge's trust is removed", config.display())?;
        }
    }
    let now = std::fs::read_to_string(&path).ok();
    if now.as_deref() != Some(record.installed.as_str()) {
        let Some(now) = now else {
            bail!("{} is gone; nothing to restore", path.display());
        };
        let command = bridge_command(args.agent)?;
        let text = remove_bridge(&settings, &now, &command)?;
        atomic::write(&path, &text, Some(&now))?;
        writeln!(
            out,
            "{} changed since `hooks install`: only the bridge's entries were removed",
            path.display()
        )?;
    } else {
        if let Some(migrated) = &record.migrated {
            atomic::write(&path, migrated, Some(&record.installed))?;
            drop(out);
            undo_migration(args.agent, &path, &project)?;
            out = std::io::stdout().lock();
        }
        let current = std::fs::read_to_string(&path).ok();
        restore(&path, record.original.as_deref(), current.as_deref())?;
        writeln!(
            out,
            "{}: restored as it was before `hooks install`",
            path.display()
        )?;
    }
    journal.files.remove(&path);
    journal.save(journal_text.as_deref())?;
    Ok(0)
}

/// Puts back the hooks the install's migration moved out of `agent`'s `file` (`hooks
/// migrate --undo`).
fn undo_migration(agent: Agent, file: &Path, project: &Path) -> Result<()> {
    super::super::migrate::run(&MigrateArgs {
        from: agent.as_str().to_owned(),
        settings: Some(file.to_path_buf()),
        to: None,
        undo: true,
        project: Some(project.to_path_buf()),
    })?;
    Ok(())
}

/// With `--migrate`, moves the hooks of the agent's trust file (Codex's `config.toml`:
/// its `[[hooks.Event]]` tables; `[hooks.state]` stays) into the engine's native config,
/// on the first install only (the journal keeps the text before and after, for
/// uninstall).
fn migrate_trust_file(
    agent: Agent,
    journal: &mut Journal,
    config: &Path,
    project: &Path,
) -> Result<()> {
    let config = config.to_path_buf();
    if journal.files.contains_key(&config) {
        return Ok(());
    }
    let Ok(text) = std::fs::read_to_string(&config) else {
        return Ok(());
    };
    if codex_trust::without_hooks(&text)? == text {
        return Ok(());
    }
    super::super::migrate::run(&MigrateArgs {
        from: agent.as_str().to_owned(),
        settings: Some(config.clone()),
        to: None,
        undo: false,
        project: Some(project.to_path_buf()),
    })?;
    journal.files.insert(
        config.clone(),
        Installed {
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
    out: &mut impl Write,
) -> Result<()> {
    let config = config.to_path_buf();
    let entries = codex_trust_of(path, hooks_json, command)?;
    let mut trust = journal.files.get(&config).cloned().unwrap_or(Installed {
        original: std::fs::read_to_string(&config).ok(),
        ..Installed::default()
    });
    codex_trust::write_trust(&config, &entries)?;
    trust.installed = std::fs::read_to_string(&config).unwrap_or_default();
    journal.files.insert(config.clone(), trust);
    writeln!(
        out,
        "{}: Codex trusts the bridge's entries ([hooks.state])",
        config.display()
    )?;
    Ok(())
}

/// Puts `original` back at `path` (which now holds `current`), or removes the file when
/// there was none.
fn restore(path: &Path, original: Option<&str>, current: Option<&str>) -> Result<()> {
    match original {
        Some(original) if current != Some(original) => Ok(atomic::write(path, original, current)?),
        Some(_) => Ok(()),
        None => {
            let _ = std::fs::remove_file(path);
            Ok(())
        }
    }
}

/// Whether the settings `text` has hooks other than the bridge's.
fn has_own_hooks(settings: &Settings, text: &str, command: &str) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    all_handlers(settings, &value)
        .iter()
        .any(|(_, h)| h["command"] != command)
}

/// `text` without the entries (matcher groups, Cursor's hooks) whose only hooks call
/// `command`.
fn remove_bridge(settings: &Settings, text: &str, command: &str) -> Result<String> {
    let value: Value = serde_json::from_str(text)?;
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
            let only_bridge = !hs.is_empty() && hs.iter().all(|h| h["command"] == command);
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

/// `hooks doctor`: for each agent, its settings files, whether they call the bridge (and
/// whether the binary they name is there), and what each installed event would run.
pub fn doctor(args: &DoctorArgs) -> Result<u8> {
    let project = project_of(args.project.as_ref())?;
    let mut out = std::io::stdout().lock();
    for agent in agents::AGENTS {
        doctor_agent(&mut out, agent, &project)?;
    }
    Ok(0)
}

/// The doctor's section for one agent.
fn doctor_agent(out: &mut impl Write, agent: &agents::Agent, project: &Path) -> Result<()> {
    let project = project.to_path_buf();
    let title = agent.title();
    let command = bridge_command_of(agent.name())?;
    let marker = format!(" bridge {}", agent.name());
    writeln!(out, "{title}")?;
    let args_for = ConfigArgs {
        project: Some(project.clone()),
        ..ConfigArgs::default()
    };
    let engine = hooks::bridge::without_own_files(super::super::engine_builder(&args_for)?, agent)
        .build()?;
    let loaded = engine.loaded();
    let Some(settings) = agent.settings else {
        for (event, calls) in super::install_cline::doctor(out, &project, &command)? {
            writeln!(out, "    {event}: {calls}; runs {}", runs(&loaded, &event))?;
        }
        return Ok(());
    };
    let mut seen = BTreeSet::new();
    for scope in [agents::Scope::User, agents::Scope::Project] {
        let path = (settings.path)(scope, &project)?;
        if !seen.insert(path.clone()) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            writeln!(out, "  {}: none", path.display())?;
            continue;
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            writeln!(out, "  {}: not JSON ({title} ignores it)", path.display())?;
            continue;
        };
        let mut bridged = Vec::new();
        let mut other = Vec::new();
        for (event, h) in all_handlers(&settings, &value) {
            let cmd = h["command"].as_str().unwrap_or_default();
            if cmd.contains(&marker) {
                bridged.push((event.to_owned(), cmd.to_owned()));
            } else {
                other.push(event.to_owned());
            }
        }
        let entries = if bridged.len() == 1 {
            "entry"
        } else {
            "entries"
        };
        tally(out, &path, bridged.len(), entries, other.len(), title)?;
        for (event, cmd) in &bridged {
            let calls = (settings.not_called)(&value, &path, &text, cmd)
                .unwrap_or_else(|| calls(cmd, &command, title));
            writeln!(out, "    {event}: {calls}; runs {}", runs(&loaded, event))?;
        }
    }
    Ok(())
}

/// The doctor's line for one of the agent's files: how many bridge calls it holds (`bridge`
/// of them, each one of `what`) and how many other hooks, which the agent runs itself.
pub(super) fn tally(
    out: &mut impl Write,
    path: &Path,
    bridged: usize,
    what: &str,
    other: usize,
    title: &str,
) -> Result<()> {
    writeln!(
        out,
        "  {}: {bridged} bridge {what}, {other} other hook{} ({title} runs those itself)",
        path.display(),
        plural(other)
    )?;
    Ok(())
}

/// What the bridge command `cmd` the agent runs calls: this binary (whose command is
/// `this`), another that is there, or one that is missing.
pub(super) fn calls(cmd: &str, this: &str, title: &str) -> String {
    if cmd == this {
        return "calls this binary".to_owned();
    }
    let binary = cmd
        .rsplit_once(" bridge ")
        .map_or("", |(b, _)| b)
        .trim_matches('\'');
    if Path::new(binary).is_file() {
        format!("calls {binary}")
    } else {
        format!("calls {binary}, which is missing: {title}'s hook call fails")
    }
}

/// What the agent's event `event` (its own name) would run: the hooks of the loaded config,
/// with why each that does not run does not; "no hook" without any.
/// Other agents' bridge entries are counted, not listed: they never run, since they run
/// these same hooks.
fn runs(loaded: &hooks::Loaded, event: &str) -> String {
    let mut runs: Vec<String> = Vec::new();
    let mut bridges: Vec<&str> = Vec::new();
    let event = hooks::bridge::agent_event(event);
    for h in loaded
        .hooks
        .hooks()
        .iter()
        .filter(|h| Some(&h.spec.event) == event.as_ref())
    {
        match &h.inactive {
            None => runs.push(h.spec.display_id()),
            Some(Inactive::Bridge { agent }) => bridges.push(
                hooks::core::Dialect::from_name(agent)
                    .map_or(agent.as_str(), |d| d.profile().display_name),
            ),
            Some(why) => runs.push(format!(
                "{} (not running: {})",
                h.spec.display_id(),
                why.describe()
            )),
        }
    }
    let mut text = if runs.is_empty() {
        "no hook".to_owned()
    } else {
        runs.join(", ")
    };
    if !bridges.is_empty() {
        let count = bridges.len();
        bridges.sort_unstable();
        bridges.dedup();
        text.push_str(&format!(
            " ({count} bridge entr{} of {}: not run, they run these same hooks)",
            if count == 1 { "y" } else { "ies" },
            bridges.join(", ")
        ));
    }
    text
}
