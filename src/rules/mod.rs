//! The Laws of Chess as pure functions: no I/O, no PGN, no Parquet.
//!
//! Everything here takes a shakmaty position and the position history of a
//! game and answers a question the FIDE Laws (2018 text) ask. The order in
//! which [`classify`] consults the rules is documented in `docs/rules.md`.

mod ending;
mod facts;
mod history;
mod plus_remise;
mod record;

pub use ending::{DrawType, Ending};
pub use facts::BoardFacts;
pub use history::{PositionHistory, position_hash};
pub use plus_remise::{PlusRemise, material_points, plus_remise};
pub use record::{GameResult, Termination, TerminationDraw};

use shakmaty::Color;

/// What remis decided about one replayed game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Verdict {
    pub ending: Ending,
    /// The result tag disagrees with the board: a draw recorded on a mate, a
    /// win recorded in a dead or stalemated position, or a time forfeit won by
    /// a side that could not mate (art. 6.9).
    pub result_mismatch: bool,
}

/// Decides how a replayed game ended, in the precedence of `docs/rules.md`:
/// the board first (it ends the game by itself), then what the record says,
/// then claims the player to move could make, then agreement.
///
/// `automatic_draw_before` is a fivefold repetition or 75-move draw (9.6)
/// that happened before the final position while play went on: by the Laws
/// the game ended there.
pub fn classify(
    result: GameResult,
    termination: Termination,
    board: &BoardFacts,
    automatic_draw_before: Option<Ending>,
) -> Verdict {
    match result {
        GameResult::Unknown => Verdict {
            ending: Ending::Unfinished,
            result_mismatch: false,
        },
        GameResult::Win(winner) => {
            let mut verdict = classify_decisive(winner, termination, board);
            verdict.result_mismatch |= automatic_draw_before.is_some();
            verdict
        }
        GameResult::Draw => classify_draw(termination, board, automatic_draw_before),
    }
}

fn classify_decisive(winner: Color, termination: Termination, board: &BoardFacts) -> Verdict {
    if board.checkmate && board.side_to_move == !winner {
        return Verdict {
            ending: Ending::Checkmate,
            result_mismatch: false,
        };
    }
    // A game already over by rule cannot be won afterwards (5.1.1, 5.2, 9.6).
    let mut result_mismatch = board.checkmate || board.drawn_on_board();
    let ending = match termination {
        Termination::TimeForfeit => {
            // 6.9: a flag loses only if the opponent could still mate.
            result_mismatch |= board.cannot_mate(winner);
            Ending::TimeForfeit
        }
        Termination::Abandoned => Ending::Abandoned,
        Termination::RulesInfraction => Ending::RulesInfraction,
        Termination::Adjudication => Ending::Adjudication,
        _ => Ending::Resignation,
    };
    Verdict {
        ending,
        result_mismatch,
    }
}

fn classify_draw(
    termination: Termination,
    board: &BoardFacts,
    automatic_draw_before: Option<Ending>,
) -> Verdict {
    let result_mismatch = board.checkmate;
    let verdict = |ending| Verdict {
        ending,
        result_mismatch,
    };
    // 1. The board ended the game by itself.
    if !board.checkmate {
        if board.stalemate {
            return verdict(Ending::Stalemate);
        }
        if board.insufficient_material {
            return verdict(Ending::InsufficientMaterial);
        }
        if board.fivefold {
            return verdict(Ending::FivefoldRepetition);
        }
        if board.seventy_five_moves {
            return verdict(Ending::SeventyFiveMoves);
        }
    }
    if let Some(ending) = automatic_draw_before {
        return verdict(ending);
    }
    // 2. The record says how the draw happened.
    match termination {
        Termination::TimeForfeit | Termination::TimeoutVsInsufficientMaterial => {
            return Verdict {
                ending: Ending::TimeoutVsInsufficientMaterial,
                // 6.9: the flag of the player to move fell; the game is drawn
                // only if the opponent could not mate by any legal moves.
                result_mismatch: result_mismatch || !board.cannot_mate(!board.side_to_move),
            };
        }
        Termination::DrawnBy(kind) => return verdict(kind.ending()),
        Termination::Abandoned => return verdict(Ending::Abandoned),
        Termination::RulesInfraction => return verdict(Ending::RulesInfraction),
        Termination::Adjudication => return verdict(Ending::Adjudication),
        Termination::Normal | Termination::Unterminated => {}
    }
    // 3. A claim the player to move could make (9.2, 9.3).
    if board.threefold_claimable {
        return verdict(Ending::ThreefoldRepetition);
    }
    if board.fifty_claimable {
        return verdict(Ending::FiftyMoves);
    }
    // 4. Anything else was agreed (9.1).
    verdict(Ending::Agreed)
}
