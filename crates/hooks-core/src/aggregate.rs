//! Aggregation: folding the outcomes of every hook an event matched into one deterministic
//! answer.
//!
//! The rules are written on [`aggregate`].

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use serde_json::Value;

use crate::context::EventContext;
use crate::event::{Event, Fields};
use crate::outcome::{
    Decision, Effects, FailureKind, FailurePolicy, HookOutcome, HookStatus, OutputField, RunInfo,
};
use crate::spec::{HookPos, HookSpec};

/// One hook's outcome together with what aggregation needs to know of the hook.
#[derive(Clone, Debug, PartialEq)]
pub struct AggregateEntry {
    /// Declaration index (the hook's position in the index); unique per event.
    pub index: HookPos,
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
    pub fn new(spec: &HookSpec, index: HookPos, outcome: HookOutcome) -> AggregateEntry {
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
    /// What the hooks answered together: the winning decision and its reason (with no
    /// decision, the reason of the first hook that skipped or overrode, as Fabro's `skip`
    /// and `override` keep theirs), `continue: false` when a hook asked the agent to
    /// stop, the first stop reason, the input to use instead of the original, text for the
    /// model in declaration order, the user messages joined with newlines, other messages
    /// (reports of failed hooks included), ...
    #[serde(flatten)]
    pub effects: Effects,
    /// Conflicting rewrites between parallel hooks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
    /// Fields hooks returned that the event does not honour.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<IgnoredField>,
    /// One report per hook, in declaration order.
    pub hooks: Vec<HookReport>,
}

impl Aggregate {
    /// The aggregate of no hooks: proceed, nothing to say.
    pub fn empty(event: &Event) -> Aggregate {
        Aggregate {
            event: event.name().to_owned(),
            effects: Effects::default(),
            conflicts: Vec::new(),
            ignored: Vec::new(),
            hooks: Vec::new(),
        }
    }

    /// Whether the event was blocked or denied.
    pub fn is_blocked(&self) -> bool {
        self.effects.decision.is_blocking()
    }
}

/// Two hooks that disagreed on a field only one value can win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// The field ([`OutputField::UpdatedInput`], [`OutputField::Override`]).
    pub field: OutputField,
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
    pub field: OutputField,
    /// Why it was ignored.
    pub reason: String,
}

/// One hook's line in the aggregate.
///
/// Serialises as `{id, source, status, exit_code, duration_ms, decision, truncated,
/// failure?}`.
#[derive(Clone, Debug, PartialEq)]
pub struct HookReport {
    /// The hook's display id.
    pub id: String,
    /// Where it was defined.
    pub source: String,
    /// How its run went.
    pub run: RunInfo,
    /// The decision it contributed (after the failure policy and per-event rules).
    pub decision: Decision,
}

