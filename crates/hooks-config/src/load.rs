//! Loading one config file: from a path, text or bytes, through parsing, detection of its
//! dialect and that dialect's reader, to a [`ConfigFile`] or every problem it has.

use std::collections::BTreeMap;
use std::path::Path;

use hooks_core::Dialect;
use sha2::{Digest, Sha256};

use crate::detect;
use crate::dialects;
use crate::error::{Diagnostic, DiagnosticKind, Error};
use crate::file::{ConfigFile, LoadOptions, Settings, hex};
use crate::parse::{self, Format};
use crate::reader::Reader;
use crate::source::{self, Source};
use crate::tree::Pos;

/// Loads one file. The dialect is detected from the file name and shape unless
/// [`LoadOptions::dialect`] names it.
///
/// Every problem of the file is reported at once: the error holds one diagnostic per
/// problem, each with file:line:col.
pub fn load_file(path: impl AsRef<Path>, options: &LoadOptions) -> Result<ConfigFile, Error> {
    load_file_within(path.as_ref(), None, options)
}

/// Loads a discovered file, which must lie inside `within` once symlinks are resolved.
pub(crate) fn load_file_within(
    path: &Path,
    within: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    // A file of a dialect without config text (a Cline hook, an executable) is loaded
    // from its path, never parsed.
    let dialect = options.dialect.or_else(|| detect::dialect_from_path(path));
    if let Some(unparsed) = dialect.and_then(|d| dialects::of(d).unparsed.as_ref()) {
        return (unparsed.load)(path, within, options);
    }
    let src = source::read_file(path, within, options.max_file_size)?;
    load_source(src, options)
}

/// Loads config text. `path` names it in diagnostics and helps detection; nothing is read
/// from it.
pub fn load_str(
    text: &str,
    path: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    if text.len() as u64 > options.max_file_size {
        let d = Diagnostic::error(
            DiagnosticKind::TooLarge,
            format!(
                "the text is larger than the {}-byte limit ({} bytes)",
                options.max_file_size,
                text.len()
            ),
        );
        return Err(match path {
            Some(p) => d.with_file(p),
            None => d,
        }
        .into());
    }
    load_source(
        Source::new(path.map(Path::to_path_buf), text.to_owned()),
        options,
    )
}

/// Loads config bytes (checked for UTF-8 first).
pub fn load_bytes(
    bytes: Vec<u8>,
    path: Option<&Path>,
    options: &LoadOptions,
) -> Result<ConfigFile, Error> {
    if bytes.len() as u64 > options.max_file_size {
        let d = Diagnostic::error(
            DiagnosticKind::TooLarge,
            format!(
                "the text is larger than the {}-byte limit ({} bytes)",
                options.max_file_size,
                bytes.len()
            ),
        );
        return Err(match path {
            Some(p) => d.with_file(p),
            None => d,
        }
        .into());
    }
    let src = source::decode(path.map(Path::to_path_buf), bytes)?;
    load_source(src, options)
}

/// A config file's content as JSON, parsed but not interpreted (a SKILL.md gives its
/// frontmatter): what JSON Schema validators and other tools can check. The syntax comes
/// from `format`, else the file name, else the content.
pub fn parse_value(
    text: &str,
    path: Option<&Path>,
    format: Option<Format>,
) -> Result<serde_json::Value, Error> {
    let src = Source::new(path.map(Path::to_path_buf), text.to_owned());
    let is_markdown = path
        .and_then(Path::extension)
        .is_some_and(|e| e.eq_ignore_ascii_case("md"));
    let src = if is_markdown { frontmatter(&src)? } else { src };
    let format = format
        .or_else(|| path.and_then(Format::from_path))
        .unwrap_or_else(|| Format::sniff(src.text()));
    Ok(parse::parse(&src, format)?.to_json())
}

/// Loads parsed text; a file that does not look like a config says where it failed but
/// quotes none of its text (see [`source::conceal`]). A run config (Fabro's) is recognised
/// by its own keys, hooks or none, and quoted (see `RunConfig::recognised`).
fn load_source(src: Source, options: &LoadOptions) -> Result<ConfigFile, Error> {
    let named = options
        .dialect
        .or_else(|| src.path().and_then(detect::dialect_from_path));
    let run_config = Dialect::ALL.iter().any(|d| {
        dialects::of(*d)
            .run_config
            .as_ref()
            .is_some_and(|run| (run.recognised)(named, src.text()))
    });
    match load_text(&src, options) {
        Ok(file) if run_config => Ok(file),
        Ok(mut file) => {
            source::conceal_warnings(src.text(), &mut file.warnings);
            source::conceal_warnings(src.text(), &mut file.notes);
            Ok(file)
        }
        Err(e) if run_config => Err(e),
        Err(e) => Err(source::conceal(src.text(), e)),
    }
}

