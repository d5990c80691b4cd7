//! Duplicate hooks: the one rule for which hooks are copies of each other, and which copy
//! runs when copies are merged. Config merging and the dispatcher both use it.
//!
//! Two hooks are copies only if running either would do the same thing *and* count the
//! same way: the same action (command line, working directory, environment, sandbox
//! setting; URL and headers; ...), dialect, timeout, failure policy, async flag and layer.
//! So a copy of a managed fail-closed guard written with `on_failure: allow`, a shorter
//! timeout or in another layer is a different hook, and both run. Merging configs also
//! compares when the hooks fire (event, matcher, filter, condition); a dispatch compares
//! hooks that already matched the same event. Hooks of a sequential group are never
//! copies: each step may see a different input. Codex hooks are never copies either: Codex
//! runs identical commands twice.
//!
//! When copies are merged, the most protective one runs ([`more_protective`]): a managed
//! one first, then a fail-closed one, then the one with the longer timeout; among equals,
//! the first declared.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::outcome::FailurePolicy;
use crate::spec::{Action, HookSpec, Layer};

/// Where copies are looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DedupeScope {
    /// Merging config files: copies must also fire at the same times (event, matcher,
    /// filter and condition).
    Merge,
    /// One dispatch: the hooks already matched the same event; only command hooks are
    /// merged.
    Dispatch,
}

/// What two hooks must share to be copies of each other; equal keys are copies.
#[derive(Clone, Copy, Debug)]
pub struct DedupeKey<'a> {
    spec: &'a HookSpec,
    scope: DedupeScope,
}

impl<'a> DedupeKey<'a> {
    /// The key of `spec`, or `None` if it is never merged with another hook in `scope`
    /// (it is in a sequential group, or, in a dispatch, it is not a command hook).
    pub fn new(spec: &'a HookSpec, scope: DedupeScope) -> Option<DedupeKey<'a>> {
        if spec.sequential.is_some() || !spec.dialect.profile().dedupes_copies {
            return None;
        }
        if scope == DedupeScope::Dispatch && !matches!(spec.action, Action::Command(_)) {
            return None;
        }
        Some(DedupeKey { spec, scope })
    }

    /// The hook this key is of.
    pub fn spec(&self) -> &'a HookSpec {
        self.spec
    }

    /// Whether the two runs would do and count the same.
    fn same_run(a: &HookSpec, b: &HookSpec) -> bool {
        a.action == b.action
            && a.dialect == b.dialect
            // Given different JSON (Cursor's `beforeShellExecution` and `preToolUse`).
            && a.home_event == b.home_event
            && a.timeout == b.timeout
            && a.on_failure == b.on_failure
            && a.is_async == b.is_async
            && a.provenance.layer == b.provenance.layer
    }

    /// Whether the two hooks fire at the same times.
    fn same_when(a: &HookSpec, b: &HookSpec) -> bool {
        a.event == b.event
            && a.matcher.as_str() == b.matcher.as_str()
            && std::mem::discriminant(a.matcher.kind()) == std::mem::discriminant(b.matcher.kind())
            && a.filter.tools() == b.filter.tools()
            && a.filter.path_globs() == b.filter.path_globs()
            && a.filter.command() == b.filter.command()
            && a.condition.as_ref().map(|c| c.as_str()) == b.condition.as_ref().map(|c| c.as_str())
    }
}

impl PartialEq for DedupeKey<'_> {
    fn eq(&self, other: &DedupeKey<'_>) -> bool {
        self.scope == other.scope
            && DedupeKey::same_run(self.spec, other.spec)
            && (self.scope == DedupeScope::Dispatch || DedupeKey::same_when(self.spec, other.spec))
    }
}

impl Eq for DedupeKey<'_> {}

impl Hash for DedupeKey<'_> {
    // Hashes a part of what `eq` compares (equal keys hash equal); the rest is left to
    // `eq`, so hashing costs no allocation.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let spec = self.spec;
        self.scope.hash(state);
        spec.action.type_name().hash(state);
        match &spec.action {
            Action::Command(c) => {
                c.command.hash(state);
                c.cwd.hash(state);
                c.env.hash(state);
                c.sandbox.hash(state);
            }
            Action::Http(h) => h.url.hash(state),
            Action::McpTool(m) => {
                m.server.hash(state);
                m.tool.hash(state);
            }
            Action::Prompt(p) => p.prompt.hash(state),
            Action::Permission(p) => p.decision.hash(state),
        }
        spec.dialect.hash(state);
        spec.timeout.hash(state);
        spec.on_failure.hash(state);
        spec.is_async.hash(state);
        spec.provenance.layer.hash(state);
        if self.scope == DedupeScope::Merge {
            spec.event.name().hash(state);
            spec.matcher.as_str().hash(state);
        }
    }
}

/// Orders two copies by how protective they are: `Greater` when `a` is more protective
/// than `b`. A managed hook beats any other layer's, then a fail-closed one beats a
/// fail-open one, then the longer timeout wins (no timeout counts as the shortest).
pub fn more_protective(a: &HookSpec, b: &HookSpec) -> Ordering {
    let rank = |s: &HookSpec| {
        let fails_closed = match s.on_failure {
            FailurePolicy::Block => true,
            FailurePolicy::Allow => false,
        };
        (
            s.provenance.layer == Layer::Managed,
            fails_closed,
            s.timeout,
        )
    };
    rank(a).cmp(&rank(b))
}

/// Finds the copies among `keys` (one per hook, in declaration order; `None` for a hook
/// that is never merged). Returns, for each position, `Some(i)` when that hook is a copy
/// that does not run because the hook at position `i` runs for it, else `None`. In each
/// group of copies the most protective runs ([`more_protective`]); among equals, the
/// first declared.
// A key hashes and compares a matcher's pattern text, never the regex's inner cache that
// makes clippy call it mutable.
#[allow(clippy::mutable_key_type)]
pub fn find_duplicates(keys: &[Option<DedupeKey<'_>>]) -> Vec<Option<usize>> {
    let mut runs: HashMap<DedupeKey<'_>, (usize, &HookSpec)> = HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        match runs.get_mut(key) {
            None => {
                runs.insert(*key, (i, key.spec));
            }
            Some(runner) => {
                if more_protective(key.spec, runner.1) == Ordering::Greater {
                    *runner = (i, key.spec);
                }
            }
        }
    }
    keys.iter()
        .enumerate()
        .map(|(i, key)| {
            let (runner, _) = runs.get(key.as_ref()?)?;
            (*runner != i).then_some(*runner)
        })
        .collect()
}
