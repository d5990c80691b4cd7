//! Message framing on the wire: LSP's `Content-Length` headers, or one JSON text per line.
//! The first message chooses the framing, and the session keeps it, in both directions.

use std::io;

use tokio::io::{AsyncRead, AsyncReadExt};

/// The largest message body accepted, and the longest line in line mode.
const MAX_MESSAGE: usize = 64 * 1024 * 1024;

/// The longest header block accepted (LSP sends one or two short lines).
const MAX_HEADER: usize = 16 * 1024;

/// What a resync looks for, in lower case: the start of the next header block.
const RESYNC: &[u8] = b"content-length";

/// How messages are delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// `Content-Length: N\r\n\r\n` then N bytes of JSON, as LSP and vscode-jsonrpc do.
    ContentLength,
    /// One JSON text per line (newline-delimited JSON).
    Lines,
}

impl Framing {
    /// `body` framed for the wire.
    pub(crate) fn encode(self, body: &[u8]) -> Vec<u8> {
        match self {
            Framing::ContentLength => {
                let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
                out.extend_from_slice(body);
                out
            }
            Framing::Lines => {
                let mut out = Vec::with_capacity(body.len() + 1);
                out.extend_from_slice(body);
                out.push(b'\n');
                out
            }
        }
    }

    /// The framing a stream uses, judged by its first non-blank byte: a JSON text starts
    /// with `{` or `[`; anything else is taken for a header.
    fn detect(first: u8) -> Framing {
        if first == b'{' || first == b'[' {
            Framing::Lines
        } else {
            Framing::ContentLength
        }
    }
}

/// One thing read from the input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// A message body (not yet parsed as JSON).
    Message(Vec<u8>),
    /// Input that could not be delimited as a message; the reader has skipped past it.
    Malformed(String),
}

/// Where the reader is between frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// At the start of a frame.
    Frame,
    /// After a malformed header: skipping to the next header. `line_start` says whether
    /// the unread bytes begin a line (else they are the rest of the bad line).
    Resync { line_start: bool },
    /// After an over-long line: skipping to the next newline.
    SkipLine,
    /// After an over-long body: discarding this many more bytes.
    Discard(usize),
    /// The input is finished.
    Done,
}

/// Reads frames from an async byte stream. It owns its buffer so that after a malformed
/// header it can look for the next header inside bytes it has already read.
pub(crate) struct FrameReader<R> {
    input: R,
    buf: Vec<u8>,
    /// Where unread bytes begin in `buf`.
    start: usize,
    /// How far past `start` a search for a delimiter has already looked.
    scanned: usize,
    eof: bool,
    mode: Mode,
    framing: Option<Framing>,
    /// The largest body (or line) accepted.
    max_message: usize,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// A reader of `input`; the framing is chosen by the first message.
    pub(crate) fn new(input: R) -> FrameReader<R> {
        FrameReader {
            input,
            buf: Vec::new(),
            start: 0,
            scanned: 0,
            eof: false,
            mode: Mode::Frame,
            framing: None,
            max_message: MAX_MESSAGE,
        }
    }

    /// The framing chosen by the first message, once one has been seen.
    pub(crate) fn framing(&self) -> Option<Framing> {
        self.framing
    }

    /// The next frame, or `None` at the end of the input.
    pub(crate) async fn next(&mut self) -> io::Result<Option<Frame>> {
        loop {
            match self.mode {
                Mode::Done => return Ok(None),
                Mode::Resync { line_start } => self.resync(line_start).await?,
                Mode::SkipLine => self.skip_line().await?,
                Mode::Discard(n) => self.discard(n).await?,
                Mode::Frame => {
                    if !self.skip_blank().await? {
                        self.mode = Mode::Done;
                        return Ok(None);
                    }
                    let framing = *self
                        .framing
                        .get_or_insert_with(|| Framing::detect(self.buf[self.start]));
                    return match framing {
                        Framing::ContentLength => self.content_length_frame().await,
                        Framing::Lines => self.line_frame().await,
                    }
                    .map(Some);
                }
            }
        }
    }

