//! `hooks serve`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ServeArgs;

/// Runs `hooks serve`.
pub fn run(_args: &ServeArgs) -> Result<u8> {
    anyhow::bail!("`hooks serve` is not built yet")
}
