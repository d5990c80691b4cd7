//! YAML config text edited line by line: there is no format-preserving YAML editor among
//! our dependencies, so this module reads the block structure of the document (mappings,
//! sequences and the extent of each value, by indentation) and changes only the lines of
//! the entry being edited. Comments, blank lines, quoting and everything else stay byte for
//! byte as they were. Flow collections (`[..]`, `{..}`) are treated as opaque values: an
//! edit that would have to go inside one is refused rather than guessed.
//!
//! The structure reader is deliberately small; what it gets wrong the caller's safety net
//! catches, since every edited file is loaded again and compared before it is written.

use super::{Error, Result, bail, err};
use serde_json::Value;

use super::{Doc, Seg, show};

/// A YAML document (or the YAML frontmatter of a SKILL.md) being edited.
pub(crate) struct YamlDoc {
    lines: Vec<String>,
    /// The line ending after each line ("" for a last line without one).
    eols: Vec<&'static str>,
    /// The ending new lines get.
    eol: &'static str,
    /// The YAML part: lines `region.0..region.1` (all but the `---` lines of a frontmatter).
    region: (usize, usize),
    /// Where the document ends: a `...` line, else the end of the region.
    doc_end: usize,
    root: YNode,
}

#[derive(Debug, Clone)]
struct YNode {
    /// The line the node starts on.
    first: usize,
    /// The byte column it starts at.
    col: usize,
    /// The last line that holds some of it (comments and blank lines after it excluded).
    last: usize,
    kind: YKind,
}

#[derive(Debug, Clone)]
enum YKind {
    Map(Vec<YEntry>),
    Seq(Vec<YItem>),
    /// A scalar or flow collection written after its key or dash.
    Scalar,
    /// Nothing written (`key:` alone); `col` is just after the colon.
    Null,
}

#[derive(Debug, Clone)]
struct YEntry {
    key: String,
    line: usize,
    col: usize,
    /// The byte index of the `:` after the key.
    colon: usize,
    value: YNode,
}

#[derive(Debug, Clone)]
struct YItem {
    line: usize,
    col: usize,
    value: YNode,
}