impl Serialize for HookReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let failure = self.run.failure.as_ref();
        let mut st = s.serialize_struct("HookReport", 7 + usize::from(failure.is_some()))?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("source", &self.source)?;
        st.serialize_field("status", &self.run.status)?;
        st.serialize_field("exit_code", &self.run.exit_code)?;
        st.serialize_field("duration_ms", &self.run.duration_ms())?;
        st.serialize_field("decision", &self.decision)?;
        st.serialize_field("truncated", &self.run.truncated())?;
        if let Some(failure) = failure {
            st.serialize_field("failure", failure)?;
        }
        st.end()
    }
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
///    declaration order; so are `terminal_sequence`s.
/// 7. **Exported variables** (`env`, what hooks wrote to `CLAUDE_ENV_FILE`): every name any
///    hook exported; where hooks exported one name with different values, the
///    later-declared hook's value is kept and the [`Conflict`] reported (field `env`), as
///    the file of the later hook, sourced after, would set it.
/// 8. **Claude Code's per-event fields**, each only where the event honours it (else
///    listed in [`Aggregate::ignored`]): `updated_permissions` go with `allow` and are
///    concatenated in declaration order, and dropped (listed as ignored) when the
///    aggregate decision is not `allow`; `updated_tool_output`,
///    `updated_mcp_tool_output`, `session_title`, `initial_user_message` and
///    `worktree_path` and `display_content` take one value: the later-declared of two
///    different values wins and the pair is a [`Conflict`]; `watch_paths` is the union of
///    every hook's list in declaration order; `classifier_context` is every hook's text
///    joined by newlines in declaration order; `reload_skills` and
///    `suppress_original_prompt` are true when any hook asks; of several
///    `elicitation` answers the most restrictive action wins (`cancel > decline >
///    accept`), the first declared among equals, with its content. Fields a dialect's
///    reader dropped ([`HookOutcome::dropped`]) are listed as ignored.
/// 9. **Gemini CLI's model fields**, each only where the event honours it: `clear_context`
///    is true when any hook asks; `llm_request` and `llm_response` are merged in
///    declaration order, a later hook's keys replacing an earlier one's (a value that is
///    not an object replaces the whole); of several `tool_config`s the most restrictive
///    `mode` wins (`NONE > ANY > AUTO`) and the `allowedFunctionNames` of every hook are
///    unioned in declaration order (none with `NONE`), so that no hook removes a tool
///    another allowed.
///
/// Whether a hook can block is [`Blocking`]'s rule: the event can block, or the hook's
/// decisions count on every event; [`aggregate_context`] also reads the payload (a
/// ConfigChange from `policy_settings` cannot be blocked).
pub fn aggregate(event: &Event, entries: Vec<AggregateEntry>) -> Aggregate {
    fold(event, Blocking::of_event(event), entries)
}

/// [`aggregate`] for one dispatch of an event: as [`aggregate`], with what the payload
/// says of blocking ([`Blocking::of`]: a ConfigChange from `policy_settings` cannot be
/// blocked).
pub fn aggregate_context(ctx: &EventContext, entries: Vec<AggregateEntry>) -> Aggregate {
    fold(ctx.event(), Blocking::of(ctx), entries)
}

fn fold(event: &Event, blocking: Blocking, mut entries: Vec<AggregateEntry>) -> Aggregate {
    entries.sort_by_key(|e| e.index);
    let mut fold = Fold::new(event, blocking);
    for entry in &entries {
        fold.add(entry);
    }
    fold.finish()
}

/// Whether hooks can block one dispatch of an event: the one owner of the rule, used by
/// the aggregation and by the dispatcher (a sequential group, or Fabro's blocking hooks,
/// stop at the first hook that blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocking {
    can_block: bool,
    /// Why the event cannot be blocked, when the payload rules it out.
    why_not: Option<&'static str>,
}

impl Blocking {
    /// For one dispatch: the event can block (see [`Event::can_block`]), except where its
    /// payload says it cannot: a ConfigChange whose `source` is `policy_settings`
    /// (managed policy cannot be blocked).
    pub fn of(ctx: &EventContext) -> Blocking {
        if ctx.event().name() == "ConfigChange" && ctx.get_str("source") == Some("policy_settings")
        {
            return Blocking {
                can_block: false,
                why_not: Some("a ConfigChange from policy_settings cannot be blocked"),
            };
        }
        Blocking::of_event(ctx.event())
    }

    /// For the event whatever its payload.
    pub fn of_event(event: &Event) -> Blocking {
        Blocking {
            can_block: event.can_block(),
            why_not: None,
        }
    }

    /// Whether a hook whose decisions count on every event (`decides`, Fabro's blocking
    /// hooks) or any other hook can block.
    pub fn allows(self, decides: bool) -> bool {
        self.can_block || decides
    }

