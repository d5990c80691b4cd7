//! Editing one config file in place, in its own dialect and syntax: enable, disable, add
//! and remove hooks, and the file-wide switch. What `hooks enable|disable|add|remove` and
//! `hooks manage` share.
//!
//! Each syntax has an editor that changes only the entry being edited: `toml_edit` for
//! TOML, byte-range edits for JSON (`json`), line edits for YAML (`yaml`), so comments
//! and formatting elsewhere stay as they were. Every edit is checked before anything is
//! written: the new text is loaded again with `hooks_config` and must give the same
//! dialect and the same hooks except for the one change asked for; if it does not, the
//! edit is refused and the file left alone. Files are written atomically ([`atomic`]).
//!
//! What each dialect can say decides what the edits do (see `docs/cli-edit.md`): native
//! and Autohand hooks have `enabled`; Fabro has none, so a disabled Fabro hook is its
//! `[[run.hooks]]` table commented out behind a marker line, and enabling uncomments it;
//! Claude Code and echo-agent have no per-hook switch and no comments that would keep a
//! hook (JSON) or a safe place to comment one out (nested YAML lists), so disabling one of
//! their hooks is refused with a hint.

pub mod atomic;
pub mod codex_trust;
mod error;
pub mod json;
pub mod migrate;
mod toml;
mod yaml;

pub use error::{Error, Result};
pub(crate) use error::{bail, err};

use std::fmt;
use std::path::{Path, PathBuf};

use error::Context;
use hooks_core::{Dialect, EventCatalog, HookList, HookSpec, Switch};
use serde_json::Value;

use crate::{ConfigFile, Discovered, EnvSource, Format, Item, LoadOptions, Settings, TrustStore};

/// One step of a path into a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A key of a mapping.
    Key(String),
    /// An index into a list.
    Index(usize),
}

impl fmt::Display for Seg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seg::Key(k) => f.write_str(k),
            Seg::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path for messages: `hooks.PreToolUse[0].hooks`.
pub(crate) fn show(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if out.is_empty() => out.push_str(k),
            Seg::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        "(top)".to_owned()
    } else {
        out
    }
}

/// What each syntax's editor does. Paths address mappings and lists as `hooks_config`
/// reads them; every method changes only the text of what it touches.
pub trait Doc {
    /// The path of the mapping that starts at this 1-based line and column (a hook's
    /// provenance).
    fn locate(&self, line: u32, column: u32) -> Option<Vec<Seg>>;
    /// Sets `key` in the mapping at `map` (adding it at the end if absent).
    fn set(&mut self, map: &[Seg], key: &str, value: &Value) -> Result<()>;
    /// Removes the list item or mapping entry at `at`; an emptied container stays, empty.
    fn remove(&mut self, at: &[Seg]) -> Result<()>;
    /// Appends to the list at `seq`.
    fn push(&mut self, seq: &[Seg], value: &Value) -> Result<()>;
    /// The document's text.
    fn text(&self) -> String;
}

/// The byte offset of a 1-based line and (character) column.
pub(crate) fn offset_of(text: &str, line: u32, column: u32) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += text[start..].find('\n')? + 1;
    }
    let line_text = &text[start..];
    let line_text = &line_text[..line_text.find('\n').unwrap_or(line_text.len())];
    let col = (column as usize).checked_sub(1)?;
    let within = line_text
        .char_indices()
        .nth(col)
        .map_or(line_text.len(), |(i, _)| i);
    Some(start + within)
}

/// Where an entry lives in its file.
#[derive(Clone, Debug)]
enum At {
    /// `ConfigFile::items[i]`.
    Item(usize),
    /// A Fabro hook commented out by `hooks disable`.
    Commented(toml::Commented),
}

/// One hook (or native merge directive) of a file, as the edit commands address it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The hook; `None` for a merge directive (`{id, enabled}` or `{id, remove}`).
    pub spec: Option<HookSpec>,
    /// The directive's or hook's id.
    pub id: Option<String>,
    /// Whether the entry itself is on (a hook's `enabled`, a directive's value; a
    /// commented-out Fabro hook is off).
    pub enabled: bool,
    /// The 1-based line it starts on.
    pub line: Option<u32>,
    at: At,
}

impl Entry {
    /// The name to show: the id, else the name, else the description, else what it runs.
    pub fn label(&self) -> String {
        match (&self.spec, &self.id) {
            (Some(spec), _) => label(spec),
            (None, Some(id)) => id.clone(),
            (None, None) => "(directive)".to_owned(),
        }
    }

    /// Whether this is a commented-out (disabled) Fabro hook.
    pub fn is_commented(&self) -> bool {
        matches!(self.at, At::Commented(_))
    }
}

/// How messages name a hook: its id, else its name, else its description, else what it
/// runs (`hooks list`'s display id).
pub fn label(spec: &HookSpec) -> String {
    match (&spec.id, &spec.name, &spec.description) {
        (None, None, Some(d)) => d.clone(),
        _ => spec.display_id(),
    }
}

/// What an edit did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The file's text changed (not yet written: call [`ConfigEdit::save`]).
    Changed,
    /// Nothing needed changing; the reason says why.
    Unchanged(String),
}

