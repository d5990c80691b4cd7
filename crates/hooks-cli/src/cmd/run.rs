//! `hooks run`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::RunArgs;

/// Runs `hooks run`.
pub fn run(_args: &RunArgs) -> Result<u8> {
    anyhow::bail!("`hooks run` is not built yet")
}
