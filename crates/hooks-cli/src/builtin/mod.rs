//! Built-in hooks that ship inside the binary, run as `hooks builtin NAME` from a hook's
//! command line: they read the event JSON on stdin and answer like any hook script.

pub mod guard;

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::Value;

/// The scripts `hooks init` installs, with their contents as shipped; [`script_text`] is
/// what is written.
pub const SCRIPTS: &[(&str, &str)] = &[
    ("log-event.sh", include_str!("../../builtin/log-event.sh")),
    (
        "sound-alert.sh",
        include_str!("../../builtin/sound-alert.sh"),
    ),
    (
        "auto-format.sh",
        include_str!("../../builtin/auto-format.sh"),
    ),
    (
        "notify-webhook.sh",
        include_str!("../../builtin/notify-webhook.sh"),
    ),
    (
        "git-auto-stage.sh",
        include_str!("../../builtin/git-auto-stage.sh"),
    ),
    (
        "smart-commit.sh",
        include_str!("../../builtin/smart-commit.sh"),
    ),
];

/// The placeholder in a script for [`guard::SECRET_FILES`] as a shell `case` pattern.
const SECRET_FILES_PLACEHOLDER: &str = "__HOOKS_SECRET_FILES__";

/// A script's text as installed: `body` with the list of secret files filled in (the
/// git-auto-stage script skips the files the security guard refuses to write).
pub fn script_text(body: &str) -> String {
    body.replace(
        SECRET_FILES_PLACEHOLDER,
        &guard::secret_files_case_pattern(),
    )
}

/// The config entries of the built-in hooks (native YAML, every hook disabled), with
/// `${HOOKS_DIR}` still to be filled in. The security guard runs `{{ vars.HOOKS_BIN }}`,
/// which the command line fills in with its own path at each load, so the config keeps
/// working when the binary moves.
pub const CONFIG_TEMPLATE: &str = include_str!("../../builtin/hooks.yaml");

/// Autohand's config entries of the built-in hooks (`config.json`, every hook disabled),
/// with `${HOOKS_DIR}` (the scripts' directory, as a shell word) and `${HOOKS_BIN}` (the
/// `hooks` binary, for the security guard) still to be filled in.
pub const AUTOHAND_TEMPLATE: &str = include_str!("../../builtin/autohand-config.json");

/// The script form of the security guard, for configs that name
/// `~/.autohand/hooks/security-guard.sh` as Autohand's documentation does; `${HOOKS_BIN}`
/// is filled in.
const GUARD_SCRIPT: &str = include_str!("../../builtin/security-guard.sh");

/// The name a script has in an Autohand install: the one Autohand's documentation gives.
fn autohand_name(name: &str) -> &str {
    match name {
        "notify-webhook.sh" => "slack-notify.sh",
        other => other,
    }
}

/// What [`install_autohand`] wrote.
#[derive(Debug)]
pub struct AutohandInstalled {
    /// `config.json`.
    pub config: PathBuf,
    /// Whether `config.json` was created (or replaced, with `force`).
    pub created: bool,
    /// How many built-in entries were added to an existing `config.json`.
    pub added: usize,
    /// The scripts.
    pub scripts: Vec<PathBuf>,
}

