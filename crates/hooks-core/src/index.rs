//! The hook index: hooks bucketed by event and by matcher kind at build time, so that an
//! event with no hooks costs a table lookup, and an event with many hooks a few hash
//! lookups and one regex-set search rather than a walk over every configured hook.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::{Regex, RegexSet, RegexSetBuilder};

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent, Event};
use crate::matcher::MatcherKind;
use crate::mismatch::Mismatch;
use crate::spec::{HookPos, HookSpec};

/// Size limit of one bucket's combined regex set. Each matcher regex is limited on its
/// own; if the set of them all still does not fit, the bucket tries them one by one.
const REGEX_SET_SIZE_LIMIT: usize = 64 << 20;

/// The hooks of a configuration, indexed for matching.
///
/// Specs keep the order they were given in: a hook's position is its declaration index,
/// which [`HookIndex::matching`] returns and [`HookIndex::spec`] takes.
///
/// A hook matches an event context when, in this order:
///
/// 1. its event is the context's event;
/// 2. it is enabled;
/// 3. its matcher matches: when the event declares no matcher fields for the hook's
///    dialect ([`EventInfo::matcher_fields_in`](crate::EventInfo::matcher_fields_in) is
///    empty: no field at all, or a dialect where the event takes no matcher, as Claude
///    Code's TaskCreated) the matcher is ignored; otherwise it must match the value of at least one of those
///    fields present in the context ([`EventContext::matcher_subjects`]), and when the
///    context has none of them it is matched against the empty string (so `*` matches and
///    `Bash` does not). The fields are those of the hook's dialect
///    ([`EventInfo::matcher_fields_in`](crate::EventInfo::matcher_fields_in): a Fabro
///    hook's matcher on a tool event also sees `node_id`);
/// 4. its [`Filter`](crate::Filter) lets the context through;
/// 5. its [`IfCondition`](crate::IfCondition), if any, holds.
///
/// [`HookIndex::explain`] checks the same rules hook by hook and says which one failed.
#[derive(Clone, Debug, Default)]
pub struct HookIndex {
    specs: Vec<HookSpec>,
    /// Buckets of built-in events, by [`BuiltinEvent::ordinal`]; `None`: no enabled hook.
    builtin: Vec<Option<Bucket>>,
    /// Buckets of custom events, by canonical name.
    custom: HashMap<String, Bucket>,
}

/// The enabled hooks of one event, split by matcher kind.
#[derive(Clone, Debug, Default)]
struct Bucket {
    /// Hooks that match every subject (`*`, or matchers ignored by the event).
    always: Vec<usize>,
    /// Exact-name matchers: name -> hooks, ascending.
    exact: HashMap<String, Vec<usize>>,
    /// Regex matchers, one per distinct pattern, with the hooks using each (ascending).
    regexes: Vec<Regex>,
    regex_ids: Vec<Vec<usize>>,
    /// Build-time only: pattern text -> slot in `regexes`.
    regex_slots: HashMap<String, usize>,
    /// All of `regexes` in one set; `None` if there are none or they did not fit.
    regex_set: Option<RegexSet>,
    /// Some hook has a filter or an `if` condition to check after the matcher.
    checked: bool,
    /// The matcher hooks of dialects whose matchers see more of this event's fields than
    /// its own (Fabro's tool events also match `node_id`): one bucket per such dialect,
    /// matched against that dialect's fields.
    wider: Vec<(Dialect, Bucket)>,
    /// The smallest and largest hook ids in the bucket.
    first: usize,
    last: usize,
}

impl Bucket {
    fn empty() -> Bucket {
        Bucket {
            // Empty range until the first hook arrives.
            first: 1,
            last: 0,
            ..Bucket::default()
        }
    }

