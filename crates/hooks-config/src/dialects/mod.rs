//! The dialects' files, one folder per dialect (`native/`, `claude/`, `echo/`, `fabro/`,
//! `autohand/`, `gemini/`, `codex/`, `cursor/`, `cline/`): where its files are found and
//! their shape, its reader (a parsed file checked against its schema, then its hooks read
//! into [`hooks_core::HookSpec`]s with provenance), its writer, its switches. Each folder's
//! `FILES` is its row ([`DialectFiles`]); [`of`] is the registry, the one `match` on the
//! dialect that the rest of the crate asks; [`facts::DialectFacts`] is the public view of a
//! row, for programs that write hooks. `handler.rs` reads the hook handler that
//! Claude Code, echo-agent and the native format share.

mod autohand;
mod claude;
pub(crate) mod cline;
pub(crate) mod codex;
mod cursor;
mod echo;
mod fabro;
pub(crate) mod facts;
pub(crate) mod files;
mod gemini;
mod handler;
mod native;

use hooks_core::Dialect;

pub(crate) use files::{Claim, DialectFiles, Writing};

pub use claude::plugin_root;

/// The row of `dialect`: everything this crate knows of its files.
pub(crate) fn of(dialect: Dialect) -> &'static DialectFiles {
    let row = match dialect {
        Dialect::Native => &native::FILES,
        Dialect::Claude => &claude::FILES,
        Dialect::Echo => &echo::FILES,
        Dialect::Fabro => &fabro::FILES,
        Dialect::Autohand => &autohand::FILES,
        Dialect::Gemini => &gemini::FILES,
        Dialect::Codex => &codex::FILES,
        Dialect::Cursor => &cursor::FILES,
        Dialect::Cline => &cline::FILES,
    };
    debug_assert_eq!(row.dialect, dialect, "a row in another dialect's place");
    row
}
