//! Moving the hooks of a Claude Code or Gemini CLI `settings.json`, a Codex or Cursor
//! `hooks.json` into a native config, and back: what `hooks migrate
//! claude|codex|cursor|gemini` does, kept apart from the command so that other commands
//! (an installer that migrates, an uninstaller that undoes it) can reuse it.
//!
//! A moved hook is written by the native writer: its event under the canonical name
//! (Gemini CLI's `BeforeTool` is `PreToolUse`) and its timeout in the native file's
//! seconds (Gemini CLI's milliseconds translated). A Cursor hook keeps its dialect
//! (`dialect: cursor`, its event under Cursor's name, its `loop_limit`, its matcher over
//! the command text as `filter: {command}`, the folder Cursor runs it in as `cwd`), so it
//! is given the JSON Cursor gives it and its answer is read by Cursor's rules.
//!
//! A migration is planned first ([`plan`]): every hook of the settings file is added, with
//! a generated id, to the native file through the same editor as `hooks add` (each addition
//! is checked by loading the result again), and the settings file's `hooks` key is removed
//! with the format-preserving JSON editor, so every other key stays byte for byte. Nothing
//! is written until [`Migration::apply`], which records what is needed to undo it in the
//! [`Journal`] first, then writes the native file, then the settings file, each atomically
//! (a failure of the second write puts the first back). In between, the hooks exist twice
//! for an instant rather than not at all: a guard never stops guarding.
//!
//! Trust moves with the hooks and never grows: a hook that ran before runs after, a hook
//! that waited for trust still waits. [`undo`] puts both files back exactly as they were,
//! when they still hold what the migration wrote.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{Context, Result, bail, err};
use crate::{ConfigFile, Discovered, LoadOptions, Locations, Origin, TrustStore};
use hooks_core::{Dialect, HookSpec, Layer};
use serde_json::{Value, json};

use super::{Change, ConfigEdit, Doc, Seg, atomic, dialect_name, json::JsonDoc};

/// A config file a migration reads or writes: where it is and, for a standard location,
/// its layer and the directory it must stay inside (as discovery reads it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file (its roots' symlinks resolved, as discovery spells it).
    pub path: PathBuf,
    /// Its layer, if it is a standard location.
    pub layer: Option<Layer>,
    /// The directory it must stay inside once symlinks are resolved.
    pub within: Option<PathBuf>,
}

impl Place {
    /// Opens the file for editing, as the engine loads it; a missing file is created empty
    /// (not written until saved).
    fn open(&self, options: &LoadOptions) -> Result<ConfigEdit> {
        let options = match self.layer {
            Some(layer) => options
                .clone()
                .with_layer(layer)
                .with_origin(Origin::Discovered),
            None => options.clone(),
        };
        // Read directly, not through `ConfigEdit::open`, which refuses to edit an agent's
        // own file in place (Gemini CLI's settings, a Codex `hooks.json` or `config.toml`):
        // a migration replaces the file's text whole (its hooks out, or back in), and the
        // native file it writes is checked to be one. The file is read as discovery reads it.
        let text = match (self.path.exists(), self.layer) {
            (false, _) => return ConfigEdit::create(&self.path, &options),
            (true, Some(layer)) => Discovered {
                path: self.path.clone(),
                layer,
                within: self.within.clone(),
            }
            .read_text(options.max_file_size),
            (true, None) => crate::read_text(&self.path, options.max_file_size),
        }
        .map_err(|e| err!("cannot read {}:\n{e}", self.path.display()))?;
        ConfigEdit::from_text(&self.path, text, &options)
    }
}

/// The standard locations under `project` (and the user's home), with their roots'
/// symlinks resolved as discovery resolves them, so that paths (and trust grants) are the
/// ones the engine sees.
fn candidates(project: &Path) -> Vec<Discovered> {
    Locations::from_env(Some(project)).resolved().candidates()
}

