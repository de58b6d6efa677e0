//! Times the dead-position and flag-fall searches, one question at a time.
//!
//! Reads lines `FEN` (is the position dead? asked as the default
//! classification asks it) or `FEN<TAB>white|black` (can that side mate,
//! as after a flag fall) on stdin. `--everywhere` runs the full search on
//! every question instead of the filter's choice. Prints the time spent,
//! its distribution and the answers' counts; `--slowest` the 40 slowest
//! questions, `--each` every question with its answer and time (µs).

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::time::Instant;

use remis_core::rules::{SearchOptions, can_mate_after_flag, deadness};
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};

fn main() {
    let everywhere = std::env::args().any(|a| a == "--everywhere");
    let slowest = std::env::args().any(|a| a == "--slowest");
    let each = std::env::args().any(|a| a == "--each");
    let options = SearchOptions {
        everywhere,
        ..SearchOptions::default()
    };
    let mut times: Vec<(u64, String)> = Vec::new();
    let mut answers: BTreeMap<String, u64> = BTreeMap::new();
    for line in io::stdin().lock().lines() {
        let line = line.expect("reading stdin");
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (fen, side) = match line.split_once('\t') {
            Some((fen, "white")) => (fen, Some(Color::White)),
            Some((fen, "black")) => (fen, Some(Color::Black)),
            Some((_, other)) => panic!("unknown side {other:?}"),
            None => (line, None),
        };
        let Some(pos) = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
        else {
            continue;
        };
        let start = Instant::now();
        let legal = pos.legal_moves().len();
        let answer = match side {
            None => format!("dead:{}", deadness(&pos, legal, &options).as_str()),
            Some(color) => format!(
                "flag:{}",
                can_mate_after_flag(&pos, color, legal, &options).as_str()
            ),
        };
        let nanos = start.elapsed().as_nanos() as u64;
        if each {
            println!("{line}\t{answer}\t{:.1}", nanos as f64 / 1e3);
        }
        *answers.entry(answer.clone()).or_default() += 1;
        times.push((nanos, format!("{line}\t{answer}")));
    }
    let total: u64 = times.iter().map(|t| t.0).sum();
    times.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    let n = times.len();
    println!(
        "questions {n}, total {:.3} s, mean {:.1} µs",
        total as f64 / 1e9,
        total as f64 / 1e3 / n.max(1) as f64
    );
    for share in [0.5, 0.9, 0.99] {
        let mut acc = 0u64;
        let mut k = 0;
        while k < n && (acc as f64) < share * total as f64 {
            acc += times[k].0;
            k += 1;
        }
        println!(
            "{:.0} % of the time in the slowest {k} questions ({:.2} %)",
            share * 100.0,
            100.0 * k as f64 / n.max(1) as f64
        );
    }
    for (answer, count) in &answers {
        println!("{answer}: {count}");
    }
    if slowest {
        for (nanos, what) in times.iter().take(40) {
            println!("{:>10.1} µs  {what}", *nanos as f64 / 1e3);
        }
    }
}
