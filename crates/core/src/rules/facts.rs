//! What the final position of a game says by itself, under the Laws.

use shakmaty::{Chess, Color, Position};

use super::PositionHistory;

/// The rules that hold in a game's final position. Kept apart from the
/// decision (see [`super::classify`]) so that an analyst can see overlaps:
/// an agreed draw in a position where threefold repetition was claimable.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct BoardFacts {
    pub side_to_move: Color,
    /// 5.1.1 / 5.2.1.
    pub checkmate: bool,
    pub stalemate: bool,
    /// Neither side has mating material (shakmaty's static test): K v K,
    /// K+minor v K, bishops all on one colour. Dead positions that only a
    /// search finds are in [`super::Deadness`].
    pub insufficient_material: bool,
    /// Legal moves of the side to move: few of them make a forced line.
    pub legal_moves: u16,
    pub halfmove_clock: u32,
    /// How often the final position has occurred, this time included.
    pub repetitions: u32,
    /// 9.6.1: the same position at least five times.
    pub fivefold: bool,
    /// 9.6.2: 75 moves by each side without pawn move or capture, unless the
    /// last move mated.
    pub seventy_five_moves: bool,
    /// 9.2: the final position occurred three times, or the player to move
    /// has a move that makes a position occur a third time (9.2.1.1).
    pub threefold_claimable: bool,
    /// 9.3: 50 moves by each side without pawn move or capture, or the player
    /// to move has a move that completes them (9.3.1).
    pub fifty_claimable: bool,
    /// The claims above hold only through a written, unplayed move.
    pub claim_needs_written_move: bool,
    /// Material points (queen 9, rook 5, minor 3, pawn 1, bishop pair 1).
    pub white_material: u8,
    pub black_material: u8,
    /// How plus-remise would decide the game if it were a draw.
    pub plus_remise: super::PlusRemise,
}

impl BoardFacts {
    pub fn of(pos: &Chess, history: &mut PositionHistory) -> BoardFacts {
        let moves = pos.legal_moves();
        let in_check = pos.is_check();
        let checkmate = moves.is_empty() && in_check;
        let stalemate = moves.is_empty() && !in_check;
        let halfmove_clock = pos.halfmoves();
        let repetitions = history.current_count(pos);

        let threefold_now = repetitions >= 3;
        // A written move can only repeat a position if it is reversible and
        // there are earlier positions with the same side to move after it.
        let threefold_by_move = !threefold_now
            && history.reversible_plies() >= 3
            && history.third_occurrence_possible()
            && moves.iter().any(|&m| {
                !pos.is_irreversible(m) && {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    history.count_after_move(&after) >= 3
                }
            });
        let fifty_now = halfmove_clock >= 100;
        let fifty_by_move =
            !fifty_now && halfmove_clock == 99 && moves.iter().any(|m| !m.is_zeroing());

        BoardFacts {
            side_to_move: pos.turn(),
            checkmate,
            stalemate,
            insufficient_material: pos.is_insufficient_material(),
            legal_moves: moves.len().min(usize::from(u16::MAX)) as u16,
            halfmove_clock,
            repetitions,
            fivefold: super::fivefold(repetitions),
            seventy_five_moves: super::seventy_five_moves(halfmove_clock, || checkmate),
            threefold_claimable: threefold_now || threefold_by_move,
            fifty_claimable: fifty_now || fifty_by_move,
            claim_needs_written_move: (threefold_by_move || fifty_by_move)
                && !(threefold_now || fifty_now),
            white_material: super::material_points(pos.board(), Color::White, 1).min(255) as u8,
            black_material: super::material_points(pos.board(), Color::Black, 1).min(255) as u8,
            plus_remise: super::plus_remise(pos.board()),
        }
    }

    /// The game was over on the board, drawn, whatever was recorded.
    pub fn drawn_on_board(&self) -> bool {
        self.stalemate || self.insufficient_material || self.fivefold || self.seventy_five_moves
    }
}
