//! Filters (Autohand's tool lists and path globs) and Claude Code's per-handler `if`
//! conditions (`Bash(git *)`, `Edit(*.ts)`).
//!
//! Both narrow a hook after its event and matcher have matched. Both are compiled once,
//! when the hook is loaded: a glob or condition that does not compile is a load error, and
//! checking an event against them compiles nothing.

use std::borrow::Cow;

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use regex::Regex;
use serde_json::Value;

use crate::context::EventContext;
use crate::error::{Error, ErrorKind};
use crate::matcher::{build_regex, invalid};
use crate::mismatch::Mismatch;
use crate::shell;

/// How many characters of a command or value a mismatch reason quotes.
const QUOTE_LIMIT: usize = 80;

/// Tool-name and path filters: Autohand's `filter: {"tool": [..], "path": [..]}`.
///
/// A filter narrows a hook that its event and matcher already selected. An empty filter
/// ([`Filter::new`]) lets everything through. The rules, in the order they are checked:
///
/// 1. **Tools.** With a non-empty tool list, the context's `tool_name` must be one of the
///    names, compared exactly. A context without a tool name does not pass.
/// 2. **Excludes.** The path the event is about ([`EventContext::file_path`]) must match
///    none of the exclude globs (the globs written with a leading `!`). A context without a
///    path passes this step: there is nothing to exclude.
/// 3. **Includes.** With include globs, the path must match at least one of them, and a
///    context without a path does not pass.
///
/// The path is first **normalised lexically**: `.` segments, doubled slashes and each `..`
/// with the segment before it are dropped, so `./secrets/key`, `lib/../secrets/key` and
/// `/repo/./secrets/key` are all `secrets/key` to a glob, and `src/generated/../a.ts` is
/// `src/a.ts` (which `!src/generated/**` does not exclude). Nothing is read from the
/// filesystem: a symlink in the path is not resolved. Globs are then matched against the
/// normalised path and, when it lies under the context's `cwd` (an absolute path, or a
/// relative one whose `..` climb out and back in), against the path relative to `cwd`:
/// with `cwd` `/repo`, `src/**/*.ts` matches `/repo/src/a.ts`. When a glob is itself
/// absolute (starts with `/`), a relative path is also tried joined to an absolute `cwd`.
///
/// Glob syntax is [`globset`]'s with `*` and `?` not crossing `/`: `src/*.ts` matches
/// `src/a.ts` but not `src/a/b.ts`; `**` crosses directories (`src/**/*.ts` matches both).
#[derive(Clone, Debug, Default)]
pub struct Filter {
    tools: Vec<String>,
    /// Every glob as written, excludes with their `!`.
    globs: Vec<String>,
    /// Include globs, in order.
    includes: Vec<String>,
    /// Exclude globs without their `!`, in order (indices match `exclude_set`).
    excludes: Vec<String>,
    include_set: GlobSet,
    exclude_set: GlobSet,
    /// Some glob is absolute: relative paths are also tried joined to `cwd`.
    absolute: bool,
    /// A regular expression the tool input's `command` must match (unanchored): Cursor's
    /// `beforeShellExecution` matcher, over the command text.
    command: Option<Regex>,
}

/// Why a filter rejected a context, without allocating.
enum FilterFailure {
    Tool,
    Command,
    NoPath,
    Excluded,
    NotIncluded,
}

impl Filter {
    /// The filter that lets everything through.
    pub fn new() -> Filter {
        Filter::default()
    }

