//! Config text and where it came from: reading files under a size limit, refusing invalid
//! UTF-8, and turning byte offsets into lines and columns for diagnostics.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::tree::Pos;

/// The default limit on a config file's size: 2 MiB. Real configs are a few kilobytes; a
/// larger file is refused before it is parsed (see [`crate::LoadOptions::max_file_size`]).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 2 * 1024 * 1024;

/// The granularity of the character index.
const CHUNK: usize = 256;

/// Whether a byte starts a UTF-8 character (is not a continuation byte).
fn is_char_start(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// The text of one config file, with a line index.
#[derive(Clone, Debug)]
pub(crate) struct Source {
    path: Option<PathBuf>,
    text: String,
    /// Byte offsets of the start of every line.
    line_starts: Vec<usize>,
    /// How many characters start before each multiple of [`CHUNK`] bytes, so that a
    /// column is found without counting a whole (possibly megabyte-long) line.
    chars_before: Vec<usize>,
    /// Added to every line number (a SKILL.md frontmatter starts after the `---` line).
    line_offset: u32,
}

impl Source {
    /// Text that did not come from a file (or whose file is named for messages only).
    pub(crate) fn new(path: Option<PathBuf>, text: String) -> Source {
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_owned(),
            None => text,
        };
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut chars_before = Vec::with_capacity(text.len() / CHUNK + 1);
        let mut count = 0;
        for chunk in text.as_bytes().chunks(CHUNK) {
            chars_before.push(count);
            count += chunk.iter().filter(|b| is_char_start(**b)).count();
        }
        chars_before.push(count);
        Source {
            path,
            text,
            line_starts,
            chars_before,
            line_offset: 0,
        }
    }

    /// A part of a larger file that starts `offset` lines into it.
    pub(crate) fn with_line_offset(mut self, offset: u32) -> Source {
        self.line_offset = offset;
        self
    }

    pub(crate) fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    pub(crate) fn into_text(self) -> String {
        self.text
    }

    /// The 1-based line and column (in characters) of a byte offset.
    pub(crate) fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.line_starts[line];
        let col = self.chars_to(offset) - self.chars_to(start);
        Pos::new(line as u32 + 1 + self.line_offset, col as u32 + 1)
    }

    /// How many characters start before byte `offset`.
    fn chars_to(&self, offset: usize) -> usize {
        let chunk = offset / CHUNK;
        let from = chunk * CHUNK;
        let before = self.chars_before.get(chunk).copied().unwrap_or_default();
        before
            + self.text.as_bytes()[from..offset]
                .iter()
                .filter(|b| is_char_start(**b))
                .count()
    }

    /// Converts a position inside this text (as a parser reports it) to one in the file.
    pub(crate) fn shift(&self, pos: Pos) -> Pos {
        Pos::new(pos.line + self.line_offset, pos.col)
    }

    /// The text of a line, numbered as in the file.
    pub(crate) fn line_text(&self, line: u32) -> Option<&str> {
        let index = line.checked_sub(1 + self.line_offset)? as usize;
        let start = *self.line_starts.get(index)?;
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.text.len(), |&e| e);
        Some(self.text[start..end].trim_end_matches(['\n', '\r']))
    }

    /// A diagnostic at `pos` in this file, with the source line attached.
    pub(crate) fn diag(&self, d: Diagnostic, pos: Pos) -> Diagnostic {
        let mut d = d.at(pos.line, pos.col);
        if let Some(path) = &self.path {
            d = d.with_file(path.clone());
        }
        if pos.line > 0
            && let Some(text) = self.line_text(pos.line)
        {
            // Very long lines (minified JSON) are not worth echoing in full.
            if text.len() <= 240 {
                d = d.with_source_line(text);
            }
        }
        d
    }

    /// A diagnostic about the file as a whole.
    pub(crate) fn file_diag(&self, d: Diagnostic) -> Diagnostic {
        match &self.path {
            Some(path) => d.with_file(path.clone()),
            None => d,
        }
    }
}

