//! TOML config text edited with `toml_edit`, which keeps comments, spacing and the order
//! of everything it is not asked to change; and Fabro hooks switched off by commenting
//! their `[[run.hooks]]` table out (Fabro's schema has no `enabled`), and back on by
//! uncommenting it.

use super::{Result, bail, err};
use serde_json::Value;
use toml_edit::{Array, ArrayOfTables, DocumentMut, InlineTable, Item, Table};

use super::{Doc, Seg, offset_of, show};

/// The line that marks a hook commented out by `hooks disable`; the hook's lines follow it,
/// each behind `# `.
pub(crate) const DISABLED_MARKER: &str =
    "# hooks: disabled (`hooks enable` restores the table below)";

/// A TOML document being edited.
pub(crate) struct TomlDoc {
    doc: DocumentMut,
}

/// One place in the document, mutably.
enum Node<'a> {
    Item(&'a mut Item),
    Table(&'a mut Table),
    Value(&'a mut toml_edit::Value),
}

impl<'a> Node<'a> {
    fn step(self, seg: &Seg) -> Result<Node<'a>> {
        let missing = || err!("nothing at `{seg}`");
        Ok(match (self, seg) {
            (Node::Item(Item::Table(t)), Seg::Key(k)) | (Node::Table(t), Seg::Key(k)) => {
                Node::Item(t.get_mut(k).ok_or_else(missing)?)
            }
            (Node::Item(Item::Value(v)), seg) | (Node::Value(v), seg) => match (v, seg) {
                (toml_edit::Value::InlineTable(t), Seg::Key(k)) => {
                    Node::Value(t.get_mut(k).ok_or_else(missing)?)
                }
                (toml_edit::Value::Array(a), Seg::Index(i)) => {
                    Node::Value(a.get_mut(*i).ok_or_else(missing)?)
                }
                _ => return Err(missing()),
            },
            (Node::Item(Item::ArrayOfTables(a)), Seg::Index(i)) => {
                Node::Table(a.get_mut(*i).ok_or_else(missing)?)
            }
            _ => return Err(missing()),
        })
    }
}

impl TomlDoc {
    /// Parses `text`.
    pub(crate) fn parse(text: &str) -> Result<TomlDoc> {
        let doc: DocumentMut = text.parse().map_err(|e| err!("invalid TOML: {e}"))?;
        Ok(TomlDoc { doc })
    }

    fn node(&mut self, path: &[Seg]) -> Result<Node<'_>> {
        let mut node = Node::Table(self.doc.as_table_mut());
        for seg in path {
            node = node.step(seg)?;
        }
        Ok(node)
    }

    /// Comments the table at `path` (an element of an array of tables) out, behind
    /// [`DISABLED_MARKER`].
    pub(crate) fn comment_out(&mut self, path: &[Seg]) -> Result<()> {
        let text = self.doc.to_string();
        let spanned =
            toml_edit::Document::parse(text.clone()).map_err(|e| err!("invalid TOML: {e}"))?;
        let table = spanned_table(spanned.as_table(), path)
            .ok_or_else(|| err!("`{}` is not a table of its own", show(path)))?;
        let start = table
            .span()
            .ok_or_else(|| err!("`{}` has no position", show(path)))?
            .start;
        let end = span_end(table).max(start);
        let first = text[..start].matches('\n').count();
        let last = text[..end].matches('\n').count();
        let mut out = String::with_capacity(text.len() + 64);
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if i == first {
                let eol = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
                out.push_str(DISABLED_MARKER);
                out.push_str(eol);
            }
            if (first..=last).contains(&i) {
                let body = line.trim_end_matches(['\n', '\r']);
                out.push_str(if body.trim().is_empty() { "#" } else { "# " });
                out.push_str(body);
                out.push_str(&line[body.len()..]);
            } else {
                out.push_str(line);
            }
        }
        *self = TomlDoc::parse(&out)?;
        Ok(())
    }
}

/// A hook table commented out by `hooks disable`.
#[derive(Clone, Debug)]
pub(crate) struct Commented {
    /// The marker's line (0-based).
    pub(crate) marker: usize,
    /// The last commented line (0-based).
    pub(crate) last: usize,
    /// The table's text, uncommented.
    pub(crate) body: String,
}

/// The hooks commented out by `hooks disable` in `text`.
pub(crate) fn commented(text: &str) -> Vec<Commented> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != DISABLED_MARKER {
            i += 1;
            continue;
        }
        let marker = i;
        let mut body = String::new();
        let mut j = i + 1;
        while j < lines.len() {
            let l = lines[j];
            let content = l.trim_end_matches(['\n', '\r']);
            if let Some(rest) = content.strip_prefix("# ") {
                body.push_str(rest);
            } else if content != "#" {
                break;
            }
            body.push('\n');
            j += 1;
        }
        if j > marker + 1 {
            out.push(Commented {
                marker,
                last: j - 1,
                body,
            });
        }
        i = j.max(i + 1);
    }
    out
}

