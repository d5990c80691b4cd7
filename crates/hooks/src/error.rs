//! The facade's error type.

/// Why the engine could not be built or reloaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The config did not load: every problem of every file, with file:line:col.
    #[error(transparent)]
    Config(hooks_config::Error),
    /// An executor could not be built (an invalid MCP server entry, say).
    #[error(transparent)]
    Exec(#[from] hooks_exec::Error),
    /// The config files could not be watched.
    #[error("cannot watch the config files: {0}")]
    Watch(String),
}

impl Error {
    /// The config diagnostics, if this is a config error.
    pub fn diagnostics(&self) -> &[hooks_config::Diagnostic] {
        match self {
            Error::Config(e) => e.diagnostics(),
            Error::Exec(_) | Error::Watch(_) => &[],
        }
    }
}
