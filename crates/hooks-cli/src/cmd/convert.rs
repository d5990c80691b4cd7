//! `hooks convert`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ConvertArgs;

/// Runs `hooks convert`.
pub fn run(_args: &ConvertArgs) -> Result<u8> {
    anyhow::bail!("`hooks convert` is not built yet")
}
