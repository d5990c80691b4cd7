//! Layers and merge: many loaded files become one ordered list of hooks, each with the
//! reason it does not run, if it does not.
//!
//! # Precedence rules
//!
//! Files are applied from the lowest layer to the highest: built-in, user, project,
//! local, run config, command line, host, and managed last. Within a layer, files apply
//! in the order given. Then:
//!
//! 1. **Same id replaces in place.** A hook whose `id` matches a hook already in the list
//!    replaces it at the inherited hook's position.
//! 2. **No id appends.** A hook without an `id` (or with a new one) is appended after the
//!    whole inherited list.
//! 3. **Disable and remove by id.** A native `{id, enabled: false}` disables the inherited
//!    hook of that id (it stays listed, and `{id, enabled: true}` in a higher layer turns it
//!    back on); `{id, remove: true}` removes it. A directive whose id matches nothing is a
//!    warning.
//! 4. **Managed cannot be overridden.** The managed layer applies last, so its hooks
//!    replace any same-id hook of other layers and no other layer can disable or remove
//!    them.
//! 5. **`disable_all_hooks`.** The highest non-managed layer that sets it decides for the
//!    hooks of every non-managed layer; set to `true` in the managed layer, it turns off
//!    every hook, managed ones included.
//! 6. **`managed_hooks_only`.** Honoured only in the managed layer (elsewhere it is a
//!    warning): only managed hooks run.
//! 7. **`allowed_http_hook_urls`.** The lists of every layer are joined; if the managed
//!    layer sets one, only the managed lists count. When a list is in force, an http hook
//!    whose URL matches none of its patterns (the syntax of [`hooks_core::UrlAllowList`]) does not
//!    run, with a warning.
//! 8. **Trust.** A hook from a discovered project or local file runs only if the
//!    [`TrustPolicy`] allows it. An untrusted hook never takes an inherited hook's place:
//!    with the id of an inherited hook it is listed after the inherited list instead of
//!    replacing it (it replaces it once trusted). Disable and remove directives of a file
//!    that is not trusted as a whole (a file grant, or trust bypassed) are ignored, with a
//!    warning, so a repository cannot switch off the user's hooks. Likewise such a file's
//!    switches (`disable_all_hooks`, `managed_hooks_only`, `allowed_http_hook_urls`, in
//!    any dialect's spelling) are ignored, each with a warning naming the file: a
//!    repository cannot turn hooks off or widen the HTTP allow-list either.
//! 9. **Duplicates run once.** Of active hooks with the same event, matcher, filter,
//!    condition and action (an identical command, say), and the same dialect, timeout,
//!    failure policy, async flag and layer, only one runs: the most protective (managed,
//!    then fail-closed, then the longer timeout), else the first in list order (the rule
//!    is [`hooks_core::DedupeKey`]'s). A copy that differs in any of these (a managed
//!    fail-closed guard copied with `on_failure: allow`, say) is a different hook and runs
//!    too. Hooks in a sequential group are never duplicates: each step may see a different
//!    input.
//!
//! 10. **MCP servers.** Of the servers of files trusted as a whole, one per name runs: the
//!     highest layer's (see [`crate::McpServer`]). A file not trusted as a whole starts
//!     none ([`HookSet::withheld_mcp_servers`]), with a warning.
//!
//! 11. **Fabro's run environment.** The run's environment is the `[run.environment].id` of
//!     the highest layer that sets one, else `default`. Its variables are joined by key
//!     from the lowest layer to the highest (in each file, `[environments.<id>.env]` and
//!     then `[run.environment.env]`), and every Fabro command hook gets them in its
//!     environment (a variable the hook sets itself wins). A file that is not trusted as a
//!     whole sets none of this.
//!
//! 12. **Gemini CLI's `hooksConfig.disabled`.** The lists of every Gemini CLI file are
//!     joined, as Gemini CLI joins those of its settings layers, and a Gemini CLI hook
//!     (of a settings file or an extension) whose `name`, else command, is in the joined
//!     list does not run. A file that is not trusted as a whole adds nothing to the list.
//!
//! 13. **`telemetry`.** Only the user layer (the user's own files) and the managed layer
//!     may say where hook runs are exported and what they include; a `telemetry:` section
//!     of any other layer (a project's or local file, trusted or not, a run config, a file
//!     named on the command line) is ignored with a warning at its line: a repository must
//!     not send a user's hook runs to a collector of its choosing. Within each of the two
//!     layers, files apply in order, a later file's values winning key by key
//!     ([`hooks_core::TelemetrySettings::overlay`]); the two are kept apart
//!     ([`HookSet::telemetry`]) because the `OTEL_*` variables rank between them.
//!
//! A hook that does not run says why ([`Inactive`]); the first reason in the order
//! disabled, all hooks disabled, managed hooks only, URL not allowed, untrusted, duplicate
//! is the one given.

