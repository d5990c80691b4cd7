//! The resident engine's messages, on its socket (bridge and daemon) and on a worker's
//! pipes (daemon and worker): each a little-endian `u32` length, then the message: a tag
//! byte and its fields, each field a `u32` length and its bytes (numbers as decimal
//! text; the bytes are [`crate::frame`]'s). Paths and environment entries travel as the
//! bytes the system gave, so a value that is not UTF-8 arrives unchanged. A message longer
//! than [`MAX_MESSAGE`] is refused whole, before it is read.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::PathBuf;

pub use crate::frame::MAX_MESSAGE;
use crate::frame::{Body, CallParts, Fields, call_frame, tag};

/// One hook call, as the bridge hands it over: what it would have answered itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The version of the `hooks` program that makes the call; a daemon of another
    /// version refuses it.
    pub version: String,
    /// That program's path (`{{ vars.HOOKS_BIN }}`, the async hooks' worker).
    pub program: PathBuf,
    /// The agent, by the name `hooks bridge` takes.
    pub agent: String,
    /// The event named on the call's command line, if any.
    pub event: Option<String>,
    /// The caller's working directory.
    pub cwd: PathBuf,
    /// The caller's environment, as the agent gave it.
    pub env: Vec<(OsString, OsString)>,
    /// The event as the agent wrote it on stdin.
    pub stdin: Vec<u8>,
}

/// What goes over the socket and the workers' pipes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A hook call to answer (bridge to daemon, daemon to worker).
    Call(Box<Call>),
    /// The daemon's state, asked by `hooks daemon status`.
    Status,
    /// Asks the daemon to stop.
    Stop,
    /// The daemon took the call; the answer follows, with [`Message::Beat`]s meanwhile.
    Accepted {
        /// The daemon's version.
        version: String,
    },
    /// The daemon is still at the call (sent every [`super::BEAT`]).
    Beat,
    /// The call's answer, to write as it is.
    Answer {
        /// Its exit code.
        exit_code: i32,
        /// Its stdout.
        stdout: String,
        /// Its stderr.
        stderr: String,
    },
    /// The daemon does not take the call (the bridge answers it itself).
    Refused {
        /// The daemon's version.
        version: String,
        /// Why.
        reason: String,
    },
    /// The answer to [`Message::Status`]: a JSON object.
    Report(String),
    /// The answer to [`Message::Stop`].
    Stopping,
}

impl Message {
    /// Writes the message as one write of its whole frame.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let mut body = Body::with_capacity(256);
        let tag = match self {
            Message::Call(call) => return write_call(call, out),
            Message::Status => tag::STATUS,
            Message::Stop => tag::STOP,
            Message::Accepted { version } => {
                body.field(version.as_bytes());
                tag::ACCEPTED
            }
            Message::Beat => tag::BEAT,
            Message::Answer {
                exit_code,
                stdout,
                stderr,
            } => {
                body.field(exit_code.to_string().as_bytes())
                    .field(stdout.as_bytes())
                    .field(stderr.as_bytes());
                tag::ANSWER
            }
            Message::Refused { version, reason } => {
                body.field(version.as_bytes()).field(reason.as_bytes());
                tag::REFUSED
            }
            Message::Report(json) => {
                body.field(json.as_bytes());
                tag::REPORT
            }
            Message::Stopping => tag::STOPPING,
        };
        write_frame(body.frame(tag), out)
    }

    /// Reads one message; an end of input before its first byte is
    /// [`io::ErrorKind::UnexpectedEof`] like any other.
    pub fn read_from(input: &mut impl Read) -> io::Result<Message> {
        let mut len = [0u8; 4];
        input.read_exact(&mut len)?;
        let len = u32::from_le_bytes(len) as usize;
        if len == 0 || len > MAX_MESSAGE {
            return Err(invalid("a message of an impossible length"));
        }
        // Read into room that is not zeroed first: a zeroed allocation of this size made
        // the allocator sweep its free lists on every call (`calloc`).
        let mut frame = Vec::with_capacity(len);
        Read::take(&mut *input, len as u64).read_to_end(&mut frame)?;
        if frame.len() != len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "a message cut short",
            ));
        }
        let mut fields = Fields(&frame[1..]);
        let message = match frame[0] {
            tag::CALL => {
                let version = fields.text()?;
                let program = fields.path()?;
                let agent = fields.text()?;
                let event = fields.text()?;
                let named = fields.field()? == b"1";
                let cwd = fields.path()?;
                let count: usize = fields.text()?.parse().map_err(|_| invalid("a bad count"))?;
                let mut env = Vec::with_capacity(count.min(4096));
                for _ in 0..count {
                    let k = OsString::from_vec(fields.field()?.to_vec());
                    let v = OsString::from_vec(fields.field()?.to_vec());
                    env.push((k, v));
                }
                let stdin = fields.field()?.to_vec();
                Message::Call(Box::new(Call {
                    version,
                    program,
                    agent,
                    event: named.then_some(event),
                    cwd,
                    env,
                    stdin,
                }))
            }
            tag::STATUS => Message::Status,
            tag::STOP => Message::Stop,
            tag::ACCEPTED => Message::Accepted {
                version: fields.text()?,
            },
            tag::BEAT => Message::Beat,
            tag::ANSWER => Message::Answer {
                exit_code: fields
                    .text()?
                    .parse()
                    .map_err(|_| invalid("a bad exit code"))?,
                stdout: fields.text()?,
                stderr: fields.text()?,
            },
            tag::REFUSED => Message::Refused {
                version: fields.text()?,
                reason: fields.text()?,
            },
            tag::REPORT => Message::Report(fields.text()?),
            tag::STOPPING => Message::Stopping,
            _ => return Err(invalid("a message of an unknown kind")),
        };
        if !fields.is_empty() {
            return Err(invalid("a message with bytes after its fields"));
        }
        Ok(message)
    }
}

