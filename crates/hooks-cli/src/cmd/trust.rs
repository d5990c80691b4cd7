//! `hooks trust [FILE|HOOK_ID] [--list] [--revoke TARGET] [--store FILE] [--json]`: the trust
//! store that lets hooks discovered in a project directory run.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use hooks::config::{ConfigFile, Grant, GrantKind, LoadOptions, Origin, TrustStore, hook_hash};
use serde_json::{Value, json};

use super::render::{self, Style, plural};
use crate::cli::TrustArgs;

/// Grants, revokes or lists trust; exit 0, or 1 when there is nothing to grant or revoke.
///
/// - `hooks trust FILE`: trusts every hook of FILE as its text is now;
/// - `hooks trust HOOK_ID`: trusts that one hook (found in the `-c` files or the
///   discovered ones) as it is now;
/// - `hooks trust --revoke TARGET`: revokes grants by file, hook id or hash;
/// - `hooks trust` or `--list`: the grants, and the discovered hooks still waiting.
pub fn run(args: &TrustArgs) -> Result<u8> {
    let mut store = match &args.store {
        Some(path) => TrustStore::open(path),
        None => TrustStore::open_default(),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let style = Style::stdout();
    let mut out = std::io::stdout().lock();
    if let Some(target) = &args.revoke {
        let n = store.revoke(target);
        if n == 0 {
            return Err(no_grant(&store, target));
        }
        save(&store)?;
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"revoked": n, "store": store_path(&store)})
            )?;
        } else {
            writeln!(out, "revoked {n} grant{} for {target}", plural(n))?;
        }
        return Ok(0);
    }
    match &args.target {
        Some(target) if !args.list => {
            let grant = grant(&mut store, target, args)?;
            save(&store)?;
            if args.json {
                writeln!(
                    out,
                    "{}",
                    json!({"granted": grant_json(&grant), "store": store_path(&store)})
                )?;
            } else {
                let what = match (&grant.kind, &grant.hook) {
                    (GrantKind::Hook, Some(id)) => format!("hook `{id}` of"),
                    _ => "every hook of".to_owned(),
                };
                writeln!(
                    out,
                    "trusted {what} {} (sha256 {}) in {}",
                    grant.file.display(),
                    short_hash(&grant.hash),
                    store_path(&store)
                )?;
            }
        }
        _ => {
            let pending = pending(&store, args)?;
            if args.json {
                let line = json!({
                    "store": store_path(&store),
                    "grants": store.grants().iter().map(grant_json).collect::<Vec<_>>(),
                    "pending": pending,
                });
                writeln!(out, "{line}")?;
            } else {
                write!(out, "{}", human(style, &store, &pending))?;
            }
        }
    }
    Ok(0)
}

/// Trusts `target`: a config file if one is there, else the hook it names (a file that is
/// not a config, such as a hook's own `./check.sh`, can be the handle of a hook).
fn grant(store: &mut TrustStore, target: &str, args: &TrustArgs) -> Result<Grant> {
    let path = Path::new(target);
    let not_a_config = if path.is_file() {
        match load(path) {
            Ok(file) => {
                return Ok(store
                    .trust_file(&file)
                    .map_err(|e| anyhow::anyhow!("{e}"))?
                    .clone());
            }
            Err(e) => Some(e),
        }
    } else {
        None
    };
    match grant_hook(store, target, args) {
        Ok(grant) => Ok(grant),
        Err(e) => Err(match not_a_config {
            Some(load_error) => load_error.context(format!("and {e:#}")),
            None => e,
        }),
    }
}

/// Trusts the hook `target` names.
fn grant_hook(store: &mut TrustStore, target: &str, args: &TrustArgs) -> Result<Grant> {
    let engine = render::load_engine_from(super::engine_builder_with(
        &args.config,
        Some(store.clone()),
    )?)?;
    let loaded = engine.loaded();
    let hook = super::test::find(&loaded.hooks, target)
        .with_context(|| format!("`{target}` is neither a config file nor a hook's handle"))?;
    let file_path = hook
        .spec
        .provenance
        .file
        .as_ref()
        .context("the hook was not written in a file")?;
    let file = loaded
        .files
        .iter()
        .find(|f| f.path.as_ref() == Some(file_path))
        .context("the hook's file is not loaded")?;
    // Trust the hook as its file wrote it (a higher layer may have disabled it since).
    let spec = file
        .hooks()
        .find(|s| hook_hash(s) == hook.hash)
        .unwrap_or(&hook.spec);
    Ok(store
        .trust_hook(file, spec)
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .clone())
}

