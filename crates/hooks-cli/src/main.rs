//! The `hooks` binary: parses nothing itself, hands the arguments to `hooks_cli::run`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // An argument that is not UTF-8 is read with U+FFFD in place of what is not (so that
    // the parser refuses it, and a bridge call with it is refused in the agent's form),
    // never a panic.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    ExitCode::from(hooks_cli::run(&args))
}
