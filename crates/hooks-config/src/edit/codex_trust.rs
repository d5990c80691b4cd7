//! Codex CLI's hook trust, computed and written the way Codex reads it, so that `hooks
//! install codex` can make Codex run the hook entries it writes (Codex skips a hook it has
//! not trusted, silently) and `hooks uninstall codex` can take the trust away again.
//!
//! Codex (`codex-rs/hooks/src/engine/discovery.rs`, checked against the 0.171.0 binary's
//! `codex app-server` method `hooks/list`) gives every command hook of a user-controlled
//! file two values:
//!
//! - a **key**, `SOURCE:EVENT:GROUP:HANDLER`: the file's absolute path (for the user layer
//!   `$CODEX_HOME/config.toml` or `$CODEX_HOME/hooks.json`, `$CODEX_HOME` with symbolic
//!   links resolved; see [`codex_home`]), the event's snake-case label (`pre_tool_use`), the
//!   index of the matcher group in the event's list and of the handler in the group's
//!   `hooks`, both counted over the array as written (skipped entries count too);
//! - a **hash**, `sha256:HEX`: SHA-256 of the compact JSON, keys sorted, of the hook's
//!   normalised identity `{"event_name": LABEL, "matcher": M, "hooks": [{"type":
//!   "command", "command": C, "timeout": T, "async": A, "statusMessage": S,
//!   "additionalContextLimit": L}]}`, where the timeout is the one Codex applies (the
//!   configured one or 600, at least 1; SessionEnd's 1 when unset, 1 to 3: see
//!   [`effective_timeout`]), the matcher is dropped for events that ignore matchers (UserPromptSubmit,
//!   Stop), and absent optional fields are left out. It depends on what the hook does,
//!   never on its file or position, so the same hook in `config.toml` and `hooks.json` has
//!   the same hash.
//!
//! Codex runs a hook of the user or project layer when `[hooks.state."KEY"]` in the user's
//! `$CODEX_HOME/config.toml` (the only layer whose hook state it reads) has `trusted_hash`
//! equal to the hook's current hash; a changed hook (`Modified`) is skipped until it is
//! trusted again. [`with_trust`] and [`without_trust`] edit that table with `toml_edit`,
//! keeping every other byte of the file; [`write_trust`] and [`remove_trust`] apply them
//! to the file atomically ([`super::atomic`]).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::{Context, Error, Result, bail, err};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use toml_edit::{DocumentMut, Item, Table};

/// The hook events of Codex 0.171.0, as its config files spell them, with the label its
/// keys and hashes use and whether its matcher counts (the others' matchers are ignored,
/// and left out of the hash).
const EVENTS: [(&str, &str, bool); 11] = [
    ("PreToolUse", "pre_tool_use", true),
    ("PermissionRequest", "permission_request", true),
    ("PostToolUse", "post_tool_use", true),
    ("PreCompact", "pre_compact", true),
    ("PostCompact", "post_compact", true),
    ("SessionStart", "session_start", true),
    ("SessionEnd", "session_end", true),
    ("UserPromptSubmit", "user_prompt_submit", false),
    ("SubagentStart", "subagent_start", true),
    ("SubagentStop", "subagent_stop", true),
    ("Stop", "stop", false),
];

/// The timeout, in seconds, Codex gives a command hook that names none (SessionEnd's is
/// 1 s: see [`effective_timeout`]).
pub const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// The longest timeout, in seconds, Codex gives a SessionEnd hook.
pub const SESSION_END_MAX_TIMEOUT_SECS: u64 = 3;

/// The event names Codex's config files accept (`PreToolUse`, ..), in the order Codex
/// lists hooks.
pub fn events() -> impl Iterator<Item = &'static str> {
    EVENTS.iter().map(|(name, _, _)| *name)
}

/// The label of Codex event `event` (as config files spell it, `PreToolUse`) in trust
/// keys and hashes (`pre_tool_use`); `None` for a name Codex does not know.
pub fn event_label(event: &str) -> Option<&'static str> {
    EVENTS
        .iter()
        .find(|(name, _, _)| *name == event)
        .map(|(_, label, _)| *label)
}

