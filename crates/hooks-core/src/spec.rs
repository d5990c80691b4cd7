//! The hook spec model: one configured hook, whatever dialect it came from.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dialect::Dialect;
use crate::event::Event;
use crate::filter::{Filter, IfCondition};
use crate::matcher::Matcher;
use crate::outcome::{Decision, FailurePolicy};
use crate::stop_loop::StopBlockCap;

/// The position of a hook in the spec list a [`HookIndex`](crate::HookIndex) was built
/// from: its declaration index, which [`HookIndex::matching`](crate::HookIndex::matching)
/// returns, [`HookIndex::spec`](crate::HookIndex::spec) takes and an
/// [`AggregateEntry`](crate::AggregateEntry) carries, so that outcomes fold in declaration
/// order. It means something only for the index it came from.
///
/// Serialises as the bare number.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
#[repr(transparent)]
pub struct HookPos(usize);

impl HookPos {
    /// The hook declared `n`th (from 0).
    pub const fn new(n: usize) -> HookPos {
        HookPos(n)
    }

    /// The position as a number, from 0.
    pub const fn get(self) -> usize {
        self.0
    }
}

/// A position is its number: `index.matching(&ctx) == [0, 2]`.
impl PartialEq<usize> for HookPos {
    fn eq(&self, other: &usize) -> bool {
        self.0 == *other
    }
}

impl fmt::Display for HookPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// One configured hook: when it fires (event, matcher, filters, `if`) and what it does.
///
/// Built with [`HookSpec::new`] and the `with_*` methods; matchers, filters and conditions
/// are compiled before they get here, so a spec always matches the way it says it does.
#[derive(Clone, Debug)]
pub struct HookSpec {
    /// Merge identity and display name (`id` in every dialect that has one).
    pub id: Option<String>,
    /// Optional display name (Fabro `name`).
    pub name: Option<String>,
    /// Optional description (Autohand `description`).
    pub description: Option<String>,
    /// The event it is attached to.
    pub event: Event,
    /// What the event's matcher subject must match.
    pub matcher: Matcher,
    /// Tool-name and path filters (Autohand `filter`).
    pub filter: Filter,
    /// Claude's per-handler `if` condition.
    pub condition: Option<IfCondition>,
    /// What the hook does.
    pub action: Action,
    /// Its timeout; `None` takes the engine's default.
    pub timeout: Option<Duration>,
    /// Fail open or fail closed.
    pub on_failure: FailurePolicy,
    /// Runs in the background without delaying the event (Autohand `async`, Fabro
    /// `blocking = false`).
    pub is_async: bool,
    /// Hooks sharing a sequential group run one after another in declaration order, each
    /// seeing the previous one's rewritten input.
    pub sequential: Option<String>,
    /// Disabled hooks are kept (to be listed and explained) but never run.
    pub enabled: bool,
    /// The dialect it was written in: decides stdin shape and environment variables.
    pub dialect: Dialect,
    /// The event's name in [`HookSpec::dialect`] the hook was registered under, when that
    /// dialect has several names for one event: Cursor's `beforeShellExecution` and
    /// `preToolUse` are both PreToolUse, and their hooks are given different JSON. `None`:
    /// the dialect's one name for the event.
    pub home_event: Option<&'static str>,
    /// On `Stop` and `SubagentStop`: how many consecutive times this hook's block may keep
    /// the agent going (Cursor's `loop_limit`: 5 unless the entry says, `null` for no
    /// limit), counted in the session's stop-loop streak; past it the hook's block is
    /// dropped. `None`: the engine's stop-loop cap ([`StopBlockCap`]) applies.
    pub loop_limit: Option<StopBlockCap>,
    /// Another event the hook also fires on, where its home agent runs it for two of the
    /// engine's events: Cursor's `stop` hooks also run when the agent errs (StopFailure).
    pub also_on: Option<crate::event::BuiltinEvent>,
    /// Where it was defined.
    pub provenance: Provenance,
}

