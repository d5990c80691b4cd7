//! `hooks list [--json]`: every configured hook, grouped by event, with its source, whether
//! it runs (and why not), and its trust state; as Autohand's `/hooks` display shows them.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Result;
use hooks::Loaded;
use hooks::config::{BrokenFile, ConfigFile, Inactive, MergedHook, Origin};
use hooks::core::Event;
use hooks::exec::Timeouts;
use serde_json::{Value, json};

use super::render::{self, Style, plural};
use crate::cli::ListArgs;

/// Prints the listing (files that do not load are listed, with what became of them); exit 0.
pub fn run(args: &ListArgs) -> Result<u8> {
    let engine = render::load_engine(&args.config)?;
    let loaded = engine.loaded();
    let timeouts = engine.dispatcher().timeouts();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&to_json(&loaded, timeouts))?
        )?;
    } else {
        write!(out, "{}", human(Style::stdout(), &loaded))?;
    }
    Ok(0)
}

/// The state word of a hook: `enabled` when it runs, else why not (`disabled`,
/// `untrusted`, `all_disabled`, `managed_only`, `url_not_allowed`, `duplicate`, `bridge`:
/// a call of this engine's bridge, which runs these same hooks).
pub fn state(hook: &MergedHook) -> &'static str {
    match &hook.inactive {
        None => "enabled",
        Some(Inactive::Disabled) => "disabled",
        Some(Inactive::Untrusted) => "untrusted",
        Some(Inactive::AllHooksDisabled) => "all_disabled",
        Some(Inactive::ManagedHooksOnly) => "managed_only",
        Some(Inactive::UrlNotAllowed) => "url_not_allowed",
        Some(Inactive::Duplicate { .. }) => "duplicate",
        Some(Inactive::Bridge { .. }) => "bridge",
        Some(_) => "inactive",
    }
}

/// The trust state of a hook: `not_needed` (named explicitly, or not from a project
/// directory), `trusted` (a grant covers it) or `untrusted` (it waits for `hooks trust`).
pub fn trust_state(hook: &MergedHook) -> &'static str {
    match (hook.needs_trust, hook.trusted) {
        (false, _) => "not_needed",
        (true, true) => "trusted",
        (true, false) => "untrusted",
    }
}

/// The hooks grouped by event: built-in events in catalog order, then host events by name;
/// within an event, in merged declaration order, each with its position in the merged list.
pub fn by_event(hooks: &[MergedHook]) -> Vec<(Event, Vec<(usize, &MergedHook)>)> {
    let mut groups: Vec<(Event, Vec<(usize, &MergedHook)>)> = Vec::new();
    for (i, hook) in hooks.iter().enumerate() {
        match groups.iter_mut().find(|(e, _)| *e == hook.spec.event) {
            Some((_, list)) => list.push((i, hook)),
            None => groups.push((hook.spec.event.clone(), vec![(i, hook)])),
        }
    }
    groups.sort_by(|(a, _), (b, _)| match (a.builtin(), b.builtin()) {
        (Some(x), Some(y)) => x.ordinal().cmp(&y.ordinal()),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.name().cmp(b.name()),
    });
    groups
}

/// `explicit` or `discovered`.
pub fn origin_str(origin: Origin) -> &'static str {
    match origin {
        Origin::Explicit => "explicit",
        Origin::Discovered => "discovered",
        _ => "other",
    }
}

/// One file's entry in the JSON listing.
pub fn file_json(file: &ConfigFile) -> Value {
    json!({
        "path": file.path.as_ref().map(|p| p.display().to_string()),
        "dialect": file.dialect.as_str(),
        "format": file.format.as_str(),
        "layer": file.layer.as_str(),
        "origin": origin_str(file.origin),
        "needs_trust": file.needs_trust(),
        "hooks": file.hooks().count(),
    })
}

