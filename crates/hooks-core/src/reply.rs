//! Writing an event's one outcome back to the agent that asked, in that agent's protocol:
//! what `hooks bridge AGENT` prints when it is the agent's only hook.
//!
//! Each agent's answer is a pure function of the event and the [`Aggregate`]: the stdout,
//! stderr and exit code that make the agent do what the aggregate says (block, deny, ask,
//! rewrite the input, add context for the model, show the user a message, or keep going).
//! The agents read hook answers differently (`../shared/PROTOCOLS.md` §10): Claude Code
//! honours `hookSpecificOutput.permissionDecision`, Gemini CLI ignores it and reads a
//! top-level `decision: "deny"`, Codex ignores `decision: "deny"` and blocks on exit code 2
//! with a reason on stderr. Each agent's writer, its profile's
//! [`reply`](crate::Profile::reply) (in the agent's folder of the profiles), writes every
//! answer in the form its agent honours; this module holds the [`Reply`] they write and the
//! readings of an aggregate they share.
//!
//! What an agent cannot express is dropped (an `ask` for Codex, which has no ask: its own
//! approval flow then decides); `docs/bridge.md` lists each agent's table.

use serde_json::{Map, Value};

use crate::aggregate::Aggregate;
pub use crate::profile::gemini::events::event_name as gemini_event_name;

/// What the bridge writes back: its stdout, its stderr and its exit code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Written to stdout (one JSON object and a newline, or nothing).
    pub stdout: String,
    /// Written to stderr.
    pub stderr: String,
    /// The process's exit code.
    pub exit_code: i32,
}

impl Reply {
    /// Exit 0, nothing written: the agent goes on as if no hook had an opinion.
    pub fn proceed() -> Reply {
        Reply::default()
    }

    /// Exit 0 with `object` on stdout, or nothing when it is empty.
    pub(crate) fn json(object: Map<String, Value>) -> Reply {
        if object.is_empty() {
            return Reply::proceed();
        }
        let mut stdout = Value::Object(object).to_string();
        stdout.push('\n');
        Reply {
            stdout,
            ..Reply::default()
        }
    }

    /// Exit 2 with `reason` on stderr (and a newline): the block every agent's exit-code
    /// protocol knows.
    pub(crate) fn exit_2(reason: &str) -> Reply {
        Reply {
            stdout: String::new(),
            stderr: format!("{reason}\n"),
            exit_code: 2,
        }
    }
}

/// The reason to give when the aggregate blocks without one: agents that require a
/// non-empty reason (Codex, Claude Code's Stop) would otherwise not block at all.
pub(crate) fn block_reason(agg: &Aggregate) -> String {
    agg.effects
        .reason
        .clone()
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| format!("blocked by a {} hook", agg.event))
}

/// Why the action is refused, when it is: the block's reason, or, when a hook stopped
/// `whom` (the agent, the task: what the agent's "stop" ends) without a block, its stop
/// reason.
pub(crate) fn refusal(agg: &Aggregate, whom: &str) -> Option<String> {
    if agg.is_blocked() {
        return Some(block_reason(agg));
    }
    (!agg.effects.continue_).then(|| {
        agg.effects
            .stop_reason
            .clone()
            .filter(|r| !r.trim().is_empty())
            .unwrap_or_else(|| format!("a {} hook stopped {whom}", agg.event))
    })
}

/// The text for the model, the hooks' contexts joined by blank lines; `None` without any.
pub(crate) fn context(agg: &Aggregate) -> Option<String> {
    let parts: Vec<&str> = agg
        .effects
        .additional_context
        .iter()
        .map(String::as_str)
        .filter(|c| !c.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// The message for the user: the hooks' `systemMessage`, then the other messages (the
/// reports of hooks that failed, the stop-loop cap's notice), one per line; `None` when
/// there is nothing to say.
pub(crate) fn user_message(agg: &Aggregate) -> Option<String> {
    let parts: Vec<&str> = agg
        .effects
        .system_message
        .iter()
        .chain(&agg.effects.messages)
        .map(String::as_str)
        .filter(|m| !m.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// Inserts `key: value` when `value` is `Some`.
pub(crate) fn put(map: &mut Map<String, Value>, key: &str, value: Option<impl Into<Value>>) {
    if let Some(v) = value {
        map.insert(key.to_owned(), v.into());
    }
}

/// `stopReason` with `continue: false` when a hook asked the agent to stop.
pub(crate) fn put_stop(map: &mut Map<String, Value>, agg: &Aggregate) {
    if !agg.effects.continue_ {
        map.insert("continue".to_owned(), Value::Bool(false));
        put(map, "stopReason", agg.effects.stop_reason.clone());
    }
}