use std::path::{Path, PathBuf};

use hooks_core::{
    Action, DedupeKey, DedupeScope, HookSpec, Layer, TelemetryLayers, find_duplicates,
};

use crate::dialects;
use crate::error::{Diagnostic, DiagnosticKind};
use crate::file::{ConfigFile, Item, Settings};
use crate::mcp::McpServer;
use crate::trust::{self, TrustPolicy};

/// Why a merged hook does not run.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inactive {
    /// `enabled: false` in its file, or a higher layer disabled it.
    Disabled,
    /// `disable_all_hooks` is in force.
    AllHooksDisabled,
    /// The managed layer allows only managed hooks.
    ManagedHooksOnly,
    /// An http hook whose URL is not in the allowed list.
    UrlNotAllowed,
    /// It comes from a project file and is not trusted.
    Untrusted,
    /// An identical hook runs instead (the most protective copy, else the earliest).
    Duplicate {
        /// The index of that hook in [`HookSet::hooks`].
        of: usize,
    },
    /// It calls this engine's bridge (`hooks bridge AGENT`, as `hooks install` writes it
    /// into an agent's file): it would run these same hooks again, so it never runs as a
    /// hook ([`crate::bridged_agent`]).
    Bridge {
        /// The agent it is the bridge of (`gemini`), as the call names it.
        agent: String,
    },
}

impl Inactive {
    /// A short reason, for listings.
    pub fn describe(&self) -> String {
        match self {
            Inactive::Disabled => "disabled".to_owned(),
            Inactive::AllHooksDisabled => "all hooks are disabled".to_owned(),
            Inactive::ManagedHooksOnly => "only managed hooks may run".to_owned(),
            Inactive::UrlNotAllowed => "its URL is not in the allowed HTTP hook URLs".to_owned(),
            Inactive::Untrusted => "not trusted (run `hooks trust`)".to_owned(),
            Inactive::Duplicate { of } => format!("duplicate of hook #{of}"),
            Inactive::Bridge { agent } => match hooks_core::Dialect::from_name(agent) {
                Some(dialect) => format!(
                    "the bridge of {}: runs these same hooks",
                    dialect.profile().display_name
                ),
                None => "a call of this engine's bridge: runs these same hooks".to_owned(),
            },
        }
    }
}

/// One hook of the merged list.
#[derive(Clone, Debug)]
pub struct MergedHook {
    /// The hook (its provenance says file, line and layer).
    pub spec: HookSpec,
    /// Its content hash ([`trust::hook_hash`]).
    pub hash: String,
    /// Whether it came from a file whose hooks need trust.
    pub needs_trust: bool,
    /// Whether the trust policy lets it run.
    pub trusted: bool,
    /// Why it does not run; `None` if it runs.
    pub inactive: Option<Inactive>,
}

impl MergedHook {
    /// Whether the hook runs.
    pub fn is_active(&self) -> bool {
        self.inactive.is_none()
    }
}

/// The merged hooks of every layer, with the effective switches.
#[derive(Clone, Debug, Default)]
pub struct HookSet {
    hooks: Vec<MergedHook>,
    diagnostics: Vec<Diagnostic>,
    all_disabled: bool,
    all_disabled_by: Option<PathBuf>,
    managed_only: bool,
    managed_only_by: Option<PathBuf>,
    allowed_urls: Option<Vec<String>>,
    mcp_servers: Vec<McpServer>,
    withheld_mcp_servers: Vec<McpServer>,
    environment: Option<(String, Vec<(String, String)>)>,
    telemetry: TelemetryLayers,
}

