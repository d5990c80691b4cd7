//! `hooks schema`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::SchemaArgs;

/// Runs `hooks schema`.
pub fn run(_args: &SchemaArgs) -> Result<u8> {
    anyhow::bail!("`hooks schema` is not built yet")
}