fn load_text(src: &Source, options: &LoadOptions) -> Result<ConfigFile, Error> {
    let path = src.path().map(Path::to_path_buf);
    let content_hash = hex(&Sha256::digest(src.text().as_bytes()));
    let is_markdown = path
        .as_deref()
        .and_then(Path::extension)
        .is_some_and(|e| e.eq_ignore_ascii_case("md"));
    // A SKILL.md is YAML frontmatter between `---` lines; the rest is Markdown.
    let body;
    let src = if is_markdown {
        body = frontmatter(src)?;
        &body
    } else {
        src
    };
    // A file of a dialect without config text is loaded from its file (`load_file`),
    // never parsed.
    let named = options
        .dialect
        .or_else(|| path.as_deref().and_then(detect::dialect_from_path));
    if let Some(unparsed) = named.and_then(|d| dialects::of(d).unparsed.as_ref()) {
        let (message, hint) = unparsed.refusal;
        let d = Diagnostic::error(DiagnosticKind::Dialect, message).with_hint(hint);
        return Err(src.file_diag(d).into());
    }
    let format = options
        .format
        .or_else(|| path.as_deref().and_then(Format::from_path))
        .unwrap_or_else(|| Format::sniff(src.text()));
    let root = parse::parse(src, format)?;
    let dialect = match options.dialect {
        Some(d) => d,
        None => detect::detect(path.as_deref(), format, &root)
            .map_err(|d| Error::from(src.file_diag(d)))?,
    };
    let row = dialects::of(dialect);
    // The file's path placeholder: echo-agent's skill folder, a Claude Code plugin's root.
    let path_var = path.as_deref().and_then(row.path_var);
    let codex_plugin_env = match &path_var {
        Some(("${PLUGIN_ROOT}", root)) => crate::dialects::codex::plugin_env(Path::new(root)),
        _ => Vec::new(),
    };
    let mut reader = Reader {
        src,
        opts: options,
        dialect,
        rules: &row.reading,
        format,
        diags: Vec::new(),
        structural: Vec::new(),
        notes: Vec::new(),
        file_vars: BTreeMap::new(),
        path_var,
        codex_plugin_env,
        hook_label: None,
        hints_left: 200,
    };
    let mut file = ConfigFile {
        path,
        dialect,
        format,
        layer: options.layer,
        origin: options.origin,
        items: Vec::new(),
        settings: Settings::default(),
        warnings: Vec::new(),
        notes: Vec::new(),
        content_hash,
    };
    (row.read)(&mut reader, &root, &mut file);
    let diags = tidy(
        std::mem::take(&mut reader.structural),
        std::mem::take(&mut reader.diags),
    );
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Error::new(diags));
    }
    file.warnings = diags;
    file.notes = std::mem::take(&mut reader.notes);
    Ok(file)
}

/// The most diagnostics one file reports; past this, a note says how many more there were,
/// so a hostile file cannot make a report that takes longer to print than to write.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Orders diagnostics by position, drops a structural "wrong type" error (from the schema
/// check) where the loader, or the check itself, said something more specific about the
/// same value, and caps the count.
fn tidy(structural: Vec<Diagnostic>, loaded: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let at = |d: &Diagnostic| (d.line, d.column);
    // Positions where an error other than a structural "wrong type" was reported.
    let specific: std::collections::HashSet<(Option<u32>, Option<u32>)> = structural
        .iter()
        .filter(|d| d.kind != DiagnosticKind::WrongType)
        .chain(&loaded)
        .filter(|d| d.is_error())
        .map(at)
        .collect();
    // Positions where the loader itself reported an error: it says more than the schema's
    // "not one of" about the same value (Fabro's legacy `agent = "<task>"`, say).
    let by_loader: std::collections::HashSet<(Option<u32>, Option<u32>)> =
        loaded.iter().filter(|d| d.is_error()).map(at).collect();
    let mut out: Vec<Diagnostic> = structural
        .into_iter()
        .filter(|d| {
            !(d.kind == DiagnosticKind::WrongType && specific.contains(&at(d))
                || d.kind == DiagnosticKind::InvalidValue && by_loader.contains(&at(d)))
        })
        .chain(loaded)
        .collect();
    out.sort_by_key(|d| (d.line, d.column));
    if out.len() > MAX_DIAGNOSTICS {
        let more = out.len() - MAX_DIAGNOSTICS;
        let file = out[0].file.clone();
        out.truncate(MAX_DIAGNOSTICS);
        let mut note = Diagnostic::error(
            DiagnosticKind::Budget,
            format!("{more} more problems not shown"),
        );
        note.file = file;
        out.push(note);
    }
    out
}

/// Cuts the YAML frontmatter out of a Markdown file, keeping line numbers.
fn frontmatter(src: &Source) -> Result<Source, Error> {
    let text = src.text();
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != "---" {
        let d = Diagnostic::error(
            DiagnosticKind::Syntax,
            "a SKILL.md must start with a `---` line opening its YAML frontmatter",
        )
        .with_hint("write the hooks between `---` lines at the top of the file");
        return Err(src.diag(d, Pos::new(1, 1)).into());
    }
    let mut body = String::new();
    let mut closed = false;
    for line in lines {
        if matches!(line.trim_end(), "---" | "...") {
            closed = true;
            break;
        }
        body.push_str(line);
    }
    if !closed {
        let d = Diagnostic::error(
            DiagnosticKind::Syntax,
            "the SKILL.md frontmatter is not closed by a `---` line",
        );
        return Err(src.diag(d, Pos::new(1, 1)).into());
    }
    Ok(Source::new(src.path().map(Path::to_path_buf), body).with_line_offset(1))
}
