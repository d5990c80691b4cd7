//! The profile row: the type of a dialect's facts ([`Profile`]) and of the parts it is
//! made of, with the questions every row answers the same way.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::aggregate::Aggregate;
use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::error::Error;
use crate::event::{BuiltinEvent, Event, MatcherFields};
use crate::outcome::HookOutcome;
use crate::reply::Reply;
use crate::timeouts::{HandlerType, TimeUnit};
use crate::tools::ToolNames;

/// Everything the engine knows of one dialect: a table row ([`Dialect::profile`]) with its
/// names, time unit and default timeouts, the shell and sandbox its command hooks get, its
/// spelling of every event it has, the fields its matchers test where they differ from the
/// catalog's, its tool names, the shape of its config files, the stdin JSON and
/// environment its hooks are given, how their answers are read, and how an outcome is
/// written back to its agent.
#[derive(Debug)]
#[non_exhaustive]
pub struct Profile {
    /// The dialect this profile describes.
    pub dialect: Dialect,
    /// The short name used on the command line and in files (`claude`, `--to fabro`).
    pub name: &'static str,
    /// The name the docs and messages use (`Claude Code`, `echo-agent`).
    pub display_name: &'static str,
    /// How its files write a timeout.
    pub time_unit: TimeUnit,
    /// Its default timeout for a handler type on an event (`None`: a host's custom
    /// event), before the engine's ceiling; read through
    /// [`default_timeout`](crate::default_timeout).
    pub default_timeout: fn(HandlerType, Option<BuiltinEvent>) -> Duration,
    /// The shell a command hook's script runs in when the hook names none: `None` is the
    /// engine's `sh -c` (`/bin/sh` where it exists); Fabro's run in `bash -c`.
    pub shell: Option<&'static str>,
    /// Whether a command hook that does not say `sandbox` runs sandboxed (Fabro's do).
    pub sandboxed_by_default: bool,
    /// Whether a sandboxed command hook is also given its input as a file, named by
    /// `FABRO_HOOK_CONTEXT` (Fabro's are).
    pub sandbox_context_file: bool,
    /// Whether its input documents a `timestamp` (RFC 3339), so its hooks get the dispatch
    /// time when the host sends none (echo-agent's).
    pub documents_timestamp: bool,
    /// Whether its hooks' input always has a `session_id` and a `cwd`, so that the command
    /// executor fills them in when the host names none (one session id per process, the
    /// working directory): Autohand's JSON Input Structure requires both.
    pub fills_session_and_cwd: bool,
    /// Whether its command hooks get a `CLAUDE_ENV_FILE` on the events that have one.
    pub env_file: bool,
    /// The events it has.
    pub events: Events,
    /// Its spelling of events, in the order their names are preferred: an event listed
    /// twice has two names here, the first is the one its hooks are given. Events not
    /// listed keep the canonical name.
    pub event_names: &'static [(BuiltinEvent, &'static str)],
    /// The events whose matchers test other fields in this dialect than the catalog says.
    pub matcher_fields: &'static [(BuiltinEvent, MatcherFields)],
    /// Its tool names mapped onto the canonical ones (Claude Code's), MCP tools included:
    /// the one table its readers, stdin builders and `--from` translate with, and, where
    /// its matchers are written in them ([`ToolNames::translates_matchers`]), what a
    /// matcher of its hooks is matched against ([`EventContext::matcher_subjects_in`]),
    /// once per event and dialect.
    pub tools: &'static ToolNames,
    /// Whether a BeforeTool-style rewrite of its hooks (`updated_input`) is merged into the
    /// tool's input rather than replacing it (Gemini CLI's `tool_input`).
    pub merges_tool_input: bool,
    /// Whether identical hooks run once ([`DedupeKey`](crate::DedupeKey)); Codex runs
    /// every copy.
    pub dedupes_copies: bool,
    /// Whether its synchronous hooks are *blocking hooks*
    /// ([`HookSpec::is_fabro_blocking`](crate::HookSpec::is_fabro_blocking)): run one after
    /// another in declaration order, stopping at the first block, their decisions counting
    /// on every event (Fabro's).
    pub blocking_hooks: bool,
    /// Whether a prompt or agent hook's `ok: false` does what its event says rather than
    /// always blocking: Claude Code's reference, where PreToolUse denies and also ends the
    /// turn, and PermissionRequest takes no effect from it.
    pub prompt_verdict_by_event: bool,
    /// Where its config files keep their hooks and switches.
    pub file: FileShape,
    /// Whether the engine gives a command hook of this dialect the variable named, for
    /// some event: one its [`Profile::env`] computes, or the `CLAUDE_ENV_FILE` the command
    /// executor adds ([`Profile::env_file`]). A hook whose command reads a variable its new
    /// dialect is not given does something else once converted.
    pub provides_var: fn(&str) -> bool,
    /// The stdin JSON a hook of this dialect receives for an event.
    pub stdin: fn(&EventContext) -> Value,
    /// The stdin JSON for a hook registered under one of several names the dialect has for
    /// an event ([`HookSpec::home_event`](crate::HookSpec::home_event)): Cursor's
    /// `beforeShellExecution` and `preToolUse` are both PreToolUse, with different JSON.
    /// `None`: [`Profile::stdin`] whatever the name.
    pub stdin_named: Option<fn(&EventContext, &str) -> Value>,
    /// How an event its agent sends (the agent's own stdin JSON) becomes the engine's
    /// context: each field in the canonical vocabulary, the inverse of
    /// [`Profile::stdin`] (Gemini CLI's tool arguments, AfterAgent's `prompt_response`).
    /// `None`: the fields are taken as they come, the tool name made canonical by
    /// [`Profile::tools`]. Read through [`Profile::read_context`].
    pub read_event: Option<EventReader>,
    /// The variables naming the project root that the command executor gives a hook of
    /// this dialect when its event names no `project_dir` (`CLAUDE_PROJECT_DIR`; Cursor's
    /// `CURSOR_PROJECT_DIR` and its alias).
    pub project_dir_vars: &'static [&'static str],
    /// The environment variables a command hook of this dialect receives, appended to the
    /// list in a stable order.
    pub env: fn(&EventContext, &mut Vec<(String, String)>),
    /// For an agent whose stdin is not Claude-shaped (Cline's `hookName`, `taskId`,
    /// `preToolUse`): the event made canonical as a whole (`hook_event_name`,
    /// `session_id`, `cwd`, `tool_name` and `tool_input` in the canonical vocabulary), the
    /// inverse of [`Profile::stdin`], applied before the event is named (the name itself
    /// is in the agent's shape). `None` (the dialect's events are Claude-shaped), or a
    /// function that gives `None` for a payload not in the agent's own shape.
    /// [`Profile::read_event`] then reads the fields of a Claude-shaped event.
    pub reshape: Option<fn(&Value) -> Option<Value>>,
    /// How its hooks' answers are read: (event, exit code, stdout, stderr) to an outcome.
    pub read_answer: fn(&Event, Option<i32>, &[u8], &[u8]) -> HookOutcome,
    /// How an event's outcome is written back to the agent in its own protocol, when the
    /// engine is the agent's hook (`hooks bridge`): the stdout, stderr and exit code that
    /// make the agent do what the aggregate says ([`reply`](crate::reply)). `None`: the
    /// engine does not answer this dialect's agent (the seed systems embed the engine).
    /// The event's context is given for what the answer names in the agent's vocabulary
    /// (Gemini CLI's rewrite is written in its tool's argument names).
    pub reply: Option<fn(&EventContext, &Aggregate) -> Reply>,
}

