//! Checks of the code blocks in `docs/`, the README and ARCHITECTURE.md: every Rust block
//! is compiled, every config block marked for checking loads, and every command shown with
//! its output is a session that a test runs.
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
//!
//! A command shown with its output is a `console` session (the format is in
//! [`crate::markdown`]); the `hooks` command line's test `docs::sessions_match_the_binary`
//! runs every one with the freshly built binary and compares the output. Here each session
//! must parse and name only files the page holds above it, and a `sh` block (commands
//! shown without output, such as install steps, which nothing runs) must hold no `$ `
//! prompt and must not be followed directly by a block of its output.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::markdown::{self, blocks};

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

/// The pages, as [`markdown::pages`] finds them.
fn pages(root: &Path) -> Result<Vec<PathBuf>> {
    markdown::pages(root).context("cannot read docs/")
}

/// A page read for checking: its path, its name as problems show it (relative to the
/// root) and its text.
struct Page {
    path: PathBuf,
    shown: String,
    text: String,
}

/// Every page under `root`, read.
fn read_pages(root: &Path) -> Result<Vec<Page>> {
    pages(root)?
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let shown = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            Ok(Page { path, shown, text })
        })
        .collect()
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
            // `#[doc = ..]` on an item, `#![doc = ..]` for the module of the file.
            .filter(|l| l.contains("[doc = include_str!(\""))
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
    for Page {
        path: page,
        shown,
        text,
    } in read_pages(root)?
    {
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
    for Page { shown, text, .. } in read_pages(root)? {
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

/// Checks the shell blocks of every page; returns one line per problem and how many
/// sessions there are.
pub(crate) fn check_shell_blocks(root: &Path) -> Result<(Vec<String>, usize)> {
    let mut problems = Vec::new();
    let mut sessions = 0;
    for Page { shown, text, .. } in read_pages(root)? {
        let found = blocks(&text);
        for (i, block) in found.iter().enumerate() {
            let at = format!("{shown}:{}", block.line);
            let shell = matches!(block.language(), "sh" | "bash" | "shell");
            if block.language() == "console" {
                sessions += 1;
                if let Err(e) = markdown::session(block) {
                    problems.push(format!("{at}: {e}"));
                }
                for name in block.session_files().unwrap_or_default() {
                    if !found[..i].iter().any(|b| b.file_name() == Some(name)) {
                        problems.push(format!(
                            "{at}: the session asks for `{name}`, but no block above it is \
                             marked `<!-- check: config {name} -->` or `<!-- check: file \
                             {name} -->`"
                        ));
                    }
                }
            } else if block.session_files().is_some() {
                problems.push(format!(
                    "{at}: a session marker on a `{}` block; sessions are `console` blocks",
                    block.info
                ));
            } else if shell && block.code.lines().any(|l| l.starts_with("$ ")) {
                problems.push(format!(
                    "{at}: a `$ ` prompt in a `{}` block; a command shown with its output \
                     is a `console` session, which a test runs",
                    block.info
                ));
            }
            let after_shell = i > 0
                && !shell
                && block.follows_block
                && matches!(found[i - 1].language(), "sh" | "bash" | "shell");
            if after_shell {
                problems.push(format!(
                    "{at}: output shown for the `{}` block above, which nothing runs; write \
                     the commands and their output as one `console` session",
                    found[i - 1].info
                ));
            }
        }
    }
    Ok((problems, sessions))
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
    for Page {
        path: page,
        shown,
        text,
    } in read_pages(root)?
    {
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
    use super::{anchor_region, blocks, check_config_blocks, check_rust_blocks, markdown};
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

    /// Every command shown with its output is a well-formed session.
    #[test]
    fn shell_examples_are_sessions() {
        let (problems, sessions) = super::check_shell_blocks(&workspace_root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        assert!(sessions >= 10, "only {sessions} sessions");
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
             comand: ls\n```\n\n[gone](missing.md) and [nowhere](a.md#no-such-part)\n\n\
             ```sh\n$ hooks list\n```\n\n```sh\nhooks list\n```\n\n```text\nTotal: 0 hooks\n```\n\n\
             <!-- check: session gone.yaml -->\n```console\n$ hooks list\n```\n\n\
             ```console\nTotal\n```\n",
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
        let (shell, sessions) = super::check_shell_blocks(&root).unwrap();
        assert_eq!(sessions, 2);
        assert_eq!(
            shell,
            [
                "docs/a.md:18: a `$ ` prompt in a `sh` block; a command shown with its output \
                 is a `console` session, which a test runs",
                "docs/a.md:26: output shown for the `sh` block above, which nothing runs; write \
                 the commands and their output as one `console` session",
                "docs/a.md:31: the session asks for `gone.yaml`, but no block above it is \
                 marked `<!-- check: config gone.yaml -->` or `<!-- check: file gone.yaml -->`",
                "docs/a.md:35: line 36: a session starts with a command (`$ hooks ...`)",
            ]
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn sessions_read_commands_exits_and_outputs() {
        let page = "<!-- check: session a.yaml -->\n```console\n$ hooks run X \\\n  -p '{\"a\": \"#\"}'\nout\n\n\n\
                    $ hooks run Y   # exit 2\n...\n```\n";
        let found = blocks(page);
        assert_eq!(found[0].session_files(), Some(vec!["a.yaml"]));
        let steps = markdown::session(&found[0]).unwrap();
        assert_eq!(
            steps,
            [
                markdown::Step {
                    line: 3,
                    command: "hooks run X \\\n  -p '{\"a\": \"#\"}'".to_owned(),
                    exit: 0,
                    output: vec!["out".to_owned()],
                },
                markdown::Step {
                    line: 8,
                    command: "hooks run Y   # exit 2".to_owned(),
                    exit: 2,
                    output: vec!["...".to_owned()],
                },
            ]
        );
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