/// Writes `call` as a [`Message::Call`], without taking it.
pub fn write_call(call: &Call, out: &mut impl Write) -> io::Result<()> {
    let env: Vec<(&[u8], &[u8])> = call
        .env
        .iter()
        .map(|(k, v)| (k.as_bytes(), v.as_bytes()))
        .collect();
    let frame = call_frame(&CallParts {
        version: call.version.as_bytes(),
        program: call.program.as_os_str().as_bytes(),
        agent: call.agent.as_bytes(),
        event: call.event.as_deref().map(str::as_bytes),
        cwd: call.cwd.as_os_str().as_bytes(),
        env: &env,
        stdin: &call.stdin,
    });
    write_frame(frame, out)
}

/// Writes one whole frame ([`None`]: too long to send) with one write.
fn write_frame(frame: Option<Vec<u8>>, out: &mut impl Write) -> io::Result<()> {
    let frame = frame.ok_or_else(|| invalid("the message is too long"))?;
    out.write_all(&frame)?;
    out.flush()
}

/// The fields of a frame as `std` types.
trait FieldsExt {
    fn field(&mut self) -> io::Result<&[u8]>;
    fn text(&mut self) -> io::Result<String>;
    fn path(&mut self) -> io::Result<PathBuf>;
}

impl FieldsExt for Fields<'_> {
    fn field(&mut self) -> io::Result<&[u8]> {
        self.bytes().ok_or_else(|| invalid("a field cut short"))
    }

    fn text(&mut self) -> io::Result<String> {
        String::from_utf8(self.field()?.to_vec()).map_err(|_| invalid("a text field not UTF-8"))
    }

    fn path(&mut self) -> io::Result<PathBuf> {
        Ok(PathBuf::from(OsString::from_vec(self.field()?.to_vec())))
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(message: &Message) -> Message {
        let mut bytes = Vec::new();
        message.write_to(&mut bytes).unwrap();
        Message::read_from(&mut bytes.as_slice()).unwrap()
    }

    #[test]
    fn every_message_reads_back_as_written() {
        let call = Call {
            version: "1.2.3".into(),
            program: "/bin/hooks".into(),
            agent: "copilot".into(),
            event: Some("preToolUse".into()),
            cwd: "/tmp/p r".into(),
            env: vec![
                ("HOME".into(), "/h".into()),
                (OsString::from_vec(vec![0xff, b'X']), "".into()),
            ],
            stdin: b"{\"a\":1}".to_vec(),
        };
        let mut no_event = call.clone();
        no_event.event = None;
        for m in [
            Message::Call(Box::new(call)),
            Message::Call(Box::new(no_event)),
            Message::Status,
            Message::Stop,
            Message::Accepted {
                version: "1".into(),
            },
            Message::Beat,
            Message::Answer {
                exit_code: -2,
                stdout: "{}\n".into(),
                stderr: "é".into(),
            },
            Message::Refused {
                version: "0.1".into(),
                reason: "why".into(),
            },
            Message::Report("{}".into()),
            Message::Stopping,
        ] {
            assert_eq!(round_trip(&m), m);
        }
    }

    #[test]
    fn a_frame_cut_short_or_too_long_is_an_error_not_a_panic() {
        let mut bytes = Vec::new();
        Message::Answer {
            exit_code: 2,
            stdout: "x".into(),
            stderr: String::new(),
        }
        .write_to(&mut bytes)
        .unwrap();
        for cut in 0..bytes.len() {
            assert!(
                Message::read_from(&mut &bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let huge = u32::MAX.to_le_bytes();
        assert!(Message::read_from(&mut huge.as_slice()).is_err());
        // A field whose length runs past the frame.
        let mut lying = vec![6u8, 0xff, 0xff, 0, 0];
        let mut framed = u32::try_from(lying.len()).unwrap().to_le_bytes().to_vec();
        framed.append(&mut lying);
        assert!(Message::read_from(&mut framed.as_slice()).is_err());
    }
}