impl HookSet {
    /// Fabro's run environment, when a Fabro file is merged: its id (the highest layer's
    /// `[run.environment].id`, else `default`) and its variables, which every Fabro command
    /// hook of the set is given (see rule 11 of this module's docs).
    pub fn run_environment(&self) -> Option<(&str, &[(String, String)])> {
        self.environment
            .as_ref()
            .map(|(id, vars)| (id.as_str(), vars.as_slice()))
    }

    /// Every hook, active or not, in merged declaration order.
    pub fn hooks(&self) -> &[MergedHook] {
        &self.hooks
    }

    /// The hooks that run, in declaration order: what to build a `HookIndex` from.
    pub fn active(&self) -> impl Iterator<Item = &HookSpec> {
        self.hooks.iter().filter(|h| h.is_active()).map(|h| &h.spec)
    }

    /// Copies of the hooks that run.
    pub fn active_specs(&self) -> Vec<HookSpec> {
        self.active().cloned().collect()
    }

    /// The hook with this id, if any.
    pub fn get(&self, id: &str) -> Option<&MergedHook> {
        self.hooks.iter().find(|h| h.spec.id.as_deref() == Some(id))
    }

    /// Warnings from merging (directives that matched nothing, ignored switches, refused
    /// URLs), and the warnings each file gave when it loaded.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Whether `disable_all_hooks` is in force for non-managed hooks.
    pub fn all_hooks_disabled(&self) -> bool {
        self.all_disabled
    }

    /// The file whose `disable_all_hooks` is in force, when it came from a file: what
    /// turned the hooks off.
    pub fn all_hooks_disabled_by(&self) -> Option<&Path> {
        self.all_disabled_by.as_deref()
    }

    /// Whether only managed hooks run.
    pub fn managed_hooks_only(&self) -> bool {
        self.managed_only
    }

    /// The managed file whose `managed_hooks_only` is in force, when it came from a file.
    pub fn managed_hooks_only_by(&self) -> Option<&Path> {
        self.managed_only_by.as_deref()
    }

    /// The URL patterns http hooks must match, if a list is in force.
    pub fn allowed_http_hook_urls(&self) -> Option<&[String]> {
        self.allowed_urls.as_deref()
    }

    /// The MCP servers of the files trusted as a whole, one per name (the highest layer's;
    /// see [`crate::McpServer`]), in the order first defined.
    pub fn mcp_servers(&self) -> &[McpServer] {
        &self.mcp_servers
    }

    /// The telemetry settings of the user's files and of managed policy (rule 13 of this
    /// module's docs); the exporter ranks the `OTEL_*` variables between them.
    pub fn telemetry(&self) -> &TelemetryLayers {
        &self.telemetry
    }

    /// The servers of files not trusted as a whole, which are not started, unless a
    /// trusted file defines the same name: what to tell a hook that names one.
    pub fn withheld_mcp_servers(&self) -> &[McpServer] {
        &self.withheld_mcp_servers
    }
}

/// Whether `url` is allowed by `pattern`, an entry of the HTTP hook URL allow-list (see
/// [`hooks_core::UrlAllowList`] for the syntax; the HTTP executor checks requests with the
/// same rule). An invalid pattern allows nothing.
pub fn url_matches(pattern: &str, url: &str) -> bool {
    hooks_core::UrlPattern::parse(pattern)
        .is_ok_and(|p| hooks_core::UrlAllowList::from(vec![p]).allows_str(url))
}

/// `scheme://host/` of an http hook's URL, for hints (the URL itself when it does not
/// parse that far).
fn url_origin(spec: &HookSpec) -> String {
    let Action::Http(h) = &spec.action else {
        return String::new();
    };
    match h.url.split_once("://") {
        Some((scheme, rest)) => {
            let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
            let host = host.rsplit('@').next().unwrap_or(host);
            format!("{scheme}://{host}/")
        }
        None => h.url.clone(),
    }
}

struct Slot<'f> {
    spec: HookSpec,
    file: &'f ConfigFile,
}

fn directive_warning(message: String, provenance: &hooks_core::Provenance) -> Diagnostic {
    let mut d = Diagnostic::warning(DiagnosticKind::Merge, message);
    if let Some(file) = &provenance.file {
        d = d.with_file(file.clone());
    }
    if let (Some(line), Some(col)) = (provenance.line, provenance.column) {
        d = d.at(line, col);
    }
    d
}

