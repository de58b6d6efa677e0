//! How many positions chasolver's quick mode visits, and what it proves.
//!
//! Reads `FEN` or `FEN<TAB>side` lines on stdin (the `search_cost` input:
//! final positions and flag falls) and asks the quick mode, for both
//! sides, whether that side provably cannot mate, within the node budget
//! given as the first argument (none: unbounded). Prints the calls, the
//! proofs, the time and the distribution of positions visited:
//! `cargo run --release -p remis-core --example quick_nodes -- 10000 < fens.txt`.

use std::io::BufRead;
use std::str::FromStr;
fn main() {
    let budget: u64 = std::env::args()
        .nth(1)
        .map(|b| b.parse().unwrap())
        .unwrap_or(u64::MAX);
    let mut nodes = Vec::new();
    let mut proven = 0;
    let mut t = 0f64;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let fen = line.split('\t').next().unwrap();
        let Ok(board) = chess::Board::from_str(fen) else {
            continue;
        };
        for color in [chess::Color::White, chess::Color::Black] {
            let s = std::time::Instant::now();
            let (q, n) = chasolver::is_unwinnable_fast_within(&board, color, budget);
            t += s.elapsed().as_secs_f64();
            nodes.push((n, fen.to_string()));
            proven += q as u64;
        }
    }
    nodes.sort();
    let k = nodes.len();
    println!(
        "calls {k}, proven {proven}, {t:.3} s; nodes p50 {} p99 {} p99.9 {} max {} ({})",
        nodes[k / 2].0,
        nodes[k * 99 / 100].0,
        nodes[k * 999 / 1000].0,
        nodes[k - 1].0,
        nodes[k - 1].1
    );
}
