//! `hooks schema [--out DIR]`: the JSON Schemas of every config dialect, as `cargo xtask
//! codegen` writes them to `schemas/`.

use std::io::Write;

use anyhow::{Context, Result};

use crate::cli::SchemaArgs;

/// Writes every schema into `--out` (created if missing), or lists their names; exit 0.
pub fn run(args: &SchemaArgs) -> Result<u8> {
    let files = hooks::config::schema_files();
    let mut out = std::io::stdout().lock();
    match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            for file in &files {
                let path = dir.join(file.name);
                std::fs::write(&path, &file.text)
                    .with_context(|| format!("writing {}", path.display()))?;
                writeln!(out, "wrote {}", path.display())?;
            }
        }
        None => {
            for file in &files {
                writeln!(out, "{}", file.name)?;
            }
        }
    }
    Ok(0)
}
