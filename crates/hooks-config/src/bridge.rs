//! This engine's own bridge entries in agents' files: the `hooks-bridge AGENT` and
//! `hooks bridge AGENT` commands `hooks install` writes into Claude Code's, Gemini CLI's,
//! Codex's, Cursor's and Cline's files, recognised whatever the spelling, so that the
//! merge marks them ([`crate::Inactive::Bridge`]) and no bridge ever runs another bridge
//! as a hook.
//!
//! A command is a bridge call when one of its simple commands (as a shell reads it, quotes
//! removed and wrappers such as `exec`, `env` or `sh -c` unwrapped: [`hooks_core::shell`])
//! starts this engine's client, `hooks-bridge` (its first argument that is not an option is
//! the agent), or this engine's binary with the argument `bridge` (the agent follows). The
//! client is a program named `hooks-bridge`, or whose path (resolved as the binary's is),
//! symlinks resolved, is a file named `hooks-bridge`. The binary is this engine's when
//! its name is `hooks`, or when its path (absolute, relative to the hook's file or the
//! current directory, `~/`, or looked up in `PATH`), symlinks resolved, is the running
//! binary or a file named `hooks`. A shell script is only parsed when it says `bridge`
//! somewhere (a link to the client under another name, written in a script, is left to
//! the nesting mark). A command that is a single script file with no
//! arguments is read (at most [`MAX_SCRIPT`] bytes): it is a bridge call when it is a file
//! `hooks install cline` wrote, or when its one command (besides `set`, `cd`, `export`,
//! `umask`, `:`) is a bridge call. Anything recognition misses is still stopped by the
//! nesting mark every hook process carries (`hooks_exec::DEPTH_VAR`).

use std::path::{Path, PathBuf};

use hooks_core::shell::{self, SimpleCommand};
use hooks_core::{Action, CommandLine};

/// The largest script file read to see whether it only calls the bridge.
pub const MAX_SCRIPT: u64 = 64 * 1024;

/// The name of this engine's binary.
const BINARY: &str = "hooks";

/// The file name of this engine's client, the small program that is the hook command
/// where it is installed beside the `hooks` program (`hooks-bridge AGENT` answers as
/// `hooks bridge AGENT` does).
pub const CLIENT: &str = "hooks-bridge";

/// Commands a wrapper script may hold besides its bridge call.
const PREAMBLE: &[&str] = &["set", "cd", "export", "umask", ":", "true"];

/// The agent a command hook's action calls the bridge of (`"gemini"` for `hooks bridge
/// gemini` and `hooks-bridge gemini`; empty when the call names none), or `None` when it
/// is not a bridge call.
/// `dir` is the directory of the file the hook came from, against which a relative
/// program is resolved.
pub fn bridged_agent(action: &Action, dir: Option<&Path>) -> Option<String> {
    let Action::Command(command) = action else {
        return None;
    };
    match &command.command {
        CommandLine::Script(script) => in_script(script, dir, true),
        CommandLine::Argv(argv) => in_argv(argv, dir).or_else(|| {
            let script: Vec<String> = argv.iter().map(|w| crate::shell_quote(w)).collect();
            in_script(&script.join(" "), dir, true)
        }),
    }
}

/// The bridge call in a shell script; `files`: whether a script that is one program
/// with no argument may be read as a wrapper.
fn in_script(script: &str, dir: Option<&Path>, files: bool) -> Option<String> {
    if script.contains("bridge") {
        let split = shell::split(script);
        if let Some(agent) = split.commands.iter().find_map(|c| in_argv(&c.argv, dir)) {
            return Some(agent);
        }
    }
    if !files {
        return None;
    }
    one_word(script).and_then(|program| in_wrapper(program, dir))
}

