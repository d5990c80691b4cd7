//! A worker of the daemon (`hooks daemon worker`): a process started with one caller's
//! environment and working directory, answering that caller's calls one after the other,
//! as the bridge would answer them, its loaded configs kept between calls.

use std::io::{self, Read, Write};
use std::sync::Arc;

use crate::LoadCache;
use crate::bridge::{self, Options};
use crate::core::Dialect;
use crate::core::reply::Reply;

use super::wire::{Call, Message};

/// Answers every call read from `input` on `output`, until `input` ends (the daemon
/// closed it, or is gone). A message that is not a call ends the worker with an error.
pub fn serve(mut input: impl Read, mut output: impl Write) -> io::Result<()> {
    let cache = Arc::new(LoadCache::new());
    loop {
        let call = match Message::read_from(&mut input) {
            Ok(Message::Call(call)) => call,
            Ok(other) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a worker takes calls, not {other:?}"),
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        };
        let reply = answer(*call, &cache);
        Message::Answer {
            exit_code: reply.exit_code,
            stdout: reply.stdout,
            stderr: reply.stderr,
        }
        .write_to(&mut output)?;
    }
}

/// The bridge's answer to `call`, with the configs of earlier calls from `cache`.
fn answer(call: Call, cache: &Arc<LoadCache>) -> Reply {
    let Some(dialect) = Dialect::from_name(&call.agent) else {
        return bridge::unreadable(&crate::Error::bridge(format!(
            "the bridge does not answer {}",
            call.agent
        )));
    };
    let options = Options::new(Some(call.program))
        .with_event(call.event)
        .with_cache(Arc::clone(cache));
    match bridge::parse_event(call.stdin) {
        Ok((stdin, payload)) => bridge::answer(dialect, &stdin, payload, &options),
        Err(e) => bridge::unreadable(&e),
    }
}
