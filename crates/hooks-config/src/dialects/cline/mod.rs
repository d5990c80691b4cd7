//! Cline's hooks: no config file, but one executable per event, named after the event
//! (`PreToolUse`, `TaskStart`, ...), in Cline's hooks directories (the global
//! `~/Documents/Cline/Hooks/`, each workspace's `.clinerules/hooks/`, and the SDK's
//! `~/.cline/hooks/` (`$CLINE_DIR/hooks/` when `CLINE_DIR` moves Cline's home) and
//! `<workspace>/.cline/hooks/`). Each such file is a hook: it is run,
//! never parsed; as in Cline, one without its executable bit is disabled, and so is every
//! one when the user switched Cline's hooks off (`hooksEnabled: false` in Cline's
//! `globalState.json`, see [`hooks_switched_off`]).

use std::path::{Path, PathBuf};

use hooks_core::cline;
use hooks_core::{Action, Dialect, Event, HookSpec, Provenance, default_timeout_for};
use sha2::{Digest, Sha256};

use crate::dialects::files::{Claim, DialectFiles, EditRules, SwitchNames, Unparsed, Writing};
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::file::{ConfigFile, Item, LoadOptions, Settings, hex};
use crate::parse::Format;
use crate::reader::{ReadRules, Reader};
use crate::source;
use crate::tree::Node;
use crate::write::WriteRules;

/// Why a Cline hook is not loaded from text.
const NOT_A_CONFIG: &str =
    "a Cline hook is an executable file named after its event, not a config to parse";

/// Cline's row.
pub(crate) static FILES: DialectFiles = DialectFiles {
    dialect: Dialect::Cline,
    formats: &[Format::Json],
    from_path: |path| in_hooks_dir(path).then_some(Claim::Place),
    shapes: &[],
    shape_over_name: crate::dialects::files::no_other_shape,
    layer_from_path: crate::dialects::files::no_layer,
    unparsed: Some(Unparsed {
        load,
        refusal: (
            NOT_A_CONFIG,
            "load it from its file (`-c .clinerules/hooks/PreToolUse`)",
        ),
    }),
    read,
    path_var: crate::dialects::files::no_path_var,
    reading: ReadRules::PLAIN,
    writing: Writing::Refused {
        message: "Cline has no config file to write: its hooks are executables named after their events (`.clinerules/hooks/PreToolUse`, ...)",
        hint: "write the hook's script to that file and make it executable; `hooks convert` reads Cline hook files, to any other dialect",
    },
    write_rules: WriteRules {
        own_input: true,
        ..WriteRules::PLAIN
    },
    switch_names: SwitchNames::NATIVE,
    run_config: None,
    disabled_name: None,
    editing: EditRules {
        refusal: Some(
            "is a Cline hook file, an executable that is its own hook, so it is not edited here\n  hint: edit the script; `chmod -x` disables it, `chmod +x` enables it, as in Cline",
        ),
        ..EditRules::IN_PLACE
    },
};

/// A Cline hook is an executable file, loaded by its path ([`load`]), never parsed: text
/// read in Cline's dialect is refused.
fn read(reader: &mut Reader<'_>, root: &Node, _: &mut ConfigFile) {
    reader.error(
        DiagnosticKind::Dialect,
        root.pos,
        NOT_A_CONFIG,
        Some("name the file by its path (`-c .clinerules/hooks/PreToolUse`)".to_owned()),
    );
}

/// The hooks directories of Cline, as the last components of their paths.
const HOOK_DIRS: &[&[&str]] = &[
    &[".clinerules", "hooks"],
    &["Documents", "Cline", "Hooks"],
    &[".cline", "hooks"],
];

/// The line that marks a hook file `hooks install cline` wrote (a script that runs `hooks
/// bridge cline`): such a file is the engine itself, so loading it gives no hook (the
/// engine's hooks would otherwise run twice), and `hooks uninstall cline` removes only
/// files that carry it.
pub const BRIDGE_MARKER: &str =
    "# Written by `hooks install cline`: Cline runs the hooks engine's bridge here.";

/// Whether the hook file `contents` is one `hooks install cline` wrote (by any hooks
/// binary): whether one of its lines is [`BRIDGE_MARKER`]. Lines end at `\n` or `\r\n`,
/// as [`str::lines`] reads them, so a script saved with Windows line endings is still
/// the bridge's.
pub fn is_bridge_script(contents: &[u8]) -> bool {
    contents.split_inclusive(|&b| b == b'\n').any(|line| {
        let line = match line.strip_suffix(b"\n") {
            Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
            None => line,
        };
        line == BRIDGE_MARKER.as_bytes()
    })
}

/// Whether Cline runs a hook file with metadata `meta` (Cline's "enabled"): on Unix, when
/// it has an executable bit; elsewhere, where Cline runs `.ps1` hooks through PowerShell,
/// when it is a regular file.
#[cfg(unix)]
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

