//! What the bridge knows of each agent it answers, one file per agent: where the agent
//! says the project is, which of the engine's discovered files the agent runs the hooks
//! of itself, what else the answer does for it, which events it has, and where and how
//! the bridge is installed into its settings. [`AGENTS`] is the registry: the one
//! place that lists the agents.

mod claude;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod droid;
mod gemini;
mod opencode;
mod qwen;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Error;
use crate::core::{BuiltinEvent, Dialect, EventContext};

/// One agent the bridge answers: facts and functions the bridge asks, never matching on
/// the agent.
#[non_exhaustive]
#[derive(Debug)]
pub struct Agent {
    /// The agent's dialect, whose profile reads its events and writes its answers.
    pub dialect: Dialect,
    /// The agent as the command line describes it (`OpenAI Codex CLI`).
    pub about: &'static str,
    /// The project root as the agent gives it (an environment variable, a workspace root
    /// in the payload), if it does; the bridge then falls back on the payload's `cwd`.
    pub project_dir: fn(&EventContext) -> Option<PathBuf>,
    /// Which discovered files the agent runs the hooks of itself, so that the bridge
    /// does not run them again.
    pub own_files: OwnFiles,
    /// The variable naming the file the agent sources before its later shell commands,
    /// to which the hooks' exported variables are appended (Claude Code's
    /// `CLAUDE_ENV_FILE`).
    pub env_file: Option<&'static str>,
    /// A key only this agent's events have (Cline's `hookName`), by which an event whose
    /// agent is not named is told to be this agent's.
    pub event_key: Option<&'static str>,
    /// The agent's events, each under its own name with the canonical events it stands
    /// for, in catalog order.
    pub events: fn() -> Vec<(Vec<BuiltinEvent>, &'static str)>,
    /// The other agents whose settings files this agent runs the hooks of too (GitHub
    /// Copilot CLI runs Claude Code's `.claude/settings.json`): a call through one of
    /// their bridge entries may be this agent's ([`Agent::is_calling`]). Such an agent
    /// gives each of its calls of one event the same time of the event (`timestamp`), by
    /// which the calls are folded into one dispatch when it has no tool-use id.
    pub runs_files_of: &'static [Dialect],
    /// Whether the agent making the call is this one, by its environment or its event
    /// (Copilot sets `COPILOT_CLI=1` for its hooks): asked of a call through the bridge
    /// entry of an agent in its [`Agent::runs_files_of`].
    pub is_calling: fn(&Value) -> bool,

    /// Its settings file, where the bridge is installed as one entry per event; `None`
    /// for an agent whose hooks are files of their own (Cline's hook scripts, OpenCode's
    /// plugins).
    pub settings: Option<Settings>,
    /// The plugin through which the agent calls the bridge, for an agent whose hooks are
    /// plugins (OpenCode's): install writes it, once for every event.
    pub plugin: Option<Plugin>,
}

/// A plugin file of the agent's that calls the bridge on each of its events (OpenCode's
/// `agentic-hooks.js`), written with the `hooks` program in it.
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
pub struct Plugin {
    /// The agent's plugin directory for a scope, in the project given.
    pub dir: fn(Scope, &Path) -> Result<PathBuf, Error>,
    /// The plugin's file name in it.
    pub file: &'static str,
    /// The plugin's text, calling the `hooks` program at the absolute path given.
    pub text: fn(&str) -> String,
    /// The `hooks` program a plugin's text calls, if it names one.
    pub program: fn(&str) -> Option<String>,
    /// A line only the bridge's plugin has, whatever program it calls.
    pub marker: &'static str,
    /// Why the agent loads no plugin in this environment, if it does not (OpenCode's
    /// `OPENCODE_PURE`).
    pub off: fn(&Path) -> Option<String>,
}

impl Plugin {
    /// Whether `text` is the bridge's plugin (by any `hooks` program): one of its lines is
    /// [`Plugin::marker`].
    pub fn is_bridge(&self, text: &str) -> bool {
        text.lines().any(|l| l.trim_end() == self.marker)
    }
}

/// Where the bridge is installed: the user's settings or the project's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scope {
    /// The user's settings (`~/.claude/settings.json`).
    User,
    /// The project's settings (`.claude/settings.json`).
    #[default]
    Project,
}