impl YamlDoc {
    /// Reads `text`; `frontmatter` says it is a Markdown file whose YAML sits between the
    /// first two `---` lines.
    pub(crate) fn parse(text: &str, frontmatter: bool) -> Result<YamlDoc> {
        let mut lines = Vec::new();
        let mut eols = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (line, eol, next) = match rest.find('\n') {
                Some(i) if rest[..i].ends_with('\r') => (&rest[..i - 1], "\r\n", &rest[i + 1..]),
                Some(i) => (&rest[..i], "\n", &rest[i + 1..]),
                None => (rest, "", ""),
            };
            lines.push(line.to_owned());
            eols.push(eol);
            rest = next;
        }
        let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let region = if frontmatter {
            let close = lines
                .iter()
                .enumerate()
                .skip(1)
                .find(|(_, l)| matches!(l.trim_end(), "---" | "..."))
                .map(|(i, _)| i)
                .ok_or_else(|| err!("the SKILL.md frontmatter is not closed by a `---` line"))?;
            if lines.first().map(|l| l.trim_end()) != Some("---") {
                bail!("a SKILL.md must start with a `---` line");
            }
            (1, close)
        } else {
            (0, lines.len())
        };
        let mut doc = YamlDoc {
            lines,
            eols,
            eol,
            region,
            doc_end: region.1,
            root: YNode {
                first: 0,
                col: 0,
                last: 0,
                kind: YKind::Null,
            },
        };
        doc.reparse()?;
        Ok(doc)
    }

    fn reparse(&mut self) -> Result<()> {
        // A `...` line ends the document; what follows is not YAML the loader reads.
        let end = (self.region.0..self.region.1)
            .find(|&i| self.lines[i].trim_end() == "...")
            .unwrap_or(self.region.1);
        self.doc_end = end;
        let p = Parser {
            lines: &self.lines,
            end,
        };
        let mut start = self.region.0;
        // A `%` directive and a `---` document start are not content.
        while let Some(n) = p.next_content(start) {
            let t = self.lines[n].trim_end();
            if t.starts_with('%') || t == "---" {
                start = n + 1;
            } else {
                break;
            }
        }
        self.root = match p.next_content(start) {
            None => YNode {
                first: end.max(start),
                col: 0,
                last: end.max(start).saturating_sub(1),
                kind: YKind::Null,
            },
            Some(n) => {
                let root = p.node(n, indent(&self.lines[n]), None)?;
                if let Some(extra) = p.next_content(root.last + 1) {
                    bail!(
                        "line {}: this YAML has more than one document or a layout the line editor does not follow",
                        extra + 1
                    );
                }
                root
            }
        };
        Ok(())
    }

    fn node(&self, path: &[Seg]) -> Result<&YNode> {
        let mut node = &self.root;
        for seg in path {
            node = match (seg, &node.kind) {
                (Seg::Key(k), YKind::Map(entries)) => entries
                    .iter()
                    .rev()
                    .find(|e| &e.key == k)
                    .map(|e| &e.value)
                    .ok_or_else(|| err!("no key `{k}`"))?,
                (Seg::Index(i), YKind::Seq(items)) => items
                    .get(*i)
                    .map(|i| &i.value)
                    .ok_or_else(|| err!("no item {i}"))?,
                _ => bail!(
                    "the YAML at `{}` is not written in block style, which the line editor needs",
                    show(path)
                ),
            };
        }
        Ok(node)
    }

    /// The entry holding the value at `path`, if its last step is a key.
    fn entry(&self, path: &[Seg]) -> Option<&YEntry> {
        let (Seg::Key(k), parent) = path.split_last()? else {
            return None;
        };
        match &self.node(parent).ok()?.kind {
            YKind::Map(entries) => entries.iter().rev().find(|e| &e.key == k),
            _ => None,
        }
    }

    /// The indentation step of the file: how far the first nested block is indented.
    fn unit(&self) -> usize {
        fn find(node: &YNode) -> Option<usize> {
            match &node.kind {
                YKind::Map(entries) => entries.iter().find_map(|e| match e.value.kind {
                    YKind::Map(_) | YKind::Seq(_) if e.value.col > e.col => {
                        Some(e.value.col - e.col)
                    }
                    _ => find(&e.value),
                }),
                YKind::Seq(items) => items.iter().find_map(|i| find(&i.value)),
                _ => None,
            }
        }
        find(&self.root).unwrap_or(2)
    }

    /// Inserts `new` lines before line `at`, keeping a missing final newline missing.
    fn insert_lines(&mut self, at: usize, new: Vec<String>) {
        if new.is_empty() {
            return;
        }
        let count = new.len();
        let mut eols = vec![self.eol; count];
        if at == self.lines.len() && self.eols.last() == Some(&"") {
            if let Some(last) = self.eols.last_mut() {
                *last = self.eol;
            }
            eols[count - 1] = "";
        }
        self.lines.splice(at..at, new);
        self.eols.splice(at..at, eols);
        self.region.1 += count;
    }

    fn delete_lines(&mut self, from: usize, to: usize) {
        let count = to + 1 - from;
        let last_eol = self.eols[to];
        self.lines.drain(from..=to);
        self.eols.drain(from..=to);
        // Deleting the last line keeps whether the file ended with a newline.
        if from == self.lines.len()
            && let Some(e) = self.eols.last_mut()
        {
            *e = last_eol;
        }
        self.region.1 -= count;
    }

    /// The first line to delete with the block starting at `line`: comment lines right
    /// above it at the same indentation describe it and go with it.
    fn with_comments_above(&self, line: usize, col: usize) -> usize {
        let mut start = line;
        while start > self.region.0 {
            let prev = &self.lines[start - 1];
            let t = prev.trim_start();
            if t.starts_with('#') && indent(prev) == col {
                start -= 1;
            } else {
                break;
            }
        }
        start
    }

    /// Rewrites the key line of `entry` to `key: VALUE`, keeping what follows the old
    /// value (a trailing comment and the spacing before it) as it was.
    fn set_inline(
        &mut self,
        entry_line: usize,
        colon: usize,
        scalar_end: Option<usize>,
        text: &str,
    ) {
        let line = &self.lines[entry_line];
        let tail = &line[scalar_end.unwrap_or(colon + 1)..];
        let mut out = line[..=colon].to_owned();
        if !text.is_empty() {
            out.push(' ');
            out.push_str(text);
        }
        let tail = tail.trim_end();
        if !tail.is_empty() {
            if !tail.starts_with([' ', '\t']) {
                out.push(' ');
            }
            out.push_str(tail);
        }
        self.lines[entry_line] = out;
    }

    /// Makes the empty value of `entry` (`key:`, `key: []`, `key: {}`, `key: null`) ready
    /// to take a block on the lines below; returns the column the block goes at.
    fn open_empty(&mut self, path: &[Seg]) -> Result<usize> {
        let entry = self
            .entry(path)
            .ok_or_else(|| err!("`{}` is not a key the editor can fill", show(path)))?
            .clone();
        match entry.value.kind {
            YKind::Null => {}
            YKind::Scalar if entry.value.first == entry.value.last => {
                let line = &self.lines[entry.line];
                let end = scalar_end(line, entry.value.col);
                let scalar = line[entry.value.col..end].trim();
                if !matches!(scalar, "[]" | "{}" | "null" | "~" | "") {
                    bail!(
                        "`{}` is written in flow style (`{scalar}`); write it in block style to edit it",
                        show(path)
                    );
                }
                self.set_inline(entry.line, entry.colon, Some(end), "");
            }
            _ => bail!("`{}` is not empty", show(path)),
        }
        Ok(entry.col + self.unit())
    }

    /// Whether an entry's value is empty: nothing, `[]`, `{}`, `null` or `~`.
    fn is_empty_value(&self, e: &YEntry) -> bool {
        match e.value.kind {
            YKind::Null => true,
            YKind::Scalar if e.value.first == e.value.last => {
                let line = &self.lines[e.line];
                let end = scalar_end(line, e.value.col);
                matches!(line[e.value.col..end].trim(), "[]" | "{}" | "null" | "~")
            }
            _ => false,
        }
    }

    fn show_err(&self, path: &[Seg]) -> Error {
        err!(
            "the YAML at `{}` is not written in a layout the line editor can change",
            show(path)
        )
    }
}

