//! The engine's state as JSON: the listing of every configured hook (`hooks list --json`,
//! `hooks/list`) and the explanation of which hooks an event would run (`hooks explain
//! --json`, `hooks/explain`). The command line and the server print the same values, so a
//! client learns one schema (documented in `docs/cli.md`).

use std::path::Path;

use hooks::Loaded;
use hooks::config::{BrokenFile, ConfigFile, Diagnostic, HookSet, Inactive, MergedHook, Origin};
use hooks::core::{Event, EventContext, HookIndex, Mismatch};
use hooks::exec::Timeouts;
use serde_json::{Value, json};

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

/// The whole JSON listing: mode, files, events with their hooks, totals. It is `hooks list
/// --json`'s output and the server's `hooks/list` result.
pub fn list(loaded: &Loaded, timeouts: &Timeouts) -> Value {
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
        "warnings": warnings(loaded).iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// The listing's mode: `enabled`, `all_disabled` (`disable_all_hooks`) or `managed_only`.
pub fn mode(loaded: &Loaded) -> &'static str {
    if loaded.hooks.all_hooks_disabled() {
        "all_disabled"
    } else if loaded.hooks.managed_hooks_only() {
        "managed_only"
    } else {
        "enabled"
    }
}

/// The warnings of every file and of the merge, each once, in the order found.
pub fn warnings(loaded: &Loaded) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    loaded
        .warnings()
        .filter(|d| seen.insert(d.to_string()))
        .cloned()
        .collect()
}

/// Why one hook would or would not run for the event.
#[derive(Debug)]
pub struct Verdict<'a> {
    /// Its position in the merged list.
    pub index: usize,
    /// The hook.
    pub hook: &'a MergedHook,
    /// Whether its event, matcher, filter and condition select the context (as if it
    /// were active).
    pub mismatch: Option<Mismatch>,
}

impl Verdict<'_> {
    /// Whether the hook would run: active and selected.
    pub fn runs(&self) -> bool {
        self.hook.is_active() && self.mismatch.is_none()
    }

    /// Why it would not run, in words; `None` when it runs.
    pub fn why_not(&self) -> Option<String> {
        let mut why = Vec::new();
        if let Some(inactive) = &self.hook.inactive {
            why.push(inactive.describe());
        }
        if let Some(mismatch) = &self.mismatch {
            why.push(mismatch.to_string());
        } else if !self.hook.is_active() {
            why.push("it would match otherwise".to_owned());
        }
        if why.is_empty() {
            None
        } else {
            Some(why.join("; "))
        }
    }
}

/// One verdict per hook of `set` for `ctx`, in merged declaration order. Inactive hooks
/// (disabled, untrusted, ...) are matched as if they were active, so that the reason says
/// both why they do not run and whether they would match.
pub fn verdicts<'a>(set: &'a HookSet, ctx: &EventContext) -> Vec<Verdict<'a>> {
    verdicts_in(&every_hook(set), set, ctx)
}

/// An index of every hook of `set`, active or not, as [`verdicts`] matches them: built
/// once for commands that explain many events.
pub fn every_hook(set: &HookSet) -> HookIndex {
    let specs = set
        .hooks()
        .iter()
        .map(|h| h.spec.clone().with_enabled(true))
        .collect();
    HookIndex::new(specs)
}

/// [`verdicts`] with the index [`every_hook`] built for `set`.
pub fn verdicts_in<'a>(
    index: &HookIndex,
    set: &'a HookSet,
    ctx: &EventContext,
) -> Vec<Verdict<'a>> {
    index
        .explain(ctx)
        .into_iter()
        .map(|report| Verdict {
            index: report.index.get(),
            hook: &set.hooks()[report.index.get()],
            mismatch: report.mismatch,
        })
        .collect()
}

/// The JSON of `hooks explain --json` (also `hooks serve`'s `hooks/explain` result).
pub fn explain(set: &HookSet, ctx: &EventContext) -> Value {
    let all = verdicts(set, ctx);
    let (same, other): (Vec<&Verdict<'_>>, Vec<&Verdict<'_>>) =
        all.iter().partition(|v| v.hook.spec.event == *ctx.event());
    let hooks: Vec<Value> = same
        .iter()
        .map(|v| {
            json!({
                "index": v.index,
                "id": v.hook.spec.display_id(),
                "source": v.hook.spec.provenance.to_string(),
                "runs": v.runs(),
                "async": v.hook.spec.is_async,
                "state": state(v.hook),
                "why_not": v.why_not(),
            })
        })
        .collect();
    json!({
        "event": ctx.event().name(),
        "subjects": ctx.matcher_subjects().map(|(f, v)| json!({"field": f, "value": v})).collect::<Vec<_>>(),
        "runs": same.iter().filter(|v| v.runs()).count(),
        "hooks": hooks,
        "other_events": other.len(),
    })
}

/// `path` as a user would type it here: relative to the current directory (as spelled, or
/// with its symlinks resolved, as discovered paths are) when it lies under it, else as it
/// is.
pub fn shown_path(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let real = cwd.as_deref().and_then(|c| std::fs::canonicalize(c).ok());
    [cwd, real]
        .iter()
        .flatten()
        .find_map(|c| path.strip_prefix(c).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The command that trusts the file shown as `shown` (see [`shown_path`]).
pub fn trust_command(shown: &str) -> String {
    format!("hooks trust {}", hooks::config::shell_quote(shown))
}