    /// Reads more input into the buffer; `false` at the end of the input.
    async fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Drop what has been read, so the buffer holds only the frame being read.
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.reserve(64 * 1024);
        let n = self.input.read_buf(&mut self.buf).await?;
        if n == 0 {
            self.eof = true;
        }
        Ok(n > 0)
    }

    fn unread(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        self.scanned = 0;
    }

    /// Skips whitespace between frames; `false` if the input ends first.
    async fn skip_blank(&mut self) -> io::Result<bool> {
        loop {
            let blank = self
                .unread()
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            self.consume(blank);
            if !self.unread().is_empty() {
                return Ok(true);
            }
            if !self.fill().await? {
                return Ok(false);
            }
        }
    }

    /// The position (relative to `start`) just past the first `needle` in the unread
    /// bytes, reading more input as needed; stops early once `limit` bytes are unread
    /// without it. `Ok(None)` when the limit or the end of the input came first.
    async fn find(&mut self, needle: u8, limit: usize) -> io::Result<Option<usize>> {
        loop {
            let from = self.scanned;
            if let Some(i) = self.unread()[from..].iter().position(|&b| b == needle) {
                return Ok(Some(from + i + 1));
            }
            self.scanned = self.unread().len();
            if self.scanned > limit || !self.fill().await? {
                return Ok(None);
            }
        }
    }

    async fn line_frame(&mut self) -> io::Result<Frame> {
        let max = self.max_message;
        match self.find(b'\n', max).await? {
            // The newline may come in the same read as more than `max` bytes.
            Some(end) if end > max + 1 => {
                self.consume(end);
                Ok(Frame::Malformed(format!(
                    "a line longer than the limit of {max} bytes was skipped"
                )))
            }
            Some(end) => {
                let line = self.unread()[..end].trim_ascii().to_vec();
                self.consume(end);
                Ok(Frame::Message(line))
            }
            None if self.unread().len() > max => {
                self.mode = Mode::SkipLine;
                Ok(Frame::Malformed(format!(
                    "a line longer than the limit of {max} bytes was skipped"
                )))
            }
            None => {
                // The last line may lack its newline.
                let line = self.unread().trim_ascii().to_vec();
                let n = self.unread().len();
                self.consume(n);
                Ok(Frame::Message(line))
            }
        }
    }

    async fn content_length_frame(&mut self) -> io::Result<Frame> {
        // Header lines are checked as they arrive, so that garbage is answered at once
        // rather than after a blank line that may never come.
        let mut pos = 0;
        let mut length = None;
        loop {
            self.scanned = pos;
            let found = self.find(b'\n', MAX_HEADER).await?;
            let Some(end) = found.filter(|&end| end <= MAX_HEADER) else {
                return Ok(if self.unread().len() > MAX_HEADER {
                    self.malformed_header(format!(
                        "no end of header (a blank line) within {MAX_HEADER} bytes"
                    ))
                } else {
                    self.end_inside("a header")
                });
            };
            let line = String::from_utf8_lossy(&self.unread()[pos..end])
                .trim()
                .to_owned();
            pos = end;
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line
                .split_once(':')
                .filter(|(name, _)| is_token(name.trim_end()))
            else {
                return Ok(self.malformed_header(format!(
                    "expected a header like `Content-Length: 42`, found `{}`",
                    shorten(&line)
                )));
            };
            // Other headers (Content-Type) are allowed and ignored: bodies are UTF-8 JSON.
            if name.trim_end().eq_ignore_ascii_case("content-length") {
                match value.trim().parse::<usize>() {
                    Ok(n) => length = Some(n),
                    Err(_) => {
                        self.consume(pos);
                        self.mode = Mode::Resync { line_start: true };
                        return Ok(Frame::Malformed(format!(
                            "`Content-Length: {}` is not a byte count",
                            shorten(value.trim())
                        )));
                    }
                }
            }
        }
        self.consume(pos);
        let Some(length) = length else {
            self.mode = Mode::Resync { line_start: true };
            return Ok(Frame::Malformed(
                "a header block without `Content-Length`".to_owned(),
            ));
        };
        if length > self.max_message {
            self.mode = Mode::Discard(length);
            return Ok(Frame::Malformed(format!(
                "a message of {length} bytes is over the limit of {} bytes; it was skipped",
                self.max_message
            )));
        }
        while self.unread().len() < length {
            if !self.fill().await? {
                let got = self.unread().len();
                self.consume(got);
                self.mode = Mode::Done;
                return Ok(Frame::Malformed(format!(
                    "the input ended inside a message body ({got} of {length} bytes)"
                )));
            }
        }
        let body = self.unread()[..length].to_vec();
        self.consume(length);
        Ok(Frame::Message(body))
    }

    /// Reports a malformed header and resyncs from the byte after the frame's start, so a
    /// header hidden behind garbage is still found.
    fn malformed_header(&mut self, message: String) -> Frame {
        self.consume(1);
        self.mode = Mode::Resync { line_start: false };
        Frame::Malformed(message)
    }

    fn end_inside(&mut self, what: &str) -> Frame {
        let n = self.unread().len();
        self.consume(n);
        self.mode = Mode::Done;
        Frame::Malformed(format!("the input ended inside {what}"))
    }

    /// Skips to where the next frame starts: the next `Content-Length` (in any case, even
    /// in the middle of a line, as after a body sent without its header), or the next line
    /// that looks like a header (`Name: value`), which then starts a frame of its own.
    async fn resync(&mut self, mut line_start: bool) -> io::Result<()> {
        loop {
            while let Some(nl) = self.unread().iter().position(|&b| b == b'\n') {
                let line = &self.unread()[..=nl];
                if let Some(at) = find_ignore_case(line, RESYNC) {
                    self.consume(at);
                    self.mode = Mode::Frame;
                    return Ok(());
                }
                if line_start && looks_like_header(line) {
                    self.mode = Mode::Frame;
                    return Ok(());
                }
                self.consume(nl + 1);
                line_start = true;
            }
            // A partial line: the next header may already be in it.
            if let Some(at) = find_ignore_case(self.unread(), RESYNC) {
                self.consume(at);
                self.mode = Mode::Frame;
                return Ok(());
            }
            if self.unread().len() > MAX_HEADER {
                // Keep a tail that may be the start of a match cut by the buffer's end.
                let skip = self.unread().len() - (RESYNC.len() - 1);
                self.consume(skip);
                line_start = false;
            }
            self.mode = Mode::Resync { line_start };
            if !self.fill().await? {
                self.mode = Mode::Done;
                return Ok(());
            }
        }
    }

    async fn skip_line(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = self.unread().iter().position(|&b| b == b'\n') {
                self.consume(i + 1);
                self.mode = Mode::Frame;
                return Ok(());
            }
            let n = self.unread().len();
            self.consume(n);
            if !self.fill().await? {
                self.mode = Mode::Done;
                return Ok(());
            }
        }
    }

    async fn discard(&mut self, mut left: usize) -> io::Result<()> {
        loop {
            let n = left.min(self.unread().len());
            self.consume(n);
            left -= n;
            if left == 0 {
                self.mode = Mode::Frame;
                return Ok(());
            }
            if !self.fill().await? {
                self.mode = Mode::Done;
                return Ok(());
            }
        }
    }
}

