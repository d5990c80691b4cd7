//! Configuration loading for the hooks engine.
//!
//! This crate turns config files into [`hooks_core::HookSpec`]s with provenance (file,
//! line, column, layer): the native format (YAML, TOML or JSON, flat or nested by event)
//! and the Claude Code, echo-agent, Fabro and Autohand dialects. It merges files in layers
//! (built-in < user < project < local < run < command line, managed above all; see
//! [`merge()`]), interpolates `{{ vars.X }}`, `{{ env.X }}`, `{{ secrets.X }}` and
//! `${SKILL_DIR}`, reports every problem as a [`Diagnostic`] with file:line:col and a hint,
//! gates hooks that arrive in a repository behind a [`TrustStore`], converts between
//! dialects and generates the JSON Schemas of every format. It depends on `hooks-core`
//! only: no async runtime, no processes, no network.
//!
//! Depend on it if your program reads hook configs; agent authors usually get it through
//! the `hooks` facade. The [`guide`] is the reference for formats, rules and limits.
//!
//! # Example
//!
//! ```
//! use hooks_config::{load_str, merge, LoadOptions, TrustPolicy};
//! use std::path::Path;
//!
//! let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
//!     {"type": "command", "command": "./guard.sh", "timeout": 5}]}]}}"#;
//! let file = load_str(text, Some(Path::new(".claude/settings.json")), &LoadOptions::new())?;
//! assert_eq!(file.dialect.as_str(), "claude");
//! let hook = file.hooks().next().unwrap();
//! assert_eq!((hook.provenance.line, hook.provenance.column), (Some(2), Some(5)));
//! assert_eq!(hook.timeout, Some(std::time::Duration::from_secs(5)));
//!
//! // Errors carry positions and hints, all of a file's at once.
//! let err = load_str("hooks:\n  - event: PreToolUze\n    command: x\n", Some(Path::new("hooks.yaml")), &LoadOptions::new())
//!     .unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "hooks.yaml:2:12: error: unknown event `PreToolUze`\n 2 |   - event: PreToolUze\n   |            ^\n  hint: did you mean `PreToolUse`?"
//! );
//!
//! let set = merge(&[file], &TrustPolicy::Deny);
//! assert_eq!(set.active().count(), 1);
//! # Ok::<(), hooks_config::Error>(())
//! ```
//!
//! # Crate feature flags
//!
//! None; the crate has no optional dependencies.
//!
//! # Supported Rust versions
//!
//! The minimum supported Rust version is the workspace's `rust-version` (1.89).

pub use hooks_core as core;

mod bridge;
mod check;
mod convert;
mod detect;
mod dialects;
mod discover;
pub mod edit;
mod error;
mod file;
mod interpolate;
mod load;
mod mcp;
mod merge;
mod parse;
mod reader;
mod schema;
mod source;
mod tree;
mod trust;
mod write;

pub use bridge::{CLIENT as BRIDGE_CLIENT, MAX_SCRIPT as MAX_BRIDGE_SCRIPT, bridged_agent};
pub use convert::{Converted, convert, convert_items, equivalent};
pub use detect::{dialect_from_path, layer_from_path};
pub use dialects::cline::{
    BRIDGE_MARKER as CLINE_BRIDGE_MARKER, hooks_switched_off as cline_hooks_switched_off,
    is_bridge_script as cline_is_bridge_script, is_executable as cline_is_executable,
    is_hooks_dir as is_cline_hooks_dir,
};
pub use dialects::facts::DialectFacts;
pub use dialects::plugin_root;
pub use discover::{Discovered, Locations, cline_hook_files, load_discovered};
pub use error::{Diagnostic, DiagnosticKind, Error, Severity};
pub use file::{
    BrokenFile, ConfigFile, DEFAULT_MAX_COMMAND_LEN, DEFAULT_MAX_TIMEOUT, Item, LoadOptions,
    Origin, RunEnvironment, Settings, TelemetrySection,
};
pub use interpolate::{
    EnvSecrets, EnvSource, Interpolation, MapSecrets, ResolvedHook, Secret, SecretProvider,
    mask_secret_tokens, resolve_secrets, uses_secrets,
};
pub use load::{MAX_DIAGNOSTICS, load_bytes, load_file, load_str, parse_value};
pub use mcp::McpServer;
pub use merge::{HookSet, Inactive, MergedHook, merge, url_matches};
pub use parse::Format;
pub use reader::parse_duration;
pub use schema::{SchemaFile, schema_files};
pub use source::{DEFAULT_MAX_FILE_SIZE, read_text};
pub use trust::{Grant, GrantKind, MIN_HASH_PREFIX, TrustPolicy, TrustStore, hook_hash};
pub use write::shell_quote;

// `guide.md` is a symlink to `docs/config.md`, inside the crate so that `cargo package`
// ships it (a path outside the crate directory would not be packaged).
#[doc = include_str!("../guide.md")]
pub mod guide {}
