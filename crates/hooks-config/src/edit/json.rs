//! JSON config text edited in place: a small scanner records where every value, key and
//! container starts and ends, and each edit replaces one byte range, so everything outside
//! the changed entry stays byte for byte as it was. New values take the indentation the
//! surrounding container already uses, and the spacing after its commas and around its
//! colons (none in a compact file).

use super::{Result, bail, err};
use serde_json::Value;

use super::{Doc, Seg, offset_of};

/// A JSON document being edited.
pub struct JsonDoc {
    text: String,
    root: Node,
}

#[derive(Debug)]
struct Node {
    start: usize,
    end: usize,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    Scalar,
}

#[derive(Debug)]
struct Member {
    key: String,
    key_start: usize,
    key_end: usize,
    value: Node,
}

/// How a document spaces what it writes on one line: the text between two siblings (`, `
/// or `,`) and between a key and its value (`: ` or `:`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Spacing {
    comma: String,
    colon: String,
}

impl Member {
    fn start(&self) -> usize {
        self.key_start
    }
}

impl JsonDoc {
    /// Scans `text`, which must be one JSON value.
    pub fn parse(text: &str) -> Result<JsonDoc> {
        let root = scan(text)?;
        Ok(JsonDoc {
            text: text.to_owned(),
            root,
        })
    }

    fn node(&self, path: &[Seg]) -> Result<&Node> {
        let mut node = &self.root;
        for seg in path {
            node = match (seg, &node.kind) {
                (Seg::Key(k), Kind::Object(members)) => members
                    .iter()
                    .rev()
                    .find(|m| &m.key == k)
                    .map(|m| &m.value)
                    .ok_or_else(|| err!("no key `{k}`"))?,
                (Seg::Index(i), Kind::Array(items)) => {
                    items.get(*i).ok_or_else(|| err!("no item {i}"))?
                }
                _ => bail!("the document does not have the expected shape at `{seg}`"),
            };
        }
        Ok(node)
    }

    fn replace(&mut self, start: usize, end: usize, with: &str) -> Result<()> {
        let mut text = String::with_capacity(self.text.len() + with.len());
        text.push_str(&self.text[..start]);
        text.push_str(with);
        text.push_str(&self.text[end..]);
        *self = JsonDoc::parse(&text)?;
        Ok(())
    }

    fn newline(&self) -> &'static str {
        if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// The whitespace that starts the line holding `offset`.
    fn line_indent(&self, offset: usize) -> &str {
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let rest = &self.text[line_start..];
        let len = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        &rest[..len]
    }

    /// The file's indentation step: the first increase of indentation after a line that
    /// opens a container; two spaces if the file never indents.
    fn unit(&self) -> String {
        let mut prev: Option<(&str, &str)> = None;
        for line in self.text.lines() {
            let trimmed = line.trim_start_matches([' ', '\t']);
            let indent = &line[..line.len() - trimmed.len()];
            if let Some((prev_indent, prev_line)) = prev
                && (prev_line.trim_end().ends_with('{') || prev_line.trim_end().ends_with('['))
                && indent.len() > prev_indent.len()
                && indent.starts_with(prev_indent)
            {
                return indent[prev_indent.len()..].to_owned();
            }
            if !trimmed.is_empty() {
                prev = Some((indent, line));
            }
        }
        "  ".to_owned()
    }

    /// The spacing for text written into `node`: that of its own children where they show
    /// it, else the first the document shows, else `, ` and `: `.
    fn spacing(&self, node: &Node) -> Spacing {
        let comma = self
            .comma_of(node)
            .or_else(|| self.first(&self.root, &|n| self.comma_of(n)))
            .unwrap_or(", ");
        let colon = self
            .colon_of(node)
            .or_else(|| self.first(&self.root, &|n| self.colon_of(n)))
            .unwrap_or(": ");
        Spacing {
            comma: comma.to_owned(),
            colon: colon.to_owned(),
        }
    }

    /// The text between two of `node`'s children written on one line.
    fn comma_of(&self, node: &Node) -> Option<&str> {
        let spans: Vec<(usize, usize)> = match &node.kind {
            Kind::Object(members) => members.iter().map(|m| (m.start(), m.value.end)).collect(),
            Kind::Array(items) => items.iter().map(|n| (n.start, n.end)).collect(),
            Kind::Scalar => return None,
        };
        spans
            .windows(2)
            .map(|w| &self.text[w[0].1..w[1].0])
            .find(|between| !between.contains('\n'))
    }

    /// The text between a key of `node` and its value, when they are on one line.
    fn colon_of(&self, node: &Node) -> Option<&str> {
        match &node.kind {
            Kind::Object(members) => members
                .iter()
                .map(|m| &self.text[m.key_end..m.value.start])
                .find(|between| !between.contains('\n')),
            _ => None,
        }
    }