    /// Restricts the hook to these tool names (exact, case-sensitive). Adds to the names
    /// given before; an empty list adds no restriction.
    #[must_use]
    pub fn with_tools<I, S>(mut self, tools: I) -> Filter
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tools.extend(tools.into_iter().map(Into::into));
        self
    }

    /// Adds path globs. A glob starting with `!` is an exclude; any other glob is an
    /// include. Fails with [`ErrorKind::InvalidGlob`] on a glob that does not compile or is
    /// empty.
    pub fn with_paths<I, S>(mut self, globs: I) -> Result<Filter, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for glob in globs {
            let glob = glob.as_ref();
            match glob.strip_prefix('!') {
                Some(exclude) => self.push_exclude(exclude, glob)?,
                None => {
                    check_not_empty(glob, glob)?;
                    compile_glob(glob, glob)?;
                    self.includes.push(glob.to_owned());
                    self.globs.push(glob.to_owned());
                }
            }
        }
        self.rebuild()?;
        Ok(self)
    }

    /// Adds exclude globs: the hook does not fire for a path matching any of them. The
    /// globs are written without `!` (a leading `!` is accepted and means the same). Fails
    /// with [`ErrorKind::InvalidGlob`] on a glob that does not compile or is empty.
    pub fn with_excludes<I, S>(mut self, globs: I) -> Result<Filter, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        for glob in globs {
            let glob = glob.as_ref();
            let exclude = glob.strip_prefix('!').unwrap_or(glob);
            self.push_exclude(exclude, glob)?;
        }
        self.rebuild()?;
        Ok(self)
    }

    fn push_exclude(&mut self, exclude: &str, written: &str) -> Result<(), Error> {
        check_not_empty(exclude, written)?;
        // Compiled here too, so that an error names the glob as the caller wrote it.
        compile_glob(exclude, written)?;
        self.excludes.push(exclude.to_owned());
        self.globs.push(format!("!{exclude}"));
        Ok(())
    }

    /// Compiles the include and exclude sets from the globs collected so far.
    fn rebuild(&mut self) -> Result<(), Error> {
        self.include_set = build_set(&self.includes, "")?;
        self.exclude_set = build_set(&self.excludes, "!")?;
        self.absolute = self
            .includes
            .iter()
            .chain(&self.excludes)
            .any(|g| g.starts_with('/'));
        Ok(())
    }

    /// Restricts the hook to tool calls whose input's `command` matches `pattern`, a
    /// regular expression found anywhere in the command (Cursor's matcher on
    /// `beforeShellExecution`, tested against the command text). A call without a
    /// command does not pass. Fails with [`ErrorKind::InvalidMatcher`] on a pattern that does
    /// not compile.
    pub fn with_command(mut self, pattern: &str) -> Result<Filter, Error> {
        let regex = build_regex(pattern, false).map_err(|message| invalid(pattern, message))?;
        self.command = Some(regex);
        Ok(self)
    }

    /// The command pattern ([`Filter::with_command`]), if any.
    pub fn command(&self) -> Option<&str> {
        self.command.as_ref().map(Regex::as_str)
    }

    /// Whether this filter lets everything through (no tools, no globs, no command).
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty() && self.globs.is_empty() && self.command.is_none()
    }

    /// The allowed tool names (empty: any tool, or none).
    pub fn tools(&self) -> &[String] {
        &self.tools
    }

    /// The path globs as written, excludes with their leading `!`.
    pub fn path_globs(&self) -> &[String] {
        &self.globs
    }

    /// Whether `ctx` passes this filter (see the type's docs for the rules).
    pub fn check(&self, ctx: &EventContext) -> Result<(), Mismatch> {
        let Some(failure) = self.failure(ctx) else {
            return Ok(());
        };
        let path = ctx.file_path().map(str::to_owned);
        Err(match failure {
            FilterFailure::Tool => Mismatch::Tool {
                tool: ctx.tool_name().map(str::to_owned),
                allowed: self.tools.clone(),
            },
            FilterFailure::Command => Mismatch::Matcher {
                matcher: self.command().unwrap_or_default().to_owned(),
                subjects: tool_command(ctx)
                    .map(|c| vec![("command".to_owned(), c.to_owned())])
                    .unwrap_or_default(),
            },
            FilterFailure::NoPath | FilterFailure::NotIncluded => Mismatch::Path {
                path,
                include: self.includes.clone(),
                excluded_by: None,
            },
            FilterFailure::Excluded => {
                let excluded_by = ctx.file_path().and_then(|p| {
                    PathForms::new(p, ctx.working_dir(), self.absolute)
                        .iter()
                        .find_map(|form| self.exclude_set.matches(form).first().copied())
                        .and_then(|i| self.excludes.get(i))
                        .map(|g| format!("!{g}"))
                });
                Mismatch::Path {
                    path,
                    include: self.includes.clone(),
                    excluded_by,
                }
            }
        })
    }

    /// Whether `ctx` passes, without building a reason: the index's hot path.
    pub(crate) fn is_match(&self, ctx: &EventContext) -> bool {
        self.is_empty() || self.failure(ctx).is_none()
    }

    fn failure(&self, ctx: &EventContext) -> Option<FilterFailure> {
        if !self.tools.is_empty() {
            let allowed = ctx
                .tool_name()
                .is_some_and(|tool| self.tools.iter().any(|t| t == tool));
            if !allowed {
                return Some(FilterFailure::Tool);
            }
        }
        if let Some(command) = &self.command
            && !tool_command(ctx).is_some_and(|c| command.is_match(c))
        {
            return Some(FilterFailure::Command);
        }
        if self.globs.is_empty() {
            return None;
        }
        let Some(path) = ctx.file_path() else {
            return (!self.includes.is_empty()).then_some(FilterFailure::NoPath);
        };
        let forms = PathForms::new(path, ctx.working_dir(), self.absolute);
        if !self.excludes.is_empty() && forms.iter().any(|p| self.exclude_set.is_match(p)) {
            return Some(FilterFailure::Excluded);
        }
        if !self.includes.is_empty() && !forms.iter().any(|p| self.include_set.is_match(p)) {
            return Some(FilterFailure::NotIncluded);
        }
        None
    }
}

