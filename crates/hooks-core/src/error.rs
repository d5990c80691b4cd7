//! The crate's one error type.

use std::fmt;

/// An error from building the core model: an unknown event, a matcher, glob or `if`
/// condition that does not compile, or an inconsistent hook spec.
///
/// Errors are values with a [`kind`](Error::kind); their `Display` is a full sentence,
/// with a hint where one can be given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
}

/// What went wrong.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An event name that is not in the catalog.
    UnknownEvent {
        /// The name as written.
        name: String,
        /// The closest known name, if one is close.
        suggestion: Option<String>,
        /// The agent whose event name it is, when it is one of an agent whose hooks no
        /// dialect reads yet (`Gemini CLI`).
        other_agent: Option<&'static str>,
    },
    /// A custom event that cannot be registered.
    InvalidEvent {
        /// The offending name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A matcher that is not a valid regular expression.
    InvalidMatcher {
        /// The matcher as written.
        pattern: String,
        /// The regex engine's message.
        message: String,
    },
    /// A path glob that does not compile.
    InvalidGlob {
        /// The glob as written.
        glob: String,
        /// The glob compiler's message.
        message: String,
    },
    /// A Claude-style `if` condition (`Bash(git *)`) that does not parse.
    InvalidCondition {
        /// The condition as written.
        condition: String,
        /// Why it does not parse.
        message: String,
    },
    /// An entry of the HTTP hook URL allow-list that is not a valid pattern.
    InvalidUrlPattern {
        /// The pattern as written.
        pattern: String,
        /// What is wrong with it, and how to write it instead.
        reason: String,
    },
    /// A hook spec whose parts do not fit together.
    InvalidSpec {
        /// What is wrong.
        message: String,
    },
}

impl Error {
    /// An error of the given kind.
    pub fn new(kind: ErrorKind) -> Error {
        Error { kind }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// A hint for the user (a did-you-mean), if there is one.
    pub fn hint(&self) -> Option<String> {
        match &self.kind {
            ErrorKind::UnknownEvent {
                other_agent: Some(agent),
                ..
            } => Some(format!(
                "it is {agent}'s name for an event, and {agent}'s hooks are not supported yet"
            )),
            ErrorKind::UnknownEvent {
                suggestion: Some(s),
                ..
            } => Some(format!("did you mean `{s}`?")),
            ErrorKind::InvalidMatcher { .. } => Some(
                "a matcher is `*`, a list of names like `Bash|Edit`, or a regular expression"
                    .to_owned(),
            ),
            ErrorKind::InvalidCondition { .. } => {
                Some("an `if` condition looks like `Bash(git *)` or `Edit(*.ts)`".to_owned())
            }
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::UnknownEvent { name, .. } => write!(f, "unknown event `{name}`")?,
            ErrorKind::InvalidEvent { name, reason } => {
                write!(f, "cannot register event `{name}`: {reason}")?;
            }
            ErrorKind::InvalidMatcher { pattern, message } => {
                write!(f, "invalid matcher `{pattern}`: {message}")?;
            }
            ErrorKind::InvalidGlob { glob, message } => {
                write!(f, "invalid glob `{glob}`: {message}")?
            }
            ErrorKind::InvalidCondition { condition, message } => {
                write!(f, "invalid `if` condition `{condition}`: {message}")?;
            }
            ErrorKind::InvalidUrlPattern { pattern, reason } => {
                write!(f, "invalid allowed URL pattern `{pattern}`: {reason}")?;
            }
            ErrorKind::InvalidSpec { message } => write!(f, "invalid hook: {message}")?,
        }
        if let Some(hint) = self.hint() {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// The candidate closest to `input`, if it is close enough to be a likely typo.
///
/// Comparison ignores case and separators. Public so that loaders can give the same
/// hints for keys and values.
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let folded: String = input
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    if folded.is_empty() {
        return None;
    }
    // Score on the folded names; break ties on the names as written, so `stage_strat`
    // suggests `stage_start` rather than `StageStart`; then shorter, then alphabetical.
    let mut best: Option<(f64, f64, &str)> = None;
    for candidate in candidates {
        let c: String = candidate
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        let score = strsim::normalized_damerau_levenshtein(&folded, &c);
        let raw = strsim::normalized_damerau_levenshtein(input, candidate);
        let better = match best {
            None => true,
            Some((s, r, b)) => {
                score > s
                    || (score == s && raw > r)
                    || (score == s && raw == r && (candidate.len(), candidate) < (b.len(), b))
            }
        };
        if better {
            best = Some((score, raw, candidate));
        }
    }
    best.filter(|(score, _, _)| *score >= 0.6)
        .map(|(_, _, c)| c.to_owned())
}