    /// The first answer `of` gives for `node` or a node inside it, in document order.
    fn first<'s>(&'s self, node: &Node, of: &dyn Fn(&Node) -> Option<&'s str>) -> Option<&'s str> {
        if let Some(found) = of(node) {
            return Some(found);
        }
        match &node.kind {
            Kind::Object(members) => members.iter().find_map(|m| self.first(&m.value, of)),
            Kind::Array(items) => items.iter().find_map(|n| self.first(n, of)),
            Kind::Scalar => None,
        }
    }

    /// Inserts `piece` (one member or item, already rendered without indentation on its
    /// first line) as the last child of the container `node`; `comma` joins it to a
    /// sibling on the same line.
    fn append_child(
        &mut self,
        node_start: usize,
        node_end: usize,
        last_child: Option<(usize, usize)>,
        first_child_start: Option<usize>,
        comma: &str,
        piece_for: impl Fn(&str, &str) -> String,
    ) -> Result<()> {
        let nl = self.newline();
        let unit = self.unit();
        let outer = self.line_indent(node_start).to_owned();
        match (last_child, first_child_start) {
            (Some((_, last_end)), Some(first_start)) => {
                let multiline = self.text[node_start..first_start].contains('\n');
                if multiline {
                    let indent = self.line_indent(first_start).to_owned();
                    // A sibling written on one line makes the new child one line too.
                    let (last_start, _) = last_child.unwrap_or_default();
                    let sibling = &self.text[last_start..last_end];
                    let piece = if sibling.contains('\n') {
                        piece_for(&indent, &unit)
                    } else {
                        let one = piece_for("", "");
                        if sibling.starts_with("{ ") || sibling.starts_with("[ ") {
                            pad_brackets(&one)
                        } else {
                            one
                        }
                    };
                    self.replace(last_end, last_end, &format!(",{nl}{indent}{piece}"))
                } else {
                    let piece = piece_for("", "");
                    self.replace(last_end, last_end, &format!("{comma}{piece}"))
                }
            }
            _ if !self.text.trim_end().contains('\n') => {
                // A document written on one line stays on one line.
                let piece = piece_for("", "");
                let open = &self.text[node_start..node_start + 1];
                let close = &self.text[node_end - 1..node_end];
                self.replace(node_start, node_end, &format!("{open}{piece}{close}"))
            }
            _ => {
                // An empty container: open it onto lines of its own.
                let indent = format!("{outer}{unit}");
                let piece = piece_for(&indent, &unit);
                let open = &self.text[node_start..node_start + 1];
                let close = &self.text[node_end - 1..node_end];
                let with = format!("{open}{nl}{indent}{piece}{nl}{outer}{close}");
                self.replace(node_start, node_end, &with)
            }
        }
    }
}

impl Doc for JsonDoc {
    fn locate(&self, line: u32, column: u32) -> Option<Vec<Seg>> {
        let offset = offset_of(&self.text, line, column)?;
        let mut path = Vec::new();
        find(&self.root, offset, &mut path).then_some(path)
    }

    fn set(&mut self, map: &[Seg], key: &str, value: &Value) -> Result<()> {
        let node = self.node(map)?;
        let Kind::Object(members) = &node.kind else {
            bail!("expected an object at `{}`", super::show(map));
        };
        let nl = self.newline();
        let sp = self.spacing(node);
        if let Some(m) = members.iter().rev().find(|m| m.key == key) {
            let (start, end) = (m.value.start, m.value.end);
            let indent = self.line_indent(m.key_start).to_owned();
            let unit = self.unit();
            let rendered = pretty(value, &indent, &unit, nl, &sp);
            return self.replace(start, end, &rendered);
        }
        let (start, end) = (node.start, node.end);
        let last = members.last().map(|m| (m.start(), m.value.end));
        let first = members.first().map(Member::start);
        let key_json = serde_json::to_string(key)?;
        let colon = sp.colon.clone();
        self.append_child(start, end, last, first, &sp.comma, |indent, unit| {
            if unit.is_empty() {
                format!("{key_json}{colon}{}", inline(value, &sp))
            } else {
                format!("{key_json}{colon}{}", pretty(value, indent, unit, nl, &sp))
            }
        })
    }

