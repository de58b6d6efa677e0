//! The replay alone, measured against `bare_replay` on the same file: the
//! games are framed into chunks as `remis classify` frames them (1 MiB
//! chunks, default limits), held in memory, then replayed by one
//! `GameReplayer` with the pipeline's options, on one thread. No table is
//! built and nothing is written: what is timed is the work of
//! `remis-core` per game (lexing, SAN, play, the per-move bookkeeping and
//! the end-of-game facts).
//!
//! Usage: replay_only FILE.pgn [--no-search] [--shakmaty] [--runs N]
//!                     [--dump OUT]
//!
//! `--no-search` turns the dead-position and flag-fall searches off (as
//! `remis classify --no-search`); `--runs N` replays the chunks N times and
//! prints each run's time (each run with a fresh search memo, as a new
//! process would have); `--dump OUT` writes every `GameRecord` (its
//! `Debug` form, one a line) after the last run, for checking that a
//! change to the replay keeps every record identical.

use std::{
    io::Write,
    sync::{Arc, atomic::AtomicU64},
    time::Instant,
};

use remis_core::{
    input::{self, Chunk, Input, Limits, NoColumnarSource},
    replay::{GameReplayer, SanResolver},
    rules::SearchOptions,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut search_off = false;
    let mut resolver = SanResolver::Remis;
    let mut runs = 1;
    let mut dump = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--no-search" => search_off = true,
            "--shakmaty" => resolver = SanResolver::Shakmaty,
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            "--dump" => dump = Some(args.next().expect("--dump OUT")),
            _ => path = Some(arg),
        }
    }
    let path = path.expect("usage: replay_only FILE.pgn [--no-search] [--runs N] [--dump OUT]");

    let limits = Limits::default();
    let framing = Instant::now();
    let mut chunks: Vec<Chunk> = Vec::new();
    input::read_chunks(
        &[Input::File(path.into())],
        1 << 20,
        limits,
        &NoColumnarSource,
        Arc::new(AtomicU64::new(0)),
        &mut |chunk| {
            chunks.push(chunk);
            true
        },
    );
    let framing = framing.elapsed().as_secs_f64();
    let spans: usize = chunks.iter().map(|c| c.games.len()).sum();

    let mut records = Vec::with_capacity(4096);
    for run in 1..=runs {
        let search = SearchOptions {
            off: search_off,
            ..SearchOptions::default()
        };
        let mut replayer = GameReplayer::with_options(limits, search).with_resolver(resolver);
        let mut games = 0;
        let started = Instant::now();
        for chunk in &chunks {
            records.clear();
            replayer.replay_chunk(chunk, &mut records);
            games += records.len();
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "replay run {run}: {games} games in {seconds:.3} s, {:.0} games/s, {:.0} ns/game",
            games as f64 / seconds,
            seconds * 1e9 / games as f64
        );
    }
    println!(
        "framing (the reader thread's work, not in the runs): {spans} spans in {framing:.3} s, {:.0} ns/game",
        framing * 1e9 / spans.max(1) as f64
    );

    if let Some(out) = dump {
        let search = SearchOptions {
            off: search_off,
            ..SearchOptions::default()
        };
        let mut replayer = GameReplayer::with_options(limits, search).with_resolver(resolver);
        let mut out = std::io::BufWriter::new(std::fs::File::create(out).expect("create dump"));
        for chunk in &chunks {
            records.clear();
            replayer.replay_chunk(chunk, &mut records);
            for record in &records {
                writeln!(out, "{record:?}").expect("write dump");
            }
        }
        out.flush().expect("write dump");
    }
}