/// Reads a config file of at most `limit` bytes as UTF-8.
///
/// Only a regular file is read: a FIFO, a device, a socket or a directory is refused
/// without reading any of it. The file is opened without blocking (`O_NONBLOCK`), so even a
/// FIFO swapped in after the check, or a `/proc` file that would wait for data
/// (`/proc/kmsg`), cannot hang the caller; the type is checked again on the opened
/// descriptor. A larger file is refused before any of it is parsed, and the read itself
/// stops after `limit + 1` bytes, since `/proc` files report a length of 0. Invalid UTF-8
/// is an error at the line and column of the first bad byte.
///
/// With `within`, the file must lie inside that directory once symlinks are resolved (a
/// discovered config may not lead out of the place it was found in); it is then opened by
/// its resolved path, and `path` names it in every diagnostic.
pub(crate) fn read_file(path: &Path, within: Option<&Path>, limit: u64) -> Result<Source, Error> {
    let (bytes, _) = read_bytes(path, within, limit)?;
    decode(Some(path.to_path_buf()), bytes)
}

/// The bytes of a file, read as [`read_file`] reads them (a regular file, inside `within`,
/// opened without blocking, at most `limit` bytes), with its metadata; not decoded (a
/// Cline hook file may be any executable).
pub(crate) fn read_bytes(
    path: &Path,
    within: Option<&Path>,
    limit: u64,
) -> Result<(Vec<u8>, std::fs::Metadata), Error> {
    let io = |e: std::io::Error| Error::io(path, &e);
    let real = match within {
        None => path.to_path_buf(),
        Some(root) => {
            let real = std::fs::canonicalize(path).map_err(io)?;
            // Discovery hands in roots it has already resolved, so the first test nearly
            // always answers; a root given otherwise is resolved before refusing.
            let inside = |root: &Path| real.starts_with(root);
            let root = if inside(root) {
                root.to_path_buf()
            } else {
                std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf())
            };
            if !inside(&root) {
                return Err(refused(
                    path,
                    format!(
                        "not read: it leads outside {} (to {}), and a discovered config must stay inside the directory it was found in",
                        root.display(),
                        real.display()
                    ),
                    "copy the file here instead of linking to it, or name it with `-c FILE`",
                ));
            }
            real
        }
    };
    // `stat` first, so that a device is not even opened (opening one can have effects).
    let meta = std::fs::metadata(&real).map_err(io)?;
    check_regular(path, &meta)?;
    let file = open_nonblocking(&real).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    check_regular(path, &meta)?;
    if meta.len() > limit {
        return Err(too_large(path, meta.len(), limit));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, bytes.len() as u64, limit));
    }
    Ok((bytes, meta))
}

/// Opens `path` for reading without waiting for a writer or a device.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
}

/// Opens `path` for reading.
#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Refuses anything but a regular file, naming what it is.
fn check_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), Error> {
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "a directory"
    } else {
        special_kind(meta)
    };
    Err(refused(
        path,
        format!("not read: it is {what}, not a regular file"),
        "a config is a regular file",
    ))
}

#[cfg(unix)]
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::Metadata) -> &'static str {
    "a special file"
}

fn refused(path: &Path, message: String, hint: &str) -> Error {
    Diagnostic::error(DiagnosticKind::Refused, message)
        .with_file(path)
        .with_hint(hint)
        .into()
}

/// Reads a config file's text as [`crate::load_file`] reads it: a regular file only,
/// opened without blocking, of at most `limit` bytes, UTF-8. For programs that edit a
/// config they name; a file found by discovery is read with [`crate::Discovered::read_text`].
pub fn read_text(path: &Path, limit: u64) -> Result<String, Error> {
    read_file(path, None, limit).map(Source::into_text)
}

/// Turns bytes into a [`Source`], or an error at the first invalid UTF-8 sequence.
pub(crate) fn decode(path: Option<PathBuf>, bytes: Vec<u8>) -> Result<Source, Error> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source::new(path, text)),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            // The valid prefix gives the line and column of the bad byte.
            let prefix = String::from_utf8_lossy(&bytes[..valid]).into_owned();
            let src = Source::new(path, prefix);
            let pos = src.pos(valid);
            let d = Diagnostic::error(
                DiagnosticKind::InvalidUtf8,
                format!("the file is not valid UTF-8 (byte {valid} is not part of a character)"),
            )
            .with_hint("config files must be UTF-8 text");
            Err(conceal(src.text(), src.diag(d, pos).into()))
        }
    }
}

