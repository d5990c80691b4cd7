//! JSON: `serde_json` checks the syntax (its errors carry line and column) and decodes
//! strings and numbers; a light scan over the checked text records where every value and
//! key starts, which `serde_json` does not report.

use serde::de::IgnoredAny;

use super::MAX_DEPTH;
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::source::Source;
use crate::tree::{Entry, Node, Value};

/// Parses JSON text into the tree.
pub(crate) fn parse(src: &Source) -> Result<Node, Error> {
    let text = src.text();
    if let Err(e) = serde_json::from_str::<IgnoredAny>(text) {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the position goes in front instead.
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m);
        let kind = if message.contains("recursion limit") {
            DiagnosticKind::Budget
        } else {
            DiagnosticKind::Syntax
        };
        let d = Diagnostic::error(kind, format!("invalid JSON: {message}"));
        let pos = crate::tree::Pos::new(e.line().max(1) as u32, e.column().max(1) as u32);
        return Err(src.diag(d, src.shift(pos)).into());
    }
    let mut scanner = Scanner {
        src,
        bytes: text.as_bytes(),
        at: 0,
        errors: Vec::new(),
    };
    let node = scanner.value(0);
    match node {
        Some(node) if scanner.errors.is_empty() => Ok(node),
        _ => Err(Error::new(scanner.errors)),
    }
}

struct Scanner<'a> {
    src: &'a Source,
    bytes: &'a [u8],
    at: usize,
    errors: Vec<Diagnostic>,
}

impl Scanner<'_> {
    fn skip_ws(&mut self) {
        while let Some(b) = self.bytes.get(self.at) {
            if b.is_ascii_whitespace() {
                self.at += 1;
            } else {
                break;
            }
        }
    }

    fn fail(&mut self, kind: DiagnosticKind, message: &str, at: usize) -> Option<Node> {
        let d = Diagnostic::error(kind, message.to_owned());
        self.errors.push(self.src.diag(d, self.src.pos(at)));
        None
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        self.skip_ws();
        let start = self.at;
        let pos = self.src.pos(start);
        let value = match *self.bytes.get(start)? {
            b'{' | b'[' if depth >= MAX_DEPTH => {
                return self.fail(
                    DiagnosticKind::Budget,
                    &format!("invalid JSON: nested more than {MAX_DEPTH} levels deep"),
                    start,
                );
            }
            b'{' => {
                self.at += 1;
                let mut entries: Vec<Entry> = Vec::new();
                let mut keys: std::collections::HashSet<String> = std::collections::HashSet::new();
                loop {
                    self.skip_ws();
                    match self.bytes.get(self.at) {
                        Some(b'}') => {
                            self.at += 1;
                            break;
                        }
                        Some(b',') => {
                            self.at += 1;
                            continue;
                        }
                        _ => {}
                    }
                    let key_at = self.at;
                    let key = self.string()?;
                    self.skip_ws();
                    // The colon; the text was checked, so it is there.
                    self.at += 1;
                    let value = self.value(depth + 1)?;
                    if !keys.insert(key.clone()) {
                        self.fail(
                            DiagnosticKind::Syntax,
                            &format!("duplicate key `{key}`"),
                            key_at,
                        );
                        continue;
                    }
                    entries.push(Entry {
                        key,
                        key_pos: self.src.pos(key_at),
                        value,
                    });
                }
                Value::Map(entries)
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.bytes.get(self.at) {
                        Some(b']') => {
                            self.at += 1;
                            break;
                        }
                        Some(b',') => {
                            self.at += 1;
                            continue;
                        }
                        _ => items.push(self.value(depth + 1)?),
                    }
                }
                Value::Seq(items)
            }
            b'"' => Value::Str(self.string()?),
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'n' => self.literal("null", Value::Null),
            _ => self.number()?,
        };
        Some(Node::new(pos, value))
    }

    fn literal(&mut self, word: &str, value: Value) -> Value {
        self.at += word.len();
        value
    }

    /// A string token, decoded by serde_json.
    fn string(&mut self) -> Option<String> {
        let start = self.at;
        self.at += 1;
        while let Some(&b) = self.bytes.get(self.at) {
            self.at += 1;
            match b {
                b'\\' => self.at += 1,
                b'"' => break,
                _ => {}
            }
        }
        let token = self.src.text().get(start..self.at)?;
        match serde_json::from_str::<String>(token) {
            Ok(s) => Some(s),
            Err(e) => {
                self.fail(
                    DiagnosticKind::Syntax,
                    &format!("invalid JSON string: {e}"),
                    start,
                );
                None
            }
        }
    }

    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        while let Some(&b) = self.bytes.get(self.at) {
            if b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E') {
                self.at += 1;
            } else {
                break;
            }
        }
        let token = self.src.text().get(start..self.at)?;
        match serde_json::from_str::<serde_json::Number>(token) {
            Ok(n) => Some(match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::MAX)),
            }),
            Err(e) => {
                self.fail(
                    DiagnosticKind::Syntax,
                    &format!("invalid JSON number: {e}"),
                    start,
                );
                None
            }
        }
    }
}