/// One config file opened for editing.
pub struct ConfigEdit {
    path: PathBuf,
    original: Option<String>,
    /// The file as `original` loads (`None`: the file is new).
    opened: Option<ConfigFile>,
    text: String,
    file: ConfigFile,
    options: LoadOptions,
}

/// What saving an edit meant for the trust of the file's hooks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    /// The file was trusted as a whole before the edit, and the grant now covers the
    /// edited text.
    pub trust_carried: bool,
    /// How many of the file's hooks wait for trust now (none for a file that needs no
    /// trust).
    pub waiting: usize,
    /// What to run to trust them: `hooks trust FILE`.
    pub trust_command: String,
    /// Why a grant could not be carried over, if it could not.
    pub problem: Option<String>,
}

impl Saved {
    /// The note to print after the edit's own message, if there is something to say.
    pub fn note(&self) -> Option<String> {
        let problem = self
            .problem
            .as_ref()
            .map(|p| format!(" (the trust store was not updated: {p})"))
            .unwrap_or_default();
        (self.waiting > 0).then(|| {
            format!(
                "note: {} hook{} of this file wait{} for trust{problem}: review it, then `{}`",
                self.waiting,
                if self.waiting == 1 { "" } else { "s" },
                if self.waiting == 1 { "s" } else { "" },
                self.trust_command
            )
        })
    }
}

/// Whether `spec` of `file` waits for trust: the file needs trust and `store` (`None`: no
/// readable store) does not trust the hook or the file.
pub fn waits_for_trust(store: Option<&TrustStore>, file: &ConfigFile, spec: &HookSpec) -> bool {
    file.needs_trust() && !store.is_some_and(|s| s.is_trusted(file, spec))
}

impl fmt::Debug for ConfigEdit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConfigEdit")
            .field("path", &self.path)
            .field("dialect", &self.file.dialect)
            .finish_non_exhaustive()
    }
}

/// The shape of the hook list of a file.
enum Shape {
    /// A flat list of hooks at this path.
    Flat(Vec<Seg>),
    /// `hooks: {Event: [{matcher, hooks: [..]}]}`.
    Nested,
}

impl ConfigEdit {
    /// Opens an existing file. `options` are the ones the file is normally loaded with;
    /// the file must load without errors.
    pub fn open(path: &Path, options: &LoadOptions) -> Result<ConfigEdit> {
        refuse_uneditable(path, options)?;
        let text = crate::read_text(path, options.max_file_size)
            .map_err(|e| err!("cannot read {}:\n{e}", path.display()))?;
        ConfigEdit::from_text(path, text, options)
    }

    /// Opens a discovered file, read as discovery reads it (inside the place it was found
    /// in, a regular file); see [`ConfigEdit::open`].
    pub fn open_discovered(found: &Discovered, options: &LoadOptions) -> Result<ConfigEdit> {
        refuse_uneditable(&found.path, options)?;
        let text = found
            .read_text(options.max_file_size)
            .map_err(|e| err!("cannot read {}:\n{e}", found.path.display()))?;
        ConfigEdit::from_text(&found.path, text, options)
    }

    /// The file at `path` as `text` says it is (not read from disk), to be edited; it
    /// must load.
    pub fn from_text(path: &Path, text: String, options: &LoadOptions) -> Result<ConfigEdit> {
        let file = load(&text, path, options).map_err(|e| {
            err!(
                "{} does not load, so it cannot be edited:\n{e}",
                path.display()
            )
        })?;
        Ok(ConfigEdit {
            path: path.to_path_buf(),
            original: Some(text.clone()),
            opened: Some(file.clone()),
            text,
            file,
            options: options.clone(),
        })
    }

    /// Starts a new file at `path` (not written until [`ConfigEdit::save`]): the dialect
    /// its name implies (`settings.json` is Claude Code, ...), else native, in the syntax
    /// its extension names (YAML if none).
    pub fn create(path: &Path, options: &LoadOptions) -> Result<ConfigEdit> {
        refuse_uneditable(path, options)?;
        let dialect = crate::dialect_from_path(path).unwrap_or_default();
        let row = crate::dialects::of(dialect);
        let format = Format::from_path(path)
            .filter(|f| row.formats.contains(f))
            .unwrap_or(row.formats[0]);
        let text = if is_markdown(path) {
            "---\n---\n"
        } else {
            match row.editing.template {
                Some(template) => template,
                None if format == Format::Json => "{\n}\n",
                None => "",
            }
        };
        let options = options.clone().with_dialect(dialect).with_format(format);
        let file = load(text, path, &options).map_err(|e| err!("{e}"))?;
        Ok(ConfigEdit {
            path: path.to_path_buf(),
            original: None,
            opened: None,
            text: text.to_owned(),
            file,
            options,
        })
    }

    /// The file's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file as loaded from the current text.
    pub fn file(&self) -> &ConfigFile {
        &self.file
    }

    /// The current text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the text differs from the file on disk (or the file is new).
    pub fn is_changed(&self) -> bool {
        self.original.as_deref() != Some(self.text.as_str())
    }

