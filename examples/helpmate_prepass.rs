//! Measures the short helpmate pre-pass before chasolver (issue 21) on
//! the flag-fall positions of a games table: every row whose
//! `flag_opponent_can_mate` is set, with the side 6.9 asks about (the
//! winner, or for a draw the side not to move). Prints the time of the 6.9
//! search without and with the pre-pass, where that time goes, and every
//! position whose verdicts differ.
//!
//! cargo run --release --example helpmate_prepass -- TABLE [NODES]

use std::{fs::File, time::Instant};

use polars::prelude::*;
use remis_core::rules::{Mate, SearchOptions, can_mate_after_flag};
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};

fn main() {
    let mut args = std::env::args().skip(1);
    let table = args.next().expect("a games table (games.parquet)");
    let nodes: u32 = args.next().map_or(300, |n| n.parse().expect("a number"));
    let df = ParquetReader::new(File::open(&table).expect("readable"))
        .with_columns(Some(vec![
            "final_fen".into(),
            "result".into(),
            "flag_opponent_can_mate".into(),
        ]))
        .finish()
        .expect("a remis games table");
    let fens = df.column("final_fen").unwrap().str().unwrap().clone();
    let results = df.column("result").unwrap().str().unwrap().clone();
    let flags = df
        .column("flag_opponent_can_mate")
        .unwrap()
        .str()
        .unwrap()
        .clone();
    let positions: Vec<(Chess, Color)> = (0..df.height())
        .filter(|&i| flags.get(i).is_some())
        .filter_map(|i| {
            let fen: Fen = fens.get(i)?.parse().ok()?;
            let pos: Chess = fen.into_position(CastlingMode::Chess960).ok()?;
            let color = match results.get(i)? {
                "1-0" => Color::White,
                "0-1" => Color::Black,
                _ => !pos.turn(),
            };
            Some((pos, color))
        })
        .collect();
    let run = |prepass_nodes: u32| {
        let options = SearchOptions {
            prepass_nodes,
            ..SearchOptions::default()
        };
        let start = Instant::now();
        let verdicts: Vec<Mate> = positions
            .iter()
            .map(|(pos, color)| can_mate_after_flag(pos, *color, pos.legal_moves().len(), &options))
            .collect();
        (start.elapsed().as_secs_f64(), verdicts)
    };
    // Warm up, then alternate.
    let _ = run(0);
    let mut base = Vec::new();
    let mut with = Vec::new();
    let (mut alone, mut pre) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let (t, v) = run(0);
        base.push(t);
        alone = v;
        let (t, v) = run(nodes);
        with.push(t);
        pre = v;
    }
    base.sort_by(f64::total_cmp);
    with.sort_by(f64::total_cmp);
    let differ: Vec<usize> = (0..positions.len())
        .filter(|&i| alone[i] != pre[i])
        .collect();
    println!(
        "{} positions; 6.9 search alone {:.3} s, with a {}-node pre-pass {:.3} s (medians of 3); {} verdicts differ",
        positions.len(),
        base[1],
        nodes,
        with[1],
        differ.len()
    );
    // The costliest positions of the search alone.
    let options = SearchOptions::default();
    let mut costs: Vec<(f64, usize)> = positions
        .iter()
        .enumerate()
        .map(|(i, (pos, color))| {
            let start = Instant::now();
            let _ = can_mate_after_flag(pos, *color, pos.legal_moves().len(), &options);
            (start.elapsed().as_secs_f64(), i)
        })
        .collect();
    costs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = costs.iter().map(|c| c.0).sum();
    let over = |t: f64| costs.iter().filter(|c| c.0 > t).count();
    println!(
        "{} positions over 10 µs, {} over 100 µs, {} over 1 ms; the costliest 100 take {:.0}% of {:.3} s",
        over(1e-5),
        over(1e-4),
        over(1e-3),
        100.0 * costs.iter().take(100).map(|c| c.0).sum::<f64>() / total,
        total
    );
    for (t, i) in costs.iter().take(12) {
        println!(
            "  {:.2} ms {} {:?} -> {:?}",
            t * 1e3,
            Fen::from_position(&positions[*i].0, shakmaty::EnPassantMode::Legal),
            positions[*i].1,
            alone[*i]
        );
    }
    for i in differ.iter().take(20) {
        println!(
            "  {} {:?}: alone {:?}, with pre-pass {:?}",
            Fen::from_position(&positions[*i].0, shakmaty::EnPassantMode::Legal),
            positions[*i].1,
            alone[*i],
            pre[*i]
        );
    }
}
