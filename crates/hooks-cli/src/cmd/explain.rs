//! `hooks explain`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ExplainArgs;

/// Runs `hooks explain`.
pub fn run(_args: &ExplainArgs) -> Result<u8> {
    anyhow::bail!("`hooks explain` is not built yet")
}
