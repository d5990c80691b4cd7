//! `hooks migrate claude|codex|cursor|gemini [SETTINGS] [--to FILE] [--undo]`: moves the
//! hooks of a Claude Code or Gemini CLI settings file (or a Codex `hooks.json` or
//! `config.toml`, or a Cursor `hooks.json`) into the native config of the same layer, with
//! generated ids, and back.
//! The work is [`hooks::config::edit::migrate`]'s; this module picks the files and reports.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};

use super::render::plural;
use crate::cli::{ConfigArgs, MigrateArgs};
use hooks::config::edit::migrate::{self, Journal, Place, Plan};

/// Migrates (or undoes); exit 0 when done or when there is nothing to do, 1 on a refusal.
pub fn run(args: &MigrateArgs) -> Result<u8> {
    let config = ConfigArgs {
        project: args.project.clone(),
        ..ConfigArgs::default()
    };
    let project = super::project_dir(&config)?;
    let from = hooks::core::Dialect::from_name(&args.from)
        .ok_or_else(|| anyhow::anyhow!("unknown agent `{}`", args.from))?;
    let source = match &args.settings {
        Some(path) => migrate::place_of(path, &project),
        None => migrate::project_settings(from, &project)?,
    };
    let options = super::edit::load_options();
    let mut journal = Journal::open_default()?;
    let mut out = std::io::stdout().lock();
    if args.undo {
        let undone = migrate::undo(&source, &project, &mut journal, &options)?;
        writeln!(
            out,
            "put {} hook{} back into {}, as it was",
            undone.hooks,
            plural(undone.hooks),
            super::render::shown_path(&undone.source)
        )?;
        if undone.target_removed {
            writeln!(
                out,
                "removed {}, which the migration had created",
                super::render::shown_path(&undone.target)
            )?;
        } else {
            writeln!(
                out,
                "{} is as it was",
                super::render::shown_path(&undone.target)
            )?;
        }
        if let Some(p) = undone.problem {
            writeln!(out, "note: the trust store was not updated: {p}")?;
        }
        return Ok(0);
    }
    let target = target(args, from, &source, &project)?;
    let (files, _) = super::edit::open_files(&config)?;
    let taken: BTreeSet<String> = files
        .iter()
        .flat_map(|f| f.entries())
        .filter_map(|e| e.id)
        .collect();
    let migration = match migrate::plan(from, &source, &target, &taken, &journal, &options)? {
        Plan::Nothing(why) => {
            writeln!(out, "{why}")?;
            return Ok(0);
        }
        Plan::Ready(m) => m,
    };
    let applied = migration.apply(&mut journal)?;
    let n = applied.moved.len();
    writeln!(
        out,
        "moved {n} hook{} from {} to {}:",
        plural(n),
        super::render::shown_path(&applied.source),
        super::render::shown_path(&applied.target)
    )?;
    let width = applied.moved.iter().map(|m| m.id.len()).max().unwrap_or(0);
    for m in &applied.moved {
        writeln!(out, "  {:width$}  (was `{}`)", m.id, m.was)?;
    }
    writeln!(
        out,
        "{} keeps every other setting; its `hooks` key is gone, so each hook runs once",
        super::render::shown_path(&applied.source)
    )?;
    let quoted = |p: &Path| hooks::config::shell_quote(&super::render::shown_path(p));
    writeln!(
        out,
        "undo: `hooks migrate {} --undo {}`",
        from.as_str(),
        quoted(&applied.source)
    )?;
    if target.layer.is_none() {
        writeln!(
            out,
            "note: {} is not a standard location, so its hooks run only where it is named (`-c {}`)",
            super::render::shown_path(&applied.target),
            quoted(&applied.target)
        )?;
    }
    if let Some(p) = &applied.problem {
        writeln!(out, "note: the trust store was not updated: {p}")?;
    }
    if applied.waiting > 0 {
        writeln!(
            out,
            "note: {} hook{} of {} wait{} for trust: review it, then `hooks trust {}`",
            applied.waiting,
            plural(applied.waiting),
            super::render::shown_path(&applied.target),
            if applied.waiting == 1 { "s" } else { "" },
            quoted(&applied.target)
        )?;
    }
    Ok(0)
}

/// The native file: `--to` (in the same layer, if it is a standard location), else the
/// one discovery reads in the settings file's layer.
fn target(
    args: &MigrateArgs,
    from: hooks::core::Dialect,
    source: &Place,
    project: &Path,
) -> Result<Place> {
    match (&args.to, source.layer) {
        (Some(to), layer) => {
            let place = migrate::place_of(to, project);
            if let (Some(from), Some(into)) = (layer, place.layer)
                && from != into
            {
                bail!(
                    "{} is a {} file and {} a {} one; moving hooks between layers changes when they run and what they may override, so it is refused",
                    super::render::shown_path(&source.path),
                    from.as_str(),
                    super::render::shown_path(&place.path),
                    into.as_str()
                );
            }
            Ok(place)
        }
        (None, Some(layer)) => migrate::native_place(layer, project).ok_or_else(|| {
            anyhow::anyhow!(
                "there is no native config for the {} layer here; name one with `--to FILE`",
                layer.as_str()
            )
        }),
        (None, None) => bail!(
            "{} is not one of the settings files discovery reads ({}); name the native file with `--to FILE`",
            super::render::shown_path(&source.path),
            migrate::settings_files(from)
        ),
    }
}
