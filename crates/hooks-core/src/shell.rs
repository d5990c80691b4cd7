//! Shell commands as a shell sees them: a script split into its simple commands, with
//! quotes removed, leading `VAR=value` assignments dropped, wrappers (`sudo`, `env`,
//! `bash -c`, `xargs`, ...) unwrapped and redirections collected.
//!
//! The one home of shell splitting: `if` conditions ([`crate::IfCondition`]) and the
//! command line's built-in security guard both read commands through [`split`]. The syntax
//! is parsed by [`brush_parser`] (a POSIX and bash parser); nothing here runs, expands or
//! reads anything.

use brush_parser::ast;
use brush_parser::word::{WordPiece, WordPieceWithSource};
use brush_parser::{Parser, ParserOptions, SourceInfo};

/// How many levels of wrappers, `-c` scripts and command substitutions [`split`] follows.
/// Deeper nesting makes the split incomplete ([`Split::complete`] is false).
pub const MAX_DEPTH: usize = 8;

/// The shells whose `-c` argument (or here-document, or piped `echo`) is a script.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish",
];

/// What [`split`] found in a script.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Split {
    /// Every simple command, in source order. A wrapped command appears twice: as written
    /// (`sudo rm -rf x`, with no [`SimpleCommand::wrappers`]) and as the command the wrapper
    /// runs (`rm -rf x`, wrappers `["sudo"]`), right after it.
    pub commands: Vec<SimpleCommand>,
    /// Whether the whole script parsed and stayed within [`MAX_DEPTH`]. When a script (or a
    /// `-c` script inside it) does not parse, its text is split crudely instead: at `;`,
    /// `&`, `|`, newlines, parentheses and backquotes, into words at blanks with quote
    /// characters dropped; those commands have [`SimpleCommand::parsed`] false.
    pub complete: bool,
    /// Whether some wrapper, `-c` script or substitution lay deeper than [`MAX_DEPTH`] and
    /// was not followed (then [`Split::complete`] is false too).
    pub too_deep: bool,
}

/// One simple command: a program and its arguments, as the shell would start it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SimpleCommand {
    /// The words after quote removal (`'rm'` and `\rm` are `rm`), without the leading
    /// `VAR=value` assignments and without redirections. Parameter expansions (`$HOME`),
    /// tildes and command substitutions stay as written: nothing is expanded.
    pub argv: Vec<String>,
    /// The same words as written, quotes included.
    pub words: Vec<String>,
    /// The redirections, in order.
    pub redirects: Vec<Redirect>,
    /// The wrappers this command was unwrapped from, outermost first (`["sudo", "bash"]`
    /// for the `rm` of `sudo bash -c 'rm x'`); empty for a command as written.
    pub wrappers: Vec<String>,
    /// The pipeline this command is a stage of: commands with the same number are joined
    /// by `|`.
    pub pipeline: usize,
    /// The stage in that pipeline, from 0.
    pub stage: usize,
    /// Whether the command runs in the background (`&`).
    pub background: bool,
    /// The function whose body holds the command, if any.
    pub function: Option<String>,
    /// Where a command substitution or process substitution holding this command sits:
    /// the command whose words hold it.
    pub substituted_in: Option<Substitution>,
    /// False when the command comes from the crude split of text that did not parse.
    pub parsed: bool,
}

/// Where a substitution sits: the index of the command in [`Split::commands`] and the
/// index of the word in its [`SimpleCommand::argv`] (none for an assignment or a
/// redirection target).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Substitution {
    /// The index of the command in [`Split::commands`].
    pub command: usize,
    /// The index of the word in that command's argv.
    pub word: Option<usize>,
}

/// One redirection of a simple command.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Redirect {
    /// What the redirection does.
    pub kind: RedirectKind,
    /// The target after quote removal: a file name, a file descriptor, or the text of a
    /// here-document or here-string.
    pub target: String,
}

/// What a redirection does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RedirectKind {
    /// `<`: reads a file.
    Read,
    /// `>`, `>|`, `&>`, `>& file`: writes a file.
    Write,
    /// `>>`, `&>>`: appends to a file.
    Append,
    /// `<>`: opens a file for reading and writing.
    ReadWrite,
    /// `2>&1`, `<&3`: duplicates a file descriptor.
    Duplicate,
    /// `<<EOF`: a here-document; the target is its text.
    HereDocument,
    /// `<<< text`: a here-string; the target is its text.
    HereString,
}

