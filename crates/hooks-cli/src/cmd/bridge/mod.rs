//! `hooks bridge AGENT`: the engine as the one hook command of an agent. The work is
//! [`hooks::bridge`]'s; this module reads the call's arguments, writes the answer and
//! gives its exit code.

pub mod install;

use std::io::Write;

use anyhow::Result;
use hooks::bridge::{self, Options};
use hooks::core::reply::Reply;

use crate::cli::{Agent, BridgeArgs};

/// The bridge's options for this binary: it is the `hooks` program.
pub fn options() -> Options {
    Options::new(std::env::current_exe().ok())
}

/// Answers one hook call of `args.agent`; the exit code is the answer's.
pub fn run(args: &BridgeArgs) -> Result<u8> {
    let dialect = args.agent.dialect();
    let options = options().with_event(args.event.clone());
    let text = match bridge::read_stdin() {
        Ok(text) => text,
        Err(e) => return Ok(write(&bridge::unreadable(&e))),
    };
    if !args.async_worker
        && let Some(program) = &options.program
        && let Some(reply) =
            hooks::daemon::forward(dialect.as_str(), args.event.as_deref(), &text, program)
    {
        return Ok(write(&reply));
    }
    let (stdin, payload) = match bridge::parse_event(text) {
        Ok(read) => read,
        Err(e) => return Ok(write(&bridge::unreadable(&e))),
    };
    if args.async_worker {
        return Ok(if bridge::run_async(dialect, payload, &options)? {
            0
        } else {
            1
        });
    }
    Ok(write(&bridge::answer(dialect, &stdin, payload, &options)))
}

/// The answer to a call whose arguments the command line refused (see
/// [`bridge::refused`]); the agent is the one named among `args`, if any.
pub fn refused(args: &[String], error: &str) -> u8 {
    let named = args
        .iter()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .find_map(|a| <Agent as clap::ValueEnum>::from_str(a, true).ok());
    let call = format!("hooks {}", args.join(" "));
    write(&bridge::refused(named.map(Agent::dialect), &call, error))
}

/// Writes `reply`, flushes and closes both streams' buffers, and gives its exit code.
fn write(reply: &Reply) -> u8 {
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(reply.stdout.as_bytes())
        .and_then(|()| out.flush());
    drop(out);
    let mut err = std::io::stderr().lock();
    let _ = err
        .write_all(reply.stderr.as_bytes())
        .and_then(|()| err.flush());
    u8::try_from(reply.exit_code).unwrap_or(1)
}
