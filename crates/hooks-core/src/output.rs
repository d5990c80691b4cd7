//! The tolerant hook output parser. PLACEHOLDER, being written.

use crate::event::Event;
use crate::outcome::{Decision, HookOutcome};

/// Parses what a hook printed.
pub fn parse_output(
    event: &Event,
    exit_code: Option<i32>,
    stdout: &[u8],
    stderr: &[u8],
) -> HookOutcome {
    let _ = (event, stdout);
    if exit_code == Some(2) {
        return HookOutcome::decided(
            Decision::Block,
            Some(String::from_utf8_lossy(stderr).into_owned()),
        );
    }
    HookOutcome::ok()
}
