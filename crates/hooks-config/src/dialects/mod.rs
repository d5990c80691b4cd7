//! The dialects' files, one folder per dialect (`native/`, `claude/`, `echo/`, `fabro/`,
//! `autohand/`, `gemini/`, `codex/`, `cursor/`, `cline/`, `qwen/`, `droid/`, `copilot/`,
//! `opencode/`): where its files are found and
//! their shape, its reader (a parsed file checked against its schema, then its hooks read
//! into [`hooks_core::HookSpec`]s with provenance), its writer, its switches. Each folder's
//! `FILES` is its row ([`DialectFiles`]); [`of`] is the registry, the one `match` on the
//! dialect that the rest of the crate asks, generated, with the `mod` lines, from the one list
//! of dialects ([`hooks_core::with_dialects`]); [`facts::DialectFacts`] is the public view of
//! a row, for programs that write hooks. `handler.rs` reads the hook handler that Claude
//! Code, echo-agent and the native format share.

pub(crate) mod facts;
pub(crate) mod files;
mod handler;

use hooks_core::Dialect;

pub(crate) use files::{Claim, DialectFiles, Writing};

pub use claude::plugin_root;

macro_rules! registry {
    ($($variant:ident => $module:ident: $doc:literal,)*) => {
        $(pub(crate) mod $module;)*

        /// The row of `dialect`: everything this crate knows of its files.
        pub(crate) fn of(dialect: Dialect) -> &'static DialectFiles {
            let row = match dialect {
                $(Dialect::$variant => &$module::FILES,)*
            };
            debug_assert_eq!(row.dialect, dialect, "a row in another dialect's place");
            row
        }
    };
}

hooks_core::with_dialects!(registry);