    /// Writes the file atomically, if it changed, keeping the trust the user gave it: a
    /// file trusted as a whole before the edit (in the default trust store) is trusted as
    /// edited, since the user asked for this edit. The write happens only if the file
    /// still holds the text the edit started from, and the grant covers exactly the text
    /// written, so nothing someone else wrote is trusted with it. What is left waiting for
    /// trust is in the answer.
    pub fn save(&mut self) -> Result<Saved> {
        self.save_with(true)
    }

    /// Like [`ConfigEdit::save`]; with `carry` false, no grant is carried over (for edits
    /// whose caller decides what the new text is trusted for, as a migration does).
    pub(crate) fn save_with(&mut self, carry: bool) -> Result<Saved> {
        let mut store = TrustStore::open_default();
        let mut trust_carried = false;
        if self.is_changed() {
            let trusted_before = match (&self.opened, &store) {
                (Some(before), Ok(store)) => carry && store.is_file_trusted(before),
                _ => false,
            };
            if self.original.is_none()
                && let Some(dir) = self.path.parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            atomic::write(&self.path, &self.text, self.original.as_deref())?;
            self.original = Some(self.text.clone());
            let before = self.opened.replace(self.file.clone());
            if let (true, Some(before), Ok(s)) = (trusted_before, &before, &mut store) {
                match s.follow_edit(before, &self.file).map(|g| g.is_some()) {
                    Ok(true) => match s.save() {
                        Ok(()) => trust_carried = true,
                        Err(e) => store = Err(e),
                    },
                    Ok(false) => {}
                    Err(e) => store = Err(e),
                }
            }
        }
        let waiting = self
            .file
            .hooks()
            .filter(|spec| waits_for_trust(store.as_ref().ok(), &self.file, spec))
            .count();
        Ok(Saved {
            trust_carried,
            waiting,
            trust_command: format!(
                "hooks trust {}",
                crate::shell_quote(&self.path.display().to_string())
            ),
            problem: store.err().map(|e| e.to_string()),
        })
    }

