//! Preparing a hook right before it runs: the step where a host fills in what must not be
//! held in the loaded config, such as secrets.

use hooks_core::HookSpec;

/// Turns a hook as loaded into the hook to run, right before each run.
///
/// The `hooks` facade uses it to fill in `{{ secrets.NAME }}` tokens, so that secret values
/// live only for the run and never in the loaded config, its `Debug` output or the audit
/// log. A preparation that fails **fails closed**: the hook reports a block (on events that
/// can be blocked) with the message as its reason, whatever its `on_failure` says, because
/// a hook that cannot be prepared must not be skipped silently.
pub trait Prepare: Send + Sync {
    /// `Ok(None)`: run `spec` as it is. `Ok(Some(spec))`: run this one instead (same id,
    /// same provenance). `Err(message)`: do not run; the message names the hook and what
    /// was missing, and must not contain a secret.
    fn prepare(&self, spec: &HookSpec) -> Result<Option<HookSpec>, String>;
}
