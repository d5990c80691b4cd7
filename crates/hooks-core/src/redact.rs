//! Masking secret values: a [`Redactor`] replaces every value a hook was given as a secret
//! with `[secret NAME]` in text and in the strings of a [`HookOutcome`].

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde_json::Value;

use crate::outcome::{Effects, HookOutcome};

/// Secret values and the masks that replace them.
///
/// A value is masked as written and in the two encodings in which the engine's own messages
/// may quote it: JSON string escaping (`"` as `\"`) and URL percent-encoding (a value in a
/// URL path, as a URL parser writes it back). The longest value is matched first, so a
/// secret that contains another is masked whole, and masks never overlap. Empty values are
/// ignored.
///
/// The work is linear in the text for each value; an empty redactor changes nothing and
/// costs one length check.
#[derive(Clone, Default)]
pub struct Redactor {
    /// Longest value first.
    rules: Vec<Rule>,
}

/// One form of one value.
#[derive(Clone)]
struct Rule {
    value: String,
    mask: String,
    /// The prefix function of `value`'s bytes (Knuth-Morris-Pratt), for cut prefixes.
    prefixes: Vec<usize>,
    /// `value`'s bytes reversed and their prefix function, for cut suffixes.
    reversed: Vec<u8>,
    suffixes: Vec<usize>,
}

impl Rule {
    fn new(value: &str, mask: &str) -> Rule {
        let reversed: Vec<u8> = value.bytes().rev().collect();
        Rule {
            prefixes: prefix_function(value.as_bytes()),
            suffixes: prefix_function(&reversed),
            reversed,
            value: value.to_owned(),
            mask: mask.to_owned(),
        }
    }
}

impl Redactor {
    /// The shortest part of a value, in bytes, masked where text was cut.
    pub const MIN_PARTIAL: usize = 4;

    /// A redactor with no secrets.
    pub fn new() -> Redactor {
        Redactor::default()
    }

    /// Adds the secret `name` with `value`; it will show as `[secret NAME]`.
    #[must_use]
    pub fn with(mut self, name: &str, value: &str) -> Redactor {
        self.add(name, value);
        self
    }

    /// Adds the secret `name` with `value`; it will show as `[secret NAME]`.
    pub fn add(&mut self, name: &str, value: &str) {
        if value.is_empty() {
            return;
        }
        let mask = format!("[secret {name}]");
        let json = serde_json::to_string(value).unwrap_or_default();
        let json = json
            .strip_prefix('"')
            .and_then(|j| j.strip_suffix('"'))
            .unwrap_or(value);
        for form in [value, json, &percent_encode(value)] {
            if !form.is_empty() && !self.rules.iter().any(|r| r.value == form) {
                self.rules.push(Rule::new(form, &mask));
            }
        }
        self.rules.sort_by_key(|r| std::cmp::Reverse(r.value.len()));
    }

