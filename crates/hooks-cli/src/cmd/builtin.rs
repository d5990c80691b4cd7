//! `hooks builtin NAME`: runs a built-in hook on the event JSON read from stdin.

use std::io::Write;

use anyhow::Result;

use crate::cli::BuiltinArgs;

/// Exit code 2 blocks, with the reason on stderr, as any hook script would.
pub fn run(args: &BuiltinArgs) -> Result<u8> {
    let (code, stderr) = crate::builtin::run(&args.name, &mut std::io::stdin().lock())?;
    if !stderr.is_empty() {
        writeln!(std::io::stderr(), "{stderr}")?;
    }
    Ok(code)
}
