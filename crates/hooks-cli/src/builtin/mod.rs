//! Built-in hooks that ship inside the binary, run as `hooks builtin NAME` from a hook's
//! command line: they read the event JSON on stdin and answer like any hook script.

pub mod guard;

use std::io::Read;

use anyhow::{Context, Result};
use serde_json::Value;

/// The built-in hooks, by name.
pub const NAMES: &[&str] = &["security-guard"];

/// Runs built-in `name` on the event JSON in `stdin`; returns the exit code and what to
/// print on stderr (exit code 2 blocks, with stderr as the reason).
pub fn run(name: &str, stdin: &mut dyn Read) -> Result<(u8, String)> {
    let mut input = String::new();
    stdin
        .read_to_string(&mut input)
        .context("reading the event JSON from stdin")?;
    let event: Value = if input.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&input).context("the event on stdin is not JSON")?
    };
    match name {
        "security-guard" => {
            let tool_input = event.get("tool_input").unwrap_or(&Value::Null);
            Ok(match guard::check(tool_input) {
                guard::Verdict::Allow => (0, String::new()),
                guard::Verdict::Block(reason) => (2, reason),
            })
        }
        other => anyhow::bail!(
            "no built-in hook `{other}` (built-ins: {})",
            NAMES.join(", ")
        ),
    }
}
