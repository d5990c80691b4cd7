//! `hooks convert FILE --to DIALECT [-o OUT]`: writes a config in another dialect; what the
//! target cannot express is reported on stderr as warnings, never dropped silently.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use hooks::config::{Format, LoadOptions};
use hooks::core::Dialect;

use crate::cli::ConvertArgs;

/// Converts; exit 0 (with warnings on stderr for what was lost), 1 when the file does not
/// load or the output cannot be written.
///
/// The output is in the target's own syntax (Claude and Autohand JSON, Fabro TOML,
/// echo-agent YAML); a native target follows `-o`'s extension (`.toml`, `.json`, else YAML).
pub fn run(args: &ConvertArgs) -> Result<u8> {
    let to =
        Dialect::from_name(&args.to).with_context(|| format!("unknown dialect `{}`", args.to))?;
    let file = hooks::config::load_file(
        &args.file,
        &LoadOptions::new().with_interpolation(super::interpolation()),
    )
    .map_err(|e| anyhow::anyhow!("{} does not load:\n{e}", args.file.display()))?;
    let format = args.out.as_deref().and_then(Format::from_path);
    let converted = match (to, format) {
        (Dialect::Native, Some(format)) => {
            hooks::config::convert_items(&file.items, &file.settings, to, Some(format))
        }
        _ => hooks::config::convert(&file, to),
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut err = std::io::stderr().lock();
    for warning in &converted.warnings {
        writeln!(err, "{warning}")?;
    }
    match &args.out {
        Some(out) => write_atomic(out, converted.text.as_bytes())?,
        None => std::io::stdout()
            .lock()
            .write_all(converted.text.as_bytes())?,
    }
    Ok(0)
}

/// Writes `path` through a temporary file in the same directory and a rename, so that a
/// crash never leaves a half-written config.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let mut file =
        std::fs::File::create(&tmp).with_context(|| format!("writing {}", tmp.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("replacing {}", path.display()))
}
