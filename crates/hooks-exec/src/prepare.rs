//! Preparing a hook right before it runs: the step where a host fills in what must not be
//! held in the loaded config, such as secrets, and names the values the runner must mask.

use std::fmt;

use hooks_core::{HookSpec, Redactor};

/// Turns a hook as loaded into the hook to run, right before each run.
///
/// The `hooks` facade uses it to fill in `{{ secrets.NAME }}` tokens, so that secret values
/// live only for the run and never in the loaded config, its `Debug` output or the audit
/// log. A preparation that fails **fails closed**: the hook reports a block (on events that
/// can be blocked) with the message as its reason, whatever its `on_failure` says, because
/// a hook that cannot be prepared must not be skipped silently.
///
/// Every value a preparation puts into a hook that must not leave it goes into the
/// [`Prepared`]'s [`Redactor`]: the runner masks those values in everything the hook's run
/// yields (its outcome's reason, messages, context, system message, rewritten input and
/// failure message) **before** the outcome reaches tracing, the audit log, the notification
/// sink, the aggregate or the caller. A hook's own stdout and stderr, and the executors'
/// error messages (a spawn error naming a path, a transport error naming a URL), are
/// therefore masked too.
pub trait Prepare: Send + Sync {
    /// `Ok(None)`: run `spec` as it is. `Ok(Some(prepared))`: run its spec instead (same
    /// id, same provenance) and mask its secrets. `Err(message)`: do not run; the message
    /// names the hook and what was missing, and must not contain a secret.
    fn prepare(&self, spec: &HookSpec) -> Result<Option<Prepared>, String>;
}

/// The hook to run, and the values the runner masks in what its run yields.
///
/// Its `Debug` shows the spec with the values masked.
#[derive(Clone)]
pub struct Prepared {
    /// The hook to run, with the values in it: hand it to the executor, do not log it.
    pub spec: HookSpec,
    /// The values to mask, with their masks.
    pub redactor: Redactor,
}

impl Prepared {
    /// Runs `spec`, masking nothing.
    pub fn new(spec: HookSpec) -> Prepared {
        Prepared {
            spec,
            redactor: Redactor::new(),
        }
    }

    /// Masks `redactor`'s values in what the run yields.
    #[must_use]
    pub fn with_redactor(mut self, redactor: Redactor) -> Prepared {
        self.redactor = redactor;
        self
    }
}

impl fmt::Debug for Prepared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spec = format!("{:?}", self.spec);
        f.debug_struct("Prepared")
            .field("spec", &format_args!("{}", self.redactor.redact(&spec)))
            .field("redactor", &self.redactor)
            .finish()
    }
}
