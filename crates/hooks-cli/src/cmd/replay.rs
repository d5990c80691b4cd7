//! `hooks replay`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ReplayArgs;

/// Runs `hooks replay`.
pub fn run(_args: &ReplayArgs) -> Result<u8> {
    anyhow::bail!("`hooks replay` is not built yet")
}