    /// The file's hooks and directives, then its commented-out Fabro hooks.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out: Vec<Entry> = self
            .file
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Item::Hook(spec) => Entry {
                    spec: Some(spec.clone()),
                    id: spec.id.clone(),
                    enabled: self.own_enabled(spec),
                    line: spec.provenance.line,
                    at: At::Item(i),
                },
                Item::SetEnabled {
                    id,
                    enabled,
                    provenance,
                } => Entry {
                    spec: None,
                    id: Some(id.clone()),
                    enabled: *enabled,
                    line: provenance.line,
                    at: At::Item(i),
                },
                Item::Remove { id, provenance } => Entry {
                    spec: None,
                    id: Some(id.clone()),
                    enabled: false,
                    line: provenance.line,
                    at: At::Item(i),
                },
                // Items added to hooks-config later are not addressable here.
                #[allow(unreachable_patterns)]
                _ => Entry {
                    spec: None,
                    id: None,
                    enabled: false,
                    line: None,
                    at: At::Item(i),
                },
            })
            .collect();
        if crate::dialects::of(self.file.dialect).editing.comments_out {
            for block in toml::commented(&self.text) {
                let options = self.options.clone().with_dialect(self.file.dialect);
                let Ok(loaded) = load(&block.body, &self.path, &options) else {
                    continue;
                };
                for spec in loaded.hooks() {
                    let mut spec = spec.clone();
                    spec.enabled = false;
                    let line = block.marker as u32 + 1 + spec.provenance.line.unwrap_or(1);
                    spec.provenance.line = Some(line);
                    out.push(Entry {
                        id: spec.id.clone(),
                        enabled: false,
                        line: Some(line),
                        spec: Some(spec),
                        at: At::Commented(block.clone()),
                    });
                }
            }
        }
        out
    }

    /// Whether the file is switched off by a switch that shows in every hook's `enabled`
    /// (Autohand's `hooks.enabled: false`).
    fn switched_off_in_hooks(&self) -> bool {
        crate::dialects::of(self.file.dialect)
            .editing
            .switch_in_hooks
            && switch_value(self.file.dialect, &self.file.settings) == Some(false)
    }

    /// A hook's own switch (an Autohand file switched off turns every hook off; the
    /// hook's own `enabled` is what `hooks enable` changes).
    fn own_enabled(&self, spec: &HookSpec) -> bool {
        if self.switched_off_in_hooks() {
            return self
                .raw_at_spec(spec)
                .and_then(|v| v.get("enabled").and_then(Value::as_bool))
                .unwrap_or(true);
        }
        spec.enabled
    }

    fn raw(&self) -> Result<Value> {
        crate::parse_value(&self.text, Some(&self.path), Some(self.file.format))
            .map_err(|e| err!("{e}"))
    }

    fn raw_at_spec(&self, spec: &HookSpec) -> Option<Value> {
        let path = self
            .doc()
            .ok()?
            .locate(spec.provenance.line?, spec.provenance.column?)?;
        get(&self.raw().ok()?, &path).cloned()
    }

    fn doc(&self) -> Result<Box<dyn Doc>> {
        Ok(match self.file.format {
            Format::Json => Box::new(json::JsonDoc::parse(&self.text)?),
            Format::Toml => Box::new(toml::TomlDoc::parse(&self.text)?),
            _ => Box::new(yaml::YamlDoc::parse(&self.text, is_markdown(&self.path))?),
        })
    }

    /// The path of an item's mapping in the document.
    fn locate(&self, doc: &dyn Doc, item: &Item) -> Result<Vec<Seg>> {
        let p = match item {
            Item::Hook(spec) => &spec.provenance,
            Item::SetEnabled { provenance, .. } | Item::Remove { provenance, .. } => provenance,
            #[allow(unreachable_patterns)]
            _ => bail!("this kind of entry cannot be edited"),
        };
        let (Some(line), Some(col)) = (p.line, p.column) else {
            bail!("the entry has no position in {}", self.path.display());
        };
        doc.locate(line, col).ok_or_else(|| {
            err!(
                "cannot find the entry at {}:{line}:{col} in the text (a layout the editor does not follow); edit it by hand",
                self.path.display()
            )
        })
    }

    fn item(&self, entry: &Entry) -> Result<(usize, &Item)> {
        match &entry.at {
            At::Item(i) => Ok((
                *i,
                self.file.items.get(*i).ok_or_else(|| err!("stale entry"))?,
            )),
            At::Commented(_) => bail!("the entry is commented out"),
        }
    }

    /// Turns one entry on or off.
    pub fn set_enabled(&mut self, entry: &Entry, on: bool) -> Result<Change> {
        let label = entry.label();
        let state = if on { "enabled" } else { "disabled" };
        if let At::Commented(block) = &entry.at {
            if !on {
                return Ok(Change::Unchanged(format!("`{label}` is already disabled")));
            }
            let text = toml::uncomment(&self.text, block);
            let before = self.file.items.clone();
            return self.apply(text, |new| {
                let extra = subsequence_extra(&before, &new.items)?;
                if extra.len() != 1 {
                    bail!("uncommenting gave {} new hooks instead of one", extra.len());
                }
                Ok(())
            });
        }
        let (index, item) = self.item(entry)?;
        let item = item.clone();
        let mut doc = self.doc()?;
        let path = self.locate(doc.as_ref(), &item)?;
        match &item {
            Item::Hook(spec) => {
                if self.own_enabled(spec) == on {
                    let mut why = format!("`{label}` is already {state}");
                    if on && !spec.enabled {
                        why.push_str(&format!(
                            "; every hook of {} is switched off (`hooks.enabled: false`): toggle all in `hooks manage` turns them on",
                            self.path.display()
                        ));
                    }
                    return Ok(Change::Unchanged(why));
                }
                if crate::dialects::of(self.file.dialect).editing.comments_out {
                    // `on` is handled above (a disabled hook is commented out).
                    let mut doc = toml::TomlDoc::parse(&self.text)?;
                    doc.comment_out(&path)?;
                    let before = self.file.items.clone();
                    return self
                        .apply(doc.text(), |new| expect_removed(&before, &new.items, index));
                }
                if !self.file.dialect.profile().file.hook_switch {
                    bail!(no_switch(self.file.dialect, &label))
                }
                doc.set(&path, "enabled", &Value::Bool(on))?
            }
            Item::SetEnabled { enabled, .. } => {
                if *enabled == on {
                    return Ok(Change::Unchanged(format!(
                        "the directive on `{label}` already says {state}"
                    )));
                }
                doc.set(&path, "enabled", &Value::Bool(on))?;
            }
            Item::Remove { .. } => bail!(
                "`{label}` is a `remove: true` directive in {}; delete it with `hooks remove {label}`",
                self.path.display()
            ),
            #[allow(unreachable_patterns)]
            _ => bail!("this kind of entry cannot be edited"),
        }
        let before = self.file.items.clone();
        let switched_off = self.switched_off_in_hooks();
        self.apply(doc.text(), |new| {
            if new.items.len() != before.len() {
                bail!("the number of hooks changed");
            }
            for (i, (a, b)) in before.iter().zip(&new.items).enumerate() {
                let want = if i == index {
                    flipped(a, on && !switched_off)
                } else {
                    a.clone()
                };
                if !same_item(&want, b) {
                    bail!("{}", changed_too(a));
                }
            }
            Ok(())
        })
    }

    /// Removes one entry (a hook list, group or event left empty by it goes too).
    pub fn remove(&mut self, entry: &Entry) -> Result<Change> {
        if let At::Commented(block) = &entry.at {
            let text: String = self
                .text
                .split_inclusive('\n')
                .enumerate()
                .filter(|(i, _)| !(block.marker..=block.last).contains(i))
                .map(|(_, l)| l)
                .collect();
            let before = self.file.items.clone();
            return self.apply(text, |new| {
                if !subsequence_extra(&before, &new.items)?.is_empty()
                    || before.len() != new.items.len()
                {
                    bail!("the hooks changed");
                }
                Ok(())
            });
        }
        let (index, item) = self.item(entry)?;
        let item = item.clone();
        let mut doc = self.doc()?;
        let mut path = self.locate(doc.as_ref(), &item)?;
        if self.nested() {
            // `hooks.Event[g].hooks[h]`: an emptied group goes, and an emptied event.
            let raw = self.raw()?;
            let len = |p: &[Seg]| get(&raw, p).and_then(Value::as_array).map_or(0, Vec::len);
            if path.len() == 5 && len(&path[..4]) == 1 {
                path.truncate(3);
                if len(&path[..2]) == 1 {
                    path.truncate(2);
                }
            }
        }
        doc.remove(&path)?;
        let before = self.file.items.clone();
        self.apply(doc.text(), |new| expect_removed(&before, &new.items, index))
    }

    /// Adds a hook at the end of the file's hooks (for nested files: at the end of its
    /// event's list, in the last group if that group has the same matcher).
    pub fn add(&mut self, spec: &HookSpec) -> Result<Change> {
        let dialect = self.file.dialect;
        let rules = &crate::dialects::of(dialect).editing;
        if !spec.enabled && !rules.comments_out && !dialect.profile().file.hook_switch {
            bail!(no_switch(dialect, &spec.display_id()));
        }
        let mut written = spec.clone();
        // A dialect that comments a disabled hook out (Fabro's) cannot write one; it is
        // added, then commented out.
        if rules.comments_out {
            written.enabled = true;
        }
        let entry = render(&written, dialect, self.file.format)?;
        let mut doc = self.doc()?;
        let raw = self.raw()?;
        match self.shape(&raw) {
            Shape::Flat(list) => insert_flat(doc.as_mut(), &raw, &list, entry.value)?,
            Shape::Nested => insert_nested(doc.as_mut(), &raw, &entry, &self.options.catalog)?,
        }
        let mut text = doc.text();
        if rules.comments_out && !spec.enabled {
            let added = load(&text, &self.path, &self.options).map_err(|e| err!("{e}"))?;
            let last = added
                .hooks()
                .last()
                .ok_or_else(|| err!("the new hook did not load"))?
                .clone();
            let mut t = toml::TomlDoc::parse(&text)?;
            let (Some(line), Some(col)) = (last.provenance.line, last.provenance.column) else {
                bail!("the new hook has no position");
            };
            let path = t
                .locate(line, col)
                .ok_or_else(|| err!("cannot find the new hook"))?;
            t.comment_out(&path)?;
            text = t.text();
        }
        let before = self.file.items.clone();
        let event = spec.event.clone();
        let enabled_expected = spec.enabled || rules.comments_out;
        let commented_out = rules.comments_out && !spec.enabled;
        self.apply(text, |new| {
            let extra = subsequence_extra(&before, &new.items)?;
            match (commented_out, extra.as_slice()) {
                (true, []) => Ok(()),
                (false, [Item::Hook(h)]) if h.event == event && h.enabled == enabled_expected => {
                    Ok(())
                }
                (false, [Item::Hook(h)]) if h.event == event && rules.switch_in_hooks => Ok(()),
                _ => bail!("the file did not gain exactly the new hook"),
            }
        })
    }

    /// The file-wide switch: `Some(on)` for files that have one (native and Claude Code
    /// `disable_all_hooks`, Autohand `hooks.enabled`), `None` otherwise.
    pub fn all_enabled(&self) -> Option<bool> {
        self.file.dialect.profile().file.all_switch?;
        Some(self.all_switch().unwrap_or(true))
    }

    /// Sets the file-wide switch.
    pub fn set_all_enabled(&mut self, on: bool) -> Result<Change> {
        let dialect = self.file.dialect;
        let Some(now) = self.all_enabled() else {
            bail!(
                "{} configs have no switch for all their hooks ({})",
                dialect_name(dialect),
                self.path.display()
            );
        };
        if now == on {
            let state = if on { "on" } else { "off" };
            return Ok(Change::Unchanged(format!(
                "the hooks of {} are already {state}",
                self.path.display()
            )));
        }
        let Some(switch) = dialect.profile().file.all_switch else {
            bail!("{} has no switch for all its hooks", self.path.display());
        };
        let mut doc = self.doc()?;
        let raw = self.raw()?;
        let segs = switch_path(switch);
        // The deepest object of the switch's path the file has; below it, the rest of the
        // path is written whole.
        let mut depth = 0;
        while depth + 1 < segs.len() && get(&raw, &segs[..=depth]).is_some_and(Value::is_object) {
            depth += 1;
        }
        let value = switch.path[depth + 1..]
            .iter()
            .rev()
            .fold(Value::Bool(on != switch.true_is_off), |inner, key| {
                Value::Object(serde_json::Map::from_iter([((*key).to_owned(), inner)]))
            });
        doc.set(&segs[..depth], switch.path[depth], &value)?;
        self.apply_switch(doc.text(), Some(on))
    }

    /// Removes the file-wide switch, so that the file says nothing about it (its hooks
    /// are on, and a lower layer's switch decides). Switching off with
    /// [`ConfigEdit::set_all_enabled`] and then clearing gives back the text as it was.
    pub fn clear_all_switch(&mut self) -> Result<Change> {
        let Some(switch) = self.file.dialect.profile().file.all_switch else {
            return Ok(Change::Unchanged(format!(
                "{} has no switch for all its hooks",
                self.path.display()
            )));
        };
        let key = switch_path(switch);
        if self.all_switch().is_none() {
            return Ok(Change::Unchanged(format!(
                "{} does not set the switch for all hooks",
                self.path.display()
            )));
        }
        let mut doc = self.doc()?;
        doc.remove(&key)?;
        self.apply_switch(doc.text(), None)
    }

    /// The value of the file's own switch for all hooks (`Some(true)`: on), if it sets it.
    pub fn all_switch(&self) -> Option<bool> {
        switch_value(self.file.dialect, &self.file.settings)
    }

    /// Takes `text`, an edit of the switch only: the hooks are the same (Autohand's switch
    /// shows in their `enabled`) and the switch now reads `want` (`None`: not set).
    fn apply_switch(&mut self, text: String, want: Option<bool>) -> Result<Change> {
        let dialect = self.file.dialect;
        let before = self.file.items.clone();
        self.apply(text, |new| {
            if new.items.len() != before.len() {
                bail!("the number of hooks changed");
            }
            for (a, b) in before.iter().zip(&new.items) {
                // Autohand's switch shows in every hook's `enabled`.
                let a = if crate::dialects::of(dialect).editing.switch_in_hooks {
                    flipped(a, item_enabled(b))
                } else {
                    a.clone()
                };
                if !same_item(&a, b) {
                    bail!("a hook changed unexpectedly");
                }
            }
            let s: &Settings = &new.settings;
            let now = switch_value(dialect, s);
            if now != want {
                bail!("the switch did not take");
            }
            Ok(())
        })
    }

    fn nested(&self) -> bool {
        match self.file.dialect.profile().file.hooks {
            HookList::Nested => true,
            HookList::Flat(_) | HookList::ByEvent | HookList::Files => false,
            HookList::FlatOrNested => {
                self.raw()
                    .ok()
                    .and_then(|r| r.get("hooks").map(Value::is_object))
                    == Some(true)
            }
        }
    }

    fn shape(&self, raw: &Value) -> Shape {
        let keys = |path: &[&str]| path.iter().map(|k| Seg::Key((*k).to_owned())).collect();
        match self.file.dialect.profile().file.hooks {
            HookList::Nested => Shape::Nested,
            HookList::Flat(path) => Shape::Flat(keys(path)),
            HookList::FlatOrNested if raw.get("hooks").is_some_and(Value::is_object) => {
                Shape::Nested
            }
            HookList::FlatOrNested => Shape::Flat(keys(&["hooks"])),
            // Not edited in place (`refuse_uneditable`).
            HookList::ByEvent | HookList::Files => Shape::Flat(keys(&["hooks"])),
        }
    }

    /// Loads `text`, checks it with `verify` against what the edit should have done, and
    /// takes it as the file's new text; on any failure the text stays as it was.
    fn apply(
        &mut self,
        text: String,
        verify: impl FnOnce(&ConfigFile) -> Result<()>,
    ) -> Result<Change> {
        let refuse = |why: String| {
            err!(
                "refusing to write {}: {why}; the file is unchanged\n  hint: edit this part of the file by hand",
                self.path.display()
            )
        };
        let new = load(&text, &self.path, &self.options)
            .map_err(|e| refuse(format!("the edited text would not load:\n{e}")))?;
        if new.dialect != self.file.dialect {
            return Err(refuse(format!(
                "the edited text would read as {} instead of {}",
                a_config(new.dialect),
                a_config(self.file.dialect)
            )));
        }
        verify(&new).map_err(|e| refuse(format!("{e:#}")))?;
        self.text = text;
        self.file = new;
        Ok(Change::Changed)
    }
}

