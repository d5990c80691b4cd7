//! Trust: hooks that arrive with a repository do not run until someone trusts them.
//!
//! A [`TrustStore`] records grants in a JSON file (by default
//! `$XDG_DATA_HOME/hooks/trust.json`, or `~/.local/share/hooks/trust.json`; the
//! `HOOKS_TRUST_STORE` environment variable or [`TrustStore::open`] names another, so tests
//! and hosts choose where it lives). A grant is either
//!
//! - **per hook**: the hook's content hash ([`hook_hash`]) in one file. Change anything the
//!   hook does (its command, event, matcher, timeout, ...) and the hash changes, so the hook
//!   needs trust again; moving it within the file or toggling `enabled` does not.
//! - **per file**: the SHA-256 of the file's whole text. Any edit to the file ends the grant.
//!
//! Either kind covers the file *at its location*: the absolute path the config was found
//! at (`.` and `..` removed, symlinks not followed). The hooks of a project's file run in
//! that project, so a file elsewhere is a different file, even a symlink to a trusted one
//! or a copy with the same hash: a project whose `.claude/settings.json` links to a file
//! trusted in another project, or whose `.claude` folder does, runs nothing until trusted
//! there. (Discovery resolves the symlinks of the project root itself, so any spelling of
//! the root finds the same grants.)
//!
//! Which hooks need trust is decided by how their file arrived
//! ([`ConfigFile::needs_trust`]): files *discovered* in the project and local layers do;
//! files named explicitly, and every other layer, do not. A host may bypass trust
//! altogether with [`TrustPolicy::Bypass`], explicitly.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use hooks_core::{Action, CommandLine, HookSpec, MatcherKind};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::file::{ConfigFile, hex};

/// What a grant covers.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantKind {
    /// One hook, by content hash, in one file.
    Hook,
    /// A whole file, by the hash of its text.
    File,
}

/// One trust grant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// Hook or file.
    pub kind: GrantKind,
    /// The file, at its location: absolute, symlinks not followed (see the module docs).
    pub file: PathBuf,
    /// The hook's content hash, or the file's text hash (SHA-256, hex).
    pub hash: String,
    /// The hook's id or display name, for listings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// When it was granted, in seconds since the Unix epoch.
    pub granted_at: u64,
    /// For a file grant carried over an edit a tool made at the user's request
    /// ([`TrustStore::follow_edit`]): the hash of the text the user had trusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follows: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    grants: Vec<Grant>,
}

/// How merging treats hooks that need trust.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum TrustPolicy<'a> {
    /// Hooks that need trust run only if this store has a grant for them.
    Store(&'a TrustStore),
    /// Nothing is trusted: every hook that needs trust stays off.
    Deny,
    /// The host vouches for every hook: nothing needs trust. Use only when the host has
    /// its own means of deciding what to run.
    Bypass,
}

impl TrustPolicy<'_> {
    /// Whether `file` as a whole is trusted: it needs no trust, it has a file grant, or
    /// trust is bypassed. Only such files may disable, remove or replace inherited hooks.
    pub fn allows_file(&self, file: &ConfigFile) -> bool {
        if !file.needs_trust() {
            return true;
        }
        match self {
            TrustPolicy::Store(store) => store.is_file_trusted(file),
            TrustPolicy::Deny => false,
            TrustPolicy::Bypass => true,
        }
    }

    /// Whether `spec` from `file` may run.
    pub fn allows(&self, file: &ConfigFile, spec: &HookSpec) -> bool {
        if !file.needs_trust() {
            return true;
        }
        match self {
            TrustPolicy::Store(store) => store.is_trusted(file, spec),
            TrustPolicy::Deny => false,
            TrustPolicy::Bypass => true,
        }
    }
}

/// The trust grants, kept in a JSON file.
#[derive(Clone, Debug, Default)]
pub struct TrustStore {
    path: Option<PathBuf>,
    grants: Vec<Grant>,
}

