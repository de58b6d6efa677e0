//! remis's search against CHA-Solver's known answers: its community test
//! positions and a fixed sample of its lichess positions
//! (`tests/fixtures/chasolver`, MIT, licence beside them), each line
//! `XY <FEN>` saying which sides can helpmate.
//!
//! The full search with chasolver's own node budget must give every answer
//! on a fixed tenth of the positions (all of them: `make validate`). The
//! default filter may still take a side to be able to mate where it cannot
//! (docs/rules.md; issue 31), but it must never claim the opposite: no
//! position it calls dead, and no flag fall it calls "cannot mate", may
//! have a helpmate.

use remis_core::rules::{Deadness, Mate, SearchOptions, can_mate, can_mate_after_flag, deadness};
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};

struct Case {
    line: String,
    pos: Chess,
    white_can_mate: bool,
    black_can_mate: bool,
}

fn cases() -> Vec<Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chasolver");
    let mut cases = Vec::new();
    for file in ["positions.txt", "lichess-sample.txt"] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (class, fen) = line.split_once(' ').unwrap();
            let pos = fen.parse::<Fen>().ok().and_then(|f| {
                f.into_position(CastlingMode::Standard)
                    .or_else(|e| e.ignore_too_much_material().map_err(drop))
                    .ok()
            });
            // Positions that cannot arise (remis makes such a game invalid).
            let Some(pos) = pos else { continue };
            let class = class.as_bytes();
            cases.push(Case {
                line: format!("{file}: {line}"),
                pos,
                white_can_mate: class[0] == b'W',
                black_can_mate: class[1] == b'B',
            });
        }
    }
    assert!(cases.len() > 6000, "{} positions", cases.len());
    cases
}

/// Runs `check` on the cases on two threads; returns the failures.
fn failures(cases: &[Case], check: impl Fn(&Case) -> Option<String> + Sync) -> Vec<String> {
    let half = cases.len() / 2;
    let (a, b) = cases.split_at(half);
    std::thread::scope(|scope| {
        let check = &check;
        let first = scope.spawn(move || a.iter().filter_map(check).collect::<Vec<_>>());
        let mut out: Vec<String> = b.iter().filter_map(check).collect();
        out.extend(first.join().unwrap());
        out
    })
}

#[test]
fn the_full_search_gives_every_known_answer() {
    let cases: Vec<Case> = cases().into_iter().step_by(10).collect();
    let options = SearchOptions {
        everywhere: true,
        deep_nodes: 1 << 24,
        ..SearchOptions::default()
    };
    let wrong = failures(&cases, |case| {
        let expect = |can: bool| {
            if can {
                Mate::Possible
            } else {
                Mate::Impossible
            }
        };
        let got = (
            can_mate(&case.pos, Color::White, &options),
            can_mate(&case.pos, Color::Black, &options),
        );
        let want = (expect(case.white_can_mate), expect(case.black_can_mate));
        (got != want).then(|| format!("{}: got {got:?}", case.line))
    });
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_default_never_draws_a_game_that_could_be_won() {
    let options = SearchOptions::default();
    let wrong = failures(&cases(), |case| {
        let pos = &case.pos;
        let legal = pos.legal_moves().len();
        if legal == 0 {
            return None;
        }
        let dead = deadness(pos, legal, &options);
        if dead.is_dead() && (case.white_can_mate || case.black_can_mate) {
            return Some(format!("{}: called {dead:?}", case.line));
        }
        if dead == Deadness::Alive && !(case.white_can_mate || case.black_can_mate) {
            return Some(format!(
                "{}: a helpmate claimed in a dead position",
                case.line
            ));
        }
        if dead == Deadness::Unknown {
            return None;
        }
        // The side to move lost on time: can its opponent mate?
        let opponent = !pos.turn();
        let can = opponent.fold_wb(case.white_can_mate, case.black_can_mate);
        let flag = can_mate_after_flag(pos, opponent, legal, &options);
        if flag == Mate::Possible && !can {
            return Some(format!(
                "{}: a helpmate claimed after a flag fall",
                case.line
            ));
        }
        (flag == Mate::Impossible && can)
            .then(|| format!("{}: flag fall called impossible", case.line))
    });
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