/// Whether Cline runs a hook file with metadata `meta` (Cline's "enabled"): on Unix, when
/// it has an executable bit; elsewhere, where Cline runs `.ps1` hooks through PowerShell,
/// when it is a regular file.
#[cfg(not(unix))]
pub fn is_executable(meta: &std::fs::Metadata) -> bool {
    meta.is_file()
}

/// Whether `path` lies directly in one of Cline's hooks directories, where each file is
/// a hook named after its event: one of [`HOOK_DIRS`], or `$CLINE_DIR/hooks`.
pub(crate) fn in_hooks_dir(path: &Path) -> bool {
    let Some(dir) = path.parent() else {
        return false;
    };
    let names: Vec<&str> = dir
        .components()
        .rev()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    HOOK_DIRS
        .iter()
        .any(|tail| tail.len() <= names.len() && tail.iter().rev().zip(&names).all(|(a, b)| a == b))
        || (dir.file_name().is_some_and(|n| n == "hooks")
            && dir.parent().is_some_and(|home| {
                static REAL: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
                crate::source::same_dir(home, home_from_env().as_deref(), &REAL)
            }))
}

/// Whether `dir` is one of Cline's hooks directories (`.clinerules/hooks`, `.cline/hooks`,
/// `~/Documents/Cline/Hooks`, `$CLINE_DIR/hooks`, ...), whose files are hooks named after
/// their events.
pub fn is_hooks_dir(dir: &Path) -> bool {
    in_hooks_dir(&dir.join("PreToolUse"))
}

/// Cline's home as `$CLINE_DIR` moves it (Cline's `resolveClineDir`): the variable,
/// trimmed, when it is an absolute path. `None`: Cline's default, `~/.cline`.
pub(crate) fn home_from_env() -> Option<PathBuf> {
    let dir = std::env::var_os("CLINE_DIR")?;
    let dir = PathBuf::from(dir.to_str().map_or(dir.clone(), |d| d.trim().into()));
    dir.is_absolute().then_some(dir)
}

/// Loads the Cline hook file at `path` (which must lie inside `within` when given): a
/// command hook running the file, for the event it is named after (two for
/// `PostToolUse`, which Cline also runs after a failed tool), enabled when the file is
/// executable, with Cline's 30 s timeout. The file is read only to record its hash for
/// trust, never parsed.
/// A file `hooks install cline` wrote (a line of it is [`BRIDGE_MARKER`]) gives no hook:
/// it runs the engine itself.
pub(crate) fn load(
    path: &Path,
    within: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some((home, _)) = cline::EVENTS.iter().find(|(n, _)| *n == name) else {
        let hint = hooks_core::did_you_mean(name, cline::EVENTS.iter().map(|(n, _)| *n))
            .map_or_else(
                || {
                    let names: Vec<&str> = cline::EVENTS.iter().map(|(n, _)| *n).collect();
                    format!(
                        "a Cline hook file is named after its event: {}",
                        names.join(", ")
                    )
                },
                |s| format!("did you mean `{s}`? a Cline hook file is named after its event"),
            );
        return Err(Diagnostic::error(
            DiagnosticKind::UnknownEvent,
            format!("`{name}` is not the name of a Cline hook"),
        )
        .with_file(path)
        .with_hint(hint)
        .into());
    };
    let (bytes, meta) = source::read_bytes(path, within, options.max_file_size)?;
    let bridge = is_bridge_script(&bytes);
    let off = hooks_switched_off();
    let enabled = is_executable(&meta) && off.is_none();
    let mut notes = Vec::new();
    if let Some(state) = &off {
        notes.push(
            Diagnostic::warning(
                DiagnosticKind::Merge,
                format!(
                    "Cline's hooks are switched off (`hooksEnabled: false` in {}): this hook file does not run",
                    state.display()
                ),
            )
            .with_file(path),
        );
    }
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let action = Action::script(crate::write::shell_quote(&absolute.to_string_lossy()));
    let provenance = Provenance {
        file: Some(path.to_path_buf()),
        line: Some(1),
        column: Some(1),
        layer: options.layer,
    };
    let events = if bridge {
        &[][..]
    } else {
        cline::events_of(home)
    };
    let items = events
        .iter()
        .map(|&event| {
            let event = Event::Builtin(event);
            let timeout =
                default_timeout_for(Dialect::Cline, &action, &event).min(options.max_timeout);
            Item::Hook(
                HookSpec::new(event, action.clone())
                    .with_timeout(timeout)
                    .with_enabled(enabled)
                    .with_dialect(Dialect::Cline)
                    .with_home_event(home)
                    .with_provenance(provenance.clone()),
            )
        })
        .collect();
    Ok(ConfigFile {
        path: Some(path.to_path_buf()),
        dialect: Dialect::Cline,
        // A hook file has no syntax of its own; JSON is what its hooks read and write.
        format: Format::Json,
        layer: options.layer,
        origin: options.origin,
        items,
        settings: Settings::default(),
        warnings: Vec::new(),
        notes,
        content_hash: hex(&Sha256::digest(&bytes)),
    })
}