    fn remove(&mut self, at: &[Seg]) -> Result<()> {
        let Some((last, parent_path)) = at.split_last() else {
            bail!("cannot remove the whole document");
        };
        let parent = self.node(parent_path)?;
        // Each child as (start, end), with the index of the one to remove.
        let (children, index): (Vec<(usize, usize)>, usize) = match (&parent.kind, last) {
            (Kind::Object(members), Seg::Key(k)) => {
                let i = members
                    .iter()
                    .rposition(|m| &m.key == k)
                    .ok_or_else(|| err!("no key `{k}`"))?;
                (
                    members.iter().map(|m| (m.start(), m.value.end)).collect(),
                    i,
                )
            }
            (Kind::Array(items), Seg::Index(i)) if *i < items.len() => {
                (items.iter().map(|n| (n.start, n.end)).collect(), *i)
            }
            _ => bail!("nothing to remove at `{}`", super::show(at)),
        };
        let (start, end) = if index > 0 {
            (children[index - 1].1, children[index].1)
        } else if children.len() > 1 {
            (children[0].0, children[1].0)
        } else {
            (parent.start + 1, parent.end - 1)
        };
        self.replace(start, end, "")
    }

    fn push(&mut self, seq: &[Seg], value: &Value) -> Result<()> {
        let node = self.node(seq)?;
        let Kind::Array(items) = &node.kind else {
            bail!("expected an array at `{}`", super::show(seq));
        };
        let (start, end) = (node.start, node.end);
        let last = items.last().map(|n| (n.start, n.end));
        let first = items.first().map(|n| n.start);
        let nl = self.newline();
        let sp = self.spacing(node);
        self.append_child(start, end, last, first, &sp.comma, |indent, unit| {
            if unit.is_empty() {
                inline(value, &sp)
            } else {
                pretty(value, indent, unit, nl, &sp)
            }
        })
    }

    fn text(&self) -> String {
        self.text.clone()
    }
}

/// Finds the object or array that starts at `offset`, recording its path.
fn find(node: &Node, offset: usize, path: &mut Vec<Seg>) -> bool {
    if node.start == offset && !matches!(node.kind, Kind::Scalar) {
        return true;
    }
    if offset < node.start || offset >= node.end {
        return false;
    }
    match &node.kind {
        Kind::Object(members) => {
            for m in members {
                path.push(Seg::Key(m.key.clone()));
                if find(&m.value, offset, path) {
                    return true;
                }
                path.pop();
            }
        }
        Kind::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                if find(item, offset, path) {
                    return true;
                }
                path.pop();
            }
        }
        Kind::Scalar => {}
    }
    false
}

/// A value on one line, spaced as `sp` says: `{"a": 1, "b": [true]}`.
fn inline(value: &Value, sp: &Spacing) -> String {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let members: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}{}{}", json_string(k), sp.colon, inline(v, sp)))
                .collect();
            format!("{{{}}}", members.join(&sp.comma))
        }
        Value::Array(items) if !items.is_empty() => {
            let items: Vec<String> = items.iter().map(|v| inline(v, sp)).collect();
            format!("[{}]", items.join(&sp.comma))
        }
        other => other.to_string(),
    }
}

/// A value over several lines; `indent` is the indentation of the line it starts on.
fn pretty(value: &Value, indent: &str, unit: &str, nl: &str, sp: &Spacing) -> String {
    let inner = format!("{indent}{unit}");
    match value {
        Value::Object(map) if !map.is_empty() => {
            let members: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{inner}{}{}{}",
                        json_string(k),
                        sp.colon,
                        pretty(v, &inner, unit, nl, sp)
                    )
                })
                .collect();
            format!("{{{nl}{}{nl}{indent}}}", members.join(&format!(",{nl}")))
        }
        // Lists of plain values stay on one line, as people write `"args": ["a", "b"]`.
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            let items: Vec<String> = items
                .iter()
                .map(|v| format!("{inner}{}", pretty(v, &inner, unit, nl, sp)))
                .collect();
            format!("[{nl}{}{nl}{indent}]", items.join(&format!(",{nl}")))
        }
        other => inline(other, sp),
    }
}

/// `{"a": 1}` as `{ "a": 1 }`, for files that pad their one-line objects and lists.
fn pad_brackets(one_line: &str) -> String {
    match (one_line.chars().next(), one_line.len()) {
        (Some('{' | '['), n) if n > 2 => {
            format!(
                "{} {} {}",
                &one_line[..1],
                &one_line[1..n - 1],
                &one_line[n - 1..]
            )
        }
        _ => one_line.to_owned(),
    }
}

fn json_string(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

fn scan(text: &str) -> Result<Node> {
    let mut s = Scanner {
        bytes: text.as_bytes(),
        text,
        at: 0,
    };
    if text.starts_with('\u{feff}') {
        s.at = 3;
    }
    s.ws();
    let node = s.value(0)?;
    s.ws();
    if s.at != s.bytes.len() {
        bail!("unexpected text after the JSON value at byte {}", s.at);
    }
    Ok(node)
}

struct Scanner<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
}