/// Where `path` is among the standard locations of `project`: its place, with its layer
/// if it is one of them.
pub fn place_of(path: &Path, project: &Path) -> Place {
    let real = atomic::real_path(path);
    candidates(project)
        .into_iter()
        .find(|c| atomic::real_path(&c.path) == real)
        .map(|c| Place {
            path: c.path,
            layer: Some(c.layer),
            within: c.within,
        })
        .unwrap_or(Place {
            path: path.to_path_buf(),
            layer: None,
            within: None,
        })
}

/// The project's settings file of the agent `from` (Claude Code's `.claude/settings.json`,
/// Gemini CLI's `.gemini/settings.json`, Cursor's `.cursor/hooks.json`), whose hooks move
/// when no file is named.
///
/// # Errors
///
/// For an agent whose file must be named (Codex keeps hooks in `hooks.json` or
/// `config.toml`): the error says how.
pub fn project_settings(from: Dialect, project: &Path) -> Result<Place> {
    let editing = &crate::dialects::of(from).editing;
    if let Some(why) = editing.settings_unnamed {
        bail!("{why}");
    }
    // The other dialects have no settings file to move hooks out of: Claude Code's is
    // named, and `plan` refuses a file of another dialect.
    let rel = editing.project_settings.unwrap_or(".claude/settings.json");
    Ok(place_of(&project.join(rel), project))
}

/// The settings files of the agent `from` that discovery reads, as a message lists them
/// (`` `~/.gemini/settings.json`, `.gemini/settings.json` ``); Claude Code's for a dialect
/// without settings files of its own, as [`project_settings`] takes Claude Code's.
pub fn settings_files(from: Dialect) -> &'static str {
    crate::dialects::of(from).editing.settings_files.unwrap_or(
        "`~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`",
    )
}

/// The native config discovery reads in `layer`: the first of `hooks.{yaml,yml,toml,json}`
/// (`hooks.local.*` for the local layer) that exists, else the YAML one.
pub fn native_place(layer: Layer, project: &Path) -> Option<Place> {
    let native: Vec<Discovered> = candidates(project)
        .into_iter()
        .filter(|c| c.layer == layer && crate::dialect_from_path(&c.path).is_none())
        .collect();
    let pick = native
        .iter()
        .find(|c| c.path.is_file())
        .or_else(|| native.first())?;
    Some(Place {
        path: pick.path.clone(),
        layer: Some(layer),
        within: pick.within.clone(),
    })
}

/// One hook a migration moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The id it has in the native file.
    pub id: String,
    /// How it was named before (`hooks list`'s display id).
    pub was: String,
    /// Whether it ran before (it needed no trust, or was trusted).
    pub trusted: bool,
}

/// What [`plan`] found.
#[derive(Debug)]
pub enum Plan {
    /// Nothing to do; the reason says why.
    Nothing(String),
    /// A migration, ready to apply.
    Ready(Box<Migration>),
}

/// A planned migration: both files edited in memory, nothing written yet.
#[derive(Debug)]
pub struct Migration {
    source: ConfigEdit,
    target: ConfigEdit,
    moved: Vec<Moved>,
    /// The settings file was trusted as a whole.
    source_trusted: bool,
    /// The native file was trusted as a whole, or does not exist yet.
    target_trusted: bool,
}