fn too_large(path: &Path, size: u64, limit: u64) -> Error {
    Diagnostic::error(
        DiagnosticKind::TooLarge,
        format!("the file is larger than the {limit}-byte limit (at least {size} bytes)"),
    )
    .with_file(path)
    .with_hint("config files are small; raise `LoadOptions::max_file_size` if this one is real")
    .into()
}

/// Keys only a hook config has. A file that has none of them is not a config, whatever
/// its name: it may be a credentials file a symlink or a mistake put in a config's place.
const CONFIG_KEYS: [&str; 11] = [
    "hooks",
    "mcpServers",
    "mcp_servers",
    "disableAllHooks",
    "allowManagedHooksOnly",
    "allowedHttpHookUrls",
    "disable_all_hooks",
    "managed_hooks_only",
    "allowed_http_hook_urls",
    "telemetry",
    "_version",
];

/// Whether `text` looks like a hook config: somewhere it writes one of [`CONFIG_KEYS`] as a
/// key (`hooks:`, `"hooks":`, `[[hooks]]`, `[run.hooks]`, `hooks =`), not merely the word.
pub(crate) fn looks_like_config(text: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    CONFIG_KEYS.iter().any(|key| {
        text.match_indices(key).any(|(at, _)| {
            let before = text[..at].trim_end_matches(['"', '\'']);
            let after = text[at + key.len()..].trim_start_matches(['"', '\'']);
            let opens = before
                .chars()
                .next_back()
                .is_none_or(|c| !word(c) && (c.is_whitespace() || "{[,.".contains(c)));
            let closes = after
                .trim_start_matches([' ', '\t'])
                .chars()
                .next()
                .is_some_and(|c| ":=].".contains(c));
            opens && closes
        })
    })
}

/// What a file that does not look like a config may say about itself: where loading it
/// failed, but none of its text. `text` is the file's text; `err` what loading it gave.
/// The text of a config is echoed in diagnostics (the caret display); that of any other
/// file (a credentials file behind a symlink, a `.env` named by mistake) never is.
pub(crate) fn conceal(text: &str, err: Error) -> Error {
    // A problem with the file as a whole (its dialect cannot be told) quotes none of it.
    if looks_like_config(text) || err.diagnostics().iter().all(|d| d.line.is_none()) {
        return err;
    }
    let first = err.first();
    let mut d = Diagnostic::error(
        first.kind,
        "this file does not look like a hook config (it writes no `hooks` key or hook setting) and does not load; what it holds is not shown",
    )
    .with_hint("check that the path names a config file");
    d.file.clone_from(&first.file);
    d.line = first.line;
    d.column = first.column;
    d.into()
}

/// Warnings of a file that loaded, without its source lines unless it looks like a config.
pub(crate) fn conceal_warnings(text: &str, warnings: &mut [Diagnostic]) {
    if warnings.iter().any(|d| d.source_line.is_some()) && !looks_like_config(text) {
        for d in warnings {
            d.source_line = None;
        }
    }
}

/// The folder of the file at `path`, made absolute (a bare file name's folder is the
/// current directory): what `${SKILL_DIR}` names and what a Fabro run config's relative
/// paths are resolved against.
pub(crate) fn file_dir(path: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = path.parent()?;
    Some(if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir.to_path_buf()
    })
}

/// Whether `dir` is the directory `given` (a root the environment names, such as
/// `$CODEX_HOME`), as written or with its symlinks resolved (discovery hands in resolved
/// paths). `real` caches the resolved `given`: it is resolved once per process.
pub(crate) fn same_dir(
    dir: &Path,
    given: Option<&Path>,
    real: &std::sync::OnceLock<Option<PathBuf>>,
) -> bool {
    let Some(given) = given else {
        return false;
    };
    dir == given
        || real
            .get_or_init(|| std::fs::canonicalize(given).ok())
            .as_deref()
            .is_some_and(|real| real == dir)
}
