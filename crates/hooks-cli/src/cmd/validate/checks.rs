//! What `hooks validate` checks beyond loading, as warnings at the hook's `file:line:col`:
//! a command hook's script that does not exist or is not executable, and the notes loaders leave for linters (a dialect's default
//! timeout clamped to the maximum). These look at the file system, so only `validate` runs
//! them, never an event.

use std::iter::Peekable;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};
use std::str::Chars;

use hooks::Loaded;
use hooks::config::{Diagnostic, DiagnosticKind, Inactive, MergedHook};
use hooks::core::{Action, CommandAction, CommandLine, HookSpec};

use crate::cmd::test::sample;

/// Programs that run the file named by their first argument.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "node", "deno", "bun", "ruby",
    "perl", "php",
];

/// The warnings of every hook of `loaded`, for a project rooted at `project`.
pub(super) fn warnings(loaded: &Loaded, project: &Path) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = loaded
        .files
        .iter()
        .flat_map(|f| f.notes.iter().cloned())
        .collect();
    for hook in loaded.hooks.hooks() {
        if matches!(hook.inactive, Some(Inactive::Duplicate { .. })) {
            continue;
        }
        let found = match &hook.spec.action {
            Action::Command(action) => script_problem(&hook.spec, action, project),
            _ => None,
        };
        if let Some((message, hint)) = found {
            out.push(place(
                Diagnostic::warning(DiagnosticKind::InvalidValue, message).with_hint(hint),
                hook,
            ));
        }
    }
    out
}

/// What is wrong with the program a command hook runs, if it is a path (`./x.sh`,
/// `$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh`, an argv's first element, the script an
/// interpreter runs) that does not exist or cannot be executed: a message and a hint.
/// Variables are those the hook is given (its dialect's, its `env`, the engine's
/// environment); relative paths start from its working directory.
fn script_problem(
    spec: &HookSpec,
    action: &CommandAction,
    project: &Path,
) -> Option<(String, String)> {
    let mut ctx = sample(spec);
    ctx.set("cwd", project.display().to_string());
    ctx.set("project_dir", project.display().to_string());
    let mut env = hooks::core::env_vars(&ctx, spec.dialect);
    env.extend(action.env.iter().cloned());
    let lookup = |name: &str| {
        env.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .or_else(|| std::env::var(name).ok())
    };
    let words: Vec<Option<String>> = match &action.command {
        CommandLine::Script(script) => first_words(script, &lookup),
        CommandLine::Argv(argv) => argv.iter().take(2).cloned().map(Some).collect(),
    };
    let dir = match &action.cwd {
        Some(d) => project.join(d),
        None => project.to_path_buf(),
    };
    let program = words.first()?.clone()?;
    let interpreted = Path::new(&program)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| INTERPRETERS.contains(&n));
    let (path, must_run) = if interpreted {
        match words.get(1) {
            Some(Some(script)) if !script.starts_with('-') => (script.clone(), false),
            _ => return None,
        }
    } else if program.contains('/') {
        (program, true)
    } else {
        // A bare name is looked up on PATH when the hook runs.
        return None;
    };
    // Lexically, as the kernel resolves `./x` (and for a shorter message).
    let resolved: PathBuf = dir
        .join(&path)
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    let from = if Path::new(&path).is_relative() {
        format!(
            "; it names {}: relative paths start from the hook's working directory, {} \
             (`hooks validate` takes the project root as the event's `cwd`)",
            resolved.display(),
            dir.display()
        )
    } else {
        String::new()
    };
    match std::fs::metadata(&resolved) {
        Err(_) => Some((
            format!("the hook runs `{path}`, which does not exist"),
            format!("create it, or correct the path{from}"),
        )),
        Ok(meta) if !meta.is_file() => Some((
            format!("the hook runs `{path}`, which is not a file"),
            format!("name the script itself{from}"),
        )),
        Ok(meta) if must_run && meta.permissions().mode() & 0o111 == 0 => Some((
            format!("the hook runs `{path}`, which is not executable"),
            format!(
                "make it executable (`chmod +x {}`), or run it through its interpreter (`sh {path}`)",
                resolved.display()
            ),
        )),
        Ok(_) => None,
    }
}

/// The first two words of a shell script's first command, as the shell parser reads them
/// ([`hooks::core::shell::split`]: leading assignments such as `FOO=1 ./x.sh` are not
/// words), each expanded as the shell would, or `None` when it depends on more than
/// variables (a command substitution, a glob, an unset variable).
fn first_words(script: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Vec<Option<String>> {
    let split = hooks::core::shell::split(script);
    let Some(first) = split.commands.first() else {
        return Vec::new();
    };
    first
        .words
        .iter()
        .take(2)
        .map(|w| expand(w, lookup))
        .collect()
}

/// One word as written, expanded (`None`: it cannot be known before the hook runs).
fn expand(written: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut chars = written.chars().peekable();
    let chars = &mut chars;
    let mut word = Some(String::new());
    let mut first = true;
    while let Some(c) = chars.next() {
        let piece: Option<String> = match c {
            '\'' => Some(chars.by_ref().take_while(|c| *c != '\'').collect()),
            '"' => double_quoted(chars, lookup),
            '\\' => chars.next().map(String::from),
            '$' => variable(chars, lookup),
            '`' | '*' | '?' | '[' => None,
            '~' if first => lookup("HOME"),
            c => Some(c.to_string()),
        };
        first = false;
        word = word.zip(piece).map(|(a, b)| a + &b);
    }
    word
}

/// The rest of a `"..."` string after its opening quote.
fn double_quoted(
    chars: &mut Peekable<Chars<'_>>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    let mut s = Some(String::new());
    while let Some(c) = chars.next() {
        let piece = match c {
            '"' => break,
            '\\' => match chars.next() {
                Some(n) if "$`\"\\\n".contains(n) => Some(n.to_string()),
                Some(n) => Some(format!("\\{n}")),
                None => Some("\\".to_owned()),
            },
            '$' => variable(chars, lookup),
            '`' => None,
            c => Some(c.to_string()),
        };
        s = s.zip(piece).map(|(a, b)| a + &b);
    }
    s
}

/// After a `$`: the value of `NAME` or `${NAME}`; `None` for anything else or an unset
/// variable.
fn variable(
    chars: &mut Peekable<Chars<'_>>,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Option<String> {
    let braced = chars.peek() == Some(&'{');
    if braced {
        chars.next();
    }
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_alphanumeric() || c == '_' {
            name.push(c);
            chars.next();
        } else {
            break;
        }
    }
    if braced && chars.next() != Some('}') {
        return None;
    }
    if !is_name(&name) {
        return None;
    }
    lookup(&name)
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `d` placed at `hook`'s file, line and column. (The source line is not shown: the
/// file is not read a second time, since what is at its path now may no longer be the
/// config that loaded.)
fn place(d: Diagnostic, hook: &MergedHook) -> Diagnostic {
    let p = &hook.spec.provenance;
    let mut d = d;
    if let Some(file) = &p.file {
        d = d.with_file(file.clone());
    }
    if let (Some(line), Some(col)) = (p.line, p.column) {
        d = d.at(line, col);
    }
    d
}
