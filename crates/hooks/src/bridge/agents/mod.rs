//! What the bridge knows of each agent it answers, one file per agent: where the agent
//! says the project is, which of the engine's discovered files the agent runs the hooks
//! of itself, and what else the answer does for it. [`AGENTS`] is the registry: the one
//! place that lists the agents.

mod claude;
mod cline;
mod codex;
mod cursor;
mod gemini;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::core::{Dialect, EventContext};

/// One agent the bridge answers: facts and functions the bridge asks, never matching on
/// the agent.
#[non_exhaustive]
#[derive(Debug)]
pub struct Agent {
    /// The agent's dialect, whose profile reads its events and writes its answers.
    pub dialect: Dialect,
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
pub static AGENTS: [&Agent; 5] = [
    &claude::AGENT,
    &gemini::AGENT,
    &codex::AGENT,
    &cline::AGENT,
    &cursor::AGENT,
];

/// The agent whose dialect is `dialect`, if the bridge answers it.
pub fn agent(dialect: Dialect) -> Option<&'static Agent> {
    AGENTS.iter().copied().find(|a| a.dialect == dialect)
}

/// The agent named `name` on the command line (`claude`), if the bridge answers it.
pub fn by_name(name: &str) -> Option<&'static Agent> {
    Dialect::from_name(name).and_then(agent)
}

/// The agent of an event whose agent is not named: the one whose [`Agent::event_key`]
/// the event has, else the first agent.
pub fn guess(payload: &Value) -> &'static Agent {
    AGENTS
        .iter()
        .copied()
        .find(|a| a.event_key.is_some_and(|k| payload.get(k).is_some()))
        .unwrap_or(AGENTS[0])
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
