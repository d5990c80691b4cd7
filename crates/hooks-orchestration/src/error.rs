//! The crate's one error type.

use thiserror::Error as ThisError;

/// An error from the task runner or the subagent dispatcher.
///
/// Graph errors ([`DuplicateTask`](Error::DuplicateTask),
/// [`UnknownDependency`](Error::UnknownDependency), [`Cycle`](Error::Cycle)) are found
/// before any task runs. The others end a subagent dispatch; the outcome of each task of a
/// run is in its [`RunReport`](crate::RunReport) instead.
#[derive(Clone, Debug, PartialEq, Eq, ThisError)]
#[non_exhaustive]
pub enum Error {
    /// Two tasks share an id.
    #[error("two tasks have the id `{id}`; task ids must be unique")]
    DuplicateTask {
        /// The repeated id.
        id: String,
    },
    /// A task depends on an id that is not in the graph.
    #[error("task `{task}` depends on `{dependency}`, which is not in the graph{}", hint(.suggestion))]
    UnknownDependency {
        /// The task that names the dependency.
        task: String,
        /// The missing id.
        dependency: String,
        /// The closest id in the graph, if one is close.
        suggestion: Option<String>,
    },
    /// The dependencies form a cycle.
    #[error("the task graph has a cycle: {}", .path.join(" -> "))]
    Cycle {
        /// The ids on the cycle, the first repeated at the end (`a -> b -> a`).
        path: Vec<String>,
    },
    /// A subagent failed and the hooks did not retry or delegate (or retries ran out).
    #[error("subagent `{agent}` failed after {attempts} attempt(s): {error}")]
    SubagentFailed {
        /// The subagent that failed last.
        agent: String,
        /// How many attempts it had.
        attempts: u32,
        /// Its last error.
        error: String,
    },
    /// A hook delegated to an agent already in the delegation chain.
    #[error("delegation loop: {} -> {agent}; `{agent}` already had this task", .chain.join(" -> "))]
    DelegationLoop {
        /// The agents the task went through, in order.
        chain: Vec<String>,
        /// The agent a hook delegated to again.
        agent: String,
    },
    /// A hook delegated past the depth limit.
    #[error("delegation to `{agent}` exceeds the depth limit of {limit} (chain: {})", .chain.join(" -> "))]
    DelegationDepth {
        /// The agents the task went through, in order.
        chain: Vec<String>,
        /// The agent a hook delegated to.
        agent: String,
        /// The limit.
        limit: u32,
    },
    /// The dispatch was cancelled.
    #[error("the dispatch of subagent `{agent}` was cancelled")]
    Cancelled {
        /// The subagent that was running or waiting to retry.
        agent: String,
    },
    /// A config-level hook answered `continue: false`.
    #[error("a hook stopped the agent: {reason}")]
    Stopped {
        /// The hook's stop reason.
        reason: String,
    },
}

fn hint(suggestion: &Option<String>) -> String {
    match suggestion {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    }
}

/// The text hooks and reports give a host's error: its message, then each source's, joined
/// by `: ` (as `anyhow` prints a chain with `{:#}`), without repeating a source whose
/// message the previous one already ends with.
pub(crate) fn error_text(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let message = e.to_string();
        if !text.ends_with(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        source = e.source();
    }
    text
}
