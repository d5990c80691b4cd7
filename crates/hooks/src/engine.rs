//! The engine: config files loaded and merged, the exec dispatcher built on them, task and
//! subagent hooks plugged into it, and hot reload.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use hooks_config::{
    BrokenFile, ConfigFile, Diagnostic, DiagnosticKind, Format, HookSet, Interpolation,
    LoadOptions, Locations, Origin, TrustPolicy, TrustStore,
};
use hooks_core::{
    Action, Aggregate, BoxFuture, BuiltinEvent, Decision, Dialect, Event, EventCatalog,
    EventContext, EventSink, FailurePolicy, HookIndex, HookSpec, Layer, PermissionAction,
    Provenance,
};
use hooks_exec::{
    AuditLog, CancellationToken, Dispatcher, DispatcherBuilder, NotificationSink, PromptEvaluator,
    Timeouts,
};

use crate::error::Error;

mod cache;

pub use cache::{CacheCounts, LoadCache};

/// Where one config source comes from.
#[derive(Clone, Debug)]
enum Source {
    /// A file named by the host or on the command line: trusted by that act.
    File {
        path: PathBuf,
        layer: Layer,
        dialect: Option<Dialect>,
    },
    /// Config text held in memory.
    Text {
        name: String,
        text: String,
        format: Format,
        dialect: Option<Dialect>,
        layer: Layer,
    },
    /// The standard locations (user, project, local, managed), discovered at each load.
    Discover {
        locations: Locations,
        /// Tests of a discovered file's path: a file one of them is true of is not loaded.
        skip_if: Vec<fn(&Path) -> bool>,
        /// Dialects whose discovered files are not loaded.
        skip_dialects: Vec<Dialect>,
    },
}

/// How hooks that need trust (discovered project files) are treated.
#[derive(Debug)]
enum Trust {
    Store(TrustStore),
    Deny,
    Bypass,
}

impl Trust {
    /// The trust as the store's file holds it now, for a reload: grants given or revoked
    /// since the last load (by `hooks trust` in another process, say) count at once. A
    /// store that can no longer be read trusts nothing. `None`: nothing to read again
    /// (no store, or one kept in memory).
    fn reread(&self) -> Option<Trust> {
        let Trust::Store(store) = self else {
            return None;
        };
        let path = store.path()?;
        Some(match TrustStore::open(path) {
            Ok(fresh) => Trust::Store(fresh),
            Err(error) => {
                tracing::warn!(%error, "the trust store cannot be read: nothing that needs trust runs");
                Trust::Deny
            }
        })
    }

    /// The store's file, if it is kept in one.
    fn path(&self) -> Option<&Path> {
        match self {
            Trust::Store(store) => store.path(),
            Trust::Deny | Trust::Bypass => None,
        }
    }
}

/// What the engine does when one of the user's own config files does not load.
///
/// A file that does not load never stops the others: every other file's hooks still run.
/// A repository's file (a discovered project or local file, which needs trust) that does
/// not load is always skipped, with a warning. This setting decides for every other file
/// (the user's, the managed policy, a file named explicitly or given as text): the guard
/// it held cannot run, so by default nothing it might have stopped goes through.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BrokenConfig {
    /// Fail closed (the default): every event that can be blocked (a tool call, a
    /// permission request, a prompt, ...) is blocked, with a reason naming the file and its
    /// first error, until the file is fixed. Events whose block would keep the agent
    /// working (`Stop`, `SubagentStop`, `TaskCompleted`, `TeammateIdle`) and
    /// `ConfigChange` (which brings the fix) are not. A reload that
    /// finds such a file keeps the hooks in force (the last good set) and returns its
    /// errors.
    #[default]
    Block,
    /// Fail open: the file is skipped with a warning, like a repository's, and the other
    /// files' hooks run alone.
    Allow,
}

impl BrokenConfig {
    /// `block` or `allow`, as the CLI and `HOOKS_ON_BROKEN_CONFIG` spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            BrokenConfig::Block => "block",
            BrokenConfig::Allow => "allow",
        }
    }

    /// Parses `block` or `allow`.
    pub fn parse(text: &str) -> Option<BrokenConfig> {
        match text.trim().to_ascii_lowercase().as_str() {
            "block" => Some(BrokenConfig::Block),
            "allow" => Some(BrokenConfig::Allow),
            _ => None,
        }
    }
}

/// Events a broken config file does not block although they can be blocked: blocking a
/// `ConfigChange` would refuse the very reload that brings the fix, and blocking the others
/// keeps the agent working (a stop, a task's completion, a teammate going idle), the
/// opposite of holding back what a guard might have stopped.
const NOT_BLOCKED_WHEN_BROKEN: [BuiltinEvent; 5] = [
    BuiltinEvent::ConfigChange,
    BuiltinEvent::Stop,
    BuiltinEvent::SubagentStop,
    BuiltinEvent::TaskCompleted,
    BuiltinEvent::TeammateIdle,
];

/// The id of the hook that stands in for broken config files under
/// [`BrokenConfig::Block`].
pub const BROKEN_CONFIG_HOOK: &str = "broken-config";

