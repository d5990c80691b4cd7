//! Configuration loading for the hooks engine.
//!
//! This crate turns config files into [`hooks_core::HookSpec`]s with provenance: our native
//! format and the echo-agent, Fabro, Autohand and Claude Code dialects, merged in layers
//! (built-in < user < project < local < run < command line, managed above all), with
//! interpolation, validation diagnostics (file:line:col) and trust gating for hooks that
//! arrive in a repository. It depends on `hooks-core` only and does no execution.
//!
//! Depend on it if your program reads hook configs; the `hooks` facade re-exports it.

pub use hooks_core as core;

mod check;
mod convert;
mod detect;
mod dialects;
mod discover;
mod error;
mod interpolate;
mod load;
mod merge;
mod parse;
mod schema;
mod source;
mod tree;
mod trust;

pub use convert::{Converted, convert, convert_items, default_format, equivalent};
pub use detect::dialect_from_path;
pub use discover::{Discovered, Locations, load_discovered};
pub use error::{Diagnostic, DiagnosticKind, Error, Severity};
pub use interpolate::{
    EnvSecrets, EnvSource, Interpolation, MapSecrets, ResolvedHook, Secret, SecretProvider,
    resolve_secrets,
};
pub use load::{
    ConfigFile, DEFAULT_MAX_COMMAND_LEN, DEFAULT_MAX_TIMEOUT, DEFAULT_TIMEOUT, Item, LoadOptions,
    Origin, Settings, load_bytes, load_file, load_str,
};
pub use merge::{HookSet, Inactive, MergedHook, merge, url_matches};
pub use parse::Format;
pub use schema::{SchemaFile, schema_files};
pub use source::DEFAULT_MAX_FILE_SIZE;
pub use trust::{Grant, GrantKind, TrustPolicy, TrustStore, hook_hash};
