//! The text layer under PGN: byte-order marks, UTF-16 and line endings,
//! settled once so that everything downstream sees UTF-8-or-Latin-1 bytes
//! with `\n` line ends.

use std::io::{self, Read};

/// The encoding announced by a byte-order mark at the start of a stream.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Encoding {
    /// No mark, or the UTF-8 mark (dropped): bytes pass through.
    Bytes,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    /// Reads the mark, if any, from the first bytes of a stream and returns
    /// how many of them it takes.
    pub fn sniff(head: &[u8]) -> (Encoding, usize) {
        match head {
            [0xef, 0xbb, 0xbf, ..] => (Encoding::Bytes, 3),
            [0xff, 0xfe, ..] => (Encoding::Utf16Le, 2),
            [0xfe, 0xff, ..] => (Encoding::Utf16Be, 2),
            _ => (Encoding::Bytes, 0),
        }
    }
}

/// A reader that hands out the text of a stream with its byte-order mark
/// removed, UTF-16 transcoded to UTF-8, and every line ending (`\r\n`, a
/// lone `\r` as old Mac files have, or `\n`) turned into `\n`.
pub struct NormalizedText<R> {
    inner: R,
    encoding: Option<Encoding>,
    raw: Vec<u8>,
    /// Undecoded bytes at `raw[start..end]`.
    start: usize,
    end: usize,
    /// The last byte handed out was a `\r` turned into `\n`: a `\n` right
    /// after it belongs to the same line ending.
    after_cr: bool,
    eof: bool,
    /// Transcoded bytes that did not fit the caller's buffer.
    spill: ([u8; 4], u8, u8),
}

const RAW_BYTES: usize = 64 * 1024;

impl<R: Read> NormalizedText<R> {
    pub fn new(inner: R) -> NormalizedText<R> {
        NormalizedText {
            inner,
            encoding: None,
            raw: vec![0; RAW_BYTES],
            start: 0,
            end: 0,
            after_cr: false,
            eof: false,
            spill: ([0; 4], 0, 0),
        }
    }

    /// Reads more raw bytes, keeping the undecoded rest. Returns false at the
    /// end of the stream.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.raw.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        loop {
            match self.inner.read(&mut self.raw[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Copies bytes to `out`, normalising line endings.
    fn copy_bytes(&mut self, out: &mut [u8]) -> usize {
        let input = &self.raw[self.start..self.end];
        let mut read = 0;
        let mut written = 0;
        while read < input.len() && written < out.len() {
            if self.after_cr {
                self.after_cr = false;
                if input[read] == b'\n' {
                    read += 1;
                    continue;
                }
            }
            let room = (out.len() - written).min(input.len() - read);
            let segment = &input[read..read + room];
            match memchr::memchr(b'\r', segment) {
                Some(cr) => {
                    out[written..written + cr].copy_from_slice(&segment[..cr]);
                    out[written + cr] = b'\n';
                    written += cr + 1;
                    read += cr + 1;
                    self.after_cr = true;
                }
                None => {
                    out[written..written + room].copy_from_slice(segment);
                    written += room;
                    read += room;
                }
            }
        }
        self.start += read;
        written
    }

    /// Transcodes UTF-16 code units to UTF-8, normalising line endings.
    fn copy_utf16(&mut self, out: &mut [u8], little_endian: bool) -> usize {
        let mut written = 0;
        while self.end - self.start >= 2 && written + 4 <= out.len() {
            let unit = |b: &[u8]| {
                if little_endian {
                    u16::from_le_bytes([b[0], b[1]])
                } else {
                    u16::from_be_bytes([b[0], b[1]])
                }
            };
            let first = unit(&self.raw[self.start..]);
            let (ch, units) = if (0xd800..0xdc00).contains(&first) {
                if self.end - self.start < 4 {
                    if self.eof {
                        ('\u{fffd}', 1)
                    } else {
                        break;
                    }
                } else {
                    let second = unit(&self.raw[self.start + 2..]);
                    match char::decode_utf16([first, second]).next() {
                        Some(Ok(c)) => (c, 2),
                        _ => ('\u{fffd}', 1),
                    }
                }
            } else {
                (char::from_u32(u32::from(first)).unwrap_or('\u{fffd}'), 1)
            };
            self.start += 2 * units;
            if std::mem::take(&mut self.after_cr) && ch == '\n' {
                continue;
            }
            let ch = if ch == '\r' {
                self.after_cr = true;
                '\n'
            } else {
                ch
            };
            written += ch.encode_utf8(&mut out[written..]).len();
        }
        written
    }
}

impl<R: Read> Read for NormalizedText<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let (spilled, from, to) = &mut self.spill;
        if from < to {
            let n = usize::from(*to - *from).min(out.len());
            out[..n].copy_from_slice(&spilled[usize::from(*from)..usize::from(*from) + n]);
            *from += n as u8;
            return Ok(n);
        }
        if out.len() < 4 && self.encoding != Some(Encoding::Bytes) {
            let mut small = [0u8; 4];
            let n = self.read(&mut small)?;
            let k = n.min(out.len());
            out[..k].copy_from_slice(&small[..k]);
            self.spill = (small, k as u8, n as u8);
            return Ok(k);
        }
        loop {
            let encoding = match self.encoding {
                Some(encoding) => encoding,
                None => {
                    while self.end < 3 && self.fill()? {}
                    let (encoding, mark) = Encoding::sniff(&self.raw[..self.end]);
                    self.start = mark;
                    self.encoding = Some(encoding);
                    encoding
                }
            };
            let written = match encoding {
                Encoding::Bytes => self.copy_bytes(out),
                Encoding::Utf16Le => self.copy_utf16(out, true),
                Encoding::Utf16Be => self.copy_utf16(out, false),
            };
            if written > 0 {
                return Ok(written);
            }
            if !self.fill()? {
                // A dangling odd byte of UTF-16 is replaced, never dropped.
                if self.end > self.start {
                    self.start = self.end;
                    let n = '\u{fffd}'.encode_utf8(out).len();
                    return Ok(n);
                }
                return Ok(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalize(bytes: &[u8], chunk: usize) -> Vec<u8> {
        /// Hands out at most `chunk` bytes per read, to cross every boundary.
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        NormalizedText::new(Trickle(bytes, chunk))
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn line_endings_become_newlines() {
        for chunk in [1, 2, 3, 1000] {
            assert_eq!(normalize(b"a\r\nb\rc\n\r\nd\r", chunk), b"a\nb\nc\n\nd\n");
        }
    }

    #[test]
    fn utf8_mark_is_dropped_and_utf16_transcoded() {
        assert_eq!(normalize(b"\xef\xbb\xbf[Event]", 1), b"[Event]");
        let text = "[White \"Ø\u{1F600}\"]\r\n1. e4 *";
        let mut le = vec![0xff, 0xfe];
        let mut be = vec![0xfe, 0xff];
        for unit in text.encode_utf16() {
            le.extend(unit.to_le_bytes());
            be.extend(unit.to_be_bytes());
        }
        let want = text.replace("\r\n", "\n");
        for chunk in [1, 3, 1000] {
            assert_eq!(normalize(&le, chunk), want.as_bytes());
            assert_eq!(normalize(&be, chunk), want.as_bytes());
        }
    }
}