/// Plans moving the hooks of the settings file at `source`, of the agent `from` (Claude
/// Code or Gemini CLI), into the native config at `target`. `taken` holds the ids already in use wherever these hooks will be
/// merged (generated ids avoid them: an id that matched another layer's hook would replace
/// it). `journal` is checked for an earlier migration of the same file.
pub fn plan(
    from: Dialect,
    source: &Place,
    target: &Place,
    taken: &BTreeSet<String>,
    journal: &Journal,
    options: &LoadOptions,
) -> Result<Plan> {
    if source.layer == Some(Layer::Managed) {
        bail!(
            "{} is managed settings, which belong to an administrator; they are not migrated",
            source.path.display()
        );
    }
    if !source.path.is_file() {
        bail!("{} does not exist", source.path.display());
    }
    let source_edit = source.open(options)?;
    let file = source_edit.file();
    if file.dialect != from {
        bail!(
            "{} is a {} config, not a {} settings file",
            source.path.display(),
            dialect_name(file.dialect),
            dialect_name(from)
        );
    }
    if let Some(record) = journal.find(&source.path) {
        return if file.items.is_empty() {
            Ok(Plan::Nothing(format!(
                "the hooks of {} were already moved to {}; nothing to do (`--undo` puts them back)",
                source.path.display(),
                record.target.display()
            )))
        } else {
            bail!(
                "{} was migrated to {} before and has hooks again; undo the earlier migration first (`hooks migrate {} --undo`), so that it can still be undone",
                source.path.display(),
                record.target.display(),
                from.as_str()
            )
        };
    }
    if file.items.is_empty() {
        return Ok(Plan::Nothing(format!(
            "{} has no hooks; nothing to migrate",
            source.path.display()
        )));
    }
    let mut target_edit = target.open(options)?;
    if !crate::dialects::of(target_edit.file().dialect)
        .write_rules
        .holds_other_dialects
    {
        bail!(
            "{} is a {} config; hooks are moved into a native one",
            target.path.display(),
            dialect_name(target_edit.file().dialect)
        );
    }
    let store = TrustStore::open_default().ok();
    let trusted_whole =
        |f: &ConfigFile| !f.needs_trust() || store.as_ref().is_some_and(|s| s.is_file_trusted(f));
    let source_trusted = trusted_whole(file);
    let target_trusted = match &target_edit.opened {
        Some(before) => trusted_whole(before),
        None => true,
    };
    let mut taken = taken.clone();
    taken.extend(target_edit.file().hooks().filter_map(|h| h.id.clone()));
    let prefix = source.layer.map_or(from.as_str(), Layer::as_str);
    let mut moved = Vec::new();
    for spec in file.hooks() {
        let id = fresh_id(prefix, spec, &mut taken);
        let mut native = spec.clone();
        native.id = Some(id.clone());
        if let Some(moved_matcher) = crate::dialects::of(native.dialect).editing.moved_matcher {
            moved_matcher(&mut native);
        }
        match target_edit.add(&native).with_context(|| {
            format!(
                "`{}` of {} cannot move; nothing was written",
                spec.display_id(),
                source.path.display()
            )
        })? {
            Change::Changed => {}
            Change::Unchanged(why) => bail!("{why}; nothing was written"),
        }
        moved.push(Moved {
            id,
            was: super::label(spec),
            trusted: !super::waits_for_trust(store.as_ref(), file, spec),
        });
    }
    let mut source_edit = source_edit;
    remove_hooks_key(&mut source_edit)?;
    Ok(Plan::Ready(Box::new(Migration {
        source: source_edit,
        target: target_edit,
        moved,
        source_trusted,
        target_trusted,
    })))
}

/// `{prefix}-{event}-{n}` (`project-pre-tool-use-1`), the first `n` not in `taken`.
fn fresh_id(prefix: &str, spec: &HookSpec, taken: &mut BTreeSet<String>) -> String {
    let mut event = String::new();
    for (i, c) in spec.event.name().chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            event.push('-');
        }
        event.push(c.to_ascii_lowercase());
    }
    let id = (1..)
        .map(|n| format!("{prefix}-{event}-{n}"))
        .find(|id| !taken.contains(id))
        .unwrap_or_default();
    taken.insert(id.clone());
    id
}

/// Removes the hooks of a Claude Code settings file or a Codex `hooks.json` (its `hooks`
/// key) or `config.toml` (every `[hooks]` table but `[hooks.state]`, Codex's trust, which
/// is not hooks), checking that the file keeps its settings and loses every hook, and
/// nothing else changes.
fn remove_hooks_key(edit: &mut ConfigEdit) -> Result<()> {
    let text = if edit.file.format == crate::Format::Toml {
        super::codex_trust::without_hooks(&edit.text)?
    } else {
        let mut doc = JsonDoc::parse(&edit.text)?;
        doc.remove(&[Seg::Key("hooks".to_owned())])?;
        doc.text()
    };
    let settings = edit.file.settings.clone();
    edit.apply(text, |new| {
        if !new.items.is_empty() {
            bail!("hooks are left after removing `hooks`");
        }
        if new.settings != settings {
            bail!("the file's switches would change");
        }
        Ok(())
    })?;
    Ok(())
}

