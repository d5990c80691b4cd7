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
    /// A config file could not be edited or written (the bridge's install).
    #[error(transparent)]
    Edit(#[from] hooks_config::edit::Error),
    /// The agent bridge could not do what it was asked: what failed, and the error that
    /// led to it if any (`{:#}` or the source chain gives the whole story).
    #[error("{message}")]
    Bridge {
        /// What failed.
        message: String,
        /// What led to it.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
    },
}

impl Error {
    /// A bridge error that says `message`.
    pub fn bridge(message: impl std::fmt::Display) -> Error {
        Error::Bridge {
            message: message.to_string(),
            source: None,
        }
    }

    /// This error and its causes, each after a `: `, as `anyhow` shows an error with
    /// `{:#}`.
    pub fn chain(&self) -> String {
        let mut text = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(e) = cause {
            text.push_str(": ");
            text.push_str(&e.to_string());
            cause = e.source();
        }
        text
    }

    /// The config diagnostics, if this is a config error.
    pub fn diagnostics(&self) -> &[hooks_config::Diagnostic] {
        match self {
            Error::Config(e) => e.diagnostics(),
            Error::Exec(_) | Error::Watch(_) | Error::Edit(_) | Error::Bridge { .. } => &[],
        }
    }
}

#[cfg(feature = "bridge")]
/// Adds a message over a failure: `cannot read x` with the reason as its source.
pub(crate) trait Context<T> {
    /// The failure as the cause of `message`.
    fn context(self, message: impl std::fmt::Display) -> Result<T, Error>;
    /// The failure as the cause of the message `message` makes, made only on failure.
    fn with_context<M: std::fmt::Display>(self, message: impl FnOnce() -> M) -> Result<T, Error>;
}

#[cfg(feature = "bridge")]
impl<T, E: std::error::Error + Send + Sync + 'static> Context<T> for Result<T, E> {
    fn context(self, message: impl std::fmt::Display) -> Result<T, Error> {
        self.map_err(|e| Error::Bridge {
            message: message.to_string(),
            source: Some(Box::new(e)),
        })
    }

    fn with_context<M: std::fmt::Display>(self, message: impl FnOnce() -> M) -> Result<T, Error> {
        self.map_err(|e| Error::Bridge {
            message: message().to_string(),
            source: Some(Box::new(e)),
        })
    }
}

#[cfg(feature = "bridge")]
impl<T> Context<T> for Option<T> {
    fn context(self, message: impl std::fmt::Display) -> Result<T, Error> {
        self.ok_or_else(|| Error::bridge(message))
    }

    fn with_context<M: std::fmt::Display>(self, message: impl FnOnce() -> M) -> Result<T, Error> {
        self.ok_or_else(|| Error::bridge(message()))
    }
}
