//! A chess helpmate solver and unwinnability detector.
//!
//! Given a position and an intended winner, determines whether a helpmate is
//! achievable (a sequence of legal moves ending in checkmate by the intended
//! winner) or proves that none exists.
//!
//! Note that in a helpmate both players cooperate toward that goal: the
//! intended winner delivers checkmate, but not necessarily by force.
//!
//! See the [README](https://github.com/miguel-ambrona/chasolver#readme) for
//! the background motivating this crate, and for usage examples.

// Not part of the public API; keeps the README's usage example under test
// without rendering the whole README as a docs.rs page.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod deduction;
mod search;
mod utils;
mod winnability;

use chess::{Board, ChessMove, Color};
use winnability::{fast, full};

/// Result of a [`winnability`] analysis for the intended winner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Winnability {
    /// Helpmate is achievable for the intended winner; `helpmate` is a
    /// possible sequence of moves leading to checkmate.
    Winnable { helpmate: Vec<ChessMove> },

    /// Helpmate is provably impossible for the intended winner.
    Unwinnable,
}

/// Full helpmate search for `intended_winner`.
///
/// Returns `Some` result if the analysis is successful:
/// - [`Winnability::Winnable`] if the position is winnable for the intended
///   winner, together with a supporting helpmate sequence.
///
/// - [`Winnability::Unwinnable`] if no helpmate exists.
///
/// Returns `None` if winnability could not be decided on this position.
pub fn winnability(board: &Board, intended_winner: Color) -> Option<Winnability> {
    winnability_within(board, intended_winner, DEEP_SEARCH_NODES)
}

/// The node budget of the last, guided deep search phase of [`winnability`].
pub const DEEP_SEARCH_NODES: u64 = 1 << 24;

/// [`winnability`] with the budget of its last, guided deep search phase
/// set by the caller (remis: vendored change, see REMIS.md). The earlier
/// phases keep their own fixed budgets.
pub fn winnability_within(
    board: &Board,
    intended_winner: Color,
    deep_search_nodes: u64,
) -> Option<Winnability> {
    match intended_winner {
        Color::White => full::analysis(board, deep_search_nodes),
        Color::Black => {
            let flipped_board = utils::mirror_board(board);
            let result = full::analysis(&flipped_board, deep_search_nodes);
            result.map(utils::mirror_moves)
        }
    }
}

/// Fast but incomplete check for unwinnability; cheaper than [`winnability`]
/// when a mating line isn't needed.
///
/// Returns `true` if the position is provably unwinnable for `intended_winner`,
/// `false` if the analysis is inconclusive (the position may still be
/// unwinnable).
pub fn is_unwinnable_fast(board: &Board, intended_winner: Color) -> bool {
    match intended_winner {
        Color::White => fast::is_unwinnable(board),
        Color::Black => fast::is_unwinnable(&utils::mirror_board(board)),
    }
}

/// [`is_unwinnable_fast`] with at most `nodes` positions visited by its
/// full-width searches: past the budget the answer is `false`
/// (inconclusive). Also returns the positions visited. (Added by remis.)
pub fn is_unwinnable_fast_within(board: &Board, intended_winner: Color, nodes: u64) -> (bool, u64) {
    match intended_winner {
        Color::White => fast::is_unwinnable_within(board, nodes),
        Color::Black => fast::is_unwinnable_within(&utils::mirror_board(board), nodes),
    }
}

/// A short first try at a helpmate for `intended_winner` (added by remis):
/// the iterative deepening of [`winnability`]'s fourth phase (its move
/// classes and transposition table) from depth 2 to `max_depth`, with at
/// most `nodes_per_depth` positions for each ply of depth instead of that
/// phase's 7,000. `Some` is a helpmate found; `None` proves nothing, not
/// even that there is none.
pub fn quick_helpmate(
    board: &Board,
    intended_winner: Color,
    nodes_per_depth: u64,
    max_depth: u8,
) -> Option<Vec<ChessMove>> {
    let found = match intended_winner {
        Color::White => full::quick_helpmate(board, nodes_per_depth, max_depth),
        Color::Black => {
            let flipped_board = utils::mirror_board(board);
            full::quick_helpmate(&flipped_board, nodes_per_depth, max_depth)
                .map(utils::mirror_moves)
        }
    };
    match found {
        Some(Winnability::Winnable { helpmate }) => Some(helpmate),
        _ => None,
    }
}
