//! `hooks enable|disable|add|remove`: being built (see the CLI issue).

use anyhow::Result;

use crate::cli::{AddArgs, EditIdArgs};

/// Enables or disables a hook.
pub fn enable(_args: &EditIdArgs, _on: bool) -> Result<u8> {
    anyhow::bail!("`hooks enable`/`disable` are not built yet")
}

/// Adds a hook.
pub fn add(_args: &AddArgs) -> Result<u8> {
    anyhow::bail!("`hooks add` is not built yet")
}

/// Removes a hook.
pub fn remove(_args: &EditIdArgs) -> Result<u8> {
    anyhow::bail!("`hooks remove` is not built yet")
}
