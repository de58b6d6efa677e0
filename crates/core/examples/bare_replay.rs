//! The local speed limit for `make bench`: pgn-reader parses, shakmaty
//! replays every move legally, and nothing else happens — no tags kept, no
//! hashing, no classification, no output. `remis classify` is measured
//! against this loop.
//!
//! Usage: bare_replay FILE.pgn [THREADS]
//! With THREADS > 1 the file is cut into chunks of whole games exactly as
//! `remis classify` does and the chunks are replayed on a rayon pool.

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rayon::prelude::*;
use shakmaty::{Chess, Position};

struct BareReplay {
    pos: Chess,
}

impl Visitor for BareReplay {
    type Tags = ();
    type Movetext = ();
    type Output = u64;

    fn begin_tags(&mut self) -> ControlFlow<u64> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<u64> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<u64, ()> {
        self.pos = Chess::default();
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<u64> {
        match san_plus.san.to_move(&self.pos) {
            Ok(m) => {
                self.pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(1),
        }
    }

    fn end_game(&mut self, _: ()) -> u64 {
        1
    }
}

fn replay(pgn: &[u8]) -> u64 {
    let mut visitor = BareReplay {
        pos: Chess::default(),
    };
    Reader::new(pgn)
        .read_games(&mut visitor)
        .map(|r| r.unwrap_or(1))
        .sum()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: bare_replay FILE.pgn [THREADS]");
    let threads: usize = args.next().map_or(1, |t| t.parse().expect("THREADS"));
    let started = std::time::Instant::now();
    let games: u64 = if threads <= 1 {
        let file = std::fs::File::open(&path).expect("open input");
        let mut visitor = BareReplay {
            pos: Chess::default(),
        };
        Reader::new(std::io::BufReader::with_capacity(1 << 20, file))
            .read_games(&mut visitor)
            .map(|r| r.unwrap_or(1))
            .sum()
    } else {
        let data = std::fs::read(&path).expect("read input");
        let mut chunks = Vec::new();
        let mut rest: &[u8] = &data;
        while rest.len() > 1 << 20 {
            // Cut before the last game that starts in the next MiB.
            let cut =
                memchr::memmem::rfind(&rest[..1 << 20], b"\n[Event ").map_or(rest.len(), |i| i + 1);
            chunks.push(&rest[..cut]);
            rest = &rest[cut..];
        }
        chunks.push(rest);
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool")
            .install(|| chunks.par_iter().map(|c| replay(c)).sum())
    };
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "bare replay: {games} games in {seconds:.2} s, {:.0} games/s",
        games as f64 / seconds
    );
}