impl Doc for YamlDoc {
    fn locate(&self, line: u32, column: u32) -> Option<Vec<Seg>> {
        let line = (line as usize).checked_sub(1)?;
        let text = self.lines.get(line)?;
        let col = text
            .char_indices()
            .nth((column as usize).checked_sub(1)?)
            .map_or(text.len(), |(i, _)| i);
        let mut path = Vec::new();
        find(&self.root, line, col, &mut path).then_some(path)
    }

    fn set(&mut self, map: &[Seg], key: &str, value: &Value) -> Result<()> {
        let node = self.node(map)?.clone();
        let unit = self.unit();
        match &node.kind {
            YKind::Map(entries) => {
                if let Some(e) = entries.iter().rev().find(|e| e.key == key) {
                    let single = e.value.first == e.value.last && e.value.first == e.line;
                    if is_scalar(value) && single {
                        let end = match e.value.kind {
                            YKind::Null => None,
                            _ => Some(scalar_end(&self.lines[e.line], e.value.col)),
                        };
                        self.set_inline(e.line, e.colon, end, &scalar(value));
                    } else if single && self.is_empty_value(e) {
                        // An empty value (`key:`, `key: []`) takes the block below its key,
                        // which keeps a comment on the key's line.
                        let mut path = map.to_vec();
                        path.push(Seg::Key(key.to_owned()));
                        let line = e.line;
                        let col = self.open_empty(&path)?;
                        let pad = " ".repeat(col);
                        let block = match value {
                            Value::Array(items) => items
                                .iter()
                                .flat_map(|i| render_item(i, 1, unit))
                                .collect::<Vec<_>>(),
                            Value::Object(m) => m
                                .iter()
                                .flat_map(|(k, v)| render_entry(k, v, unit))
                                .collect(),
                            _ => Vec::new(),
                        };
                        self.insert_lines(
                            line + 1,
                            block.into_iter().map(|l| format!("{pad}{l}")).collect(),
                        );
                    } else {
                        // Replace the whole entry, keeping what precedes the key on its line
                        // (a `- ` when the key opens a list item).
                        let prefix = self.lines[e.line][..e.col].to_owned();
                        let mut new = render_entry(key, value, unit);
                        let pad = " ".repeat(e.col);
                        for (i, l) in new.iter_mut().enumerate() {
                            *l = if i == 0 {
                                format!("{prefix}{l}")
                            } else {
                                format!("{pad}{l}")
                            };
                        }
                        let last = e.value.last.max(e.line);
                        self.delete_lines(e.line, last);
                        self.insert_lines(e.line, new);
                    }
                } else {
                    let pad = " ".repeat(node.col);
                    let new = render_entry(key, value, unit)
                        .into_iter()
                        .map(|l| format!("{pad}{l}"))
                        .collect();
                    self.insert_lines(node.last + 1, new);
                }
            }
            YKind::Null if map.is_empty() => {
                // An empty document: the key starts it.
                let at = self.doc_end;
                self.insert_lines(at, render_entry(key, value, unit));
            }
            YKind::Null | YKind::Scalar => {
                let col = self.open_empty(map)?;
                let entry_line = self
                    .entry(map)
                    .map(|e| e.line)
                    .ok_or_else(|| self.show_err(map))?;
                let pad = " ".repeat(col);
                let new = render_entry(key, value, unit)
                    .into_iter()
                    .map(|l| format!("{pad}{l}"))
                    .collect();
                self.insert_lines(entry_line + 1, new);
            }
            YKind::Seq(_) => bail!("expected a mapping at `{}`, found a list", show(map)),
        }
        self.reparse()
    }

