//! Why a game ended as remis classified it: the trail an arbiter can
//! check, in the Laws' terms. The verdict is the replay's own (the same
//! code that wrote the table's row); the trail adds what it rests on: every
//! occurrence of a repeated position, where the 50- or 75-move count began
//! and ended, the written move of a claim, the final position, and for a
//! dead position or a flag fall what the search proved, with a helpmate
//! line as the certificate when a side can mate.

use shakmaty::{Chess, Color, EnPassantMode, Move, Position, fen::Fen, san::SanPlus};

use crate::input::{ColumnarSource, Input};
use crate::replay::Field;
use crate::rules::{
    Deadness, Ending, Event, GameResult, Mate, Mismatch, SearchOptions, deadness, helpmate,
    position_hash,
};

/// One step of the trail: a position of the game (or reached by a written,
/// unplayed move) and what the Laws make of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrailEvent {
    /// Half-moves from the game's start position (0 is the start
    /// position); a written move's position is one past the last ply.
    pub ply: u32,
    /// The move that reached the position, as written ("23...Kf7").
    pub san: Option<String>,
    pub fen: String,
    /// What the position is: "repetition (occurrence 2 of 3)",
    /// "fifty-move count starts", "checkmate", ...
    pub kind: String,
    pub note: String,
}

/// A series of legal moves in which a side mates: the proof that it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Helpmate {
    /// The side that mates ("white" or "black").
    pub side: &'static str,
    /// The position the line starts from.
    pub fen: String,
    pub san: Vec<String>,
}

/// A game's trail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trail {
    pub source: String,
    pub game_no: u64,
    pub white: Option<String>,
    pub black: Option<String>,
    pub event: Option<String>,
    pub date: Option<String>,
    /// The result as recorded, and as the Laws give it.
    pub recorded_result: Option<&'static str>,
    pub laws_result: Option<&'static str>,
    /// The table's `ending`.
    pub ending: &'static str,
    /// The article of the FIDE Laws (2018) that decides the ending.
    pub article: &'static str,
    /// Why the recorded result contradicts the Laws, if it does.
    pub mismatch: Option<&'static str>,
    pub plies: u32,
    pub start_fen: String,
    /// Every move played, in SAN, from the start position.
    pub moves: Vec<String>,
    pub events: Vec<TrailEvent>,
    pub helpmate: Option<Helpmate>,
    /// What the search proved when no line could be shown.
    pub proof: Option<String>,
    /// The verdict in one sentence.
    pub summary: String,
    /// Why the game could not be replayed, when it could not.
    pub error: Option<String>,
}

/// The article of the Laws behind an ending.
pub const fn article(ending: Ending) -> &'static str {
    match ending {
        Ending::Checkmate => "5.1.1",
        Ending::Resignation => "5.1.2",
        Ending::TimeForfeit | Ending::TimeoutVsInsufficientMaterial => "6.9",
        Ending::Stalemate => "5.2.1",
        Ending::InsufficientMaterial | Ending::DeadPosition => "5.2.2",
        Ending::Agreed => "9.1",
        Ending::ThreefoldRepetition => "9.2",
        Ending::FiftyMoves => "9.3",
        Ending::FivefoldRepetition => "9.6.1",
        Ending::SeventyFiveMoves => "9.6.2",
        Ending::Unfinished
        | Ending::Invalid
        | Ending::UnsupportedVariant
        | Ending::Abandoned
        | Ending::RulesInfraction
        | Ending::Adjudication => "–",
    }
}

/// Node budget of the search for a trail: one game, so it can afford the
/// reference budget (2^24, chasolver's own).
pub const EXPLAIN_NODES: u64 = 1 << 24;