/// Builds an [`Engine`]: where the config comes from, how hooks run, what watches them.
///
/// Sources load in the order they were added, each into its layer; merging then follows
/// the layer precedence of `hooks_config::merge` (built-in < user < project < local < run <
/// command line < host, managed above all). Hooks added with [`EngineBuilder::hook`] are
/// host hooks: they come last and need no trust.
///
/// An engine loads only the sources it is given: without [`EngineBuilder::discover`] (or
/// `discover_in`) it reads no file of its own accord, so a project's `echo-agent.yaml` or
/// `skills/*/SKILL.md`, which echo-agent loads automatically, is loaded by naming it
/// ([`EngineBuilder::config_file`], trusted by being named) or by discovery (where, as a
/// project file, it waits for trust). The [echo-agent guide](crate::echo_agent) shows the
/// three side by side.
pub struct EngineBuilder {
    sources: Vec<Source>,
    host_hooks: Vec<HookSpec>,
    catalog: EventCatalog,
    interpolation: Interpolation,
    on_broken: BrokenConfig,
    trust: Trust,
    cache: Option<(Arc<LoadCache>, String)>,
    dispatcher: DispatcherBuilder,
    #[cfg(feature = "http")]
    http: hooks_exec::HttpConfig,
    #[cfg(feature = "mcp")]
    mcp_servers: Vec<(String, hooks_exec::McpServerConfig)>,
    #[cfg(feature = "orchestration")]
    task_hooks: hooks_orchestration::TaskHookRegistry,
    #[cfg(feature = "orchestration")]
    subagent_hooks: hooks_orchestration::SubagentHookRegistry,
}

impl std::fmt::Debug for EngineBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineBuilder")
            .field("sources", &self.sources)
            .field("host_hooks", &self.host_hooks.len())
            .field("trust", &self.trust)
            .finish_non_exhaustive()
    }
}

impl Default for EngineBuilder {
    fn default() -> EngineBuilder {
        EngineBuilder {
            sources: Vec::new(),
            host_hooks: Vec::new(),
            catalog: EventCatalog::new(),
            interpolation: Interpolation::default(),
            on_broken: BrokenConfig::default(),
            trust: Trust::Deny,
            cache: None,
            dispatcher: Dispatcher::builder(),
            #[cfg(feature = "http")]
            http: hooks_exec::HttpConfig::default(),
            #[cfg(feature = "mcp")]
            mcp_servers: Vec::new(),
            #[cfg(feature = "orchestration")]
            task_hooks: hooks_orchestration::TaskHookRegistry::new(),
            #[cfg(feature = "orchestration")]
            subagent_hooks: hooks_orchestration::SubagentHookRegistry::new(),
        }
    }
}

impl EngineBuilder {
    /// Adds a config file, named explicitly (so trusted), in the command-line layer, its
    /// dialect detected from its name and shape.
    #[must_use]
    pub fn config_file(self, path: impl Into<PathBuf>) -> EngineBuilder {
        self.config_file_in(path, Layer::CommandLine, None)
    }

    /// Adds a config file in `layer`, with its dialect named or (`None`) detected.
    #[must_use]
    pub fn config_file_in(
        mut self,
        path: impl Into<PathBuf>,
        layer: Layer,
        dialect: Option<Dialect>,
    ) -> EngineBuilder {
        self.sources.push(Source::File {
            path: path.into(),
            layer,
            dialect,
        });
        self
    }

    /// Adds config text held in memory (`name` is how diagnostics call it).
    #[must_use]
    pub fn config_text(
        mut self,
        name: impl Into<String>,
        text: impl Into<String>,
        format: Format,
        dialect: Option<Dialect>,
    ) -> EngineBuilder {
        self.sources.push(Source::Text {
            name: name.into(),
            text: text.into(),
            format,
            dialect,
            layer: Layer::Host,
        });
        self
    }

    /// Discovers config files in the standard locations (see `hooks_config::Locations`) for
    /// the project rooted at `project`, using the process environment for `~` and the
    /// config directory. Discovered project files need trust (see
    /// [`EngineBuilder::trust_store`]).
    #[must_use]
    pub fn discover(self, project: Option<&Path>) -> EngineBuilder {
        self.discover_in(Locations::from_env(project))
    }

    /// Discovers config files under explicit roots.
    #[must_use]
    pub fn discover_in(mut self, locations: Locations) -> EngineBuilder {
        self.sources.push(Source::Discover {
            locations,
            skip_if: Vec::new(),
            skip_dialects: Vec::new(),
        });
        self
    }

    /// Adds a hook in code (the host layer: no trust needed).
    #[must_use]
    pub fn hook(mut self, spec: HookSpec) -> EngineBuilder {
        self.host_hooks.push(spec);
        self
    }

    /// Uses `catalog` to resolve event names (register custom events in it first).
    #[must_use]
    pub fn catalog(mut self, catalog: EventCatalog) -> EngineBuilder {
        self.catalog = catalog;
        self
    }

    /// Sets variables, environment and secrets for `{{ vars.X }}`, `{{ env.X }}` and
    /// `{{ secrets.X }}` in configs.
    #[must_use]
    pub fn interpolation(mut self, interpolation: Interpolation) -> EngineBuilder {
        self.interpolation = interpolation;
        self
    }

    /// Sets the value of `{{ vars.NAME }}` in configs (replacing an earlier one of the same
    /// name; it takes precedence over a file's own `vars`). Call it after
    /// [`EngineBuilder::interpolation`], which replaces every variable.
    #[must_use]
    pub fn var(mut self, name: impl Into<String>, value: impl Into<String>) -> EngineBuilder {
        self.interpolation.vars.insert(name.into(), value.into());
        self
    }

    /// What to do when one of the user's own config files does not load (see
    /// [`BrokenConfig`]; [`BrokenConfig::Block`] by default).
    #[must_use]
    pub fn on_broken_config(mut self, on_broken: BrokenConfig) -> EngineBuilder {
        self.on_broken = on_broken;
        self
    }

    /// Lets discovered project hooks run when `store` trusts them. Without a store they do
    /// not run at all.
    #[must_use]
    pub fn trust_store(mut self, store: TrustStore) -> EngineBuilder {
        self.trust = Trust::Store(store);
        self
    }