/// What [`Migration::apply`] did.
#[derive(Clone, Debug)]
pub struct Applied {
    /// The settings file.
    pub source: PathBuf,
    /// The native file.
    pub target: PathBuf,
    /// The hooks moved.
    pub moved: Vec<Moved>,
    /// How many hooks of the native file wait for trust now.
    pub waiting: usize,
    /// Why the trust store was not updated, if it was not.
    pub problem: Option<String>,
}

impl Migration {
    /// The hooks it moves.
    pub fn moved(&self) -> &[Moved] {
        &self.moved
    }

    /// The settings file's path.
    pub fn source(&self) -> &Path {
        self.source.path()
    }

    /// The native file's path.
    pub fn target(&self) -> &Path {
        self.target.path()
    }

    /// Records the migration in `journal`, then writes the native file and the settings
    /// file, and moves the trust the hooks had.
    pub fn apply(mut self, journal: &mut Journal) -> Result<Applied> {
        let record = Record {
            source: atomic::real_path(self.source.path()),
            source_before: self.source.original.clone().unwrap_or_default(),
            source_after: self.source.text.clone(),
            source_trusted: self.source_trusted,
            target: self.target.path().to_path_buf(),
            target_before: self.target.original.clone(),
            target_after: self.target.text.clone(),
            target_trusted: self.target_trusted,
            ids: self.moved.iter().map(|m| m.id.clone()).collect(),
        };
        journal.add(record.clone())?;
        let target_before = self.target.opened.clone();
        let source_before = self.source.opened.clone();
        if let Err(e) = self.target.save_with(false) {
            journal.forget(&record.source)?;
            return Err(e);
        }
        if let Err(e) = self.source.save_with(false) {
            // Put the native file back, so that the hooks are where they were.
            let back = match &record.target_before {
                Some(before) => atomic::write(&record.target, before, Some(&record.target_after)),
                None => std::fs::remove_file(&record.target).map_err(Into::into),
            };
            journal.forget(&record.source)?;
            return Err(match back {
                Ok(()) => e.context("nothing was changed"),
                Err(b) => e.context(format!(
                    "and {} could not be put back ({b:#}); its new hooks run as well as the old ones",
                    record.target.display()
                )),
            });
        }
        let (waiting, problem) = self.move_trust(source_before.as_ref(), target_before.as_ref());
        Ok(Applied {
            source: self.source.path().to_path_buf(),
            target: self.target.path().to_path_buf(),
            moved: self.moved,
            waiting,
            problem,
        })
    }

    /// Grants the written files the trust the hooks had: a settings file trusted as a
    /// whole stays so; a native file trusted as a whole (or new) stays so if every moved
    /// hook was trusted; otherwise each hook that ran before gets a grant of its own, and
    /// the others wait for trust. Returns how many wait, and a store problem.
    fn move_trust(
        &self,
        source_before: Option<&ConfigFile>,
        target_before: Option<&ConfigFile>,
    ) -> (usize, Option<String>) {
        let source = self.source.file();
        let target = self.target.file();
        let mut store = match TrustStore::open_default() {
            Ok(s) => s,
            Err(e) => return (target.hooks().count(), Some(e.to_string())),
        };
        let all_moved = self.moved.iter().all(|m| m.trusted);
        let mut result = Ok(());
        if let (true, true, Some(before)) =
            (source.needs_trust(), self.source_trusted, source_before)
        {
            result = result.and(store.follow_edit(before, source).map(drop));
        }
        if target.needs_trust() {
            match (target_before, self.target_trusted && all_moved) {
                (Some(before), true) => {
                    result = result.and(store.follow_edit(before, target).map(drop));
                }
                (None, true) => result = result.and(store.trust_file(target).map(drop)),
                (before, false) => {
                    let was_trusted = |spec: &HookSpec| match before {
                        Some(b) => store.is_trusted(b, spec),
                        None => false,
                    };
                    let mut keep: Vec<HookSpec> = before
                        .map(|b| b.hooks().filter(|h| was_trusted(h)).cloned().collect())
                        .unwrap_or_default();
                    keep.extend(
                        target
                            .hooks()
                            .filter(|h| {
                                self.moved
                                    .iter()
                                    .any(|m| m.trusted && h.id.as_deref() == Some(m.id.as_str()))
                            })
                            .cloned(),
                    );
                    for spec in &keep {
                        result = result.and(store.trust_hook(target, spec).map(drop));
                    }
                }
            }
        }
        let result = result.and_then(|()| store.save());
        let waiting = target
            .hooks()
            .filter(|h| super::waits_for_trust(Some(&store), target, h))
            .count();
        (waiting, result.err().map(|e| e.to_string()))
    }
}