/// Installs the built-in hooks the Autohand way into `dir` (Autohand's `~/.autohand`): the
/// scripts into `dir/hooks` under the names Autohand's documentation uses (always
/// refreshed), and their entries, every one disabled, into `dir/config.json`: a new file,
/// else added to the existing one (keeping its other settings and hooks; an entry whose
/// command it already has is not added twice), else, with `force`, a new file replacing
/// it. `scripts_word` is how the entries name the scripts' directory (`~/.autohand/hooks`);
/// `hooks_bin` is the `hooks` binary the guard runs, as a shell word.
pub fn install_autohand(
    dir: &Path,
    scripts_word: &str,
    hooks_bin: &str,
    force: bool,
) -> Result<AutohandInstalled> {
    let scripts_dir = dir.join("hooks");
    std::fs::create_dir_all(&scripts_dir)
        .with_context(|| format!("creating {}", scripts_dir.display()))?;
    let guard = GUARD_SCRIPT.replace("${HOOKS_BIN}", hooks_bin);
    let mut scripts = Vec::new();
    for (name, body) in SCRIPTS
        .iter()
        .map(|(n, b)| (autohand_name(n), *b))
        .chain([("security-guard.sh", guard.as_str())])
    {
        let path = scripts_dir.join(name);
        write_atomic(&path, script_text(body).as_bytes(), true)?;
        scripts.push(path);
    }
    let text = AUTOHAND_TEMPLATE
        .replace("${HOOKS_DIR}", &json_escape(scripts_word))
        .replace("${HOOKS_BIN}", &json_escape(hooks_bin));
    let config = dir.join("config.json");
    if force || !config.exists() {
        write_atomic(&config, text.as_bytes(), false)?;
        return Ok(AutohandInstalled {
            config,
            created: true,
            added: 0,
            scripts,
        });
    }
    let options = crate::cmd::edit::load_options();
    let template = hooks::config::edit::ConfigEdit::from_text(&config, text, &options)?;
    let mut file = hooks::config::edit::ConfigEdit::open(&config, &options)?;
    let has: Vec<String> = file
        .entries()
        .iter()
        .filter_map(|e| e.spec.as_ref().map(|s| s.action.summary()))
        .collect();
    let mut added = 0;
    for entry in template.entries() {
        let Some(spec) = &entry.spec else { continue };
        if !has.contains(&spec.action.summary()) {
            file.add(spec)?;
            added += 1;
        }
    }
    if added > 0 {
        file.save()?;
    }
    Ok(AutohandInstalled {
        config,
        created: false,
        added,
        scripts,
    })
}

/// Escapes text for the inside of a JSON string.
fn json_escape(s: &str) -> String {
    let quoted = serde_json::Value::String(s.to_owned()).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}

/// What [`install`] wrote.
#[derive(Debug)]
pub struct Installed {
    /// The config file.
    pub config: PathBuf,
    /// Whether the config file was written (false: it existed and `force` was off).
    pub config_written: bool,
    /// The scripts.
    pub scripts: Vec<PathBuf>,
}

/// Installs the built-in hooks into `dir`: the scripts into `dir/scripts` (always
/// refreshed) and their config entries into `dir/hooks.yaml` (kept if it exists, unless
/// `force`).
pub fn install(dir: &Path, force: bool) -> Result<Installed> {
    let scripts_dir = dir.join("scripts");
    std::fs::create_dir_all(&scripts_dir)
        .with_context(|| format!("creating {}", scripts_dir.display()))?;
    let mut scripts = Vec::new();
    for (name, body) in SCRIPTS {
        let path = scripts_dir.join(name);
        write_atomic(&path, script_text(body).as_bytes(), true)?;
        scripts.push(path);
    }
    let config = dir.join("hooks.yaml");
    let config_written = force || !config.exists();
    if config_written {
        let text =
            CONFIG_TEMPLATE.replace("${HOOKS_DIR}", &yaml_escape(&dir.display().to_string()));
        write_atomic(&config, text.as_bytes(), false)?;
    }
    Ok(Installed {
        config,
        config_written,
        scripts,
    })
}

/// Escapes text for the inside of a YAML double-quoted string.
fn yaml_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes `path` atomically (see [`hooks::config::edit::atomic`]); scripts are then made
/// executable.
fn write_atomic(path: &Path, bytes: &[u8], executable: bool) -> Result<()> {
    let text = std::str::from_utf8(bytes).context("built-in files are UTF-8")?;
    let current = std::fs::read_to_string(path).ok();
    hooks::config::edit::atomic::write(path, text, current.as_deref())?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", path.display()))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}

/// The built-in hooks, by name.
pub const NAMES: &[&str] = &["security-guard"];

/// Runs built-in `name` on the event JSON in `stdin`; returns the exit code and what to
/// print on stderr (exit code 2 blocks, with stderr as the reason).
pub fn run(name: &str, stdin: &mut dyn Read) -> Result<(u8, String)> {
    let mut input = String::new();
    stdin
        .read_to_string(&mut input)
        .context("reading the event JSON from stdin")?;
    let event: Value = if input.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&input).context("the event on stdin is not JSON")?
    };
    match name {
        "security-guard" => {
            let tool_input = event.get("tool_input").unwrap_or(&Value::Null);
            Ok(match guard::check(tool_input) {
                guard::Verdict::Allow => (0, String::new()),
                guard::Verdict::Block(reason) => (2, reason),
            })
        }
        other => anyhow::bail!(
            "no built-in hook `{other}` (built-ins: {})",
            NAMES.join(", ")
        ),
    }
}