/// Loads config text for editing. An edit runs no hook, so it needs no values: a
/// `{{ vars.X }}` or `{{ env.X }}` with no value is kept as written (instead of failing the
/// load), and secrets are not looked up. Both loads an edit compares use the same rule.
pub fn load(text: &str, path: &Path, options: &LoadOptions) -> Result<ConfigFile, crate::Error> {
    static TOKEN: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\{\{\s*(vars|env)\.([A-Za-z0-9_-]+)\s*\}\}").ok()
    });
    let mut options = options.clone();
    let interp = &mut options.interpolation;
    interp.check_secrets = false;
    let mut env_missing = Vec::new();
    for c in TOKEN.iter().flat_map(|re| re.captures_iter(text)) {
        let (whole, ns, name) = (&c[0], &c[1], &c[2]);
        match ns {
            "vars" if !interp.vars.contains_key(name) => {
                interp.vars.insert(name.to_owned(), whole.to_owned());
            }
            "env" => {
                let set = match &interp.env {
                    EnvSource::Map(m) => m.contains_key(name),
                    _ => std::env::var_os(name).is_some(),
                };
                if !set {
                    env_missing.push((name.to_owned(), whole.to_owned()));
                }
            }
            _ => {}
        }
    }
    if !env_missing.is_empty() {
        let mut map: std::collections::BTreeMap<String, String> = match &interp.env {
            EnvSource::Map(m) => m.clone(),
            _ => std::env::vars().collect(),
        };
        map.extend(env_missing);
        interp.env = EnvSource::Map(map);
    }
    crate::load_str(text, Some(path), &options)
}

