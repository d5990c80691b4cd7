//! Why an event ran no hook, for `hooks run` and `hooks replay`: the matching hooks that
//! wait for trust (with the `hooks trust FILE` to run), the file that switched every hook
//! off, the disabled ones, the async ones that ran in the background, and that no config
//! was found (with where discovery looked). Nothing ends in silence.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use hooks::config::{DialectFacts, Inactive, Locations};
use hooks::core::{Aggregate, EventContext, HookIndex};
use hooks::{Engine, Loaded};
use serde_json::{Value, json};

use super::explain;
use super::render::plural;
use crate::cli::ConfigArgs;

/// One reason why hooks did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// What kind of reason: `no_config`, `no_match`, `untrusted`, `all_hooks_disabled`,
    /// `managed_hooks_only`, `disabled`, `url_not_allowed` or `async`.
    pub kind: &'static str,
    /// The reason in words, on one line.
    pub message: String,
    /// The file the reason is about (the untrusted file, the one with the switch).
    pub file: Option<PathBuf>,
    /// The hooks it is about, by display id.
    pub hooks: Vec<String>,
    /// The command that would change it (`hooks trust FILE`).
    pub command: Option<String>,
    /// Where discovery looked, for `no_config`.
    pub looked_in: Vec<String>,
}

impl Note {
    pub(crate) fn new(kind: &'static str, message: String) -> Note {
        Note {
            kind,
            message,
            file: None,
            hooks: Vec::new(),
            command: None,
            looked_in: Vec::new(),
        }
    }

    /// The note as an element of a `--json` output's `notes` array: `kind` and `message`,
    /// with `file`, `hooks`, `command` and `looked_in` when they apply.
    pub fn to_json(&self) -> Value {
        let mut value = json!({"kind": self.kind, "message": self.message});
        if let Some(file) = &self.file {
            value["file"] = json!(file.display().to_string());
        }
        if !self.hooks.is_empty() {
            value["hooks"] = json!(self.hooks);
        }
        if let Some(command) = &self.command {
            value["command"] = json!(command);
        }
        if !self.looked_in.is_empty() {
            value["looked_in"] = json!(self.looked_in);
        }
        value
    }

    /// The note for a person, on stderr: `note: MESSAGE`, then where discovery looked.
    pub fn human(&self) -> String {
        let mut out = format!("note: {}\n", self.message);
        if !self.looked_in.is_empty() {
            out.push_str("  looked in:\n");
            for place in &self.looked_in {
                out.push_str(&format!("    {place}\n"));
            }
        }
        out
    }
}

/// What explains events that ran nothing, built once per command: every hook matched as
/// if it were active (indexed only when an event ran nothing, so an event that ran a hook
/// pays nothing for it), and where discovery looked.
pub struct Why {
    loaded: Arc<Loaded>,
    every: std::cell::OnceCell<HookIndex>,
    /// The project root, when the hooks were discovered (no `-c`).
    project: Option<PathBuf>,
}

impl Why {
    /// For the engine `args` built.
    pub fn new(engine: &Engine, args: &ConfigArgs) -> Result<Why> {
        let loaded = engine.loaded();
        let every = std::cell::OnceCell::new();
        let project = if args.config.is_empty() {
            Some(super::project_dir(args)?)
        } else {
            None
        };
        Ok(Why {
            loaded,
            every,
            project,
        })
    }

    /// Why `ctx` ran no hook, given its outcome and the async hooks it queued. When a hook
    /// ran, only the matching hooks that wait for trust are named (once per file, with the
    /// command that trusts it): a project hook that did not run is never silent.
    pub fn notes(&self, ctx: &EventContext, agg: &Aggregate, queued: &[String]) -> Vec<Note> {
        let loaded = &self.loaded;
        let ran = !agg.hooks.is_empty();
        if ran
            && !loaded
                .hooks
                .hooks()
                .iter()
                .any(|h| matches!(h.inactive, Some(Inactive::Untrusted)))
        {
            return Vec::new();
        }
        let mut notes = Vec::new();
        if let (false, true, Some(project)) = (
            ran,
            loaded.files.is_empty() && loaded.broken.is_empty(),
            &self.project,
        ) {
            notes.push(self.no_config(project));
            return notes;
        }
        let event = ctx.event().name();
        let every = self
            .every
            .get_or_init(|| explain::every_hook(&loaded.hooks));
        let verdicts = explain::verdicts_in(every, &loaded.hooks, ctx);
        let same: Vec<_> = verdicts
            .iter()
            .filter(|v| v.hook.spec.event == *ctx.event())
            .collect();
        // The selected hooks that do not run, grouped by reason and file in list order.
        let mut groups: Vec<(&Inactive, Option<&Path>, Vec<String>)> = Vec::new();
        for v in same.iter().filter(|v| v.mismatch.is_none()) {
            let Some(inactive) = &v.hook.inactive else {
                continue;
            };
            if ran && !matches!(inactive, Inactive::Untrusted) {
                continue;
            }
            let file = match inactive {
                Inactive::AllHooksDisabled => loaded.hooks.all_hooks_disabled_by(),
                Inactive::ManagedHooksOnly => loaded.hooks.managed_hooks_only_by(),
                Inactive::Untrusted => v.hook.spec.provenance.file.as_deref(),
                // Disabled, URL not allowed, duplicate: no file to name.
                _ => None,
            };
            let id = v.hook.spec.display_id();
            match groups.iter_mut().find(|(i, f, _)| {
                std::mem::discriminant(*i) == std::mem::discriminant(inactive) && *f == file
            }) {
                Some((_, _, ids)) => ids.push(id),
                None => groups.push((inactive, file, vec![id])),
            }
        }
        for (inactive, file, ids) in groups {
            if let Some(note) = self.inactive_note(event, inactive, file, ids) {
                notes.push(note);
            }
        }
        if ran {
            return notes;
        }
        if !queued.is_empty() {
            let mut note = Note::new(
                "async",
                format!(
                    "{} async hook{} ran in the background: {} (an async hook never changes the outcome)",
                    queued.len(),
                    plural(queued.len()),
                    queued.join(", ")
                ),
            );
            note.hooks = queued.to_vec();
            notes.push(note);
        }
        if notes.is_empty() && !same.iter().any(|v| v.mismatch.is_none()) {
            let total = loaded.hooks.hooks().len();
            let message = if same.is_empty() {
                format!(
                    "no hook listens to {event} ({total} hook{} in {} file{}; `hooks list` shows them)",
                    plural(total),
                    loaded.files.len(),
                    plural(loaded.files.len())
                )
            } else {
                format!(
                    "none of the {} hook{} for {event} matches this payload (`hooks explain {event}` with the same payload says why)",
                    same.len(),
                    plural(same.len())
                )
            };
            notes.push(Note::new("no_match", message));
        }
        notes
    }

