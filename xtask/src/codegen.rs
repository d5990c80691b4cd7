//! `cargo xtask codegen`: writes the generated files: the JSON Schemas of every config
//! dialect into `schemas/`, and the generated docs, `docs/events.md` (the event catalog)
//! and `docs/config-reference.md` (every schema's keys as tables).
//!
//! The schemas come from `hooks_config::schema_files()` (sorted keys, a "generated, do not
//! edit" note); the pages from `crate::docgen`. `cargo xtask codegen --check` writes
//! nothing and fails if a file is out of date; the tests below do the same on every test
//! run, and hooks-config's `committed_schemas_are_fresh` checks the schemas too.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::{docgen, workspace_root};

/// Which generated files a run covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// `schemas/*.schema.json`.
    Schemas,
    /// `docs/events.md` and `docs/config-reference.md`.
    Docs,
}

/// One generated file: where it goes and what it holds.
struct Generated {
    path: PathBuf,
    text: String,
}

fn generated(root: &Path, part: Part) -> Result<Vec<Generated>> {
    let schemas = hooks_config::schema_files();
    Ok(match part {
        Part::Schemas => schemas
            .into_iter()
            .map(|f| Generated {
                path: root.join("schemas").join(f.name),
                text: f.text,
            })
            .collect(),
        Part::Docs => vec![
            Generated {
                path: root.join("docs/events.md"),
                text: docgen::events_markdown(),
            },
            Generated {
                path: root.join("docs/config-reference.md"),
                text: docgen::config_reference_markdown(&schemas)?,
            },
        ],
    })
}

/// Writes (or, with `check`, verifies) every generated file.
pub(crate) fn run(check: bool) -> Result<()> {
    let stale = ensure(&[Part::Schemas, Part::Docs], check)?;
    if check && !stale.is_empty() {
        bail!("{}", stale_message(&stale));
    }
    Ok(())
}

/// The error text for stale files; names the command that fixes them.
pub(crate) fn stale_message(stale: &[PathBuf]) -> String {
    format!(
        "generated files are out of date: {}; run `cargo xtask codegen`",
        stale
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Makes the files of `parts` current (or, with `check`, only compares them) and returns
/// the ones that were not.
pub(crate) fn ensure(parts: &[Part], check: bool) -> Result<Vec<PathBuf>> {
    let root = workspace_root();
    let mut stale = Vec::new();
    for part in parts {
        let files = generated(&root, *part)?;
        for file in &files {
            if ensure_file_contents(&file.path, &file.text, check)? {
                stale.push(file.path.clone());
            }
        }
        if *part == Part::Schemas {
            stale.extend(remove_orphan_schemas(&root.join("schemas"), &files, check)?);
        }
    }
    Ok(stale)
}

/// A schema no longer generated is stale too: removed, or in check mode reported.
fn remove_orphan_schemas(dir: &Path, files: &[Generated], check: bool) -> Result<Vec<PathBuf>> {
    let mut stale = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".schema.json") && !files.iter().any(|f| f.path == path) {
            if check {
                stale.push(path);
            } else {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
                eprintln!("removed {}", path.display());
            }
        }
    }
    Ok(stale)
}

/// Makes `path` hold `contents`; returns whether it did not. In check mode nothing is
/// written.
fn ensure_file_contents(path: &Path, contents: &str, check: bool) -> Result<bool> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(false);
    }
    if !check {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, contents)
            .with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::{Part, ensure, stale_message};

    #[track_caller]
    fn check_fresh(part: Part) {
        let stale = ensure(&[part], true).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(stale.is_empty(), "{}", stale_message(&stale));
    }

    /// The committed schemas are what codegen would write.
    #[test]
    fn codegen_schemas_are_fresh() {
        check_fresh(Part::Schemas);
    }

    /// `docs/events.md` and `docs/config-reference.md` are what codegen would write.
    #[test]
    fn codegen_docs_are_fresh() {
        check_fresh(Part::Docs);
    }

    /// The event catalog lists every built-in event, each dialect's aliases, and whether
    /// it blocks, as hooks-core says.
    #[test]
    fn events_page_follows_the_catalog() {
        let page = crate::docgen::events_markdown();
        let rows: Vec<&str> = page.lines().filter(|l| l.starts_with("| `")).collect();
        assert_eq!(rows.len(), hooks_config::core::BuiltinEvent::ALL.len());
        let pre = rows
            .iter()
            .find(|r| r.starts_with("| `PreToolUse` |"))
            .expect("a PreToolUse row");
        assert!(
            pre.contains("`pre_tool_use`") && pre.contains("`pre-tool`"),
            "{pre}"
        );
        assert!(
            pre.contains("| `tool_name` (Fabro hooks also `node_id`) | yes |"),
            "{pre}"
        );
        let stop = rows
            .iter()
            .find(|r| r.starts_with("| `Stop` |"))
            .expect("a Stop row");
        assert!(stop.contains("`stop`, `post-response`"), "{stop}");
        let post = rows
            .iter()
            .find(|r| r.starts_with("| `PostToolUse` |"))
            .expect("a PostToolUse row");
        assert!(
            post.contains("| no | `additional_context`, `updated_tool_output`"),
            "{post}"
        );
    }

    /// The config reference has a section per schema and a row per top-level key.
    #[test]
    fn config_reference_lists_every_key() {
        let schemas = hooks_config::schema_files();
        let page = crate::docgen::config_reference_markdown(&schemas).unwrap();
        for file in &schemas {
            let slug = file.name.trim_end_matches(".schema.json");
            assert!(
                page.contains(&format!("\n## {slug}\n")),
                "no section for {slug}"
            );
            let schema: serde_json::Value = serde_json::from_str(&file.text).unwrap();
            for key in schema["properties"].as_object().unwrap().keys() {
                assert!(
                    page.contains(&format!("| `{key}`")),
                    "{slug}: no row for {key}"
                );
            }
        }
        // Definitions are linked, with anchors unique across dialects.
        assert!(page.contains("<a id=\"native-decisionschema\"></a>"));
        assert!(page.contains("<a id=\"echo-decisionschema\"></a>"));
        assert!(page.contains("[*NativeHooks*](#native-nativehooks)"));
    }
}
