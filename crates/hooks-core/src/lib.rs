//! The core model of the hooks engine: events, event contexts, hook specs, matchers,
//! filters, the hook output parser and the aggregation of outcomes.
//!
//! This crate does no IO: no files, no processes, no network, no async runtime. Config
//! loaders (`hooks-config`) produce its [`HookSpec`]s; executors (`hooks-exec`) run them
//! and hand what the hooks printed to [`parse_output`], then fold the outcomes with
//! [`aggregate`]. Depend on it directly if you write a loader or an executor of your own;
//! agent authors usually want the `hooks` facade.
//!
//! # Example
//!
//! ```
//! use hooks_core::{
//!     aggregate, parse_output, Action, AggregateEntry, Decision, EventContext, HookIndex,
//!     HookSpec, Matcher,
//! };
//! use serde_json::json;
//!
//! // Two hooks on PreToolUse for Bash: a guard script and a fixed "allow".
//! let specs = vec![
//!     HookSpec::new(hooks_core::BuiltinEvent::PreToolUse, Action::script("./guard.sh"))
//!         .with_id("guard")
//!         .with_matcher(Matcher::parse("Bash").unwrap()),
//!     HookSpec::new(hooks_core::BuiltinEvent::PreToolUse, Action::permission(Decision::Allow))
//!         .with_id("allow-all"),
//! ];
//! let index = HookIndex::new(specs);
//! let ctx = EventContext::pre_tool_use("Bash", json!({"command": "rm -rf /"}));
//! let matched = index.matching(&ctx);
//! assert_eq!(matched.len(), 2);
//!
//! // The guard exited 2: that blocks, and the later "allow" cannot undo it.
//! let guard = parse_output(ctx.event(), Some(2), b"", b"refusing rm -rf /");
//! let allow = hooks_core::HookOutcome::decided(Decision::Allow, None);
//! let entries = vec![
//!     AggregateEntry::new(index.spec(matched[0]), matched[0], guard),
//!     AggregateEntry::new(index.spec(matched[1]), matched[1], allow),
//! ];
//! let outcome = aggregate(ctx.event(), entries);
//! assert_eq!(outcome.effects.decision, Decision::Block);
//! assert_eq!(outcome.effects.reason.as_deref(), Some("refusing rm -rf /"));
//! ```
//!
//! # Crate feature flags
//!
//! None yet; the crate has no optional dependencies.
//!
//! # Supported Rust versions
//!
//! The minimum supported Rust version is the workspace's `rust-version` (1.89).

mod aggregate;
mod cancel;
mod context;
mod dedupe;
mod dialect;
mod env;
mod error;
mod event;
mod filter;
mod index;
mod matcher;
mod mcp_server;
mod mismatch;
mod outcome;
mod output;
pub mod profile;
mod redact;
pub mod reply;
pub mod shell;
mod sink;
mod spec;
mod stop_loop;
mod telemetry;
mod timeouts;
mod tools;
mod url_pattern;

pub use aggregate::{
    Aggregate, AggregateEntry, Blocking, Conflict, HookReport, IgnoredField, aggregate,
    aggregate_context,
};
pub use cancel::{CancellationToken, Cancelled};
pub use context::{EventContext, StageEvent, ValueType, json_kind};
pub use dedupe::{DedupeKey, DedupeScope, find_duplicates, more_protective};
pub use dialect::Dialect;
pub use env::{env_vars, parse_env_file, project_dir_vars, provides_var, takes_env_file};
pub use error::{Error, ErrorKind, did_you_mean};
pub use event::{Alias, BuiltinEvent, Event, EventCatalog, EventInfo, Fields, MatcherFields};
pub use filter::{Filter, IfCondition, lexical_segments};
pub use index::{HookIndex, MatchReport};
pub use matcher::{Matcher, MatcherKind};
pub use mcp_server::McpServerConfig;
pub use mismatch::Mismatch;
pub use outcome::{
    Decision, DroppedField, Effects, ElicitationAction, ElicitationAnswer, Failure, FailureKind,
    FailurePolicy, HookOutcome, HookStatus, OutputField, RunInfo,
};
pub use output::{merge_updated_input, parse_output, parse_output_in, parse_response_body};
pub use profile::opencode;
pub use profile::{
    EventReader, Events, FileShape, HookList, Profile, Switch, claude, cline, codex, copilot,
    cursor, gemini,
};
pub use redact::Redactor;
pub use sink::{BoxError, BoxFuture, EventSink, NoopSink};
pub use spec::{
    Action, CommandAction, CommandLine, HookPos, HookSpec, HttpAction, Layer, McpToolAction,
    PermissionAction, PromptAction, PromptMode, Provenance, Shell,
};
pub use stop_loop::{DEFAULT_STOP_BLOCK_CAP, STOP_BLOCK_CAP_VAR, StopBlockCap};
pub use telemetry::{TelemetryLayers, TelemetrySettings, set_pairs};
pub use timeouts::{HandlerType, MAX_TIMEOUT, TimeUnit, default_timeout, default_timeout_for};
pub use tools::OPENCODE_TOOLS;
pub use tools::{
    CLAUDE_TOOLS, CLINE_TOOLS, CODEX_TOOLS, COPILOT_TOOLS, CURSOR_TOOLS, DROID_TOOLS, GEMINI_TOOLS,
    McpNaming, QWEN_TOOLS, ToolNames,
};
pub use url_pattern::{UrlAllowList, UrlPattern};
