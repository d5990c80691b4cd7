//! `hooks test`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::TestArgs;

/// Runs `hooks test`.
pub fn run(_args: &TestArgs) -> Result<u8> {
    anyhow::bail!("`hooks test` is not built yet")
}
