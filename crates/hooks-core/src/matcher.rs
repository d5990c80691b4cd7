//! Matchers: what an event's matcher subject (a tool name, a session source, a node id)
//! must look like for a hook to fire.
//!
//! The rules are Claude Code's: `*`, an empty string or no matcher match everything; a
//! matcher made only of identifier characters, `|`, `,`, spaces and `-` is a list of exact
//! names; anything else is an unanchored regular expression. Dialects whose matchers are
//! always regular expressions (Fabro, Autohand) use [`Matcher::regex`].

use std::fmt;

use regex::Regex;

use crate::error::{Error, ErrorKind};

/// A compiled matcher. Compiled once, when the hook is loaded; an invalid regular
/// expression is an error then, never a hook that silently never fires.
#[derive(Clone)]
pub struct Matcher {
    source: String,
    kind: MatcherKind,
}

/// The compiled form of a [`Matcher`].
#[derive(Clone, Debug)]
pub enum MatcherKind {
    /// Matches every subject.
    All,
    /// Matches a subject equal to one of these names.
    Exact(Vec<String>),
    /// Matches a subject the regex finds a match in (unanchored).
    Regex(Regex),
}

/// Size limit for a compiled matcher or filter regex, so a hostile pattern cannot eat
/// memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Compiles a matcher's or a filter's regex within [`REGEX_SIZE_LIMIT`]; the error is the
/// last line of the regex crate's message (the part that says what is wrong).
pub(crate) fn build_regex(pattern: &str, case_insensitive: bool) -> Result<Regex, String> {
    regex::RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| {
            e.to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .trim()
                .to_owned()
        })
}

/// The error of a matcher `pattern` that does not compile.
pub(crate) fn invalid(pattern: &str, message: String) -> Error {
    Error::new(ErrorKind::InvalidMatcher {
        pattern: pattern.to_owned(),
        message,
    })
}

fn is_name_list(pattern: &str) -> bool {
    pattern
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|' | ',' | ' ' | '-'))
}

impl Matcher {
    /// The matcher that matches everything.
    pub fn all() -> Matcher {
        Matcher {
            source: String::new(),
            kind: MatcherKind::All,
        }
    }

    /// Compiles a matcher with Claude Code's rules (see the module docs).
    pub fn parse(pattern: &str) -> Result<Matcher, Error> {
        let trimmed = pattern.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Matcher {
                source: pattern.to_owned(),
                kind: MatcherKind::All,
            });
        }
        if is_name_list(trimmed) {
            let names: Vec<String> = trimmed
                .split(['|', ','])
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(str::to_owned)
                .collect();
            if names.is_empty() {
                return Err(Error::new(ErrorKind::InvalidMatcher {
                    pattern: pattern.to_owned(),
                    message: "the name list has no names".to_owned(),
                }));
            }
            return Ok(Matcher {
                source: pattern.to_owned(),
                kind: MatcherKind::Exact(names),
            });
        }
        Matcher::regex(pattern)
    }

    /// A matcher that matches exactly `pattern`, `|` and all (Gemini CLI's lifecycle
    /// matchers, where `startup|resume` matches neither); `*` or empty matches everything.
    pub fn literal(pattern: &str) -> Matcher {
        let trimmed = pattern.trim();
        let kind = if trimmed.is_empty() || trimmed == "*" {
            MatcherKind::All
        } else {
            MatcherKind::Exact(vec![pattern.to_owned()])
        };
        Matcher {
            source: pattern.to_owned(),
            kind,
        }
    }

    /// Compiles a matcher that is always an unanchored regular expression (`*` and the
    /// empty string still match everything).
    pub fn regex(pattern: &str) -> Result<Matcher, Error> {
        let trimmed = pattern.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Matcher {
                source: pattern.to_owned(),
                kind: MatcherKind::All,
            });
        }
        let regex = build_regex(pattern, false).map_err(|message| invalid(pattern, message))?;
        Ok(Matcher {
            source: pattern.to_owned(),
            kind: MatcherKind::Regex(regex),
        })
    }

    /// The matcher as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The compiled form.
    pub fn kind(&self) -> &MatcherKind {
        &self.kind
    }

    /// Whether this matcher matches everything.
    pub fn is_all(&self) -> bool {
        matches!(self.kind, MatcherKind::All)
    }

    /// Whether `subject` matches.
    pub fn is_match(&self, subject: &str) -> bool {
        match &self.kind {
            MatcherKind::All => true,
            MatcherKind::Exact(names) => names.iter().any(|n| n == subject),
            MatcherKind::Regex(re) => re.is_match(subject),
        }
    }
}

impl Default for Matcher {
    fn default() -> Matcher {
        Matcher::all()
    }
}

impl fmt::Debug for Matcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Matcher({:?})", self.source)
    }
}

impl PartialEq for Matcher {
    /// Matchers are equal when they were written the same way and compile to the same kind.
    fn eq(&self, other: &Matcher) -> bool {
        self.source == other.source
            && std::mem::discriminant(&self.kind) == std::mem::discriminant(&other.kind)
    }
}

impl Eq for Matcher {}
