//! Why a game ended as remis classified it: the trail an arbiter can
//! check, in the Laws' terms. The verdict is the replay's own (the same
//! code that wrote the table's row); the trail adds what it rests on: every
//! occurrence of a repeated position, where the 50- or 75-move count began
//! and ended, the written move of a claim, the final position, and for a
//! dead position or a flag fall what the search proved, with a helpmate
//! line as the certificate when a side can mate.
//!
//! The trail holds facts, typed ([`Step`], [`Verdict`], [`Proof`]): one
//! function per ending finds them, and remis-report's `render::explain`
//! puts them in words (text, JSON, HTML), so that no prose is written
//! here.

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
    /// What the position is under the Laws: facts, named; the renderer
    /// (remis-report's `render::explain`) puts them in words.
    pub step: Step,
}

/// What a position of the trail is under the Laws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `mated` is checkmated (5.1.1).
    Checkmate { mated: Color },
    /// `to_move` has no legal move and is not in check (5.2.1).
    Stalemate { to_move: Color },
    /// Occurrence `occurrence` of `total` of one position (9.2.2).
    Repetition {
        occurrence: usize,
        total: usize,
        seen: Occurrence,
    },
    /// The same pieces on the same squares as the repeated position, but
    /// not the same position under 9.2.2: not counted.
    NotTheSamePosition { differs: Difference },
    /// Under an agreed draw: an earlier occurrence of the final position.
    SameAsFinal { occurrence: usize, total: usize },
    /// Where the 50- or 75-move count (`moves`) began.
    CountStarts { moves: u32, from: CountStart },
    /// `moves` moves by each side completed: `halfmoves` without a pawn
    /// move or capture.
    CountCompleted { moves: u32, halfmoves: usize },
    /// 50 moves by each side completed by a written, unplayed move
    /// (9.3.1).
    FiftyByWrittenMove,
    /// Neither side can mate (5.2.2), and why.
    Dead(DeadReason),
    /// The position when the flag fell (6.9).
    FlagFall,
    /// The last position, and what little there is to say of it.
    Final(FinalNote),
}

/// How an occurrence of a repeated position came about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Occurrence {
    /// Played on the board.
    Played,
    /// Played, and the position a written move of the claim would bring
    /// about again.
    TargetOfWrittenMove,
    /// Brought about by the written, unplayed move of the claim
    /// (9.2.1.1).
    ByWrittenMove,
}

/// Why positions with the same pieces on the same squares and the same
/// side to move are not the same position (9.2.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    CastlingRights,
    EnPassant,
}

/// Where a move count began.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CountStart {
    /// Before the record: the set-up position's half-move clock.
    BeforeRecord { start_clock: u32 },
    /// At the start position.
    StartPosition,
    /// After the last pawn move or capture.
    AfterZeroing,
}

/// What the trail says of a final position that no rule decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FinalNote {
    /// Recorded as a repetition; the position occurred this many times.
    Occurred(usize),
    /// Recorded as a move-count draw; this many half-moves without a pawn
    /// move or capture.
    HalfMoves(usize),
    Agreed,
    Resigned,
    Unremarked,
}

/// Why a position is dead (5.2.2), or what is known of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeadReason {
    /// Neither side has the pieces to mate.
    InsufficientMaterial,
    /// Every series of legal moves was examined; what each side can do.
    DeadBySearch { white: Mate, black: Mate },
    /// The search found a side that can still mate.
    Alive,
    /// Not searched, and presumed alive.
    PresumedAlive,
    /// The search gave up within its budget.
    Unknown,
}

/// The verdict of a trail, as the renderer words it in one sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Mated {
        winner: Color,
    },
    Stalemate,
    /// The fifth occurrence, at `ply` (9.6.1).
    FifthOccurrence {
        ply: usize,
    },
    /// The final position occurred `total` times (9.2.1).
    ThreefoldClaim {
        total: usize,
    },
    /// A claim with the written move `written` (9.2.1.1).
    WrittenMoveRepetition {
        written: String,
    },
    /// Recorded as a repetition; the moves show none.
    RepetitionNotShown,
    /// 75 moves by each side completed at `ply` (9.6.2).
    SeventyFiveCompleted {
        ply: usize,
    },
    FiftyClaim,
    FiftyByWrittenMove,
    /// Recorded as a move-count draw of `limit` half-moves; the moves show
    /// `halfmoves`.
    CountNotShown {
        limit: usize,
        halfmoves: usize,
    },
    /// Dead from `ply` (5.2.2).
    Dead {
        ply: usize,
    },
    /// After the flag fell, `side` could still mate: the flag fall loses.
    FlagFallLoses {
        side: Color,
    },
    /// After the flag fell, `side` cannot mate: a draw.
    FlagFallDraws {
        side: Color,
    },
    /// The flag fell; nothing more is known.
    FlagFell,
    /// The flag fell, and no result says whose.
    FlagFallUnattributed,
    /// The same pieces `looks_alike` times, the same position `total`
    /// times: an agreed draw, not a repetition.
    LookAlikeAgreed {
        looks_alike: usize,
        total: usize,
    },
    Agreed,
    Resigned,
    /// Recorded so; the trail has nothing to add.
    Recorded(Ending),
}