/// `text` with the commented-out table `block` restored (the marker line dropped).
pub(crate) fn uncomment(text: &str, block: &Commented) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == block.marker {
            continue;
        }
        if (block.marker + 1..=block.last).contains(&i) {
            let content = line.trim_end_matches(['\n', '\r']);
            let restored = content
                .strip_prefix("# ")
                .or_else(|| content.strip_prefix('#'))
                .unwrap_or(content);
            out.push_str(restored);
            out.push_str(&line[content.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

fn spanned_table<'a>(root: &'a Table, path: &[Seg]) -> Option<&'a Table> {
    let mut item: Option<&Item> = None;
    let mut table = root;
    for seg in path {
        match (item, seg) {
            (None, Seg::Key(k)) => item = Some(table.get(k)?),
            (Some(Item::Table(t)), Seg::Key(k)) => item = Some(t.get(k)?),
            (Some(Item::ArrayOfTables(a)), Seg::Index(i)) => {
                table = a.get(*i)?;
                item = None;
            }
            _ => return None,
        }
    }
    match item {
        None => Some(table),
        Some(Item::Table(t)) => Some(t),
        Some(_) => None,
    }
}

/// Where the last thing inside `table` ends (its values, and its sub-tables' headers and
/// values).
fn span_end(table: &Table) -> usize {
    let mut end = table.span().map_or(0, |s| s.end);
    for (_, item) in table.iter() {
        end = end.max(item_end(item));
    }
    end
}

fn item_end(item: &Item) -> usize {
    match item {
        Item::Table(t) => span_end(t),
        Item::ArrayOfTables(a) => a.iter().map(span_end).max().unwrap_or(0),
        Item::Value(v) => v.span().map_or(0, |s| s.end),
        Item::None => 0,
    }
}

/// Finds the table (or inline table) that starts at `offset`, recording its path.
fn find_table(table: &Table, offset: usize, path: &mut Vec<Seg>) -> bool {
    for (key, item) in table.iter() {
        path.push(Seg::Key(key.to_owned()));
        let found = match item {
            Item::Table(t) => {
                t.span().is_some_and(|s| s.start == offset) || find_table(t, offset, path)
            }
            Item::ArrayOfTables(a) => {
                let mut hit = false;
                for (i, t) in a.iter().enumerate() {
                    path.push(Seg::Index(i));
                    if t.span().is_some_and(|s| s.start == offset) || find_table(t, offset, path) {
                        hit = true;
                        break;
                    }
                    path.pop();
                }
                hit
            }
            Item::Value(v) => find_value(v, offset, path),
            Item::None => false,
        };
        if found {
            return true;
        }
        path.pop();
    }
    false
}

fn find_value(value: &toml_edit::Value, offset: usize, path: &mut Vec<Seg>) -> bool {
    match value {
        toml_edit::Value::InlineTable(t) => {
            if t.span().is_some_and(|s| s.start == offset) {
                return true;
            }
            for (k, v) in t.iter() {
                path.push(Seg::Key(k.to_owned()));
                if find_value(v, offset, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        toml_edit::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                path.push(Seg::Index(i));
                if find_value(v, offset, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        _ => false,
    }
}

impl Doc for TomlDoc {
    fn locate(&self, line: u32, column: u32) -> Option<Vec<Seg>> {
        let text = self.doc.to_string();
        let offset = offset_of(&text, line, column)?;
        let spanned = toml_edit::Document::parse(text).ok()?;
        let mut path = Vec::new();
        find_table(spanned.as_table(), offset, &mut path).then_some(path)
    }

    fn set(&mut self, map: &[Seg], key: &str, value: &Value) -> Result<()> {
        match self.node(map)? {
            Node::Item(Item::Table(t)) | Node::Table(t) => {
                match t.get_mut(key) {
                    Some(Item::Value(old)) if !value.is_object() && !is_table_list(value) => {
                        let decor = old.decor().clone();
                        *old = to_value(value)?;
                        *old.decor_mut() = decor;
                    }
                    _ => {
                        t.insert(key, to_item(value)?);
                    }
                }
                Ok(())
            }
            Node::Item(Item::Value(v)) | Node::Value(v) => match v {
                toml_edit::Value::InlineTable(t) => {
                    match t.get_mut(key) {
                        Some(old) => {
                            let decor = old.decor().clone();
                            *old = to_value(value)?;
                            *old.decor_mut() = decor;
                        }
                        None => {
                            t.insert(key, to_value(value)?);
                        }
                    }
                    Ok(())
                }
                _ => bail!("expected a table at `{}`", show(map)),
            },
            _ => bail!("expected a table at `{}`", show(map)),
        }
    }

    fn remove(&mut self, at: &[Seg]) -> Result<()> {
        let Some((last, parent)) = at.split_last() else {
            bail!("cannot remove the whole document");
        };
        let node = self.node(parent)?;
        match (node, last) {
            (Node::Item(Item::Table(t)) | Node::Table(t), Seg::Key(k)) => {
                t.remove(k).ok_or_else(|| err!("no key `{k}`"))?;
            }
            (Node::Item(Item::ArrayOfTables(a)), Seg::Index(i)) if *i < a.len() => {
                a.remove(*i);
            }
            (Node::Item(Item::Value(v)) | Node::Value(v), seg) => match (v, seg) {
                (toml_edit::Value::InlineTable(t), Seg::Key(k)) => {
                    t.remove(k).ok_or_else(|| err!("no key `{k}`"))?;
                }
                (toml_edit::Value::Array(a), Seg::Index(i)) if *i < a.len() => {
                    a.remove(*i);
                }
                _ => bail!("nothing to remove at `{}`", show(at)),
            },
            _ => bail!("nothing to remove at `{}`", show(at)),
        }
        Ok(())
    }

    fn push(&mut self, seq: &[Seg], value: &Value) -> Result<()> {
        match self.node(seq)? {
            Node::Item(Item::ArrayOfTables(a)) => {
                let Value::Object(map) = value else {
                    bail!("a list of tables takes tables");
                };
                a.push(to_table(map)?);
                Ok(())
            }
            Node::Item(Item::Value(toml_edit::Value::Array(a)))
            | Node::Value(toml_edit::Value::Array(a)) => {
                push_value(a, to_value(value)?);
                Ok(())
            }
            _ => bail!("expected a list at `{}`", show(seq)),
        }
    }

    fn text(&self) -> String {
        self.doc.to_string()
    }
}

/// Appends to an inline array in the layout its items already have (one per line or all on
/// one line).
fn push_value(a: &mut Array, mut value: toml_edit::Value) {
    let prefix = a
        .iter()
        .last()
        .and_then(|v| v.decor().prefix())
        .and_then(|p| p.as_str())
        .map(str::to_owned);
    match prefix {
        Some(p) => {
            value.decor_mut().set_prefix(p);
            value.decor_mut().set_suffix("");
            a.push_formatted(value);
        }
        None => a.push(value),
    }
}

fn is_table_list(value: &Value) -> bool {
    matches!(value, Value::Array(items) if !items.is_empty() && items.iter().all(Value::is_object))
}

/// A JSON value as a TOML item in a table: lists of objects become arrays of tables, and
/// objects that hold such lists become tables; other objects are inline tables.
fn to_item(value: &Value) -> Result<Item> {
    match value {
        v if is_table_list(v) => {
            let mut aot = ArrayOfTables::new();
            for item in v.as_array().into_iter().flatten() {
                if let Value::Object(map) = item {
                    aot.push(to_table(map)?);
                }
            }
            Ok(Item::ArrayOfTables(aot))
        }
        Value::Object(map) if map.values().any(|v| is_table_list(v) || v.is_object()) => {
            let mut t = to_table(map)?;
            // A table that only holds tables needs no header of its own.
            t.set_implicit(map.values().all(|v| is_table_list(v) || v.is_object()));
            Ok(Item::Table(t))
        }
        other => Ok(Item::Value(to_value(other)?)),
    }
}

fn to_table(map: &serde_json::Map<String, Value>) -> Result<Table> {
    let mut t = Table::new();
    for (k, v) in map {
        let item = if is_table_list(v) {
            to_item(v)?
        } else {
            Item::Value(to_value(v)?)
        };
        t.insert(k, item);
    }
    Ok(t)
}

fn to_value(value: &Value) -> Result<toml_edit::Value> {
    Ok(match value {
        Value::Null => bail!("TOML has no null"),
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64().unwrap_or_default().into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(items) => {
            let mut a = Array::new();
            for i in items {
                a.push(to_value(i)?);
            }
            toml_edit::Value::Array(a)
        }
        Value::Object(map) => {
            let mut t = InlineTable::new();
            for (k, v) in map {
                t.insert(k, to_value(v)?);
            }
            toml_edit::Value::InlineTable(t)
        }
    })
}

/// A TOML document as JSON, keys in written order.
pub(crate) fn to_json(text: &str) -> Result<Value> {
    let doc: DocumentMut = text.parse().map_err(|e| err!("invalid TOML: {e}"))?;
    Ok(table_json(doc.as_table()))
}

fn table_json(table: &Table) -> Value {
    Value::Object(
        table
            .iter()
            .map(|(k, item)| (k.to_owned(), item_json(item)))
            .collect(),
    )
}

fn item_json(item: &Item) -> Value {
    match item {
        Item::Table(t) => table_json(t),
        Item::ArrayOfTables(a) => Value::Array(a.iter().map(table_json).collect()),
        Item::Value(v) => value_json(v),
        Item::None => Value::Null,
    }
}

fn value_json(value: &toml_edit::Value) -> Value {
    match value {
        toml_edit::Value::String(s) => Value::String(s.value().clone()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => Value::from(*f.value()),
        toml_edit::Value::Boolean(b) => Value::Bool(*b.value()),
        toml_edit::Value::Datetime(d) => Value::String(d.value().to_string()),
        toml_edit::Value::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        toml_edit::Value::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), value_json(v)))
                .collect(),
        ),
    }
}