impl RedirectKind {
    /// Whether the redirection writes its target file.
    pub fn writes(self) -> bool {
        match self {
            RedirectKind::Write | RedirectKind::Append | RedirectKind::ReadWrite => true,
            RedirectKind::Read
            | RedirectKind::Duplicate
            | RedirectKind::HereDocument
            | RedirectKind::HereString => false,
        }
    }
}

impl SimpleCommand {
    /// The program's name: the last path component of the first word (`/bin/rm` is `rm`).
    pub fn program(&self) -> Option<&str> {
        self.argv.first().map(|w| program_name(w))
    }

    /// The words as written, joined by single spaces: what an `if` condition matches.
    pub fn text(&self) -> String {
        self.words.join(" ")
    }
}

/// Whether `program` is a shell: its `-c` argument, and what it reads on standard input
/// without one, are scripts.
pub fn is_shell(program: &str) -> bool {
    SHELLS.contains(&program)
}

/// Whether a shell started with `argv` reads its script from standard input (no `-c`, no
/// script file, or `-s`).
pub fn reads_script_from_stdin(argv: &[String]) -> bool {
    matches!(argv.get(1..).and_then(unwrap_shell), Some(Unwrap::Stdin))
}

/// Whether `script` is one command of plain words that [`split`] would give back as it is:
/// only letters, digits, single spaces and `-_./:,@%+=^`, no leading `VAR=value`, and no
/// wrapper. Checked without parsing, so matching a plain command stays cheap.
pub fn is_plain(script: &str) -> bool {
    let plain = script
        .chars()
        .all(|c| c.is_alphanumeric() || " -_./:,@%+=^".contains(c));
    if !plain || script.starts_with(' ') || script.ends_with(' ') || script.contains("  ") {
        return false;
    }
    let argv: Vec<String> = script.split(' ').map(str::to_owned).collect();
    !argv.first().is_some_and(|w| w.contains('=')) && unwrap(&argv).is_none()
}

/// The last path component of a command word.
pub fn program_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Splits a shell script into its simple commands (see [`Split`]).
///
/// Every simple command of every list, pipeline, `&&`/`||` chain, subshell, brace group,
/// `if`/`for`/`while`/`case` body and function body is listed, and so is every command in
/// a command substitution (`$(..)`, backquotes) or process substitution (`<(..)`). Then
/// each command's wrapper is unwrapped, up to [`MAX_DEPTH`] levels:
///
/// - a command prefix runs the rest of its words: `sudo`, `doas`, `env` (its own
///   `NAME=value` words skipped; `env -S` splits a script), `command` (not with `-v`/`-V`),
///   `builtin`, `exec`, `nohup`, `setsid`, `time`, `nice`, `ionice`, `stdbuf`, `timeout`,
///   `chroot`, `xargs`, `busybox`, `watch -x`, and the commands of `find -exec`;
/// - a script argument is split as a script: a shell's `-c` (`bash -c`, `sh -ec`, `su -c`),
///   `eval`, `trap`, `watch` and `env -S`, and what a shell reads on standard input from a
///   here-document, a here-string or an `echo`/`printf` piped into it.
pub fn split(script: &str) -> Split {
    let mut splitter = Splitter {
        out: Split {
            commands: Vec::new(),
            complete: true,
            too_deep: false,
        },
        next_pipeline: 0,
        options: ParserOptions::default(),
    };
    splitter.script(script, &Ctx::default());
    splitter.out
}

/// Where the walk is.
#[derive(Clone, Debug, Default)]
struct Ctx {
    depth: usize,
    wrappers: Vec<String>,
    function: Option<String>,
    background: bool,
    substituted_in: Option<Substitution>,
    /// What a preceding `echo`/`printf` stage writes into this command's standard input.
    stdin: Option<String>,
}

impl Ctx {
    fn deeper(&self) -> Ctx {
        Ctx {
            depth: self.depth + 1,
            ..self.clone()
        }
    }

    fn wrapped_by(&self, wrapper: &str) -> Ctx {
        let mut ctx = self.deeper();
        ctx.wrappers.push(wrapper.to_owned());
        ctx.stdin = None;
        ctx
    }
}

/// Something inside a command's words that runs commands of its own.
enum Pending<'a> {
    Script(String),
    Subshell(&'a ast::SubshellCommand),
}

/// A command's words, redirections and substitutions, before it is recorded.
#[derive(Default)]
struct Parts<'a> {
    words: Vec<String>,
    argv: Vec<String>,
    redirects: Vec<Redirect>,
    pending: Vec<(Pending<'a>, Option<usize>)>,
    parsed: bool,
}