/// Cline's `globalState.json`, where its extension outside VS Code (the standalone core,
/// JetBrains, the older CLI) keeps `hooksEnabled` (`apps/vscode/src/shared/storage/
/// state-keys.ts`, default true): in Cline's data directory, `$CLINE_DATA_DIR`, else
/// `data` in Cline's home (`$CLINE_DIR`, see [`home_from_env`], else `~/.cline`), as
/// Cline's `resolveClineDataDir` finds it.
pub(crate) fn global_state_path() -> Option<PathBuf> {
    let data = std::env::var_os("CLINE_DATA_DIR")
        .and_then(|d| d.to_str().map(|d| d.trim().to_owned()))
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| home_from_env().map(|d| d.join("data")))
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".cline/data"))
        })?;
    Some(data.join("globalState.json"))
}

/// The `globalState.json` that switches Cline's hooks off (`"hooksEnabled": false`), if
/// one does: then Cline runs none of its hook files, and neither does the engine. A file
/// that is missing, not JSON, or without the key leaves them on, as in Cline.
pub fn hooks_switched_off() -> Option<PathBuf> {
    let path = global_state_path()?;
    switches_off(&path).then_some(path)
}

/// Whether the `globalState.json` at `path` says `"hooksEnabled": false`. It is read as
/// config files are (a regular file, opened without blocking, so that a FIFO or a device
/// there cannot hang loading), whatever its size.
fn switches_off(path: &Path) -> bool {
    let Ok((bytes, _)) = source::read_bytes(path, None, u64::MAX) else {
        return false;
    };
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .is_ok_and(|state| state.get("hooksEnabled") == Some(&serde_json::Value::Bool(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_enabled_is_read_as_a_json_value_would_give_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("globalState.json");
        let off = |text: &str| {
            std::fs::write(&path, text).unwrap();
            switches_off(&path)
        };
        assert!(off(r#"{"hooksEnabled": false}"#));
        assert!(off(
            r#"{"a": [1, {"b": null}], "hooksEnabled": false, "c": "d"}"#
        ));
        assert!(off(r#"{"hooksEnabled": true, "hooksEnabled": false}"#));
        assert!(!off(r#"{"hooksEnabled": false, "hooksEnabled": true}"#));
        assert!(!off(r#"{"hooksEnabled": true}"#));
        assert!(!off(r#"{"hooksEnabled": "false"}"#));
        assert!(!off(r#"{"hooksEnabled": 0}"#));
        assert!(!off(r#"{"other": false}"#));
        assert!(!off("[false]"));
        assert!(!off("false"));
        assert!(!off("null"));
        assert!(!off(r#"{"hooksEnabled": false"#));
        assert!(!off(r#"{"hooksEnabled": false} x"#));
        assert!(!off("\u{feff}{\"hooksEnabled\": false}"));
        std::fs::write(&path, b"{\"hooksEnabled\": false, \"x\": \"\xff\"}").unwrap();
        assert!(!switches_off(&path), "not UTF-8");
        assert!(!switches_off(&dir.path().join("missing.json")));
        assert!(!switches_off(dir.path()), "a directory");
    }

    /// A FIFO where `globalState.json` is refuses to be read, instead of waiting for a
    /// writer that never comes.
    #[cfg(unix)]
    #[test]
    fn a_fifo_global_state_does_not_block() {
        use rustix::fs::{CWD, FileType, Mode, mknodat};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("globalState.json");
        mknodat(CWD, &path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(switches_off(&path));
        });
        let off = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a FIFO blocked for 10 s");
        assert!(!off);
    }

    #[test]
    fn bridge_scripts_are_found_by_their_marker_line() {
        let script = |eol: &str| {
            format!("#!/bin/sh{eol}{BRIDGE_MARKER}{eol}exec hooks bridge cline{eol}").into_bytes()
        };
        assert!(is_bridge_script(&script("\n")));
        assert!(is_bridge_script(&script("\r\n")));
        assert!(is_bridge_script(BRIDGE_MARKER.as_bytes()));
        assert!(is_bridge_script(
            format!("#!/bin/sh\r\n{BRIDGE_MARKER}").as_bytes()
        ));
        // As `str::lines` reads it: a `\r` ends a line only before a `\n`.
        assert!(!is_bridge_script(format!("{BRIDGE_MARKER}\r").as_bytes()));
        assert!(!is_bridge_script(format!("# {BRIDGE_MARKER}\n").as_bytes()));
        assert!(!is_bridge_script(b"#!/bin/sh\nexec hooks bridge cline\n"));
    }
}
