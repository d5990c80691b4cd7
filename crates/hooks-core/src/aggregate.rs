//! Aggregation: folding the outcomes of every hook an event matched into one deterministic
//! answer.
//!
//! The rules are written on [`aggregate`].

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value;

use crate::event::{Event, Fields};
use crate::outcome::{Decision, Failure, FailureKind, FailurePolicy, HookOutcome, HookStatus};
use crate::spec::HookSpec;

/// One hook's outcome together with what aggregation needs to know of the hook.
#[derive(Clone, Debug, PartialEq)]
pub struct AggregateEntry {
    /// Declaration index (the hook's position in the index); unique per event.
    pub index: usize,
    /// The hook's display id.
    pub id: String,
    /// Where the hook was defined, for reports.
    pub source: String,
    /// Fail open or fail closed.
    pub on_failure: FailurePolicy,
    /// The hook's sequential group, if any.
    pub sequential: Option<String>,
    /// Whether the hook's decisions count on every event: Fabro's blocking hooks
    /// ([`HookSpec::is_fabro_blocking`]) block, skip and override also where the event
    /// does not block by default.
    pub decides: bool,
    /// What the hook answered.
    pub outcome: HookOutcome,
}

impl AggregateEntry {
    /// An entry for `spec`, declared at `index`, that answered `outcome`.
    pub fn new(spec: &HookSpec, index: usize, outcome: HookOutcome) -> AggregateEntry {
        AggregateEntry {
            index,
            id: spec.display_id(),
            source: spec.provenance.to_string(),
            on_failure: spec.on_failure,
            sequential: spec.sequential.clone(),
            decides: spec.is_fabro_blocking(),
            outcome,
        }
    }
}

/// The one answer for an event. Serialises to the stable JSON of `hooks run --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Aggregate {
    /// The event's canonical name.
    pub event: String,
    /// The winning decision.
    pub decision: Decision,
    /// The reason given with the winning decision; with no decision, the reason of the
    /// first hook that skipped or overrode (Fabro's `skip` and `override` keep theirs).
    pub reason: Option<String>,
    /// `false` when a hook asked the agent to stop.
    #[serde(rename = "continue")]
    pub continue_: bool,
    /// The first stop reason in declaration order.
    pub stop_reason: Option<String>,
    /// The input to use instead of the original, if a hook rewrote it.
    pub updated_input: Option<Value>,
    /// Text for the model, in declaration order.
    pub additional_context: Vec<String>,
    /// Messages for the user, joined with newlines.
    pub system_message: Option<String>,
    /// Other messages, including reports of failed hooks.
    pub messages: Vec<String>,
    /// Whether a hook asked for its output to be hidden.
    pub suppress_output: bool,
    /// Claude's PermissionDenied retry request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<bool>,
    /// Fabro's skip.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub skip: bool,
    /// Fabro's override edge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub override_edge: Option<String>,
    /// Conflicting rewrites between parallel hooks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
    /// Fields hooks returned that the event does not honour.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<IgnoredField>,
    /// The variables hooks exported in their `CLAUDE_ENV_FILE`, by name (rule 7 of
    /// [`aggregate`]).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// One report per hook, in declaration order.
    pub hooks: Vec<HookReport>,
}

impl Aggregate {
    /// The aggregate of no hooks: proceed, nothing to say.
    pub fn empty(event: &Event) -> Aggregate {
        Aggregate {
            event: event.name().to_owned(),
            decision: Decision::None,
            reason: None,
            continue_: true,
            stop_reason: None,
            updated_input: None,
            additional_context: Vec::new(),
            system_message: None,
            messages: Vec::new(),
            suppress_output: false,
            retry: None,
            skip: false,
            override_edge: None,
            conflicts: Vec::new(),
            ignored: Vec::new(),
            env: BTreeMap::new(),
            hooks: Vec::new(),
        }
    }

    /// Whether the event was blocked or denied.
    pub fn is_blocked(&self) -> bool {
        self.decision.is_blocking()
    }
}

/// Two hooks that disagreed on a field only one value can win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// The field (`updated_input`, `override`).
    pub field: String,
    /// The hook (or `sequential:<group>`) whose value was replaced.
    pub overridden: String,
    /// The later-declared hook (or `sequential:<group>`) whose value was kept.
    pub kept: String,
}

