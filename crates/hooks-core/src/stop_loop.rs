//! The stop-loop cap, Claude Code's rule for every runner: a `Stop` or `SubagentStop` hook
//! that keeps blocking keeps the agent going at most this many consecutive times; the next
//! block is overridden and the agent stops, with a message saying why. A hook may carry a
//! limit of its own ([`HookSpec::loop_limit`](crate::HookSpec::loop_limit), Cursor's
//! `loop_limit`), counted in the same streak: past it that hook's block is dropped.
//!
//! The one home of the rule. Two runners keep an agent going on a block and so apply it:
//! exec's dispatcher, for the stops a host dispatches (it counts them per session and agent
//! from `stop_hook_active`), and orchestration's subagent dispatcher, for the subagents it
//! runs again itself. An event whose loop its emitter bounds is marked
//! ([`EventContext::set_stop_loop_owned`](crate::EventContext::set_stop_loop_owned)), so
//! the dispatcher does not count it a second time.

/// The variable through which a user sets the cap, as in Claude Code.
pub const STOP_BLOCK_CAP_VAR: &str = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP";

/// How many consecutive blocks keep an agent going by default (Claude Code's 8).
pub const DEFAULT_STOP_BLOCK_CAP: u32 = 8;

/// How many consecutive blocked stops keep an agent going before the next block is
/// overridden; or no cap at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StopBlockCap(Option<u32>);

impl Default for StopBlockCap {
    fn default() -> StopBlockCap {
        StopBlockCap(Some(DEFAULT_STOP_BLOCK_CAP))
    }
}

impl StopBlockCap {
    /// No cap: every block keeps the agent going.
    pub const NONE: StopBlockCap = StopBlockCap(None);

    /// At most `blocks` consecutive blocks are honoured (`0`: none is).
    pub fn at_most(blocks: u32) -> StopBlockCap {
        StopBlockCap(Some(blocks))
    }

    /// The cap a value of [`STOP_BLOCK_CAP_VAR`] sets, read as Claude Code reads it: the
    /// leading integer of the text (`"12"`, `" 12 "`, `"12x"` are 12); `0` or a negative
    /// number turns the cap off; no value, or one that does not start with a number, is
    /// the default ([`DEFAULT_STOP_BLOCK_CAP`]).
    pub fn from_env_value(value: Option<&str>) -> StopBlockCap {
        let Some(text) = value.map(str::trim_start) else {
            return StopBlockCap::default();
        };
        let (negative, digits) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        if end == 0 {
            return StopBlockCap::default();
        }
        // More digits than a u32 holds is a cap nobody reaches: no cap.
        match digits[..end].parse::<u32>() {
            _ if negative => StopBlockCap::NONE,
            Ok(0) | Err(_) => StopBlockCap::NONE,
            Ok(n) => StopBlockCap::at_most(n),
        }
    }

    /// How many consecutive blocks are honoured; `None`: no cap.
    pub fn limit(self) -> Option<u32> {
        self.0
    }

    /// Whether the `block`-th consecutive block (counting from 1) is overridden.
    pub fn overrides(self, block: u32) -> bool {
        self.0.is_some_and(|cap| block > cap)
    }

    /// What the outcome says when the `block`-th consecutive block of `event` by the hook
    /// `hook`, whose own limit this is (Cursor's `loop_limit`), was dropped; `reason` is
    /// that block's.
    pub fn hook_message(self, event: &str, hook: &str, block: u32, reason: Option<&str>) -> String {
        let cap = self.0.unwrap_or_default();
        let last = reason
            .map(|r| format!(" (its reason: {r})"))
            .unwrap_or_default();
        format!(
            "loop_limit: the {event} hook `{hook}` blocked {block} consecutive times, more \
             than its loop_limit of {cap}; its block is dropped{last}"
        )
    }

    /// What the outcome says when the `block`-th consecutive block of `event` was
    /// overridden; `reason` is that block's.
    pub fn message(self, event: &str, block: u32, reason: Option<&str>) -> String {
        let cap = self.0.unwrap_or_default();
        let last = reason
            .map(|r| format!(" (last reason: {r})"))
            .unwrap_or_default();
        format!(
            "stop-loop cap: the {event} hooks blocked {block} consecutive times, more than the \
             cap of {cap} ({STOP_BLOCK_CAP_VAR}); the block is overridden and the agent stops{last}"
        )
    }
}