    /// Whether there is nothing to mask.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// `text` with every secret value replaced by its mask (borrowed when there is none).
    ///
    /// Text the engine cut (at an output cap, or to quote the head or tail of a long output,
    /// marked `…`) may hold only part of a value: a prefix of a value that ends the text or
    /// stands right before a `…`, or a suffix that stands right after one, of at least
    /// [`Redactor::MIN_PARTIAL`] bytes, is masked too.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.rules.is_empty() {
            return Cow::Borrowed(text);
        }
        // Candidates as (length, start, end, mask); the longest are taken first.
        let mut found: Vec<(usize, usize, usize, &str)> = Vec::new();
        for rule in &self.rules {
            let len = rule.value.len();
            found.extend(
                text.match_indices(rule.value.as_str())
                    .map(|(at, _)| (len, at, at + len, rule.mask.as_str())),
            );
        }
        let bytes = text.as_bytes();
        for (at, marker) in text
            .match_indices(CUT)
            .map(|(at, m)| (at, m.len()))
            .chain([(text.len(), 0)])
        {
            for rule in &self.rules {
                let len = rule.value.len();
                // The longest proper prefix of the value that ends right at the cut...
                let before = &bytes[at.saturating_sub(len)..at];
                let k = overlap(rule.value.as_bytes(), &rule.prefixes, before.iter());
                if k >= Redactor::MIN_PARTIAL {
                    found.push((k, at - k, at, &rule.mask));
                }
                // ...and the longest proper suffix that starts right after a `…`.
                if marker > 0 {
                    let after = at + marker;
                    let window = &bytes[after..(after + len).min(bytes.len())];
                    let k = overlap(&rule.reversed, &rule.suffixes, window.iter().rev());
                    if k >= Redactor::MIN_PARTIAL {
                        found.push((k, after, after + k, &rule.mask));
                    }
                }
            }
        }
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        found.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut spans = Spans::new();
        for (_, start, end, mask) in found {
            add_span(&mut spans, start, end, mask);
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (start, (end, mask)) in spans {
            out.push_str(&text[last..start]);
            out.push_str(mask);
            last = end;
        }
        out.push_str(&text[last..]);
        Cow::Owned(out)
    }

    /// Masks `text` in place.
    pub fn redact_string(&self, text: &mut String) {
        if let Cow::Owned(masked) = self.redact(text) {
            *text = masked;
        }
    }

    /// Masks every string of `value`, object keys included.
    pub fn redact_json(&self, value: &mut Value) {
        match value {
            Value::String(s) => self.redact_string(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.redact_json(v)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (mut key, mut v) in entries {
                    self.redact_string(&mut key);
                    self.redact_json(&mut v);
                    map.insert(key, v);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// Masks every string of `outcome`: its effects ([`Redactor::redact_effects`]),
    /// unknown field names and the failure message.
    pub fn redact_outcome(&self, outcome: &mut HookOutcome) {
        if self.is_empty() {
            return;
        }
        // Destructured without `..`, so that a new field has to be considered here.
        let HookOutcome {
            run,
            effects,
            unknown_fields,
            dropped,
        } = outcome;
        self.redact_effects(effects);
        for s in unknown_fields
            .iter_mut()
            .chain(dropped.iter_mut().map(|d| &mut d.reason))
        {
            self.redact_string(s);
        }
        if let Some(failure) = &mut run.failure {
            self.redact_string(&mut failure.message);
        }
    }

    /// Masks every string of `effects`: reason, messages, context, system message, stop
    /// reason, rewritten input, tool output and permissions, edge, session title and
    /// message, paths, terminal sequence and elicitation content.
    pub fn redact_effects(&self, effects: &mut Effects) {
        if self.is_empty() {
            return;
        }
        // Destructured without `..`, so that a new field has to be considered here.
        let Effects {
            decision: _,
            reason,
            continue_: _,
            stop_reason,
            updated_input,
            additional_context,
            system_message,
            messages,
            suppress_output: _,
            retry: _,
            skip: _,
            override_edge,
            updated_permissions,
            updated_tool_output,
            updated_mcp_tool_output,
            session_title,
            initial_user_message,
            watch_paths,
            reload_skills: _,
            elicitation,
            worktree_path,
            terminal_sequence,
            suppress_original_prompt: _,
            classifier_context,
            display_content,
            env,
            clear_context: _,
            llm_request,
            llm_response,
            tool_config,
            tail_tool_call,
        } = effects;
        for s in [
            reason,
            stop_reason,
            system_message,
            override_edge,
            session_title,
            initial_user_message,
            worktree_path,
            terminal_sequence,
            classifier_context,
            display_content,
        ]
        .into_iter()
        .flatten()
        {
            self.redact_string(s);
        }
        for s in additional_context
            .iter_mut()
            .chain(messages.iter_mut())
            .chain(watch_paths.iter_mut().flatten())
        {
            self.redact_string(s);
        }
        for value in env.values_mut() {
            self.redact_string(value);
        }
        let content = elicitation.as_mut().and_then(|e| e.content.as_mut());
        for value in [
            updated_input,
            updated_tool_output,
            updated_mcp_tool_output,
            llm_request,
            llm_response,
            tool_config,
            tail_tool_call,
        ]
        .into_iter()
        .flatten()
        .chain(updated_permissions.iter_mut())
        .chain(content)
        {
            self.redact_json(value);
        }
    }
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut masks: Vec<&str> = self.rules.iter().map(|r| r.mask.as_str()).collect();
        masks.sort_unstable();
        masks.dedup();
        f.debug_tuple("Redactor").field(&masks).finish()
    }
}

/// The mark the engine puts where it cut text.
const CUT: &str = "\u{2026}";

/// The spans to mask: start to (end, mask), never overlapping.
type Spans<'m> = BTreeMap<usize, (usize, &'m str)>;

/// Adds the span `start..end` unless it overlaps one already taken.
fn add_span<'m>(spans: &mut Spans<'m>, start: usize, end: usize, mask: &'m str) {
    let before = spans.range(..=start).next_back();
    let after = spans.range(start..).next();
    if before.is_some_and(|(_, &(e, _))| e > start) || after.is_some_and(|(&s, _)| s < end) {
        return;
    }
    spans.insert(start, (end, mask));
}

/// The prefix function of `pattern`: for each `i`, the length of the longest proper prefix
/// of `pattern[..=i]` that is also its suffix.
fn prefix_function(pattern: &[u8]) -> Vec<usize> {
    let mut pi = vec![0; pattern.len()];
    let mut k = 0;
    for i in 1..pattern.len() {
        while k > 0 && pattern[i] != pattern[k] {
            k = pi[k - 1];
        }
        if pattern[i] == pattern[k] {
            k += 1;
        }
        pi[i] = k;
    }
    pi
}

/// The length of the longest proper prefix of `pattern` that `text` ends with. Because
/// UTF-8 is self-synchronising, a byte match of a prefix of a `str` value against a `str`
/// text starts and ends on character boundaries of the text.
fn overlap<'t>(pattern: &[u8], pi: &[usize], text: impl Iterator<Item = &'t u8>) -> usize {
    let mut k = 0;
    for &b in text {
        while k > 0 && pattern[k] != b {
            k = pi[k - 1];
        }
        if pattern[k] == b {
            k += 1;
        }
        if k == pattern.len() {
            k = pi[k - 1];
        }
    }
    k
}

/// `value` as a URL parser writes it in a path: controls, space, `"`, `#`, `<`, `>`, `?`,
/// `` ` ``, `{`, `}` and every non-ASCII byte percent-encoded (upper-case hex).
fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for &b in value.as_bytes() {
        let encode = b <= 0x20
            || b >= 0x7f
            || matches!(b, b'"' | b'#' | b'<' | b'>' | b'?' | b'`' | b'{' | b'}');
        if encode {
            let _ = write!(out, "%{b:02X}");
        } else {
            out.push(char::from(b));
        }
    }
    out
}