/// How a wrapper runs its command.
enum Unwrap {
    /// The words from this index on are the command.
    Argv(usize),
    /// This text is a script.
    Script(String),
    /// These ranges of words are commands (`find -exec`).
    Segments(Vec<(usize, usize)>),
    /// A shell reading its script from standard input.
    Stdin,
}

struct Splitter {
    out: Split,
    next_pipeline: usize,
    options: ParserOptions,
}

impl Splitter {
    fn script(&mut self, text: &str, ctx: &Ctx) {
        if ctx.depth > MAX_DEPTH {
            self.too_deep();
            return;
        }
        let mut parser = Parser::new(text.as_bytes(), &self.options, &SourceInfo::default());
        match parser.parse_program() {
            Ok(program) => {
                for list in &program.complete_commands {
                    self.compound_list(list, ctx);
                }
            }
            Err(_) => {
                self.out.complete = false;
                self.crude(text, ctx);
            }
        }
    }

    fn compound_list(&mut self, list: &ast::CompoundList, ctx: &Ctx) {
        for ast::CompoundListItem(and_or, separator) in &list.0 {
            let background = match separator {
                ast::SeparatorOperator::Async => true,
                ast::SeparatorOperator::Sequence => ctx.background,
            };
            let ctx = Ctx {
                background,
                ..ctx.clone()
            };
            self.pipeline(&and_or.first, &ctx);
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(p) | ast::AndOr::Or(p) => self.pipeline(p, &ctx),
                }
            }
        }
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, ctx: &Ctx) {
        let id = self.take_pipeline();
        let mut stdin = ctx.stdin.clone();
        for (stage, command) in pipeline.seq.iter().enumerate() {
            let ctx = Ctx {
                stdin: stdin.take(),
                ..ctx.clone()
            };
            let start = self.out.commands.len();
            self.command(command, &ctx, id, stage);
            stdin = self
                .out
                .commands
                .get(start)
                .filter(|c| c.wrappers.is_empty())
                .and_then(echoed);
        }
    }

    fn too_deep(&mut self) {
        self.out.complete = false;
        self.out.too_deep = true;
    }

    fn take_pipeline(&mut self) -> usize {
        let id = self.next_pipeline;
        self.next_pipeline += 1;
        id
    }

    fn command(&mut self, command: &ast::Command, ctx: &Ctx, pipeline: usize, stage: usize) {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, ctx, pipeline, stage),
            ast::Command::Compound(compound, redirects) => {
                self.compound(compound, ctx);
                self.redirect_list(redirects.as_ref(), ctx, pipeline, stage);
            }
            ast::Command::Function(function) => {
                let ctx = Ctx {
                    function: Some(function.fname.value.clone()),
                    ..ctx.clone()
                };
                let ast::FunctionBody(body, redirects) = &function.body;
                self.compound(body, &ctx);
                self.redirect_list(redirects.as_ref(), &ctx, pipeline, stage);
            }
            ast::Command::ExtendedTest(test) => self.test_expr(&test.expr, ctx),
        }
    }

    /// The redirections of a compound command, recorded as a command without words.
    fn redirect_list(
        &mut self,
        redirects: Option<&ast::RedirectList>,
        ctx: &Ctx,
        pipeline: usize,
        stage: usize,
    ) {
        let Some(list) = redirects else { return };
        let mut parts = Parts {
            parsed: true,
            ..Parts::default()
        };
        for redirect in &list.0 {
            self.redirect(redirect, &mut parts);
        }
        self.finish(parts, ctx, pipeline, stage);
    }

    fn compound(&mut self, compound: &ast::CompoundCommand, ctx: &Ctx) {
        match compound {
            ast::CompoundCommand::Arithmetic(_) => {}
            ast::CompoundCommand::ArithmeticForClause(f) => self.compound_list(&f.body.list, ctx),
            ast::CompoundCommand::BraceGroup(b) => self.compound_list(&b.list, ctx),
            ast::CompoundCommand::Subshell(s) => self.compound_list(&s.list, ctx),
            ast::CompoundCommand::ForClause(f) => {
                for value in f.values.iter().flatten() {
                    self.loose_word(&value.value, ctx);
                }
                self.compound_list(&f.body.list, ctx);
            }
            ast::CompoundCommand::CaseClause(c) => {
                self.loose_word(&c.value.value, ctx);
                for item in &c.cases {
                    for pattern in &item.patterns {
                        self.loose_word(&pattern.value, ctx);
                    }
                    if let Some(list) = &item.cmd {
                        self.compound_list(list, ctx);
                    }
                }
            }
            ast::CompoundCommand::IfClause(i) => {
                self.compound_list(&i.condition, ctx);
                self.compound_list(&i.then, ctx);
                for clause in i.elses.iter().flatten() {
                    if let Some(condition) = &clause.condition {
                        self.compound_list(condition, ctx);
                    }
                    self.compound_list(&clause.body, ctx);
                }
            }
            ast::CompoundCommand::WhileClause(w) | ast::CompoundCommand::UntilClause(w) => {
                let ast::WhileOrUntilClauseCommand(condition, body, _) = w;
                self.compound_list(condition, ctx);
                self.compound_list(&body.list, ctx);
            }
        }
    }

    fn test_expr(&mut self, expr: &ast::ExtendedTestExpr, ctx: &Ctx) {
        match expr {
            ast::ExtendedTestExpr::And(a, b) | ast::ExtendedTestExpr::Or(a, b) => {
                self.test_expr(a, ctx);
                self.test_expr(b, ctx);
            }
            ast::ExtendedTestExpr::Not(e) | ast::ExtendedTestExpr::Parenthesized(e) => {
                self.test_expr(e, ctx);
            }
            ast::ExtendedTestExpr::UnaryTest(_, w) => self.loose_word(&w.value, ctx),
            ast::ExtendedTestExpr::BinaryTest(_, a, b) => {
                self.loose_word(&a.value, ctx);
                self.loose_word(&b.value, ctx);
            }
        }
    }

    /// A word outside any simple command (a `for` list, a `case` value, a `[[ ]]` test):
    /// only its substitutions matter.
    fn loose_word(&mut self, raw: &str, ctx: &Ctx) {
        let (_, scripts) = self.unquote(raw);
        for script in scripts {
            self.script(&script, &ctx.deeper());
        }
    }

    fn simple(&mut self, simple: &ast::SimpleCommand, ctx: &Ctx, pipeline: usize, stage: usize) {
        let mut parts = Parts {
            parsed: true,
            ..Parts::default()
        };
        for item in simple.prefix.iter().flat_map(|p| &p.0) {
            match item {
                ast::CommandPrefixOrSuffixItem::IoRedirect(r) => self.redirect(r, &mut parts),
                // A leading assignment is not part of the command; its value's
                // substitutions still run.
                ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word) => {
                    let (_, scripts) = self.unquote(&word.value);
                    parts
                        .pending
                        .extend(scripts.into_iter().map(|s| (Pending::Script(s), None)));
                }
                ast::CommandPrefixOrSuffixItem::Word(word) => self.word(&word.value, &mut parts),
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, subshell) => {
                    parts.pending.push((Pending::Subshell(subshell), None));
                }
            }
        }
        if let Some(name) = &simple.word_or_name {
            self.word(&name.value, &mut parts);
        }
        for item in simple.suffix.iter().flat_map(|s| &s.0) {
            match item {
                ast::CommandPrefixOrSuffixItem::IoRedirect(r) => self.redirect(r, &mut parts),
                ast::CommandPrefixOrSuffixItem::Word(word)
                | ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word) => {
                    self.word(&word.value, &mut parts);
                }
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, subshell) => {
                    let mark = match kind {
                        ast::ProcessSubstitutionKind::Read => "<(..)",
                        ast::ProcessSubstitutionKind::Write => ">(..)",
                    };
                    parts
                        .pending
                        .push((Pending::Subshell(subshell), Some(parts.argv.len())));
                    parts.words.push(mark.to_owned());
                    parts.argv.push(mark.to_owned());
                }
            }
        }
        self.finish(parts, ctx, pipeline, stage);
    }

    fn word<'a>(&mut self, raw: &str, parts: &mut Parts<'a>) {
        let (text, scripts) = self.unquote(raw);
        let index = parts.argv.len();
        parts.pending.extend(
            scripts
                .into_iter()
                .map(|s| (Pending::Script(s), Some(index))),
        );
        parts.words.push(raw.to_owned());
        parts.argv.push(text);
    }

    fn redirect<'a>(&mut self, redirect: &'a ast::IoRedirect, parts: &mut Parts<'a>) {
        let (kind, target) = match redirect {
            ast::IoRedirect::File(_, kind, target) => {
                let text = match target {
                    ast::IoFileRedirectTarget::Filename(w)
                    | ast::IoFileRedirectTarget::Duplicate(w) => {
                        let (text, scripts) = self.unquote(&w.value);
                        parts
                            .pending
                            .extend(scripts.into_iter().map(|s| (Pending::Script(s), None)));
                        text
                    }
                    ast::IoFileRedirectTarget::Fd(fd) => fd.to_string(),
                    ast::IoFileRedirectTarget::ProcessSubstitution(_, subshell) => {
                        parts.pending.push((Pending::Subshell(subshell), None));
                        "(..)".to_owned()
                    }
                };
                let is_fd =
                    !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || c == '-');
                let kind = match kind {
                    ast::IoFileRedirectKind::Read => RedirectKind::Read,
                    ast::IoFileRedirectKind::Write | ast::IoFileRedirectKind::Clobber => {
                        RedirectKind::Write
                    }
                    ast::IoFileRedirectKind::Append => RedirectKind::Append,
                    ast::IoFileRedirectKind::ReadAndWrite => RedirectKind::ReadWrite,
                    ast::IoFileRedirectKind::DuplicateInput => RedirectKind::Duplicate,
                    // `>& file` writes the file; `>&2` duplicates.
                    ast::IoFileRedirectKind::DuplicateOutput if is_fd => RedirectKind::Duplicate,
                    ast::IoFileRedirectKind::DuplicateOutput => RedirectKind::Write,
                };
                (kind, text)
            }
            ast::IoRedirect::HereDocument(_, doc) => {
                (RedirectKind::HereDocument, doc.doc.value.clone())
            }
            ast::IoRedirect::HereString(_, word) => {
                let (text, scripts) = self.unquote(&word.value);
                parts
                    .pending
                    .extend(scripts.into_iter().map(|s| (Pending::Script(s), None)));
                (RedirectKind::HereString, text)
            }
            ast::IoRedirect::OutputAndError(word, append) => {
                let (text, scripts) = self.unquote(&word.value);
                parts
                    .pending
                    .extend(scripts.into_iter().map(|s| (Pending::Script(s), None)));
                let kind = if *append {
                    RedirectKind::Append
                } else {
                    RedirectKind::Write
                };
                (kind, text)
            }
        };
        parts.redirects.push(Redirect { kind, target });
    }

    /// Records a command as written, then what runs inside it: its substitutions and the
    /// command or script its wrapper runs.
    fn finish(&mut self, parts: Parts<'_>, ctx: &Ctx, pipeline: usize, stage: usize) {
        let index = self.out.commands.len();
        let unwrap = unwrap(&parts.argv);
        self.out.commands.push(SimpleCommand {
            argv: parts.argv,
            words: parts.words,
            redirects: parts.redirects,
            wrappers: ctx.wrappers.clone(),
            pipeline,
            stage,
            background: ctx.background,
            function: ctx.function.clone(),
            substituted_in: ctx.substituted_in,
            parsed: parts.parsed,
        });
        for (pending, word) in parts.pending {
            let mut inner = ctx.deeper();
            inner.wrappers.clear();
            inner.stdin = None;
            inner.substituted_in = Some(Substitution {
                command: index,
                word,
            });
            if inner.depth > MAX_DEPTH {
                self.too_deep();
                continue;
            }
            match pending {
                Pending::Script(text) => self.script(&text, &inner),
                Pending::Subshell(subshell) => self.compound_list(&subshell.list, &inner),
            }
        }
        self.unwrapped(index, unwrap, ctx, pipeline, stage);
    }

    /// Follows the wrapper of the command at `index`.
    fn unwrapped(
        &mut self,
        index: usize,
        unwrap: Option<Unwrap>,
        ctx: &Ctx,
        pipeline: usize,
        stage: usize,
    ) {
        let Some(unwrap) = unwrap else { return };
        let Some(command) = self.out.commands.get(index).cloned() else {
            return;
        };
        let wrapper = command.program().unwrap_or_default().to_owned();
        let inner = ctx.wrapped_by(&wrapper);
        if inner.depth > MAX_DEPTH {
            self.too_deep();
            return;
        }
        let parsed = command.parsed;
        let range = |start: usize, end: usize| {
            let words = command.words.get(start..end).unwrap_or_default().to_vec();
            let argv = command.argv.get(start..end).unwrap_or_default().to_vec();
            Parts {
                words,
                argv,
                parsed,
                ..Parts::default()
            }
        };
        match unwrap {
            Unwrap::Argv(start) => {
                let parts = range(start, command.argv.len());
                self.finish(parts, &inner, pipeline, stage);
            }
            Unwrap::Segments(segments) => {
                let all: Vec<Parts<'_>> = segments.iter().map(|&(s, e)| range(s, e)).collect();
                for parts in all {
                    self.finish(parts, &inner, pipeline, stage);
                }
            }
            Unwrap::Script(text) => self.script(&text, &inner),
            Unwrap::Stdin => {
                let script = command
                    .redirects
                    .iter()
                    .rev()
                    .find(|r| {
                        matches!(
                            r.kind,
                            RedirectKind::HereDocument | RedirectKind::HereString
                        )
                    })
                    .map(|r| r.target.clone())
                    .or_else(|| ctx.stdin.clone());
                if let Some(script) = script {
                    self.script(&script, &inner);
                }
            }
        }
    }

    /// Quote removal: the word's text and the scripts of its command substitutions.
    fn unquote(&mut self, raw: &str) -> (String, Vec<String>) {
        if !raw.contains(['\'', '"', '\\', '$', '`', '~']) {
            return (raw.to_owned(), Vec::new());
        }
        match brush_parser::word::parse(raw, &self.options) {
            Ok(pieces) => {
                let mut text = String::new();
                let mut scripts = Vec::new();
                unquote_pieces(raw, &pieces, &mut text, &mut scripts);
                (text, scripts)
            }
            Err(_) => {
                self.out.complete = false;
                (brush_parser::unquote_str(raw), Vec::new())
            }
        }
    }

    /// The fallback for text that does not parse: see [`Split::complete`].
    fn crude(&mut self, text: &str, ctx: &Ctx) {
        let mut pipeline = self.take_pipeline();
        let mut stage = 0;
        for segment in crude_segments(text) {
            if !segment.piped {
                pipeline = self.take_pipeline();
                stage = 0;
            }
            if segment.argv.is_empty() && segment.redirects.is_empty() {
                continue;
            }
            let parts = Parts {
                words: segment.argv.clone(),
                argv: segment.argv,
                redirects: segment.redirects,
                pending: Vec::new(),
                parsed: false,
            };
            self.finish(parts, ctx, pipeline, stage);
            stage += 1;
        }
    }
}