    /// Sorts and dedups hook ids drawn from this bucket: by sorting when they are few,
    /// else through a bitset over the bucket's id range (linear, where a sort of many
    /// interleaved runs is not).
    fn sort_dedup(&self, ids: &mut Vec<usize>) {
        if ids.len() <= 64 {
            ids.sort_unstable();
            ids.dedup();
            return;
        }
        let mut bits = vec![0u64; (self.last - self.first) / 64 + 1];
        for &id in ids.iter() {
            let k = id - self.first;
            bits[k / 64] |= 1 << (k % 64);
        }
        ids.clear();
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                ids.push(self.first + w * 64 + word.trailing_zeros() as usize);
                word &= word - 1;
            }
        }
    }

    /// Adds `spec`, or, when its dialect's matchers see more of the event's fields, adds it
    /// to that dialect's wider bucket (the id range stays this bucket's, for sorting).
    fn add(&mut self, id: usize, spec: &HookSpec) {
        let info = spec.event.info();
        let fields = info.matcher_fields_in(spec.dialect);
        // A dialect whose agent names tools otherwise matches the tool name in its own
        // vocabulary, so its matchers go to a bucket of their own too.
        let own_tools =
            spec.dialect.tools().translates_matchers() && fields.iter().any(|f| f == "tool_name");
        // A dialect where the event takes no matcher (Claude Code's TaskCreated) ignores
        // the one written, as an event without matcher fields does.
        if !fields.is_empty()
            && (fields != info.matcher_fields() || own_tools)
            && !spec.matcher.is_all()
        {
            if self.first > self.last {
                self.first = id;
            }
            self.last = id;
            let at = match self.wider.iter().position(|(d, _)| *d == spec.dialect) {
                Some(at) => at,
                None => {
                    self.wider.push((spec.dialect, Bucket::empty()));
                    self.wider.len() - 1
                }
            };
            let sub = &mut self.wider[at].1;
            sub.add_here(id, spec, false);
            self.checked |= sub.checked;
            return;
        }
        self.add_here(id, spec, fields.is_empty());
    }

    /// Adds `spec` to this bucket itself (never to a wider one).
    fn add_here(&mut self, id: usize, spec: &HookSpec, matcher_ignored: bool) {
        if self.first > self.last {
            self.first = id;
        }
        self.last = id;
        match spec.matcher.kind() {
            _ if matcher_ignored => self.always.push(id),
            MatcherKind::All => self.always.push(id),
            MatcherKind::Exact(names) => {
                for name in names {
                    let ids = self.exact.entry(name.clone()).or_default();
                    if ids.last() != Some(&id) {
                        ids.push(id);
                    }
                }
            }
            MatcherKind::Regex(re) => {
                // Hooks sharing a pattern share its slot: the set stays as small as the
                // number of distinct patterns.
                match self.regex_slots.get(re.as_str()) {
                    Some(&k) => self.regex_ids[k].push(id),
                    None => {
                        self.regex_slots
                            .insert(re.as_str().to_owned(), self.regexes.len());
                        self.regexes.push(re.clone());
                        self.regex_ids.push(vec![id]);
                    }
                }
            }
        }
        if !spec.filter.is_empty() || spec.condition.is_some() {
            self.checked = true;
        }
    }

    fn finish(&mut self) {
        for (_, sub) in &mut self.wider {
            sub.finish();
        }
        self.regex_slots = HashMap::new();
        if self.regexes.is_empty() {
            return;
        }
        self.regex_set = RegexSetBuilder::new(self.regexes.iter().map(Regex::as_str))
            .size_limit(REGEX_SET_SIZE_LIMIT)
            .build()
            .ok();
    }

    fn has_matchers(&self) -> bool {
        !self.exact.is_empty() || !self.regex_ids.is_empty()
    }

    /// Pushes the hooks whose matcher matches one of `subjects` (or, when there are none,
    /// the empty string); returns how many ascending runs it pushed.
    fn collect_subjects<'s>(
        &self,
        subjects: impl Iterator<Item = (&'s str, std::borrow::Cow<'s, str>)>,
        out: &mut Vec<usize>,
    ) -> usize {
        let mut runs = 0;
        let mut any_subject = false;
        for (_, subject) in subjects {
            any_subject = true;
            runs += self.collect(&subject, out);
        }
        if !any_subject {
            runs += self.collect("", out);
        }
        runs
    }

    /// Pushes the hooks whose matcher matches `subject`; returns how many ascending runs
    /// it pushed, so that the caller knows whether it must sort.
    fn collect(&self, subject: &str, out: &mut Vec<usize>) -> usize {
        let mut runs = 0;
        if let Some(ids) = self.exact.get(subject) {
            out.extend_from_slice(ids);
            runs += 1;
        }
        match &self.regex_set {
            Some(set) => {
                if set.is_match(subject) {
                    let matches = set.matches(subject);
                    // `matched(k)` over the indices is faster than `SetMatches::iter`.
                    for (k, ids) in self.regex_ids.iter().enumerate() {
                        if matches.matched(k) {
                            out.extend_from_slice(ids);
                            runs += 1;
                        }
                    }
                }
            }
            None => {
                for (re, ids) in self.regexes.iter().zip(&self.regex_ids) {
                    if re.is_match(subject) {
                        out.extend_from_slice(ids);
                        runs += 1;
                    }
                }
            }
        }
        runs
    }
}

/// Built-in events by canonical name: where a custom event that shares a built-in name
/// (and so equals it) finds its bucket.
static BUILTIN_BY_NAME: LazyLock<HashMap<&'static str, BuiltinEvent>> =
    LazyLock::new(|| BuiltinEvent::ALL.iter().map(|&b| (b.name(), b)).collect());

/// Whether one hook matched an event context, and if not, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchReport {
    /// The hook's position in the index.
    pub index: HookPos,
    /// `None` when it matched.
    pub mismatch: Option<Mismatch>,
}

impl MatchReport {
    /// Whether the hook matched.
    pub fn is_match(&self) -> bool {
        self.mismatch.is_none()
    }
}

