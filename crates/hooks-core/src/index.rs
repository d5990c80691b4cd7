//! The hook index: hooks grouped by event, matchers compiled, so that an event with no hooks
//! costs almost nothing. PLACEHOLDER, being written.

use crate::context::EventContext;
use crate::event::Event;
use crate::spec::HookSpec;

/// An index of hooks by event.
#[derive(Clone, Debug)]
pub struct HookIndex {
    specs: Vec<HookSpec>,
}

/// Why a hook did not match an event.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The hook is attached to another event.
    OtherEvent {
        /// The hook's event.
        hook_event: String,
    },
}

/// Whether one hook matched an event, and if not, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// The hook's position in the index.
    pub index: usize,
    /// `None` when it matched.
    pub mismatch: Option<Mismatch>,
}

impl HookIndex {
    /// Builds the index.
    pub fn new(specs: Vec<HookSpec>) -> HookIndex {
        HookIndex { specs }
    }
    /// One spec.
    pub fn spec(&self, index: usize) -> &HookSpec {
        &self.specs[index]
    }
    /// Matching hooks.
    pub fn matching(&self, ctx: &EventContext) -> Vec<usize> {
        self.specs
            .iter()
            .enumerate()
            .filter(|(_, s)| &s.event == ctx.event())
            .map(|(i, _)| i)
            .collect()
    }
    /// Whether any hook is on `event`.
    pub fn has_hooks(&self, event: &Event) -> bool {
        self.specs.iter().any(|s| &s.event == event)
    }
}
