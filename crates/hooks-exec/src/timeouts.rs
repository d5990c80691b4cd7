//! How long a hook may run: its own timeout, else the default of the one table in
//! `hooks-core` ([`hooks_core::default_timeout`]), never more than a ceiling.

use std::time::Duration;

use hooks_core::{Dialect, HookSpec};

/// The largest timeout any hook gets, unless changed with [`Timeouts::with_max`]
/// (`hooks_core::MAX_TIMEOUT`, 300 s).
pub use hooks_core::MAX_TIMEOUT;

/// How long a hook may run: its own `timeout`, else its default, never more than a
/// ceiling (300 s unless changed).
///
/// The defaults are [`hooks_core::default_timeout`]'s, per dialect, handler type and event
/// (the table is in its docs); the config loaders give a loaded hook that names no timeout
/// the same value, so a hook gets the same time whether it came from a file or from code.
/// [`Timeouts::with_default`] replaces every default of one dialect for hooks without a
/// `timeout` of their own.
#[derive(Clone, Debug)]
pub struct Timeouts {
    overrides: Vec<(Dialect, Duration)>,
    max: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            overrides: Vec::new(),
            max: MAX_TIMEOUT,
        }
    }
}

impl Timeouts {
    /// Replaces the default for every hook type of `dialect`.
    #[must_use]
    pub fn with_default(mut self, dialect: Dialect, timeout: Duration) -> Timeouts {
        self.overrides.retain(|(d, _)| *d != dialect);
        self.overrides.push((dialect, timeout));
        self
    }

    /// Sets the ceiling every timeout is clamped to.
    #[must_use]
    pub fn with_max(mut self, max: Duration) -> Timeouts {
        self.max = max;
        self
    }

    /// The ceiling.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// The default for `spec` (its dialect, handler type and event), before clamping.
    pub fn default_for(&self, spec: &HookSpec) -> Duration {
        if let Some((_, t)) = self.overrides.iter().find(|(d, _)| *d == spec.dialect) {
            return *t;
        }
        hooks_core::default_timeout_for(spec.dialect, &spec.action, &spec.event)
    }

    /// The timeout `spec` runs with: its own, else the default, clamped to the ceiling.
    pub fn effective(&self, spec: &HookSpec) -> Duration {
        spec.timeout
            .unwrap_or_else(|| self.default_for(spec))
            .min(self.max)
    }
}
