//! Plus-remise: a scoring proposal in which no game is drawn. When classical
//! chess would score a game as a draw, the final position's material decides
//! (the proposal this follows is set out in `docs/rules.md`, Plus-remise):
//!
//! 1. Count material: queen 9, rook 5, bishop 3, knight 3, pawn 1, and one
//!    more for the bishop pair. More points wins.
//! 2. If equal, count again with every pawn worth 2.
//! 3. If still equal, Black wins: White had the first move.
//!
//! The bishop pair here is a bishop on a light square and one on a dark
//! square: two bishops on one colour (after an underpromotion) are no pair.

use shakmaty::{Bitboard, Board, Color};

/// Which rule decided a plus-remise, and the points it compared. For rule 3
/// the points are those of rule 2 with Black's extra point added, as in the
/// proposal's example (14–14 becomes 14–15).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct PlusRemise {
    pub winner: Color,
    pub rule: u8,
    pub white_points: u32,
    pub black_points: u32,
}

/// Material points of one side, pawns counted at `pawn_value`.
pub fn material_points(board: &Board, color: Color, pawn_value: u32) -> u32 {
    let ours = board.by_color(color);
    let count = |pieces: Bitboard| (pieces & ours).count() as u32;
    let bishops = board.bishops() & ours;
    let pair =
        (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any();
    9 * count(board.queens())
        + 5 * count(board.rooks())
        + 3 * count(board.bishops())
        + 3 * count(board.knights())
        + pawn_value * count(board.pawns())
        + u32::from(pair)
}

/// Decides a game that classical chess scores as a draw.
pub fn plus_remise(board: &Board) -> PlusRemise {
    for (rule, pawn_value) in [(1, 1), (2, 2)] {
        let white = material_points(board, Color::White, pawn_value);
        let black = material_points(board, Color::Black, pawn_value);
        if white != black {
            return PlusRemise {
                winner: if white > black {
                    Color::White
                } else {
                    Color::Black
                },
                rule,
                white_points: white,
                black_points: black,
            };
        }
    }
    let points = material_points(board, Color::White, 2);
    PlusRemise {
        winner: Color::Black,
        rule: 3,
        white_points: points,
        black_points: points + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().as_setup().board.clone()
    }

    #[test]
    fn seed_example_bishop_against_three_pawns() {
        // The proposal's rule-2 example: White keeps a bishop, Black three
        // pawns. 3–3 by rule 1, then 3–6 with pawns doubled: Black wins.
        let b = board("8/8/1p6/1p6/1p6/8/2K5/k1B5 w - - 0 1");
        let d = plus_remise(&b);
        assert_eq!(
            d,
            PlusRemise {
                winner: Color::Black,
                rule: 2,
                white_points: 3,
                black_points: 6
            }
        );
        assert_eq!(material_points(&b, Color::White, 1), 3);
        assert_eq!(material_points(&b, Color::Black, 1), 3);
    }

    #[test]
    fn seed_example_bishop_against_two_pawns() {
        // Rule 1: after Kxb5 White has a bishop, Black two pawns: 3–2.
        let b = board("8/k7/8/1K6/1p6/1p6/8/2B5 b - - 0 1");
        let d = plus_remise(&b);
        assert_eq!(
            (d.winner, d.rule, d.white_points, d.black_points),
            (Color::White, 1, 3, 2)
        );
    }

    #[test]
    fn bishop_pair_counts_one() {
        // Two bishops on opposite colours against bishop and knight: 7–6.
        let b = board("4k3/8/8/3nb3/8/8/8/2B1KB2 w - - 0 1");
        assert_eq!(plus_remise(&b).white_points, 7);
        assert_eq!(plus_remise(&b).black_points, 6);
        assert_eq!(plus_remise(&b).winner, Color::White);
        // Two bishops on the same colour are no pair.
        let same = board("4k3/8/8/3nb3/8/8/8/1B2KB2 w - - 0 1");
        assert_eq!(plus_remise(&same).rule, 3); // 6–6, and 6–6 without pawns
    }

    #[test]
    fn rule_three_black_wins_equal_material() {
        // Bare kings: 0–0, 0–0, Black gets the extra point.
        let d = plus_remise(&board("8/8/4k3/8/8/4K3/8/8 w - - 0 1"));
        assert_eq!(
            d,
            PlusRemise {
                winner: Color::Black,
                rule: 3,
                white_points: 0,
                black_points: 1
            }
        );
        // Rook and pawn against two knights: 6–6, then 7–6 with the pawn doubled.
        let d = plus_remise(&board("4k3/8/8/3nn3/8/8/4P3/R3K3 w - - 0 1"));
        assert_eq!(
            (d.winner, d.rule, d.white_points, d.black_points),
            (Color::White, 2, 7, 6)
        );
    }
}