/// A field a hook returned that its event does not honour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IgnoredField {
    /// The hook's id.
    pub hook: String,
    /// The field.
    pub field: String,
    /// Why it was ignored.
    pub reason: String,
}

/// One hook's line in the aggregate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HookReport {
    /// The hook's display id.
    pub id: String,
    /// Where it was defined.
    pub source: String,
    /// How its run ended.
    pub status: HookStatus,
    /// Its exit code, for command hooks.
    pub exit_code: Option<i32>,
    /// How long it ran, in milliseconds.
    pub duration_ms: Option<u64>,
    /// The decision it contributed (after the failure policy and per-event rules).
    pub decision: Decision,
    /// Whether its output was truncated.
    pub truncated: bool,
    /// Why it failed, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
}

/// Folds the outcomes of one event's hooks into one answer.
///
/// The entries may come in any order (finish order, say): they are sorted by
/// [`AggregateEntry::index`] first, so the result depends only on what each hook answered
/// and where it was declared.
///
/// # Rules
///
/// Outcomes are folded in *declaration order* (the hooks' positions in the index), never in
/// the order they finished; [`aggregate`] sorts its input first.
///
/// 1. **Permission**: the most restrictive decision wins,
///    `block > deny > defer > ask > allow > none`. An early `allow` never hides a later
///    `deny`. Among hooks with the winning decision, the first declared gives the reason.
/// 2. **Per-event fields**: only the fields the event honours take effect (see
///    [`Fields`](crate::Fields)). `block` and `deny` count on events that can block; `allow`, `ask` and
///    `defer` only on events that take permission decisions. Anything else a hook returned
///    is listed in [`Aggregate::ignored`]; the reason of an ignored block becomes context
///    for the model (or a message, on events that take no context), as Claude Code does for
///    PostToolUse.
///    A hook whose decisions count on every event ([`AggregateEntry::decides`], Fabro's
///    blocking hooks) blocks, skips and overrides also on events that do not take those
///    by default, as Fabro honours a blocking hook's decision wherever it is declared.
///    Fabro's `skip` and `override` keep their reason: when no hook blocks or decides a
///    permission, the aggregate's reason is that of the first hook that skipped or
///    overrode.
/// 3. **Failure policy**: a hook that failed or timed out contributes nothing of its output.
///    Under `on_failure: block` it blocks the event (where the event can be blocked), with
///    a reason naming the hook and the failure; under `on_failure: allow` the event
///    proceeds and the failure is reported in the messages. Skipped hooks contribute
///    nothing.
/// 4. **Stop**: `continue: false` from any hook stops the agent; the first `stop_reason` in
///    declaration order is kept.
/// 5. **Rewrites**: `updated_input` replaces the whole input and is applied in declaration
///    order. Hooks of one `sequential` group form a pipeline (each saw the previous
///    rewrite), so the group's result is its last rewrite. Between parallel hooks (or
///    groups), two *different* rewrites are a [`Conflict`]: the later-declared one wins and
///    the conflict is reported. Fabro's `override` edge follows the same rule.
/// 6. **Text**: `additional_context`, `messages` and `system_message` are concatenated in
///    declaration order.
/// 7. **Exported variables** (`env`, what hooks wrote to `CLAUDE_ENV_FILE`): every name any
///    hook exported; where hooks exported one name with different values, the
///    later-declared hook's value is kept and the [`Conflict`] reported (field `env`), as
///    the file of the later hook, sourced after, would set it.
pub fn aggregate(event: &Event, mut entries: Vec<AggregateEntry>) -> Aggregate {
    entries.sort_by_key(|e| e.index);
    let mut fold = Fold::new(event);
    for entry in &entries {
        fold.add(entry);
    }
    fold.finish()
}

/// The running state of one aggregation.
struct Fold<'a> {
    event: &'a Event,
    out: Aggregate,
    system_messages: Vec<String>,
    /// Winning decision so far, with its hook and reason.
    best: (Decision, Option<String>),
    /// Rewrites per unit (a sequential group or a single hook), in declaration order of
    /// each unit's first rewrite: (unit label, value).
    rewrites: Vec<(String, Value)>,
    unit_of_group: HashMap<String, usize>,
    edge: Option<(String, String)>,
    /// The reason of the first hook whose skip or override counted.
    skip_reason: Option<String>,
    /// The hook whose value each exported name has so far.
    env_from: HashMap<String, String>,
}

