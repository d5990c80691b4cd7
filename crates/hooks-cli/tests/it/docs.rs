//! The shell sessions of the docs (`console` blocks of the README, ARCHITECTURE.md and
//! `docs/*.md`) run with the freshly built binary, each in a fresh home and project
//! directory, and print what the page shows. The format is described in
//! `xtask/src/markdown.rs`; xtask's doc check makes sure every command shown with its output
//! is such a session.

// The sessions run their commands with `sh`, as a reader would type them.
#![allow(clippy::disallowed_methods)]

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use crate::markdown::{self, Block, Step};
use crate::support::workspace_root;

/// How long one command of a session may take.
const PATIENCE: Duration = Duration::from_secs(60);

/// Where the binary is shown to be in the docs: where `cargo install` puts it.
const SHOWN_BIN: &str = "~/.cargo/bin/hooks";

/// A session's world: a home directory with the project inside it, so paths print as
/// `~/project/...`.
struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    /// Where the next command runs (`$ cd DIR` moves it).
    cwd: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().canonicalize().unwrap().join("home");
        let project = home.join("project");
        std::fs::create_dir_all(&project).unwrap();
        World {
            _dir: dir,
            cwd: project.clone(),
            home,
            project,
        }
    }

    /// Writes a block into the project (or the home, for a name starting with `~/`); a
    /// script (`#!`) is made executable.
    fn write(&self, name: &str, text: &str) {
        let path = match name.strip_prefix("~/") {
            Some(rel) => self.home.join(rel),
            None => self.project.join(name),
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        if text.starts_with("#!") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    /// Runs one command as `sh` would, stdout and stderr into one pipe; returns the exit
    /// status and the output, normalised.
    fn run(&mut self, command: &str) -> (i32, String) {
        if let Some(dir) = command.strip_prefix("cd ").map(str::trim)
            && !dir.contains([';', '&', '|', '#'])
        {
            self.cwd = match dir.strip_prefix("~/") {
                Some(rel) => self.home.join(rel),
                None => self.cwd.join(dir),
            };
            return (0, String::new());
        }
        let bin = assert_cmd::cargo::cargo_bin("hooks");
        let path =
            std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
                std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
            ))
            .unwrap();
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c")
            .arg(format!("exec 2>&1\n{command}"))
            .current_dir(&self.cwd)
            .env_clear()
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .env("NO_COLOR", "1")
            .env("LANG", "C.UTF-8");
        let out = assert_cmd::Command::from_std(cmd)
            .timeout(PATIENCE)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        (out.status.code().unwrap_or(-1), self.normalise(&text))
    }

    /// The output as the docs show it: the binary where `cargo install` puts it, the home
    /// as `~`, durations and times masked; trailing spaces and blank lines left out.
    fn normalise(&self, text: &str) -> String {
        let bin = assert_cmd::cargo::cargo_bin("hooks");
        let bin = bin.canonicalize().unwrap_or(bin);
        let text = text
            .replace(&bin.display().to_string(), SHOWN_BIN)
            .replace(&self.home.display().to_string(), "~");
        masked(&text)
    }
}