impl HookSpec {
    /// A hook on `event` doing `action`, matching everything, enabled, fail-open, with the
    /// default timeout.
    pub fn new(event: impl Into<Event>, action: Action) -> HookSpec {
        HookSpec {
            id: None,
            name: None,
            description: None,
            event: event.into(),
            matcher: Matcher::all(),
            filter: Filter::default(),
            condition: None,
            action,
            timeout: None,
            on_failure: FailurePolicy::Allow,
            is_async: false,
            sequential: None,
            enabled: true,
            dialect: Dialect::default(),
            home_event: None,
            loop_limit: None,
            also_on: None,
            provenance: Provenance::default(),
        }
    }

    /// Sets the event's name in the hook's dialect it was registered under
    /// ([`HookSpec::home_event`]).
    #[must_use]
    pub fn with_home_event(mut self, name: &'static str) -> HookSpec {
        self.home_event = Some(name);
        self
    }

    /// Sets the hook's own stop-loop limit ([`HookSpec::loop_limit`]).
    #[must_use]
    pub fn with_loop_limit(mut self, limit: StopBlockCap) -> HookSpec {
        self.loop_limit = Some(limit);
        self
    }

    /// Sets the other event the hook also fires on ([`HookSpec::also_on`]).
    #[must_use]
    pub fn with_also_on(mut self, event: crate::event::BuiltinEvent) -> HookSpec {
        self.also_on = Some(event);
        self
    }

    /// Sets the id.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> HookSpec {
        self.id = Some(id.into());
        self
    }

    /// Sets the matcher.
    #[must_use]
    pub fn with_matcher(mut self, matcher: Matcher) -> HookSpec {
        self.matcher = matcher;
        self
    }

    /// Sets the filter.
    #[must_use]
    pub fn with_filter(mut self, filter: Filter) -> HookSpec {
        self.filter = filter;
        self
    }

    /// Sets the `if` condition.
    #[must_use]
    pub fn with_condition(mut self, condition: IfCondition) -> HookSpec {
        self.condition = Some(condition);
        self
    }

    /// Sets the timeout.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> HookSpec {
        self.timeout = Some(timeout);
        self
    }

    /// Sets the failure policy.
    #[must_use]
    pub fn with_on_failure(mut self, policy: FailurePolicy) -> HookSpec {
        self.on_failure = policy;
        self
    }

    /// Makes the hook asynchronous (or not).
    #[must_use]
    pub fn with_async(mut self, is_async: bool) -> HookSpec {
        self.is_async = is_async;
        self
    }

    /// Puts the hook in a sequential group.
    #[must_use]
    pub fn with_sequential(mut self, group: impl Into<String>) -> HookSpec {
        self.sequential = Some(group.into());
        self
    }

    /// Enables or disables the hook.
    #[must_use]
    pub fn with_enabled(mut self, enabled: bool) -> HookSpec {
        self.enabled = enabled;
        self
    }

    /// Sets the dialect.
    #[must_use]
    pub fn with_dialect(mut self, dialect: Dialect) -> HookSpec {
        self.dialect = dialect;
        self
    }

    /// Sets the provenance.
    #[must_use]
    pub fn with_provenance(mut self, provenance: Provenance) -> HookSpec {
        self.provenance = provenance;
        self
    }

    /// Whether this is one of Fabro's *blocking hooks*: a Fabro hook that runs
    /// synchronously (`blocking = true`, or left to an event that blocks by default).
    /// Fabro runs an event's blocking hooks one after another in declaration order and
    /// stops at the first block, and their decisions (`block`, `skip`, `override`, a
    /// failure of a fail-closed hook) count on every event, also on one that does not
    /// block by default.
    pub fn is_fabro_blocking(&self) -> bool {
        self.dialect.profile().blocking_hooks && !self.is_async
    }

    /// The name shown for this hook: its id, else its name, else a short form of its
    /// action (`command: ./guard.sh`).
    pub fn display_id(&self) -> String {
        if let Some(id) = self.id.as_ref().or(self.name.as_ref()) {
            return id.clone();
        }
        let summary = self.action.summary();
        match summary.char_indices().nth(60) {
            Some((cut, _)) => format!("{}…", &summary[..cut]),
            None => summary,
        }
    }
}