/// Loads a file as a discovered one would be, so that its hash is what merging checks.
fn load(path: &Path) -> Result<ConfigFile> {
    hooks::config::load_file(
        path,
        &LoadOptions::new()
            .with_origin(Origin::Discovered)
            .with_interpolation(super::interpolation()),
    )
    .map_err(|e| anyhow::anyhow!("{} does not load:\n{e}", path.display()))
}

fn save(store: &TrustStore) -> Result<()> {
    store.save().map_err(|e| anyhow::anyhow!("{e}"))
}

fn store_path(store: &TrustStore) -> String {
    store
        .path()
        .map_or_else(|| "<memory>".to_owned(), |p| p.display().to_string())
}

/// Why `--revoke TARGET` revoked nothing: a hash prefix too short to be taken (with the
/// grants it would match), or no grant at all.
fn no_grant(store: &TrustStore, target: &str) -> anyhow::Error {
    let min = hooks::config::MIN_HASH_PREFIX;
    let hex = !target.is_empty() && target.chars().all(|c| c.is_ascii_hexdigit());
    if !hex || target.len() >= min {
        return anyhow::anyhow!("no grant matches `{target}` (see `hooks trust --list`)");
    }
    let matches: Vec<String> = store
        .grants()
        .iter()
        .filter(|g| g.hash.starts_with(target))
        .map(|g| format!("sha256 {}  {}", short_hash(&g.hash), g.file.display()))
        .collect();
    if matches.is_empty() {
        return anyhow::anyhow!(
            "no grant matches `{target}`, and a hash prefix has at least {min} characters \
             (see `hooks trust --list`)"
        );
    }
    anyhow::anyhow!(
        "`{target}` is too short: a hash prefix names a grant with at least {min} characters. \
         Grants it would match:\n  {}\n  hint: give the hash as `hooks trust --list` shows it",
        matches.join("\n  ")
    )
}

fn short_hash(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// One grant as JSON.
fn grant_json(grant: &Grant) -> Value {
    json!({
        "kind": grant.kind,
        "file": grant.file.display().to_string(),
        "hash": grant.hash,
        "hook": grant.hook,
        "granted_at": grant.granted_at,
        "follows": grant.follows,
    })
}

/// The hooks of the current configuration that wait for trust.
fn pending(store: &TrustStore, args: &TrustArgs) -> Result<Vec<Value>> {
    let engine = render::load_engine_from(super::engine_builder_with(
        &args.config,
        Some(store.clone()),
    )?)?;
    let loaded = engine.loaded();
    Ok(loaded
        .hooks
        .hooks()
        .iter()
        .filter(|h| h.needs_trust && !h.trusted)
        .map(|h| {
            json!({
                "id": h.spec.display_id(),
                "event": h.spec.event.name(),
                "source": h.spec.provenance.to_string(),
                "file": h.spec.provenance.file.as_ref().map(|f| f.display().to_string()),
                "hash": h.hash,
            })
        })
        .collect())
}

fn human(style: Style, store: &TrustStore, pending: &[Value]) -> String {
    let mut out = String::new();
    let grants = store.grants();
    let _ = writeln!(
        out,
        "{} {} ({} grant{})",
        style.bold("Trust store:"),
        store_path(store),
        grants.len(),
        plural(grants.len())
    );
    for g in grants {
        let what = match (&g.kind, &g.hook) {
            (GrantKind::Hook, Some(id)) => format!("hook {id} in"),
            (GrantKind::Hook, None) => "hook in".to_owned(),
            _ => "file".to_owned(),
        };
        let carried = match &g.follows {
            Some(before) => format!(" · follows an edit of sha256 {}", short_hash(before)),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  {what} {}  {}",
            g.file.display(),
            style.dim(&format!(
                "sha256 {} · granted {}{carried}",
                short_hash(&g.hash),
                date(g.granted_at)
            ))
        );
    }
    if !pending.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            style.yellow(&format!(
                "{} hook{} wait{} for trust:",
                pending.len(),
                plural(pending.len()),
                if pending.len() == 1 { "s" } else { "" }
            ))
        );
        for p in pending {
            let _ = writeln!(
                out,
                "  {} ({})  {}",
                p["id"].as_str().unwrap_or_default(),
                p["event"].as_str().unwrap_or_default(),
                style.dim(p["source"].as_str().unwrap_or_default())
            );
        }
        let _ = writeln!(
            out,
            "review them, then `hooks trust FILE` (every hook of a file) or `hooks trust HOOK_ID`"
        );
    }
    out
}

/// Seconds since the Unix epoch as a UTC date and time (`2025-11-30 03:02:11Z`).
fn date(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil-from-days algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