    /// Runs every hook without asking for trust: for hosts that decide what to load by
    /// other means.
    #[must_use]
    pub fn bypass_trust(mut self) -> EngineBuilder {
        self.trust = Trust::Bypass;
        self
    }

    /// Sets the per-dialect default and maximum timeouts.
    #[must_use]
    pub fn timeouts(mut self, timeouts: Timeouts) -> EngineBuilder {
        self.dispatcher = self.dispatcher.timeouts(timeouts);
        self
    }

    /// Bounds how many hooks of one event run at once.
    #[must_use]
    pub fn max_concurrency(mut self, n: usize) -> EngineBuilder {
        self.dispatcher = self.dispatcher.max_concurrency(n);
        self
    }

    /// The project root: what Claude Code, echo-agent and native command hooks get as
    /// `CLAUDE_PROJECT_DIR` when an event names no `project_dir` (by default the working
    /// directory when the engine is built; never an event's `cwd`, which follows the agent).
    #[must_use]
    pub fn project_dir(mut self, dir: impl Into<PathBuf>) -> EngineBuilder {
        self.dispatcher = self.dispatcher.project_dir(dir);
        self
    }

    /// How many consecutive blocked stops keep an agent going before the next block is
    /// overridden (`0`: no cap; by default `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`, else 8); see
    /// [`DispatcherBuilder::stop_loop_cap`]. The engine's subagent dispatchers use it too.
    #[must_use]
    pub fn stop_loop_cap(mut self, cap: u32) -> EngineBuilder {
        self.dispatcher = self.dispatcher.stop_loop_cap(cap);
        self
    }

    /// Keeps the stop-loop counts in `streaks` (see [`DispatcherBuilder::stop_streaks`]),
    /// so that the cap holds across processes.
    #[must_use]
    pub fn stop_streaks(mut self, streaks: Arc<dyn hooks_exec::StopStreaks>) -> EngineBuilder {
        self.dispatcher = self.dispatcher.stop_streaks(streaks);
        self
    }

    /// Leaves async hooks to the host (see [`DispatcherBuilder::hand_off_async`]): they are
    /// neither queued nor run by [`Engine::dispatch`].
    #[must_use]
    pub fn hand_off_async(mut self, hand_off: bool) -> EngineBuilder {
        self.dispatcher = self.dispatcher.hand_off_async(hand_off);
        self
    }

    /// Skips the discovered files whose path `skip` is true of (a path as discovery lists
    /// it, under the roots with their symlinks resolved): the files an agent runs the hooks
    /// of itself, which the engine must not run again when that agent calls it (`hooks
    /// bridge claude`: Claude Code's settings files). Decided on the files discovery finds
    /// anyway, so it costs no look-up of its own.
    #[must_use]
    pub fn skip_discovered_if(mut self, skip: fn(&Path) -> bool) -> EngineBuilder {
        for source in &mut self.sources {
            if let Source::Discover { skip_if, .. } = source {
                skip_if.push(skip);
            }
        }
        self
    }

    /// Skips every discovered file of `dialect` (by its location, as
    /// [`hooks_config::dialect_from_path`] tells): the files of an agent that runs every
    /// file of its own dialect itself (`hooks bridge codex`). A location that stands for
    /// many files of the dialect (Codex's enabled plugins, Cline's hooks directories) is
    /// not looked into.
    #[must_use]
    pub fn skip_discovered_dialect(mut self, dialect: Dialect) -> EngineBuilder {
        for source in &mut self.sources {
            if let Source::Discover { skip_dialects, .. } = source {
                skip_dialects.push(dialect);
            }
        }
        self
    }

    /// Writes one JSONL line per hook run to `log`.
    #[must_use]
    pub fn audit_log(mut self, log: AuditLog) -> EngineBuilder {
        self.dispatcher = self.dispatcher.audit_log(log);
        self
    }

    /// Sends hook notifications (Autohand's JSON-RPC methods) to `sink`.
    #[must_use]
    pub fn notification_sink(mut self, sink: Arc<dyn NotificationSink>) -> EngineBuilder {
        self.dispatcher = self.dispatcher.notification_sink(sink);
        self
    }

    /// Answers `prompt` hooks that ask a model.
    #[must_use]
    pub fn prompt_evaluator(mut self, evaluator: Arc<dyn PromptEvaluator>) -> EngineBuilder {
        self.dispatcher = self.dispatcher.prompt_evaluator(evaluator);
        self
    }