/// The trails of games named by source (a path, or `path!member` inside
/// an archive) and number, each source read once up to its last game
/// asked for; `known` helps find sources named relative to another folder
/// (see [`locate`]). Games whose source cannot be read again (moved,
/// standard input) are left out.
pub fn explain_all(
    games: &[(String, u64)],
    known: &[String],
    tables: &dyn ColumnarSource,
    search: &SearchOptions,
) -> Vec<Trail> {
    let mut by_source: std::collections::BTreeMap<&str, std::collections::BTreeSet<u64>> =
        std::collections::BTreeMap::new();
    for (source, n) in games {
        by_source.entry(source).or_default().insert(*n);
    }
    let mut trails = std::collections::BTreeMap::new();
    for (source, wanted) in by_source {
        let (file, member) = match source.split_once('!') {
            Some((file, member)) => (file, Some(member)),
            None => (source, None),
        };
        if source == "-" {
            continue;
        }
        let Some(path) = locate(file, known) else {
            continue;
        };
        let input = Input::File(path);
        // The member exactly as the table names it: "a.pgn" is not the end
        // of "ba.pgn" here.
        let archive = format!("{}!", input.name());
        let select = |name: &str| match member {
            Some(member) => name.strip_prefix(&archive) == Some(member),
            None => true,
        };
        let (found, _) = find_games(&input, &select, &wanted, tables, search.clone());
        for (n, game) in found {
            let mut trail = explain(&game, n, search);
            // Named as the table names it, so that the page can match them.
            trail.source = source.to_string();
            trails.insert((source.to_string(), n), trail);
        }
    }
    games.iter().filter_map(|key| trails.remove(key)).collect()
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn side(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

fn result_str(r: Option<GameResult>) -> Option<&'static str> {
    r.map(GameResult::as_str)
}

/// The trail of a found game. `search` decides the dead positions and
/// mating chances asked again here (a larger budget than a run's changes
/// only answers the run left `unknown`).
pub fn explain(found: &Found, game_no: u64, search: &SearchOptions) -> Trail {
    let record = &found.record;
    let text = |f: Field| record.text.get(f).map(str::to_string);
    // Every position of the game and the move that reached it.
    let mut positions = Vec::with_capacity(found.moves.len() + 1);
    let mut sans: Vec<Option<String>> = Vec::with_capacity(found.moves.len() + 1);
    positions.push(found.start.clone());
    sans.push(None);
    for &m in &found.moves {
        let before = positions.last().expect("the start position is there");
        sans.push(Some(move_label(before, m)));
        let mut after = before.clone();
        after.play_unchecked(m);
        positions.push(after);
    }
    let last = positions.len() - 1;
    let final_pos = &positions[last];
    // Each position's repetition hash, once: the repetition rules compare
    // them over and over.
    let hashes: Vec<u64> = positions.iter().map(position_hash).collect();
    let event = |ply: usize, kind: String, note: String| TrailEvent {
        ply: ply as u32,
        san: sans[ply].clone(),
        fen: fen(&positions[ply]),
        kind,
        note,
    };
    let mut trail = Trail {
        source: found.source.clone(),
        game_no,
        white: text(Field::White),
        black: text(Field::Black),
        event: text(Field::Event),
        date: text(Field::Date),
        recorded_result: result_str(record.result),
        laws_result: result_str(record.law_result),
        ending: record.ending.as_str(),
        article: article(record.ending),
        mismatch: record.mismatch.map(Mismatch::as_str),
        plies: last as u32,
        start_fen: fen(&found.start),
        moves: {
            let mut at = found.start.clone();
            found
                .moves
                .iter()
                .map(|&m| SanPlus::from_move_and_play_unchecked(&mut at, m).to_string())
                .collect()
        },
        events: Vec::new(),
        helpmate: None,
        proof: None,
        summary: String::new(),
        error: record.error().map(str::to_string),
    };
    let first = record.first_event.map(|(ply, e)| (ply as usize, e));
    match record.ending {
        Ending::Checkmate => {
            trail.events.push(event(
                last,
                "checkmate".into(),
                format!("{} is checkmated", side(final_pos.turn())),
            ));
            trail.summary = format!("{} mated (5.1.1).", side(!final_pos.turn()));
        }
        Ending::Stalemate => {
            trail.events.push(event(
                last,
                "stalemate".into(),
                format!(
                    "{} to move has no legal move and is not in check",
                    side(final_pos.turn())
                ),
            ));
            trail.summary = "Stalemate: the game is drawn (5.2.1).".into();
        }
        Ending::FivefoldRepetition | Ending::ThreefoldRepetition => {
            let five = record.ending == Ending::FivefoldRepetition;
            let at = match first {
                Some((ply, Event::FivefoldRepetition)) if five => ply,
                _ => last,
            };
            let needed = if five { 5 } else { 3 };
            let seen = occurrences(&hashes, hashes[at], at);
            if seen.len() >= needed {
                let total = seen.len();
                for (k, &ply) in seen.iter().enumerate() {
                    trail.events.push(event(
                        ply,
                        format!("repetition (occurrence {} of {total})", k + 1),
                        "the same position: the same player to move, the same pieces on the same \
                         squares, the same castling and en-passant rights (9.2.2)"
                            .into(),
                    ));
                }
                similar(&mut trail.events, &positions, &sans, &positions[at], at);
                trail.summary = if five {
                    format!(
                        "The position occurred for the fifth time at ply {at}: the game ended there (9.6.1)."
                    )
                } else {
                    format!("The final position occurred {total} times: a draw by claim (9.2.1).")
                };
            } else if let Some((m, after)) = repeating_move(&positions, &hashes, last) {
                let written = move_label(final_pos, m);
                let mut ply_list = occurrences(&hashes, position_hash(&after), last);
                let total = ply_list.len() + 1;
                for (k, ply) in ply_list.drain(..).enumerate() {
                    trail.events.push(event(
                        ply,
                        format!("repetition (occurrence {} of {total})", k + 1),
                        "the position the written move would bring about".into(),
                    ));
                }
                trail.events.push(TrailEvent {
                    ply: last as u32 + 1,
                    san: Some(written.clone()),
                    fen: fen(&after),
                    kind: format!("repetition (occurrence {total} of {total}), by a written move"),
                    note:
                        "written on the scoresheet and not played: the claim rests on it (9.2.1.1)"
                            .into(),
                });
                similar(&mut trail.events, &positions, &sans, &after, last);
                trail.summary = format!(
                    "A claim with the written move {written}, which would make the position occur a third time (9.2.1.1)."
                );
            } else {
                trail.events.push(event(
                    last,
                    "final position".into(),
                    format!(
                        "it has occurred {} times",
                        occurrences(&hashes, hashes[last], last).len()
                    ),
                ));
                trail.summary =
                    "Recorded as a repetition (the Termination tag); the moves show no position \
                                 three times, nor a written move that would make one."
                        .into();
            }
        }
        Ending::FiftyMoves | Ending::SeventyFiveMoves => {
            let seventy_five = record.ending == Ending::SeventyFiveMoves;
            let at = match first {
                Some((ply, Event::SeventyFiveMoves)) if seventy_five => ply,
                _ => last,
            };
            let clock = positions[at].halfmoves() as usize;
            let start = at.saturating_sub(clock);
            let limit = if seventy_five { 150 } else { 100 };
            trail.events.push(event(
                start,
                format!("{}-move count starts", if seventy_five { 75 } else { 50 }),
                if clock > at {
                    format!(
                        "the count began before the record (the start position's clock is {})",
                        found.start.halfmoves()
                    )
                } else if start == 0 {
                    "the start position".into()
                } else {
                    "after the last pawn move or capture".into()
                },
            ));
            if clock >= limit {
                trail.events.push(event(
                    at,
                    format!("{} moves by each side completed", limit / 2),
                    format!("{clock} half-moves without a pawn move or capture"),
                ));
                trail.summary = if seventy_five {
                    format!(
                        "75 moves by each side without a pawn move or capture, completed at ply {at}: the game ended there (9.6.2)."
                    )
                } else {
                    "50 moves by each side without a pawn move or capture: a draw by claim (9.3.1)."
                        .into()
                };
            } else if let Some(m) = final_pos
                .legal_moves()
                .into_iter()
                .find(|m| !m.is_zeroing())
                .filter(|_| !seventy_five && clock + 1 == limit)
            {
                let mut after = final_pos.clone();
                after.play_unchecked(m);
                trail.events.push(TrailEvent {
                    ply: last as u32 + 1,
                    san: Some(move_label(final_pos, m)),
                    fen: fen(&after),
                    kind: "50 moves by each side completed, by a written move".into(),
                    note: "written on the scoresheet and not played: the claim rests on it (9.3.1)"
                        .into(),
                });
                trail.summary =
                    "A claim with a written move that completes 50 moves (9.3.1).".into();
            } else {
                trail.events.push(event(
                    last,
                    "final position".into(),
                    format!("{clock} half-moves without a pawn move or capture"),
                ));
                trail.summary = format!(
                    "Recorded as a {}-move draw (the Termination tag); the moves show {clock} half-moves \
                     without a pawn move or capture, not {limit}, nor a written move that completes them.",
                    limit / 2
                );
            }
        }
        Ending::InsufficientMaterial | Ending::DeadPosition => {
            let at = match first {
                Some((ply, Event::InsufficientMaterial | Event::DeadPosition)) => ply,
                _ => last,
            };
            let pos = &positions[at];
            let verdict = deadness(pos, pos.legal_moves().len(), search);
            let note = dead_note(pos, verdict, search);
            trail
                .events
                .push(event(at, "dead position".into(), note.clone()));
            trail.proof = Some(note);
            trail.summary = format!(
                "From ply {at} neither player can checkmate by any series of legal moves: the game ended there (5.2.2)."
            );
        }
        Ending::TimeForfeit | Ending::TimeoutVsInsufficientMaterial => {
            let opponent = match record.result {
                Some(GameResult::Win(winner)) => Some(winner),
                Some(GameResult::Draw) => Some(!final_pos.turn()),
                _ => None,
            };
            trail.events.push(event(
                last,
                "flag fall".into(),
                "the position when the flag fell".into(),
            ));
            if let Some(color) = opponent {
                explain_flag(&mut trail, final_pos, color, record.flag_opponent, search);
            }
        }
        Ending::Agreed => {
            trail.events.push(event(
                last,
                "final position".into(),
                "drawn by agreement".into(),
            ));
            // A repetition on the board that the Laws do not count: the
            // same pieces three times, but not the same position.
            let looks_alike = positions
                .iter()
                .filter(|p| p.turn() == final_pos.turn() && p.board() == final_pos.board())
                .count();
            if looks_alike >= 3 {
                let same = occurrences(&hashes, hashes[last], last);
                let total = same.len();
                for (k, &ply) in same.iter().enumerate().filter(|(_, p)| **p != last) {
                    trail.events.push(event(
                        ply,
                        format!(
                            "same as the final position (occurrence {} of {total})",
                            k + 1
                        ),
                        String::new(),
                    ));
                }
                similar(&mut trail.events, &positions, &sans, final_pos, last);
                trail.summary = format!(
                    "The same pieces stood on the same squares {looks_alike} times with the same player to move, \
                     but the position (9.2.2) occurred only {total} times: no threefold repetition. A draw by \
                     agreement (9.1)."
                );
                return finish(trail);
            }
            trail.summary =
                "No rule of the Laws ends the game here: a draw by agreement (9.1).".into();
        }
        Ending::Resignation => {
            trail.events.push(event(
                last,
                "final position".into(),
                "a player resigned".into(),
            ));
            trail.summary = "A player resigned (5.1.2).".into();
        }
        _ => {
            trail
                .events
                .push(event(last, "final position".into(), String::new()));
            trail.summary = format!("Recorded as {}.", record.ending.as_str().replace('_', " "));
        }
    }
    finish(trail)
}

/// The verdict's last words: the recorded result against the Laws'.
fn finish(mut trail: Trail) -> Trail {
    if let (Some(reason), Some(recorded), Some(laws)) =
        (trail.mismatch, trail.recorded_result, trail.laws_result)
    {
        trail.summary.push_str(&format!(
            " The record says {recorded}; the Laws give {laws} ({}).",
            reason.replace('_', " ")
        ));
    }
    trail
}

/// After a flag fall: the helpmate that shows `color` can mate, or what
/// the search proved.
fn explain_flag(
    trail: &mut Trail,
    pos: &Chess,
    color: Color,
    decided: Option<Mate>,
    search: &SearchOptions,
) {
    let name = side(color);
    if let Some(line) = helpmate(pos, color, search.deep_nodes.max(EXPLAIN_NODES)) {
        let mut at = pos.clone();
        let san = line
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut at, m).to_string())
            .collect();
        trail.helpmate = Some(Helpmate {
            side: name,
            fen: fen(pos),
            san,
        });
        trail.summary = format!(
            "The flag fell; {name} could still checkmate by a series of legal moves (the helpmate below), so the flag fall loses (6.9)."
        );
        return;
    }
    let proof = match decided {
        Some(Mate::Impossible) => {
            format!("the search exhausted every series of legal moves: {name} cannot checkmate")
        }
        Some(Mate::Unknown) | None => format!(
            "the search gave up within its budget: whether {name} can checkmate is not known"
        ),
        Some(Mate::Possible) => format!(
            "the classification's search found a helpmate for {name}; none was found again within {EXPLAIN_NODES} nodes"
        ),
        Some(Mate::Presumed) => format!(
            "not searched: {name} keeps a queen, rook or pawn in a position without frozen pawns, so {name} is \
             presumed able to mate, and the recorded win stands; no helpmate was found within {EXPLAIN_NODES} nodes \
             (`--search-everywhere` searches in full)"
        ),
    };
    trail.summary = match decided {
        Some(Mate::Impossible) => format!(
            "The flag fell, but {name} cannot checkmate by any series of legal moves: the game is drawn (6.9)."
        ),
        _ => "The flag fell (6.9).".into(),
    };
    trail.proof = Some(proof);
}

