//! Checks the dead-position search against itself. A position from which a
//! side provably cannot mate stays so after any move: if the search proves
//! "impossible" for a position but finds a helpmate after one of its legal
//! moves (or two), one of the two answers is wrong.
//!
//! Reads lines `FEN` (both sides are checked) or `FEN<TAB>white|black` (one
//! side, as for a flag fall) on stdin; prints every contradiction and a
//! summary. Exit status 1 when a contradiction is found.
//!
//! `scripts/validate.sh` feeds it the dead final positions and the 6.9
//! "impossible" answers of the real collections.

use std::io::{self, BufRead};
use std::process::ExitCode;

use remis_core::rules::{Mate, SearchOptions, can_mate};
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen, uci::UciMove};

const DEPTH: u32 = 2;

fn main() -> ExitCode {
    let options = SearchOptions {
        everywhere: true,
        ..SearchOptions::default()
    };
    let (mut checked, mut successors, mut skipped, mut contradictions) = (0u64, 0u64, 0u64, 0u64);
    for line in io::stdin().lock().lines() {
        let line = line.expect("reading stdin");
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (fen, colors) = match line.split_once('\t') {
            Some((fen, "white")) => (fen, vec![Color::White]),
            Some((fen, "black")) => (fen, vec![Color::Black]),
            Some((_, other)) => panic!("unknown side {other:?} in {line:?}"),
            None => (line, Color::ALL.to_vec()),
        };
        let pos = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok());
        let Some(pos) = pos else {
            skipped += 1;
            continue;
        };
        for color in colors {
            if can_mate(&pos, color, &options) != Mate::Impossible {
                // Only proofs of impossibility are checked.
                skipped += 1;
                continue;
            }
            checked += 1;
            let mut line = Vec::new();
            walk(
                &pos,
                color,
                DEPTH,
                &options,
                &mut line,
                &mut successors,
                &mut |moves| {
                    contradictions += 1;
                    println!(
                        "contradiction: {fen} ({color:?} cannot mate) but after {} a helpmate exists",
                        moves.join(" ")
                    );
                },
            );
        }
    }
    println!(
        "positions proved impossible: {checked}; successors searched: {successors}; \
         lines skipped (not a proof or unreadable): {skipped}; contradictions: {contradictions}"
    );
    if contradictions > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn walk(
    pos: &Chess,
    color: Color,
    depth: u32,
    options: &SearchOptions,
    line: &mut Vec<String>,
    successors: &mut u64,
    report: &mut dyn FnMut(&[String]),
) {
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(m);
        line.push(UciMove::from_standard(m).to_string());
        *successors += 1;
        let mated = next.is_checkmate() && next.turn() != color;
        if mated || can_mate(&next, color, options) == Mate::Possible {
            report(line);
        } else {
            walk(&next, color, depth - 1, options, line, successors, report);
        }
        line.pop();
    }
}
