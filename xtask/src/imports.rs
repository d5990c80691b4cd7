//! The import graph of a crate's source files, and its circles: which files import each
//! other, read from `use` lines and `crate::`/`super::` paths, for the tidy test that keeps
//! every circle small.
//!
//! A file is a module (`lib.rs` the root, `a/mod.rs` and `a.rs` the module `a`); an import
//! of `crate::a::b::Name` is an arrow to the deepest module file of that path, followed
//! through the `pub use` re-exports of the module it lands in (`use crate::Error` is an
//! arrow to the file that defines `Error`, not to `lib.rs`). A file's own `mod tests` (after
//! `#[cfg(test)]`) is left out: tests may reach anywhere. A module's arrows to its own
//! submodules are not counted either: declaring children and dispatching to them (a
//! registry's `match`) is the module tree, not a layer; a child's arrow up to its parent is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One crate's source files by module path (`["profile", "claude"]`), with their text.
pub(crate) struct Crate {
    files: BTreeMap<Vec<String>, (PathBuf, String)>,
}

impl Crate {
    /// Reads every `.rs` file under `src` (a crate's `src/`), as modules of the crate root.
    pub(crate) fn read(src: &Path) -> Crate {
        let mut files = BTreeMap::new();
        read_dir(src, src, &mut files);
        Crate { files }
    }

    /// The arrows between files: for each file, the files it imports (itself and its own
    /// submodules left out).
    pub(crate) fn arrows(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let mut out = BTreeMap::new();
        for (module, (path, text)) in &self.files {
            let mut targets = BTreeSet::new();
            let children: Vec<String> = self
                .files
                .keys()
                .filter(|k| k.len() == module.len() + 1 && k.starts_with(module))
                .filter_map(|k| k.last().cloned())
                .collect();
            for import in imports(production(text), &children) {
                let Some(absolute) = self.absolute(module, &import) else {
                    continue;
                };
                if let Some(target) = self.resolve(&absolute, 0)
                    && !target.starts_with(module)
                {
                    targets.insert(self.files[&target].0.clone());
                }
            }
            out.insert(path.clone(), targets);
        }
        out
    }

    /// `import` (`crate::a::B`, `super::c`, `self::d`) as a path from the crate root, for a
    /// file that is `module`; `None` for another crate's path.
    fn absolute(&self, module: &[String], import: &[String]) -> Option<Vec<String>> {
        let (first, rest) = import.split_first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            "super" => {
                let mut m = module.to_vec();
                m.pop();
                m
            }
            child
                if self
                    .files
                    .contains_key(&[module, &[child.to_owned()]].concat()) =>
            {
                let mut m = module.to_vec();
                m.push(child.to_owned());
                m
            }
            _ => return None,
        };
        let mut rest = rest.iter().peekable();
        while rest.peek().is_some_and(|s| *s == "super") {
            base.pop();
            rest.next();
        }
        base.extend(rest.cloned());
        Some(base)
    }

    /// The module file a path from the root lands in: its deepest module, followed through
    /// that module's `pub use` of the path's next name.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Vec<String>> {
        let deepest = (0..=path.len())
            .rev()
            .find(|n| self.files.contains_key(&path[..*n]))?;
        let module = path[..deepest].to_vec();
        let Some(name) = path.get(deepest) else {
            return Some(module);
        };
        if depth < 8 {
            let text = production(&self.files[&module].1);
            for export in reexports(text) {
                // A glob re-export (`pub use a::*`) is not followed: the arrow stays on
                // the module that has it.
                if export.last() == Some(name)
                    && let Some(found) = self
                        .absolute(&module, &export)
                        .and_then(|absolute| self.resolve(&absolute, depth + 1))
                {
                    return Some(found);
                }
            }
        }
        Some(module)
    }
}

fn read_dir(root: &Path, dir: &Path, out: &mut BTreeMap<Vec<String>, (PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_dir(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let mut module: Vec<String> = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                module.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                module.pop();
            }
            if let Ok(text) = std::fs::read_to_string(&path) {
                out.insert(module, (path, text));
            }
        }
    }
}

