//! Checks remis's verdicts against CHA-Solver's known answers.
//!
//! Reads files in chasolver's test format (`WB <FEN>`: which sides can
//! helpmate) and asks each position what a game ending there on time asks
//! (the side to move's flag fell): is the position dead (5.2.2), and if not,
//! can the opponent still mate (6.9)? Prints every disagreement and a
//! summary; exit status 1 when there is one. `--everywhere` searches every
//! question in full; `--nodes N` sets the deepest phase's node budget.

use std::process::ExitCode;
use std::time::Instant;

use remis_core::rules::{Deadness, SearchOptions, can_mate_after_flag, deadness};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

fn main() -> ExitCode {
    let mut options = SearchOptions::default();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--everywhere" => options.everywhere = true,
            "--nodes" => {
                options.deep_nodes = args.next().and_then(|n| n.parse().ok()).expect("--nodes N")
            }
            _ => files.push(arg),
        }
    }
    let (mut checked, mut wrong, mut unknown, mut rejected) = (0u64, 0u64, 0u64, 0u64);
    let (mut presumed, mut presumed_wrong) = (0u64, 0u64);
    let start = Instant::now();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (class, fen) = line.split_once(' ').expect("`XX <FEN>`");
            let Some(pos): Option<Chess> = fen.parse::<Fen>().ok().and_then(|f| {
                f.into_position(CastlingMode::Standard)
                    .or_else(|e| e.ignore_too_much_material().map_err(drop))
                    .ok()
            }) else {
                // An impossible position (remis makes such a game invalid).
                rejected += 1;
                continue;
            };
            let legal = pos.legal_moves().len();
            if legal == 0 {
                // Mate or stalemate ends the game before any flag falls.
                continue;
            }
            checked += 1;
            let can = |c: char| c != '-';
            let (white, black) = (
                can(class.chars().next().unwrap()),
                can(class.chars().nth(1).unwrap()),
            );
            let expected = if !white && !black {
                "dead"
            } else if pos.turn().fold_wb(black, white) {
                "flag:possible"
            } else {
                "flag:impossible"
            };
            let dead = deadness(&pos, legal, &options);
            let got = if dead.is_dead() {
                "dead".to_string()
            } else if dead == Deadness::Unknown {
                "dead:unknown".to_string()
            } else {
                format!(
                    "flag:{}",
                    can_mate_after_flag(&pos, !pos.turn(), legal, &options).as_str()
                )
            };
            if got.ends_with("unknown") {
                unknown += 1;
            }
            // A presumption is the default's answer "possible", unsearched.
            let presumption = got == "flag:presumed_possible";
            if presumption {
                presumed += 1;
            }
            let answer = if presumption { "flag:possible" } else { &got };
            if answer != expected {
                presumed_wrong += u64::from(presumption);
                wrong += 1;
                println!(
                    "{file}:{}: {class} {fen}: expected {expected}, remis {got}",
                    n + 1
                );
            }
        }
    }
    println!(
        "{checked} positions, {wrong} disagreements ({unknown} unknown), {presumed} flag falls presumed mateable unsearched ({presumed_wrong} of them wrongly), {rejected} impossible FENs skipped, {:.2} s",
        start.elapsed().as_secs_f64()
    );
    if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