    /// Sets an allow-list of URL patterns for `http` hooks, joined to the config's
    /// `allowed_http_hook_urls`.
    ///
    /// Without any list (neither the host's nor the config's) a hook is sent to its own
    /// URL, which the trust that loaded it allows, and redirects stay on its origin; a list
    /// restricts every hook and redirect to its patterns (see `hooks_exec::HttpConfig`).
    /// Each [`Engine::reload`] rebuilds the list from the host's patterns and the reloaded
    /// config's.
    #[cfg(feature = "http")]
    #[must_use]
    pub fn allow_http_urls<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        urls: I,
    ) -> EngineBuilder {
        self.http
            .allowed_urls
            .get_or_insert_with(Vec::new)
            .extend(urls.into_iter().map(Into::into));
        self
    }

    /// Declares an MCP server `mcp_tool` hooks may call by `name`.
    #[cfg(feature = "mcp")]
    #[must_use]
    pub fn mcp_server(
        mut self,
        name: impl Into<String>,
        config: hooks_exec::McpServerConfig,
    ) -> EngineBuilder {
        self.mcp_servers.push((name.into(), config));
        self
    }

    /// Attaches task hooks (called in registration order by the engine's task runners).
    #[cfg(feature = "orchestration")]
    #[must_use]
    pub fn with_task_hooks(
        mut self,
        hooks: Arc<dyn hooks_orchestration::TaskHooks>,
    ) -> EngineBuilder {
        self.task_hooks.register(hooks);
        self
    }

    /// Attaches subagent hooks (called in registration order by the engine's dispatchers).
    #[cfg(feature = "orchestration")]
    #[must_use]
    pub fn with_subagent_hooks(
        mut self,
        hooks: Arc<dyn hooks_orchestration::SubagentHooks>,
    ) -> EngineBuilder {
        self.subagent_hooks.register(hooks);
        self
    }

    /// Reuses the config loaded for `key` by an engine built before with the same `cache`,
    /// while every file it was loaded from and the trust store are unchanged (see
    /// [`LoadCache`]); loads it afresh otherwise. `key` must stand for everything else the
    /// load depends on that differs between the engines the cache serves (the project, the
    /// sources added, the interpolation's variables): engines built with equal keys must be
    /// built alike.
    #[must_use]
    pub fn load_cache(mut self, cache: Arc<LoadCache>, key: impl Into<String>) -> EngineBuilder {
        self.cache = Some((cache, key.into()));
        self
    }

    /// Loads and merges every source and builds the engine.
    ///
    /// A config file that does not load does not fail the build: it is in
    /// [`Loaded::broken`] with every problem at file:line:col, and in
    /// [`Loaded::warnings`]; what it means for events is [`BrokenConfig`]'s rule. The
    /// build fails only on the host's own settings (an invalid URL pattern or MCP server).
    pub fn build(self) -> Result<Engine, Error> {
        let config = Config {
            sources: self.sources,
            host_hooks: self.host_hooks,
            catalog: self.catalog,
            interpolation: self.interpolation,
            on_broken: self.on_broken,
        };
        let trust = self.trust;
        let loaded = match &self.cache {
            Some((cache, key)) => cache.load(key, &config, &trust),
            None => Arc::new(config.load(&trust)),
        };
        #[allow(unused_mut)]
        let mut dispatcher = self
            .dispatcher
            .index(loaded.index())
            .prepare(Arc::new(SecretsStep(Arc::clone(
                &config.interpolation.secrets,
            ))));
        #[cfg(feature = "http")]
        let http = {
            let mut http = self.http;
            // Headers read `${NAME}` (what `{{ env.NAME }}` in a header becomes) from the
            // environment the config is interpolated from.
            let env = config.interpolation.env.clone();
            http.env = hooks_exec::EnvLookup::new(move |name| env.get(name));
            let host_urls = http.allowed_urls.take();
            http.allowed_urls = http_allow_list(host_urls.as_deref(), &loaded);
            let executor = Arc::new(hooks_exec::HttpExecutor::new(http)?);
            dispatcher = dispatcher.http_executor(Arc::clone(&executor) as Arc<_>);
            HttpState {
                executor,
                host_urls,
            }
        };
        #[cfg(feature = "mcp")]
        let mcp = {
            // The host's servers are its own settings: an unusable one fails the build.
            for (name, server) in &self.mcp_servers {
                hooks_exec::check_server(server).map_err(|reason| {
                    hooks_exec::Error::McpServer {
                        server: name.clone(),
                        reason,
                    }
                })?;
            }
            let host = self.mcp_servers;
            let (servers, withheld) = mcp_servers(&host, &config, &loaded);
            let executor = Arc::new(hooks_exec::McpExecutor::new(servers)?);
            executor.set_withheld(withheld);
            dispatcher = dispatcher.mcp_executor(Arc::clone(&executor) as Arc<_>);
            McpState { executor, host }
        };
        let dispatcher = dispatcher.build()?;
        Ok(Engine {
            inner: Arc::new(Inner {
                dispatcher,
                config,
                trust: Mutex::new(trust),
                loaded: RwLock::new(loaded),
                #[cfg(feature = "http")]
                http,
                #[cfg(feature = "mcp")]
                mcp,
                #[cfg(feature = "orchestration")]
                task_hooks: self.task_hooks,
                #[cfg(feature = "orchestration")]
                subagent_hooks: self.subagent_hooks,
            }),
        })
    }
}

/// The http executor the dispatcher runs, and the host's own allow-list, from which (with
/// the config's) each reload rebuilds the executor's.
#[cfg(feature = "http")]
struct HttpState {
    executor: Arc<hooks_exec::HttpExecutor>,
    host_urls: Option<Vec<String>>,
}

/// The allow-list in force for `loaded`: the host's patterns and the config's joined, or
/// no list when neither sets one (each hook's own URL is then allowed by its trust).
#[cfg(feature = "http")]
fn http_allow_list(host: Option<&[String]>, loaded: &Loaded) -> Option<Vec<String>> {
    let config = loaded.hooks.allowed_http_hook_urls();
    if host.is_none() && config.is_none() {
        return None;
    }
    Some(
        host.unwrap_or_default()
            .iter()
            .chain(config.unwrap_or_default())
            .cloned()
            .collect(),
    )
}

/// The mcp_tool executor the dispatcher runs, and the host's own servers, from which (with
/// the config's) each reload rebuilds the executor's servers.
#[cfg(feature = "mcp")]
struct McpState {
    executor: Arc<hooks_exec::McpExecutor>,
    host: NamedServers,
}

/// MCP servers by name, in order.
#[cfg(feature = "mcp")]
type NamedServers = Vec<(String, hooks_exec::McpServerConfig)>;