impl HookIndex {
    /// Builds the index. The specs keep their order: a spec's position is its declaration
    /// index. Disabled specs are kept (to list and explain) but never match.
    pub fn new(specs: Vec<HookSpec>) -> HookIndex {
        let mut builtin: Vec<Option<Bucket>> = vec![None; BuiltinEvent::ALL.len()];
        let mut custom: HashMap<String, Bucket> = HashMap::new();
        for (id, spec) in specs.iter().enumerate() {
            if !spec.enabled {
                continue;
            }
            let builtin_event = match &spec.event {
                Event::Builtin(b) => Some(*b),
                Event::Custom(info) => BUILTIN_BY_NAME.get(info.name()).copied(),
            };
            let bucket = match builtin_event.and_then(|b| builtin.get_mut(b.ordinal())) {
                Some(slot) => slot.get_or_insert_with(Bucket::empty),
                None => custom
                    .entry(spec.event.name().to_owned())
                    .or_insert_with(Bucket::empty),
            };
            bucket.add(id, spec);
            if let Some(slot) = spec.also_on.and_then(|b| builtin.get_mut(b.ordinal())) {
                slot.get_or_insert_with(Bucket::empty).add(id, spec);
            }
        }
        for bucket in builtin.iter_mut().flatten().chain(custom.values_mut()) {
            bucket.finish();
        }
        HookIndex {
            specs,
            builtin,
            custom,
        }
    }

    /// Every spec, in declaration order.
    pub fn specs(&self) -> &[HookSpec] {
        &self.specs
    }

    /// The spec at declaration index `index`.
    ///
    /// # Panics
    ///
    /// If `index` is out of range; indices from [`HookIndex::matching`] and
    /// [`HookIndex::explain`] never are.
    pub fn spec(&self, index: HookPos) -> &HookSpec {
        &self.specs[index.get()]
    }

    /// How many specs the index holds, enabled or not.
    pub fn len(&self) -> usize {
        self.specs.len()
    }

    /// Whether the index holds no spec at all.
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    fn bucket(&self, event: &Event) -> Option<&Bucket> {
        let builtin = match event {
            Event::Builtin(b) => *b,
            Event::Custom(info) => {
                if let Some(bucket) = self.custom.get(info.name()) {
                    return Some(bucket);
                }
                *BUILTIN_BY_NAME.get(info.name())?
            }
        };
        self.builtin.get(builtin.ordinal())?.as_ref()
    }

    /// Whether any enabled hook is attached to `event`: a table lookup for built-in events,
    /// a hash lookup for custom ones. Lets a host skip building a context nobody reads.
    pub fn has_hooks(&self, event: &Event) -> bool {
        self.bucket(event).is_some()
    }

    /// The declaration indices of the enabled hooks matching `ctx`, ascending (see the
    /// type's docs for the rules). Allocates nothing when nothing matches by event and
    /// matcher.
    pub fn matching(&self, ctx: &EventContext) -> Vec<HookPos> {
        let Some(bucket) = self.bucket(ctx.event()) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        out.extend_from_slice(&bucket.always);
        let mut runs = usize::from(!bucket.always.is_empty());
        if bucket.has_matchers() {
            runs += bucket.collect_subjects(ctx.matcher_subjects(), &mut out);
        }
        for (dialect, sub) in &bucket.wider {
            runs += sub.collect_subjects(ctx.matcher_subjects_in(*dialect), &mut out);
        }
        if runs > 1 {
            bucket.sort_dedup(&mut out);
        }
        if bucket.checked {
            out.retain(|&id| {
                let spec = &self.specs[id];
                spec.filter.is_match(ctx) && spec.condition.as_ref().is_none_or(|c| c.is_match(ctx))
            });
        }
        // In place: a position is its number.
        out.into_iter().map(HookPos::new).collect()
    }

    /// One report per spec in the index, in declaration order, saying whether it matched
    /// `ctx` and if not, the first rule that failed. The slow path, for `hooks explain`;
    /// the reports with no mismatch are exactly [`HookIndex::matching`]'s hooks.
    pub fn explain(&self, ctx: &EventContext) -> Vec<MatchReport> {
        self.specs
            .iter()
            .enumerate()
            .map(|(index, spec)| MatchReport {
                index: HookPos::new(index),
                mismatch: explain_one(spec, ctx).err(),
            })
            .collect()
    }
}

fn explain_one(spec: &HookSpec, ctx: &EventContext) -> Result<(), Mismatch> {
    if spec.event != *ctx.event() {
        return Err(Mismatch::OtherEvent {
            hook_event: spec.event.name().to_owned(),
        });
    }
    if !spec.enabled {
        return Err(Mismatch::Disabled);
    }
    if !spec.event.info().matcher_fields_in(spec.dialect).is_empty() && !spec.matcher.is_all() {
        let subjects: Vec<(String, String)> = ctx
            .matcher_subjects_in(spec.dialect)
            .map(|(field, value)| (field.to_owned(), value.into_owned()))
            .collect();
        let matched = if subjects.is_empty() {
            spec.matcher.is_match("")
        } else {
            subjects
                .iter()
                .any(|(_, value)| spec.matcher.is_match(value))
        };
        if !matched {
            return Err(Mismatch::Matcher {
                matcher: spec.matcher.as_str().to_owned(),
                subjects,
            });
        }
    }
    spec.filter.check(ctx)?;
    if let Some(condition) = &spec.condition {
        condition.check(ctx)?;
    }
    Ok(())
}
