//! Cutting a PGN byte stream into chunks of whole games.

use std::{io::Read, sync::Arc};

use memchr::memmem;

/// A run of whole games from one source, in input order.
#[derive(Debug)]
pub struct Chunk {
    /// Position of the chunk in the whole input (all sources).
    pub seq: u64,
    /// The source's name: a path, `path!member` inside an archive, or `-`.
    pub source: Arc<str>,
    pub data: Vec<u8>,
    /// The stream broke off after this chunk (a truncated or corrupt file):
    /// its last game may be incomplete.
    pub damage: Option<Arc<str>>,
}

/// The offset where a new game starts, near the end of `buf`: the start of a
/// tag line (`[`) whose previous non-blank line is movetext, outside any
/// `{ comment }`. This is where pgn-reader itself ends a game's movetext, so
/// cutting there never splits a game.
pub fn find_game_boundary(buf: &[u8]) -> Option<usize> {
    let mut end = buf.len();
    while let Some(newline) = memmem::rfind(&buf[..end], b"\n[") {
        let start = newline + 1;
        // Inside a comment if the last brace before the cut opens one.
        if let Some(brace) = memchr::memrchr2(b'{', b'}', &buf[..start])
            && buf[brace] == b'{'
        {
            end = brace;
            continue;
        }
        if previous_line_is_movetext(&buf[..newline]) {
            return Some(start);
        }
        end = newline;
    }
    None
}

/// Whether the last non-blank line of `before` is movetext (not a tag).
fn previous_line_is_movetext(before: &[u8]) -> bool {
    let Some(last) = before.iter().rposition(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    let line_start = memchr::memrchr(b'\n', &before[..last]).map_or(0, |i| i + 1);
    let first = before[line_start..=last]
        .iter()
        .find(|b| !b.is_ascii_whitespace());
    first != Some(&b'[')
}

/// Reads a stream and hands out chunks of about `target` bytes, each cut at
/// a game boundary. Returns the read error that ended the stream early, if
/// any; the bytes read before it are still handed out.
pub(crate) fn chunk_stream(
    reader: &mut dyn Read,
    target: usize,
    mut emit: impl FnMut(Vec<u8>, Option<&std::io::Error>) -> bool,
) -> Option<std::io::Error> {
    let read_size = target.clamp(4096, 256 * 1024);
    let mut buf: Vec<u8> = Vec::with_capacity(target + read_size);
    let mut want = target;
    loop {
        let mut failure = None;
        let mut eof = false;
        while buf.len() < want {
            let old = buf.len();
            buf.resize(old + read_size, 0);
            match reader.read(&mut buf[old..]) {
                Ok(0) => {
                    buf.truncate(old);
                    eof = true;
                    break;
                }
                Ok(n) => buf.truncate(old + n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => buf.truncate(old),
                Err(e) => {
                    buf.truncate(old);
                    failure = Some(e);
                    break;
                }
            }
        }
        if eof || failure.is_some() {
            if !buf.iter().all(u8::is_ascii_whitespace) || failure.is_some() {
                emit(buf, failure.as_ref());
            }
            return failure;
        }
        match find_game_boundary(&buf) {
            Some(cut) if cut > 0 => {
                let rest = buf[cut..].to_vec();
                buf.truncate(cut);
                let full = std::mem::replace(&mut buf, Vec::with_capacity(target + read_size));
                buf.extend_from_slice(&rest);
                want = target.max(buf.len() + read_size);
                if !emit(full, None) {
                    return None;
                }
            }
            // One game longer than the chunk: read on.
            _ => want = buf.len() + target,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_before_tags_after_movetext() {
        let pgn = b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n";
        let cut = find_game_boundary(pgn).unwrap();
        assert!(pgn[cut..].starts_with(b"[Event \"c\"]"));
    }

    #[test]
    fn never_cuts_between_tags_or_inside_comments() {
        let pgn = b"[Event \"a\"]\n[Site \"b\"]\n";
        assert_eq!(find_game_boundary(pgn), None);
        let pgn = b"[Event \"a\"]\n\n1. e4 { a comment\n[not a tag] } e5 1-0\n";
        assert_eq!(find_game_boundary(pgn), None);
    }

    #[test]
    fn chunks_keep_every_byte_in_order() {
        let game = "[Event \"x\"]\r\n[Result \"*\"]\r\n\r\n1. e4 { [%clk 0:01:00] } e5 *\r\n\r\n";
        let input = game.repeat(1000);
        let mut out = Vec::new();
        let mut n = 0;
        let err = chunk_stream(&mut input.as_bytes(), 4096, |c, _| {
            assert!(c.starts_with(b"[Event"));
            out.extend_from_slice(&c);
            n += 1;
            true
        });
        assert!(err.is_none());
        assert!(n > 5);
        assert_eq!(out, input.as_bytes());
    }
}