/// A hook in the file's own dialect, as the dialect writer renders it.
struct Rendered {
    /// The event key (nested dialects).
    event: String,
    /// The group's matcher (nested dialects).
    matcher: Option<Value>,
    /// The hook entry (for nested dialects, the handler).
    value: Value,
}

fn render(spec: &HookSpec, dialect: Dialect, format: Format) -> Result<Rendered> {
    let converted = crate::convert_items(
        &[Item::Hook(spec.clone())],
        &Settings::default(),
        dialect,
        Some(format),
    )
    .map_err(|e| err!("{e}"))?;
    let lost: Vec<String> = converted
        .warnings
        .iter()
        .filter(|w| !w.message.contains(" configs are "))
        .map(|w| w.message.clone())
        .collect();
    if !lost.is_empty() {
        bail!(
            "{} cannot hold this hook as asked:\n  {}",
            a_config(dialect),
            lost.join("\n  ")
        );
    }
    // TOML goes through toml_edit, which keeps the order the writer put the keys in.
    let value = match converted.format {
        Format::Toml => toml::to_json(&converted.text)?,
        f => crate::parse_value(&converted.text, None, Some(f)).map_err(|e| err!("{e}"))?,
    };
    let pick = |path: &[Seg]| get(&value, path).cloned();
    let key = |k: &str| Seg::Key(k.to_owned());
    let flat = |path: Vec<Seg>| {
        pick(&path).map(|v| Rendered {
            event: String::new(),
            matcher: None,
            value: v,
        })
    };
    let rendered = match dialect.profile().file.hooks {
        HookList::Nested => value
            .get("hooks")
            .and_then(Value::as_object)
            .and_then(|m| m.iter().next())
            .and_then(|(event, groups)| {
                let group = groups.get(0)?;
                Some(Rendered {
                    event: event.clone(),
                    matcher: group.get("matcher").cloned(),
                    value: group.get("hooks")?.get(0)?.clone(),
                })
            }),
        HookList::Flat(path) => flat(path.iter().map(|k| key(k)).chain([Seg::Index(0)]).collect()),
        HookList::FlatOrNested => flat(vec![key("hooks"), Seg::Index(0)]).map(|mut r| {
            r.event = spec.event.name().to_owned();
            r.matcher = r.value.get("matcher").cloned();
            r
        }),
        HookList::ByEvent => value
            .get("hooks")
            .and_then(Value::as_object)
            .and_then(|m| m.iter().next())
            .and_then(|(event, entries)| {
                let entry = entries.get(0)?;
                Some(Rendered {
                    event: event.clone(),
                    matcher: entry.get("matcher").cloned(),
                    value: entry.clone(),
                })
            }),
        HookList::Files => None,
    };
    rendered.ok_or_else(|| err!("the {} writer left the hook out", dialect_name(dialect)))
}