/// What an `echo` or `printf` command writes, when its arguments are literal.
fn echoed(command: &SimpleCommand) -> Option<String> {
    let program = command.program()?;
    let args = command.argv.get(1..)?;
    let args: Vec<&str> = match program {
        "echo" => args
            .iter()
            .skip_while(|a| matches!(a.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en"))
            .map(String::as_str)
            .collect(),
        "printf" => args.iter().map(String::as_str).collect(),
        _ => return None,
    };
    Some(args.join(" ").replace("\\n", "\n"))
}

fn unquote_pieces(
    raw: &str,
    pieces: &[WordPieceWithSource],
    text: &mut String,
    scripts: &mut Vec<String>,
) {
    for piece in pieces {
        let source = raw
            .get(piece.start_index..piece.end_index)
            .unwrap_or_default();
        match &piece.piece {
            WordPiece::Text(s) | WordPiece::SingleQuotedText(s) => text.push_str(s),
            WordPiece::AnsiCQuotedText(s) => text.push_str(&ansi_c(s)),
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                unquote_pieces(raw, inner, text, scripts);
            }
            WordPiece::EscapeSequence(s) => text.push_str(s.strip_prefix('\\').unwrap_or(s)),
            WordPiece::TildePrefix(_)
            | WordPiece::ParameterExpansion(_)
            | WordPiece::ArithmeticExpression(_) => text.push_str(source),
            WordPiece::CommandSubstitution(script)
            | WordPiece::BackquotedCommandSubstitution(script) => {
                text.push_str(source);
                scripts.push(script.clone());
            }
        }
    }
}

/// Decodes the escapes of a `$'..'` string.
fn ansi_c(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let mut number = |radix: u32, max: usize, first: Option<char>| {
            let mut digits: String = first.into_iter().collect();
            while digits.len() < max
                && let Some(&d) = chars.peek()
                && d.is_digit(radix)
            {
                digits.push(d);
                chars.next();
            }
            u32::from_str_radix(&digits, radix)
                .ok()
                .and_then(char::from_u32)
        };
        let decoded = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            'x' => number(16, 2, None),
            'u' => number(16, 4, None),
            'U' => number(16, 8, None),
            '0'..='7' => number(8, 3, Some(e)),
            other => Some(other),
        };
        out.extend(decoded);
    }
    out
}

