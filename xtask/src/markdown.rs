//! The parts of the Markdown pages that tests check: the pages, their fenced code blocks
//! with the marker comment before each, and the shell sessions of `console` blocks.
//!
//! Std only: the doc check (`doccheck`) uses it, and so does the `hooks` command line's
//! integration test that runs the sessions (it includes this file with `#[path]`, since it
//! needs the freshly built binary, which only that crate's tests can name).
//!
//! A session is a fence whose language is `console`:
//!
//! ````text
//! <!-- check: session hooks.yaml -->
//! ```console
//! $ hooks validate -c hooks.yaml
//! valid: 1 file, 1 hook, 0 warnings
//! $ hooks run PreToolUse -c hooks.yaml -p '{}'   # exit 2
//! ...
//! ```
//! ````
//!
//! Each `$ ` line is a command (a line ending in `\` continues on the next), run by `sh`
//! in a fresh home and project directory, with the lines up to the next command as its
//! expected output (stdout and stderr together); a comment `# exit N` at the end of the
//! command is its expected exit status, else 0. A line `...` stands for any number of
//! lines. The optional marker names files to write into the project first: each is the
//! nearest block above the session marked `<!-- check: config NAME -->` or
//! `<!-- check: file NAME -->`.

use std::path::{Path, PathBuf};

/// A fenced code block of a Markdown page.
#[derive(Debug)]
pub(crate) struct Block {
    /// 1-based line of the opening fence.
    pub(crate) line: usize,
    /// The info string (`rust`, `rust,ignore`, `yaml`).
    pub(crate) info: String,
    /// The nearest non-blank line before the fence, if it is an HTML comment.
    pub(crate) marker: Option<String>,
    /// The lines between the fences.
    pub(crate) code: String,
    /// Whether only blank lines separate this block from the block before it.
    pub(crate) follows_block: bool,
}

impl Block {
    /// The language of the block: the info string up to the first `,` or space.
    pub(crate) fn language(&self) -> &str {
        self.info.split([',', ' ']).next().unwrap_or("")
    }

    /// The name under which a session may write this block into its project: the `NAME`
    /// of a `check: config NAME` or `check: file NAME` marker.
    pub(crate) fn file_name(&self) -> Option<&str> {
        let marker = self.marker.as_deref()?;
        marker
            .strip_prefix("check: config ")
            .or_else(|| marker.strip_prefix("check: file "))
            .map(str::trim)
    }

    /// The files a session asks for (`<!-- check: session NAME... -->`), if the block is
    /// marked as a session.
    pub(crate) fn session_files(&self) -> Option<Vec<&str>> {
        let marker = self.marker.as_deref()?;
        let rest = marker
            .strip_prefix("check: session")
            .filter(|r| r.is_empty() || r.starts_with(' '))?;
        Some(rest.split_whitespace().collect())
    }
}

/// The fenced code blocks of `text`.
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut last_nonblank: Option<&str> = None;
    // Whether the last non-blank line closed a block.
    let mut after_block = false;
    // The block being read (its code still empty) and its lines so far.
    let mut open: Option<(Block, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let mut closed = false;
        match &mut open {
            Some((_, code)) if !(trimmed.starts_with("```") && trimmed.trim() == "```") => {
                code.push(line);
            }
            Some(_) => {
                if let Some((mut block, code)) = open.take() {
                    block.code = code.iter().map(|l| format!("{l}\n")).collect();
                    out.push(block);
                }
                closed = true;
            }
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let marker = last_nonblank
                        .map(str::trim)
                        .filter(|l| l.starts_with("<!--") && l.ends_with("-->"))
                        .map(|l| {
                            l.trim_start_matches("<!--")
                                .trim_end_matches("-->")
                                .trim()
                                .to_owned()
                        });
                    let block = Block {
                        line: i + 1,
                        info: info.trim().to_owned(),
                        marker,
                        code: String::new(),
                        follows_block: after_block,
                    };
                    open = Some((block, Vec::new()));
                }
            }
        }
        if !line.trim().is_empty() {
            last_nonblank = Some(line);
            after_block = closed;
        }
    }
    out
}

/// The Markdown files whose blocks are checked: `docs/*.md`, the README and
/// ARCHITECTURE.md, in name order.
pub(crate) fn pages(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut pages = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for entry in std::fs::read_dir(root.join("docs"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    Ok(pages)
}

/// One command of a session and what it should print.
#[derive(Debug, PartialEq)]
pub(crate) struct Step {
    /// 1-based line of the page where the command is.
    pub(crate) line: usize,
    /// The command as `sh` reads it (continuation lines kept, with their `\`).
    pub(crate) command: String,
    /// The expected exit status.
    pub(crate) exit: i32,
    /// The expected output lines (trailing blank lines left out); `...` is any lines.
    pub(crate) output: Vec<String>,
}

/// The commands of a session block, or what is wrong with it.
pub(crate) fn session(block: &Block) -> Result<Vec<Step>, String> {
    let mut steps: Vec<Step> = Vec::new();
    let mut continuing = false;
    for (i, line) in block.code.lines().enumerate() {
        let at = block.line + 1 + i;
        if continuing {
            if let Some(step) = steps.last_mut() {
                step.command.push('\n');
                step.command.push_str(line);
            }
            continuing = line.ends_with('\\');
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            continuing = command.ends_with('\\');
            steps.push(Step {
                line: at,
                command: command.to_owned(),
                exit: 0,
                output: Vec::new(),
            });
        } else if let Some(step) = steps.last_mut() {
            step.output.push(line.trim_end().to_owned());
        } else if !line.trim().is_empty() {
            return Err(format!(
                "line {at}: a session starts with a command (`$ hooks ...`)"
            ));
        }
    }
    if steps.is_empty() {
        return Err("a session without a command (`$ hooks ...`)".to_owned());
    }
    for step in &mut steps {
        while step.output.last().is_some_and(String::is_empty) {
            step.output.pop();
        }
        step.exit = expected_exit(&step.command)?;
    }
    Ok(steps)
}

/// The status a `# exit N` comment at the end of `command` expects, else 0.
fn expected_exit(command: &str) -> Result<i32, String> {
    let Some((_, comment)) = command.rsplit_once('#') else {
        return Ok(0);
    };
    match comment.trim().strip_prefix("exit") {
        Some(code) => code
            .trim()
            .parse()
            .map_err(|_| format!("`# exit{code}` is not `# exit N`")),
        None => Ok(0),
    }
}
