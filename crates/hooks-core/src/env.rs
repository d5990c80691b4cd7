//! Environment variables for command hooks: Autohand's `HOOK_*`, Fabro's `FABRO_*` and
//! Claude Code's `CLAUDE_*`, computed from an event context by a pure function; and what a
//! hook wrote to its `CLAUDE_ENV_FILE` ([`parse_env_file`]).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::context::EventContext;
use crate::dialect::Dialect;
use crate::event::{BuiltinEvent, Event};

/// The events whose command hooks get a `CLAUDE_ENV_FILE` in Claude Code.
const ENV_FILE_EVENTS: [BuiltinEvent; 4] = [
    BuiltinEvent::SessionStart,
    BuiltinEvent::Setup,
    BuiltinEvent::CwdChanged,
    BuiltinEvent::FileChanged,
];

/// Whether a command hook written in `dialect` gets a `CLAUDE_ENV_FILE` on `event`: Claude
/// Code's and native hooks on SessionStart, Setup, CwdChanged and FileChanged, as in
/// Claude Code.
pub fn takes_env_file(dialect: Dialect, event: &Event) -> bool {
    dialect.profile().env_file
        && event
            .builtin()
            .is_some_and(|e| ENV_FILE_EVENTS.contains(&e))
}

/// The variables a hook's `CLAUDE_ENV_FILE` sets, as a shell sourcing it would see them:
/// every `NAME=value` argument of an `export` command (and of `declare -x` / `typeset -x`,
/// which `export -p` prints), quotes removed, nothing expanded (`"$PATH:./bin"` stays
/// `$PATH:./bin`); a later assignment of a name replaces an earlier one. Anything else in
/// the file (comments, other commands, `export NAME` without a value) sets nothing here.
/// A file that does not parse as a whole is read line by line, as a shell sourcing it runs
/// the lines before the one in error; a line that does not parse sets nothing.
pub fn parse_env_file(text: &str) -> BTreeMap<String, String> {
    let whole = crate::shell::split(text);
    let commands = if whole.complete {
        whole.commands
    } else {
        text.lines()
            .flat_map(|line| crate::shell::split(line).commands)
            .filter(|c| c.parsed)
            .collect()
    };
    let mut out = BTreeMap::new();
    for command in commands {
        if !command.wrappers.is_empty() || command.substituted_in.is_some() {
            continue;
        }
        let args = match command.argv.split_first() {
            Some((program, rest)) if program == "export" => rest,
            Some((program, rest)) if program == "declare" || program == "typeset" => {
                let flags: Vec<&String> = rest.iter().take_while(|a| a.starts_with('-')).collect();
                if !flags.iter().any(|f| f.contains('x')) {
                    continue;
                }
                &rest[flags.len()..]
            }
            _ => continue,
        };
        for arg in args.iter().filter(|a| !a.starts_with('-')) {
            if let Some((name, value)) = arg.split_once('=')
                && is_name(name)
            {
                out.insert(name.to_owned(), value.to_owned());
            }
        }
    }
    out
}

/// A shell variable name: a letter or `_`, then letters, digits and `_`.
fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A context value as an environment variable: strings as they are, booleans and numbers
/// as JSON writes them, arrays and objects as compact JSON, null as absent.
pub(crate) fn env_text(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// Appends, for each `(variable, fields)` of `table`, the first of the fields present in
/// the context (and not null) as that variable.
pub(crate) fn push_table(
    ctx: &EventContext,
    table: &[(&str, &[&str])],
    out: &mut Vec<(String, String)>,
) {
    for (name, fields) in table {
        if let Some(text) = fields.iter().find_map(|f| ctx.get(f).and_then(env_text)) {
            out.push(((*name).to_owned(), text));
        }
    }
}

/// Whether the engine gives a command hook written in `dialect` the variable `name`, for
/// some event: one of those [`env_vars`] computes (`CLAUDE_PROJECT_DIR` the command
/// executor always gives these dialects), or the `CLAUDE_ENV_FILE` it adds for Claude Code
/// and native hooks ([`takes_env_file`]). A hook whose command reads a variable its new
/// dialect is not given does something else once converted.
pub fn provides_var(dialect: Dialect, name: &str) -> bool {
    (dialect.profile().provides_var)(name)
}

/// The variables naming the project root that the command executor gives a command hook
/// of `dialect` whose event names no `project_dir` ([`Profile::project_dir_vars`]):
/// `CLAUDE_PROJECT_DIR` for Claude Code, echo-agent and native hooks,
/// `CURSOR_PROJECT_DIR` and its alias `CLAUDE_PROJECT_DIR` for Cursor's, none for the
/// others.
///
/// [`Profile::project_dir_vars`]: crate::Profile::project_dir_vars
pub fn project_dir_vars(dialect: Dialect) -> &'static [&'static str] {
    dialect.profile().project_dir_vars
}

/// The environment variables a command hook written in `dialect` receives for `ctx`, as
/// `(name, value)` pairs in a stable order.
///
/// - Autohand: `HOOK_EVENT` (the kebab-case name), `HOOK_WORKSPACE`, `HOOK_SESSION_ID`,
///   `HOOK_TOOL`, `HOOK_ARGS` (the tool input as JSON), `HOOK_PATH` (the event's file
///   path, or the tool input's), and the rest of Autohand's documented `HOOK_*` set, each
///   present when its context field is.
/// - Fabro: `FABRO_EVENT` (the snake_case name), `FABRO_RUN_ID`, `FABRO_WORKFLOW` (the
///   context's `workflow_name`, Fabro's key, else `workflow`), `FABRO_NODE_ID`. The
///   command executor adds `FABRO_HOOK_CONTEXT` for sandboxed hooks.
/// - Claude Code and echo-agent: `CLAUDE_PROJECT_DIR` when the context names a
///   `project_dir` (else the command executor gives its project root, never the `cwd`)
///   and `CLAUDE_PLUGIN_ROOT` when the context names a `plugin_root` (a plugin's hooks
///   get theirs from the loader).
/// - Cursor: `CURSOR_PROJECT_DIR` and `CLAUDE_PROJECT_DIR` (the same as for Claude Code),
///   `CURSOR_VERSION` and `CURSOR_USER_EMAIL` when the context names them.
/// - Cline: none (Cline's hooks get the inherited environment only).
/// - Native: Claude Code's, Autohand's and Fabro's, so a native hook can use any of
///   those dialects' scripts.
///
/// Values: strings as they are; numbers and booleans as JSON writes them (`true`, `42`);
/// arrays and objects as compact JSON; null or absent fields produce no variable.
pub fn env_vars(ctx: &EventContext, dialect: Dialect) -> Vec<(String, String)> {
    let mut out = Vec::new();
    (dialect.profile().env)(ctx, &mut out);
    out
}
