//! The `hooks` binary: parses nothing itself, hands the arguments to `hooks_cli::run`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(hooks_cli::run(&args))
}
