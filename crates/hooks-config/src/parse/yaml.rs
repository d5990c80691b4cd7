//! YAML through `serde-saphyr`: the only module that names the YAML library.
//!
//! Parsing builds the positioned tree with `serde_saphyr::Spanned` on every node, under
//! the library's budgets (nesting depth, alias expansions, events), so alias bombs and
//! deep nesting end in an error rather than a hang. Writing turns a JSON value into YAML
//! text for `convert`.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Budget, Options, Spanned};

use super::MAX_DEPTH;
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::source::Source;
use crate::tree::{Entry, Node, Pos, Value};

/// The stack each level of a YAML document may need before the next level is reached.
/// The deserializer's frames are large (tens of kilobytes per nesting level in debug
/// builds), so when less than this is left of the stack a level is parsed on a new stack
/// segment of [`YAML_SEGMENT`] (`stacker`), whatever the caller's stack (a 2 MiB async
/// worker, say). A document of ordinary depth on the main thread never needs one, nor a
/// thread of its own.
const YAML_RED_ZONE: usize = 256 * 1024;

/// The size of each stack segment added while parsing deep YAML.
const YAML_SEGMENT: usize = 4 * 1024 * 1024;

/// Parses YAML text into the tree. A panic in the parser is an error of this document,
/// not of the process.
pub(crate) fn parse(src: &Source) -> Result<Node, Error> {
    std::panic::catch_unwind(|| parse_here(src)).unwrap_or_else(|_| {
        Err(src
            .file_diag(Diagnostic::error(
                DiagnosticKind::Syntax,
                "the YAML parser failed on this document",
            ))
            .into())
    })
}

fn parse_here(src: &Source) -> Result<Node, Error> {
    let text = src.text();
    if is_blank(text) {
        return Ok(Node::new(Pos::new(1, 1), Value::Null));
    }
    let mut budget = Budget::default();
    budget.max_depth = MAX_DEPTH;
    // A config has no business with more than a few hundred aliases; a billion-laughs
    // document needs thousands of expansions.
    budget.max_aliases = 1_000;
    budget.max_events = 200_000;
    let mut options = Options::default();
    options.budget = Some(budget);
    options.strict_booleans = true;
    options.alias_limits.max_total_replayed_events = 100_000;
    options.with_snippet = false;
    // Comments are not kept, so the parser need not collect them.
    options.emit_comments = false;
    // A previous parse that unwound through a panic could have left a count behind.
    DEPTH.with(|d| d.set(0));
    match serde_saphyr::from_str_with_options::<YamlNode>(text, options) {
        Ok(node) => Ok(shift(src, node.0)),
        Err(e) => {
            let text = e.without_snippet().to_string();
            let kind = if matches!(e.without_snippet(), serde_saphyr::Error::Budget { .. })
                || text.contains(TOO_DEEP)
                || text.contains("recursion limit")
                || text.contains("limit exceeded")
                || text.contains("budget")
            {
                DiagnosticKind::Budget
            } else {
                DiagnosticKind::Syntax
            };
            let raw = first_line(&text);
            let raw = raw
                .rsplit_once(" at line ")
                .map_or(raw.as_str(), |(m, _)| m);
            let message = if raw.starts_with("multiple YAML documents") {
                "a config file holds one YAML document, but this one has a second `---`".to_owned()
            } else if let Some((m, _)) = raw.split_once(", set DuplicateKeyPolicy") {
                m.to_owned()
            } else if kind != DiagnosticKind::Budget {
                raw.to_owned()
            } else if raw.contains("lias") || raw.contains("replay") {
                "the document expands too many aliases".to_owned()
            } else if raw.contains("Events") || raw.contains("Nodes") {
                "the document is too large (more than 200000 parser events)".to_owned()
            } else if raw.contains("Depth") || raw.contains(TOO_DEEP) || raw.contains("recursion") {
                format!("the document nests more than {MAX_DEPTH} levels deep")
            } else {
                raw.to_owned()
            };
            let d = Diagnostic::error(kind, format!("invalid YAML: {message}"));
            let pos = e
                .location()
                .filter(|l| l.line() > 0)
                .map_or(Pos::new(1, 1), |l| {
                    Pos::new(l.line() as u32, l.column() as u32)
                });
            Err(src.diag(d, src.shift(pos)).into())
        }
    }
}

/// Writes a JSON value as YAML.
pub(crate) fn to_string(value: &serde_json::Value) -> Result<String, Error> {
    serde_saphyr::to_string(value).map_err(|e| {
        Diagnostic::error(DiagnosticKind::Convert, format!("cannot write YAML: {e}")).into()
    })
}

fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#') || l == "---" || l == "..."
    })
}

fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or(message).trim().to_owned()
}

/// Moves every position of a tree parsed from a part of a file to the file's numbering.
fn shift(src: &Source, mut node: Node) -> Node {
    node.pos = src.shift(node.pos);
    node.value = match node.value {
        Value::Seq(items) => Value::Seq(items.into_iter().map(|n| shift(src, n)).collect()),
        Value::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|e| Entry {
                    key: e.key,
                    key_pos: src.shift(e.key_pos),
                    value: shift(src, e.value),
                })
                .collect(),
        ),
        other => other,
    };
    node
}

/// A tree node deserialized with its position.
struct YamlNode(Node);

/// The value part, deserialized inside `Spanned`.
struct YamlValue(Value);

impl<'de> Deserialize<'de> for YamlNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YamlNode, D::Error> {
        let spanned = Spanned::<YamlValue>::deserialize(d)?;
        let loc = spanned.referenced;
        Ok(YamlNode(Node::new(
            Pos::new(loc.line() as u32, loc.column() as u32),
            spanned.value.0,
        )))
    }
}

thread_local! {
    /// How deep the value being deserialized on this thread is nested. Deserialize impls
    /// carry no state, and the library's own depth budget does not cover every path
    /// (block collections nested in one another), so the depth is counted here.
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// The message of a depth error, recognised when the error comes back out of the library.
const TOO_DEEP: &str = "nested too deeply";

/// Counts one level of nesting for as long as it lives.
struct DepthGuard;

impl DepthGuard {
    fn enter<E: de::Error>() -> Result<DepthGuard, E> {
        let depth = DEPTH.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        let guard = DepthGuard;
        if depth > MAX_DEPTH {
            return Err(E::custom(format!(
                "{TOO_DEEP} (more than {MAX_DEPTH} levels)"
            )));
        }
        Ok(guard)
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

impl<'de> Deserialize<'de> for YamlValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YamlValue, D::Error> {
        let _guard = DepthGuard::enter::<D::Error>()?;
        stacker::maybe_grow(YAML_RED_ZONE, YAML_SEGMENT, || {
            d.deserialize_any(ValueVisitor).map(YamlValue)
        })
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        i64::try_from(v)
            .map(Value::Int)
            .map_err(|_| E::custom("the integer is too large"))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        YamlValue::deserialize(d).map(|v| v.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(YamlNode(node)) = seq.next_element()? {
            items.push(node);
        }
        Ok(Value::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(YamlNode(key)) = map.next_key()? {
            let name = match key.value {
                Value::Str(s) => s,
                Value::Int(i) => i.to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Float(f) => f.to_string(),
                Value::Null => "null".to_owned(),
                Value::Seq(_) | Value::Map(_) => {
                    return Err(de::Error::custom("a mapping key must be a plain value"));
                }
            };
            let YamlNode(value) = map.next_value()?;
            entries.push(Entry {
                key: name,
                key_pos: key.pos,
                value,
            });
        }
        Ok(Value::Map(entries))
    }
}
