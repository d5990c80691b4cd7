//! The built-in security guard: blocks destructive shell commands and writes to secret
//! files before a tool runs.
//!
//! It covers everything Autohand's seed guard lists: `rm -rf /`, `rm -rf ~`, `rm -rf .`,
//! `sudo rm`, `chmod 777` (also `-R`), `mkfs`, `dd if=`, fork bombs, a download piped to a
//! shell (`curl … | bash`, `wget … | sh`), and writes to `.env*`, SSH keys (`id_rsa`,
//! `id_ed25519`, `*.pem`, `*.key`, `~/.ssh/`) and credentials files (`credentials.json`,
//! `secrets.json`, `.npmrc`, `.pypirc`). Writes are caught both as file tools
//! (`file_path`/`path` in the tool input) and as shell redirections (`> .env`, `tee .env`).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

/// One dangerous-command rule: a pattern over the whole command and the reason shown.
struct Rule {
    pattern: Regex,
    reason: &'static str,
}

fn rule(pattern: &str, reason: &'static str) -> Rule {
    // The patterns are constants; a typo is caught by the first test that runs the guard.
    #[allow(clippy::expect_used)]
    let pattern = Regex::new(pattern).expect("built-in guard pattern compiles");
    Rule { pattern, reason }
}

/// `rm` with both a recursive and a force flag, in any spelling (`-rf`, `-fr`, `-r -f`,
/// `--recursive --force`), then a target. Written once, used by the three rm rules.
const RM_RF: &str = r"(?:^|[;&|(\s])rm\s+(?:-[a-zA-Z]*[rR][a-zA-Z]*f[a-zA-Z]*\s+|-[a-zA-Z]*f[a-zA-Z]*[rR][a-zA-Z]*\s+|(?:-[rR]|--recursive)\s+(?:-f|--force)\s+|(?:-f|--force)\s+(?:-[rR]|--recursive)\s+)(?:--no-preserve-root\s+)?";

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
        rule(
            &format!(r#"{RM_RF}["']?/(?:\*|\.)?["']?(?:\s|$|;|&|\|)"#),
            "rm -rf / would erase the whole filesystem",
        ),
        rule(
            &format!(r#"{RM_RF}["']?(?:~|\$HOME|\$\{{HOME\}})/?(?:\*)?["']?(?:\s|$|;|&|\|)"#),
            "rm -rf ~ would erase the home directory",
        ),
        rule(
            &format!(r#"{RM_RF}["']?\./?(?:\*)?["']?(?:\s|$|;|&|\|)"#),
            "rm -rf . would erase the working directory",
        ),
        rule(
            r"(?:^|[;&|(\s])sudo\s+(?:-\S+\s+)*rm\s",
            "sudo rm deletes files as root",
        ),
        rule(
            r"(?:^|[;&|(\s])chmod\s+(?:-\S+\s+)*0?777\s",
            "chmod 777 makes files writable by everyone",
        ),
        rule(
            r"(?:^|[;&|(\s])mkfs(?:\.\w+)?\s",
            "mkfs formats a filesystem",
        ),
        rule(
            r"(?:^|[;&|(\s])dd\s+(?:\S+\s+)*if=",
            "dd if= writes raw blocks",
        ),
        rule(
            r":\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:",
            "a fork bomb exhausts the machine",
        ),
        rule(
            r"(?:curl|wget)\s[^|]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b",
            "piping a download into a shell runs unreviewed code",
        ),
    ]
});

/// File names and paths that hold secrets. Matched against the last path component, and
/// for `.ssh/` against the whole path.
fn is_protected_path(path: &str) -> Option<&'static str> {
    let path = path.trim().trim_matches(['"', '\'']);
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == ".env" || name.starts_with(".env.") {
        return Some("dotenv files hold secrets");
    }
    if matches!(name, "id_rsa" | "id_ed25519" | "id_ecdsa" | "id_dsa")
        || name.ends_with(".pem")
        || name.ends_with(".key")
    {
        return Some("private keys must not be written by an agent");
    }
    if path.contains("/.ssh/") || path.starts_with(".ssh/") || path.starts_with("~/.ssh") {
        return Some("SSH configuration must not be written by an agent");
    }
    if matches!(
        name,
        "credentials.json" | "secrets.json" | ".npmrc" | ".pypirc" | ".netrc"
    ) {
        return Some("credentials files hold secrets");
    }
    None
}

/// Redirections and `tee` targets in a shell command: `> f`, `>> f`, `tee f`, `tee -a f`.
static WRITE_TARGET: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r#"(?:>>?|\btee\s+(?:-a\s+)?)\s*(["']?[^\s;&|<>]+["']?)"#)
        .expect("built-in guard pattern compiles")
});

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
    if let Some(command) = tool_input.get("command").and_then(Value::as_str) {
        if let Some(rule) = RULES.iter().find(|r| r.pattern.is_match(command)) {
            return Verdict::Block(format!("Blocked: {} (`{}`)", rule.reason, shorten(command)));
        }
        for target in WRITE_TARGET.captures_iter(command).filter_map(|c| c.get(1)) {
            if let Some(reason) = is_protected_path(target.as_str()) {
                return Verdict::Block(format!("Blocked: {reason} (`{}`)", shorten(command)));
            }
        }
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

fn shorten(s: &str) -> String {
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}
