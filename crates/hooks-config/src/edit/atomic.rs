//! Replacing a config file atomically: the new text goes to a temporary file in the same
//! directory, is flushed to disk, takes the old file's permissions, and is renamed over the
//! old file; the directory is flushed too. A crash at any point leaves either the old file
//! or the new one, never a mix; a failure before the rename removes the temporary file.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{Context, Result, bail};

/// The file a write to `path` must replace: `path` itself, or, if it is a symbolic link
/// (a dotfiles manager's, say), the file it points to, so the link survives.
pub fn real_path(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Whether `a` and `b` name the same file (as spelled, or once symbolic links are resolved).
pub fn same_file(a: &Path, b: &Path) -> bool {
    a == b || real_path(a) == real_path(b)
}

/// Writes `text` to `path` atomically. `original` is the text the edit started from
/// (`None`: the file is new); if the file changed in the meantime, or appeared, nothing is
/// written and the error says so.
pub fn write(path: &Path, text: &str, original: Option<&str>) -> Result<()> {
    write_with_mode(path, text, original, None)
}

/// [`write()`], with the file's permission bits `mode` (default: the file's own, else
/// `0o644`); `hooks install cline` writes executable hook files (`0o755`).
pub fn write_with_mode(
    path: &Path,
    text: &str,
    original: Option<&str>,
    mode: Option<u32>,
) -> Result<()> {
    let path = real_path(path);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match std::fs::metadata(&dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => bail!(
            "cannot write {}: {} is a file, not a directory",
            path.display(),
            dir.display()
        ),
        Err(_) => bail!(
            "cannot write {}: the directory {} does not exist (create it first)",
            path.display(),
            dir.display()
        ),
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(&dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    let context = || format!("cannot write {}", tmp_name(&dir, &name));
    tmp.write_all(text.as_bytes()).with_context(context)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = match (mode, std::fs::metadata(&path)) {
            (Some(mode), _) => mode,
            (None, Ok(meta)) => meta.permissions().mode() & 0o7777,
            (None, Err(_)) => 0o644,
        };
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .with_context(context)?;
    }
    tmp.as_file().sync_all().with_context(context)?;
    // The file must still be what the edit was made from: another program (or another
    // `hooks` command) may have written it meanwhile.
    match (original, std::fs::read_to_string(&path)) {
        (Some(before), Ok(now)) if now == before => {}
        (None, Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {}
        (Some(_), Ok(_)) | (None, Ok(_)) => bail!(
            "{} changed while it was being edited; nothing was written, try again",
            path.display()
        ),
        (_, Err(e)) => {
            return Err(e).with_context(|| format!("cannot read {}", path.display()));
        }
    }
    if original.is_some() {
        tmp.persist(&path)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot replace {}", path.display()))?;
    } else {
        tmp.persist_noclobber(&path)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot create {}", path.display()))?;
    }
    // The rename is durable once the directory is on disk too.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn tmp_name(dir: &Path, name: &str) -> String {
    format!("a temporary file for {} in {}", name, dir.display())
}
