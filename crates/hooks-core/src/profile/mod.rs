//! Dialect profiles: everything that is true of one dialect, in one folder per dialect.
//!
//! A [`Profile`] is a table row: the dialect's names, its time unit and default timeouts,
//! the shell and sandbox its command hooks get, its spelling of every event it has, the
//! fields its matchers test where they differ from the catalog's, its tool names, the
//! shape of its config files, the stdin JSON and environment its hooks are given, how
//! its hooks' answers are read and how an outcome is written back to its agent.
//! [`Dialect::profile`] is the one `match` on the dialect enum that these facts hang from,
//! generated with this module's `mod` lines from the one list of dialects
//! ([`with_dialects!`](crate::with_dialects)); the rest of the workspace reads the profile.
//!
//! Each dialect is a folder here (`native`, `claude`, `echo`, `fabro`, `autohand`,
//! `gemini`, `codex`, `cursor`, `cline`, `qwen`, `droid`, `copilot`, `opencode`): its `mod.rs`
//! holds its `PROFILE` row, and the
//! files beside it its own knowledge (`answers.rs`: how its hooks' answers are read;
//! `input.rs`: the stdin its agent writes; `reply.rs`: the answer written back to its
//! agent). The row's type is in `row.rs`, the helpers several rows share in `shared.rs`;
//! neither knows a dialect.
//!
//! What cannot live here because it needs IO or another crate's types (a file reader with
//! positioned diagnostics, the JSON Schema types) is in `hooks_config::dialects::<name>`,
//! one module per dialect too; adding a dialect is a line in `with_dialects!`, a folder
//! here and one there, and the compiler lists the `match`es left (the workspace matches
//! [`Dialect`] without wildcard arms).

mod row;
pub(crate) mod shared;

use crate::dialect::Dialect;

pub use row::{EventReader, Events, FileShape, HookList, Profile, Switch};

macro_rules! registry {
    ($($variant:ident => $module:ident: $doc:literal,)*) => {
        $(pub mod $module;)*

        impl Dialect {
            /// Everything the engine knows of this dialect.
            pub const fn profile(self) -> &'static Profile {
                match self {
                    $(Dialect::$variant => &$module::PROFILE,)*
                }
            }
        }
    };
}

crate::with_dialects!(registry);