/// Reports each switch an untrusted file sets, which merging ignores.
fn ignored_settings(file: &ConfigFile, diagnostics: &mut Vec<Diagnostic>) {
    // Destructured whole, so that a new setting cannot be added without deciding here
    // whether an untrusted file may set it.
    let Settings {
        disable_all_hooks,
        managed_hooks_only,
        allowed_http_hook_urls,
        // Both shape only the file's own hooks, which need trust themselves: `vars` are
        // interpolated into them (and so into their trust hashes) and Autohand's
        // `hooks.enabled: false` turns them off.
        hooks_enabled: _,
        vars: _,
        disabled_hooks,
        mcp_servers,
        run_environment,
        working_dir,
        // Honoured in the user and managed layers only, which need no trust; any other
        // layer's is ignored by [`telemetry`], with its own warning.
        telemetry: _,
    } = &file.settings;
    if !mcp_servers.is_empty() {
        let names: Vec<String> = mcp_servers
            .iter()
            .map(|s| format!("`{}`", s.name))
            .collect();
        let mut d = Diagnostic::warning(
            DiagnosticKind::Merge,
            format!(
                "MCP server{} {} not started: starting a server runs its command, and this file is not trusted",
                if names.len() == 1 { "" } else { "s" },
                names.join(", ")
            ),
        )
        .with_hint("trust the whole file (`hooks trust FILE`) for its servers to start".to_owned());
        if let Some(p) = &file.path {
            d = d.with_file(p.clone());
        }
        if let Some(first) = mcp_servers.first()
            && let (Some(line), Some(col)) = (first.provenance.line, first.provenance.column)
        {
            d = d.at(line, col);
        }
        diagnostics.push(d);
    }
    let names = &dialects::of(file.dialect).switch_names;
    let set = [
        (disable_all_hooks.is_some(), names.disable_all_hooks),
        (managed_hooks_only.is_some(), names.managed_hooks_only),
        (
            allowed_http_hook_urls.is_some(),
            names.allowed_http_hook_urls,
        ),
        // Its variables would reach the user's own hooks (a `PATH`, an `LD_PRELOAD`).
        (
            !run_environment.is_empty(),
            "run.environment` / `environments",
        ),
        (working_dir.is_some(), "[run].working_dir"),
        // Joined across Gemini CLI's files: it would switch off the user's hooks.
        (!disabled_hooks.is_empty(), "hooksConfig.disabled"),
    ];
    for (_, name) in set.iter().filter(|(is_set, _)| *is_set) {
        let mut d = Diagnostic::warning(
            DiagnosticKind::Merge,
            format!("ignored `{name}`: a file that is not trusted cannot change any setting"),
        )
        .with_hint(
            "trust the whole file (`hooks trust FILE`) for its settings to count".to_owned(),
        );
        if let Some(p) = &file.path {
            d = d.with_file(p.clone());
        }
        diagnostics.push(d);
    }
}