/// What makes a position dead, in words.
fn dead_note(pos: &Chess, verdict: Deadness, search: &SearchOptions) -> String {
    match verdict {
        Deadness::InsufficientMaterial => {
            "insufficient material: neither side has the pieces to mate (K v K, K and a minor piece v K, \
             bishops all on squares of one colour)"
                .into()
        }
        Deadness::DeadBySearch => {
            let white = crate::rules::can_mate(pos, Color::White, search);
            let black = crate::rules::can_mate(pos, Color::Black, search);
            format!(
                "dead by search: every series of legal moves was examined (white can mate: {}, black: {}); \
                 a forced line to stalemate or bare material counts too",
                white.as_str(),
                black.as_str()
            )
        }
        Deadness::Alive => "the search found a side that can still mate".into(),
        Deadness::PresumedAlive => {
            "not searched: a side keeps a queen, rook or pawn in a position without frozen pawns or forced \
             lines, so the position is presumed alive (`--search-everywhere` searches in full)"
                .into()
        }
        Deadness::Unknown => "the search gave up within its budget".into(),
    }
}

/// Positions up to ply `upto` that look like `target` (the same pieces on
/// the same squares, the same player to move) but are not the same
/// position under 9.2.2, each with why: the trail says why they did not
/// count. Kept in ply order among the events.
fn similar(
    events: &mut Vec<TrailEvent>,
    positions: &[Chess],
    sans: &[Option<String>],
    target: &Chess,
    upto: usize,
) {
    let hash = position_hash(target);
    for (ply, pos) in positions.iter().enumerate().take(upto + 1) {
        if pos.turn() != target.turn()
            || pos.board() != target.board()
            || position_hash(pos) == hash
        {
            continue;
        }
        let why = if pos.castles().castling_rights() != target.castles().castling_rights() {
            "castling rights differ"
        } else {
            "an en-passant capture was possible in one and not the other"
        };
        events.push(TrailEvent {
            ply: ply as u32,
            san: sans[ply].clone(),
            fen: fen(pos),
            kind: format!("similar position, not counted: {why}"),
            note: "the same pieces on the same squares, but not the same position (9.2.2)".into(),
        });
    }
    events.sort_by_key(|e| e.ply);
}