    fn remove(&mut self, at: &[Seg]) -> Result<()> {
        let Some((last, parent_path)) = at.split_last() else {
            bail!("cannot remove the whole document");
        };
        let parent = self.node(parent_path)?.clone();
        // Each sibling as (first line, last line), and the index of the one to remove.
        let (spans, index, col) = match (&parent.kind, last) {
            (YKind::Seq(items), Seg::Index(i)) if *i < items.len() => (
                items
                    .iter()
                    .map(|it| (it.line, it.value.last.max(it.line)))
                    .collect::<Vec<_>>(),
                *i,
                items[*i].col,
            ),
            (YKind::Map(entries), Seg::Key(k)) => {
                let i = entries
                    .iter()
                    .rposition(|e| &e.key == k)
                    .ok_or_else(|| err!("no key `{k}`"))?;
                (
                    entries
                        .iter()
                        .map(|e| (e.line, e.value.last.max(e.line)))
                        .collect(),
                    i,
                    entries[i].col,
                )
            }
            _ => return Err(self.show_err(at)),
        };
        let (line, mut end) = spans[index];
        let only = spans.len() == 1;
        if indent(&self.lines[line]) != col {
            // The entry shares its line with its parent (`- key: ..` as the only key).
            return Err(self.show_err(at));
        }
        let mut start = self.with_comments_above(line, col);
        let blank = |from: usize, to: usize| (from..to).all(|l| self.lines[l].trim().is_empty());
        // Siblings set apart by blank lines stay set apart by one run of them: the run
        // after the entry goes with it, or, for the last entry, the run before it.
        if let Some(&(next, _)) = spans.get(index + 1) {
            let next = self.with_comments_above(next, col);
            if next > end + 1 && blank(end + 1, next) {
                end = next - 1;
            }
        } else if let Some(&(_, prev_end)) = index.checked_sub(1).and_then(|p| spans.get(p))
            && start > prev_end + 1
            && blank(prev_end + 1, start)
        {
            start = prev_end + 1;
        }
        self.delete_lines(start, end);
        if only {
            // The emptied container keeps its key, written as an empty flow collection.
            let empty = if matches!(parent.kind, YKind::Seq(_)) {
                "[]"
            } else {
                "{}"
            };
            // The key line precedes the deleted lines, so its index is unchanged.
            let entry = self.entry(parent_path).cloned();
            match entry {
                Some(e) => self.set_inline(e.line, e.colon, None, empty),
                None if parent_path.is_empty() => {}
                None => return Err(self.show_err(parent_path)),
            }
        }
        self.reparse()
    }