/// The index in `args` of the first word that is not an option, skipping the values of
/// the options in `valued` (`-u root`, and glued: `-uroot`); `--` ends the options.
fn skip_options(args: &[String], valued: &[&str]) -> Option<usize> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            return (i + 1 < args.len()).then_some(i + 1);
        }
        if !arg.starts_with('-') || arg == "-" {
            return Some(i);
        }
        let takes_value = valued.contains(&arg.as_str());
        i += if takes_value { 2 } else { 1 };
    }
    None
}

/// Whether a word is a `NAME=value` assignment.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// How the command `argv` runs another command, if it is a wrapper.
fn unwrap(argv: &[String]) -> Option<Unwrap> {
    let name = program_name(argv.first()?);
    let args = argv.get(1..)?;
    // `start` is an index into `args`; the command starts one word later in `argv`.
    let from = |start: Option<usize>| {
        start
            .filter(|&s| s < args.len())
            .map(|s| Unwrap::Argv(s + 1))
    };
    match name {
        "sudo" | "doas" | "pkexec" | "run0" => from(skip_options(
            args,
            &[
                "-u",
                "-g",
                "-C",
                "-D",
                "-h",
                "-p",
                "-r",
                "-t",
                "-T",
                "-U",
                "--user",
                "--group",
                "--close-from",
                "--chdir",
                "--host",
                "--prompt",
                "--role",
                "--type",
                "--command-timeout",
                "--other-user",
            ],
        )),
        "env" => unwrap_env(args),
        "command" => {
            let prints = args
                .iter()
                .take_while(|a| a.starts_with('-'))
                .any(|a| a.contains(['v', 'V']));
            if prints {
                None
            } else {
                from(skip_options(args, &[]))
            }
        }
        "builtin" | "nohup" | "setsid" | "chronic" | "unbuffer" | "busybox" => {
            from(skip_options(args, &[]))
        }
        "exec" => from(skip_options(args, &["-a"])),
        "time" => from(skip_options(args, &["-f", "-o", "--format", "--output"])),
        "nice" => from(skip_options(args, &["-n", "--adjustment"])),
        "ionice" => from(skip_options(args, &["-c", "-n", "--class", "--classdata"])),
        "stdbuf" => from(skip_options(
            args,
            &["-i", "-o", "-e", "--input", "--output", "--error"],
        )),
        // The duration (`timeout 5 cmd`) and the new root (`chroot /srv cmd`) come first.
        "timeout" => {
            from(skip_options(args, &["-s", "-k", "--signal", "--kill-after"]).map(|i| i + 1))
        }
        "chroot" => from(skip_options(args, &["--userspec", "--groups"]).map(|i| i + 1)),
        "xargs" => from(skip_options(
            args,
            &[
                "-I",
                "-L",
                "-n",
                "-P",
                "-s",
                "-d",
                "-E",
                "-a",
                "--arg-file",
                "--delimiter",
                "--max-args",
                "--max-procs",
                "--max-lines",
                "--max-chars",
                "--replace",
                "--eof",
                "--process-slot-var",
            ],
        )),
        "watch" => {
            let start = skip_options(args, &["-n", "--interval", "-d", "--differences"])?;
            let exec = args
                .get(..start)
                .unwrap_or_default()
                .iter()
                .any(|a| a == "-x" || a == "--exec");
            if exec {
                from(Some(start))
            } else {
                Some(Unwrap::Script(args.get(start..)?.join(" ")))
            }
        }
        "eval" => (!args.is_empty()).then(|| Unwrap::Script(args.join(" "))),
        "trap" => args
            .first()
            .filter(|a| !a.starts_with('-'))
            .map(|a| Unwrap::Script(a.clone())),
        "su" => {
            let at = args.iter().position(|a| a == "-c" || a == "--command");
            let script = match at {
                Some(i) => args.get(i + 1).cloned(),
                None => args
                    .iter()
                    .find_map(|a| a.strip_prefix("--command=").map(str::to_owned)),
            };
            script.map(Unwrap::Script)
        }
        "find" => {
            let mut segments = Vec::new();
            let mut i = 1;
            while i < argv.len() {
                let is_exec = argv
                    .get(i)
                    .is_some_and(|a| matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir"));
                if is_exec {
                    let start = i + 1;
                    let end = argv
                        .iter()
                        .skip(start)
                        .position(|a| a == ";" || a == "+")
                        .map_or(argv.len(), |p| start + p);
                    if start < end {
                        segments.push((start, end));
                    }
                    i = end;
                }
                i += 1;
            }
            (!segments.is_empty()).then_some(Unwrap::Segments(segments))
        }
        _ if SHELLS.contains(&name) => unwrap_shell(args),
        _ => None,
    }
}

/// `env [-i] [-u NAME] [-C DIR] [-S SCRIPT] [NAME=value]... command`.
fn unwrap_env(args: &[String]) -> Option<Unwrap> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            i += 1;
            break;
        }
        let split = match arg.as_str() {
            "-S" | "--split-string" => args.get(i + 1).cloned(),
            other => other
                .strip_prefix("--split-string=")
                .or_else(|| other.strip_prefix("-S").filter(|s| !s.is_empty()))
                .map(str::to_owned),
        };
        if let Some(script) = split {
            let rest = args.get(i + 2..).unwrap_or_default();
            let mut text = script;
            for word in rest {
                text.push(' ');
                text.push_str(word);
            }
            return Some(Unwrap::Script(text));
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        i += if matches!(arg.as_str(), "-u" | "-C" | "--unset" | "--chdir") {
            2
        } else {
            1
        };
    }
    while args.get(i).is_some_and(|a| is_assignment(a)) {
        i += 1;
    }
    (i < args.len()).then_some(Unwrap::Argv(i + 1))
}