/// The tool input's `command`, if it is a string.
fn tool_command(ctx: &EventContext) -> Option<&str> {
    ctx.tool_input()?.get("command")?.as_str()
}

fn invalid_glob(written: &str, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidGlob {
        glob: written.to_owned(),
        message: message.into(),
    })
}

fn check_not_empty(glob: &str, written: &str) -> Result<(), Error> {
    if glob.trim().is_empty() {
        return Err(invalid_glob(written, "a glob cannot be empty"));
    }
    Ok(())
}

/// Compiles one glob with `*` not crossing `/`; errors name the glob as `written`.
fn compile_glob(glob: &str, written: &str) -> Result<Glob, Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map_err(|e| invalid_glob(written, e.kind().to_string()))
}

fn build_set(globs: &[String], mark: &str) -> Result<GlobSet, Error> {
    let mut builder = GlobSetBuilder::new();
    for glob in globs {
        builder.add(compile_glob(glob, &format!("{mark}{glob}"))?);
    }
    builder
        .build()
        .map_err(|e| invalid_glob(&globs.join(", "), e.kind().to_string()))
}

/// The forms of one path that globs are tried against, each lexically normalised
/// ([`normalise`]), so that `./secrets/key`, `lib/../secrets/key` and `/repo/./secrets/key`
/// are all `secrets/key` to a glob, and `src/generated/../a.ts` is `src/a.ts`.
struct PathForms<'a> {
    /// The path as given, normalised.
    given: Cow<'a, str>,
    /// The path relative to `cwd`: an absolute path under `cwd`, or a relative one whose
    /// `..` climb out of it and back in (`../repo/a` in `/repo`).
    relative: Option<Cow<'a, str>>,
    /// A relative path joined to an absolute `cwd` (only when asked for).
    joined: Option<String>,
}

impl<'a> PathForms<'a> {
    fn new(path: &'a str, cwd: Option<&str>, want_joined: bool) -> PathForms<'a> {
        let given = normalise(path);
        let cwd = cwd.map(normalise);
        let cwd = cwd.as_deref().filter(|c| c.starts_with('/'));
        let mut joined = None;
        let relative = if given.starts_with('/') {
            cwd.and_then(|c| relative_to_cow(&given, c))
        } else if let Some(c) = cwd
            && (want_joined || climbs(&given))
        {
            // Only a path climbing with `..` can land somewhere else in `cwd`; the join is
            // built (and normalised) only then, or when an absolute glob needs it.
            let full = normalise(&join(c, &given)).into_owned();
            let relative = climbs(&given)
                .then(|| relative_to(&full, c).map(|r| Cow::Owned(r.to_owned())))
                .flatten();
            joined = want_joined.then_some(full);
            relative
        } else {
            None
        };
        PathForms {
            given,
            relative,
            joined,
        }
    }

    /// The path relative to `cwd` when it can be had: the relative form of an absolute
    /// path, or a relative path itself.
    fn project_relative(&self) -> Option<&str> {
        if self.given.starts_with('/') || climbs(&self.given) {
            self.relative.as_deref()
        } else {
            Some(&self.given)
        }
    }

    /// The absolute form: an absolute path itself, or a relative one joined to `cwd`.
    fn absolute(&self) -> Option<&str> {
        if self.given.starts_with('/') {
            Some(&self.given)
        } else {
            self.joined.as_deref()
        }
    }

    fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        std::iter::once(self.given.as_ref())
            .chain(self.relative.as_deref())
            .chain(self.joined.as_deref())
    }
}