    fn push(&mut self, seq: &[Seg], value: &Value) -> Result<()> {
        let node = self.node(seq)?.clone();
        match &node.kind {
            YKind::Seq(items) => {
                let gap = items
                    .first()
                    .filter(|i| i.value.first == i.line)
                    .map_or(1, |i| i.value.col - i.col - 1);
                let pad = " ".repeat(node.col);
                let mut new: Vec<String> = render_item(value, gap, self.unit())
                    .into_iter()
                    .map(|l| format!("{pad}{l}"))
                    .collect();
                // Items set apart by blank lines get one before the new item too.
                if let [a, b, ..] = items.as_slice()
                    && (a.value.last.max(a.line) + 1..b.line)
                        .any(|l| self.lines[l].trim().is_empty())
                {
                    new.insert(0, String::new());
                }
                self.insert_lines(node.last + 1, new);
            }
            YKind::Null | YKind::Scalar => {
                let col = self.open_empty(seq)?;
                let entry_line = self
                    .entry(seq)
                    .map(|e| e.line)
                    .ok_or_else(|| self.show_err(seq))?;
                let pad = " ".repeat(col);
                let new = render_item(value, 1, self.unit())
                    .into_iter()
                    .map(|l| format!("{pad}{l}"))
                    .collect();
                self.insert_lines(entry_line + 1, new);
            }
            YKind::Map(_) => bail!("expected a list at `{}`, found a mapping", show(seq)),
        }
        self.reparse()
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for (line, eol) in self.lines.iter().zip(&self.eols) {
            out.push_str(line);
            out.push_str(eol);
        }
        out
    }
}

/// Finds the mapping whose first key is at (`line`, `col`), recording its path.
fn find(node: &YNode, line: usize, col: usize, path: &mut Vec<Seg>) -> bool {
    match &node.kind {
        YKind::Map(entries) => {
            if entries
                .first()
                .is_some_and(|e| e.line == line && e.col == col)
            {
                return true;
            }
            for e in entries {
                path.push(Seg::Key(e.key.clone()));
                if find(&e.value, line, col, path) {
                    return true;
                }
                path.pop();
            }
        }
        YKind::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                if find(&item.value, line, col, path) {
                    return true;
                }
                path.pop();
            }
        }
        YKind::Scalar | YKind::Null => {}
    }
    false
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Whether a line is blank or only a comment.
fn is_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

fn is_dash(rest: &str) -> bool {
    rest == "-" || rest.starts_with("- ") || rest.starts_with("-\t")
}

/// The end of the scalar that starts at `col` on `line` (before a trailing comment).
fn scalar_end(line: &str, col: usize) -> usize {
    let rest = &line[col..];
    if let Some(q @ ('"' | '\'')) = rest.chars().next()
        && let Some(close) = closing_quote(rest, q)
    {
        return col + close + 1;
    }
    let cut = rest.find(" #").unwrap_or(rest.len());
    col + rest[..cut].trim_end().len()
}