    /// Whether `outcome` blocks: a block or deny that counts, or a failure under
    /// `on_failure: block`.
    pub fn blocks(self, decides: bool, on_failure: FailurePolicy, outcome: &HookOutcome) -> bool {
        if !self.allows(decides) {
            return false;
        }
        match outcome.run.status {
            HookStatus::Ok | HookStatus::Blocked => outcome.effects.decision.is_blocking(),
            HookStatus::Failed | HookStatus::TimedOut => on_failure == FailurePolicy::Block,
            HookStatus::Skipped => false,
        }
    }

    /// Why a block does not count here.
    fn why_not(self, event: &Event) -> String {
        self.why_not
            .map_or_else(|| format!("{event} cannot be blocked"), str::to_owned)
    }
}

/// Keeps `value` from `hook` in `slot` (a single-valued field: the later declared wins);
/// replacing a different value is a [`Conflict`].
/// Merges `value` over `slot`: an object's keys replace those already there; anything
/// else replaces the whole.
fn merge_over(slot: &mut Option<Value>, value: Option<&Value>) {
    let Some(value) = value else { return };
    match (slot.as_mut(), value) {
        (Some(Value::Object(old)), Value::Object(new)) => {
            for (k, v) in new {
                old.insert(k.clone(), v.clone());
            }
        }
        _ => *slot = Some(value.clone()),
    }
}

fn keep<T: PartialEq + Clone>(
    conflicts: &mut Vec<Conflict>,
    slot: &mut Option<(String, T)>,
    field: OutputField,
    hook: &str,
    value: &Option<T>,
) {
    let Some(value) = value else { return };
    if let Some((previous, old)) = slot.as_ref()
        && old != value
    {
        conflicts.push(Conflict {
            field,
            overridden: previous.clone(),
            kept: hook.to_owned(),
        });
    }
    *slot = Some((hook.to_owned(), value.clone()));
}

/// The running state of one aggregation.
struct Fold<'a> {
    event: &'a Event,
    blocking: Blocking,
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
    /// Single-valued fields: the hook whose value is kept so far, with the value.
    tool_output: Option<(String, Value)>,
    mcp_tool_output: Option<(String, Value)>,
    session_title: Option<(String, String)>,
    initial_user_message: Option<(String, String)>,
    worktree_path: Option<(String, String)>,
    display_content: Option<(String, String)>,
    classifier_context: Vec<String>,
    /// Permission updates, with the hook that gave them.
    permissions: Vec<(String, Vec<Value>)>,
    terminal_sequences: Vec<String>,
    /// The hook whose value each exported name has so far.
    env_from: HashMap<String, String>,
    /// Gemini CLI's `toolConfig`: the most restrictive mode so far, and the union of the
    /// allowed function names.
    tool_mode: Option<String>,
    tool_names: Vec<Value>,
}

