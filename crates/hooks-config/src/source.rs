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

/// Reads a file of at most `limit` bytes as UTF-8. A larger file is refused before any of
/// it is parsed (and without reading more than `limit + 1` bytes, so `/dev/zero` is safe);
/// invalid UTF-8 is an error at the line and column of the first bad byte.
pub(crate) fn read_file(path: &Path, limit: u64) -> Result<Source, Error> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > limit
    {
        return Err(too_large(path, meta.len(), limit));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, &e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, bytes.len() as u64, limit));
    }
    decode(Some(path.to_path_buf()), bytes)
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
            Err(src.diag(d, pos).into())
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
