//! `hooks list`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ListArgs;

/// Runs `hooks list`.
pub fn run(_args: &ListArgs) -> Result<u8> {
    anyhow::bail!("`hooks list` is not built yet")
}