/// Plies up to `upto` whose position has the repetition hash `hash`: the
/// hash holds the side to move and the castling and en-passant rights
/// (9.2.2), so equal hashes are one position.
fn occurrences(hashes: &[u64], hash: u64, upto: usize) -> Vec<usize> {
    (0..=upto).filter(|&i| hashes[i] == hash).collect()
}

/// A legal move from the last position that makes a position occur for
/// the third time (9.2.1.1).
fn repeating_move(positions: &[Chess], hashes: &[u64], last: usize) -> Option<(Move, Chess)> {
    let pos = &positions[last];
    pos.legal_moves().into_iter().find_map(|m| {
        if pos.is_irreversible(m) {
            return None;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        (occurrences(hashes, position_hash(&after), last).len() + 1 >= 3).then_some((m, after))
    })
}

/// A move as written with its number: "23.Nf3" or "23...Kf7".
fn move_label(before: &Chess, m: Move) -> String {
    let number = before.fullmoves().get();
    let san = SanPlus::from_move(before.clone(), m);
    match before.turn() {
        Color::White => format!("{number}.{san}"),
        Color::Black => format!("{number}...{san}"),
    }
}

mod find;
pub use find::{FindError, Found, find_game, find_games, locate, names_source, resolve_source};

#[cfg(test)]
mod tests;