/// Whether a normalised relative path climbs above its start (`..`, `../x`).
fn climbs(path: &str) -> bool {
    path == ".." || path.starts_with("../")
}

/// Strips a pattern's leading `./` (and the slashes after it).
fn strip_dot_slash(path: &str) -> &str {
    let mut p = path;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest.trim_start_matches('/');
    }
    p
}

/// `dir/path`, with one `/` between them.
fn join(dir: &str, path: &str) -> String {
    format!("{}/{path}", dir.trim_end_matches('/'))
}

/// Normalises `path` lexically: drops `.` segments, empty segments (`a//b`, a trailing
/// `/`) and each `..` with the segment before it. Nothing is read from the filesystem
/// (hooks-core does no IO), so a symlink is not resolved: `link/../x` is `x`. A relative
/// path keeps the `..` that climb above its start (`../x`); an absolute one drops those
/// that would climb above `/`. An empty result is `.` (or `/`).
///
/// A path with nothing to normalise, the usual case, is returned as it is, without
/// allocating.
fn normalise(path: &str) -> Cow<'_, str> {
    let absolute = path.starts_with('/');
    let body = if absolute { &path[1..] } else { path };
    if !body.split('/').any(|seg| matches!(seg, "" | "." | "..")) {
        return Cow::Borrowed(path);
    }
    let joined = lexical_segments(body.split('/'), absolute).join("/");
    Cow::Owned(match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_owned(),
        (false, false) => joined,
    })
}

/// The segments of a path (`segments`, split at `/`) after lexical normalisation: empty
/// segments and `.` dropped, each `..` dropping the segment before it; a `..` with nothing
/// before it is kept in a relative path and dropped in an `absolute` one (nothing is above
/// `/`). The one rule behind path filters, `if` path patterns and the security guard.
pub fn lexical_segments<'a>(
    segments: impl Iterator<Item = &'a str>,
    absolute: bool,
) -> Vec<&'a str> {
    let mut kept: Vec<&str> = Vec::new();
    for seg in segments {
        match seg {
            "" | "." => {}
            ".." => match kept.last() {
                Some(&last) if last != ".." => {
                    kept.pop();
                }
                _ if absolute => {}
                _ => kept.push(".."),
            },
            other => kept.push(other),
        }
    }
    kept
}

/// [`relative_to`] for a path that may be owned.
fn relative_to_cow<'a>(path: &Cow<'a, str>, cwd: &str) -> Option<Cow<'a, str>> {
    match path {
        Cow::Borrowed(p) => relative_to(p, cwd).map(Cow::Borrowed),
        Cow::Owned(p) => relative_to(p, cwd).map(|r| Cow::Owned(r.to_owned())),
    }
}

/// `path` relative to `cwd` when `path` lies strictly under it (`/repo/a` under `/repo`,
/// but not `/repository/a`).
fn relative_to<'a>(path: &'a str, cwd: &str) -> Option<&'a str> {
    let cwd = cwd.trim_end_matches('/');
    let rest = path.strip_prefix(cwd)?.strip_prefix('/')?;
    let rest = rest.trim_start_matches('/');
    (!rest.is_empty()).then_some(rest)
}

/// The last component of a path.
fn basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Quotes at most [`QUOTE_LIMIT`] characters of `text`, for reasons.
fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        Some((cut, _)) => format!("`{}…`", &text[..cut]),
        None => format!("`{text}`"),
    }
}

