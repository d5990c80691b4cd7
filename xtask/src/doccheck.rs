//! Checks of the code blocks in `docs/`, the README and ARCHITECTURE.md: every Rust block
//! is compiled, and every config block marked for checking loads.
//!
//! A Rust block (a fence whose language is `rust`) must be one of:
//!
//! - in a page a crate includes as documentation (`#[doc = include_str!(..)]`, possibly
//!   through a symlink), so rustdoc compiles and runs it, and not marked `ignore`;
//! - a copy of a region of a compiled source file: the fence is preceded by
//!   `<!-- snippet: PATH#NAME -->`, and the block is exactly the lines between
//!   `// ANCHOR: NAME` and `// ANCHOR_END: NAME` in `PATH` (other anchor lines left out).
//!   `PATH` must be an example a crate's manifest lists, or a file under a crate's `src/`,
//!   `tests/`, `benches/` or `examples/`.
//!
//! Anything else should be marked `text`. A config block preceded by
//! `<!-- check: config FILE_NAME -->` is loaded by hooks-config as if it were a file of that
//! name (which picks the dialect) and must load without errors and hold at least one hook.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// A fenced code block of a Markdown page.
#[derive(Debug)]
pub(crate) struct Block {
    /// 1-based line of the opening fence.
    pub(crate) line: usize,
    /// The info string (`rust`, `rust,ignore`, `yaml`).
    pub(crate) info: String,
    /// The nearest non-blank line before the fence, if it is an HTML comment.
    pub(crate) marker: Option<String>,
    /// The lines between the fences.
    pub(crate) code: String,
}

impl Block {
    fn language(&self) -> &str {
        self.info.split([',', ' ']).next().unwrap_or("")
    }
}

/// The fenced code blocks of `text`.
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut last_nonblank: Option<&str> = None;
    let mut open: Option<(usize, String, Option<String>, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            Some((start, info, marker, code)) => {
                if trimmed.starts_with("```") && trimmed.trim() == "```" {
                    out.push(Block {
                        line: *start,
                        info: std::mem::take(info),
                        marker: marker.take(),
                        code: code.iter().map(|l| format!("{l}\n")).collect(),
                    });
                    open = None;
                } else {
                    code.push(line);
                }
            }
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let marker = last_nonblank
                        .map(str::trim)
                        .filter(|l| l.starts_with("<!--") && l.ends_with("-->"))
                        .map(|l| {
                            l.trim_start_matches("<!--")
                                .trim_end_matches("-->")
                                .trim()
                                .to_owned()
                        });
                    open = Some((i + 1, info.trim().to_owned(), marker, Vec::new()));
                }
            }
        }
        if !line.trim().is_empty() {
            last_nonblank = Some(line);
        }
    }
    out
}

/// The lines of `source` between `// ANCHOR: name` and `// ANCHOR_END: name`, without
/// other anchor lines, and without the indentation they share (a region inside a function
/// body reads as top-level code in the docs).
pub(crate) fn anchor_region(source: &str, name: &str) -> Option<String> {
    let start = format!("// ANCHOR: {name}");
    let end = format!("// ANCHOR_END: {name}");
    let mut lines = source.lines();
    lines.by_ref().find(|l| l.trim() == start)?;
    let mut region: Vec<&str> = Vec::new();
    for line in lines {
        let t = line.trim();
        if t == end {
            let indent = region
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.len() - l.trim_start().len())
                .min()
                .unwrap_or(0);
            return Some(
                region
                    .iter()
                    .map(|l| format!("{}\n", l.get(indent..).unwrap_or("").trim_end()))
                    .collect(),
            );
        }
        if !(t.starts_with("// ANCHOR: ") || t.starts_with("// ANCHOR_END: ")) {
            region.push(line);
        }
    }
    None
}

/// The Markdown files whose blocks are checked: `docs/*.md`, the README and
/// ARCHITECTURE.md.
fn pages(root: &Path) -> Result<Vec<PathBuf>> {
    let mut pages = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for entry in std::fs::read_dir(root.join("docs")).context("cannot read docs/")? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    Ok(pages)
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn crate_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join("Cargo.toml").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.push(root.join("xtask"));
    dirs
}

