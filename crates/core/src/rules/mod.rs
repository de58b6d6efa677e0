//! The Laws of Chess as pure functions: no I/O, no PGN, no Parquet.
//!
//! Everything here takes a shakmaty position and the position history of a
//! game and answers a question the FIDE Laws (2018 text) ask. The order in
//! which [`classify`] consults the rules is documented in `docs/rules.md`.
//! Dead positions and mating chances are found by search (`dead.rs`).

mod arbiter;
mod dead;
mod ending;
mod facts;
mod history;
mod plus_remise;
mod record;

pub use arbiter::{Arbiter, Ruling};
pub use dead::{Deadness, Mate, SearchOptions, can_mate, can_mate_after_flag, deadness, helpmate};
pub use ending::{DrawType, Ending};
pub use facts::BoardFacts;
pub use history::{PositionHistory, position_hash};
pub use plus_remise::{PlusRemise, material_points, plus_remise};
pub use record::{GameResult, MAX_WORDING_BYTES, Termination, TerminationDraw, Wording};

use shakmaty::Color;

/// An event that ends a game by itself, whatever is played afterwards
/// (5.1.1, 5.2.1, 5.2.2, 9.6): the first one decides.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd)]
pub enum Event {
    // Ordered by precedence when two happen at the same ply: a mate on the
    // move that completes 75 moves wins (9.6.2).
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    DeadPosition,
    FivefoldRepetition,
    SeventyFiveMoves,
}

impl Event {
    /// The `first_event` column value: the name of its ending.
    #[inline]
    pub const fn as_str(self) -> &'static str {
        self.ending().as_str()
    }

    pub const fn ending(self) -> Ending {
        match self {
            Event::Checkmate => Ending::Checkmate,
            Event::Stalemate => Ending::Stalemate,
            Event::InsufficientMaterial => Ending::InsufficientMaterial,
            Event::DeadPosition => Ending::DeadPosition,
            Event::FivefoldRepetition => Ending::FivefoldRepetition,
            Event::SeventyFiveMoves => Ending::SeventyFiveMoves,
        }
    }

    /// The first of two events: the earlier ply, then precedence.
    pub fn first(a: Option<(u32, Event)>, b: Option<(u32, Event)>) -> Option<(u32, Event)> {
        match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, None) => x,
            (None, y) => y,
        }
    }
}

/// 9.6.2: 75 moves by each side without a pawn move or capture end the
/// game, unless the last of them mated. The one statement of that rule.
/// `checkmate` is asked only past 150 halfmoves: the replay asks after
/// every move, and a mate test costs a move generation.
#[inline]
pub fn seventy_five_moves(halfmove_clock: u32, checkmate: impl FnOnce() -> bool) -> bool {
    halfmove_clock >= 150 && !checkmate()
}

/// 9.6.1: the same position for at least the fifth time ends the game.
/// The one statement of that rule; `occurrences` counts the position
/// itself.
#[inline]
pub const fn fivefold(occurrences: u32) -> bool {
    occurrences >= 5
}

/// Why a recorded result contradicts the Laws.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Mismatch {
    /// A win recorded after the game had ended in a draw (stalemate, dead
    /// position, fivefold repetition, 75 moves).
    WinAfterDraw,
    /// The recorded winner is the one checkmated.
    WinnerMated,
    /// A draw recorded on a checkmate.
    DrawOnMate,
    /// A win on time by a side that could not mate (6.9).
    WinOnTimeWithoutMate,
    /// A draw on time although the opponent of the flagged player could
    /// mate (6.9).
    DrawOnTimeWithMate,
}

impl Mismatch {
    pub const ALL: [Mismatch; 5] = [
        Mismatch::WinAfterDraw,
        Mismatch::WinnerMated,
        Mismatch::DrawOnMate,
        Mismatch::WinOnTimeWithoutMate,
        Mismatch::DrawOnTimeWithMate,
    ];

    /// The `mismatch_reason` column value.
    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            Mismatch::WinAfterDraw => "win_after_draw",
            Mismatch::WinnerMated => "winner_mated",
            Mismatch::DrawOnMate => "draw_on_mate",
            Mismatch::WinOnTimeWithoutMate => "win_on_time_without_mate",
            Mismatch::DrawOnTimeWithMate => "draw_on_time_with_mate",
        }
    }

    pub fn from_name(name: &str) -> Option<Mismatch> {
        Mismatch::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// A heading for reports.
    pub const fn label(self) -> &'static str {
        match self {
            Mismatch::WinAfterDraw => "Win recorded after the game had ended in a draw",
            Mismatch::WinnerMated => "Win recorded for the side that was checkmated",
            Mismatch::DrawOnMate => "Draw recorded on a checkmate",
            Mismatch::WinOnTimeWithoutMate => "Win on time by a side that could not mate (6.9)",
            Mismatch::DrawOnTimeWithMate => "Draw on time although the opponent could mate (6.9)",
        }
    }
}

