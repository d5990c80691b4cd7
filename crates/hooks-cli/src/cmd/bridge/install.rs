//! `hooks install AGENT`, `hooks uninstall AGENT` and `hooks doctor`.

use anyhow::Result;

use crate::cli::{DoctorArgs, InstallArgs};

/// Writes the bridge's entries into the agent's settings file.
pub fn install(_args: &InstallArgs) -> Result<u8> {
    anyhow::bail!("not yet")
}

/// Restores the agent's settings file.
pub fn uninstall(_args: &InstallArgs) -> Result<u8> {
    anyhow::bail!("not yet")
}

/// Shows what is installed where.
pub fn doctor(_args: &DoctorArgs) -> Result<u8> {
    anyhow::bail!("not yet")
}