/// Pages that some crate includes as rustdoc documentation (so their blocks are doctests),
/// canonicalized.
fn doctested_pages(root: &Path) -> BTreeSet<PathBuf> {
    let mut files = Vec::new();
    for dir in crate_dirs(root) {
        rust_files(&dir.join("src"), &mut files);
    }
    let mut pages = BTreeSet::new();
    for file in files {
        let Ok(source) = std::fs::read_to_string(&file) else {
            continue;
        };
        for line in source
            .lines()
            .filter(|l| l.contains("#[doc = include_str!(\""))
        {
            let Some(rel) = line
                .split("include_str!(\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
            else {
                continue;
            };
            if let Some(path) = file.parent().and_then(|p| p.join(rel).canonicalize().ok()) {
                pages.insert(path);
            }
        }
    }
    pages
}

/// Source files that are compiled: every example a manifest lists, and the files under a
/// crate's `src/`, `tests/`, `benches/` and `examples/`; canonicalized.
fn compiled_sources(root: &Path) -> BTreeSet<PathBuf> {
    let mut files = Vec::new();
    let mut out = BTreeSet::new();
    for dir in crate_dirs(root) {
        for sub in ["src", "tests", "benches", "examples"] {
            rust_files(&dir.join(sub), &mut files);
        }
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        for line in manifest.lines() {
            if let Some(rel) = line
                .trim()
                .strip_prefix("path = \"")
                .and_then(|r| r.strip_suffix('"'))
                && rel.ends_with(".rs")
            {
                files.push(dir.join(rel));
            }
        }
    }
    for file in files {
        if let Ok(path) = file.canonicalize() {
            out.insert(path);
        }
    }
    out
}

/// Checks every Rust block of every page; returns one line per problem.
pub(crate) fn check_rust_blocks(root: &Path) -> Result<Vec<String>> {
    let doctested = doctested_pages(root);
    let compiled = compiled_sources(root);
    let mut problems = Vec::new();
    for page in pages(root)? {
        let text = std::fs::read_to_string(&page)
            .with_context(|| format!("cannot read {}", page.display()))?;
        let shown = page
            .strip_prefix(root)
            .unwrap_or(&page)
            .display()
            .to_string();
        let is_doctested = page.canonicalize().is_ok_and(|p| doctested.contains(&p));
        for block in blocks(&text).iter().filter(|b| b.language() == "rust") {
            let at = format!("{shown}:{}", block.line);
            let snippet = block
                .marker
                .as_deref()
                .and_then(|m| m.strip_prefix("snippet:"))
                .map(str::trim);
            if let Some(reference) = snippet {
                if let Err(e) = check_snippet(root, &compiled, reference, &block.code) {
                    problems.push(format!("{at}: {e}"));
                }
            } else if !is_doctested {
                problems.push(format!(
                    "{at}: a Rust block that nothing compiles; copy it from a compiled file \
                     with `<!-- snippet: PATH#NAME -->` and `// ANCHOR: NAME` lines there, or \
                     mark it `text`"
                ));
            } else if block.info.split(',').any(|a| a.trim() == "ignore") {
                problems.push(format!(
                    "{at}: an `ignore`d doctest is never compiled; make it compile or mark it \
                     `text`"
                ));
            }
        }
    }
    Ok(problems)
}

fn check_snippet(
    root: &Path,
    compiled: &BTreeSet<PathBuf>,
    reference: &str,
    code: &str,
) -> Result<()> {
    let Some((path, name)) = reference.split_once('#') else {
        bail!("snippet reference `{reference}` is not PATH#NAME");
    };
    let file = root.join(path);
    let canonical = file
        .canonicalize()
        .with_context(|| format!("snippet source `{path}` does not exist"))?;
    if !compiled.contains(&canonical) {
        bail!("snippet source `{path}` is not compiled by any crate (list it as an example)");
    }
    let source = std::fs::read_to_string(&file)?;
    let Some(region) = anchor_region(&source, name) else {
        bail!("`{path}` has no `// ANCHOR: {name}` ... `// ANCHOR_END: {name}` region");
    };
    if region != code {
        bail!("the block differs from `{path}#{name}`; copy the region again");
    }
    Ok(())
}

/// Loads every block marked `<!-- check: config FILE_NAME -->`; returns one line per
/// problem and how many blocks were checked.
pub(crate) fn check_config_blocks(root: &Path) -> Result<(Vec<String>, usize)> {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in pages(root)? {
        let text = std::fs::read_to_string(&page)?;
        let shown = page
            .strip_prefix(root)
            .unwrap_or(&page)
            .display()
            .to_string();
        for block in blocks(&text) {
            let Some(name) = block
                .marker
                .as_deref()
                .and_then(|m| m.strip_prefix("check: config "))
                .map(str::trim)
            else {
                continue;
            };
            checked += 1;
            let at = format!("{shown}:{}", block.line);
            let options = hooks_config::LoadOptions::new();
            match hooks_config::load_str(&block.code, Some(Path::new(name)), &options) {
                Ok(file) if file.hooks().next().is_some() => {}
                Ok(_) => problems.push(format!("{at}: `{name}` loads but holds no hook")),
                Err(e) => problems.push(format!("{at}: `{name}` does not load: {e}")),
            }
        }
    }
    Ok((problems, checked))
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, other punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The anchors of a page: its headings' slugs and explicit `<a id="..">` anchors.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#')));
        }
        let mut rest = line;
        while let Some(at) = rest.find("<a id=\"") {
            rest = &rest[at + 7..];
            if let Some(end) = rest.find('"') {
                out.insert(rest[..end].to_owned());
            }
        }
    }
    out
}

