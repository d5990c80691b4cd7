//! The built-in security guard: blocks destructive shell commands and writes to secret
//! files before a tool runs.
//!
//! A shell command is read as a shell reads it ([`hooks_core::shell::split`]): every simple
//! command of a list, pipeline, `&&`/`||` chain, subshell, function body and command
//! substitution is checked, after quote removal, with leading `VAR=value` assignments
//! dropped and wrappers unwrapped (`sudo`, `env`, `command`, `exec`, `nohup`, `time`,
//! `xargs`, `find -exec`, `bash -c`, `sh -c`, `eval`, a here-document or an `echo` piped
//! into a shell). A quoted string is data: `echo "rm -rf /"` passes.
//!
//! It covers everything Autohand's seed guard lists: `rm -rf /`, `rm -rf ~`, `rm -rf .`
//! (and `*`, `..`, top-level system directories, `$VAR/` that an empty variable turns into
//! `/`), `sudo rm`, `chmod 777` (also `-R`), `mkfs`, `dd if=`, `find / -delete`, fork
//! bombs, a download run as code (`curl … | bash`, `bash <(curl …)`, `sh -c "$(curl …)"`),
//! and writes to `.env*`, SSH keys and configuration (`id_rsa*`, `id_ed25519*`, `*.pem`,
//! `*.key`, `~/.ssh/`, `authorized_keys`) and credentials files (`credentials*`,
//! `secrets.json`, `.npmrc`, `.pypirc`, `.netrc`): [`SECRET_FILES`], the list the
//! git-auto-stage script also skips. Writes are caught as file tools
//! (`file_path`/`path` in the tool input), as redirections (`> .env`, `>> ~/.ssh/..`) and as
//! the destination of `tee`, `cp`, `mv`, `install`, `ln` and `dd of=`.
//!
//! Text that does not parse is split crudely (see [`hooks_core::shell::Split::complete`])
//! and given the same checks, so an unterminated quote does not hide `rm -rf /`; a command
//! nested deeper than [`hooks_core::shell::MAX_DEPTH`] is blocked, since what it runs
//! cannot be seen.

use hooks_core::shell::{self, SimpleCommand, Split};
use serde_json::Value;

/// Top-level directories whose recursive removal breaks the machine.
const SYSTEM_DIRS: &[&str] = &[
    "bin",
    "boot",
    "dev",
    "etc",
    "home",
    "lib",
    "lib32",
    "lib64",
    "opt",
    "proc",
    "root",
    "sbin",
    "srv",
    "sys",
    "usr",
    "var",
    "Users",
    "System",
    "Library",
    "Applications",
];

/// What an `rm -r` target would erase.
fn rm_target_danger(target: &str) -> Option<&'static str> {
    let mut rest = target.trim();
    let mut home = false;
    for prefix in ["~", "$HOME", "${HOME}"] {
        if let Some(after) = rest.strip_prefix(prefix)
            && (after.is_empty() || after.starts_with('/'))
        {
            home = true;
            rest = after;
            break;
        }
    }
    if !home && rest.starts_with('$') {
        // `$DIR/` and `${DIR}/*` are `/` when the variable is empty or unset.
        let after_vars = strip_variables(rest);
        return match normalise(after_vars) {
            Some((true, segments)) if segments.is_empty() => {
                Some("rm -rf $VAR/ would erase the whole filesystem if the variable is empty")
            }
            _ => None,
        };
    }
    let (absolute, segments) = normalise(rest)?;
    if home {
        return segments
            .is_empty()
            .then_some("rm -rf ~ would erase the home directory");
    }
    if absolute {
        return match segments.as_slice() {
            [] => Some("rm -rf / would erase the whole filesystem"),
            [dir] if SYSTEM_DIRS.contains(dir) => {
                Some("rm -rf on a top-level system directory would break the machine")
            }
            _ => None,
        };
    }
    if segments.is_empty() {
        return Some("rm -rf . would erase the working directory");
    }
    if segments.iter().all(|s| *s == "..") {
        return Some("rm -rf .. would erase a parent of the working directory");
    }
    None
}

/// Drops the leading `$NAME` and `${...}` expansions of a word.
fn strip_variables(mut word: &str) -> &str {
    while let Some(after) = word.strip_prefix('$') {
        word = if let Some(braced) = after.strip_prefix('{') {
            braced.split_once('}').map_or("", |(_, rest)| rest)
        } else {
            after.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
        };
    }
    word
}

/// A path's segments after lexical normalisation (`.`, empty segments and each `..` with
/// the segment before dropped; a trailing `*` or `.*` means the directory's contents, so it
/// is dropped too), and whether it is absolute. None when a segment is any other glob.
fn normalise(path: &str) -> Option<(bool, Vec<&str>)> {
    let absolute = path.starts_with('/');
    let mut raw: Vec<&str> = path.split('/').collect();
    while matches!(raw.last(), Some(&"*" | &".*" | &"" | &".")) && raw.len() > 1 {
        raw.pop();
    }
    if matches!(raw.as_slice(), [only] if *only == "*" || *only == ".*") {
        raw.clear();
    }
    // A glob segment is never `""`, `.` or `..`, so refusing globs first changes nothing.
    if raw.iter().any(|segment| segment.contains(['*', '?', '['])) {
        return None;
    }
    Some((
        absolute,
        hooks_core::lexical_segments(raw.into_iter(), absolute),
    ))
}