/// One command hook as Codex reads it from a matcher group of `config.toml` (`[[hooks.
/// EVENT]]` with `[[hooks.EVENT.hooks]]`) or `hooks.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodexCommandHook<'a> {
    /// The event, as config files spell it (`PreToolUse`).
    pub event: &'a str,
    /// The group's `matcher`, if it has one.
    pub matcher: Option<&'a str>,
    /// The handler's `command`.
    pub command: &'a str,
    /// The handler's `timeout` in seconds (`None`: Codex's [`DEFAULT_TIMEOUT_SECS`]).
    pub timeout_secs: Option<u64>,
    /// The handler's `async`.
    pub is_async: bool,
    /// The handler's `statusMessage`.
    pub status_message: Option<&'a str>,
    /// The handler's `additionalContextLimit`.
    pub additional_context_limit: Option<u64>,
}

impl<'a> CodexCommandHook<'a> {
    /// A synchronous command hook with no matcher, timeout or message.
    pub fn new(event: &'a str, command: &'a str) -> CodexCommandHook<'a> {
        CodexCommandHook {
            event,
            matcher: None,
            command,
            timeout_secs: None,
            is_async: false,
            status_message: None,
            additional_context_limit: None,
        }
    }
}

/// What Codex needs to trust one hook: `[hooks.state."KEY"] trusted_hash = "HASH"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrustEntry {
    /// The hook's key (`/home/me/.codex/config.toml:pre_tool_use:0:0`).
    pub key: String,
    /// The hook's current hash (`sha256:` and 64 hex digits).
    pub trusted_hash: String,
}

/// The key Codex gives handler `handler` of matcher group `group` (both 0-based, counted
/// over the arrays as written) of `event` (as config files spell it) in the file at
/// `source` (absolute, as Codex spells it: see [`codex_home`]).
pub fn hook_key(source: &Path, event: &str, group: usize, handler: usize) -> Result<String> {
    let label = event_label(event).ok_or_else(|| unknown_event(event))?;
    Ok(format!("{}:{label}:{group}:{handler}", source.display()))
}

/// The hash Codex computes for `hook` (`sha256:HEX`), which `trusted_hash` must equal for
/// the hook to run.
pub fn trusted_hash(hook: &CodexCommandHook<'_>) -> Result<String> {
    let (_, label, has_matcher) = EVENTS
        .iter()
        .find(|(name, _, _)| *name == hook.event)
        .ok_or_else(|| unknown_event(hook.event))?;
    let timeout = effective_timeout(hook.event, hook.timeout_secs);
    // Codex serialises the identity to a TOML value first, whose integers are i64.
    if i64::try_from(timeout).is_err() {
        bail!("a Codex hook timeout of {timeout} s is more than TOML can hold");
    }
    let mut handler = Map::new();
    handler.insert("type".into(), "command".into());
    handler.insert("command".into(), hook.command.into());
    handler.insert("timeout".into(), timeout.into());
    handler.insert("async".into(), hook.is_async.into());
    if let Some(message) = hook.status_message {
        handler.insert("statusMessage".into(), message.into());
    }
    if let Some(limit) = hook.additional_context_limit {
        handler.insert("additionalContextLimit".into(), limit.into());
    }
    let mut identity = Map::new();
    identity.insert("event_name".into(), (*label).into());
    if let Some(matcher) = hook.matcher.filter(|_| *has_matcher) {
        identity.insert("matcher".into(), matcher.into());
    }
    identity.insert("hooks".into(), Value::Array(vec![Value::Object(handler)]));
    let bytes = serde_json::to_vec(&sorted(Value::Object(identity)))
        .context("serialising a Codex hook's identity")?;
    let digest = Sha256::digest(&bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest.iter() {
        out.push_str(&format!("{byte:02x}"));
    }
    Ok(out)
}

/// The timeout Codex 0.171.0 gives a hook of `event` configured with `timeout` (and
/// hashes): at least 1 s, [`DEFAULT_TIMEOUT_SECS`] when unset; SessionEnd's is 1 s when
/// unset and at most [`SESSION_END_MAX_TIMEOUT_SECS`] (Codex waits for it as it exits).
pub fn effective_timeout(event: &str, timeout: Option<u64>) -> u64 {
    if event == "SessionEnd" {
        timeout.unwrap_or(1).clamp(1, SESSION_END_MAX_TIMEOUT_SECS)
    } else {
        timeout.unwrap_or(DEFAULT_TIMEOUT_SECS).max(1)
    }
}

/// `value` with the keys of every object in byte order (serde_json keeps insertion order
/// in this workspace, so the order is made here, as Codex's `canonical_json` does).
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other @ (Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_)) => other,
    }
}