/// One migration as the journal keeps it: both files' text before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The settings file (its real path: the journal's key).
    pub source: PathBuf,
    /// Its text before the migration.
    pub source_before: String,
    /// Its text after.
    pub source_after: String,
    /// Whether it was trusted as a whole before.
    pub source_trusted: bool,
    /// The native file.
    pub target: PathBuf,
    /// Its text before (`None`: the migration created it).
    pub target_before: Option<String>,
    /// Its text after.
    pub target_after: String,
    /// Whether it was trusted as a whole before (or did not exist).
    pub target_trusted: bool,
    /// The ids the moved hooks got.
    pub ids: Vec<String>,
}

impl Record {
    fn to_json(&self) -> Value {
        json!({
            "source": self.source,
            "source_before": self.source_before,
            "source_after": self.source_after,
            "source_trusted": self.source_trusted,
            "target": self.target,
            "target_before": self.target_before,
            "target_after": self.target_after,
            "target_trusted": self.target_trusted,
            "ids": self.ids,
        })
    }

    fn from_json(v: &Value) -> Option<Record> {
        let s = |k: &str| v.get(k)?.as_str().map(str::to_owned);
        let b = |k: &str| v.get(k)?.as_bool();
        Some(Record {
            source: PathBuf::from(s("source")?),
            source_before: s("source_before")?,
            source_after: s("source_after")?,
            source_trusted: b("source_trusted")?,
            target: PathBuf::from(s("target")?),
            target_before: s("target_before"),
            target_after: s("target_after")?,
            target_trusted: b("target_trusted")?,
            ids: v
                .get("ids")?
                .as_array()?
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect(),
        })
    }
}

/// The migrations that can be undone, kept in one JSON file in the user's state directory
/// (`$XDG_STATE_HOME/hooks/migrations.json`, else `~/.local/state/hooks/migrations.json`):
/// the user's own record, never in the repository (nothing of it is committed or
/// discovered as a config), written atomically.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    original: Option<String>,
    records: Vec<Record>,
}

impl Journal {
    /// The default journal file.
    pub fn default_path() -> Option<PathBuf> {
        let state = std::env::var_os("XDG_STATE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
        Some(state.join("hooks/migrations.json"))
    }

    /// Opens the default journal.
    pub fn open_default() -> Result<Journal> {
        let path = Journal::default_path()
            .ok_or_else(|| err!("no state directory for the migration journal (set HOME)"))?;
        Journal::open(&path)
    }

    /// Opens the journal kept in `path` (missing: empty).
    pub fn open(path: &Path) -> Result<Journal> {
        let original = match std::fs::read_to_string(path) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let records = match &original {
            Some(text) => {
                let v: Value = serde_json::from_str(text)
                    .with_context(|| format!("{} is not valid JSON", path.display()))?;
                v.get("migrations")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Record::from_json).collect())
                    .unwrap_or_default()
            }
            None => Vec::new(),
        };
        Ok(Journal {
            path: path.to_path_buf(),
            original,
            records,
        })
    }

    /// Where the journal is kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The migration of the settings file at `source`, if one can be undone.
    pub fn find(&self, source: &Path) -> Option<&Record> {
        let key = atomic::real_path(source);
        self.records.iter().find(|r| r.source == key)
    }

    fn add(&mut self, record: Record) -> Result<()> {
        self.records.retain(|r| r.source != record.source);
        self.records.push(record);
        self.save()
    }

    fn forget(&mut self, source: &Path) -> Result<()> {
        let key = atomic::real_path(source);
        self.records.retain(|r| r.source != key);
        self.save()
    }

    fn save(&mut self) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let all: Vec<Value> = self.records.iter().map(Record::to_json).collect();
        let mut text = serde_json::to_string_pretty(&json!({ "version": 1, "migrations": all }))?;
        text.push('\n');
        atomic::write(&self.path, &text, self.original.as_deref())?;
        self.original = Some(text);
        Ok(())
    }
}