/// The arguments of a command that are not options (everything after `--`).
fn operands(command: &SimpleCommand) -> impl Iterator<Item = &str> {
    let mut options_done = false;
    command.argv.iter().skip(1).filter_map(move |arg| {
        if options_done {
            return Some(arg.as_str());
        }
        if arg == "--" {
            options_done = true;
            return None;
        }
        (!arg.starts_with('-') || arg == "-").then_some(arg.as_str())
    })
}

/// The options of a command (before `--`).
fn options(command: &SimpleCommand) -> impl Iterator<Item = &str> {
    command
        .argv
        .iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .filter(|a| a.starts_with('-') && a.len() > 1)
        .map(String::as_str)
}

/// Whether `root` is `/`, the home directory or a top-level system directory (not `.`,
/// which `find . -name '*.o' -delete` searches every day).
fn is_absolute_danger(root: &str) -> bool {
    let anchored = ["/", "~", "$HOME", "${HOME}", "$"]
        .iter()
        .any(|p| root.starts_with(p));
    anchored && rm_target_danger(root).is_some()
}

fn is_recursive(command: &SimpleCommand) -> bool {
    options(command).any(|o| o == "--recursive" || (!o.starts_with("--") && o.contains(['r', 'R'])))
}

/// The checks on one simple command, in order; the first that fires gives the reason.
fn check_simple(command: &SimpleCommand, split: &Split) -> Option<&'static str> {
    let program = command.program()?;
    let reason = match program {
        "rm" if command.wrappers.iter().any(|w| w == "sudo" || w == "doas") => {
            Some("sudo rm deletes files as root")
        }
        "rm" if is_recursive(command) => operands(command).find_map(rm_target_danger),
        "chmod"
            if operands(command)
                .any(|a| matches!(a, "777" | "0777" | "a+rwx" | "ugo+rwx" | "a=rwx")) =>
        {
            Some("chmod 777 makes files writable by everyone")
        }
        "dd" if operands(command).any(|a| a.starts_with("if=")) => Some("dd if= writes raw blocks"),
        "find" if find_deletes_a_root(command) => {
            Some("find -delete on / or the home directory erases it")
        }
        "curl" | "wget" if download_runs(command, split) => {
            Some("piping a download into a shell runs unreviewed code")
        }
        _ if program == "mkfs" || program.starts_with("mkfs.") => Some("mkfs formats a filesystem"),
        _ => None,
    };
    let fork_bomb = command.function.as_deref() == Some(program)
        && (command.background || in_pipeline(command, split));
    reason.or(fork_bomb.then_some("a fork bomb exhausts the machine"))
}

/// `find` over `/`, the home directory or a system directory with `-delete` or
/// `-exec rm`.
fn find_deletes_a_root(command: &SimpleCommand) -> bool {
    let deletes = command.argv.iter().any(|a| a == "-delete")
        || command.argv.windows(2).any(|w| {
            matches!(w[0].as_str(), "-exec" | "-execdir" | "-ok" | "-okdir")
                && shell::program_name(&w[1]) == "rm"
        });
    deletes
        && command
            .argv
            .iter()
            .skip(1)
            .take_while(|a| !a.starts_with(['-', '(', '!']))
            .any(|r| is_absolute_danger(r))
}
const DOTENV: &str = "dotenv files hold secrets";
const PRIVATE_KEY: &str = "private keys must not be written by an agent";
const SSH: &str = "SSH configuration must not be written by an agent";
const CREDENTIALS: &str = "credentials files hold secrets";

/// The files that hold secrets, each with the reason given for refusing to write it: the
/// one list the guard refuses writes to and the git-auto-stage script does not stage
/// (its `case` pattern is this list, filled in when the script is installed).
///
/// Each pattern is a shell `case` pattern (`*` matches any text, `/` included) over the
/// path with a `/` put in front, so `*/.env*` is every name starting with `.env`
/// (`.env`, `.env.local`, `.envrc`, `.env-prod`) in any directory.
pub const SECRET_FILES: &[(&str, &str)] = &[
    ("*/.env*", DOTENV),
    ("*/id_rsa*", PRIVATE_KEY),
    ("*/id_ed25519*", PRIVATE_KEY),
    ("*/id_ecdsa*", PRIVATE_KEY),
    ("*/id_dsa*", PRIVATE_KEY),
    ("*.pem", PRIVATE_KEY),
    ("*.key", PRIVATE_KEY),
    ("*/.ssh", SSH),
    ("*/.ssh/*", SSH),
    ("*/authorized_keys*", SSH),
    ("*/credentials*", CREDENTIALS),
    ("*/secrets.json", CREDENTIALS),
    ("*/.npmrc", CREDENTIALS),
    ("*/.pypirc", CREDENTIALS),
    ("*/.netrc", CREDENTIALS),
];

