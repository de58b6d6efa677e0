//! Cutting a PGN stream into chunks of whole games for the workers.

use std::{io::Read, sync::Arc};

use super::{
    Limits,
    frame::{Framer, GameSpan},
    text::NormalizedText,
};

/// A run of whole games from one source, in input order.
#[derive(Debug)]
pub struct Chunk {
    /// Position of the chunk in the whole input (all sources).
    pub seq: u64,
    /// The source's name: a path, `path!member` inside an archive, or `-`.
    pub source: Arc<str>,
    /// The games' text: UTF-8 (or Latin-1) with `\n` line ends.
    pub data: Vec<u8>,
    /// Where each game lies in `data`, in order.
    pub games: Vec<GameSpan>,
    /// The stream broke off after this chunk (a truncated or corrupt file):
    /// its last game may be incomplete.
    pub damage: Option<Arc<str>>,
    /// The last chunk of its source.
    pub last: bool,
    /// The games' tags, when they came as columns (Parquet input): then
    /// each span holds only the game's movetext.
    pub tags: Option<super::TagTable>,
}

/// How many bytes are read from a stream at a time.
const READ_BYTES: usize = 256 * 1024;

/// At most this many games go in one chunk. A chunk becomes a table frame
/// of some 700 bytes a row before encoding, whatever the size of its games:
/// a 1 MiB chunk of 30-byte games made 20 MB frames, and the frames in
/// flight between the workers and the writer took 300 MiB.
pub const MAX_CHUNK_GAMES: usize = 4096;

/// Reads a stream and hands out chunks of whole games of about `target`
/// bytes, in order, through `emit` (which returns false to stop). Every
/// source gets at least one chunk, possibly without games, so that a
/// source without games is noticed. Returns the read error that ended the
/// stream early, if any; the games read before it are still handed out.
pub fn chunk_stream(
    reader: &mut dyn Read,
    target: usize,
    limits: Limits,
    mut emit: impl FnMut(Vec<u8>, Vec<GameSpan>, bool, Option<&std::io::Error>) -> bool,
) -> Option<std::io::Error> {
    let mut text = NormalizedText::new(reader);
    let mut framer = Framer::new(limits);
    let mut block = vec![0u8; READ_BYTES];
    let failure = loop {
        match text.read(&mut block) {
            Ok(0) => break None,
            Ok(n) => {
                framer.feed(&block[..n]);
                while framer.ready_bytes() >= target || framer.ready_games() >= MAX_CHUNK_GAMES {
                    let (data, games) = framer.take_games(MAX_CHUNK_GAMES);
                    if !emit(data, games, false, None) {
                        return None;
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Some(e),
        }
    };
    framer.finish();
    while framer.ready_games() > MAX_CHUNK_GAMES {
        let (data, games) = framer.take_games(MAX_CHUNK_GAMES);
        if !emit(data, games, false, None) {
            return None;
        }
    }
    let (data, games) = framer.take();
    emit(data, games, true, failure.as_ref());
    failure
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(input: &[u8], target: usize) -> Vec<(Vec<u8>, Vec<GameSpan>)> {
        let mut out = Vec::new();
        let err = chunk_stream(&mut &input[..], target, Limits::default(), |d, g, _, _| {
            out.push((d, g));
            true
        });
        assert!(err.is_none());
        out
    }

    #[test]
    fn chunks_keep_every_byte_in_order() {
        let game = "[Event \"x\"]\r\n[Result \"*\"]\r\n\r\n1. e4 { [%clk 0:01:00] } e5 *\r\n\r\n";
        let input = game.repeat(20_000);
        let got = chunks(input.as_bytes(), 4096);
        assert!(got.len() > 5);
        let mut all = Vec::new();
        let mut games = 0;
        for (data, spans) in &got {
            for span in spans {
                assert!(data[span.start..].starts_with(b"[Event"));
            }
            games += spans.len();
            all.extend_from_slice(data);
        }
        assert_eq!(games, 20_000);
        assert_eq!(all, input.replace("\r\n", "\n").as_bytes());
    }

    #[test]
    fn tiny_games_are_cut_by_count_as_well_as_by_bytes() {
        let game = "[Event \"x\"]\n\n*\n\n";
        let n = 3 * MAX_CHUNK_GAMES + 17;
        let input = game.repeat(n);
        let got = chunks(input.as_bytes(), 1 << 20);
        assert!(got.len() >= 4, "{} chunks", got.len());
        let mut all = Vec::new();
        let mut games = 0;
        for (data, spans) in &got {
            assert!(
                spans.len() <= MAX_CHUNK_GAMES,
                "{} games in a chunk",
                spans.len()
            );
            for span in spans {
                assert!(data[span.start..span.end].starts_with(b"[Event"));
            }
            games += spans.len();
            all.extend_from_slice(data);
        }
        assert_eq!(games, n);
        assert_eq!(all, input.as_bytes());
    }
}
