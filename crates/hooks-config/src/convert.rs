//! Writing hooks out in any dialect: `hooks convert FILE --to DIALECT`.
//!
//! Each target expresses what it can; everything else is a warning naming the hook and
//! what was lost. Hooks a target cannot express at all (a permission hook for Claude Code,
//! anything but a command for Autohand, a disabled hook where the target has no `enabled`)
//! are left out, with a warning, rather than written as something that behaves
//! differently. Matchers keep their meaning across the two matcher languages: a name list
//! becomes `^(?:A|B)$` for Fabro and Autohand (always regular expressions), and a regular
//! expression that looks like a name becomes `(?:name)` for Claude-style targets, so it
//! stays a regular expression there. Timeouts equal to the target's default are left out.
//!
//! [`equivalent`] says whether two hooks behave the same, whatever their dialect and
//! provenance: what round-trip tests compare.

use hooks_core::{Action, Dialect, HookSpec, Matcher, MatcherKind};

use crate::dialects::{self, Writing};
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::file::{ConfigFile, Item, Settings};
use crate::parse::{Format, yaml};
use crate::write::{Writer, sandboxed};

/// The text of a converted config and what could not be expressed.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The file's text.
    pub text: String,
    /// Its syntax.
    pub format: Format,
    /// What the target could not express, one warning per hook and loss.
    pub warnings: Vec<Diagnostic>,
}

/// Converts a loaded file to `to`, in the target's own syntax (native: YAML).
pub fn convert(file: &ConfigFile, to: Dialect) -> Result<Converted, Error> {
    convert_items(&file.items, &file.settings, to, None)
}

/// Converts hooks (and merge directives) to `to`. `format` chooses the syntax of a native
/// target; the other dialects have one syntax each and a different `format` is a warning.
pub fn convert_items(
    items: &[Item],
    settings: &Settings,
    to: Dialect,
    format: Option<Format>,
) -> Result<Converted, Error> {
    let row = dialects::of(to);
    let write = match row.writing {
        Writing::File(write) => write,
        Writing::Refused { message, hint } => {
            return Err(Diagnostic::error(DiagnosticKind::Convert, message)
                .with_hint(hint)
                .into());
        }
    };
    let mut w = Writer::new(to, |d| &dialects::of(d).write_rules);
    let own = row.formats[0];
    let format = match format {
        Some(f) if row.formats.len() > 1 && row.formats.contains(&f) => f,
        Some(f) if f != own => {
            w.warnings.push(Diagnostic::warning(
                DiagnosticKind::Convert,
                format!(
                    "{to} configs are {}; writing {} instead of {}",
                    own.as_str(),
                    own.as_str(),
                    f.as_str()
                ),
            ));
            own
        }
        Some(_) | None => own,
    };
    let value = write(&mut w, items, settings);
    let text = match format {
        Format::Json => {
            let mut t = serde_json::to_string_pretty(&value).unwrap_or_default();
            t.push('\n');
            t
        }
        Format::Toml => toml::to_string_pretty(&value).map_err(|e| {
            Error::from(Diagnostic::error(
                DiagnosticKind::Convert,
                format!("cannot write TOML: {e}"),
            ))
        })?,
        Format::Yaml => yaml::to_string(&value)?,
    };
    Ok(Converted {
        text,
        format,
        warnings: w.warnings,
    })
}

/// A hook's action with a command's sandbox made explicit, for comparing hooks of
/// different dialects.
fn effective_action(spec: &HookSpec) -> Action {
    match &spec.action {
        Action::Command(c) => {
            let mut c = c.clone();
            c.sandbox = Some(sandboxed(spec, &c));
            Action::Command(c)
        }
        other => other.clone(),
    }
}

/// The meaning of a matcher, for comparing matchers written in different languages.
#[derive(Debug, PartialEq, Eq)]
enum MatcherMeaning {
    All,
    Names(Vec<String>),
    Regex(String),
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

fn meaning(m: &Matcher) -> MatcherMeaning {
    match m.kind() {
        MatcherKind::All => MatcherMeaning::All,
        MatcherKind::Exact(names) => {
            let mut names = names.clone();
            names.sort();
            names.dedup();
            MatcherMeaning::Names(names)
        }
        MatcherKind::Regex(_) => {
            let src = m.as_str();
            // `^(?:A|B)$` and `^A$`: an exact name list written as a regex.
            let anchored = src
                .strip_prefix('^')
                .and_then(|s| s.strip_suffix('$'))
                .map(|s| {
                    s.strip_prefix("(?:")
                        .and_then(|s| s.strip_suffix(')'))
                        .unwrap_or(s)
                });
            if let Some(inner) = anchored {
                let names: Vec<&str> = inner.split('|').collect();
                if names.iter().all(|n| is_name(n)) {
                    let mut names: Vec<String> = names.into_iter().map(str::to_owned).collect();
                    names.sort();
                    names.dedup();
                    return MatcherMeaning::Names(names);
                }
            }
            // `(?:agent)`: a regex kept a regex in a Claude-style target.
            let unwrapped = src
                .strip_prefix("(?:")
                .and_then(|s| s.strip_suffix(')'))
                .filter(|inner| !inner.contains(['(', ')']))
                .unwrap_or(src);
            MatcherMeaning::Regex(unwrapped.to_owned())
        }
    }
}

/// Whether two hooks behave the same: event, matcher meaning, filter, condition, action
/// (a command's sandbox as whether it runs sandboxed, whether said or its dialect's
/// default), timeout, failure policy, async, sequential group, enabled, id, name and
/// description. Dialect and provenance are not compared.
pub fn equivalent(a: &HookSpec, b: &HookSpec) -> bool {
    a.event == b.event
        && meaning(&a.matcher) == meaning(&b.matcher)
        && a.filter.tools() == b.filter.tools()
        && a.filter.path_globs() == b.filter.path_globs()
        && a.filter.command() == b.filter.command()
        && a.condition.as_ref().map(|c| c.as_str()) == b.condition.as_ref().map(|c| c.as_str())
        && effective_action(a) == effective_action(b)
        && a.timeout == b.timeout
        && a.on_failure == b.on_failure
        && a.is_async == b.is_async
        && a.sequential == b.sequential
        && a.enabled == b.enabled
        && a.id == b.id
        && a.name == b.name
        && a.description == b.description
}