/// An agent's JSON settings file, whose `hooks` hold an entry per event.
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The file for a scope, in the project given.
    pub path: fn(Scope, &Path) -> Result<PathBuf, Error>,
    /// Other files a scope's install may have gone into (Codex's user file, when the
    /// project was not trusted): uninstall takes the first the install journal knows,
    /// else the last.
    pub other_paths: fn(Scope, &Path) -> Result<Vec<PathBuf>, Error>,
    /// Why the scope's install goes elsewhere than asked, if it does (said before the
    /// install).
    pub note: fn(Scope, &Path) -> Result<Option<String>, Error>,
    /// The entry that runs `command` on `event` (its name in the agent's events).
    pub entry: fn(command: &str, event: &str) -> Value,
    /// Whether an event's entries are hooks themselves (Cursor's flat lists), not matcher
    /// groups with `hooks`.
    pub flat: bool,
    /// The `version` a new file must have (Cursor's `1`).
    pub version: Option<u64>,
    /// The key of an entry's hook that holds its command (`command`; Copilot's `bash`).
    pub command_key: &'static str,
    /// The scope `hooks install` writes to when none is asked for (the project's, but
    /// GitHub Copilot CLI's user hooks, which it runs in every mode).
    pub default_scope: Scope,
    /// Whether the bridge's command line names the event after the agent (`hooks bridge
    /// copilot preToolUse`), for an agent whose events do not name themselves.
    pub names_event: bool,
    /// Why the agent does not call an installed entry running `command`, if it does not
    /// (a switch in `settings`, whose text at `path` is `text`, that turns hooks off; an
    /// entry the agent does not trust).
    pub not_called: fn(settings: &Value, path: &Path, text: &str, command: &str) -> Option<String>,
    /// The file in which the agent keeps its trust of the entries it runs (Codex's
    /// `config.toml`): install trusts the bridge's entries there, uninstall takes the
    /// trust out, and `--migrate` moves the file's own hooks too.
    pub trust_file: Option<fn() -> Result<PathBuf, Error>>,
}

impl Settings {
    /// A settings file at `path` with matcher-group entries (`{"hooks": [{"type":
    /// "command", "command": ..}]}`), no `version`, nothing that stops the agent calling
    /// an entry, no trust file, installed in the project by default, the bridge's command
    /// line naming no event.
    pub const fn new(path: fn(Scope, &Path) -> Result<PathBuf, Error>) -> Settings {
        Settings {
            path,
            other_paths: |_, _| Ok(Vec::new()),
            note: |_, _| Ok(None),
            entry: group_entry,
            flat: false,
            version: None,
            default_scope: Scope::Project,
            command_key: "command",
            names_event: false,
            not_called: |_, _, _, _| None,
            trust_file: None,
        }
    }
}

impl Settings {
    /// The command of a hook of one of the file's entries.
    pub fn command_of<'v>(&self, hook: &'v Value) -> &'v str {
        hook[self.command_key].as_str().unwrap_or_default()
    }

    /// The command line that calls the bridge `command` on the agent's event `event`:
    /// `command` itself, or, where the line names the event, `command` and the event.
    pub fn command_for(&self, command: &str, event: &str) -> String {
        if self.names_event {
            format!("{command} {event}")
        } else {
            command.to_owned()
        }
    }

    /// Whether a hook's command `cmd` is a call of the bridge `command` (on some event,
    /// where the line names the event).
    pub fn is_bridge_command(&self, cmd: &str, command: &str) -> bool {
        cmd == command
            || (self.names_event
                && cmd
                    .strip_prefix(command)
                    .and_then(|rest| rest.strip_prefix(' '))
                    .is_some_and(|event| !event.is_empty() && !event.contains(' ')))
    }
}

/// The matcher-group entry of Claude Code's shape that runs `command`.
pub(crate) fn group_entry(command: &str, _event: &str) -> Value {
    serde_json::json!({"hooks": [{"type": "command", "command": command}]})
}

