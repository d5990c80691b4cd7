//! Why a hook did not match an event context: the one answer the index's `explain` and
//! the filter's checks both give.

use std::fmt;

/// Why a hook did not match an event context, for `hooks explain`.
///
/// Its `Display` is one readable sentence (`` matcher `Bash` did not match tool_name =
/// `Edit` ``).
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The hook is attached to another event.
    OtherEvent {
        /// The hook's event.
        hook_event: String,
    },
    /// The hook is disabled.
    Disabled,
    /// The matcher matched none of the event's matcher subjects.
    Matcher {
        /// The matcher as written.
        matcher: String,
        /// The `(field, value)` pairs it was tried against; empty when the context had
        /// none of the event's matcher fields (it was then tried against `""`).
        subjects: Vec<(String, String)>,
    },
    /// The filter's tool list does not include the context's tool.
    Tool {
        /// The context's tool name, if it has one.
        tool: Option<String>,
        /// The filter's tool names.
        allowed: Vec<String>,
    },
    /// The filter's path globs rejected the context's path.
    Path {
        /// The context's file path, if it has one (`None`: the filter has include globs
        /// and the context no path).
        path: Option<String>,
        /// The filter's include globs.
        include: Vec<String>,
        /// The exclude glob that matched the path, as written (with its `!`); `None` when
        /// the path matched no include glob (or was missing).
        excluded_by: Option<String>,
    },
    /// The `if` condition does not hold.
    Condition {
        /// The condition as written.
        condition: String,
        /// Why it does not hold.
        reason: String,
    },
}

/// Writes `` `a`, `b` `` for a list of names.
fn write_list(f: &mut fmt::Formatter<'_>, items: &[String], joiner: &str) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(joiner)?;
        }
        write!(f, "`{item}`")?;
    }
    Ok(())
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::OtherEvent { hook_event } => {
                write!(f, "the hook is attached to event `{hook_event}`")
            }
            Mismatch::Disabled => f.write_str("the hook is disabled"),
            Mismatch::Matcher { matcher, subjects } => {
                write!(f, "matcher `{matcher}` did not match ")?;
                if subjects.is_empty() {
                    return f
                        .write_str("an empty subject (the event has none of its matcher fields)");
                }
                for (i, (field, value)) in subjects.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" or ")?;
                    }
                    write!(f, "{field} = `{value}`")?;
                }
                Ok(())
            }
            Mismatch::Tool { tool, allowed } => {
                match tool {
                    Some(tool) => write!(f, "tool `{tool}` is not one of ")?,
                    None => f.write_str("the event has no tool name; the filter allows ")?,
                }
                write_list(f, allowed, ", ")
            }
            Mismatch::Path {
                path,
                include,
                excluded_by,
            } => match (path, excluded_by) {
                (Some(path), Some(glob)) => write!(f, "path `{path}` is excluded by `{glob}`"),
                (Some(path), None) => {
                    write!(f, "path `{path}` matches none of ")?;
                    write_list(f, include, ", ")
                }
                (None, _) => {
                    f.write_str("the event has no file path; the filter wants one matching ")?;
                    write_list(f, include, " or ")
                }
            },
            Mismatch::Condition { condition, reason } => {
                write!(f, "`if` condition `{condition}` does not hold: {reason}")
            }
        }
    }
}