/// The servers to start for `loaded` (the config's trusted servers, then the host's, which
/// win on a name both define), and those not started with the reason a hook calling one is
/// given: a server of an untrusted file, one whose secret is missing, one the executor
/// could not use.
#[cfg(feature = "mcp")]
fn mcp_servers(
    host: &[(String, hooks_exec::McpServerConfig)],
    config: &Config,
    loaded: &Loaded,
) -> (NamedServers, Vec<(String, String)>) {
    use hooks_exec::McpServerConfig;

    let mut withheld: Vec<(String, String)> = loaded
        .hooks
        .withheld_mcp_servers()
        .iter()
        .map(|server| {
            let why = match &server.provenance.file {
                Some(file) => format!(
                    "it is defined in {}, which is not trusted (starting a server runs its command); `hooks trust {}` starts it",
                    file.display(),
                    file.display()
                ),
                None => "its file is not trusted".to_owned(),
            };
            (server.name.clone(), why)
        })
        .collect();
    let mut servers: Vec<(String, McpServerConfig)> = Vec::new();
    for server in loaded.hooks.mcp_servers() {
        let resolved = match server.resolve_secrets(config.interpolation.secrets.as_ref()) {
            Ok(resolved) => resolved,
            Err(e) => {
                tracing::warn!(server = %server.name, error = %e, "MCP server not started");
                withheld.push((server.name.clone(), e.to_string()));
                continue;
            }
        };
        let entry = resolved.transport;
        if let Err(reason) = hooks_exec::check_server(&entry) {
            let why = format!(
                "its definition at {} is unusable: {reason}",
                server.provenance
            );
            tracing::warn!(server = %server.name, %why, "MCP server not started");
            withheld.push((server.name.clone(), why));
            continue;
        }
        servers.push((server.name.clone(), entry));
    }
    for (name, entry) in host {
        servers.retain(|(n, _)| n != name);
        withheld.retain(|(n, _)| n != name);
        servers.push((name.clone(), entry.clone()));
    }
    (servers, withheld)
}

/// Fills in `{{ secrets.NAME }}` right before each run, so secret values live only for the
/// run: never in the loaded config, its `Debug` output, listings or the audit log, and
/// hands the runner their masks, so that what the run yields leaves it with
/// `[secret NAME]` in place of each value. A missing secret fails the hook closed, naming
/// the hook and the token.
struct SecretsStep(Arc<dyn hooks_config::SecretProvider>);