/// Nesting deeper than this is refused (the loader refuses far less already).
const MAX_DEPTH: usize = 256;

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.at < self.bytes.len()
            && matches!(self.bytes[self.at], b' ' | b'\t' | b'\n' | b'\r')
        {
            self.at += 1;
        }
    }

    fn expect(&mut self, b: u8) -> Result<()> {
        if self.bytes.get(self.at) == Some(&b) {
            self.at += 1;
            Ok(())
        } else {
            bail!("invalid JSON: expected `{}` at byte {}", b as char, self.at)
        }
    }

    fn string_end(&mut self) -> Result<usize> {
        let start = self.at;
        self.expect(b'"')?;
        while self.at < self.bytes.len() {
            match self.bytes[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return Ok(self.at);
                }
                _ => self.at += 1,
            }
        }
        bail!("invalid JSON: unterminated string at byte {start}")
    }

    fn value(&mut self, depth: usize) -> Result<Node> {
        if depth > MAX_DEPTH {
            bail!("the JSON nests too deeply to edit");
        }
        let start = self.at;
        match self.bytes.get(self.at) {
            Some(b'{') => {
                self.at += 1;
                let mut members = Vec::new();
                self.ws();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                } else {
                    loop {
                        self.ws();
                        let key_start = self.at;
                        let key_end = self.string_end()?;
                        let key: String = serde_json::from_str(&self.text[key_start..key_end])?;
                        self.ws();
                        self.expect(b':')?;
                        self.ws();
                        let value = self.value(depth + 1)?;
                        members.push(Member {
                            key,
                            key_start,
                            key_end,
                            value,
                        });
                        self.ws();
                        match self.bytes.get(self.at) {
                            Some(b',') => self.at += 1,
                            Some(b'}') => {
                                self.at += 1;
                                break;
                            }
                            _ => bail!("invalid JSON: expected `,` or `}}` at byte {}", self.at),
                        }
                    }
                }
                Ok(Node {
                    start,
                    end: self.at,
                    kind: Kind::Object(members),
                })
            }
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.ws();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                } else {
                    loop {
                        self.ws();
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.bytes.get(self.at) {
                            Some(b',') => self.at += 1,
                            Some(b']') => {
                                self.at += 1;
                                break;
                            }
                            _ => bail!("invalid JSON: expected `,` or `]` at byte {}", self.at),
                        }
                    }
                }
                Ok(Node {
                    start,
                    end: self.at,
                    kind: Kind::Array(items),
                })
            }
            Some(b'"') => {
                let end = self.string_end()?;
                Ok(Node {
                    start,
                    end,
                    kind: Kind::Scalar,
                })
            }
            Some(_) => {
                while self.at < self.bytes.len()
                    && !matches!(
                        self.bytes[self.at],
                        b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    self.at += 1;
                }
                if self.at == start {
                    bail!("invalid JSON: expected a value at byte {start}");
                }
                Ok(Node {
                    start,
                    end: self.at,
                    kind: Kind::Scalar,
                })
            }
            None => bail!("invalid JSON: the text ends where a value should be"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(k: &str) -> Seg {
        Seg::Key(k.to_owned())
    }

    /// Each edit writes in the style of the text around it: no spaces in a compact file,
    /// the file's own spacing after commas and colons otherwise.
    #[test]
    fn new_members_and_items_take_the_files_spacing() {
        let cases = [
            // (text, after `set(a, "on", false)`, after `push(list, {"x": [1, 2]})`)
            (
                r#"{"a":{"k":1},"list":[{"y":0}]}"#,
                r#"{"a":{"k":1,"on":false},"list":[{"y":0}]}"#,
                r#"{"a":{"k":1},"list":[{"y":0},{"x":[1,2]}]}"#,
            ),
            (
                r#"{"a": {"k": 1}, "list": [{"y": 0}]}"#,
                r#"{"a": {"k": 1, "on": false}, "list": [{"y": 0}]}"#,
                r#"{"a": {"k": 1}, "list": [{"y": 0}, {"x": [1, 2]}]}"#,
            ),
            (
                r#"{"a": {"k": 1},"list": [{"y": 0}]}"#,
                r#"{"a": {"k": 1,"on": false},"list": [{"y": 0}]}"#,
                r#"{"a": {"k": 1},"list": [{"y": 0},{"x": [1,2]}]}"#,
            ),
            // An empty object in a compact file: the file's style is taken from the rest.
            (
                r#"{"a":{},"list":[]}"#,
                r#"{"a":{"on":false},"list":[]}"#,
                r#"{"a":{},"list":[{"x":[1,2]}]}"#,
            ),
        ];
        for (text, set, pushed) in cases {
            let mut doc = JsonDoc::parse(text).unwrap();
            doc.set(&[key("a")], "on", &json!(false)).unwrap();
            assert_eq!(doc.text(), set, "set in {text}");
            let mut doc = JsonDoc::parse(text).unwrap();
            doc.push(&[key("list")], &json!({"x": [1, 2]})).unwrap();
            assert_eq!(doc.text(), pushed, "push in {text}");
        }
    }
}
