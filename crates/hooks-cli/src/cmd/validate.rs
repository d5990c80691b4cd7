//! `hooks validate`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ValidateArgs;

/// Checks config files.
pub fn run(_args: &ValidateArgs) -> Result<u8> {
    anyhow::bail!("`hooks validate` is not built yet")
}
