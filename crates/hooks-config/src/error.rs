//! The crate's one error type and the diagnostics it carries.
//!
//! Every problem found in a config is a [`Diagnostic`]: a file, a 1-based line and column,
//! a message, an optional hint (a did-you-mean or a rename) and a severity. Loading
//! collects every diagnostic of a file before it gives up, so one run shows every mistake;
//! the errors come back as one [`Error`], the warnings alongside the loaded hooks.

use std::fmt;
use std::path::{Path, PathBuf};

/// How serious a diagnostic is.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Loading went on, but something was changed or ignored (a clamped timeout).
    Warning,
    /// The config cannot be used.
    Error,
}

impl Severity {
    /// `warning` or `error`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// What kind of problem a diagnostic reports, for programs that act on it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// A file could not be read or written.
    Io,
    /// A file is larger than the configured limit.
    TooLarge,
    /// A file was not read: it is not a regular file (a FIFO, a device), or a discovered
    /// file leads outside the directory it was found in.
    Refused,
    /// A file is not valid UTF-8.
    InvalidUtf8,
    /// The YAML, TOML or JSON does not parse.
    Syntax,
    /// The input exceeded a parser budget (nesting depth, aliases, events).
    Budget,
    /// A key that the format does not have.
    UnknownKey,
    /// A value of the wrong type.
    WrongType,
    /// A required key is missing.
    MissingKey,
    /// Keys that cannot be used together, or exactly-one-of violated.
    Conflict,
    /// A value outside its allowed set or range.
    InvalidValue,
    /// An event name the catalog does not know.
    UnknownEvent,
    /// A matcher that does not compile.
    InvalidMatcher,
    /// A path glob that does not compile.
    InvalidGlob,
    /// An `if` condition that does not parse.
    InvalidCondition,
    /// A timeout above the maximum (clamped) or not a duration.
    Timeout,
    /// A command longer than the maximum.
    CommandTooLong,
    /// An interpolation token that cannot be resolved.
    Interpolation,
    /// The file's dialect could not be told from its name or shape.
    Dialect,
    /// A merge directive that had nothing to act on, or a setting ignored in its layer.
    Merge,
    /// Something a conversion target cannot express.
    Convert,
    /// The trust store could not be used.
    Trust,
}

/// One problem in a config, with where it is.
#[non_exhaustive]
#[derive(Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// How serious it is.
    pub severity: Severity,
    /// What kind of problem it is.
    pub kind: DiagnosticKind,
    /// The file, if the problem is in one.
    pub file: Option<PathBuf>,
    /// 1-based line.
    pub line: Option<u32>,
    /// 1-based column, in characters.
    pub column: Option<u32>,
    /// What is wrong, as a sentence fragment (`unknown key `timout``).
    pub message: String,
    /// What to do about it (`did you mean `timeout`?`).
    pub hint: Option<String>,
    /// The source line the problem is on, for the caret display.
    pub source_line: Option<String>,
}

impl Diagnostic {
    /// An error of `kind` with `message`, at no particular place.
    pub fn error(kind: DiagnosticKind, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            kind,
            file: None,
            line: None,
            column: None,
            message: message.into(),
            hint: None,
            source_line: None,
        }
    }

    /// A warning of `kind` with `message`, at no particular place.
    pub fn warning(kind: DiagnosticKind, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(kind, message)
        }
    }

    /// Sets the file.
    #[must_use]
    pub fn with_file(mut self, file: impl Into<PathBuf>) -> Diagnostic {
        self.file = Some(file.into());
        self
    }

    /// Sets the line and column.
    #[must_use]
    pub fn at(mut self, line: u32, column: u32) -> Diagnostic {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Sets the hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    /// Sets the hint if there is one.
    #[must_use]
    pub fn with_hint_opt(mut self, hint: Option<String>) -> Diagnostic {
        if hint.is_some() {
            self.hint = hint;
        }
        self
    }

    /// Sets the source line shown under the message.
    #[must_use]
    pub fn with_source_line(mut self, line: impl Into<String>) -> Diagnostic {
        self.source_line = Some(line.into());
        self
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col`, as far as it is known (`<input>` for text without a file).
    pub fn location(&self) -> String {
        let mut out = self
            .file
            .as_deref()
            .map_or_else(|| "<input>".to_owned(), |p| p.display().to_string());
        if let Some(line) = self.line {
            out.push_str(&format!(":{line}"));
            if let Some(col) = self.column {
                out.push_str(&format!(":{col}"));
            }
        }
        out
    }

    /// The file name, if any, as a path.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_deref()
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:col: error: message`, then the source line with a caret under the column
    /// and a `hint:` line, each when known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.location(),
            self.severity.as_str(),
            self.message
        )?;
        if let (Some(text), Some(line)) = (&self.source_line, self.line) {
            let number = line.to_string();
            let pad = " ".repeat(number.len());
            write!(f, "\n {number} | {text}")?;
            if let Some(col) = self.column {
                // Keep tabs so that the caret lines up with the character above it.
                let lead: String = text
                    .chars()
                    .take(col.saturating_sub(1) as usize)
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect();
                write!(f, "\n {pad} | {lead}^")?;
            }
        }
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The display form is what a reader needs; the fields are public for programs.
        write!(f, "Diagnostic({:?})", self.to_string())
    }
}

/// The error of every fallible operation in this crate: one or more diagnostics, at least
/// one of them an error.
///
/// Its `Display` prints every diagnostic, each as `file:line:col: error: message` with the
/// source line, a caret and a hint where known.
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(&self.diagnostics))]
pub struct Error {
    diagnostics: Vec<Diagnostic>,
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl Error {
    /// An error made of these diagnostics. If none of them is an error, the first is
    /// promoted to one, so that an `Error` always says what failed.
    pub fn new(mut diagnostics: Vec<Diagnostic>) -> Error {
        if !diagnostics.iter().any(Diagnostic::is_error) {
            match diagnostics.first_mut() {
                Some(first) => first.severity = Severity::Error,
                None => diagnostics.push(Diagnostic::error(
                    DiagnosticKind::InvalidValue,
                    "the configuration is invalid",
                )),
            }
        }
        Error { diagnostics }
    }

    /// Every diagnostic, errors and warnings, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The first error.
    pub fn first(&self) -> &Diagnostic {
        // `new` guarantees an error is present; fall back to the first diagnostic anyway.
        self.errors().next().unwrap_or_else(|| &self.diagnostics[0])
    }

    /// The kind of the first error.
    pub fn kind(&self) -> DiagnosticKind {
        self.first().kind
    }

    pub(crate) fn io(path: &Path, err: &std::io::Error) -> Error {
        Error::new(vec![
            Diagnostic::error(DiagnosticKind::Io, format!("cannot read the file: {err}"))
                .with_file(path),
        ])
    }
}

impl From<Diagnostic> for Error {
    fn from(d: Diagnostic) -> Error {
        Error::new(vec![d])
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?})", render(&self.diagnostics))
    }
}
