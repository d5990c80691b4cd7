//! `hooks trust`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::TrustArgs;

/// Runs `hooks trust`.
pub fn run(_args: &TrustArgs) -> Result<u8> {
    anyhow::bail!("`hooks trust` is not built yet")
}