/// How an agent's event, its stdin JSON as an object, becomes the engine's context of the
/// event ([`Profile::read_event`]).
pub type EventReader = fn(Event, Map<String, Value>) -> EventContext;

/// Which of the catalog's events a dialect has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Events {
    /// Every event (the native format).
    All,
    /// Those it has a name for in [`Profile::event_names`] (Fabro, Autohand).
    Named,
    /// These, by their canonical names (Claude Code, echo-agent).
    Canonical(&'static [BuiltinEvent]),
}

/// Where a dialect's config files keep their hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileShape {
    /// How the hook list is laid out.
    pub hooks: HookList,
    /// The file-wide switch for every hook, if the dialect has one.
    pub all_switch: Option<Switch>,
    /// Whether a single hook has an `enabled` switch of its own.
    pub hook_switch: bool,
}

/// How a config file lays out its hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookList {
    /// `hooks: {Event: [{matcher, hooks: [..]}]}` (Claude Code, echo-agent).
    Nested,
    /// A list of hooks, each naming its event, at this key path (`run.hooks` in Fabro).
    Flat(&'static [&'static str]),
    /// Either: a list at `hooks`, or an event map there (the native format).
    FlatOrNested,
    /// `hooks: {event: [hook, ..]}`, each hook an entry of its own (Cursor).
    ByEvent,
    /// No config file: each hook is an executable file named after its event (Cline).
    Files,
}