/// What the search proved when no helpmate could be shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Of a dead position.
    Dead(DeadReason),
    /// Of a flag fall: whether `side` can mate, as the classification's
    /// search decided it.
    Flag { side: Color, decided: Option<Mate> },
}

/// A series of legal moves in which a side mates: the proof that it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Helpmate {
    /// The side that mates.
    pub side: Color,
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
    pub recorded_result: Option<GameResult>,
    pub laws_result: Option<GameResult>,
    /// The table's `ending`.
    pub ending: Ending,
    /// Why the recorded result contradicts the Laws, if it does.
    pub mismatch: Option<Mismatch>,
    pub plies: u32,
    pub start_fen: String,
    /// Every move played, in SAN, from the start position.
    pub moves: Vec<String>,
    pub events: Vec<TrailEvent>,
    pub helpmate: Option<Helpmate>,
    /// What the search proved when no line could be shown.
    pub proof: Option<Proof>,
    pub verdict: Verdict,
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

/// The game replayed for its trail: every position, the move that reached
/// it as written, and its repetition hash (the rules compare them over
/// and over).
struct Played<'a> {
    found: &'a Found,
    positions: Vec<Chess>,
    sans: Vec<Option<String>>,
    hashes: Vec<u64>,
}

impl<'a> Played<'a> {
    fn of(found: &'a Found) -> Played<'a> {
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
        let hashes = positions.iter().map(position_hash).collect();
        Played {
            found,
            positions,
            sans,
            hashes,
        }
    }

    /// The last ply, and its position.
    fn last(&self) -> usize {
        self.positions.len() - 1
    }

    fn final_position(&self) -> &Chess {
        &self.positions[self.last()]
    }

    /// The position at `ply`, as a step of the trail.
    fn event(&self, ply: usize, step: Step) -> TrailEvent {
        TrailEvent {
            ply: ply as u32,
            san: self.sans[ply].clone(),
            fen: fen(&self.positions[ply]),
            step,
        }
    }

    /// The position a written, unplayed move `m` brings about after the
    /// last ply.
    fn written(&self, m: Move, after: &Chess, step: Step) -> TrailEvent {
        TrailEvent {
            ply: self.last() as u32 + 1,
            san: Some(move_label(self.final_position(), m)),
            fen: fen(after),
            step,
        }
    }

    /// The first event of the game the replay found, if it is one of
    /// `events`.
    fn first_event(&self, events: &[Event]) -> Option<usize> {
        self.found
            .record
            .first_event
            .filter(|(_, e)| events.contains(e))
            .map(|(ply, _)| ply as usize)
    }
}

/// The trail of a found game. `search` decides the dead positions and
/// mating chances asked again here (a larger budget than a run's changes
/// only answers the run left `unknown`).
pub fn explain(found: &Found, game_no: u64, search: &SearchOptions) -> Trail {
    let record = &found.record;
    let text = |f: Field| record.text.get(f).map(str::to_string);
    let game = Played::of(found);
    let mut trail = Trail {
        source: found.source.clone(),
        game_no,
        white: text(Field::White),
        black: text(Field::Black),
        event: text(Field::Event),
        date: text(Field::Date),
        recorded_result: record.result,
        laws_result: record.law_result,
        ending: record.ending,
        mismatch: record.mismatch,
        plies: game.last() as u32,
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
        verdict: Verdict::Recorded(record.ending),
        error: record.error().map(str::to_string),
    };
    match record.ending {
        Ending::Checkmate => checkmate(&mut trail, &game),
        Ending::Stalemate => stalemate(&mut trail, &game),
        Ending::FivefoldRepetition | Ending::ThreefoldRepetition => repetition(&mut trail, &game),
        Ending::FiftyMoves | Ending::SeventyFiveMoves => move_count(&mut trail, &game),
        Ending::InsufficientMaterial | Ending::DeadPosition => dead(&mut trail, &game, search),
        Ending::TimeForfeit | Ending::TimeoutVsInsufficientMaterial => {
            flag_fall(&mut trail, &game, search)
        }
        Ending::Agreed => agreed(&mut trail, &game),
        Ending::Resignation => {
            let last = game.last();
            trail
                .events
                .push(game.event(last, Step::Final(FinalNote::Resigned)));
            trail.verdict = Verdict::Resigned;
        }
        _ => {
            let last = game.last();
            trail
                .events
                .push(game.event(last, Step::Final(FinalNote::Unremarked)));
        }
    }
    trail
}

fn checkmate(trail: &mut Trail, game: &Played) {
    let turn = game.final_position().turn();
    trail
        .events
        .push(game.event(game.last(), Step::Checkmate { mated: turn }));
    trail.verdict = Verdict::Mated { winner: !turn };
}

fn stalemate(trail: &mut Trail, game: &Played) {
    let to_move = game.final_position().turn();
    trail
        .events
        .push(game.event(game.last(), Step::Stalemate { to_move }));
    trail.verdict = Verdict::Stalemate;
}

/// Every occurrence of the repeated position; for a claim, the written
/// move that makes the third; else the final position's count.
fn repetition(trail: &mut Trail, game: &Played) {
    let five = trail.ending == Ending::FivefoldRepetition;
    let last = game.last();
    let at = match game.first_event(&[Event::FivefoldRepetition]) {
        Some(ply) if five => ply,
        _ => last,
    };
    let needed = if five { 5 } else { 3 };
    let seen = occurrences(&game.hashes, game.hashes[at], at);
    if seen.len() >= needed {
        let total = seen.len();
        for (k, &ply) in seen.iter().enumerate() {
            trail.events.push(game.event(
                ply,
                Step::Repetition {
                    occurrence: k + 1,
                    total,
                    seen: Occurrence::Played,
                },
            ));
        }
        similar(&mut trail.events, game, &game.positions[at], at);
        trail.verdict = if five {
            Verdict::FifthOccurrence { ply: at }
        } else {
            Verdict::ThreefoldClaim { total }
        };
    } else if let Some((m, after)) = repeating_move(&game.positions, &game.hashes, last) {
        let ply_list = occurrences(&game.hashes, position_hash(&after), last);
        let total = ply_list.len() + 1;
        for (k, ply) in ply_list.into_iter().enumerate() {
            trail.events.push(game.event(
                ply,
                Step::Repetition {
                    occurrence: k + 1,
                    total,
                    seen: Occurrence::TargetOfWrittenMove,
                },
            ));
        }
        trail.events.push(game.written(
            m,
            &after,
            Step::Repetition {
                occurrence: total,
                total,
                seen: Occurrence::ByWrittenMove,
            },
        ));
        similar(&mut trail.events, game, &after, last);
        trail.verdict = Verdict::WrittenMoveRepetition {
            written: move_label(game.final_position(), m),
        };
    } else {
        let occurred = occurrences(&game.hashes, game.hashes[last], last).len();
        trail
            .events
            .push(game.event(last, Step::Final(FinalNote::Occurred(occurred))));
        trail.verdict = Verdict::RepetitionNotShown;
    }
}

/// Where the 50- or 75-move count began and where it completed; for a
/// claim, the written move that completes it.
fn move_count(trail: &mut Trail, game: &Played) {
    let seventy_five = trail.ending == Ending::SeventyFiveMoves;
    let last = game.last();
    let at = match game.first_event(&[Event::SeventyFiveMoves]) {
        Some(ply) if seventy_five => ply,
        _ => last,
    };
    let clock = game.positions[at].halfmoves() as usize;
    let start = at.saturating_sub(clock);
    let limit = if seventy_five { 150 } else { 100 };
    let from = if clock > at {
        CountStart::BeforeRecord {
            start_clock: game.found.start.halfmoves(),
        }
    } else if start == 0 {
        CountStart::StartPosition
    } else {
        CountStart::AfterZeroing
    };
    trail.events.push(game.event(
        start,
        Step::CountStarts {
            moves: limit as u32 / 2,
            from,
        },
    ));
    let final_pos = game.final_position();
    if clock >= limit {
        trail.events.push(game.event(
            at,
            Step::CountCompleted {
                moves: limit as u32 / 2,
                halfmoves: clock,
            },
        ));
        trail.verdict = if seventy_five {
            Verdict::SeventyFiveCompleted { ply: at }
        } else {
            Verdict::FiftyClaim
        };
    } else if let Some(m) = final_pos
        .legal_moves()
        .into_iter()
        .find(|m| !m.is_zeroing())
        .filter(|_| !seventy_five && clock + 1 == limit)
    {
        let mut after = final_pos.clone();
        after.play_unchecked(m);
        trail
            .events
            .push(game.written(m, &after, Step::FiftyByWrittenMove));
        trail.verdict = Verdict::FiftyByWrittenMove;
    } else {
        trail
            .events
            .push(game.event(last, Step::Final(FinalNote::HalfMoves(clock))));
        trail.verdict = Verdict::CountNotShown {
            limit,
            halfmoves: clock,
        };
    }
}

/// The first dead position, and what makes it dead.
fn dead(trail: &mut Trail, game: &Played, search: &SearchOptions) {
    let at = game
        .first_event(&[Event::InsufficientMaterial, Event::DeadPosition])
        .unwrap_or(game.last());
    let pos = &game.positions[at];
    let reason = dead_reason(pos, deadness(pos, pos.legal_moves().len(), search), search);
    trail.events.push(game.event(at, Step::Dead(reason)));
    trail.proof = Some(Proof::Dead(reason));
    trail.verdict = Verdict::Dead { ply: at };
}

/// The position when the flag fell, and whether the opponent could mate.
fn flag_fall(trail: &mut Trail, game: &Played, search: &SearchOptions) {
    let final_pos = game.final_position();
    let opponent = match trail.recorded_result {
        Some(GameResult::Win(winner)) => Some(winner),
        Some(GameResult::Draw) => Some(!final_pos.turn()),
        _ => None,
    };
    trail.events.push(game.event(game.last(), Step::FlagFall));
    trail.verdict = Verdict::FlagFallUnattributed;
    if let Some(color) = opponent {
        explain_flag(
            trail,
            final_pos,
            color,
            game.found.record.flag_opponent,
            search,
        );
    }
}

/// An agreed draw, and a repetition on the board that the Laws do not
/// count: the same pieces three times, but not the same position.
fn agreed(trail: &mut Trail, game: &Played) {
    let last = game.last();
    let final_pos = game.final_position();
    trail
        .events
        .push(game.event(last, Step::Final(FinalNote::Agreed)));
    let looks_alike = game
        .positions
        .iter()
        .filter(|p| p.turn() == final_pos.turn() && p.board() == final_pos.board())
        .count();
    if looks_alike < 3 {
        trail.verdict = Verdict::Agreed;
        return;
    }
    let same = occurrences(&game.hashes, game.hashes[last], last);
    let total = same.len();
    for (k, &ply) in same.iter().enumerate().filter(|(_, p)| **p != last) {
        trail.events.push(game.event(
            ply,
            Step::SameAsFinal {
                occurrence: k + 1,
                total,
            },
        ));
    }
    similar(&mut trail.events, game, final_pos, last);
    trail.verdict = Verdict::LookAlikeAgreed { looks_alike, total };
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
    if let Some(line) = helpmate(pos, color, search.deep_nodes.max(EXPLAIN_NODES)) {
        let mut at = pos.clone();
        let san = line
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut at, m).to_string())
            .collect();
        trail.helpmate = Some(Helpmate {
            side: color,
            fen: fen(pos),
            san,
        });
        trail.verdict = Verdict::FlagFallLoses { side: color };
        return;
    }
    trail.verdict = match decided {
        Some(Mate::Impossible) => Verdict::FlagFallDraws { side: color },
        _ => Verdict::FlagFell,
    };
    trail.proof = Some(Proof::Flag {
        side: color,
        decided,
    });
}