/// The user's home directory.
pub(crate) fn home() -> Result<PathBuf, Error> {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| Error::bridge("HOME is not set"))
}

/// `events`, each under the name `name` gives it (none: the agent does not have it),
/// grouped by name in the order they come.
pub(crate) fn named(
    events: impl Iterator<Item = BuiltinEvent>,
    name: impl Fn(BuiltinEvent) -> Option<&'static str>,
) -> Vec<(Vec<BuiltinEvent>, &'static str)> {
    let mut out: Vec<(Vec<BuiltinEvent>, &'static str)> = Vec::new();
    for event in events {
        let Some(name) = name(event) else { continue };
        match out.iter_mut().find(|(_, n)| *n == name) {
            Some((canonical, _)) => canonical.push(event),
            None => out.push((vec![event], name)),
        }
    }
    out
}

/// The files an agent runs the hooks of itself.
#[derive(Debug, Clone, Copy)]
pub enum OwnFiles {
    /// The discovered files this says are its own (Claude Code's settings files, by
    /// path: its other files hold MCP servers, which the engine keeps).
    Named(fn(&Path) -> bool),
    /// Every discovered file of the agent's dialect.
    Dialect,
}

impl Agent {
    /// The name on the command line and in the audit log (`claude`).
    pub fn name(&self) -> &'static str {
        self.dialect.as_str()
    }

    /// The agent's name for people (`Claude Code`).
    pub fn title(&self) -> &'static str {
        self.dialect.profile().display_name
    }
}

/// Every agent the bridge answers, in the order `hooks doctor` lists them. The first
/// (Claude Code) is the protocol of an event whose agent is not known: its exit 2 is a
/// deny for Gemini CLI, Codex and Cursor too.
pub static AGENTS: &[&Agent] = &[
    &claude::AGENT,
    &gemini::AGENT,
    &codex::AGENT,
    &cline::AGENT,
    &cursor::AGENT,
    &qwen::AGENT,
    &droid::AGENT,
    &copilot::AGENT,
    &opencode::AGENT,
];

/// The agent whose dialect is `dialect`, if the bridge answers it.
pub fn agent(dialect: Dialect) -> Option<&'static Agent> {
    AGENTS.iter().copied().find(|a| a.dialect == dialect)
}

/// The agent making a call of `named`'s bridge: an agent that runs `named`'s files too and
/// says it is calling ([`Agent::is_calling`]: Copilot through Claude Code's
/// `.claude/settings.json`), else `named`. Its protocol answers, its project root and own
/// files decide what runs.
pub fn caller(named: &'static Agent, payload: &Value) -> &'static Agent {
    AGENTS
        .iter()
        .copied()
        .find(|a| a.runs_files_of.contains(&named.dialect) && (a.is_calling)(payload))
        .unwrap_or(named)
}

/// The agent of an event whose agent is not named: the one whose [`Agent::event_key`]
/// the event has, else the first agent.
pub(crate) fn guess(payload: &Value) -> &'static Agent {
    AGENTS
        .iter()
        .copied()
        .find(|a| a.event_key.is_some_and(|k| payload.get(k).is_some()))
        .unwrap_or(AGENTS[0])
}

/// [`Settings::not_called`] of the agents whose settings switch every hook off with
/// `disableAllHooks: true` (Qwen Code, Factory Droid).
pub(crate) fn disabled_all_hooks(
    settings: &Value,
    _path: &Path,
    _text: &str,
    _command: &str,
) -> Option<String> {
    (settings["disableAllHooks"] == Value::Bool(true))
        .then(|| "not called: `disableAllHooks` is true".to_owned())
}

/// An existing absolute directory named by the variable `name`.
pub(crate) fn dir_var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).map(PathBuf::from).and_then(dir)
}

/// The event's first workspace root (`workspace_roots[0]`), if it is an existing absolute
/// directory.
pub(crate) fn first_root(ctx: &EventContext) -> Option<PathBuf> {
    ctx.get("workspace_roots")
        .and_then(|roots| roots.get(0))
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .and_then(dir)
}

fn dir(p: PathBuf) -> Option<PathBuf> {
    Some(p).filter(|p| p.is_absolute() && p.is_dir())
}