/// What remis decided about one replayed game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Verdict {
    /// How the game ended under the Laws.
    pub ending: Ending,
    /// Why the recorded result contradicts the Laws, if it does.
    pub mismatch: Option<Mismatch>,
    /// The result the Laws give: the recorded one unless it contradicts
    /// them. `None` for unfinished games.
    pub law_result: Option<GameResult>,
}

/// Everything the decision looks at, besides the record.
#[derive(Copy, Clone, Debug)]
pub struct Facts<'a> {
    pub board: &'a BoardFacts,
    /// The first event that ended the game by itself, and its ply.
    pub first_event: Option<(u32, Event)>,
    /// After a flag fall: could the flagged player's opponent still mate
    /// (6.9)? `None` when the game did not end on time.
    pub flag_opponent: Option<Mate>,
    /// The side whose flag fell, when the record names it ("Black ran out
    /// of time …"). Otherwise a draw on time presumes the player to move.
    pub flagged: Option<Color>,
}

/// Decides how a replayed game ended, in the precedence of `docs/rules.md`:
/// the first event that ended the game by itself, then what the record
/// says, then claims the player to move could make, then agreement.
pub fn classify(result: GameResult, termination: Termination, facts: &Facts<'_>) -> Verdict {
    let verdict = |ending, mismatch: Option<Mismatch>, law_result| Verdict {
        ending,
        mismatch,
        law_result: Some(if mismatch.is_some() {
            law_result
        } else {
            result
        }),
    };
    let mated_side = facts.board.side_to_move;
    match (result, facts.first_event) {
        (GameResult::Unknown, _) => Verdict {
            ending: Ending::Unfinished,
            mismatch: None,
            law_result: None,
        },
        (GameResult::Win(winner), Some((_, Event::Checkmate))) => {
            let mismatch = (winner == mated_side).then_some(Mismatch::WinnerMated);
            verdict(Ending::Checkmate, mismatch, GameResult::Win(!mated_side))
        }
        (GameResult::Draw, Some((_, Event::Checkmate))) => verdict(
            Ending::Checkmate,
            Some(Mismatch::DrawOnMate),
            GameResult::Win(!mated_side),
        ),
        (GameResult::Win(_), Some((_, event))) => verdict(
            event.ending(),
            Some(Mismatch::WinAfterDraw),
            GameResult::Draw,
        ),
        (GameResult::Draw, Some((_, event))) => verdict(event.ending(), None, GameResult::Draw),
        (GameResult::Win(winner), None) => classify_decisive(winner, termination, facts),
        (GameResult::Draw, None) => classify_draw(termination, facts),
    }
}

fn classify_decisive(winner: Color, termination: Termination, facts: &Facts<'_>) -> Verdict {
    let result = Some(GameResult::Win(winner));
    let ending = match termination {
        Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => {
            // 6.9: a flag fall loses only if the opponent could still mate.
            if facts.flag_opponent == Some(Mate::Impossible) {
                return Verdict {
                    ending: Ending::TimeoutVsInsufficientMaterial,
                    mismatch: Some(Mismatch::WinOnTimeWithoutMate),
                    law_result: Some(GameResult::Draw),
                };
            }
            Ending::TimeForfeit
        }
        Termination::Abandoned => Ending::Abandoned,
        Termination::RulesInfraction => Ending::RulesInfraction,
        Termination::Adjudication => Ending::Adjudication,
        _ => Ending::Resignation,
    };
    Verdict {
        ending,
        mismatch: None,
        law_result: result,
    }
}

fn classify_draw(termination: Termination, facts: &Facts<'_>) -> Verdict {
    let board = facts.board;
    let verdict = |ending| Verdict {
        ending,
        mismatch: None,
        law_result: Some(GameResult::Draw),
    };
    // 1. The record says how the draw happened.
    match termination {
        Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => {
            // 6.9: the flag of the side the record names fell, else that of
            // the player to move; the game is drawn only if the opponent
            // could not mate by any legal moves.
            if facts.flag_opponent == Some(Mate::Possible) {
                let flagged = facts.flagged.unwrap_or(board.side_to_move);
                return Verdict {
                    ending: Ending::TimeoutVsInsufficientMaterial,
                    mismatch: Some(Mismatch::DrawOnTimeWithMate),
                    law_result: Some(GameResult::Win(!flagged)),
                };
            }
            return verdict(Ending::TimeoutVsInsufficientMaterial);
        }
        Termination::DrawnBy(kind) => return verdict(kind.ending()),
        Termination::Abandoned => return verdict(Ending::Abandoned),
        Termination::RulesInfraction => return verdict(Ending::RulesInfraction),
        Termination::Adjudication => return verdict(Ending::Adjudication),
        Termination::Normal | Termination::Unterminated => {}
    }
    // 2. A claim the player to move could make (9.2, 9.3).
    if board.threefold_claimable {
        return verdict(Ending::ThreefoldRepetition);
    }
    if board.fifty_claimable {
        return verdict(Ending::FiftyMoves);
    }
    // 3. Anything else was agreed (9.1).
    verdict(Ending::Agreed)
}
