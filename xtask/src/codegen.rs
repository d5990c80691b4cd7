//! `cargo xtask codegen`: writes the generated files, today the JSON Schemas of every
//! config dialect, into `schemas/`.
//!
//! The schemas come from `hooks_config::schema_files()` (sorted keys, a "generated, do not
//! edit" note). `cargo xtask codegen --check` writes nothing and fails if a file is out of
//! date; hooks-config's `committed_schemas_are_fresh` test does the same on every test run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

fn schemas_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("schemas"), |root| root.join("schemas"))
}

/// Writes (or, with `check`, verifies) every generated file.
pub(crate) fn run(check: bool) -> Result<()> {
    let dir = schemas_dir();
    let files = hooks_config::schema_files();
    let mut stale = Vec::new();
    for file in &files {
        let path = dir.join(file.name);
        if ensure_file_contents(&path, &file.text, check)? {
            stale.push(path);
        }
    }
    // A schema no longer generated is stale too.
    for entry in
        std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))?
    {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".schema.json") && !files.iter().any(|f| f.name == name) {
            if check {
                stale.push(path);
            } else {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
                eprintln!("removed {}", path.display());
            }
        }
    }
    if check && !stale.is_empty() {
        bail!(
            "generated files are out of date: {}; run `cargo xtask codegen`",
            stale
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
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
    /// The committed schemas are what codegen would write.
    #[test]
    fn codegen_schemas_are_fresh() {
        if let Err(e) = super::run(true) {
            panic!("{e:#}");
        }
    }
}