/// The byte index of the quote closing the quoted scalar at the start of `s`.
fn closing_quote(s: &str, q: char) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match (bytes[i], q) {
            (b'\\', '"') => i += 2,
            (b'\'', '\'') if bytes.get(i + 1) == Some(&b'\'') => i += 2,
            (b, _) if b == q as u8 => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The key of a `key: value` mapping entry starting at `col`, with the index of its `:`.
fn key_at(line: &str, col: usize) -> Option<(String, usize)> {
    let rest = line.get(col..)?;
    let first = rest.chars().next()?;
    let (key, after) = match first {
        '"' | '\'' => {
            let close = closing_quote(rest, first)?;
            let raw = &rest[..=close];
            let key = if first == '"' {
                serde_json::from_str::<String>(raw).ok()?
            } else {
                raw[1..raw.len() - 1].replace("''", "'")
            };
            (key, close + 1)
        }
        '[' | '{' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' | '#' | '?' => return None,
        '-' if is_dash(rest) => return None,
        _ => {
            let mut end = None;
            for (i, c) in rest.char_indices() {
                if c == ':' {
                    let next = rest[i + 1..].chars().next();
                    if next.is_none_or(|n| n == ' ' || n == '\t') {
                        end = Some(i);
                        break;
                    }
                }
                if c == '#' && i > 0 && rest[..i].ends_with([' ', '\t']) {
                    return None;
                }
            }
            let end = end?;
            (rest[..end].trim_end().to_owned(), end)
        }
    };
    let tail = &rest[after..];
    let spaces = tail.len() - tail.trim_start_matches([' ', '\t']).len();
    let colon = after + spaces;
    if rest[colon..].starts_with(':')
        && rest[colon + 1..]
            .chars()
            .next()
            .is_none_or(|n| n == ' ' || n == '\t')
    {
        Some((key, col + colon))
    } else {
        None
    }
}

struct Parser<'a> {
    lines: &'a [String],
    end: usize,
}

