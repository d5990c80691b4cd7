//! Default timeouts per dialect and hook type, and the ceiling every timeout is clamped to.

use std::time::Duration;

use hooks_core::{Action, Dialect, HookSpec, PromptMode};

/// The largest timeout any hook gets, unless changed with [`Timeouts::with_max`].
pub const MAX_TIMEOUT: Duration = Duration::from_secs(300);

/// How long a hook may run: its own `timeout`, else its dialect's default, never more than
/// a ceiling (300 s unless changed).
///
/// The built-in defaults follow each seed system's documentation:
///
/// | dialect   | command, http, mcp_tool | prompt (evaluate) | prompt (agent) | prompt (inject), permission |
/// |-----------|-------------------------|-------------------|----------------|-----------------------------|
/// | claude    | 600 s (clamped to 300 s) | 30 s             | 60 s           | no process: 10 s            |
/// | echo      | 10 s                    | 10 s              | 10 s           | 10 s                        |
/// | autohand  | 5 s                     | 5 s               | 5 s            | 5 s                         |
/// | fabro     | 60 s                    | 60 s              | 60 s           | 60 s                        |
/// | native    | 60 s                    | 30 s              | 60 s           | 60 s                        |
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

    /// The default for a hook of `dialect` doing `action`, before clamping.
    pub fn default_for(&self, dialect: Dialect, action: &Action) -> Duration {
        if let Some((_, t)) = self.overrides.iter().find(|(d, _)| *d == dialect) {
            return *t;
        }
        let prompt_mode = match action {
            Action::Prompt(p) => Some(p.mode),
            _ => None,
        };
        let secs = match (dialect, prompt_mode) {
            (Dialect::Echo, _) => 10,
            (Dialect::Autohand, _) => 5,
            (Dialect::Fabro, _) => 60,
            (
                Dialect::Claude | Dialect::Native,
                Some(PromptMode::Evaluate | PromptMode::Answer),
            ) => 30,
            (Dialect::Claude, Some(PromptMode::Agent)) => 60,
            (Dialect::Claude, Some(PromptMode::Inject)) => 10,
            (Dialect::Claude, None) => 600,
            _ => 60,
        };
        Duration::from_secs(secs)
    }

    /// The timeout `spec` runs with: its own, else the default, clamped to the ceiling.
    pub fn effective(&self, spec: &HookSpec) -> Duration {
        spec.timeout
            .unwrap_or_else(|| self.default_for(spec.dialect, &spec.action))
            .min(self.max)
    }
}
