//! The crate's error type: what can go wrong setting up execution (as opposed to running a
//! hook, which always yields a reported [`HookOutcome`](hooks_core::HookOutcome)).

use std::io;
use std::path::PathBuf;

/// An error setting up the engine's execution side: opening an audit log, preparing a
/// sandbox, an invalid setting.
///
/// Running a hook never returns this: every way a hook run can go wrong is a
/// [`HookOutcome`](hooks_core::HookOutcome) with a failure, to which the hook's failure
/// policy applies.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file (the audit log, a notification log) could not be opened or written.
    #[error("cannot open `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The sandbox cannot run the command (its program is missing, a path cannot be
    /// mounted).
    #[error("cannot sandbox the hook: {message}")]
    Sandbox {
        /// What is wrong, with a hint where there is one.
        message: String,
    },
    /// A setting is out of range (a concurrency bound of zero, say).
    #[error("invalid setting `{setting}`: {message}")]
    InvalidSetting {
        /// The setting's name, as the builder method spells it.
        setting: &'static str,
        /// Why the value is rejected.
        message: String,
    },
    /// Something that needs a Tokio runtime was set up outside one.
    #[error("{what} must be created inside a Tokio runtime")]
    NoRuntime {
        /// What was being created.
        what: &'static str,
    },
    /// An entry of the HTTP executor's URL allow-list is not a valid pattern.
    #[error("invalid allowed URL pattern `{pattern}`: {reason}")]
    UrlPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong with it, and how to write it instead.
        reason: String,
    },
    /// The HTTP client could not be built (no usable TLS backend, for instance).
    #[cfg(feature = "http")]
    #[error("could not build the HTTP client")]
    HttpClient(#[source] reqwest::Error),
    /// A question put through a command hook's prompt channel got no answer: the channel
    /// is gone (its hook run ended) or unreachable, the question is too large, the run has
    /// asked its questions, or the host's evaluator failed, declined or timed out.
    #[error("{message}")]
    PromptChannel {
        /// What happened, in words for the hook's user.
        message: String,
    },
    /// An OTLP export was not accepted: the collector is unreachable, too slow, or
    /// answered other than 2xx.
    #[cfg(feature = "otel")]
    #[error("OTLP export to `{endpoint}` failed: {message}")]
    OtlpExport {
        /// The endpoint (empty when the signal has none).
        endpoint: String,
        /// What happened.
        message: String,
    },
    /// An MCP server entry is unusable (an invalid URL or header, an empty command).
    #[error("MCP server `{server}`: {reason}")]
    McpServer {
        /// The server's configured name.
        server: String,
        /// What is wrong with the entry.
        reason: String,
    },
}

impl Error {
    /// A sandbox error with `message`.
    pub fn sandbox(message: impl Into<String>) -> Error {
        Error::Sandbox {
            message: message.into(),
        }
    }
}