/// Merges loaded files by the precedence rules of this module's docs.
pub fn merge(files: &[ConfigFile], trust: &TrustPolicy<'_>) -> HookSet {
    let mut order: Vec<&ConfigFile> = files.iter().collect();
    // Stable: files of one layer keep the order they were given in.
    order.sort_by_key(|f| f.layer);
    let mut diagnostics: Vec<Diagnostic> = order
        .iter()
        .flat_map(|f| f.warnings.iter().cloned())
        .collect();
    let mut slots: Vec<Slot<'_>> = Vec::new();
    for file in &order {
        let file_trusted = trust.allows_file(file);
        for item in &file.items {
            if !file_trusted && !matches!(item, Item::Hook(_)) {
                let provenance = match item {
                    Item::SetEnabled { provenance, .. } | Item::Remove { provenance, .. } => {
                        provenance
                    }
                    Item::Hook(spec) => &spec.provenance,
                };
                diagnostics.push(directive_warning(
                    "ignored: a file that is not trusted cannot disable or remove hooks".to_owned(),
                    provenance,
                ));
                continue;
            }
            match item {
                Item::Hook(spec) => {
                    let slot = Slot {
                        spec: spec.clone(),
                        file,
                    };
                    let existing = spec
                        .id
                        .as_ref()
                        .filter(|_| trust.allows(file, spec))
                        .and_then(|id| slots.iter().position(|s| s.spec.id.as_ref() == Some(id)));
                    match existing {
                        Some(i) => slots[i] = slot,
                        None => slots.push(slot),
                    }
                }
                Item::SetEnabled {
                    id,
                    enabled,
                    provenance,
                } => match slots.iter_mut().find(|s| s.spec.id.as_ref() == Some(id)) {
                    Some(slot) => slot.spec.enabled = *enabled,
                    None => diagnostics.push(directive_warning(
                        format!(
                            "there is no inherited hook `{id}` to {}",
                            if *enabled { "enable" } else { "disable" }
                        ),
                        provenance,
                    )),
                },
                Item::Remove { id, provenance } => {
                    let before = slots.len();
                    slots.retain(|s| s.spec.id.as_ref() != Some(id));
                    if slots.len() == before {
                        diagnostics.push(directive_warning(
                            format!("there is no inherited hook `{id}` to remove"),
                            provenance,
                        ));
                    }
                }
            }
        }
    }

    // Fabro: every command hook of the run runs in the run's working directory, the
    // `[run].working_dir` of the highest trusted layer that sets one (applied below, once
    // trust is decided on the hook as its file wrote it), when the run's environment is
    // this machine. A `docker` or `daytona` environment's working directory is inside its
    // container, where no hook runs here (a host hook runs on the host, a sandboxed one in
    // the local sandbox): they run in the event's `cwd`, where the run was started.
    let run_dir = order
        .iter()
        .rev()
        .filter(|f| trust.allows_file(f))
        .find_map(|f| f.settings.working_dir.as_ref());
    let run_dir = run_dir.cloned();
    let run_files = run_configs(&order, trust);
    let run_is_local = run_files
        .first()
        .and_then(|f| dialects::of(f.dialect).run_config.as_ref())
        .is_none_or(|run| (run.runs_here)(&run_files));

    // The switches.
    let mut all_disabled = false;
    let mut all_disabled_by = None;
    let mut managed_disable_all = false;
    let mut managed_disabled_by = None;
    let mut managed_only = false;
    let mut managed_only_by = None;
    let mut managed_urls: Option<Vec<String>> = None;
    let mut other_urls: Option<Vec<String>> = None;
    for file in &order {
        // A file that is not trusted as a whole changes nothing: its switches are ignored
        // exactly like its hooks and directives.
        if !trust.allows_file(file) {
            ignored_settings(file, &mut diagnostics);
            continue;
        }
        let managed = file.layer == Layer::Managed;
        let s = &file.settings;
        if let Some(v) = s.disable_all_hooks {
            if managed {
                managed_disable_all |= v;
                if v && managed_disabled_by.is_none() {
                    managed_disabled_by = file.path.clone();
                }
            } else {
                all_disabled = v;
                all_disabled_by = file.path.clone().filter(|_| v);
            }
        }
        if let Some(v) = s.managed_hooks_only {
            if managed {
                managed_only |= v;
                if v && managed_only_by.is_none() {
                    managed_only_by = file.path.clone();
                }
            } else {
                let mut d = Diagnostic::warning(
                    DiagnosticKind::Merge,
                    format!(
                        "`managed_hooks_only` is honoured only in the managed layer; ignored in the {} layer",
                        file.layer.as_str()
                    ),
                );
                if let Some(p) = &file.path {
                    d = d.with_file(p.clone());
                }
                diagnostics.push(d);
            }
        }
        if let Some(urls) = &s.allowed_http_hook_urls {
            let target = if managed {
                &mut managed_urls
            } else {
                &mut other_urls
            };
            target
                .get_or_insert_with(Vec::new)
                .extend(urls.iter().cloned());
        }
    }
    let allowed_urls = managed_urls.or(other_urls);
    // Gemini CLI's `hooksConfig.disabled`, joined across its files (rule 12).
    let gemini_disabled: std::collections::BTreeSet<&str> = order
        .iter()
        .filter(|f| trust.allows_file(f))
        .flat_map(|f| f.settings.disabled_hooks.iter().map(String::as_str))
        .collect();
    let (mcp_servers, withheld_mcp_servers) = servers(&order, trust);
    let telemetry = telemetry(&order, &mut diagnostics);
    let environment = run_environment(&run_files);
    // Compiled once; an invalid pattern (loaders report those at their line) allows nothing.
    let allow_list = allowed_urls.as_ref().map(|patterns| {
        hooks_core::UrlAllowList::from(
            patterns
                .iter()
                .filter_map(|p| hooks_core::UrlPattern::parse(p).ok())
                .collect::<Vec<_>>(),
        )
    });

    let mut hooks: Vec<MergedHook> = Vec::with_capacity(slots.len());
    for slot in slots {
        let managed = slot.file.layer == Layer::Managed;
        let needs_trust = slot.file.needs_trust();
        let trusted = trust.allows(slot.file, &slot.spec);
        let url_ok = match (&slot.spec.action, &allow_list) {
            (Action::Http(h), Some(list)) => list.allows_str(&h.url),
            _ => true,
        };
        let gemini_off = !gemini_disabled.is_empty()
            && dialects::of(slot.spec.dialect)
                .disabled_name
                .and_then(|name| name(&slot.spec))
                .is_some_and(|n| gemini_disabled.contains(n.as_str()));
        let bridge = crate::bridge::bridged_agent(
            &slot.spec.action,
            slot.file.path.as_deref().and_then(std::path::Path::parent),
        );
        let inactive = if let Some(agent) = bridge {
            Some(Inactive::Bridge { agent })
        } else if !slot.spec.enabled || gemini_off {
            Some(Inactive::Disabled)
        } else if managed_disable_all || (all_disabled && !managed) {
            Some(Inactive::AllHooksDisabled)
        } else if managed_only && !managed {
            Some(Inactive::ManagedHooksOnly)
        } else if !url_ok {
            diagnostics.push(
                directive_warning(
                    format!(
                        "http hook `{}` does not run: its URL is not in the allowed HTTP hook URLs",
                        slot.spec.display_id()
                    ),
                    &slot.spec.provenance,
                )
                .with_hint(format!(
                    "add a pattern that covers it to `allowed_http_hook_urls` (`allowedHttpHookUrls` in Claude Code's settings), such as `{}`; the lists in force: {}",
                    url_origin(&slot.spec),
                    allowed_urls.as_deref().unwrap_or_default().join(", ")
                )),
            );
            Some(Inactive::UrlNotAllowed)
        } else if !trusted {
            Some(Inactive::Untrusted)
        } else {
            None
        };
        let hash = trust::hook_hash(&slot.spec);
        let mut spec = slot.spec;
        // After the hash: trust covers the hook as written, not the environment it runs in.
        if let Some((_, vars)) = &environment {
            give_environment(&mut spec, vars);
        }
        if dialects::of(spec.dialect).run_config.is_some()
            && let Action::Command(c) = &mut spec.action
        {
            if !run_is_local {
                // The run's working directory its file gave it, not a directory of its own.
                if order
                    .iter()
                    .any(|f| f.settings.working_dir.is_some() && f.settings.working_dir == c.cwd)
                {
                    c.cwd = None;
                }
            } else if let Some(dir) = &run_dir {
                c.cwd = Some(dir.clone());
            }
        }
        hooks.push(MergedHook {
            hash,
            spec,
            needs_trust,
            trusted,
            inactive,
        });
    }
    // Of the hooks that would run, copies run once: the rule is hooks-core's, shared with
    // the dispatcher.
    let keys: Vec<Option<DedupeKey<'_>>> = hooks
        .iter()
        .map(|h| {
            h.is_active()
                .then(|| DedupeKey::new(&h.spec, DedupeScope::Merge))
                .flatten()
        })
        .collect();
    let copies = find_duplicates(&keys);
    for (hook, of) in hooks.iter_mut().zip(copies) {
        if let Some(of) = of {
            hook.inactive = Some(Inactive::Duplicate { of });
        }
    }
    HookSet {
        hooks,
        diagnostics,
        all_disabled: all_disabled || managed_disable_all,
        all_disabled_by: if managed_disable_all {
            managed_disabled_by
        } else {
            all_disabled_by
        },
        managed_only,
        managed_only_by,
        allowed_urls,
        mcp_servers,
        withheld_mcp_servers,
        environment,
        telemetry,
    }
}

