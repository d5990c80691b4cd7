//! The parsed form every config file takes before a dialect reads it: a tree of values,
//! each with the line and column where it was written.
//!
//! YAML, TOML and JSON all parse into this one tree, so that the dialect loaders, the
//! structural validation and the diagnostics work the same whatever the format.

use serde_json::Value as Json;

/// A 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Pos {
    pub(crate) line: u32,
    pub(crate) col: u32,
}

impl Pos {
    pub(crate) fn new(line: u32, col: u32) -> Pos {
        Pos { line, col }
    }
}

/// One value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub(crate) pos: Pos,
    pub(crate) value: Value,
}

/// A value of the tree.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// One key of a map, with the position of the key itself.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) key_pos: Pos,
    pub(crate) value: Node,
}

impl Node {
    pub(crate) fn new(pos: Pos, value: Value) -> Node {
        Node { pos, value }
    }

    /// The value's type as a user would call it, for "expected X, found Y" messages.
    pub(crate) fn type_name(&self) -> &'static str {
        use hooks_core::ValueType as T;
        match self.value {
            Value::Null => T::Null,
            Value::Bool(_) => T::Boolean,
            Value::Int(_) => T::Integer,
            Value::Float(_) => T::Number,
            Value::Str(_) => T::String,
            Value::Seq(_) => T::Array,
            Value::Map(_) => T::Object,
        }
        .word()
    }

    pub(crate) fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub(crate) fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The entry for `key`, if this is a map that has it.
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().find(|e| e.key == key)
    }

    /// The JSON form of this value (positions dropped).
    pub(crate) fn to_json(&self) -> Json {
        match &self.value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
            Value::Str(s) => Json::String(s.clone()),
            Value::Seq(items) => Json::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => Json::Object(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), e.value.to_json()))
                    .collect(),
            ),
        }
    }
}