impl Parser<'_> {
    fn next_content(&self, from: usize) -> Option<usize> {
        (from..self.end).find(|&i| !is_blank(&self.lines[i]))
    }

    /// The node that starts at (`line`, `col`); `parent` is the column of the key or dash
    /// that owns it (`None` at the top).
    fn node(&self, line: usize, col: usize, parent: Option<usize>) -> Result<YNode> {
        let rest = &self.lines[line][col..];
        if rest.starts_with(['&', '!']) {
            // An anchor or a tag: the node is what follows it, on this line or below.
            let token = rest.find([' ', '\t']).unwrap_or(rest.len());
            let after = &rest[token..];
            let next = col + token + (after.len() - after.trim_start_matches([' ', '\t']).len());
            let tail = &self.lines[line][next..];
            if !tail.is_empty() && !tail.starts_with('#') {
                return self.node(line, next, parent);
            }
            return match self.next_content(line + 1) {
                Some(n) if parent.is_none_or(|p| indent(&self.lines[n]) > p) => {
                    self.node(n, indent(&self.lines[n]), parent)
                }
                _ => Ok(null_at(line, self.lines[line].len())),
            };
        }
        if is_dash(rest) {
            self.seq(line, col)
        } else if key_at(&self.lines[line], col).is_some() {
            self.map(line, col)
        } else {
            Ok(self.scalar(line, col, parent))
        }
    }

    fn seq(&self, line: usize, col: usize) -> Result<YNode> {
        let mut items = Vec::new();
        let mut cur = line;
        loop {
            let text = &self.lines[cur];
            let after = &text[col + 1..];
            let content = col + 1 + (after.len() - after.trim_start_matches([' ', '\t']).len());
            let value = if text[content..].is_empty() || text[content..].starts_with('#') {
                match self.next_content(cur + 1) {
                    Some(n) if indent(&self.lines[n]) > col => {
                        self.node(n, indent(&self.lines[n]), Some(col))?
                    }
                    _ => null_at(cur, text.len()),
                }
            } else {
                self.node(cur, content, Some(col))?
            };
            let last = value.last.max(cur);
            items.push(YItem {
                line: cur,
                col,
                value,
            });
            match self.next_content(last + 1) {
                Some(n) if indent(&self.lines[n]) == col && is_dash(&self.lines[n][col..]) => {
                    cur = n;
                }
                _ => break,
            }
        }
        let last = items.last().map_or(line, |i| i.value.last.max(i.line));
        Ok(YNode {
            first: line,
            col,
            last,
            kind: YKind::Seq(items),
        })
    }

    fn map(&self, line: usize, col: usize) -> Result<YNode> {
        let mut entries = Vec::new();
        let mut cur = line;
        while let Some((key, colon)) = key_at(&self.lines[cur], col) {
            let text = &self.lines[cur];
            let after = &text[colon + 1..];
            let vcol = colon + 1 + (after.len() - after.trim_start_matches([' ', '\t']).len());
            let value = if text[vcol..].is_empty() || text[vcol..].starts_with('#') {
                match self.next_content(cur + 1) {
                    Some(n) if indent(&self.lines[n]) > col => {
                        self.node(n, indent(&self.lines[n]), Some(col))?
                    }
                    // A list may sit at the same indentation as its key.
                    Some(n) if indent(&self.lines[n]) == col && is_dash(&self.lines[n][col..]) => {
                        self.seq(n, col)?
                    }
                    _ => null_at(cur, colon + 1),
                }
            } else if text[vcol..].starts_with(['&', '!']) {
                self.node(cur, vcol, Some(col))?
            } else {
                self.scalar(cur, vcol, Some(col))
            };
            let last = value.last.max(cur);
            entries.push(YEntry {
                key,
                line: cur,
                col,
                colon,
                value,
            });
            match self.next_content(last + 1) {
                Some(n)
                    if indent(&self.lines[n]) == col
                        && !is_dash(&self.lines[n][col..])
                        && key_at(&self.lines[n], col).is_some() =>
                {
                    cur = n;
                }
                _ => break,
            }
        }
        if entries.is_empty() {
            bail!("line {}: expected `key: value`", line + 1);
        }
        let last = entries.last().map_or(line, |e| e.value.last.max(e.line));
        Ok(YNode {
            first: line,
            col,
            last,
            kind: YKind::Map(entries),
        })
    }

    /// A scalar or flow value starting at (`line`, `col`), with the lines it continues on.
    fn scalar(&self, line: usize, col: usize, parent: Option<usize>) -> YNode {
        let text = &self.lines[line];
        let rest = &text[col..];
        let deeper = |l: &str| parent.is_none_or(|p| indent(l) > p);
        let mut last = line;
        match rest.chars().next() {
            Some('|' | '>') => {
                // A block scalar: every following line more indented than its owner, blank
                // lines and `#` lines included.
                let mut i = line + 1;
                while i < self.end {
                    let l = &self.lines[i];
                    if l.trim().is_empty() {
                        i += 1;
                        continue;
                    }
                    if !deeper(l) {
                        break;
                    }
                    last = i;
                    i += 1;
                }
            }
            Some(open @ ('[' | '{' | '"' | '\'')) => {
                last = self.flow_end(line, col, open).unwrap_or(line);
            }
            _ => {
                // A plain scalar may continue on more indented lines.
                let mut i = line + 1;
                while let Some(n) = self.next_content(i) {
                    if deeper(&self.lines[n]) && !self.lines[n].trim_start().starts_with('#') {
                        last = n;
                        i = n + 1;
                    } else {
                        break;
                    }
                }
            }
        }
        YNode {
            first: line,
            col,
            last,
            kind: YKind::Scalar,
        }
    }

    /// The line where the flow collection or quoted scalar opened at (`line`, `col`) ends.
    fn flow_end(&self, line: usize, col: usize, open: char) -> Option<usize> {
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        let mut first = true;
        for (l, text) in self.lines.iter().enumerate().take(self.end).skip(line) {
            let start = if l == line { col } else { 0 };
            let mut chars = text[start..].char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                match quote {
                    Some('"') if c == '\\' => {
                        chars.next();
                    }
                    Some(q) if c == q => {
                        if q == '\'' && chars.peek().is_some_and(|(_, n)| *n == '\'') {
                            chars.next();
                        } else {
                            quote = None;
                            if depth == 0 && matches!(open, '"' | '\'') {
                                return Some(l);
                            }
                        }
                    }
                    Some(_) => {}
                    None => match c {
                        '"' | '\'' if first || matches!(open, '[' | '{') => quote = Some(c),
                        '[' | '{' => depth += 1,
                        ']' | '}' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                return Some(l);
                            }
                        }
                        '#' if i > 0 && text[start..][..i].ends_with(' ') => break,
                        _ => {}
                    },
                }
                first = false;
            }
        }
        None
    }
}

