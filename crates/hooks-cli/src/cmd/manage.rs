//! `hooks manage`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::ManageArgs;

/// Runs `hooks manage`.
pub fn run(_args: &ManageArgs) -> Result<u8> {
    anyhow::bail!("`hooks manage` is not built yet")
}