impl<'a> Fold<'a> {
    fn new(event: &'a Event, blocking: Blocking) -> Fold<'a> {
        Fold {
            event,
            blocking,
            out: Aggregate::empty(event),
            system_messages: Vec::new(),
            best: (Decision::None, None),
            rewrites: Vec::new(),
            unit_of_group: HashMap::new(),
            edge: None,
            skip_reason: None,
            tool_output: None,
            mcp_tool_output: None,
            session_title: None,
            initial_user_message: None,
            worktree_path: None,
            display_content: None,
            classifier_context: Vec::new(),
            permissions: Vec::new(),
            terminal_sequences: Vec::new(),
            env_from: HashMap::new(),
            tool_mode: None,
            tool_names: Vec::new(),
        }
    }

    fn honours(&self, fields: Fields) -> bool {
        self.event.honours(fields)
    }

    fn ignore(&mut self, hook: &str, field: OutputField, reason: impl Into<String>) {
        self.out.ignored.push(IgnoredField {
            hook: hook.to_owned(),
            field,
            reason: reason.into(),
        });
    }

    /// Text that should reach the model if the event takes context, else the user.
    fn feedback(&mut self, text: String) {
        if self.honours(Fields::CONTEXT) {
            self.out.effects.additional_context.push(text);
        } else {
            self.out.effects.messages.push(text);
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
        let contributed = match o.run.status {
            HookStatus::Skipped => Decision::None,
            HookStatus::Failed | HookStatus::TimedOut => self.add_failure(entry),
            HookStatus::Ok | HookStatus::Blocked => self.add_answer(entry),
        };
        self.out.hooks.push(HookReport {
            id: entry.id.clone(),
            source: entry.source.clone(),
            run: o.run.clone(),
            decision: contributed,
        });
    }

    fn add_failure(&mut self, entry: &AggregateEntry) -> Decision {
        let o = &entry.outcome;
        let what = match &o.run.failure {
            Some(f) => format!("{} ({})", f.message, f.kind.as_str()),
            None if o.run.status == HookStatus::TimedOut => {
                FailureKind::Timeout.as_str().to_owned()
            }
            None => "failed".to_owned(),
        };
        match entry.on_failure {
            FailurePolicy::Block if self.blocking.allows(entry.decides) => {
                let reason = format!("hook `{}` failed and fails closed: {what}", entry.id);
                self.propose(Decision::Block, Some(reason));
                Decision::Block
            }
            FailurePolicy::Block => {
                let why = self.blocking.why_not(self.event);
                self.ignore(&entry.id, OutputField::OnFailure, why);
                self.out
                    .effects
                    .messages
                    .push(format!("hook `{}` failed: {what}", entry.id));
                Decision::None
            }
            FailurePolicy::Allow => {
                self.out
                    .effects
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
        for dropped in &o.dropped {
            self.ignore(id, dropped.field, dropped.reason.clone());
        }
        self.add_claude_fields(entry);
        self.add_model_fields(entry);

        if !o.effects.continue_ {
            self.out.effects.continue_ = false;
            if self.out.effects.stop_reason.is_none() {
                self.out
                    .effects
                    .stop_reason
                    .clone_from(&o.effects.stop_reason);
            }
        }
        if let Some(input) = &o.effects.updated_input {
            if self.honours(Fields::UPDATED_INPUT) {
                self.add_rewrite(entry, input.clone());
            } else {
                self.ignore(
                    id,
                    OutputField::UpdatedInput,
                    format!("{} takes no input rewrite", self.event),
                );
            }
        }
        if !o.effects.additional_context.is_empty() {
            if self.honours(Fields::CONTEXT) {
                self.out
                    .effects
                    .additional_context
                    .extend(o.effects.additional_context.iter().cloned());
            } else {
                self.ignore(
                    id,
                    OutputField::AdditionalContext,
                    format!("{} takes no context", self.event),
                );
            }
        }
        if let Some(m) = &o.effects.system_message {
            self.system_messages.push(m.clone());
        }
        self.out
            .effects
            .messages
            .extend(o.effects.messages.iter().cloned());
        self.add_env(id, &o.effects.env);
        self.out.effects.suppress_output |= o.effects.suppress_output;
        if let Some(retry) = o.effects.retry {
            if self.honours(Fields::RETRY) {
                self.out.effects.retry = Some(self.out.effects.retry.unwrap_or(false) || retry);
            } else {
                self.ignore(
                    id,
                    OutputField::Retry,
                    format!("{} takes no retry", self.event),
                );
            }
        }
        if o.effects.skip {
            if self.honours(Fields::SKIP) || entry.decides {
                self.out.effects.skip = true;
                if self.skip_reason.is_none() {
                    self.skip_reason.clone_from(&o.effects.reason);
                }
            } else {
                self.ignore(
                    id,
                    OutputField::Skip,
                    format!("{} cannot be skipped", self.event),
                );
            }
        }
        if let Some(edge) = &o.effects.override_edge {
            if self.honours(Fields::OVERRIDE) || entry.decides {
                if self.skip_reason.is_none() {
                    self.skip_reason.clone_from(&o.effects.reason);
                }
                if let Some((prev_hook, prev_edge)) = &self.edge
                    && prev_edge != edge
                {
                    self.out.conflicts.push(Conflict {
                        field: OutputField::Override,
                        overridden: prev_hook.clone(),
                        kept: id.to_owned(),
                    });
                }
                self.edge = Some((id.to_owned(), edge.clone()));
            } else {
                self.ignore(
                    id,
                    OutputField::Override,
                    format!("{} takes no override", self.event),
                );
            }
        }
        contributed
    }

    /// Gemini CLI's model fields (rule 9 of [`aggregate`]).
    fn add_model_fields(&mut self, entry: &AggregateEntry) {
        let (id, e) = (entry.id.as_str(), &entry.outcome.effects);
        let given = [
            (
                OutputField::ClearContext,
                Fields::CLEAR_CONTEXT,
                e.clear_context,
            ),
            (
                OutputField::LlmRequest,
                Fields::LLM_REQUEST,
                e.llm_request.is_some(),
            ),
            (
                OutputField::LlmResponse,
                Fields::LLM_RESPONSE,
                e.llm_response.is_some(),
            ),
            (
                OutputField::ToolConfig,
                Fields::TOOL_CONFIG,
                e.tool_config.is_some(),
            ),
            (
                OutputField::TailToolCall,
                Fields::TAIL_TOOL_CALL,
                e.tail_tool_call.is_some(),
            ),
        ];
        for (field, flag, given) in given {
            if given && !self.honours(flag) {
                self.ignore(id, field, format!("{} takes no {field}", self.event));
            }
        }
        let effects = &mut self.out.effects;
        if e.clear_context && self.event.honours(Fields::CLEAR_CONTEXT) {
            effects.clear_context = true;
        }
        if self.event.honours(Fields::LLM_REQUEST) {
            merge_over(&mut effects.llm_request, e.llm_request.as_ref());
        }
        if self.event.honours(Fields::LLM_RESPONSE) {
            merge_over(&mut effects.llm_response, e.llm_response.as_ref());
        }
        // Gemini CLI merges `hookSpecificOutput` shallowly: the later request replaces.
        if let (true, Some(call)) = (
            self.event.honours(Fields::TAIL_TOOL_CALL),
            &e.tail_tool_call,
        ) {
            effects.tail_tool_call = Some(call.clone());
        }
        if let (true, Some(config)) = (self.event.honours(Fields::TOOL_CONFIG), &e.tool_config) {
            const RANK: [&str; 3] = ["AUTO", "ANY", "NONE"];
            let rank = |m: &str| RANK.iter().position(|r| r.eq_ignore_ascii_case(m));
            if let Some(mode) = config.get("mode").and_then(Value::as_str)
                && let Some(r) = rank(mode)
                && Some(r) >= self.tool_mode.as_deref().and_then(rank)
            {
                self.tool_mode = Some(mode.to_ascii_uppercase());
            }
            let names = config.get("allowedFunctionNames").and_then(Value::as_array);
            for name in names.into_iter().flatten() {
                if !self.tool_names.contains(name) {
                    self.tool_names.push(name.clone());
                }
            }
        }
    }

    /// Claude Code's per-event fields (rule 7 of [`aggregate`]).
    fn add_claude_fields(&mut self, entry: &AggregateEntry) {
        let (id, e) = (entry.id.as_str(), &entry.outcome.effects);
        if !e.updated_permissions.is_empty() {
            if !self.honours(Fields::UPDATED_PERMISSIONS) {
                self.ignore(
                    id,
                    OutputField::UpdatedPermissions,
                    format!("{} takes no permission updates", self.event),
                );
            } else if e.decision != Decision::Allow {
                self.ignore(
                    id,
                    OutputField::UpdatedPermissions,
                    "permission updates go with `allow` only",
                );
            } else {
                self.permissions
                    .push((id.to_owned(), e.updated_permissions.clone()));
            }
        }
        let tool_output = self.honours(Fields::UPDATED_TOOL_OUTPUT);
        let title = self.honours(Fields::SESSION_TITLE);
        let setup = self.honours(Fields::SESSION_SETUP);
        let worktree = self.honours(Fields::WORKTREE_PATH);
        let display = self.honours(Fields::DISPLAY_CONTENT);
        let classifier = self.honours(Fields::CLASSIFIER_CONTEXT);
        let suppress = self.honours(Fields::SUPPRESS_PROMPT);
        let unhonoured = [
            (
                OutputField::DisplayContent,
                display,
                e.display_content.is_some(),
            ),
            (
                OutputField::ClassifierContext,
                classifier,
                e.classifier_context.is_some(),
            ),
            (
                OutputField::SuppressOriginalPrompt,
                suppress,
                e.suppress_original_prompt,
            ),
            (
                OutputField::UpdatedToolOutput,
                tool_output,
                e.updated_tool_output.is_some(),
            ),
            (
                OutputField::UpdatedMcpToolOutput,
                tool_output,
                e.updated_mcp_tool_output.is_some(),
            ),
            (OutputField::SessionTitle, title, e.session_title.is_some()),
            (
                OutputField::InitialUserMessage,
                setup,
                e.initial_user_message.is_some(),
            ),
            (
                OutputField::WorktreePath,
                worktree,
                e.worktree_path.is_some(),
            ),
        ];
        for (field, honoured, given) in unhonoured {
            if given && !honoured {
                self.ignore(id, field, format!("{} takes no {field}", self.event));
            }
        }
        let conflicts = &mut self.out.conflicts;
        if tool_output {
            keep(
                conflicts,
                &mut self.tool_output,
                OutputField::UpdatedToolOutput,
                id,
                &e.updated_tool_output,
            );
            keep(
                conflicts,
                &mut self.mcp_tool_output,
                OutputField::UpdatedMcpToolOutput,
                id,
                &e.updated_mcp_tool_output,
            );
        }
        if title {
            keep(
                conflicts,
                &mut self.session_title,
                OutputField::SessionTitle,
                id,
                &e.session_title,
            );
        }
        if setup {
            keep(
                conflicts,
                &mut self.initial_user_message,
                OutputField::InitialUserMessage,
                id,
                &e.initial_user_message,
            );
        }
        if display {
            keep(
                conflicts,
                &mut self.display_content,
                OutputField::DisplayContent,
                id,
                &e.display_content,
            );
        }
        if classifier && let Some(text) = &e.classifier_context {
            self.classifier_context.push(text.clone());
        }
        if suppress && e.suppress_original_prompt {
            self.out.effects.suppress_original_prompt = true;
        }
        if worktree {
            keep(
                conflicts,
                &mut self.worktree_path,
                OutputField::WorktreePath,
                id,
                &e.worktree_path,
            );
        }
        if let Some(paths) = &e.watch_paths {
            if self.honours(Fields::WATCH_PATHS) {
                let all = self.out.effects.watch_paths.get_or_insert_with(Vec::new);
                for path in paths {
                    if !all.contains(path) {
                        all.push(path.clone());
                    }
                }
            } else {
                self.ignore(
                    id,
                    OutputField::WatchPaths,
                    format!("{} takes no watch paths", self.event),
                );
            }
        }
        if e.reload_skills {
            if setup {
                self.out.effects.reload_skills = true;
            } else {
                self.ignore(
                    id,
                    OutputField::ReloadSkills,
                    format!("{} takes no reload_skills", self.event),
                );
            }
        }
        if let Some(answer) = &e.elicitation {
            if !self.honours(Fields::ELICITATION) {
                self.ignore(
                    id,
                    OutputField::Elicitation,
                    format!("{} takes no elicitation answer", self.event),
                );
            } else if self
                .out
                .effects
                .elicitation
                .as_ref()
                .is_none_or(|kept| answer.action > kept.action)
            {
                // The most restrictive action wins; the first declared among equals.
                self.out.effects.elicitation = Some(answer.clone());
            }
        }
        if let Some(sequence) = &e.terminal_sequence {
            self.terminal_sequences.push(sequence.clone());
        }
    }

    /// Applies the per-event rules to a hook's decision and proposes what remains.
    fn add_decision(&mut self, entry: &AggregateEntry) -> Decision {
        let (id, o) = (entry.id.as_str(), &entry.outcome);
        let d = o.effects.decision;
        let blocks = self.blocking.allows(entry.decides);
        let honoured = match d {
            Decision::None => return Decision::None,
            Decision::Block => blocks,
            Decision::Deny => blocks || self.honours(Fields::PERMISSION),
            Decision::Allow | Decision::Ask | Decision::Defer => self.honours(Fields::PERMISSION),
        };
        if honoured {
            self.propose(d, o.effects.reason.clone());
            return d;
        }
        let why = if d.is_blocking() {
            self.blocking.why_not(self.event)
        } else {
            format!("{} takes no permission decision", self.event)
        };
        self.ignore(id, OutputField::Decision, format!("`{d}`: {why}"));
        if d.is_blocking()
            && let Some(reason) = &o.effects.reason
        {
            self.feedback(reason.clone());
        }
        Decision::None
    }

    fn add_env(&mut self, id: &str, env: &BTreeMap<String, String>) {
        for (name, value) in env {
            if let Some(previous) = self.out.effects.env.insert(name.clone(), value.clone())
                && previous != *value
                && let Some(overridden) = self.env_from.get(name)
            {
                let conflict = Conflict {
                    field: OutputField::Env,
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
                    field: OutputField::UpdatedInput,
                    overridden: prev_unit.clone(),
                    kept: unit.clone(),
                });
            }
            current = Some((unit, value));
        }
        self.out.effects.updated_input = current.map(|(_, v)| v);
        self.out.effects.override_edge = self.edge.map(|(_, e)| e);
        let effects = &mut self.out.effects;
        effects.updated_tool_output = self.tool_output.map(|(_, v)| v);
        effects.updated_mcp_tool_output = self.mcp_tool_output.map(|(_, v)| v);
        effects.session_title = self.session_title.map(|(_, v)| v);
        effects.initial_user_message = self.initial_user_message.map(|(_, v)| v);
        effects.worktree_path = self.worktree_path.map(|(_, v)| v);
        if self.tool_mode.is_some() || !self.tool_names.is_empty() {
            let mut config = serde_json::Map::new();
            let none = self.tool_mode.as_deref() == Some("NONE");
            if let Some(mode) = self.tool_mode {
                config.insert("mode".to_owned(), Value::String(mode));
            }
            if !none && !self.tool_names.is_empty() {
                config.insert(
                    "allowedFunctionNames".to_owned(),
                    Value::Array(std::mem::take(&mut self.tool_names)),
                );
            }
            effects.tool_config = Some(Value::Object(config));
        }
        effects.display_content = self.display_content.map(|(_, v)| v);
        if !self.classifier_context.is_empty() {
            effects.classifier_context = Some(self.classifier_context.join("\n"));
        }
        if !self.terminal_sequences.is_empty() {
            effects.terminal_sequence = Some(self.terminal_sequences.concat());
        }
        if self.best.0 == Decision::Allow {
            for (_, updates) in self.permissions {
                effects.updated_permissions.extend(updates);
            }
        } else {
            for (hook, _) in self.permissions {
                self.out.ignored.push(IgnoredField {
                    hook,
                    field: OutputField::UpdatedPermissions,
                    reason: format!("the permission was not allowed (`{}`)", self.best.0),
                });
            }
        }
        self.out.effects.decision = self.best.0;
        self.out.effects.reason = if self.best.0 == Decision::None {
            self.skip_reason
        } else {
            self.best.1
        };
        if !self.system_messages.is_empty() {
            self.out.effects.system_message = Some(self.system_messages.join("\n"));
        }
        self.out
    }
}