fn insert_flat(doc: &mut dyn Doc, raw: &Value, list: &[Seg], entry: Value) -> Result<()> {
    // The deepest part of the path that exists, and what to create below it.
    for depth in 0..list.len() {
        let here = &list[..=depth];
        match get(raw, here) {
            Some(Value::Array(_)) if depth + 1 == list.len() => return doc.push(here, &entry),
            Some(Value::Object(_)) if depth + 1 < list.len() => continue,
            Some(Value::Null) | None => {
                let mut value = Value::Array(vec![entry]);
                for seg in list[depth + 1..].iter().rev() {
                    if let Seg::Key(k) = seg {
                        let mut m = serde_json::Map::new();
                        m.insert(k.clone(), value);
                        value = Value::Object(m);
                    }
                }
                let Seg::Key(k) = &list[depth] else {
                    bail!("unexpected list path");
                };
                return doc.set(&list[..depth], k, &value);
            }
            Some(other) => bail!(
                "`{}` holds {} where a list of hooks should be",
                show(here),
                hooks_core::json_kind(other)
            ),
        }
    }
    bail!("no list of hooks to add to")
}

fn insert_nested(
    doc: &mut dyn Doc,
    raw: &Value,
    entry: &Rendered,
    catalog: &EventCatalog,
) -> Result<()> {
    let mut handler = entry.value.clone();
    if let Value::Object(m) = &mut handler {
        m.shift_remove("event");
        m.shift_remove("matcher");
    }
    let mut group = serde_json::Map::new();
    if let Some(m) = &entry.matcher {
        group.insert("matcher".into(), m.clone());
    }
    group.insert("hooks".into(), Value::Array(vec![handler.clone()]));
    let group = Value::Object(group);
    let hooks = Seg::Key("hooks".to_owned());
    let events = match raw.get("hooks") {
        Some(Value::Object(m)) => m,
        _ => {
            let mut m = serde_json::Map::new();
            m.insert(entry.event.clone(), Value::Array(vec![group]));
            return doc.set(&[], "hooks", &Value::Object(m));
        }
    };
    let want = catalog.resolve(&entry.event).ok();
    let existing = events.iter().rev().find(|(k, _)| {
        catalog
            .resolve(k)
            .ok()
            .is_some_and(|e| Some(&e) == want.as_ref())
    });
    match existing {
        Some((k, Value::Array(groups))) => {
            let key = Seg::Key(k.clone());
            if let Some(last) = groups.last()
                && last.get("matcher") == entry.matcher.as_ref()
                && last.get("hooks").is_some_and(Value::is_array)
            {
                let path = [
                    hooks,
                    key,
                    Seg::Index(groups.len() - 1),
                    Seg::Key("hooks".into()),
                ];
                doc.push(&path, &handler)
            } else {
                doc.push(&[hooks, key], &group)
            }
        }
        Some((k, Value::Null)) => doc.set(&[hooks], k, &Value::Array(vec![group])),
        Some((k, other)) => bail!(
            "`hooks.{k}` holds {} where an array should be",
            hooks_core::json_kind(other)
        ),
        None => doc.set(&[hooks], &entry.event, &Value::Array(vec![group])),
    }
}

