//! The nesting mark: every process the engine starts for a hook (a command hook, a stdio MCP
//! server) carries [`DEPTH_VAR`], one more than the engine's own depth. An engine started
//! inside a hook (another agent's bridge entry, a user's script that calls `hooks bridge`)
//! reads it with [`depth`] and does not dispatch again, so that no chain of bridges and hooks
//! can recurse, whether or not anything recognised the entry that started it.

use std::sync::OnceLock;

/// The variable that marks a process started by the engine for a hook: the nesting depth,
/// `1` for a hook of an engine that is itself not nested.
pub const DEPTH_VAR: &str = "HOOKS_DEPTH";

/// This process's nesting depth: `0` when it was not started by the engine for a hook
/// ([`DEPTH_VAR`] absent or empty), else the mark's value. A mark that is not a positive
/// number counts as nested (`1`): a garbled mark must never switch the guard off.
pub fn depth() -> u32 {
    static DEPTH: OnceLock<u32> = OnceLock::new();
    *DEPTH.get_or_init(|| parse(std::env::var_os(DEPTH_VAR).as_deref()))
}

/// Whether this process runs inside a hook of the engine.
pub fn is_nested() -> bool {
    depth() > 0
}

/// The mark given to every process the engine starts for a hook.
pub(crate) fn child_mark() -> &'static str {
    static MARK: OnceLock<String> = OnceLock::new();
    MARK.get_or_init(|| depth().saturating_add(1).to_string())
}

fn parse(value: Option<&std::ffi::OsStr>) -> u32 {
    match value.map(|v| v.to_string_lossy()) {
        None => 0,
        Some(v) if v.trim().is_empty() => 0,
        Some(v) => v.trim().parse::<u32>().map_or(1, |d| d.max(1)),
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::parse;

    #[test]
    fn the_mark_reads_as_a_depth_and_anything_else_as_nested() {
        assert_eq!(parse(None), 0);
        assert_eq!(parse(Some(OsStr::new(""))), 0);
        assert_eq!(parse(Some(OsStr::new("1"))), 1);
        assert_eq!(parse(Some(OsStr::new(" 3 "))), 3);
        assert_eq!(parse(Some(OsStr::new("0"))), 1);
        assert_eq!(parse(Some(OsStr::new("yes"))), 1);
        assert_eq!(parse(Some(OsStr::new("-1"))), 1);
    }
}