impl hooks_exec::Prepare for SecretsStep {
    fn prepare(&self, spec: &HookSpec) -> Result<Option<hooks_exec::Prepared>, String> {
        // Most hooks use no secret: they run as loaded, without copying the hook.
        if !hooks_config::uses_secrets(spec) {
            return Ok(None);
        }
        match hooks_config::resolve_secrets(spec, self.0.as_ref()) {
            Ok(resolved) if resolved.has_secrets() => {
                let (spec, redactor) = resolved.into_parts();
                Ok(Some(
                    hooks_exec::Prepared::new(spec).with_redactor(redactor),
                ))
            }
            Ok(_) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// Everything the engine reloads from.
#[derive(Debug)]
struct Config {
    sources: Vec<Source>,
    host_hooks: Vec<HookSpec>,
    catalog: EventCatalog,
    interpolation: Interpolation,
    on_broken: BrokenConfig,
}

impl Config {
    fn options(&self, layer: Layer, origin: Origin, dialect: Option<Dialect>) -> LoadOptions {
        let mut options = LoadOptions::new()
            .with_catalog(self.catalog.clone())
            .with_interpolation(self.interpolation.clone())
            .with_layer(layer)
            .with_origin(origin);
        if let Some(d) = dialect {
            options = options.with_dialect(d);
        }
        options
    }

    /// Loads every source. A file that does not load is recorded in [`Loaded::broken`]
    /// and never stops the others.
    fn load(&self, trust: &Trust) -> Loaded {
        self.load_found(self.discover(), trust)
    }

    /// The files each discovering source finds now, one list per such source, in order.
    fn discover(&self) -> Vec<Vec<hooks_config::Discovered>> {
        self.sources
            .iter()
            .filter_map(|source| match source {
                Source::Discover {
                    locations,
                    skip_if,
                    skip_dialects,
                } => Some(locations.discover_where(|path| {
                    !skip_if.iter().any(|skip| skip(path))
                        && (skip_dialects.is_empty()
                            || !hooks_config::dialect_from_path(path)
                                .is_some_and(|x| skip_dialects.contains(&x)))
                })),
                Source::File { .. } | Source::Text { .. } => None,
            })
            .collect()
    }

    /// Loads every source, the discovering ones from the files they found (see
    /// [`Config::discover`]).
    fn load_found(&self, found: Vec<Vec<hooks_config::Discovered>>, trust: &Trust) -> Loaded {
        let mut found = found.into_iter();
        let mut files = Vec::new();
        let mut broken: Vec<BrokenFile> = Vec::new();
        for source in &self.sources {
            match source {
                Source::File {
                    path,
                    layer,
                    dialect,
                } => {
                    let options = self.options(*layer, Origin::Explicit, *dialect);
                    match hooks_config::load_file(path, &options) {
                        Ok(file) => files.push(file),
                        Err(e) => broken.push(BrokenFile::new(Some(path.clone()), &options, e)),
                    }
                }
                Source::Text {
                    name,
                    text,
                    format,
                    dialect,
                    layer,
                } => {
                    let options = self
                        .options(*layer, Origin::Explicit, *dialect)
                        .with_format(*format);
                    match hooks_config::load_str(text, Some(Path::new(name)), &options) {
                        Ok(file) => files.push(file),
                        Err(e) => {
                            broken.push(BrokenFile::new(Some(PathBuf::from(name)), &options, e));
                        }
                    }
                }
                Source::Discover { locations, .. } => {
                    let found = found.next().unwrap_or_default();
                    let base = self
                        .options(Layer::User, Origin::Discovered, None)
                        .with_project(locations.project.clone());
                    let (mut loaded, mut failed) = hooks_config::load_discovered(&found, &base);
                    files.append(&mut loaded);
                    broken.append(&mut failed);
                }
            }
        }
        let policy = match trust {
            Trust::Store(store) => TrustPolicy::Store(store),
            Trust::Deny => TrustPolicy::Deny,
            Trust::Bypass => TrustPolicy::Bypass,
        };
        let hooks = hooks_config::merge(&files, &policy);
        let fail_closed: Vec<&BrokenFile> =
            broken.iter().filter(|b| self.fails_closed(b)).collect();
        let mut specs = self.broken_config_hooks(&fail_closed);
        specs.extend(hooks.active_specs());
        specs.extend(self.host_hooks.iter().filter(|s| s.enabled).cloned());
        let notes = broken.iter().map(|b| self.note(b)).collect();
        let fails_closed = !fail_closed.is_empty();
        Loaded {
            index: Arc::new(HookIndex::new(specs)),
            files,
            broken,
            hooks,
            notes,
            fails_closed,
        }
    }

    /// Whether `broken` blocks events: it is not a repository's file and the setting says
    /// to fail closed.
    fn fails_closed(&self, broken: &BrokenFile) -> bool {
        !broken.needs_trust()
            && !broken.holds_only_mcp_servers()
            && self.on_broken == BrokenConfig::Block
    }

    /// The warning that says what became of a broken file: skipped, or blocking.
    fn note(&self, broken: &BrokenFile) -> Diagnostic {
        let first = broken.error.first();
        let errors = broken.error.errors().count();
        let more = match errors {
            0 | 1 => String::new(),
            n => format!(
                " (and {} more error{})",
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        };
        let what = if self.fails_closed(broken) {
            "events that can be blocked are blocked until it is fixed (on_broken_config: block)"
        } else if broken.holds_only_mcp_servers() {
            "its MCP servers do not start; the hooks run"
        } else if broken.needs_trust() {
            "it is skipped; the other files' hooks run"
        } else {
            "it is skipped; the other files' hooks run (on_broken_config: allow)"
        };
        let layer = match broken.layer {
            Layer::CommandLine => "named",
            Layer::Host => "host's",
            other => other.as_str(),
        };
        let mut d = Diagnostic::warning(
            DiagnosticKind::Merge,
            format!(
                "this {layer} file does not load ({}{more}), so its hooks do not run: {what}",
                first.message
            ),
        )
        .with_hint("`hooks validate FILE` shows every problem");
        d.file = first.file.clone().or_else(|| broken.path.clone());
        d.line = first.line;
        d.column = first.column;
        d
    }

    /// One hook per event that can be blocked, blocking it with a reason naming the
    /// broken files; none when no file fails closed (so this costs nothing otherwise).
    fn broken_config_hooks(&self, broken: &[&BrokenFile]) -> Vec<HookSpec> {
        let Some(first) = broken.first() else {
            return Vec::new();
        };
        let names: Vec<String> = broken.iter().map(|b| b.summary()).collect();
        let reason = format!(
            "the config file {} does not load, so the hooks it holds cannot run; blocked until it is fixed (check it with `hooks validate`, or set on_broken_config to allow)",
            names.join("; the config file ")
        );
        let err = first.error.first();
        let provenance = Provenance {
            file: err.file.clone().or_else(|| first.path.clone()),
            line: err.line,
            column: err.column,
            layer: first.layer,
        };
        BuiltinEvent::ALL
            .iter()
            .filter(|e| !NOT_BLOCKED_WHEN_BROKEN.contains(e))
            .map(|&e| Event::from(e))
            .chain(self.catalog.custom_events().iter().cloned())
            .filter(Event::can_block)
            .map(|event| {
                HookSpec::new(
                    event,
                    Action::Permission(PermissionAction {
                        decision: Decision::Block,
                        reason: Some(reason.clone()),
                    }),
                )
                .with_id(BROKEN_CONFIG_HOOK)
                .with_on_failure(FailurePolicy::Block)
                .with_provenance(provenance.clone())
            })
            .collect()
    }
}

/// The hooks the engine runs now, and where they came from.
#[derive(Debug)]
pub struct Loaded {
    /// The files loaded, in load order.
    pub files: Vec<ConfigFile>,
    /// The files that did not load, in load order, each with every problem it has (see
    /// [`BrokenConfig`] for what they mean for events).
    pub broken: Vec<BrokenFile>,
    /// The merged hooks, active or not, with why not.
    pub hooks: HookSet,
    /// One warning per broken file, saying what became of it.
    notes: Vec<Diagnostic>,
    fails_closed: bool,
    index: Arc<HookIndex>,
}

impl Loaded {
    /// The index of the active hooks (config hooks, then host hooks); the dispatcher
    /// shares this one.
    pub fn index(&self) -> Arc<HookIndex> {
        Arc::clone(&self.index)
    }

    /// Warnings: one for each file that did not load (at its first error, saying whether
    /// it is skipped or blocks events), then those of every file and of the merge (clamped
    /// timeouts, ignored settings of untrusted files), each once: the merged set already
    /// carries the files' warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.notes.iter().chain(self.hooks.diagnostics())
    }

    /// The warning of each file that did not load, in load order: the start of
    /// [`Loaded::warnings`], for commands that show only these.
    pub fn broken_notes(&self) -> &[Diagnostic] {
        &self.notes
    }

    /// Whether `file` makes events fail closed (it is one of the user's own files and the
    /// engine runs under [`BrokenConfig::Block`]).
    pub fn blocks_events(&self, file: &BrokenFile) -> bool {
        self.fails_closed && !file.needs_trust() && !file.holds_only_mcp_servers()
    }

    /// Whether a broken file blocks events ([`BrokenConfig::Block`]).
    pub fn fails_closed(&self) -> bool {
        self.fails_closed
    }
}

struct Inner {
    dispatcher: Dispatcher,
    config: Config,
    trust: Mutex<Trust>,
    loaded: RwLock<Arc<Loaded>>,
    #[cfg(feature = "http")]
    http: HttpState,
    #[cfg(feature = "mcp")]
    mcp: McpState,
    #[cfg(feature = "orchestration")]
    task_hooks: hooks_orchestration::TaskHookRegistry,
    #[cfg(feature = "orchestration")]
    subagent_hooks: hooks_orchestration::SubagentHookRegistry,
}

/// The hooks engine: [`Engine::dispatch`] an event, get its one outcome.
///
/// Cheap to clone (an `Arc`); clones share the hook set, the dispatcher and its async
/// queue.
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("dispatcher", &self.inner.dispatcher)
            .finish_non_exhaustive()
    }
}

/// What a reload did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reload {
    /// The new hook set is in place; it holds this many active hooks.
    Applied {
        /// Active hooks after the reload.
        active: usize,
    },
    /// A ConfigChange hook blocked the change: the previous hook set stays.
    Rejected {
        /// The hook's reason.
        reason: String,
    },
}