/// What [`undo`] did.
#[derive(Clone, Debug)]
pub struct Undone {
    /// The settings file, restored.
    pub source: PathBuf,
    /// The native file, put back as it was (or removed, if the migration created it).
    pub target: PathBuf,
    /// Whether the native file was removed.
    pub target_removed: bool,
    /// How many hooks went back.
    pub hooks: usize,
    /// Why the trust store was not updated, if it was not.
    pub problem: Option<String>,
}

/// Undoes the migration of `source` recorded in `journal`: the settings file gets back
/// exactly the text it had, and the native file the text it had (or is removed, if the
/// migration created it). Both must still hold what the migration wrote: anything edited
/// since is refused rather than lost. A file grant the migration carried over is carried
/// back; no grant is given that was not there before.
pub fn undo(
    source: &Place,
    project: &Path,
    journal: &mut Journal,
    options: &LoadOptions,
) -> Result<Undone> {
    let record = journal.find(&source.path).cloned().ok_or_else(|| {
        err!(
            "no migration of {} to undo (the journal {} has none)",
            source.path.display(),
            journal.path().display()
        )
    })?;
    let target_place = Place {
        path: record.target.clone(),
        ..place_of(&record.target, project)
    };
    let mut source_edit = source.open(options)?;
    let mut target_edit = target_place.open(options)?;
    let edited = |what: &Path| {
        err!(
            "{} was edited after the migration, so it is not put back (that would lose the edit); nothing was changed\n  hint: its text before the migration is in {}",
            what.display(),
            journal.path().display()
        )
    };
    if source_edit.original.as_deref() != Some(record.source_after.as_str()) {
        return Err(edited(&source.path));
    }
    if target_edit.original.as_deref() != Some(record.target_after.as_str()) {
        return Err(edited(&record.target));
    }
    let source_now = source_edit.opened.clone();
    let target_now = target_edit.opened.clone();
    let back = record.source_before.clone();
    source_edit.apply(back, |new| {
        if new.hooks().count() != record.ids.len() {
            bail!("the restored file does not hold the hooks that were moved");
        }
        Ok(())
    })?;
    let hooks = source_edit.file().hooks().count();
    // The hooks go back first: for an instant they are in both files, never in neither.
    source_edit.save_with(false)?;
    let target_removed = match &record.target_before {
        Some(before) => {
            target_edit.apply(before.clone(), |_| Ok(()))?;
            target_edit.save_with(false)?;
            false
        }
        None => {
            std::fs::remove_file(&record.target)
                .with_context(|| format!("cannot remove {}", record.target.display()))?;
            true
        }
    };
    journal.forget(&record.source)?;
    // Carry back only the file grants the migration carried.
    let mut problem = None;
    if let Ok(mut store) = TrustStore::open_default() {
        let mut result = Ok(());
        if let (true, Some(now)) = (record.source_trusted, &source_now) {
            result = result.and(store.follow_edit(now, source_edit.file()).map(drop));
        }
        if let (true, Some(now), false) = (record.target_trusted, &target_now, target_removed) {
            result = result.and(store.follow_edit(now, target_edit.file()).map(drop));
        }
        if let Err(e) = result.and_then(|()| store.save()) {
            problem = Some(e.to_string());
        }
    }
    Ok(Undone {
        source: source.path.clone(),
        target: record.target,
        target_removed,
        hooks,
        problem,
    })
}