fn unknown_event(event: &str) -> Error {
    let known: Vec<&str> = events().collect();
    err!(
        "Codex has no hook event `{event}` (it has {})",
        known.join(", ")
    )
}

/// The trust entry of every command hook in `hooks`, the hooks table of a Codex file (the
/// `hooks` object of `hooks.json`, or `[hooks]` of `config.toml` as JSON) found at
/// `source`, in the order Codex lists them. Prompt and agent handlers (which Codex does not
/// run), empty commands and groups with an invalid matcher get none, but count for the
/// indexes; keys that are not events (`state`, events Codex does not know) are ignored.
/// A table Codex would refuse to load (a group or handler of the wrong shape) is an
/// error: none of its hooks would run.
pub fn trust_entries(source: &Path, hooks: &Value) -> Result<Vec<TrustEntry>> {
    trust_entries_where(source, hooks, &|_| true)
}

/// [`trust_entries`] of only the hooks for which `keep` holds: what an installer trusts,
/// its own entries (`|hook| hook.command == bridge`), never the user's other hooks,
/// which Codex must go on asking about.
pub fn trust_entries_where(
    source: &Path,
    hooks: &Value,
    keep: &dyn Fn(&CodexCommandHook<'_>) -> bool,
) -> Result<Vec<TrustEntry>> {
    let Value::Object(hooks) = hooks else {
        bail!("the hooks of {} are not a table", source.display());
    };
    let mut out = Vec::new();
    for event in events() {
        let Some(groups) = hooks.get(event) else {
            continue;
        };
        let where_ = |what: String| format!("{} in {}", what, source.display());
        let groups = groups
            .as_array()
            .ok_or_else(|| err!(where_(format!("`{event}` is not a list"))))?;
        for (g, group) in groups.iter().enumerate() {
            let at = |what: &str| where_(format!("`{event}[{g}]`{what}"));
            let group = group
                .as_object()
                .ok_or_else(|| err!(at(" is not a table")))?;
            let matcher = match group.get("matcher") {
                None | Some(Value::Null) => None,
                Some(Value::String(m)) => Some(m.as_str()),
                Some(_) => bail!(at(": `matcher` is not a string")),
            };
            let handlers = match group.get("hooks") {
                None => &Vec::new(),
                Some(Value::Array(items)) => items,
                Some(_) => bail!(at(": `hooks` is not a list")),
            };
            let uses_matcher = EVENTS.iter().any(|(name, _, m)| *name == event && *m);
            if let Some(m) = matcher.filter(|_| uses_matcher)
                && !valid_matcher(m)
            {
                continue;
            }
            for (h, handler) in handlers.iter().enumerate() {
                let at = |what: &str| at(&format!(".hooks[{h}]{what}"));
                let Some(hook) = command_hook(event, matcher, handler, &at)? else {
                    continue;
                };
                if !keep(&hook) {
                    continue;
                }
                out.push(TrustEntry {
                    key: hook_key(source, event, g, h)?,
                    trusted_hash: trusted_hash(&hook)?,
                });
            }
        }
    }
    Ok(out)
}

/// Handler `handler` as a command hook; `None` for one Codex skips (a prompt or agent
/// handler, an empty command).
fn command_hook<'a>(
    event: &'a str,
    matcher: Option<&'a str>,
    handler: &'a Value,
    at: &dyn Fn(&str) -> String,
) -> Result<Option<CodexCommandHook<'a>>> {
    let handler = handler
        .as_object()
        .ok_or_else(|| err!(at(" is not a table")))?;
    match handler.get("type").and_then(Value::as_str) {
        Some("command") => {}
        Some("prompt" | "agent") => return Ok(None),
        _ => bail!(at(": `type` is not command, prompt or agent")),
    }
    let text = |key: &str| match handler.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(err!(at(&format!(": `{key}` is not a string")))),
    };
    let number = |key: &str| match handler.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| err!(at(&format!(": `{key}` is not a whole number of 0 or more")))),
    };
    let command = text("command")?.ok_or_else(|| err!(at(": `command` is missing")))?;
    if command.trim().is_empty() {
        return Ok(None);
    }
    let is_async = match handler.get("async") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => bail!(at(": `async` is not true or false")),
    };
    Ok(Some(CodexCommandHook {
        event,
        matcher,
        command,
        timeout_secs: number("timeout")?,
        is_async,
        status_message: text("statusMessage")?,
        additional_context_limit: number("additionalContextLimit")?,
    }))
}