/// The text of a file without its test module.
fn production(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// Every path a file imports: each leaf of its `use` trees, and every `crate::`,
/// `super::` or `child::` path written in its code (`children`: its child modules).
fn imports(text: &str, children: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for statement in use_statements(text) {
        expand(&statement.tree, &mut Vec::new(), &mut out);
    }
    let starts: Vec<String> = ["crate", "super"]
        .iter()
        .map(|s| (*s).to_owned())
        .chain(children.iter().cloned())
        .map(|s| s + "::")
        .collect();
    for line in code_lines(text) {
        for start in &starts {
            let mut rest = line;
            while let Some(at) = rest.find(start) {
                let boundary = rest[..at]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
                let tail = &rest[at..];
                if boundary && !line.trim_start().starts_with("use ") {
                    let path: Vec<String> = tail
                        .split("::")
                        .map(|s| {
                            s.chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect::<String>()
                        })
                        .take_while(|s| !s.is_empty())
                        .collect();
                    out.push(path);
                }
                rest = &tail[start.len()..];
            }
        }
    }
    out
}

/// The `pub use` trees of a file, as leaf paths (`*` for a glob).
fn reexports(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for statement in use_statements(text) {
        if statement.public {
            expand(&statement.tree, &mut Vec::new(), &mut out);
        }
    }
    out
}

struct UseStatement {
    public: bool,
    tree: String,
}

fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        let t = l.trim_start();
        !(t.starts_with("//") || t.starts_with("/*") || t.starts_with('*'))
    })
}

/// The `use` statements of a file (`pub use`, `pub(crate) use` and plain), each with its
/// tree as written between `use` and `;`.
fn use_statements(text: &str) -> Vec<UseStatement> {
    let code: String = code_lines(text).collect::<Vec<_>>().join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let prefix = before[line_start..].trim();
        let tail = &rest[at + 4..];
        let statement_start = prefix.is_empty()
            || prefix == "pub"
            || (prefix.starts_with("pub(") && prefix.ends_with(')'));
        let Some(end) = tail.find(';') else {
            break;
        };
        if statement_start {
            out.push(UseStatement {
                public: prefix.starts_with("pub"),
                tree: tail[..end].split_whitespace().collect::<Vec<_>>().join(" "),
            });
            rest = &tail[end..];
        } else {
            rest = tail;
        }
    }
    out
}

/// The leaf paths of a use tree (`a::{b, c::{d as e, *}}`): `a::b`, `a::c::d`, `a::c::*`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim().trim_matches(|c| c == ':');
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let depth = prefix.len();
        prefix.extend(head);
        for part in split_top(inner) {
            expand(part, prefix, out);
        }
        prefix.truncate(depth);
    } else if !tree.is_empty() {
        let tree = tree.split(" as ").next().unwrap_or(tree).trim();
        let mut path = prefix.clone();
        path.extend(
            tree.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
        );
        if path.last().is_some_and(|l| l == "self") {
            path.pop();
        }
        out.push(path);
    }
}

/// `a, b::{c, d}, e` split at its top-level commas.
fn split_top(inner: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The circles of a graph: its strongly connected components of more than one file,
/// largest first (Tarjan's algorithm).
pub(crate) fn circles(arrows: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    let nodes: Vec<&PathBuf> = arrows.keys().collect();
    let position: BTreeMap<&PathBuf, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            arrows[*n]
                .iter()
                .filter_map(|t| position.get(t).copied())
                .collect()
        })
        .collect();
    let mut index = vec![usize::MAX; nodes.len()];
    let mut low = vec![0; nodes.len()];
    let mut on_stack = vec![false; nodes.len()];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    // Iterative Tarjan: (node, next edge to look at).
    for root in 0..nodes.len() {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0)];
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[node] == usize::MAX {
                index[node] = next;
                low[node] = next;
                next += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&target) = edges[node].get(*edge) {
                *edge += 1;
                if index[target] == usize::MAX {
                    work.push((target, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(nodes[member].clone());
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    out.push(component);
                }
            }
        }
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(tree: &str) -> Vec<String> {
        let mut out = Vec::new();
        expand(tree, &mut Vec::new(), &mut out);
        out.into_iter().map(|p| p.join("::")).collect()
    }

    #[test]
    fn use_trees_expand_to_their_leaves() {
        assert_eq!(
            leaves("crate::{a::B, c::{d as e, self, *}}"),
            ["crate::a::B", "crate::c::d", "crate::c", "crate::c::*"]
        );
        assert_eq!(leaves("super::x::Y"), ["super::x::Y"]);
    }

    #[test]
    fn a_two_file_loop_is_a_circle_and_a_chain_is_not() {
        let dir = std::env::temp_dir().join(format!("xtask-imports-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("m")).unwrap();
        std::fs::write(
            dir.join("lib.rs"),
            "mod a;\nmod b;\nmod m;\npub use a::A;\n",
        )
        .unwrap();
        std::fs::write(dir.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
        std::fs::write(dir.join("b.rs"), "pub struct B(crate::A);\n").unwrap();
        std::fs::write(dir.join("m/mod.rs"), "mod n;\nuse crate::a::A;\n").unwrap();
        std::fs::write(
            dir.join("m/n.rs"),
            "use super::super::b::B;\n#[cfg(test)]\nmod tests { use crate::m::X; }\n",
        )
        .unwrap();
        let krate = Crate::read(&dir);
        let found = circles(&krate.arrows());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        let names: Vec<String> = found[0]
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["a.rs", "b.rs"]);
    }
}