/// What a hook does.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Run a command.
    Command(CommandAction),
    /// POST the event to a URL.
    Http(HttpAction),
    /// Call a tool on an MCP server.
    McpTool(McpToolAction),
    /// Inject a prompt, or ask a model to evaluate one.
    Prompt(PromptAction),
    /// Answer a fixed permission decision.
    Permission(PermissionAction),
}

impl Action {
    /// A command run through `sh -c`.
    pub fn script(script: impl Into<String>) -> Action {
        Action::Command(CommandAction::new(CommandLine::Script(script.into())))
    }

    /// A command exec'd directly from an argv vector (never joined into a shell string).
    pub fn argv<I, S>(argv: I) -> Action
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Action::Command(CommandAction::new(CommandLine::Argv(
            argv.into_iter().map(Into::into).collect(),
        )))
    }

    /// A fixed permission decision.
    pub fn permission(decision: Decision) -> Action {
        Action::Permission(PermissionAction {
            decision,
            reason: None,
        })
    }

    /// The type name used in configs (`command`, `http`, `mcp_tool`, `prompt`, `agent`,
    /// `permission`): an agent-mode prompt hook is an `agent` hook.
    pub fn type_name(&self) -> &'static str {
        match self {
            Action::Command(_) => "command",
            Action::Http(_) => "http",
            Action::McpTool(_) => "mcp_tool",
            Action::Prompt(p) => match p.mode {
                PromptMode::Agent => "agent",
                PromptMode::Evaluate | PromptMode::Inject | PromptMode::Answer => "prompt",
            },
            Action::Permission(_) => "permission",
        }
    }

    /// A one-line summary for listings (`command: ./guard.sh`).
    pub fn summary(&self) -> String {
        match self {
            Action::Command(c) => match &c.command {
                CommandLine::Script(s) => format!("command: {s}"),
                CommandLine::Argv(v) => format!("command: {}", v.join(" ")),
            },
            Action::Http(h) => format!("http: {}", h.url),
            Action::McpTool(m) => format!("mcp_tool: {}/{}", m.server, m.tool),
            Action::Prompt(p) => format!("{}: {}", self.type_name(), p.prompt),
            Action::Permission(p) => format!("permission: {}", p.decision),
        }
    }
}

/// A command hook.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandAction {
    /// What to run.
    pub command: CommandLine,
    /// Working directory; `None` takes the dialect's (the event's `cwd`, Fabro's workdir).
    pub cwd: Option<PathBuf>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Run inside the sandbox (`None`: the dialect's default).
    pub sandbox: Option<bool>,
    /// The shell a [`CommandLine::Script`] runs in (`None`: the dialect's, `sh` unless the
    /// host says otherwise); an argv runs without one. Claude Code's `shell`.
    pub shell: Option<Shell>,
    /// Claude Code's `asyncRewake`: the hook runs in the background, and exit 2 wakes the
    /// agent with its stderr (or stdout when stderr is empty) as a reminder.
    pub rewake: bool,
}

impl CommandAction {
    /// A command with no extra settings.
    pub fn new(command: CommandLine) -> CommandAction {
        CommandAction {
            command,
            cwd: None,
            env: Vec::new(),
            sandbox: None,
            shell: None,
            rewake: false,
        }
    }
}

/// A shell a script can name (Claude Code's `shell` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shell {
    /// `bash -c SCRIPT`.
    Bash,
    /// PowerShell: `pwsh -NoProfile -NonInteractive -Command SCRIPT` (Windows PowerShell's
    /// `powershell` when `pwsh` is not installed).
    Powershell,
}