/// The telemetry settings of the user and managed layers (rule 13); a `telemetry:` section
/// of any other layer is reported and ignored.
fn telemetry(order: &[&ConfigFile], diagnostics: &mut Vec<Diagnostic>) -> TelemetryLayers {
    let mut layers = TelemetryLayers::default();
    for file in order {
        let Some(section) = &file.settings.telemetry else {
            continue;
        };
        match file.layer {
            Layer::User => layers.user.overlay(&section.settings),
            Layer::Managed => layers.managed.overlay(&section.settings),
            layer => {
                let mut d = Diagnostic::warning(
                    DiagnosticKind::Merge,
                    format!(
                        "ignored `telemetry`: only your own config (the user layer) and managed policy may say where hook runs are exported, and this file is in the {} layer; a repository must not send your hook runs to a collector of its choosing",
                        layer.as_str()
                    ),
                )
                .with_hint(
                    "move the section to your user config (`~/.config/hooks/hooks.yaml`), or set the `OTEL_*` variables".to_owned(),
                );
                if let Some(p) = &file.path {
                    d = d.with_file(p.clone());
                }
                if section.line > 0 {
                    d = d.at(section.line, section.column);
                }
                diagnostics.push(d);
            }
        }
    }
    layers
}

/// The run configs of `order` (Fabro's files) that are trusted as a whole, lowest layer
/// first.
fn run_configs<'a>(order: &[&'a ConfigFile], trust: &TrustPolicy<'_>) -> Vec<&'a ConfigFile> {
    order
        .iter()
        .copied()
        .filter(|f| dialects::of(f.dialect).run_config.is_some() && trust.allows_file(f))
        .collect()
}

