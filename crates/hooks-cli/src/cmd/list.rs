//! `hooks list [--json]`: every configured hook, grouped by event, with its source, whether
//! it runs (and why not), and its trust state; as Autohand's `/hooks` display shows them.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::Result;
use hooks::Loaded;
use hooks::config::{Inactive, MergedHook};
use hooks_server::report;

use super::render::{self, Style, plural};
use crate::cli::ListArgs;

pub use hooks_server::report::{
    broken_json, by_event, file_json, hook_json, mode, origin_str, state, trust_state,
};

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
            serde_json::to_string(&report::list(&loaded, timeouts))?
        )?;
    } else {
        write!(out, "{}", human(Style::stdout(), &loaded))?;
    }
    Ok(0)
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