/// Whether Codex accepts `matcher`: empty, `*`, names and `|` only, or a valid regex.
fn valid_matcher(matcher: &str) -> bool {
    matcher.is_empty()
        || matcher == "*"
        || matcher
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|')
        || regex::Regex::new(matcher).is_ok()
}

/// The trust entries of the hooks in the Codex file at `source` (`config.toml`, whose
/// `[hooks]` table is read, or `hooks.json`, whose `hooks` object is), keyed by `source`
/// as given: pass `codex_home(..)?.join("config.toml")`. A file without hooks has none.
pub fn file_trust_entries(source: &Path) -> Result<Vec<TrustEntry>> {
    file_trust_entries_where(source, &|_| true)
}

/// [`file_trust_entries`] of only the hooks for which `keep` holds (see
/// [`trust_entries_where`]); a missing file has none.
pub fn file_trust_entries_where(
    source: &Path,
    keep: &dyn Fn(&CodexCommandHook<'_>) -> bool,
) -> Result<Vec<TrustEntry>> {
    match read_if_exists(source)? {
        None => Ok(Vec::new()),
        Some(text) => text_trust_entries_where(source, &text, keep),
    }
}

/// [`file_trust_entries_where`] of `text`, the text the file at `source` has (or is about
/// to have): an installer that writes its hooks and their trust into the same
/// `config.toml` computes the entries from the new text and writes once
/// ([`with_trust`]).
pub fn text_trust_entries_where(
    source: &Path,
    text: &str,
    keep: &dyn Fn(&CodexCommandHook<'_>) -> bool,
) -> Result<Vec<TrustEntry>> {
    let doc = if source.extension() == Some(OsStr::new("json")) {
        serde_json::from_str::<Value>(text)
            .with_context(|| format!("{} is not JSON", source.display()))?
    } else {
        super::toml::to_json(text).with_context(|| format!("in {}", source.display()))?
    };
    match doc.get("hooks") {
        None => Ok(Vec::new()),
        Some(hooks) => trust_entries_where(source, hooks, keep),
    }
}

/// Codex's home directory, as its keys spell it: `$CODEX_HOME` (`codex_home_var`, when
/// set and not empty) with symbolic links resolved, which must exist; else `.codex` in
/// the home directory `home` as given (Codex does not resolve links there).
pub fn codex_home(codex_home_var: Option<&OsStr>, home: Option<&Path>) -> Result<PathBuf> {
    match codex_home_var.filter(|v| !v.is_empty()) {
        Some(dir) => std::fs::canonicalize(dir).with_context(|| {
            format!(
                "CODEX_HOME is {}, which does not exist",
                Path::new(dir).display()
            )
        }),
        None => {
            let home = home.ok_or_else(|| err!("neither CODEX_HOME nor HOME is set"))?;
            Ok(home.join(".codex"))
        }
    }
}

/// `config` (the text of `$CODEX_HOME/config.toml`) with `trusted_hash` set for every
/// entry in `[hooks.state."KEY"]` (other keys of the entry, such as `enabled`, stay),
/// creating the tables as needed; every other byte stays as it was.
pub fn with_trust(config: &str, entries: &[TrustEntry]) -> Result<String> {
    let mut doc = parse(config)?;
    let state = state_table(&mut doc, true)?.ok_or_else(|| err!("no [hooks.state]"))?;
    for entry in entries {
        let hash = toml_edit::value(entry.trusted_hash.as_str());
        match state.get_mut(&entry.key) {
            None => {
                let mut table = Table::new();
                table.insert("trusted_hash", hash);
                state.insert(&entry.key, Item::Table(table));
            }
            Some(item) => {
                let table = item
                    .as_table_like_mut()
                    .ok_or_else(|| err!("[hooks.state.\"{}\"] is not a table", entry.key))?;
                match table.get_mut("trusted_hash") {
                    Some(Item::Value(old)) => {
                        let decor = old.decor().clone();
                        *old = entry.trusted_hash.as_str().into();
                        *old.decor_mut() = decor;
                    }
                    _ => {
                        table.insert("trusted_hash", hash);
                    }
                }
            }
        }
    }
    Ok(doc.to_string())
}

/// `config` without the trust of `entries`: each `[hooks.state."KEY"]` loses its
/// `trusted_hash` when it equals the entry's (a hash the user trusted for another hook
/// at that place stays), and is removed when nothing is left in it; `[hooks.state]` and
/// `[hooks]` are removed too when this left them empty and they have no header of their
/// own. After [`with_trust`] on a file, this gives the file's text back byte for byte.
pub fn without_trust(config: &str, entries: &[TrustEntry]) -> Result<String> {
    let mut doc = parse(config)?;
    let Some(state) = state_table(&mut doc, false)? else {
        return Ok(config.to_owned());
    };
    let mut changed = false;
    for entry in entries {
        let Some(table) = state.get_mut(&entry.key).and_then(Item::as_table_like_mut) else {
            continue;
        };
        let ours = table
            .get("trusted_hash")
            .and_then(Item::as_str)
            .is_some_and(|h| h == entry.trusted_hash);
        if !ours {
            continue;
        }
        table.remove("trusted_hash");
        changed = true;
        if table.is_empty() {
            state.remove(&entry.key);
        }
    }
    if !changed {
        return Ok(config.to_owned());
    }
    let state_empty = state.is_empty() && state.is_implicit();
    if let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_mut) {
        if state_empty {
            hooks.remove("state");
        }
        if hooks.is_empty() && hooks.is_implicit() {
            doc.remove("hooks");
        }
    }
    Ok(doc.to_string())
}

/// `config` (the text of a Codex `config.toml`) without its hooks: every key of `[hooks]`
/// but `state` (the trust of hooks, which stays), and `[hooks]` itself when nothing is left
/// in it; every other byte stays as it was.
pub fn without_hooks(config: &str) -> Result<String> {
    let mut doc = parse(config)?;
    let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_like_mut) else {
        return Ok(config.to_owned());
    };
    let events: Vec<String> = hooks
        .iter()
        .map(|(k, _)| k.to_owned())
        .filter(|k| k != "state")
        .collect();
    for key in &events {
        hooks.remove(key);
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    Ok(doc.to_string())
}

fn parse(config: &str) -> Result<DocumentMut> {
    config
        .parse()
        .map_err(|e| err!("config.toml is not valid TOML: {e}"))
}

/// `[hooks.state]`, created (without headers of its own) when `create` is set.
fn state_table(doc: &mut DocumentMut, create: bool) -> Result<Option<&mut Table>> {
    if doc.get("hooks").is_none() {
        if !create {
            return Ok(None);
        }
        doc.insert("hooks", Item::Table(implicit()));
    }
    let hooks = doc
        .get_mut("hooks")
        .and_then(Item::as_table_mut)
        .ok_or_else(|| err!("`hooks` in config.toml is not a table of its own"))?;
    if hooks.get("state").is_none() {
        if !create {
            return Ok(None);
        }
        hooks.insert("state", Item::Table(implicit()));
    }
    hooks
        .get_mut("state")
        .and_then(Item::as_table_mut)
        .map(Some)
        .ok_or_else(|| err!("`hooks.state` in config.toml is not a table of its own"))
}

fn implicit() -> Table {
    let mut table = Table::new();
    table.set_implicit(true);
    table
}

/// Sets the trust of `entries` in the Codex config file at `config` (created when
/// missing), atomically; returns whether the file changed.
pub fn write_trust(config: &Path, entries: &[TrustEntry]) -> Result<bool> {
    let original = read_if_exists(config)?;
    let before = original.as_deref().unwrap_or_default();
    let text = with_trust(before, entries).with_context(|| format!("in {}", config.display()))?;
    if original.as_deref() == Some(text.as_str()) {
        return Ok(false);
    }
    super::atomic::write(config, &text, original.as_deref())?;
    Ok(true)
}

/// Removes the trust of `entries` from the Codex config file at `config` ([`without_trust`]),
/// atomically; returns whether the file changed (a missing file has nothing to remove).
pub fn remove_trust(config: &Path, entries: &[TrustEntry]) -> Result<bool> {
    let Some(original) = read_if_exists(config)? else {
        return Ok(false);
    };
    let text =
        without_trust(&original, entries).with_context(|| format!("in {}", config.display()))?;
    if text == original {
        return Ok(false);
    }
    super::atomic::write(config, &text, Some(&original))?;
    Ok(true)
}

fn read_if_exists(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}