impl Engine {
    /// A builder with no sources, no trust for discovered project hooks, and the
    /// dispatcher's defaults.
    pub fn builder() -> EngineBuilder {
        EngineBuilder::default()
    }

    /// Runs the hooks `ctx` matches and returns their one outcome.
    pub async fn dispatch(&self, ctx: &EventContext) -> Aggregate {
        self.inner.dispatcher.dispatch(ctx).await
    }

    /// Like [`Engine::dispatch`]; cancelling `cancel` stops the hooks and kills every
    /// process they started.
    pub async fn dispatch_with_cancel(
        &self,
        ctx: &EventContext,
        cancel: &CancellationToken,
    ) -> Aggregate {
        self.inner
            .dispatcher
            .dispatch_with_cancel(ctx, cancel)
            .await
    }

    /// The hooks in force now.
    pub fn loaded(&self) -> Arc<Loaded> {
        let guard = self
            .inner
            .loaded
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(&guard)
    }

    /// The dispatcher (async queue counters, `run_hook` for testing one hook).
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.inner.dispatcher
    }

    /// The engine as an [`EventSink`], for runners that emit lifecycle events.
    pub fn event_sink(&self) -> Arc<dyn EventSink> {
        Arc::new(self.clone())
    }

    /// Reloads every source, and the trust store from its file, so that a grant revoked
    /// since takes effect. A file that does not load is treated as at build: a
    /// repository's file (and, under [`BrokenConfig::Allow`], any file) is skipped with a
    /// warning and the others reload. Under [`BrokenConfig::Block`] one of the user's own
    /// files that does not load leaves the hooks in force untouched (the guard it held
    /// keeps running as it last loaded) and returns its diagnostics. A config that loads
    /// is announced to the hooks in force as a `ConfigChange` event (`source: "hooks"`,
    /// `file_paths`); if one blocks it, the previous hooks stay; otherwise the new set
    /// replaces them at once: an event dispatches entirely under the old set or entirely
    /// under the new.
    pub async fn reload(&self) -> Result<Reload, Error> {
        let loaded = {
            let trust = self
                .inner
                .trust
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let fresh = trust.reread();
            self.inner.config.load(fresh.as_ref().unwrap_or(&trust))
        };
        let blocking: Vec<Diagnostic> = loaded
            .broken
            .iter()
            .filter(|b| self.inner.config.fails_closed(b))
            .flat_map(|b| b.error.diagnostics().iter().cloned())
            .collect();
        if !blocking.is_empty() {
            return Err(Error::Config(hooks_config::Error::new(blocking)));
        }
        let paths: Vec<String> = loaded
            .files
            .iter()
            .filter_map(|f| f.path.as_ref())
            .map(|p| p.display().to_string())
            .collect();
        let change = EventContext::new(BuiltinEvent::ConfigChange)
            .with("source", "hooks")
            .with("file_paths", paths);
        let verdict = self.dispatch(&change).await;
        if verdict.is_blocked() {
            let reason = verdict
                .effects
                .reason
                .unwrap_or_else(|| "a ConfigChange hook blocked the reload".to_owned());
            tracing::warn!(%reason, "config reload rejected");
            return Ok(Reload::Rejected { reason });
        }
        let active = loaded.index.len();
        // The new list and the new hooks take effect together: a hook the new config allows
        // is never refused by the old list, nor a removed one sent.
        #[cfg(feature = "mcp")]
        {
            let mcp = &self.inner.mcp;
            let (servers, withheld) = mcp_servers(&mcp.host, &self.inner.config, &loaded);
            mcp.executor.set_servers(servers).await?;
            mcp.executor.set_withheld(withheld);
        }
        #[cfg(feature = "http")]
        {
            let http = &self.inner.http;
            http.executor
                .set_allowed_urls(http_allow_list(http.host_urls.as_deref(), &loaded).as_deref())?;
        }
        self.inner.dispatcher.set_index(loaded.index());
        let mut guard = self
            .inner
            .loaded
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *guard = Arc::new(loaded);
        Ok(Reload::Applied { active })
    }

    /// Replaces the trust store; takes effect at the next [`Engine::reload`]. A store kept
    /// in a file needs no replacing: each reload reads it again.
    pub fn set_trust_store(&self, store: TrustStore) {
        let mut trust = self
            .inner
            .trust
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *trust = Trust::Store(store);
    }

    /// The files the engine loaded from, and the trust store's file, for watching.
    pub fn watched_paths(&self) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self
            .loaded()
            .files
            .iter()
            .filter_map(|f| f.path.clone())
            .collect();
        let trust = self
            .inner
            .trust
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        paths.extend(trust.path().map(Path::to_path_buf));
        drop(trust);
        for source in &self.inner.config.sources {
            match source {
                Source::File { path, .. } => paths.push(path.clone()),
                Source::Discover { locations, .. } => {
                    paths.extend(locations.candidates().into_iter().map(|d| d.path))
                }
                Source::Text { .. } => {}
            }
        }
        paths.sort();
        paths.dedup();
        paths
    }

    /// A task runner whose hooks are the engine's task hooks and whose lifecycle events
    /// (TaskCreated, TaskCompleted, Fabro stage events) go to the engine's config hooks.
    #[cfg(feature = "orchestration")]
    pub fn task_runner(
        &self,
        timer: Arc<dyn hooks_orchestration::Timer>,
    ) -> hooks_orchestration::TaskRunner {
        hooks_orchestration::TaskRunner::new(timer)
            .with_hooks(Arc::new(self.inner.task_hooks.clone()))
            .with_sink(self.event_sink())
    }

    /// A subagent dispatcher around `runner` whose hooks are the engine's subagent hooks
    /// and whose events (SubagentStart, SubagentStop) go to the engine's config hooks. Its
    /// stop-loop cap is the engine's ([`Dispatcher::stop_loop_cap`]); it alone counts the
    /// blocks that keep its subagents going
    /// ([`SubagentDispatcher::with_max_stop_blocks`](hooks_orchestration::SubagentDispatcher::with_max_stop_blocks)
    /// changes it).
    #[cfg(feature = "orchestration")]
    pub fn subagent_dispatcher(
        &self,
        runner: Arc<dyn hooks_orchestration::SubagentRunner>,
        timer: Arc<dyn hooks_orchestration::Timer>,
    ) -> hooks_orchestration::SubagentDispatcher {
        hooks_orchestration::SubagentDispatcher::new(runner, timer)
            .with_hooks(Arc::new(self.inner.subagent_hooks.clone()))
            .with_sink(self.event_sink())
            .with_stop_block_cap(self.dispatcher().stop_loop_cap())
    }
}