    fn inactive_note(
        &self,
        event: &str,
        inactive: &Inactive,
        file: Option<&Path>,
        hooks: Vec<String>,
    ) -> Option<Note> {
        let n = hooks.len();
        let these = format!("{n} hook{} for {event}", plural(n));
        let shown = file.map(super::render::shown_path);
        let (kind, message, command) = match inactive {
            Inactive::Untrusted => {
                let file = shown.unwrap_or_else(|| "FILE".to_owned());
                let command = super::render::trust_command(&file);
                (
                    "untrusted",
                    format!(
                        "{these} wait{} for trust in {file}: review it, then run `{command}`",
                        if n == 1 { "s" } else { "" }
                    ),
                    Some(command),
                )
            }
            Inactive::AllHooksDisabled => {
                let message = match (&shown, file) {
                    (Some(shown), Some(path)) => format!(
                        "{these} did not run: `{}` in {shown} switches every hook off",
                        self.switch_name(path)
                    ),
                    _ => format!("{these} did not run: every hook is switched off"),
                };
                ("all_hooks_disabled", message, None)
            }
            Inactive::ManagedHooksOnly => {
                let message = match &shown {
                    Some(shown) => {
                        format!("{these} did not run: {shown} allows only managed hooks")
                    }
                    None => format!("{these} did not run: only managed hooks may run"),
                };
                ("managed_hooks_only", message, None)
            }
            Inactive::Disabled => (
                "disabled",
                format!(
                    "{these} {} disabled: {} (turn one on with `hooks enable {}`)",
                    if n == 1 { "is" } else { "are" },
                    hooks.join(", "),
                    hooks::config::shell_quote(&hooks[0])
                ),
                None,
            ),
            Inactive::UrlNotAllowed => (
                "url_not_allowed",
                format!(
                    "{these} did not run: not in the allowed HTTP hook URLs: {}",
                    hooks.join(", ")
                ),
                None,
            ),
            // A duplicate's copy ran, or is itself explained.
            _ => return None,
        };
        let mut note = Note::new(kind, message);
        note.file = file.map(Path::to_path_buf);
        note.hooks = hooks;
        note.command = command;
        Some(note)
    }

    /// The name of the switch for all hooks in the dialect of the loaded file at `path`
    /// (the native format's if it is not loaded).
    fn switch_name(&self, path: &Path) -> &'static str {
        let dialect = self
            .loaded
            .files
            .iter()
            .find(|f| f.path.as_deref() == Some(path))
            .map(|f| f.dialect)
            .unwrap_or_default();
        DialectFacts::of(dialect).disable_all_hooks_name()
    }

    fn no_config(&self, project: &Path) -> Note {
        // One line for the four spellings of a native file (`hooks/hooks.yaml`, ...): a run
        // of candidates that differ only by which of them they are.
        let spelled = |p: &Path| {
            p.extension()
                .is_some_and(|e| ["yaml", "yml", "toml", "json"].iter().any(|s| e == *s))
        };
        let candidates: Vec<PathBuf> = Locations::from_env(Some(project))
            .candidates()
            .into_iter()
            .map(|c| c.path)
            .collect();
        let looked_in: Vec<String> = candidates
            .chunk_by(|a, b| {
                spelled(a) && spelled(b) && a.with_extension("") == b.with_extension("")
            })
            .map(|run| match run {
                [one] => one.display().to_string(),
                run => run[0]
                    .with_extension("{yaml,yml,toml,json}")
                    .display()
                    .to_string(),
            })
            .collect();
        let mut note = Note::new(
            "no_config",
            format!(
                "no config file found for the project {}, so no hook ran (`hooks init` installs the built-in hooks; `hooks add` adds one to the project)",
                project.display()
            ),
        );
        note.looked_in = looked_in;
        note
    }
}