/// The value at `path` in a JSON view of a document.
fn get<'v>(value: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    let mut v = value;
    for seg in path {
        v = match seg {
            Seg::Key(k) => v.get(k)?,
            Seg::Index(i) => v.get(i)?,
        };
    }
    Some(v)
}

fn is_markdown(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md"))
}

/// How the docs name a dialect.
pub fn dialect_name(d: Dialect) -> &'static str {
    d.profile().display_name
}

/// "a Claude Code config", "an echo-agent config": the dialect's name with its article.
fn a_config(d: Dialect) -> String {
    d.profile().a_config()
}

fn no_switch(dialect: Dialect, label: &str) -> String {
    format!(
        "{} hooks have no per-hook switch, so `{label}` cannot be disabled in place\n  hint: remove it with `hooks remove`, switch off every hook of the file{}, or move it to a native config (`hooks convert`), where `enabled: false` is kept",
        dialect_name(dialect),
        dialect
            .profile()
            .file
            .all_switch
            .map(|s| format!(" (`{}`, toggle all in `hooks manage`)", s.dotted()))
            .unwrap_or_default()
    )
}

/// A file-wide switch's key path.
fn switch_path(switch: Switch) -> Vec<Seg> {
    switch
        .path
        .iter()
        .map(|k| Seg::Key((*k).to_owned()))
        .collect()
}

/// The value of a file's own switch for all hooks (`Some(true)`: on), if it sets it.
fn switch_value(dialect: Dialect, s: &Settings) -> Option<bool> {
    match dialect.profile().file.all_switch {
        Some(switch) if switch.true_is_off => s.disable_all_hooks.map(|off| !off),
        Some(_) => s.hooks_enabled,
        None => None,
    }
}

/// Cursor's `hooks.json`, Cline's hook files, Gemini CLI's settings and Codex's hooks files
/// are read, not edited in place: an error
/// saying so for a file of theirs (by `--dialect` or by its location).
fn refuse_uneditable(path: &Path, options: &LoadOptions) -> Result<()> {
    let dialect = options.dialect.or_else(|| crate::dialect_from_path(path));
    match dialect.and_then(|d| crate::dialects::of(d).editing.refusal) {
        Some(refusal) => bail!("{} {refusal}", path.display()),
        None => Ok(()),
    }
}

fn item_enabled(item: &Item) -> bool {
    match item {
        Item::Hook(h) => h.enabled,
        Item::SetEnabled { enabled, .. } => *enabled,
        _ => false,
    }
}

/// `item` with its switch set to `on`.
fn flipped(item: &Item, on: bool) -> Item {
    match item {
        Item::Hook(h) => Item::Hook(h.clone().with_enabled(on)),
        Item::SetEnabled { id, provenance, .. } => Item::SetEnabled {
            id: id.clone(),
            enabled: on,
            provenance: provenance.clone(),
        },
        other => other.clone(),
    }
}

/// Whether two items say the same, wherever they are written.
fn same_item(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Hook(x), Item::Hook(y)) => crate::equivalent(x, y),
        (
            Item::SetEnabled {
                id: i, enabled: e, ..
            },
            Item::SetEnabled {
                id: j, enabled: f, ..
            },
        ) => i == j && e == f,
        (Item::Remove { id: i, .. }, Item::Remove { id: j, .. }) => i == j,
        _ => false,
    }
}

/// Says that the edit would also change `item`.
fn changed_too(item: &Item) -> String {
    let (name, line) = match item {
        Item::Hook(h) => (label(h), h.provenance.line),
        Item::SetEnabled { id, provenance, .. } | Item::Remove { id, provenance } => {
            (id.clone(), provenance.line)
        }
    };
    let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
    format!(
        "the edit would also change `{name}`{at}, which shares text with it (a YAML anchor or merge key, say)"
    )
}

/// Checks that `new` is `before` without item `index`.
fn expect_removed(before: &[Item], new: &[Item], index: usize) -> Result<()> {
    if new.len() + 1 != before.len() {
        bail!(
            "expected one hook fewer, found {} instead of {}",
            new.len(),
            before.len().saturating_sub(1)
        );
    }
    let rest = before
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, item)| item);
    for (a, b) in rest.zip(new) {
        if !same_item(a, b) {
            bail!("{}", changed_too(a));
        }
    }
    Ok(())
}

/// Checks that `before` appears, in order, within `new`; returns what `new` has besides.
fn subsequence_extra<'a>(before: &[Item], new: &'a [Item]) -> Result<Vec<&'a Item>> {
    let mut extra = Vec::new();
    let mut old = before.iter().peekable();
    for item in new {
        match old.peek() {
            Some(a) if same_item(a, item) => {
                old.next();
            }
            _ => extra.push(item),
        }
    }
    if old.next().is_some() {
        bail!("an existing hook was lost or changed");
    }
    Ok(extra)
}