/// Where a file is, as grants record it: its absolute path with `.` and `..` removed
/// lexically, and no symlink resolved. A symlink is a file of its own, at its own place;
/// following it would let a grant given in one project cover a link in another. (`..` is
/// removed lexically too: whatever the path names, the content hash a grant also holds
/// is that of what was read.)
fn location(path: &Path) -> PathBuf {
    use std::path::Component;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Prefix(_) | Component::RootDir | Component::Normal(_) => out.push(part),
        }
    }
    out
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl TrustStore {
    /// A store that lives in memory only (`save` does nothing).
    pub fn in_memory() -> TrustStore {
        TrustStore::default()
    }

    /// The default store file: `$HOOKS_TRUST_STORE`, else
    /// `$XDG_DATA_HOME/hooks/trust.json`, else `$HOME/.local/share/hooks/trust.json`.
    pub fn default_path() -> Option<PathBuf> {
        if let Some(p) = std::env::var_os("HOOKS_TRUST_STORE") {
            return Some(PathBuf::from(p));
        }
        let data = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
        Some(data.join("hooks").join("trust.json"))
    }

    /// Opens the store at [`TrustStore::default_path`].
    pub fn open_default() -> Result<TrustStore, Error> {
        match TrustStore::default_path() {
            Some(path) => TrustStore::open(path),
            None => Err(Diagnostic::error(
                DiagnosticKind::Trust,
                "cannot find a place for the trust store: neither HOOKS_TRUST_STORE, XDG_DATA_HOME nor HOME is set",
            )
            .into()),
        }
    }

    /// Opens the store kept in `path`; a missing file is an empty store.
    pub fn open(path: impl Into<PathBuf>) -> Result<TrustStore, Error> {
        let path = path.into();
        let grants = match std::fs::read(&path) {
            Ok(bytes) => {
                let file: StoreFile = serde_json::from_slice(&bytes).map_err(|e| {
                    Error::from(
                        Diagnostic::error(
                            DiagnosticKind::Trust,
                            format!("the trust store is corrupt: {e}"),
                        )
                        .with_file(&path)
                        .with_hint("move the file aside; hooks will need trust again"),
                    )
                })?;
                file.grants
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(Error::io(&path, &e)),
        };
        Ok(TrustStore {
            path: Some(path),
            grants,
        })
    }

    /// Where the store is kept, if on disk.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Writes the store (atomically: a temporary file renamed over the old one).
    pub fn save(&self) -> Result<(), Error> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let io = |e: std::io::Error| Error::io(path, &e);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = StoreFile {
            version: 1,
            grants: self.grants.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        // A name no other writer picks at the same moment; the rename makes it atomic.
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let tmp = path.with_extension(format!("json.tmp.{nanos}"));
        std::fs::write(&tmp, text).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Every grant, oldest first.
    pub fn grants(&self) -> &[Grant] {
        &self.grants
    }

    /// Whether `spec` of `file` is trusted: the file as a whole, or this hook's content.
    pub fn is_trusted(&self, file: &ConfigFile, spec: &HookSpec) -> bool {
        let Some(path) = &file.path else {
            return false;
        };
        let path = location(path);
        let hash = hook_hash(spec);
        self.grants.iter().any(|g| {
            g.file == path
                && match g.kind {
                    GrantKind::File => g.hash == file.content_hash,
                    GrantKind::Hook => g.hash == hash,
                }
        })
    }

    /// Whether `file` has a grant for its current text.
    pub fn is_file_trusted(&self, file: &ConfigFile) -> bool {
        let Some(path) = &file.path else {
            return false;
        };
        let path = location(path);
        self.grants
            .iter()
            .any(|g| g.kind == GrantKind::File && g.file == path && g.hash == file.content_hash)
    }

    /// Trusts one hook of `file`, as it is now.
    pub fn trust_hook(&mut self, file: &ConfigFile, spec: &HookSpec) -> Result<&Grant, Error> {
        let path = Self::file_path(file)?;
        self.add(Grant {
            kind: GrantKind::Hook,
            file: path,
            hash: hook_hash(spec),
            hook: Some(spec.display_id()),
            granted_at: now(),
            follows: None,
        })
    }

    /// Trusts every hook of `file`, as its text is now.
    pub fn trust_file(&mut self, file: &ConfigFile) -> Result<&Grant, Error> {
        let path = Self::file_path(file)?;
        self.add(Grant {
            kind: GrantKind::File,
            file: path,
            hash: file.content_hash.clone(),
            hook: None,
            granted_at: now(),
            follows: None,
        })
    }

    /// Carries a file grant over an edit that a tool made at the user's request: if
    /// `before` (the text the edit started from) is trusted as a whole, `after` (the text
    /// the tool wrote, and only that text) is trusted in its place, and the grant records
    /// the hash it follows. Returns the new grant, or `None` when `before` had no file
    /// grant (then nothing changes) or the two are not the same file.
    ///
    /// Call it only when `after` is `before` with the one change the user asked for, and
    /// the file still held `before` when it was replaced: anything else someone wrote in
    /// the meantime would be trusted with it.
    pub fn follow_edit(
        &mut self,
        before: &ConfigFile,
        after: &ConfigFile,
    ) -> Result<Option<&Grant>, Error> {
        let path = Self::file_path(before)?;
        if Self::file_path(after)? != path || !self.is_file_trusted(before) {
            return Ok(None);
        }
        self.grants.retain(|g| {
            !(g.kind == GrantKind::File && g.file == path && g.hash == before.content_hash)
        });
        self.add(Grant {
            kind: GrantKind::File,
            file: path,
            hash: after.content_hash.clone(),
            hook: None,
            granted_at: now(),
            follows: Some(before.content_hash.clone()),
        })
        .map(Some)
    }

    fn file_path(file: &ConfigFile) -> Result<PathBuf, Error> {
        file.path.as_deref().map(location).ok_or_else(|| {
            Diagnostic::error(
                DiagnosticKind::Trust,
                "only hooks from a file can be trusted",
            )
            .into()
        })
    }

    fn add(&mut self, grant: Grant) -> Result<&Grant, Error> {
        // A new grant for the same thing replaces the old one.
        self.grants
            .retain(|g| !(g.kind == grant.kind && g.file == grant.file && g.hash == grant.hash));
        self.grants.push(grant);
        self.grants.last().ok_or_else(|| {
            Diagnostic::error(DiagnosticKind::Trust, "the grant was not recorded").into()
        })
    }

    /// Revokes the grants matching `target`: a hash (or a prefix of at least 8 hex
    /// digits), a file path (every grant for that file), or a hook id. Returns how many
    /// were revoked.
    pub fn revoke(&mut self, target: &str) -> usize {
        // The file at that location, and the one it resolves to: revoking more is safe.
        let at = location(Path::new(target));
        let real = std::fs::canonicalize(target).unwrap_or_else(|_| at.clone());
        let before = self.grants.len();
        self.grants.retain(|g| {
            let by_hash =
                g.hash == target || (target.len() >= MIN_HASH_PREFIX && g.hash.starts_with(target));
            let by_file = g.file == at || g.file == real;
            let by_hook = g.hook.as_deref() == Some(target);
            !(by_hash || by_file || by_hook)
        });
        before - self.grants.len()
    }
}

/// The fewest leading characters of a hash that [`TrustStore::revoke`] takes for the whole
/// hash: fewer could match grants nobody meant.
pub const MIN_HASH_PREFIX: usize = 8;

/// The content hash of a hook (SHA-256 of its canonical JSON, hex): everything that
/// decides what it does and when, without where it was written or whether it is enabled.
/// Secrets are hashed as their `{{ secrets.NAME }}` tokens, never their values.
pub fn hook_hash(spec: &HookSpec) -> String {
    let text = serde_json::to_string(&canonical(spec)).unwrap_or_default();
    hex(&Sha256::digest(text.as_bytes()))
}

/// The canonical JSON of what a hook does and when (keys sorted by `serde_json`'s map).
pub(crate) fn canonical(spec: &HookSpec) -> Value {
    let mut value = when(spec);
    if let Value::Object(map) = &mut value {
        map.insert("id".into(), json!(spec.id));
        map.insert("name".into(), json!(spec.name));
        map.insert("description".into(), json!(spec.description));
        map.insert(
            "timeout_ms".into(),
            json!(spec.timeout.map(|t| t.as_millis() as u64)),
        );
        map.insert("on_failure".into(), json!(spec.on_failure));
        map.insert("async".into(), json!(spec.is_async));
        map.insert("sequential".into(), json!(spec.sequential));
        map.insert("dialect".into(), json!(spec.dialect));
        // Only when set, so that the hash of a hook without one is what it always was.
        if let Some(limit) = spec.loop_limit {
            map.insert("loop_limit".into(), json!(limit.limit()));
        }
    }
    value
}

/// The part of the canonical form that decides whether two hooks are duplicates: the
/// event, matcher, filter, condition and action.
pub(crate) fn when(spec: &HookSpec) -> Value {
    let matcher_kind = match spec.matcher.kind() {
        MatcherKind::All => "all",
        MatcherKind::Exact(_) => "exact",
        MatcherKind::Regex(_) => "regex",
    };
    let mut filter = json!({"tools": spec.filter.tools(), "paths": spec.filter.path_globs()});
    // Only when set, so that the hash of a hook without one is what it always was.
    if let Some(command) = spec.filter.command() {
        filter["command"] = json!(command);
    }
    json!({
        "event": spec.event.name(),
        "matcher": [matcher_kind, spec.matcher.as_str()],
        "filter": filter,
        "if": spec.condition.as_ref().map(|c| c.as_str()),
        "action": action_json(&spec.action),
    })
}

pub(crate) fn action_json(action: &Action) -> Value {
    match action {
        Action::Command(c) => json!({
            "type": "command",
            "command": match &c.command {
                CommandLine::Script(s) => json!(s),
                CommandLine::Argv(v) => json!(v),
            },
            "cwd": c.cwd,
            "env": c.env,
            "sandbox": c.sandbox,
        }),
        Action::Http(h) => json!({
            "type": "http", "url": h.url, "headers": h.headers, "allowed_env_vars": h.allowed_env_vars,
        }),
        Action::McpTool(m) => {
            json!({"type": "mcp_tool", "server": m.server, "tool": m.tool, "input": m.input})
        }
        Action::Prompt(p) => {
            let mut v =
                json!({"type": "prompt", "prompt": p.prompt, "mode": p.mode, "model": p.model});
            // Only when set, so that the hashes of hooks written before it existed stay.
            if let (Some(rounds), Value::Object(map)) = (p.max_tool_rounds, &mut v) {
                map.insert("max_tool_rounds".into(), json!(rounds));
            }
            v
        }
        Action::Permission(p) => {
            json!({"type": "permission", "decision": p.decision, "reason": p.reason})
        }
        other => json!({"type": other.type_name(), "summary": other.summary()}),
    }
}
