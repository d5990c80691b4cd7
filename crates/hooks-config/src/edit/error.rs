//! The editors' error: what went wrong, as a sentence, with what led to it.
//!
//! An [`Error`] is a message and, optionally, the error it was caused by (a file that
//! could not be read, a config that did not load). `Display` shows the message only;
//! the alternate form (`{:#}`) and [`std::error::Error::source`] give the whole chain,
//! so a command line prints `cannot write x: permission denied`.

use std::fmt;

/// Why an edit, a write or a migration failed.
pub struct Error(Repr);

enum Repr {
    /// A message, with the error that led to it if any.
    Message {
        message: String,
        source: Option<Box<Error>>,
    },
    /// Another error, shown as it is.
    Other(Box<dyn std::error::Error + Send + Sync + 'static>),
}

/// The result of an edit.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error that says `message`.
    pub fn msg(message: impl fmt::Display) -> Error {
        Error(Repr::Message {
            message: message.to_string(),
            source: None,
        })
    }

    /// This error, as the cause of one that says `message`.
    #[must_use]
    pub fn context(self, message: impl fmt::Display) -> Error {
        Error(Repr::Message {
            message: message.to_string(),
            source: Some(Box::new(self)),
        })
    }

    fn other(e: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error(Repr::Other(Box::new(e)))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Message { message, .. } => f.write_str(message)?,
            Repr::Other(e) => write!(f, "{e}")?,
        }
        if f.alternate() {
            let mut cause = std::error::Error::source(self);
            while let Some(e) = cause {
                write!(f, ": {e}")?;
                cause = e.source();
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:#}")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Repr::Message { source, .. } => source.as_deref().map(|e| e as _),
            Repr::Other(e) => e.source(),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::other(e)
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        Error::other(e)
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::other(e)
    }
}

impl From<toml_edit::TomlError> for Error {
    fn from(e: toml_edit::TomlError) -> Error {
        Error::other(e)
    }
}

/// Adds a message to a failure, as [`Error::context`] does: `cannot read x` over the
/// reason.
pub(crate) trait Context<T> {
    /// The failure as the cause of `message`.
    fn context(self, message: impl fmt::Display) -> Result<T>;
    /// The failure as the cause of the message `message` makes, made only on failure.
    fn with_context<M: fmt::Display>(self, message: impl FnOnce() -> M) -> Result<T>;
}

impl<T, E: Into<Error>> Context<T> for std::result::Result<T, E> {
    fn context(self, message: impl fmt::Display) -> Result<T> {
        self.map_err(|e| e.into().context(message))
    }

    fn with_context<M: fmt::Display>(self, message: impl FnOnce() -> M) -> Result<T> {
        self.map_err(|e| e.into().context(message()))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, message: impl fmt::Display) -> Result<T> {
        self.ok_or_else(|| Error::msg(message))
    }

    fn with_context<M: fmt::Display>(self, message: impl FnOnce() -> M) -> Result<T> {
        self.ok_or_else(|| Error::msg(message()))
    }
}

/// An [`Error`] saying the formatted message.
macro_rules! err {
    ($msg:literal $(,)?) => {
        $crate::edit::Error::msg(format!($msg))
    };
    ($msg:expr $(,)?) => {
        $crate::edit::Error::msg($msg)
    };
    ($fmt:expr, $($arg:tt)*) => {
        $crate::edit::Error::msg(format!($fmt, $($arg)*))
    };
}

/// Returns early with an [`Error`] saying the formatted message.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::edit::err!($($arg)*))
    };
}

pub(crate) use {bail, err};