/// One hook's entry in the JSON listing (documented in `docs/cli.md`).
pub fn hook_json(index: usize, hook: &MergedHook, timeouts: &Timeouts) -> Value {
    let spec = &hook.spec;
    let p = &spec.provenance;
    json!({
        "index": index,
        "id": spec.display_id(),
        "declared_id": spec.id,
        "name": spec.name,
        "description": spec.description,
        "event": spec.event.name(),
        "type": spec.action.type_name(),
        "action": spec.action.summary(),
        "matcher": if spec.matcher.is_all() { None } else { Some(spec.matcher.as_str()) },
        "enabled": hook.is_active(),
        "state": state(hook),
        "reason": hook.inactive.as_ref().map(Inactive::describe),
        "async": spec.is_async,
        "sequential": spec.sequential,
        "on_failure": spec.on_failure,
        "timeout_ms": u64::try_from(timeouts.effective(spec).as_millis()).unwrap_or(u64::MAX),
        "dialect": spec.dialect.as_str(),
        "source": p.to_string(),
        "file": p.file.as_ref().map(|f| f.display().to_string()),
        "line": p.line,
        "column": p.column,
        "layer": p.layer.as_str(),
        "trust": trust_state(hook),
        "hash": hook.hash,
    })
}

/// One file that did not load, as JSON.
pub fn broken_json(loaded: &Loaded, file: &BrokenFile) -> Value {
    json!({
        "path": file.path.as_ref().map(|p| p.display().to_string()),
        "layer": file.layer.as_str(),
        "origin": origin_str(file.origin),
        "needs_trust": file.needs_trust(),
        "blocks_events": loaded.blocks_events(file),
        "errors": file.error.errors().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// The whole JSON listing: mode, files, events with their hooks, totals.
pub fn to_json(loaded: &Loaded, timeouts: &Timeouts) -> Value {
    let hooks = loaded.hooks.hooks();
    let events: Vec<Value> = by_event(hooks)
        .into_iter()
        .map(|(event, list)| {
            json!({
                "event": event.name(),
                "enabled": list.iter().filter(|(_, h)| h.is_active()).count(),
                "total": list.len(),
                "hooks": list.iter().map(|(i, h)| hook_json(*i, h, timeouts)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let enabled = hooks.iter().filter(|h| h.is_active()).count();
    json!({
        "mode": mode(loaded),
        "files": loaded.files.iter().map(file_json).collect::<Vec<_>>(),
        "broken": loaded.broken.iter().map(|b| broken_json(loaded, b)).collect::<Vec<_>>(),
        "events": events,
        "total": hooks.len(),
        "enabled": enabled,
        "disabled": hooks.iter().filter(|h| state(h) == "disabled").count(),
        "inactive": hooks.len() - enabled,
        "warnings": render::warnings(loaded).iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// `enabled`, `all_disabled` (`disable_all_hooks`) or `managed_only`.
fn mode(loaded: &Loaded) -> &'static str {
    if loaded.hooks.all_hooks_disabled() {
        "all_disabled"
    } else if loaded.hooks.managed_hooks_only() {
        "managed_only"
    } else {
        "enabled"
    }
}

const RULE: &str = "──────────────────────────────────────────────────";

/// The human listing.
pub fn human(style: Style, loaded: &Loaded) -> String {
    let mut out = String::new();
    let hooks = loaded.hooks.hooks();
    let _ = writeln!(out, "{}", style.bold("Hooks"));
    let _ = writeln!(out, "{RULE}");
    let mode = match mode(loaded) {
        "all_disabled" => style.red("all hooks disabled (disable_all_hooks)"),
        "managed_only" => style.yellow("managed hooks only"),
        _ => style.green("enabled"),
    };
    let _ = writeln!(out, "Mode: {mode}");
    if loaded.files.is_empty() && loaded.broken.is_empty() {
        let _ = writeln!(out, "No config files found.");
    }
    for file in &loaded.files {
        let path = file
            .path
            .as_ref()
            .map_or_else(|| "<input>".to_owned(), |p| p.display().to_string());
        let _ = writeln!(
            out,
            "{}",
            style.dim(&format!(
                "  {path} ({}, {}, {} hook{})",
                file.dialect,
                file.layer.as_str(),
                file.hooks().count(),
                plural(file.hooks().count())
            ))
        );
    }
    for file in &loaded.broken {
        let what = if loaded.blocks_events(file) {
            style.red("does not load: blocks tool calls, prompts and the other events that can be blocked")
        } else {
            style.yellow("does not load: skipped")
        };
        let _ = writeln!(
            out,
            "  {} ({}) {what}",
            file.location(),
            file.layer.as_str()
        );
    }
    let candidates = crate::handle::merged(hooks);
    for (event, list) in by_event(hooks) {
        let enabled = list.iter().filter(|(_, h)| h.is_active()).count();
        let _ = writeln!(
            out,
            "\n{} ({enabled}/{} enabled)",
            style.cyan(event.name()),
            list.len()
        );
        for (n, (i, hook)) in list.iter().enumerate() {
            let spec = &hook.spec;
            let state = state(hook);
            let label = match state {
                "enabled" => style.green("[enabled]"),
                "disabled" => style.dim("[disabled]"),
                other => style.yellow(&format!("[{other}]")),
            };
            let what = crate::handle::listed_action(spec);
            // Fabro hooks carry a `name` where others carry a description.
            let description = spec
                .description
                .as_deref()
                .or(spec
                    .name
                    .as_deref()
                    .filter(|n| spec.id.as_deref() != Some(*n)))
                .map(|d| format!(" - {d}"))
                .unwrap_or_default();
            let _ = writeln!(out, "  {}. {label} {what}{description}", n + 1);
            let mut facts = Vec::new();
            // What to type to name it (`hooks test`, `trust`, `enable`, `disable`, `remove`).
            let handle = crate::handle::handle(&candidates, *i);
            match spec.id.as_ref().or(spec.name.as_ref()) {
                Some(id) if *id == handle => facts.push(format!("id {id}")),
                Some(id) => facts.push(format!("id {id} · handle {handle}")),
                None => facts.push(format!("handle {handle}")),
            }
            if !spec.matcher.is_all() {
                facts.push(format!("matcher {}", spec.matcher.as_str()));
            }
            if spec.is_async {
                facts.push("async".to_owned());
            }
            if let Some(group) = &spec.sequential {
                facts.push(format!("sequential {group}"));
            }
            facts.push(spec.provenance.to_string());
            facts.push(match trust_state(hook) {
                "trusted" => "trusted".to_owned(),
                "untrusted" => "needs trust".to_owned(),
                _ => "trust not needed".to_owned(),
            });
            let _ = writeln!(out, "     {}", style.dim(&facts.join(" · ")));
            if let Some(inactive) = &hook.inactive
                && !matches!(inactive, Inactive::Disabled)
            {
                let _ = writeln!(out, "     {}", style.yellow(&inactive.describe()));
            }
        }
    }
    let _ = writeln!(out, "\n{RULE}");
    let _ = writeln!(
        out,
        "Total: {} hook{} ({})",
        hooks.len(),
        plural(hooks.len()),
        totals(hooks)
    );
    for warning in render::warnings(loaded) {
        let _ = writeln!(out, "{}", style.yellow(&warning.to_string()));
    }
    out
}

/// `3 enabled, 1 disabled`, then the other states that occur (`2 untrusted`).
fn totals(hooks: &[MergedHook]) -> String {
    let count = |s: &str| hooks.iter().filter(|h| state(h) == s).count();
    let mut parts = vec![
        format!("{} enabled", count("enabled")),
        format!("{} disabled", count("disabled")),
    ];
    for other in [
        "untrusted",
        "all_disabled",
        "managed_only",
        "url_not_allowed",
        "duplicate",
        "inactive",
    ] {
        let n = count(other);
        if n > 0 {
            parts.push(format!("{n} {}", other.replace('_', " ")));
        }
    }
    parts.join(", ")
}
