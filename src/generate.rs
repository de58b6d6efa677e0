//! A seeded generator of legal games, for tests and benchmarks at scale.
//! The same seed gives the same bytes. Every game carries a `Synthetic` tag
//! and an event named "Synthetic …": they must never pass for real games.
//!
//! Moves are random legal moves; results follow a simple model in which the
//! draw rate rises with the lower rating, and some draws are played out as
//! real repetitions so every part of the pipeline has work to do. The games
//! are not chess anyone played: their statistics show the tool working, not
//! facts about chess.

use std::io::{self, Write};

use remis_core::rng::Rng;
use shakmaty::{Chess, Color, Move, Position, Role, san::SanPlus};

/// Events, named so that they can never be taken for real ones; the kind
/// words (rapid, blitz, blindfold) exercise the time-class patterns.
const EVENTS: [(&str, &str); 6] = [
    ("Synthetic Open", "Synthetic City"),
    ("Synthetic Round Robin", "Synthetic City"),
    ("Synthetic Championship", "Synthetic Town"),
    ("Synthetic Rapid", "Synthetic Town"),
    ("Synthetic Blitz", "Synthetic Village"),
    ("Synthetic Blindfold", "Synthetic Village"),
];

/// The tag every generated game carries, so that a table of them is never
/// mistaken for real games: `remis report` shows a banner when it finds it.
pub const SYNTHETIC_TAG: &str = "Synthetic";

const SURNAMES: [&str; 24] = [
    "Adler",
    "Berg",
    "Castro",
    "Dahl",
    "Eriksen",
    "Falk",
    "Garcia",
    "Horvat",
    "Ivanov",
    "Jensen",
    "Kovacs",
    "Larsen",
    "Moreau",
    "Novak",
    "Olsen",
    "Petrov",
    "Quist",
    "Rossi",
    "Sørensen",
    "Tanaka",
    "Urban",
    "Vidal",
    "Weber",
    "Zeller",
];

/// Writes `games` generated games as PGN.
pub fn write_games(out: &mut dyn Write, games: u64, seed: u64) -> io::Result<()> {
    let mut rng = Rng::new(seed);
    let mut text = String::with_capacity(4096);
    for n in 0..games {
        text.clear();
        one_game(&mut rng, n, &mut text);
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

fn player(rng: &mut Rng) -> (String, u16) {
    let surname = rng.pick(&SURNAMES);
    let initial = (b'A' + rng.below(26) as u8) as char;
    let elo = 1900 + rng.below(900) as u16;
    (format!("{surname}, {initial}."), elo)
}

#[derive(Copy, Clone, PartialEq)]
enum Plan {
    Decisive(Color),
    Agreed,
    Repetition,
}

fn one_game(rng: &mut Rng, n: u64, pgn: &mut String) {
    use std::fmt::Write as _;
    let (event, site) = *rng.pick(&EVENTS);
    let year = 1995 + rng.below(18);
    let (white, white_elo) = player(rng);
    let (black, black_elo) = player(rng);
    let low = f64::from(white_elo.min(black_elo));
    // Draw rate rising from about 20% at 1900 to about 60% at 2800.
    let p_draw = 0.2 + 0.4 * ((low - 1900.0) / 900.0);
    let plan = if rng.chance(p_draw) {
        if rng.chance(0.25) {
            Plan::Repetition
        } else {
            Plan::Agreed
        }
    } else if rng.chance(0.55) {
        Plan::Decisive(Color::White)
    } else {
        Plan::Decisive(Color::Black)
    };
    let length = 20 + rng.below(100) as u32 + rng.below(40) as u32;

    let mut pos = Chess::default();
    let mut moves: Vec<SanPlus> = Vec::with_capacity(length as usize + 8);
    let mut outcome = None;
    for _ in 0..length {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        moves.push(SanPlus::from_move_and_play_unchecked(&mut pos, m));
        if pos.is_checkmate() {
            outcome = Some(Plan::Decisive(!pos.turn()));
            break;
        }
        if pos.is_stalemate() || pos.is_insufficient_material() {
            outcome = Some(Plan::Agreed);
            break;
        }
    }
    if outcome.is_none() && plan == Plan::Repetition && !repeat_three_times(&mut pos, &mut moves) {
        outcome = Some(Plan::Agreed);
    }
    let result = match outcome.unwrap_or(plan) {
        Plan::Decisive(Color::White) => "1-0",
        Plan::Decisive(Color::Black) => "0-1",
        Plan::Agreed | Plan::Repetition => "1/2-1/2",
    };
    let month = 1 + rng.below(12);
    let day = 1 + rng.below(28);
    let round = 1 + n % 13;
    let _ = write!(
        pgn,
        "[Event \"{event} {}\"]\n[Site \"{site}\"]\n[Date \"{year}.{month:02}.{day:02}\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n[{SYNTHETIC_TAG} \"remis generate: random legal moves, invented players\"]\n\n",
        1 + rng.below(20)
    );
    let mut line = 0;
    for (i, san) in moves.iter().enumerate() {
        let start = pgn.len();
        if i % 2 == 0 {
            let _ = write!(pgn, "{}. ", i / 2 + 1);
        }
        let _ = write!(pgn, "{san} ");
        line += pgn.len() - start;
        if line > 70 {
            pgn.push('\n');
            line = 0;
        }
    }
    pgn.push_str(result);
    pgn.push_str("\n\n");
}

/// Plays a reversible move and its reply back and forth until the position
/// has occurred three times (9.2). Returns false when no such pair exists.
fn repeat_three_times(pos: &mut Chess, moves: &mut Vec<SanPlus>) -> bool {
    let shuffle = |pos: &Chess| -> Option<Move> {
        pos.legal_moves()
            .into_iter()
            .find(|m| !pos.is_irreversible(*m) && matches!(m.role(), Role::Knight | Role::Rook))
    };
    for _ in 0..2 {
        let mut trial = pos.clone();
        let mut played = Vec::with_capacity(4);
        let Some(a) = shuffle(&trial) else {
            return false;
        };
        played.push(SanPlus::from_move_and_play_unchecked(&mut trial, a));
        let Some(b) = shuffle(&trial) else {
            return false;
        };
        played.push(SanPlus::from_move_and_play_unchecked(&mut trial, b));
        for back in [a, b] {
            let (Some(from), to) = (back.from(), back.to()) else {
                return false;
            };
            let reverse = trial
                .legal_moves()
                .into_iter()
                .find(|m| m.from() == Some(to) && m.to() == from && !m.is_capture());
            let Some(reverse) = reverse else {
                return false;
            };
            played.push(SanPlus::from_move_and_play_unchecked(&mut trial, reverse));
        }
        *pos = trial;
        moves.extend(played);
    }
    true
}