/// `text` with what changes from run to run masked, its lines' trailing spaces and its
/// trailing blank lines left out; applied to the page's text too, so a page may show any
/// duration.
fn masked(text: &str) -> String {
    static PATTERNS: LazyLock<Vec<(Regex, &str)>> = LazyLock::new(|| {
        vec![
            (Regex::new(r"\b\d+ ms\b").unwrap(), "[ms]"),
            (
                Regex::new(r#""(duration_ms|duration|granted_at)":\d+"#).unwrap(),
                r#""$1":[n]"#,
            ),
            (
                Regex::new(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ").unwrap(),
                "[time]",
            ),
        ]
    });
    let mut text = text.to_owned();
    for (re, with) in PATTERNS.iter() {
        text = re.replace_all(&text, *with).into_owned();
    }
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// Whether `actual` matches `expected`, where an expected line `...` stands for any
/// number of lines (none too).
fn lines_match(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((first, rest)) => actual.first() == Some(first) && lines_match(rest, &actual[1..]),
    }
}

/// Runs the session `blocks[index]` of the page `shown`; returns one problem per command
/// that printed or exited otherwise than the page shows, and the session as the binary
/// gave it (the page's own output kept where it matches).
fn run_session(shown: &str, blocks: &[Block], index: usize) -> (Vec<String>, String) {
    let block = &blocks[index];
    let steps = match markdown::session(block) {
        Ok(steps) => steps,
        Err(e) => {
            return (
                vec![format!("{shown}:{}: {e}", block.line)],
                block.code.clone(),
            );
        }
    };
    let mut world = World::new();
    for name in block.session_files().unwrap_or_default() {
        match blocks[..index]
            .iter()
            .rev()
            .find(|b| b.file_name() == Some(name))
        {
            Some(file) => world.write(name, &file.code),
            None => {
                let problem = format!("{shown}:{}: no block `{name}` above", block.line);
                return (vec![problem], block.code.clone());
            }
        }
    }
    let mut problems = Vec::new();
    let mut session = String::new();
    for Step {
        line,
        command,
        exit,
        output,
    } in steps
    {
        let (code, actual) = world.run(&command);
        let expected = masked(&output.join("\n"));
        let matched = lines_match(
            &expected.lines().collect::<Vec<_>>(),
            &actual.lines().collect::<Vec<_>>(),
        );
        session.push_str(&format!("$ {command}\n"));
        let lines_shown: Vec<String> = if matched {
            output
        } else {
            // A page shows a plausible duration rather than the mask.
            actual.lines().map(|l| l.replace("[ms]", "4 ms")).collect()
        };
        for out in lines_shown {
            session.push_str(&format!("{out}\n"));
        }
        if code != exit {
            problems.push(format!(
                "{shown}:{line}: `$ {command}` exited {code}, the page expects {exit} \
                 (say `# exit {code}` after the command if that is right); it printed:\n{actual}"
            ));
        } else if !matched {
            let lines = |t: &str| {
                if t.is_empty() {
                    String::new()
                } else {
                    format!("{t}\n")
                }
            };
            let diff = similar::TextDiff::from_lines(&lines(&expected), &lines(&actual))
                .unified_diff()
                .header("page", "binary")
                .to_string();
            problems.push(format!(
                "{shown}:{line}: `$ {command}` printed otherwise than the page shows:\n{diff}"
            ));
        }
    }
    (problems, session)
}

/// What checking one page found.
struct Checked {
    problems: Vec<String>,
    sessions: usize,
    /// The page with every session's output as the binary gave it.
    blessed: String,
}

/// Runs every session of one page.
fn check_page(shown: &str, text: &str) -> Checked {
    let blocks = markdown::blocks(text);
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut problems = Vec::new();
    let mut sessions = 0;
    // From the last block up, so the line numbers of the blocks above stay right.
    for (index, block) in blocks.iter().enumerate().rev() {
        if block.language() == "console" {
            sessions += 1;
            let (found, session) = run_session(shown, &blocks, index);
            problems.splice(0..0, found);
            let body = block.line..block.line + block.code.lines().count();
            lines.splice(body, session.lines().map(str::to_owned));
        }
    }
    Checked {
        problems,
        sessions,
        blessed: lines.iter().map(|l| format!("{l}\n")).collect(),
    }
}

fn relative(root: &Path, page: &Path) -> String {
    page.strip_prefix(root)
        .unwrap_or(page)
        .display()
        .to_string()
}

/// Every session of the docs prints what the page shows and exits as it says.
///
/// With `HOOKS_DOCS=overwrite` in the environment, the pages' session outputs are
/// rewritten as the binary prints them (review the diff before committing it).
#[test]
fn sessions_match_the_binary() {
    let root = workspace_root();
    let pages = markdown::pages(&root).unwrap();
    let overwrite = std::env::var("HOOKS_DOCS").is_ok_and(|v| v == "overwrite");
    let results: Vec<Checked> = std::thread::scope(|scope| {
        let handles: Vec<_> = pages
            .iter()
            .map(|page| {
                let root = &root;
                scope.spawn(move || {
                    let text = std::fs::read_to_string(page).unwrap();
                    let checked = check_page(&relative(root, page), &text);
                    if overwrite && checked.blessed != text {
                        std::fs::write(page, &checked.blessed).unwrap();
                    }
                    checked
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let sessions: usize = results.iter().map(|r| r.sessions).sum();
    let problems: Vec<String> = results.into_iter().flat_map(|r| r.problems).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(sessions >= 10, "only {sessions} sessions in the docs");
}

/// A session whose output or exit status differs from the binary's is reported with the
/// page, the line of the command and a diff; `...` and masked durations match.
#[test]
fn a_stale_session_names_its_line_and_shows_a_diff() {
    let page = "# Page\n\n<!-- check: config hooks.yaml -->\n```yaml\nhooks:\n  - id: no-rm\n    \
                event: PreToolUse\n    command: \"echo no >&2; exit 2\"\n```\n\n\
                <!-- check: session hooks.yaml -->\n```console\n\
                $ hooks validate -c hooks.yaml\nvalid: 1 file, 1 hook, 0 warnings\n\
                $ hooks run PreToolUse -c hooks.yaml -p '{}'   # exit 2\nPreToolUse: block\n...\n\
                $ hooks validate -c hooks.yaml\nvalid: 2 files\n\
                $ hooks run PreToolUse -c hooks.yaml -p '{}'\n...\n```\n";
    let Checked {
        problems,
        sessions,
        blessed,
    } = check_page("docs/page.md", page);
    assert_eq!(sessions, 1);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems[0].starts_with(
            "docs/page.md:18: `$ hooks validate -c hooks.yaml` printed otherwise than the \
             page shows:"
        ),
        "{}",
        problems[0]
    );
    assert!(
        problems[0].contains("-valid: 2 files\n+valid: 1 file, 1 hook, 0 warnings"),
        "{}",
        problems[0]
    );
    assert!(
        problems[1].starts_with(
            "docs/page.md:20: `$ hooks run PreToolUse -c hooks.yaml -p '{}'` exited 2, the \
             page expects 0"
        ),
        "{}",
        problems[1]
    );
    // Overwriting keeps the page's lines where they match (`...` too).
    assert!(!blessed.contains("valid: 2 files"), "{blessed}");
    assert_eq!(
        blessed
            .matches("valid: 1 file, 1 hook, 0 warnings\n")
            .count(),
        2
    );
    assert_eq!(blessed.matches("\n...\n").count(), 2, "{blessed}");
}

#[test]
fn elided_lines_match_any_run_of_lines() {
    #[track_caller]
    fn check(expected: &str, actual: &str, matches: bool) {
        let e: Vec<&str> = expected.lines().collect();
        let a: Vec<&str> = actual.lines().collect();
        assert_eq!(
            lines_match(&e, &a),
            matches,
            "{expected:?} against {actual:?}"
        );
    }
    check("a\nb", "a\nb", true);
    check("a\nb", "a\nc", false);
    check("a\n...", "a", true);
    check("a\n...", "a\nb\nc", true);
    check("...\nc", "a\nb\nc", true);
    check("a\n...\nc\n...\ne", "a\nb\nc\nd\ne", true);
    check("a\n...\nd", "a\nb\nc", false);
    check("", "a", false);
    check("...", "", true);
    assert_eq!(masked("took 12 ms  \n\n"), "took [ms]");
}