/// Fabro's run environment (rule 11) from its run configs trusted as a whole, lowest
/// layer first ([`run_configs`]): the selected id and its variables, joined by key from
/// the lowest layer to the highest (each file's `[environments.<id>.env]`, then its
/// `[run.environment.env]`); `None` when no Fabro file is merged.
fn run_environment(fabro: &[&ConfigFile]) -> Option<(String, Vec<(String, String)>)> {
    if fabro.is_empty() {
        return None;
    }
    let id = fabro
        .iter()
        .rev()
        .find_map(|f| f.settings.run_environment.id.clone())
        .unwrap_or_else(|| "default".to_owned());
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut set = |k: &str, v: &str| match vars.iter_mut().find(|(key, _)| key == k) {
        Some(slot) => slot.1 = v.to_owned(),
        None => vars.push((k.to_owned(), v.to_owned())),
    };
    for file in fabro {
        let env = &file.settings.run_environment;
        for (k, v) in env.catalog.get(&id).into_iter().flatten() {
            set(k, v);
        }
        for (k, v) in &env.overrides {
            set(k, v);
        }
    }
    Some((id, vars))
}

/// Gives a Fabro command hook the run environment's variables (its own `env` wins).
fn give_environment(spec: &mut HookSpec, vars: &[(String, String)]) {
    if dialects::of(spec.dialect).run_config.is_none() {
        return;
    }
    if let Action::Command(c) = &mut spec.action {
        for (k, v) in vars {
            if !c.env.iter().any(|(key, _)| key == k) {
                c.env.push((k.clone(), v.clone()));
            }
        }
    }
}

/// The servers that start (of files trusted as a whole, the highest layer's of each name,
/// in the order first defined) and those withheld (of other files, names no trusted file
/// defines).
fn servers(order: &[&ConfigFile], trust: &TrustPolicy<'_>) -> (Vec<McpServer>, Vec<McpServer>) {
    let (mut trusted, mut withheld) = (Vec::new(), Vec::new());
    for file in order {
        let target = if trust.allows_file(file) {
            &mut trusted
        } else {
            &mut withheld
        };
        target.extend(file.settings.mcp_servers.iter());
    }
    // Stable: a `~/.claude.json` project entry (local layer) ranks above `.mcp.json`.
    trusted.sort_by_key(|s| s.provenance.layer);
    let mut out: Vec<McpServer> = Vec::new();
    for server in trusted {
        match out.iter_mut().find(|s| s.name == server.name) {
            Some(slot) => *slot = server.clone(),
            None => out.push(server.clone()),
        }
    }
    let withheld = withheld
        .into_iter()
        .filter(|w| !out.iter().any(|s| s.name == w.name))
        .cloned()
        .collect();
    (out, withheld)
}