/// A shell's arguments: `-c SCRIPT`, or a script on standard input (no script file).
fn unwrap_shell(args: &[String]) -> Option<Unwrap> {
    let mut command = false;
    let mut stdin = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" || arg == "-" {
            i += 1;
            break;
        }
        if !(arg.starts_with('-') || arg.starts_with('+')) {
            break;
        }
        if matches!(
            arg.as_str(),
            "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file"
        ) {
            i += 2;
            continue;
        }
        if !arg.starts_with("--") {
            command |= arg.contains('c');
            stdin |= arg.contains('s');
        }
        i += 1;
    }
    if command {
        return args.get(i).map(|s| Unwrap::Script(s.clone()));
    }
    (stdin || i >= args.len()).then_some(Unwrap::Stdin)
}

/// One command of the crude split.
#[derive(Default)]
struct CrudeSegment {
    argv: Vec<String>,
    redirects: Vec<Redirect>,
    /// Joined to the segment before by `|`.
    piped: bool,
}

/// Splits text that did not parse: see [`Split::complete`].
fn crude_segments(text: &str) -> Vec<CrudeSegment> {
    let mut segments = Vec::new();
    let mut current = CrudeSegment::default();
    let mut word = String::new();
    let mut in_word = false;
    let mut redirect: Option<RedirectKind> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    let end_word = |current: &mut CrudeSegment,
                    word: &mut String,
                    in_word: &mut bool,
                    redirect: &mut Option<RedirectKind>| {
        if *in_word {
            let text = std::mem::take(word);
            match redirect.take() {
                Some(kind) => current.redirects.push(Redirect { kind, target: text }),
                None => current.argv.push(text),
            }
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else {
                word.push(c);
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                in_word = true;
            }
            '\\' => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            '>' | '<' => {
                end_word(&mut current, &mut word, &mut in_word, &mut redirect);
                redirect = Some(if c == '<' {
                    RedirectKind::Read
                } else if chars.next_if_eq(&'>').is_some() {
                    RedirectKind::Append
                } else {
                    RedirectKind::Write
                });
            }
            ';' | '&' | '|' | '\n' | '(' | ')' | '`' | '{' | '}' => {
                end_word(&mut current, &mut word, &mut in_word, &mut redirect);
                redirect = None;
                let piped = c == '|' && chars.next_if_eq(&'|').is_none();
                segments.push(std::mem::take(&mut current));
                current.piped = piped;
            }
            '$' if chars.peek() == Some(&'(') => {
                end_word(&mut current, &mut word, &mut in_word, &mut redirect);
                segments.push(std::mem::take(&mut current));
            }
            c if c.is_whitespace() => {
                end_word(&mut current, &mut word, &mut in_word, &mut redirect);
            }
            other => {
                word.push(other);
                in_word = true;
            }
        }
    }
    end_word(&mut current, &mut word, &mut in_word, &mut redirect);
    segments.push(current);
    segments
}