impl<'a> Fold<'a> {
    fn new(event: &'a Event) -> Fold<'a> {
        Fold {
            event,
            out: Aggregate::empty(event),
            system_messages: Vec::new(),
            best: (Decision::None, None),
            rewrites: Vec::new(),
            unit_of_group: HashMap::new(),
            edge: None,
            skip_reason: None,
            env_from: HashMap::new(),
        }
    }

    fn honours(&self, fields: Fields) -> bool {
        self.event.honours(fields)
    }

    fn ignore(&mut self, hook: &str, field: &str, reason: impl Into<String>) {
        self.out.ignored.push(IgnoredField {
            hook: hook.to_owned(),
            field: field.to_owned(),
            reason: reason.into(),
        });
    }

    /// Text that should reach the model if the event takes context, else the user.
    fn feedback(&mut self, text: String) {
        if self.honours(Fields::CONTEXT) {
            self.out.additional_context.push(text);
        } else {
            self.out.messages.push(text);
        }
    }

    fn propose(&mut self, decision: Decision, reason: Option<String>) {
        // Strictly greater: the first declared hook keeps the reason among equals.
        if decision > self.best.0 {
            self.best = (decision, reason);
        }
    }

    fn add(&mut self, entry: &AggregateEntry) {
        let o = &entry.outcome;
        let contributed = match o.status {
            HookStatus::Skipped => Decision::None,
            HookStatus::Failed | HookStatus::TimedOut => self.add_failure(entry),
            HookStatus::Ok | HookStatus::Blocked => self.add_answer(entry),
        };
        self.out.hooks.push(HookReport {
            id: entry.id.clone(),
            source: entry.source.clone(),
            status: o.status,
            exit_code: o.exit_code,
            duration_ms: o
                .duration
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            decision: contributed,
            truncated: o.truncated(),
            failure: o.failure.clone(),
        });
    }

    fn add_failure(&mut self, entry: &AggregateEntry) -> Decision {
        let o = &entry.outcome;
        let what = match &o.failure {
            Some(f) => format!("{} ({})", f.message, f.kind.as_str()),
            None if o.status == HookStatus::TimedOut => FailureKind::Timeout.as_str().to_owned(),
            None => "failed".to_owned(),
        };
        match entry.on_failure {
            FailurePolicy::Block if self.event.can_block() || entry.decides => {
                let reason = format!("hook `{}` failed and fails closed: {what}", entry.id);
                self.propose(Decision::Block, Some(reason));
                Decision::Block
            }
            FailurePolicy::Block => {
                self.ignore(
                    &entry.id,
                    "on_failure",
                    format!("{} cannot be blocked", self.event),
                );
                self.out
                    .messages
                    .push(format!("hook `{}` failed: {what}", entry.id));
                Decision::None
            }
            FailurePolicy::Allow => {
                self.out
                    .messages
                    .push(format!("hook `{}` failed and fails open: {what}", entry.id));
                Decision::None
            }
        }
    }

    fn add_answer(&mut self, entry: &AggregateEntry) -> Decision {
        let o = &entry.outcome;
        let id = entry.id.as_str();
        let contributed = self.add_decision(entry);

        if !o.continue_ {
            self.out.continue_ = false;
            if self.out.stop_reason.is_none() {
                self.out.stop_reason.clone_from(&o.stop_reason);
            }
        }
        if let Some(input) = &o.updated_input {
            if self.honours(Fields::UPDATED_INPUT) {
                self.add_rewrite(entry, input.clone());
            } else {
                self.ignore(
                    id,
                    "updated_input",
                    format!("{} takes no input rewrite", self.event),
                );
            }
        }
        if !o.additional_context.is_empty() {
            if self.honours(Fields::CONTEXT) {
                self.out
                    .additional_context
                    .extend(o.additional_context.iter().cloned());
            } else {
                self.ignore(
                    id,
                    "additional_context",
                    format!("{} takes no context", self.event),
                );
            }
        }
        if let Some(m) = &o.system_message {
            self.system_messages.push(m.clone());
        }
        self.out.messages.extend(o.messages.iter().cloned());
        self.add_env(id, &o.env);
        self.out.suppress_output |= o.suppress_output;
        if let Some(retry) = o.retry {
            if self.honours(Fields::RETRY) {
                self.out.retry = Some(self.out.retry.unwrap_or(false) || retry);
            } else {
                self.ignore(id, "retry", format!("{} takes no retry", self.event));
            }
        }
        if o.skip {
            if self.honours(Fields::SKIP) || entry.decides {
                self.out.skip = true;
                if self.skip_reason.is_none() {
                    self.skip_reason.clone_from(&o.reason);
                }
            } else {
                self.ignore(id, "skip", format!("{} cannot be skipped", self.event));
            }
        }
        if let Some(edge) = &o.override_edge {
            if self.honours(Fields::OVERRIDE) || entry.decides {
                if self.skip_reason.is_none() {
                    self.skip_reason.clone_from(&o.reason);
                }
                if let Some((prev_hook, prev_edge)) = &self.edge
                    && prev_edge != edge
                {
                    self.out.conflicts.push(Conflict {
                        field: "override".to_owned(),
                        overridden: prev_hook.clone(),
                        kept: id.to_owned(),
                    });
                }
                self.edge = Some((id.to_owned(), edge.clone()));
            } else {
                self.ignore(id, "override", format!("{} takes no override", self.event));
            }
        }
        contributed
    }

    /// Applies the per-event rules to a hook's decision and proposes what remains.
    fn add_decision(&mut self, entry: &AggregateEntry) -> Decision {
        let (id, o) = (entry.id.as_str(), &entry.outcome);
        let d = o.decision;
        let blocks = self.event.can_block() || entry.decides;
        let honoured = match d {
            Decision::None => return Decision::None,
            Decision::Block => blocks,
            Decision::Deny => blocks || self.honours(Fields::PERMISSION),
            Decision::Allow | Decision::Ask | Decision::Defer => self.honours(Fields::PERMISSION),
        };
        if honoured {
            self.propose(d, o.reason.clone());
            return d;
        }
        let why = if d.is_blocking() {
            format!("{} cannot be blocked", self.event)
        } else {
            format!("{} takes no permission decision", self.event)
        };
        self.ignore(id, "decision", format!("`{d}`: {why}"));
        if d.is_blocking()
            && let Some(reason) = &o.reason
        {
            self.feedback(reason.clone());
        }
        Decision::None
    }

    fn add_env(&mut self, id: &str, env: &BTreeMap<String, String>) {
        for (name, value) in env {
            if let Some(previous) = self.out.env.insert(name.clone(), value.clone())
                && previous != *value
                && let Some(overridden) = self.env_from.get(name)
            {
                let conflict = Conflict {
                    field: "env".to_owned(),
                    overridden: overridden.clone(),
                    kept: id.to_owned(),
                };
                // One conflict per pair of hooks, however many names they both set.
                if !self.out.conflicts.contains(&conflict) {
                    self.out.conflicts.push(conflict);
                }
            }
            self.env_from.insert(name.clone(), id.to_owned());
        }
    }

    fn add_rewrite(&mut self, entry: &AggregateEntry, input: Value) {
        match &entry.sequential {
            Some(group) => {
                let label = format!("sequential:{group}");
                match self.unit_of_group.get(group) {
                    // A later hook of the pipeline saw the earlier rewrite: it replaces it.
                    Some(&unit) => self.rewrites[unit].1 = input,
                    None => {
                        self.unit_of_group
                            .insert(group.clone(), self.rewrites.len());
                        self.rewrites.push((label, input));
                    }
                }
            }
            None => self.rewrites.push((entry.id.clone(), input)),
        }
    }

    fn finish(mut self) -> Aggregate {
        let mut current: Option<(String, Value)> = None;
        for (unit, value) in std::mem::take(&mut self.rewrites) {
            if let Some((prev_unit, prev_value)) = &current
                && *prev_value != value
            {
                self.out.conflicts.push(Conflict {
                    field: "updated_input".to_owned(),
                    overridden: prev_unit.clone(),
                    kept: unit.clone(),
                });
            }
            current = Some((unit, value));
        }
        self.out.updated_input = current.map(|(_, v)| v);
        self.out.override_edge = self.edge.map(|(_, e)| e);
        self.out.decision = self.best.0;
        self.out.reason = if self.best.0 == Decision::None {
            self.skip_reason
        } else {
            self.best.1
        };
        if !self.system_messages.is_empty() {
            self.out.system_message = Some(self.system_messages.join("\n"));
        }
        self.out
    }
}