/// The one word `script` is, read without parsing (a parse per hook on every bridge call
/// would cost more than the rest of loading): a word of plain characters, or one quoted in
/// single quotes as [`crate::shell_quote`] writes a path.
fn one_word(script: &str) -> Option<&str> {
    let word = script.trim();
    if let Some(inner) = word
        .strip_prefix('\'')
        .and_then(|w| w.strip_suffix('\''))
        .filter(|w| !w.contains('\''))
    {
        return Some(inner);
    }
    let plain = !word.is_empty()
        && !word
            .chars()
            .any(|c| c.is_whitespace() || "'\"\\$`;&|<>()*?[]{}#=".contains(c));
    plain.then_some(word)
}

/// The bridge call in `argv`, if it starts this engine's client, or its binary with
/// `bridge`.
fn in_argv(argv: &[String], dir: Option<&Path>) -> Option<String> {
    let (program, args) = argv.split_first()?;
    let args = if is_client(program, dir) {
        args
    } else if args.first().map(String::as_str) == Some("bridge") && is_engine(program, dir) {
        &args[1..]
    } else {
        return None;
    };
    let agent = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .cloned()
        .unwrap_or_default();
    Some(agent)
}

/// The bridge call a wrapper script at `program` makes: a file `hooks install cline`
/// wrote, or a script whose one command is a bridge call.
fn in_wrapper(program: &str, dir: Option<&Path>) -> Option<String> {
    let path = resolve(program, dir)?;
    let meta = std::fs::metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SCRIPT {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    if !bytes.starts_with(b"#!") {
        return None;
    }
    if crate::dialects::cline::is_bridge_script(&bytes) {
        return Some("cline".to_owned());
    }
    let text = std::str::from_utf8(&bytes).ok()?;
    let split = shell::split(text);
    let written: Vec<&SimpleCommand> = split
        .commands
        .iter()
        .filter(|c| c.wrappers.is_empty() && c.substituted_in.is_none())
        .filter(|c| c.program().is_some_and(|p| !PREAMBLE.contains(&p)))
        .collect();
    if written.len() != 1 {
        return None;
    }
    let base = path.parent().map(Path::to_path_buf);
    split
        .commands
        .iter()
        .find_map(|c| in_argv(&c.argv, base.as_deref().or(dir)))
}

/// Whether `program` is this engine's client: named [`CLIENT`], or a path to a file of
/// that name, links resolved.
fn is_client(program: &str, dir: Option<&Path>) -> bool {
    shell::program_name(program) == CLIENT
        || resolve(program, dir)
            .and_then(|p| std::fs::canonicalize(p).ok())
            .is_some_and(|real| real.file_name().is_some_and(|n| n == CLIENT))
}

/// Whether `program` is this engine's binary.
fn is_engine(program: &str, dir: Option<&Path>) -> bool {
    let name = shell::program_name(program);
    if name == BINARY {
        return true;
    }
    let exe = std::env::current_exe().ok();
    if exe
        .as_deref()
        .and_then(Path::file_name)
        .is_some_and(|n| n == name)
    {
        return true;
    }
    let Some(real) = resolve(program, dir).and_then(|p| std::fs::canonicalize(p).ok()) else {
        return false;
    };
    real.file_name().is_some_and(|n| n == BINARY)
        || exe
            .and_then(|e| std::fs::canonicalize(e).ok())
            .is_some_and(|e| e == real)
}

/// The file `program` names: an absolute path; `~/` under `HOME`; a relative path with a
/// `/` against `dir`, else the current directory; a bare name looked up in `PATH`.
fn resolve(program: &str, dir: Option<&Path>) -> Option<PathBuf> {
    let path = Path::new(program);
    if let Some(rest) = program.strip_prefix("~/") {
        return std::env::var_os("HOME").map(|h| PathBuf::from(h).join(rest));
    }
    if path.is_absolute() {
        return Some(path.to_path_buf());
    }
    if program.contains('/') {
        return dir
            .map(|d| d.join(path))
            .filter(|p| p.exists())
            .or_else(|| std::path::absolute(path).ok());
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use hooks_core::Action;

    use super::bridged_agent;

    #[track_caller]
    fn check(script: &str, expect: Option<&str>) {
        assert_eq!(
            bridged_agent(&Action::script(script), None).as_deref(),
            expect,
            "{script}"
        );
    }

    #[test]
    fn every_spelling_of_a_bridge_call_is_one() {
        check("/home/me/.cargo/bin/hooks bridge claude", Some("claude"));
        check("'/opt/my tools/$(x)/hooks' bridge gemini", Some("gemini"));
        check("\"/opt/a b/hooks\" bridge cursor", Some("cursor"));
        check("./bin/hooks bridge codex", Some("codex"));
        check("hooks bridge cline", Some("cline"));
        check("exec env A=1 hooks bridge claude", Some("claude"));
        check("sh -c 'hooks bridge gemini'", Some("gemini"));
        check("hooks bridge --no-such-flag claude", Some("claude"));
        check("hooks bridge", Some(""));
        check("/home/me/.cargo/bin/hooks-bridge claude", Some("claude"));
        check("'/opt/my tools/$(x)/hooks-bridge' gemini", Some("gemini"));
        check("\"/opt/a b/hooks-bridge\" cursor", Some("cursor"));
        check("./bin/hooks-bridge codex", Some("codex"));
        check("hooks-bridge copilot preToolUse", Some("copilot"));
        check("exec env A=1 hooks-bridge claude", Some("claude"));
        check("sh -c 'hooks-bridge gemini'", Some("gemini"));
        check("sh -c \"exec '/opt/x/hooks-bridge' qwen\"", Some("qwen"));
        check("hooks-bridge --no-such-flag claude", Some("claude"));
        check("hooks-bridge", Some(""));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_the_client_is_the_client() {
        let dir = tempfile::tempdir().unwrap();
        let client = dir.path().join("hooks-bridge");
        std::fs::write(&client, "").unwrap();
        let link = dir.path().join("hb");
        std::os::unix::fs::symlink(&client, &link).unwrap();
        let argv = |program: &std::path::Path| {
            bridged_agent(
                &Action::argv([program.display().to_string(), "claude".to_owned()]),
                None,
            )
        };
        assert_eq!(argv(&link).as_deref(), Some("claude"));
        assert_eq!(argv(&dir.path().join("hb2")), None);
        // A script that never says `bridge` is not parsed (loading would cost more): the
        // nesting mark stops such a call.
        check(&format!("{} claude", link.display()), None);
    }

    #[test]
    fn other_commands_are_not() {
        check("echo hooks bridge claude", None);
        check("echo hooks-bridge claude", None);
        check("hooks-bridges claude", None);
        check("/opt/hooks-bridge/bin/tool claude", None);
        check("my-hooks-bridge claude", None);
        check("hooks run PreToolUse", None);
        check("/usr/bin/bridge claude", None);
        check("git bridge", None);
        check("./check.sh", None);
        assert_eq!(
            bridged_agent(&Action::permission(hooks_core::Decision::Deny), None),
            None
        );
    }

    #[test]
    fn a_wrapper_script_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let wrapper = dir.path().join("bridge.sh");
        std::fs::write(
            &wrapper,
            "#!/bin/sh\nset -e\nexec \"$HOME/bin/hooks\" bridge claude\n",
        )
        .unwrap();
        let busy = dir.path().join("busy.sh");
        std::fs::write(&busy, "#!/bin/sh\nlog-it\nhooks bridge claude\n").unwrap();
        let quoted = |p: &std::path::Path| crate::shell_quote(&p.display().to_string());
        check(&quoted(&wrapper), Some("claude"));
        // A script doing more than calling the bridge is a hook of its own (the nesting
        // mark still keeps the bridge it calls from dispatching).
        check(&quoted(&busy), None);
        std::fs::write(
            &busy,
            format!("#!/bin/sh\n{}\n", crate::CLINE_BRIDGE_MARKER),
        )
        .unwrap();
        check(&quoted(&busy), Some("cline"));
    }
}