/// [`SECRET_FILES`] as one shell `case` pattern (`*/.env*|*/id_rsa*|..`).
pub fn secret_files_case_pattern() -> String {
    SECRET_FILES
        .iter()
        .map(|(pattern, _)| *pattern)
        .collect::<Vec<_>>()
        .join("|")
}

/// Whether `text` matches the shell pattern `pattern`, whose only wildcard is `*`.
fn matches_pattern(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Why a path holds secrets, if it does ([`SECRET_FILES`]).
fn is_protected_path(path: &str) -> Option<&'static str> {
    let path = path.trim().trim_matches(['"', '\'']);
    let path = format!("/{path}");
    SECRET_FILES
        .iter()
        .find(|(pattern, _)| matches_pattern(pattern, &path))
        .map(|(_, reason)| *reason)
}

/// Whether the download `command` is run as code: piped into a shell later in its
/// pipeline, or substituted into a shell's script (`bash <(curl ..)`, `sh -c "$(curl ..)"`,
/// `source <(curl ..)`, `$(curl ..)` as a command name).
fn download_runs(command: &SimpleCommand, split: &Split) -> bool {
    let piped_into_shell = split.commands.iter().any(|c| {
        c.pipeline == command.pipeline
            && c.stage > command.stage
            && c.program().is_some_and(shell::is_shell)
            && shell::reads_script_from_stdin(&c.argv)
    });
    let substituted_as_code = command.substituted_in.is_some_and(|at| {
        at.word == Some(0)
            || split
                .commands
                .get(at.command)
                .and_then(SimpleCommand::program)
                .is_some_and(|p| shell::is_shell(p) || matches!(p, "source" | "." | "eval"))
    });
    piped_into_shell || substituted_as_code
}

/// Whether another command shares `command`'s pipeline.
fn in_pipeline(command: &SimpleCommand, split: &Split) -> bool {
    split
        .commands
        .iter()
        .any(|c| c.pipeline == command.pipeline && c.stage != command.stage)
}

/// The files a command writes: its write redirections, and the destinations of `tee`,
/// `cp`, `mv`, `install`, `ln` and `dd of=`.
fn write_targets(command: &SimpleCommand) -> Vec<&str> {
    let mut targets: Vec<&str> = command
        .redirects
        .iter()
        .filter(|r| r.kind.writes())
        .map(|r| r.target.as_str())
        .collect();
    match command.program() {
        Some("tee") => targets.extend(operands(command)),
        Some("cp" | "mv" | "install" | "ln") => {
            let operands: Vec<&str> = operands(command).collect();
            if operands.len() >= 2
                && let Some(last) = operands.last()
            {
                targets.push(last);
            }
        }
        Some("dd") => targets.extend(operands(command).filter_map(|a| a.strip_prefix("of="))),
        _ => {}
    }
    targets
}

/// What the guard decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing dangerous found.
    Allow,
    /// Blocked, with the reason for the agent.
    Block(String),
}

/// Checks one tool call. `tool_input` is the tool's input object; shell commands are read
/// from its `command` field, written paths from `file_path`, `path` or `notebook_path`.
pub fn check(tool_input: &Value) -> Verdict {
    if let Some(command) = tool_input.get("command").and_then(Value::as_str)
        && let Some(reason) = check_command(command)
    {
        return Verdict::Block(format!("Blocked: {reason} (`{}`)", shorten(command)));
    }
    let path = ["file_path", "path", "notebook_path"]
        .iter()
        .find_map(|k| tool_input.get(*k)?.as_str());
    if let Some(path) = path
        && let Some(reason) = is_protected_path(path)
    {
        return Verdict::Block(format!("Blocked: {reason} (`{path}`)"));
    }
    Verdict::Allow
}

/// The reason to block a shell command, if any.
fn check_command(script: &str) -> Option<&'static str> {
    let split = shell::split(script);
    for command in &split.commands {
        if let Some(reason) = check_simple(command, &split) {
            return Some(reason);
        }
        if let Some(reason) = write_targets(command)
            .into_iter()
            .find_map(is_protected_path)
        {
            return Some(reason);
        }
    }
    if split.too_deep {
        return Some("the command nests shells or wrappers too deeply to be checked");
    }
    if !split.complete {
        // The crude split loses a function definition's structure; the classic fork bomb
        // is still recognised as text.
        let squeezed: String = script.chars().filter(|c| !c.is_whitespace()).collect();
        if squeezed.contains(":(){:|:&};:") {
            return Some("a fork bomb exhausts the machine");
        }
    }
    None
}

fn shorten(s: &str) -> String {
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}
