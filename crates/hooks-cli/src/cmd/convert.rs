//! `hooks convert FILE --to DIALECT [-o OUT]`: writes a config in another dialect; what the
//! target cannot express, and every change of meaning, is reported on stderr as warnings,
//! never dropped silently. An existing `OUT` of the target dialect is merged into, never
//! replaced: its other keys, comments and hooks stay.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use hooks::config::{Converted, Format, Item, LoadOptions, Settings, equivalent};
use hooks::core::Dialect;

use crate::cli::ConvertArgs;
use hooks::config::edit::{Change, ConfigEdit, dialect_name};

/// Converts; exit 0 (with warnings on stderr for what was lost), 1 when the file does not
/// load or the output cannot be written.
///
/// The output is in the target's own syntax (Claude and Autohand JSON, Fabro TOML,
/// echo-agent YAML); a native target follows `-o`'s extension (`.toml`, `.json`, else YAML).
/// An `OUT` that exists must be a config of the target dialect: the converted hooks are
/// added to it (those it already holds are not added twice) through the same editor as
/// `hooks add`, so everything else in it is kept.
pub fn run(args: &ConvertArgs) -> Result<u8> {
    let to =
        Dialect::from_name(&args.to).with_context(|| format!("unknown dialect `{}`", args.to))?;
    let mut options = LoadOptions::new().with_interpolation(super::interpolation());
    if let Some(d) = args.dialect.as_deref().and_then(Dialect::from_name) {
        options = options.with_dialect(d);
    }
    let file = hooks::config::load_file(&args.file, &options)
        .map_err(|e| anyhow::anyhow!("{} does not load:\n{e}", args.file.display()))?;
    let format = args.out.as_deref().and_then(Format::from_path);
    // A native file may be written in any of its syntaxes; the others have their own.
    let facts = hooks::config::DialectFacts::of(to);
    let syntax = format.filter(|f| facts.formats().len() > 1 && facts.formats().contains(f));
    let converted = hooks::config::convert_items(&file.items, &file.settings, to, syntax)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut err = std::io::stderr().lock();
    for warning in &converted.warnings {
        writeln!(err, "{warning}")?;
    }
    match &args.out {
        Some(out) if out.exists() => merge(out, &converted, to)?,
        Some(out) => hooks::config::edit::atomic::write(out, &converted.text, None)?,
        None => std::io::stdout()
            .lock()
            .write_all(converted.text.as_bytes())?,
    }
    Ok(0)
}

/// Adds the converted hooks to the existing config `out`, keeping all it holds; what
/// cannot be merged (merge directives, settings `out` sets otherwise) is a warning.
fn merge(out: &Path, converted: &Converted, to: Dialect) -> Result<()> {
    let options = super::edit::load_options();
    let mut edit = ConfigEdit::open(out, &options)
        .with_context(|| format!("{} exists; nothing was written", out.display()))?;
    let dialect = edit.file().dialect;
    if dialect != to {
        bail!(
            "{} exists and is a {} config, not {}; nothing was written (choose another `-o`, or move it aside)",
            out.display(),
            dialect_name(dialect),
            dialect_name(to)
        );
    }
    // The converted hooks, as the target dialect reads them back.
    let new = hooks::config::edit::load(
        &converted.text,
        Path::new("converted"),
        &options.with_dialect(to).with_format(converted.format),
    )
    .map_err(|e| anyhow::anyhow!("the converted hooks do not load back:\n{e}"))?;
    let mut err = std::io::stderr().lock();
    let (mut added, mut present) = (0, 0);
    for item in &new.items {
        let Item::Hook(spec) = item else {
            writeln!(
                err,
                "warning: a merge directive is not merged into {}: add it by hand",
                out.display()
            )?;
            continue;
        };
        if edit.file().hooks().any(|h| equivalent(h, spec)) {
            present += 1;
            continue;
        }
        match edit.add(spec)? {
            Change::Changed => added += 1,
            Change::Unchanged(_) => present += 1,
        }
    }
    for key in differing_settings(&new.settings, &edit.file().settings) {
        writeln!(
            err,
            "warning: {} keeps its own `{key}`; the converted value is not merged",
            out.display()
        )?;
    }
    let mut stdout = std::io::stdout().lock();
    if !edit.is_changed() {
        writeln!(
            stdout,
            "{} already holds every converted hook ({present}); it is unchanged",
            out.display()
        )?;
        return Ok(());
    }
    let saved = edit.save()?;
    writeln!(
        stdout,
        "merged {added} hook{} into {} ({present} already there); everything else in it is kept",
        super::render::plural(added),
        out.display()
    )?;
    if let Some(note) = saved.note() {
        writeln!(stdout, "{note}")?;
    }
    Ok(())
}

/// The settings `converted` sets that `existing` sets otherwise (or not at all).
fn differing_settings(converted: &Settings, existing: &Settings) -> Vec<&'static str> {
    let mut keys = Vec::new();
    let mut check = |differs: bool, key: &'static str| {
        if differs {
            keys.push(key);
        }
    };
    check(
        converted.disable_all_hooks.is_some()
            && converted.disable_all_hooks != existing.disable_all_hooks,
        "disable_all_hooks",
    );
    check(
        converted.managed_hooks_only.is_some()
            && converted.managed_hooks_only != existing.managed_hooks_only,
        "managed_hooks_only",
    );
    check(
        converted.allowed_http_hook_urls.is_some()
            && converted.allowed_http_hook_urls != existing.allowed_http_hook_urls,
        "allowed_http_hook_urls",
    );
    check(
        converted.hooks_enabled.is_some() && converted.hooks_enabled != existing.hooks_enabled,
        "hooks.enabled",
    );
    check(
        converted
            .vars
            .iter()
            .any(|(k, v)| existing.vars.get(k) != Some(v)),
        "vars",
    );
    keys
}
