//! The bytes of the resident engine's messages, without the standard library: each
//! message a little-endian `u32` length, then a tag byte and its fields, each field a
//! `u32` length and its bytes (numbers as decimal text). The `wire` module reads and
//! writes these frames over `std::io`; the `hooks-bridge-lite` client, which links no C
//! library, builds and reads them here too, so the format has this one home.

use alloc::vec::Vec;

/// The longest message either side reads: the event, the environment and the answer of
/// one hook call fit many times over.
pub const MAX_MESSAGE: usize = 64 * 1024 * 1024;

/// The tag of each kind of message.
pub mod tag {
    /// A hook call.
    pub const CALL: u8 = 1;
    /// The daemon's state, asked for.
    pub const STATUS: u8 = 2;
    /// Asks the daemon to stop.
    pub const STOP: u8 = 3;
    /// The daemon took the call.
    pub const ACCEPTED: u8 = 4;
    /// The daemon is still at the call.
    pub const BEAT: u8 = 5;
    /// The call's answer: exit code, stdout, stderr.
    pub const ANSWER: u8 = 6;
    /// The daemon does not take the call: its version, why.
    pub const REFUSED: u8 = 7;
    /// The answer to a status request.
    pub const REPORT: u8 = 8;
    /// The answer to a stop request.
    pub const STOPPING: u8 = 9;
}

/// A message's body being built: its fields, one after the other.
#[derive(Debug, Default)]
pub struct Body(Vec<u8>);

impl Body {
    /// An empty body with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Body {
        Body(Vec::with_capacity(capacity))
    }

    /// Adds one field (a length over `u32::MAX` is written as `u32::MAX`, which no reader
    /// takes).
    pub fn field(&mut self, bytes: &[u8]) -> &mut Body {
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        self.0.extend_from_slice(&len.to_le_bytes());
        self.0.extend_from_slice(bytes);
        self
    }

    /// The whole frame of a message tagged `tag` with this body: its length, the tag, the
    /// fields; `None` when it is longer than [`MAX_MESSAGE`].
    pub fn frame(&self, tag: u8) -> Option<Vec<u8>> {
        let len = u32::try_from(self.0.len() + 1)
            .ok()
            .filter(|&n| n as usize <= MAX_MESSAGE)?;
        let mut frame = Vec::with_capacity(self.0.len() + 5);
        frame.extend_from_slice(&len.to_le_bytes());
        frame.push(tag);
        frame.extend_from_slice(&self.0);
        Some(frame)
    }
}

/// The parts of a hook call, as bytes: what [`call_frame`] encodes.
#[derive(Clone, Copy, Debug)]
pub struct CallParts<'a> {
    /// The version of the `hooks` program that makes the call.
    pub version: &'a [u8],
    /// That program's path.
    pub program: &'a [u8],
    /// The agent, by the name `hooks bridge` takes.
    pub agent: &'a [u8],
    /// The event named on the call's command line, if any.
    pub event: Option<&'a [u8]>,
    /// The caller's working directory.
    pub cwd: &'a [u8],
    /// The caller's environment: `(name, value)` pairs.
    pub env: &'a [(&'a [u8], &'a [u8])],
    /// The event as the agent wrote it on stdin.
    pub stdin: &'a [u8],
}

/// The frame of a hook call; `None` when it is longer than [`MAX_MESSAGE`].
pub fn call_frame(call: &CallParts<'_>) -> Option<Vec<u8>> {
    let size = call.stdin.len()
        + call
            .env
            .iter()
            .map(|(k, v)| k.len() + v.len() + 8)
            .sum::<usize>()
        + 256;
    let mut body = Body::with_capacity(size);
    body.field(call.version)
        .field(call.program)
        .field(call.agent)
        .field(call.event.unwrap_or(b""))
        .field(if call.event.is_some() { b"1" } else { b"0" })
        .field(call.cwd)
        .field(alloc::format!("{}", call.env.len()).as_bytes());
    for (k, v) in call.env {
        body.field(k).field(v);
    }
    body.field(call.stdin);
    body.frame(tag::CALL)
}

/// The fields of a frame not read yet.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a>(pub &'a [u8]);

impl<'a> Fields<'a> {
    /// The next field; `None` when the frame is cut short.
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let (len, rest) = self.0.split_first_chunk::<4>()?;
        let len = u32::from_le_bytes(*len) as usize;
        if rest.len() < len {
            return None;
        }
        let (field, rest) = rest.split_at(len);
        self.0 = rest;
        Some(field)
    }

    /// Whether every field was read.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A hash (64-bit FNV-1a) of a working directory and an environment, the environment's
/// order aside: the same for every call an agent makes from one directory, and the same
/// in every program of this version. `env` is sorted here.
pub fn key_hash(cwd: &[u8], env: &mut [(&[u8], &[u8])]) -> u64 {
    env.sort_unstable();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0u8]) {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(cwd);
    for (k, v) in env.iter() {
        eat(k);
        eat(v);
    }
    hash
}

/// The file name of the worker's socket for calls whose key hash is `hash`:
/// `w-HASH.sock`, beside the daemon's socket.
pub fn worker_file_name(hash: u64) -> alloc::string::String {
    alloc::format!("w-{hash:016x}.sock")
}