/// Claude Code's per-handler `if` condition, in permission-rule syntax: `Tool` or
/// `Tool(pattern)`.
///
/// **The tool.** The context's `tool_name` must equal the tool part, where `*` in it matches
/// any run of characters (`mcp__github__*` matches every tool of the `github` MCP server).
/// A context without a tool name never matches. `Tool` and `Tool(*)` match every use of
/// the tool.
///
/// **The pattern** is read according to what the tool input holds, not the tool's name:
///
/// 1. A string `command` (Bash and its kin): a wildcard match, anchored at both ends, where
///    `*` matches any run of characters including spaces and `/`, against the whole
///    command and against each of its simple commands as [`crate::shell::split`] finds
///    them; the condition holds when **any** of them matches. So `git push*` matches
///    `git push origin`, `cd repo && git push origin`, `FOO=1 git push` (leading
///    assignments are dropped), `sudo git push` and `bash -c 'git push'` (wrappers are
///    unwrapped), and `echo $(git push)`; a guard on `rm *` is not escaped by prefixing
///    `true && `. A simple command is matched as its words were written, joined by single
///    spaces (`git commit -m "a  b"` keeps its quotes). A command that does not parse
///    matches (as in Claude Code: the hook runs). `git *` matches `git status` but not
///    `gitk`. As in Claude Code, a
///    pattern whose only `*` is a trailing ` *` also matches the bare command (`git *`
///    matches `git`), and the legacy `prefix:*` form means "starts with `prefix`, at a word
///    boundary": `npm run test:*` matches `npm run test`, `npm run test --watch` and
///    `npm run test:unit`, but not `npm run testing`. `\*` is a literal `*`.
/// 2. A file path (`file_path`, `path` or `notebook_path`; see
///    [`EventContext::file_path`]), normalised lexically as for a [`Filter`] (`.`, `..`
///    and doubled slashes dropped): a gitignore-like glob. A pattern without `/` matches
///    the file name in any directory (`Edit(*.ts)` matches `src/a/b.ts`). A pattern with
///    `/` matches the path relative to `cwd`, or the path as given: `Write(src/**)`
///    matches `/repo/src/a/b.ts` with `cwd` `/repo`. `*` does not cross `/`, `**` does. A
///    leading `./` or `/` anchors the pattern at `cwd` (Claude's `/` means the settings
///    file's project, which is the working directory here); `//` starts an absolute
///    pattern (`Read(//etc/**)`). `~/` is not expanded: hooks-core reads no environment.
/// 3. A `domain:` pattern and a `url`: the URL's host must match the wildcard after
///    `domain:`, ignoring case (`WebFetch(domain:*.example.com)`).
/// 4. Anything else: a wildcard match (no ` *` or `:*` special cases) against the first
///    string value of the tool input (or the input itself, if it is a string).
///
/// Everything is compiled in [`IfCondition::parse`]; checking compiles nothing.
#[derive(Clone, Debug)]
pub struct IfCondition {
    source: String,
    tool: ToolPattern,
    pattern: Option<Pattern>,
}

#[derive(Clone, Debug)]
enum ToolPattern {
    Exact(String),
    Wildcard(Regex),
}

#[derive(Clone, Debug)]
struct Pattern {
    /// The pattern as written between the parentheses (trimmed).
    text: String,
    /// Shell-command semantics (trailing ` *` optional, legacy `:*`).
    command: Regex,
    /// Plain wildcard, for the first string value of the input.
    plain: Regex,
    /// The pattern as a path glob, or why it is not one (a command pattern like
    /// `echo [` is no glob, and that only matters if it meets a path).
    path: Result<PathGlob, String>,
    /// The host wildcard of a `domain:` pattern.
    domain: Option<Regex>,
}

#[derive(Clone, Debug)]
enum PathGlob {
    /// No `/` in the pattern: matched against the file name.
    Basename(GlobMatcher),
    /// Matched against the path relative to `cwd`, and as given.
    Relative(GlobMatcher),
    /// Anchored at `cwd` (`./x`, `/x`): matched against the path relative to `cwd`.
    Project(GlobMatcher),
    /// `//x`: matched against the absolute path.
    Absolute(GlobMatcher),
}