/// A file-wide switch for every hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// Its key path (`disableAllHooks`, `hooks.enabled`).
    pub path: &'static [&'static str],
    /// Whether `true` switches the hooks off (`disableAllHooks: true`).
    pub true_is_off: bool,
}

impl Switch {
    /// The key path as written in docs (`hooks.enabled`).
    pub fn dotted(&self) -> String {
        self.path.join(".")
    }
}

impl Profile {
    /// The dialect's name for `event`, if the dialect has it (Gemini CLI's `BeforeTool` for
    /// PreToolUse; the canonical name where it keeps that one).
    pub fn event_name(&self, event: BuiltinEvent) -> Option<&'static str> {
        self.has_event(event)
            .then(|| event.info().name_in(self.dialect))
    }

    /// The built-in events the dialect has, in catalog order.
    pub fn builtin_events(&self) -> impl Iterator<Item = BuiltinEvent> + '_ {
        BuiltinEvent::ALL
            .iter()
            .copied()
            .filter(|e| self.has_event(*e))
    }

    /// Whether the dialect has `event`.
    pub fn has_event(&self, event: BuiltinEvent) -> bool {
        match self.events {
            Events::All => true,
            Events::Named => self.event_names.iter().any(|(e, _)| *e == event),
            Events::Canonical(events) => events.contains(&event),
        }
    }

    /// `payload` in the Claude shape: reshaped by [`Profile::reshape`] where it is in the
    /// agent's own shape, else as it is.
    pub fn reshape_to_claude(&self, payload: Value) -> Value {
        match self.reshape {
            Some(reshape) => reshape(&payload).unwrap_or(payload),
            None => payload,
        }
    }

    /// The context of `event` as this dialect's agent sent it (`payload`, its stdin JSON: an
    /// object, or null for none), in the canonical vocabulary ([`Profile::read_event`]):
    /// how an agent's event enters the engine (`hooks bridge`, `hooks run --from`).
    pub fn read_context(&self, event: Event, payload: Value) -> Result<EventContext, Error> {
        match (self.read_event, payload) {
            (Some(read), Value::Object(fields)) => Ok(read(event, fields)),
            (_, payload) => {
                let mut ctx = EventContext::from_value(event, payload)?;
                ctx.canonicalize_tool_name(self.tools);
                Ok(ctx)
            }
        }
    }

    /// "a Claude Code config", "an echo-agent config": the display name with its article.
    pub fn a_config(&self) -> String {
        let article = match self.display_name.chars().next() {
            Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
            _ => "a",
        };
        format!("{article} {} config", self.display_name)
    }
}
