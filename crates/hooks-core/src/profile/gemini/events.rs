//! Gemini CLI's name for the event an answer is written to.

use crate::dialect::Dialect;
use crate::event::BuiltinEvent;

/// Gemini CLI's name for a canonical event, where it has the event: its profile's, with a
/// failed tool's event answered as `AfterTool` (Gemini CLI has one event after a tool).
pub fn event_name(event: BuiltinEvent) -> Option<&'static str> {
    let event = match event {
        BuiltinEvent::PostToolUseFailure => BuiltinEvent::PostToolUse,
        other => other,
    };
    Dialect::Gemini.profile().event_name(event)
}