/// Relative Markdown links `[..](target)` outside code blocks, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                let target = &rest[..end];
                if !target.contains("://") && !target.starts_with("mailto:") {
                    out.push((i + 1, target.to_owned()));
                }
            }
        }
    }
    out
}

/// Checks that every relative link of every page names an existing file and, for a
/// Markdown page, an existing anchor; returns one line per broken link.
pub(crate) fn check_links(root: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for page in pages(root)? {
        let text = std::fs::read_to_string(&page)?;
        let shown = page
            .strip_prefix(root)
            .unwrap_or(&page)
            .display()
            .to_string();
        let dir = page.parent().unwrap_or(root);
        for (line, target) in links(&text) {
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            if !linked.exists() {
                problems.push(format!("{shown}:{line}: `{target}`: no such file"));
                continue;
            }
            if let Some(anchor) = anchor
                && linked.extension().is_some_and(|e| e == "md")
            {
                let linked_text = std::fs::read_to_string(&linked)?;
                if !anchors(&linked_text).contains(anchor) {
                    problems.push(format!("{shown}:{line}: `{target}`: no such heading"));
                }
            }
        }
    }
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::{anchor_region, blocks, check_config_blocks, check_rust_blocks};
    use crate::workspace_root;

    /// Every Rust block in the docs is compiled: doctested, or copied from compiled code.
    #[test]
    fn doc_snippets_match_their_sources() {
        let problems = check_rust_blocks(&workspace_root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// The config examples of the docs load in their dialect.
    #[test]
    fn getting_started_configs_load() {
        let (problems, checked) = check_config_blocks(&workspace_root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        // One per dialect in getting-started.md, at least.
        assert!(checked >= 5, "only {checked} config blocks are checked");
    }

    /// Every relative link in the docs names an existing file and heading.
    #[test]
    fn docs_links_resolve() {
        let problems = super::check_links(&workspace_root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn anchors_follow_github() {
        let page = "# Trust: hooks that arrive\n## Smart commit's message\n```\n# not a heading\n```\n\
                    <a id=\"native-x\"></a>\n";
        let found = super::anchors(page);
        assert!(found.contains("trust-hooks-that-arrive"), "{found:?}");
        assert!(found.contains("smart-commits-message"), "{found:?}");
        assert!(found.contains("native-x"), "{found:?}");
        assert!(!found.contains("not-a-heading"), "{found:?}");
        assert_eq!(
            super::links("see [a](b.md#c) and [d](https://e/f)\n```\n[g](h)\n```\n"),
            [(1, "b.md#c".to_owned())]
        );
    }

    /// A page with an uncompiled Rust block, a config that does not load and broken links
    /// fails each check, naming the line.
    #[test]
    fn broken_pages_are_reported() {
        let root = std::env::temp_dir().join(format!("xtask-doccheck-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::write(
            root.join("README.md"),
            "# Readme\n\nSee [a](docs/a.md#fine).\n",
        )
        .unwrap();
        std::fs::write(root.join("ARCHITECTURE.md"), "# Architecture\n").unwrap();
        std::fs::write(
            root.join("docs/a.md"),
            "# A\n\n## Fine\n\n```rust\nfn main() {}\n```\n\n\
             <!-- check: config hooks.yaml -->\n```yaml\nhooks:\n  - event: PreToolUse\n    \
             comand: ls\n```\n\n[gone](missing.md) and [nowhere](a.md#no-such-part)\n",
        )
        .unwrap();

        let rust = check_rust_blocks(&root).unwrap();
        assert_eq!(rust.len(), 1, "{rust:?}");
        assert!(
            rust[0].starts_with("docs/a.md:5: a Rust block that nothing compiles"),
            "{rust:?}"
        );
        let (config, checked) = check_config_blocks(&root).unwrap();
        assert_eq!(checked, 1);
        assert!(
            config[0].starts_with("docs/a.md:10: `hooks.yaml` does not load"),
            "{config:?}"
        );
        let links = super::check_links(&root).unwrap();
        assert_eq!(
            links,
            [
                "docs/a.md:16: `missing.md`: no such file",
                "docs/a.md:16: `a.md#no-such-part`: no such heading"
            ]
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn blocks_carry_their_marker_and_code() {
        let page = "Text.\n\n<!-- snippet: examples/a.rs#one -->\n\n```rust\nfn a() {}\n```\n\n\
                    ```text\nout\n```\n";
        let found = blocks(page);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].line, 5);
        assert_eq!(
            found[0].marker.as_deref(),
            Some("snippet: examples/a.rs#one")
        );
        assert_eq!(found[0].code, "fn a() {}\n");
        assert_eq!(found[1].info, "text");
        assert_eq!(found[1].marker, None);
    }

    #[test]
    fn anchor_regions_leave_out_nested_markers() {
        let source = "x\n// ANCHOR: outer\na\n// ANCHOR: inner\nb\n// ANCHOR_END: inner\n\
                      // ANCHOR_END: outer\n";
        assert_eq!(anchor_region(source, "outer").as_deref(), Some("a\nb\n"));
        assert_eq!(anchor_region(source, "inner").as_deref(), Some("b\n"));
        assert_eq!(anchor_region(source, "missing"), None);
        assert_eq!(anchor_region("// ANCHOR: open\nno end\n", "open"), None);
        let nested = "fn f() {\n    // ANCHOR: body\n    let a = 1;\n\n    if a {\n        g();\n    }\n    // ANCHOR_END: body\n}\n";
        assert_eq!(
            anchor_region(nested, "body").as_deref(),
            Some("let a = 1;\n\nif a {\n    g();\n}\n")
        );
    }

    /// A block that differs from its source, or names no compiled file, is reported.
    #[test]
    fn stale_and_uncompiled_snippets_are_reported() {
        let root = workspace_root();
        let compiled = super::compiled_sources(&root);
        let region = anchor_region(
            &std::fs::read_to_string(root.join("examples/embedding.rs")).unwrap(),
            "engine",
        )
        .unwrap();
        super::check_snippet(&root, &compiled, "examples/embedding.rs#engine", &region).unwrap();
        let stale = region.replacen("Deny", "Allow", 1);
        let err = super::check_snippet(&root, &compiled, "examples/embedding.rs#engine", &stale)
            .unwrap_err();
        assert!(err.to_string().contains("differs"), "{err}");
        let err = super::check_snippet(&root, &compiled, "README.md#x", "").unwrap_err();
        assert!(err.to_string().contains("not compiled"), "{err}");
    }
}