/// How a command is given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CommandLine {
    /// A shell script, run as `sh -c SCRIPT`.
    Script(String),
    /// An argv vector exec'd directly.
    Argv(Vec<String>),
}

/// An HTTP hook.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpAction {
    /// Where to POST the event JSON.
    pub url: String,
    /// Headers; values may reference allowed environment variables.
    pub headers: Vec<(String, String)>,
    /// Environment variables header values may interpolate.
    pub allowed_env_vars: Vec<String>,
}

/// An MCP tool hook.
#[derive(Clone, Debug, PartialEq)]
pub struct McpToolAction {
    /// The MCP server's configured name.
    pub server: String,
    /// The tool to call.
    pub tool: String,
    /// Arguments, templated from the event context.
    pub input: Value,
}

/// A prompt hook.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptAction {
    /// The prompt text.
    pub prompt: String,
    /// Which meaning of "prompt".
    pub mode: PromptMode,
    /// The model to ask, for [`PromptMode::Evaluate`] and [`PromptMode::Agent`].
    pub model: Option<String>,
    /// The most tool-call rounds an agent ([`PromptMode::Agent`]) may use before it gives
    /// up (Fabro's `max_tool_rounds`); `None`: the evaluator's own limit.
    pub max_tool_rounds: Option<u32>,
    /// Claude Code's `continueOnBlock`: on the events where a model's `ok: false` ends the
    /// turn by default (PreToolUse, PostToolUse, TeammateIdle), feed the reason back and
    /// go on instead. Agent hooks always behave so.
    pub continue_on_block: bool,
}

/// The meanings of a prompt hook.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptMode {
    /// echo-agent: inject the text as context for the model.
    Inject,
    /// Claude Code and Fabro: ask a model, which answers `{ok, reason}`.
    Evaluate,
    /// Claude Code `agent` / Fabro `agent`: a model with tools evaluates the condition.
    Agent,
    /// A free-text question: the model's answer is text, not a verdict. The host's prompt
    /// evaluator gets this mode for the questions a command hook puts to it through its
    /// prompt channel (`hooks builtin ask`); no config dialect spells it, so a prompt hook
    /// has it only when a host builds one in code, and then the answer becomes context.
    Answer,
}

/// A fixed permission decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PermissionAction {
    /// The decision.
    pub decision: Decision,
    /// The reason given with it.
    pub reason: Option<String>,
}

/// The configuration layers, lowest precedence first. `Managed` sits above all and cannot
/// be overridden; `Host` marks hooks a host added in code.
#[non_exhaustive]
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Shipped with the engine.
    Builtin,
    /// The user's or machine's settings.
    User,
    /// The project's settings (a repository: needs trust).
    Project,
    /// The project's local, uncommitted settings.
    Local,
    /// A run configuration.
    Run,
    /// Given on the command line.
    CommandLine,
    /// Added by the host program in code.
    #[default]
    Host,
    /// Managed policy: above all, cannot be overridden.
    Managed,
}

impl Layer {
    /// The lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Builtin => "builtin",
            Layer::User => "user",
            Layer::Project => "project",
            Layer::Local => "local",
            Layer::Run => "run",
            Layer::CommandLine => "command_line",
            Layer::Host => "host",
            Layer::Managed => "managed",
        }
    }
}

/// Where a hook was defined.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Provenance {
    /// The file, if it came from one.
    pub file: Option<PathBuf>,
    /// 1-based line of the hook's definition.
    pub line: Option<u32>,
    /// 1-based column.
    pub column: Option<u32>,
    /// The layer.
    pub layer: Layer,
}

impl fmt::Display for Provenance {
    /// `file:line:col (layer)`, or just the layer for hooks added in code.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) => {
                write!(f, "{}", file.display())?;
                if let Some(line) = self.line {
                    write!(f, ":{line}")?;
                    if let Some(col) = self.column {
                        write!(f, ":{col}")?;
                    }
                }
                write!(f, " ({})", self.layer.as_str())
            }
            None => f.write_str(self.layer.as_str()),
        }
    }
}
