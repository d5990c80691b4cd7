//! Default timeouts: the one table, per dialect, per handler type and per event, that the
//! config loaders and the executors both read, with the engine's ceiling and each
//! dialect's time unit.
//!
//! A loaded hook that names no `timeout` gets [`default_timeout`] from its loader; a hook a
//! host builds in code without one gets the same value from the executor. Nothing else
//! holds a default, so the two cannot disagree.

use std::time::Duration;

use crate::dialect::Dialect;
use crate::event::{BuiltinEvent, Event};
use crate::spec::{Action, PromptMode};

/// The largest timeout any hook gets unless the host changes it: 300 s. Longer timeouts
/// (Claude Code's 600 s default among them) are clamped to it.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(300);

/// What a hook does, as far as its default timeout is concerned. (Exhaustive, so that a
/// new handler type makes every table that reads it say its number.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandlerType {
    /// A command (script or argv).
    Command,
    /// An HTTP POST.
    Http,
    /// An MCP tool call.
    McpTool,
    /// A question put to a model (`prompt`, [`PromptMode::Evaluate`]).
    Prompt,
    /// A model with tools (`agent`, [`PromptMode::Agent`]).
    Agent,
    /// Text injected as context (echo-agent's `prompt`, [`PromptMode::Inject`]): runs nothing.
    Inject,
    /// A fixed permission decision: runs nothing.
    Permission,
}

impl HandlerType {
    /// The handler type of `action`.
    pub fn of(action: &Action) -> HandlerType {
        match action {
            Action::Command(_) => HandlerType::Command,
            Action::Http(_) => HandlerType::Http,
            Action::McpTool(_) => HandlerType::McpTool,
            Action::Prompt(p) => match p.mode {
                PromptMode::Evaluate | PromptMode::Answer => HandlerType::Prompt,
                PromptMode::Agent => HandlerType::Agent,
                PromptMode::Inject => HandlerType::Inject,
            },
            Action::Permission(_) => HandlerType::Permission,
        }
    }
}

/// How a dialect's files write a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// A number of seconds (Claude Code, echo-agent); `strings`: a duration string such as
    /// `"30s"` is accepted too (the native format).
    Seconds {
        /// Whether a duration string is accepted as well.
        strings: bool,
    },
    /// A number of milliseconds (Autohand).
    Millis,
    /// A number of seconds, where a number of 1000 or more is milliseconds (Qwen Code,
    /// which so still reads the milliseconds of the Gemini CLI files it started from).
    SecondsOrLegacyMillis,
    /// A duration string only, as in `"30s"` (Fabro).
    DurationString,
}

impl TimeUnit {
    /// The unit `dialect`'s files write timeouts in.
    pub fn of(dialect: Dialect) -> TimeUnit {
        dialect.profile().time_unit
    }
}

/// The default timeout of a hook of `dialect` and handler type `handler` on `event`
/// (`None`: a host's custom event), before the ceiling ([`MAX_TIMEOUT`]) is applied.
///
/// | dialect  | command, http, mcp_tool | prompt | agent | inject, permission |
/// |----------|-------------------------|--------|-------|--------------------|
/// | claude   | 600 s; UserPromptSubmit 30 s, MessageDisplay 10 s, SessionEnd 1.5 s | 30 s | 60 s | 10 s |
/// | native   | 10 s                    | 30 s   | 60 s  | 10 s               |
/// | echo     | 10 s                    | 10 s   | 10 s  | 10 s               |
/// | fabro    | 60 s                    | 30 s   | 60 s  | 60 s               |
/// | autohand | 5 s                     | 5 s    | 5 s   | 5 s                |
/// | cursor   | 60 s                    | 30 s   | 60 s  | 60 s               |
/// | cline    | 30 s                    | 30 s   | 30 s  | 30 s               |
/// | qwen     | 60 s                    | 60 s   | 60 s  | 60 s               |
/// | droid    | 60 s                    | 60 s   | 60 s  | 60 s               |
///
/// Each row is its dialect's profile's (`profile/<dialect>.rs`). The sources: Claude Code's hooks reference (the `timeout` common field, and the
/// UserPromptSubmit, MessageDisplay and SessionEnd sections), echo-agent's 10 s, Fabro's
/// `60000` ms with `30000` for prompt hooks, Autohand's 5000 ms, Cline's 30 s
/// (`HOOK_EXECUTION_TIMEOUT_MS`), Qwen Code's 60 s (`hook-timeout`), and Factory Droid's 60 s
/// (not observed; the engine's choice, as for Cursor). Cursor documents a "platform default" without a number:
/// 60 s, as Fabro's, with Claude Code's 30 s for prompt hooks. Native hooks keep the
/// format's documented 10 s, and take Claude Code's numbers for model-backed hooks, which a
/// 10 s budget would often cut short.
pub fn default_timeout(
    dialect: Dialect,
    handler: HandlerType,
    event: Option<BuiltinEvent>,
) -> Duration {
    (dialect.profile().default_timeout)(handler, event)
}

/// [`default_timeout`] for a hook of `dialect` doing `action` on `event`.
pub fn default_timeout_for(dialect: Dialect, action: &Action, event: &Event) -> Duration {
    default_timeout(dialect, HandlerType::of(action), event.builtin())
}