/// Where `needle` (lower case) first occurs in `haystack`, ignoring ASCII case.
fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// Whether `line` reads as a header line, `Name: value`.
fn looks_like_header(line: &[u8]) -> bool {
    let line = String::from_utf8_lossy(line);
    line.split_once(':')
        .is_some_and(|(name, _)| is_token(name.trim()))
}

/// Whether `name` is an HTTP token (a header name).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// `text` cut to a length fit for an error message.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use tokio::io::{AsyncRead, ReadBuf};

    use super::*;

    /// Hands out its bytes one at a time, so that every delimiter and every header is cut
    /// by a buffer boundary somewhere.
    struct OneByte(Vec<u8>, usize);

    impl AsyncRead for OneByte {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            if let Some(&b) = self.0.get(self.1) {
                buf.put_slice(&[b]);
                self.1 += 1;
            }
            Poll::Ready(Ok(()))
        }
    }

    async fn read_all(reader: &mut FrameReader<impl AsyncRead + Unpin>) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(frame) = reader.next().await.unwrap() {
            out.push(match frame {
                Frame::Message(m) => String::from_utf8(m).unwrap(),
                Frame::Malformed(why) => format!("! {why}"),
            });
        }
        out
    }

    /// Reads `input` whole and byte by byte, with a message limit of `max`; both must give
    /// `expect` (a malformed frame shows as `! why`).
    #[track_caller]
    fn check(input: &[u8], max: usize, expect: &[&str]) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for one_byte in [false, true] {
            let got = runtime.block_on(async {
                if one_byte {
                    let mut reader = FrameReader::new(OneByte(input.to_vec(), 0));
                    reader.max_message = max;
                    read_all(&mut reader).await
                } else {
                    let mut reader = FrameReader::new(input);
                    reader.max_message = max;
                    read_all(&mut reader).await
                }
            });
            assert_eq!(got, expect, "one byte at a time: {one_byte}");
        }
    }

    #[test]
    fn content_length_frames() {
        check(b"", 64, &[]);
        check(
            b"Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]",
            64,
            &["{}", "[1]"],
        );
        // Lenient: bare newlines, any case, extra headers, blank lines between frames.
        check(
            b"\r\ncontent-length:2\nContent-Type: x\n\n{}\r\n\r\nCONTENT-LENGTH: 2\r\n\r\n[]",
            64,
            &["{}", "[]"],
        );
        check(
            b"Content-Length: 2\r\n\r\n{",
            64,
            &["! the input ended inside a message body (1 of 2 bytes)"],
        );
        check(
            b"Content-Length: 2\r\n",
            64,
            &["! the input ended inside a header"],
        );
    }

    #[test]
    fn malformed_headers_resync_to_the_next_frame() {
        check(
            b"oops\r\nContent-Length: 2\r\n\r\n{}",
            64,
            &[
                "! expected a header like `Content-Length: 42`, found `oops`",
                "{}",
            ],
        );
        // A body sent without its header, glued to the next frame.
        check(
            b"Content-Type: x\r\n\r\n{\"a\":1}Content-Length: 2\r\n\r\n{}",
            64,
            &["! a header block without `Content-Length`", "{}"],
        );
        check(
            b"Content-Length: -1\r\n\r\n{}\nContent-Length: 2\r\n\r\n[]",
            64,
            &["! `Content-Length: -1` is not a byte count", "[]"],
        );
        // Garbage with no header after it ends with the input.
        check(
            b"Content-Type: x\r\n\r\nnothing more",
            64,
            &["! a header block without `Content-Length`"],
        );
    }

    #[test]
    fn over_long_messages_are_skipped_whole() {
        check(
            b"Content-Length: 22\r\n\r\n{\"aaaaaaaaaaaaaaaa\":1}Content-Length: 2\r\n\r\n{}",
            16,
            &[
                "! a message of 22 bytes is over the limit of 16 bytes; it was skipped",
                "{}",
            ],
        );
        check(
            b"{\"aaaaaaaaaaaaaaaaaaaaaaaa\":1}\n{}\n",
            16,
            &[
                "! a line longer than the limit of 16 bytes was skipped",
                "{}",
            ],
        );
    }

    #[test]
    fn newline_delimited_json() {
        check(
            b"\n {\"a\":1}\r\n\n[2]\n{}",
            64,
            &["{\"a\":1}", "[2]", "{}"],
        );
        // Once chosen, the framing stays: a header is then just a bad line.
        check(b"{}\nContent-Length: 2\n", 64, &["{}", "Content-Length: 2"]);
    }

    #[test]
    fn framing_encodes_each_message_whole() {
        assert_eq!(
            Framing::ContentLength.encode(b"{}"),
            b"Content-Length: 2\r\n\r\n{}"
        );
        assert_eq!(Framing::Lines.encode(b"{}"), b"{}\n");
    }
}