/// What makes a position dead.
fn dead_reason(pos: &Chess, verdict: Deadness, search: &SearchOptions) -> DeadReason {
    match verdict {
        Deadness::InsufficientMaterial => DeadReason::InsufficientMaterial,
        Deadness::DeadBySearch => DeadReason::DeadBySearch {
            white: crate::rules::can_mate(pos, Color::White, search),
            black: crate::rules::can_mate(pos, Color::Black, search),
        },
        Deadness::Alive => DeadReason::Alive,
        Deadness::PresumedAlive => DeadReason::PresumedAlive,
        Deadness::Unknown => DeadReason::Unknown,
    }
}

/// Positions up to ply `upto` that look like `target` (the same pieces on
/// the same squares, the same player to move) but are not the same
/// position under 9.2.2, each with why: the trail says why they did not
/// count. Kept in ply order among the events.
fn similar(events: &mut Vec<TrailEvent>, game: &Played, target: &Chess, upto: usize) {
    let hash = position_hash(target);
    for (ply, pos) in game.positions.iter().enumerate().take(upto + 1) {
        if pos.turn() != target.turn()
            || pos.board() != target.board()
            || position_hash(pos) == hash
        {
            continue;
        }
        let differs = if pos.castles().castling_rights() != target.castles().castling_rights() {
            Difference::CastlingRights
        } else {
            Difference::EnPassant
        };
        events.push(game.event(ply, Step::NotTheSamePosition { differs }));
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
