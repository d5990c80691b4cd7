//! TOML through the `toml` crate's spanned document tree (`toml::de::DeTable`), whose byte
//! spans become lines and columns.

use toml::de::{DeTable, DeValue};

use super::MAX_DEPTH;
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::source::Source;
use crate::tree::{Entry, Node, Pos, Value};

/// Parses TOML text into the tree.
pub(crate) fn parse(src: &Source) -> Result<Node, Error> {
    let text = src.text();
    // The parser recurses on nested inline arrays and tables; refuse absurd nesting before
    // handing it the text.
    if let Some(at) = too_deep(text) {
        let d = Diagnostic::error(
            DiagnosticKind::Budget,
            format!("invalid TOML: nested more than {MAX_DEPTH} levels deep"),
        );
        return Err(src.diag(d, src.pos(at)).into());
    }
    let (table, errors) = DeTable::parse_recoverable(text);
    if !errors.is_empty() {
        let diags = errors
            .iter()
            .map(|e| {
                let message = e.message().trim_end().to_owned();
                let pos = e.span().map_or(Pos::new(1, 1), |s| src.pos(s.start));
                src.diag(
                    Diagnostic::error(DiagnosticKind::Syntax, format!("invalid TOML: {message}")),
                    pos,
                )
            })
            .collect();
        return Err(Error::new(diags));
    }
    let span = table.span();
    let mut node = table_node(src, table.get_ref(), span.start);
    // A document's table starts at its first key, not wherever the parser put it.
    node.pos = Pos::new(1, 1);
    Ok(node)
}

fn table_node(src: &Source, table: &DeTable<'_>, start: usize) -> Node {
    let entries = table
        .iter()
        .map(|(k, v)| Entry {
            key: k.get_ref().to_string(),
            key_pos: src.pos(k.span().start),
            value: value_node(src, v.get_ref(), v.span().start),
        })
        .collect();
    Node::new(src.pos(start), Value::Map(entries))
}

fn value_node(src: &Source, value: &DeValue<'_>, start: usize) -> Node {
    let pos = src.pos(start);
    let value = match value {
        DeValue::String(s) => Value::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()) {
            Ok(v) => Value::Int(v),
            Err(_) => Value::Str(i.as_str().to_owned()),
        },
        DeValue::Float(f) => {
            let text = f.as_str().replace('_', "");
            let v = match text.as_str() {
                "inf" | "+inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" | "+nan" | "-nan" => f64::NAN,
                t => t.parse().unwrap_or(f64::NAN),
            };
            Value::Float(v)
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::Str(d.to_string()),
        DeValue::Array(items) => Value::Seq(
            items
                .iter()
                .map(|i| value_node(src, i.get_ref(), i.span().start))
                .collect(),
        ),
        DeValue::Table(t) => return table_node(src, t, start),
    };
    Node::new(pos, value)
}

/// The byte offset where brackets and braces outside strings and comments first nest
/// deeper than [`MAX_DEPTH`], if they do.
fn too_deep(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q && bytes[i] != b'\n' {
                    if q == b'"' && bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}