impl EventSink for Engine {
    fn dispatch(&self, ctx: EventContext) -> BoxFuture<'_, Aggregate> {
        Box::pin(async move { Engine::dispatch(self, &ctx).await })
    }
}

/// Keeps the hook set in step with the config files while it lives.
#[cfg(feature = "watch")]
pub struct Watcher {
    _watcher: notify::RecommendedWatcher,
    _task: tokio::task::JoinHandle<()>,
}

#[cfg(feature = "watch")]
impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").finish_non_exhaustive()
    }
}

#[cfg(feature = "watch")]
impl Engine {
    /// Watches the config files (the standard locations being discovered, and the trust
    /// store's file, so that a revoked grant takes effect at once) and reloads once
    /// changes have settled for `debounce`: a burst of changes (an editor's save, a
    /// `git checkout`) is one reload. Only changes count: the reload reading the files
    /// again (an open, a read) does not start another. Relative paths are taken from
    /// the current directory at this call. Each reload's result goes to `on_reload`; a
    /// config that does not load keeps the last good hook set. Must be called inside a
    /// tokio runtime; dropping the [`Watcher`] stops it.
    pub fn watch(
        &self,
        debounce: Duration,
        on_reload: impl Fn(Result<Reload, Error>) + Send + Sync + 'static,
    ) -> Result<Watcher, Error> {
        use notify::{RecursiveMode, Watcher as _};

        // Events name absolute paths (the watched directory joined with the file name),
        // so a relative `-c hooks.yaml` is compared, and its directory watched, absolute.
        let watched: std::collections::HashSet<PathBuf> = self
            .watched_paths()
            .into_iter()
            .filter_map(|p| std::path::absolute(p).ok())
            .collect();
        let mut dirs: Vec<PathBuf> = watched
            .iter()
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .filter(|d| d.is_dir())
            .collect();
        dirs.sort();
        dirs.dedup();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            // Directories are watched whole; only changes to config files count.
            if let Ok(event) = res
                && is_change(&event.kind)
                && event.paths.iter().any(|p| watched.contains(p))
            {
                let _ = tx.send(());
            }
        })
        .map_err(|e| Error::Watch(e.to_string()))?;
        // Watch each file's directory: editors replace files by rename, which a watch on
        // the file itself would lose.
        for dir in &dirs {
            watcher
                .watch(dir, RecursiveMode::NonRecursive)
                .map_err(|e| Error::Watch(e.to_string()))?;
        }
        let engine = self.clone();
        let task = tokio::spawn(async move {
            while rx.recv().await.is_some() {
                // Settle: wait until no change came for `debounce`.
                loop {
                    match tokio::time::timeout(debounce, rx.recv()).await {
                        Ok(Some(())) => continue,
                        Ok(None) => return,
                        Err(_) => break,
                    }
                }
                on_reload(engine.reload().await);
            }
        });
        Ok(Watcher {
            _watcher: watcher,
            _task: task,
        })
    }
}

/// Whether a file event changes what a reload would read: a file created, written,
/// renamed, removed or its attributes changed. Opening, reading and closing a file without
/// writing (what a reload itself does) are not changes, nor is an access time.
#[cfg(feature = "watch")]
fn is_change(kind: &notify::EventKind) -> bool {
    use notify::EventKind;
    use notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        EventKind::Any | EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) => true,
        EventKind::Other => false,
    }
}
