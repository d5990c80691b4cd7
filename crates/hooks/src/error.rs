//! The facade's error type.

use hooks_config::Diagnostic;

/// Why the engine could not be built or reloaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The config did not load: every problem of every file, with file:line:col.
    #[error("{}", render(.0))]
    Config(Vec<Diagnostic>),
    /// An executor could not be built (an invalid MCP server entry, say).
    #[error(transparent)]
    Exec(#[from] hooks_exec::Error),
    /// The config files could not be watched.
    #[error("cannot watch the config files: {0}")]
    Watch(String),
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl Error {
    /// The config diagnostics, if this is a config error.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Config(d) => d,
            Error::Exec(_) | Error::Watch(_) => &[],
        }
    }
}