/// Why a condition rejected a context, borrowing what it needs to say so.
enum ConditionFailure<'a> {
    NoTool,
    Tool(&'a str),
    Command(&'a str),
    Path(&'a str),
    NotAGlob(&'a str, &'a str),
    Host(&'a str),
    Value(Option<&'a str>, &'a str),
    NoSubject,
}

/// One piece of a wildcard pattern.
enum Piece {
    Literal(String),
    Star,
}

/// Splits a wildcard pattern into literals and stars; `\*` and `\\` are literal.
fn pieces(pattern: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut literal = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some('*' | '\\')) => {
                if let Some(next) = chars.next() {
                    literal.push(next);
                }
            }
            '*' => {
                if !literal.is_empty() {
                    out.push(Piece::Literal(std::mem::take(&mut literal)));
                }
                out.push(Piece::Star);
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        out.push(Piece::Literal(literal));
    }
    out
}

fn pieces_to_regex(pieces: &[Piece], out: &mut String) {
    for piece in pieces {
        match piece {
            Piece::Literal(text) => out.push_str(&regex::escape(text)),
            Piece::Star => out.push_str(".*"),
        }
    }
}

/// A plain wildcard, anchored at both ends.
fn plain_wildcard(pattern: &str, case_insensitive: bool) -> Result<Regex, String> {
    let mut re = String::from("(?s)^");
    pieces_to_regex(&pieces(pattern), &mut re);
    re.push('$');
    build_regex(&re, case_insensitive)
}

/// A wildcard over a shell command, with Claude's two special forms.
fn command_wildcard(pattern: &str) -> Result<Regex, String> {
    let mut pieces = pieces(pattern);
    let mut re = String::from("(?s)^");
    let stars = pieces.iter().filter(|p| matches!(p, Piece::Star)).count();
    let ends_with_star = matches!(pieces.last(), Some(Piece::Star));
    let before_star = match pieces.len().checked_sub(2).and_then(|i| pieces.get(i)) {
        Some(Piece::Literal(text)) if ends_with_star => Some(text.as_str()),
        _ => None,
    };
    match before_star {
        // Legacy `prefix:*`: starts with the prefix, at a word boundary.
        Some(text) if text.ends_with(':') && (text.len() > 1 || pieces.len() > 2) => {
            pieces.pop();
            if let Some(Piece::Literal(text)) = pieces.last_mut() {
                text.pop();
            }
            pieces_to_regex(&pieces, &mut re);
            let ends_in_word = match pieces.last() {
                Some(Piece::Literal(text)) => text
                    .chars()
                    .last()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_'),
                _ => false,
            };
            if ends_in_word {
                re.push_str(r"(?:[^\p{Alphabetic}\p{Nd}_].*)?$");
            } else {
                re.push_str(".*$");
            }
        }
        // `git *`: the trailing ` *` is optional, so the bare `git` matches too.
        Some(text) if text.ends_with(' ') && stars == 1 => {
            pieces.pop();
            if let Some(Piece::Literal(text)) = pieces.last_mut() {
                text.pop();
            }
            pieces_to_regex(&pieces, &mut re);
            re.push_str("(?: .*)?$");
        }
        _ => {
            pieces_to_regex(&pieces, &mut re);
            re.push('$');
        }
    }
    build_regex(&re, false)
}

fn compile_path_glob(pattern: &str) -> Result<PathGlob, String> {
    let compile = |glob: &str| -> Result<GlobMatcher, String> {
        GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher())
            .map_err(|e| e.kind().to_string())
    };
    if let Some(rest) = pattern.strip_prefix("//") {
        return Ok(PathGlob::Absolute(compile(&format!("/{rest}"))?));
    }
    if pattern.starts_with("./") {
        return Ok(PathGlob::Project(compile(strip_dot_slash(pattern))?));
    }
    if let Some(rest) = pattern.strip_prefix('/') {
        return Ok(PathGlob::Project(compile(rest)?));
    }
    let trimmed = pattern.trim_end_matches('/');
    if trimmed.contains('/') {
        Ok(PathGlob::Relative(compile(pattern)?))
    } else {
        Ok(PathGlob::Basename(compile(trimmed)?))
    }
}

impl PathGlob {
    fn is_match(&self, path: &str, cwd: Option<&str>) -> bool {
        match self {
            PathGlob::Basename(glob) => glob.is_match(basename(&normalise(path))),
            PathGlob::Relative(glob) => PathForms::new(path, cwd, false)
                .iter()
                .any(|form| glob.is_match(form)),
            PathGlob::Project(glob) => PathForms::new(path, cwd, false)
                .project_relative()
                .is_some_and(|form| glob.is_match(form)),
            PathGlob::Absolute(glob) => PathForms::new(path, cwd, true)
                .absolute()
                .is_some_and(|form| glob.is_match(form)),
        }
    }
}

/// The host of a URL: the scheme, user info, port, path, query and fragment dropped.
fn url_host(url: &str) -> &str {
    let rest = url.trim();
    let rest = rest.split_once("://").map_or(rest, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    if host.starts_with('[') {
        // An IPv6 literal keeps its colons: `[::1]:8080` is `[::1]`.
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    host.split(':').next().unwrap_or(host)
}

/// The first string value of a tool input, with its key.
fn first_string(input: &Value) -> Option<(Option<&str>, &str)> {
    match input {
        Value::String(s) => Some((None, s)),
        Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| Some((Some(k.as_str()), v.as_str()?))),
        _ => None,
    }
}

impl IfCondition {
    /// Parses and compiles a condition. Fails with [`ErrorKind::InvalidCondition`] on an
    /// empty condition or tool name, unbalanced parentheses, text after the closing `)`,
    /// an empty pattern (`Bash()`), or a `domain:` pattern without a host.
    pub fn parse(condition: &str) -> Result<IfCondition, Error> {
        let invalid = |message: &str| {
            Error::new(ErrorKind::InvalidCondition {
                condition: condition.to_owned(),
                message: message.to_owned(),
            })
        };
        let text = condition.trim();
        if text.is_empty() {
            return Err(invalid("the condition is empty"));
        }
        let (tool, pattern) = match text.find('(') {
            None if text.contains(')') => {
                return Err(invalid("it has a `)` without a matching `(`"));
            }
            None => (text, None),
            Some(open) => {
                let after = &text[open + 1..];
                let Some(inner) = after.strip_suffix(')') else {
                    return Err(invalid(if after.contains(')') {
                        "nothing may follow the closing `)`"
                    } else {
                        "it is missing the closing `)`"
                    }));
                };
                let mut depth = 0i32;
                for c in inner.chars() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    if depth < 0 {
                        return Err(invalid("its parentheses are unbalanced"));
                    }
                }
                if depth != 0 {
                    return Err(invalid("its parentheses are unbalanced"));
                }
                (text[..open].trim_end(), Some(inner.trim()))
            }
        };
        if tool.is_empty() {
            return Err(invalid("the tool name is empty"));
        }
        if tool.chars().any(char::is_whitespace) {
            return Err(invalid("a tool name cannot contain spaces"));
        }
        let tool = if tool.contains('*') {
            ToolPattern::Wildcard(plain_wildcard(tool, false).map_err(|m| invalid(&m))?)
        } else {
            ToolPattern::Exact(tool.to_owned())
        };
        let pattern = match pattern {
            None | Some("*") => None,
            Some("") => {
                return Err(invalid(
                    "the pattern between the parentheses is empty (write the bare tool name to match every use)",
                ));
            }
            Some(text) => Some(Pattern::compile(text).map_err(|m| invalid(&m))?),
        };
        Ok(IfCondition {
            source: condition.to_owned(),
            tool,
            pattern,
        })
    }

    /// The condition as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether `ctx` satisfies this condition (see the type's docs for the rules).
    pub fn check(&self, ctx: &EventContext) -> Result<(), Mismatch> {
        let Err(failure) = self.evaluate(ctx) else {
            return Ok(());
        };
        let pattern = self.pattern.as_ref().map_or("", |p| p.text.as_str());
        let reason = match failure {
            ConditionFailure::NoTool => "the event has no tool name".to_owned(),
            ConditionFailure::Tool(tool) => {
                let wanted = match &self.tool {
                    ToolPattern::Exact(name) => name.as_str(),
                    ToolPattern::Wildcard(_) => {
                        let source = self.source.trim();
                        source.split('(').next().unwrap_or(source).trim_end()
                    }
                };
                format!("tool {} does not match `{wanted}`", quote(tool))
            }
            ConditionFailure::Command(command) => {
                format!("command {} does not match `{pattern}`", quote(command))
            }
            ConditionFailure::Path(path) => {
                format!("path {} does not match `{pattern}`", quote(path))
            }
            ConditionFailure::NotAGlob(path, message) => format!(
                "path {} cannot be matched: `{pattern}` is not a valid glob ({message})",
                quote(path)
            ),
            ConditionFailure::Host(host) => {
                format!("host {} does not match `{pattern}`", quote(host))
            }
            ConditionFailure::Value(Some(key), value) => {
                format!("{key} = {} does not match `{pattern}`", quote(value))
            }
            ConditionFailure::Value(None, value) => {
                format!("the tool input {} does not match `{pattern}`", quote(value))
            }
            ConditionFailure::NoSubject => format!(
                "the tool input has no command, path, url or string value to match `{pattern}` against"
            ),
        };
        Err(Mismatch::Condition {
            condition: self.source.clone(),
            reason,
        })
    }

    /// Whether `ctx` satisfies this condition, without building a reason: the index's hot
    /// path.
    pub(crate) fn is_match(&self, ctx: &EventContext) -> bool {
        self.evaluate(ctx).is_ok()
    }

    fn evaluate<'a>(&'a self, ctx: &'a EventContext) -> Result<(), ConditionFailure<'a>> {
        let Some(tool) = ctx.tool_name() else {
            return Err(ConditionFailure::NoTool);
        };
        let tool_matches = match &self.tool {
            ToolPattern::Exact(name) => name == tool,
            ToolPattern::Wildcard(re) => re.is_match(tool),
        };
        if !tool_matches {
            return Err(ConditionFailure::Tool(tool));
        }
        let Some(pattern) = &self.pattern else {
            return Ok(());
        };
        let input = ctx.tool_input();
        if let Some(command) = input.and_then(|i| i.get("command")?.as_str()) {
            return if pattern.matches_command(command) {
                Ok(())
            } else {
                Err(ConditionFailure::Command(command))
            };
        }
        if let Some(path) = ctx.file_path() {
            return match &pattern.path {
                Ok(glob) if glob.is_match(path, ctx.working_dir()) => Ok(()),
                Ok(_) => Err(ConditionFailure::Path(path)),
                Err(message) => Err(ConditionFailure::NotAGlob(path, message)),
            };
        }
        if let Some(domain) = &pattern.domain
            && let Some(url) = input.and_then(|i| i.get("url")?.as_str())
        {
            let host = url_host(url);
            return if domain.is_match(host) {
                Ok(())
            } else {
                Err(ConditionFailure::Host(host))
            };
        }
        match input.and_then(first_string) {
            Some((_, value)) if pattern.plain.is_match(value) => Ok(()),
            Some((key, value)) => Err(ConditionFailure::Value(key, value)),
            None => Err(ConditionFailure::NoSubject),
        }
    }
}

impl Pattern {
    /// Whether a shell command matches: the whole command, or any of its simple commands
    /// ([`crate::shell::split`]: every command of a compound command, leading `VAR=value`
    /// dropped, wrappers unwrapped, substitutions included), or a command that does not
    /// parse (Claude Code runs the hook then). A plain command is its own only simple
    /// command and is not parsed.
    fn matches_command(&self, command: &str) -> bool {
        if self.command.is_match(command) {
            return true;
        }
        if shell::is_plain(command) {
            return false;
        }
        let split = shell::split(command);
        !split.complete
            || split
                .commands
                .iter()
                .any(|c| self.command.is_match(&c.text()))
    }

    fn compile(text: &str) -> Result<Pattern, String> {
        let domain = match text.strip_prefix("domain:") {
            Some(host) if host.trim().is_empty() => {
                return Err("`domain:` needs a host, as in `domain:example.com`".to_owned());
            }
            Some(host) => Some(plain_wildcard(host.trim(), true)?),
            None => None,
        };
        Ok(Pattern {
            text: text.to_owned(),
            command: command_wildcard(text)?,
            plain: plain_wildcard(text, false)?,
            path: compile_path_glob(text),
            domain,
        })
    }
}