fn null_at(line: usize, col: usize) -> YNode {
    YNode {
        first: line,
        col,
        last: line,
        kind: YKind::Null,
    }
}

fn is_scalar(value: &Value) -> bool {
    !matches!(value, Value::Object(m) if !m.is_empty())
        && !matches!(value, Value::Array(a) if !a.is_empty())
}

/// Words a plain scalar must not be, or it would read as something other than a string.
const RESERVED: [&str; 12] = [
    "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n", ".inf", ".nan",
];

/// A scalar as YAML: plain when that reads back as the same string, else double-quoted
/// (JSON string syntax is valid YAML).
pub(crate) fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => {
            let plain = !s.is_empty()
                && !s.starts_with(|c: char| {
                    c.is_ascii_digit() || c.is_whitespace() || "-?:,[]{}#&*!|>'\"%@`+".contains(c)
                })
                && !s.ends_with(|c: char| c.is_whitespace() || c == ':')
                && !s.contains(": ")
                && !s.contains(" #")
                && !s.chars().any(|c| c.is_control() || ",[]{}".contains(c))
                && !RESERVED.contains(&s.to_ascii_lowercase().as_str());
            if plain { s.clone() } else { value.to_string() }
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(scalar).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", scalar(&Value::String(k.clone())), scalar(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// `key: value` as block YAML lines at indentation zero.
fn render_entry(key: &str, value: &Value, unit: usize) -> Vec<String> {
    let key = scalar(&Value::String(key.to_owned()));
    let pad = " ".repeat(unit);
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut out = vec![format!("{key}:")];
            for (k, v) in map {
                out.extend(
                    render_entry(k, v, unit)
                        .into_iter()
                        .map(|l| format!("{pad}{l}")),
                );
            }
            out
        }
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            let mut out = vec![format!("{key}:")];
            for item in items {
                out.extend(
                    render_item(item, 1, unit)
                        .into_iter()
                        .map(|l| format!("{pad}{l}")),
                );
            }
            out
        }
        other => vec![format!("{key}: {}", scalar(other))],
    }
}

/// A list item as block YAML lines with its dash at indentation zero and `gap` spaces
/// between the dash and the content (one, usually).
fn render_item(value: &Value, gap: usize, unit: usize) -> Vec<String> {
    let lead = format!("-{}", " ".repeat(gap));
    let pad = " ".repeat(gap + 1);
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut out = Vec::new();
            for (k, v) in map {
                for l in render_entry(k, v, unit) {
                    out.push(if out.is_empty() {
                        format!("{lead}{l}")
                    } else {
                        format!("{pad}{l}")
                    });
                }
            }
            out
        }
        other => vec![format!("{lead}{}", scalar(other))],
    }
}
