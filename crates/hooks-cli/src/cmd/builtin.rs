//! `hooks builtin NAME`: runs a built-in hook on the event JSON read from stdin; `hooks
//! builtin ask`: asks the host's model a question from inside a command hook.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use hooks::exec::{MAX_QUESTION_BYTES, PROMPT_SOCKET_ENV, ask_prompt_channel};

use crate::cli::BuiltinArgs;

/// The name of the client of a command hook's prompt channel.
pub const ASK: &str = "ask";

/// Exit code 2 blocks, with the reason on stderr, as any hook script would.
pub fn run(args: &BuiltinArgs) -> Result<u8> {
    if args.name == ASK {
        return ask(args.question.as_deref());
    }
    if args.question.is_some() {
        bail!(
            "`hooks builtin {}` takes no argument: it reads the event JSON on stdin",
            args.name
        );
    }
    let (code, stderr) = crate::builtin::run(&args.name, &mut std::io::stdin().lock())?;
    if !stderr.is_empty() {
        writeln!(std::io::stderr(), "{stderr}")?;
    }
    Ok(code)
}

/// Puts `question` (else stdin) to the host's prompt evaluator through the channel the
/// engine gave this command hook (`HOOKS_PROMPT_SOCKET`), and prints the answer.
fn ask(question: Option<&str>) -> Result<u8> {
    let Some(socket) = std::env::var_os(PROMPT_SOCKET_ENV) else {
        bail!(
            "no prompt channel: `hooks builtin ask` works inside a command hook run by an \
             engine that has a prompt evaluator ({PROMPT_SOCKET_ENV} is not set)"
        );
    };
    let question = match question {
        Some(question) => question.to_owned(),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .take(MAX_QUESTION_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
                .context("reading the question from stdin")?;
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    if question.trim().is_empty() {
        bail!("no question: give it as an argument or on stdin");
    }
    let answer =
        ask_prompt_channel(Path::new(&socket), &question).context("cannot ask the host's model")?;
    let mut out = std::io::stdout().lock();
    out.write_all(answer.as_bytes())?;
    if !answer.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(0)
}
