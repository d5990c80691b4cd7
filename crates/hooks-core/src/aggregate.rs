//! Aggregation. PLACEHOLDER, being written.

use serde::Serialize;

use crate::event::Event;
use crate::outcome::{Decision, FailurePolicy, HookOutcome};
use crate::spec::HookSpec;

/// One hook's outcome with what aggregation needs to know of the hook.
#[derive(Clone, Debug)]
pub struct AggregateEntry {
    /// Declaration index.
    pub index: usize,
    /// Display id.
    pub id: String,
    /// Provenance.
    pub source: String,
    /// Failure policy.
    pub on_failure: FailurePolicy,
    /// Sequential group.
    pub sequential: Option<String>,
    /// The outcome.
    pub outcome: HookOutcome,
}

impl AggregateEntry {
    /// From a spec.
    pub fn new(spec: &HookSpec, index: usize, outcome: HookOutcome) -> AggregateEntry {
        AggregateEntry {
            index,
            id: spec.display_id(),
            source: spec.provenance.to_string(),
            on_failure: spec.on_failure,
            sequential: spec.sequential.clone(),
            outcome,
        }
    }
}

/// The aggregate.
#[derive(Clone, Debug, Serialize)]
pub struct Aggregate {
    /// Decision.
    pub decision: Decision,
    /// Reason.
    pub reason: Option<String>,
}
/// A conflict.
#[derive(Clone, Debug, Serialize)]
pub struct Conflict {}
/// An ignored field.
#[derive(Clone, Debug, Serialize)]
pub struct IgnoredField {}
/// A hook report.
#[derive(Clone, Debug, Serialize)]
pub struct HookReport {}

/// Folds outcomes.
pub fn aggregate(event: &Event, entries: Vec<AggregateEntry>) -> Aggregate {
    let _ = event;
    let mut decision = Decision::None;
    let mut reason = None;
    for e in entries {
        if e.outcome.decision > decision {
            decision = e.outcome.decision;
            reason = e.outcome.reason;
        }
    }
    Aggregate { decision, reason }
}
