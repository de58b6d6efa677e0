//! Resolving a SAN move without generating a move list.
//!
//! shakmaty's `San::to_move` collects its candidates in a 256-entry
//! `MoveList` that is returned by value, and copying that list is much of
//! the cost of replaying a game. Here the candidates of a piece, pawn or
//! king move are found with attack tables and each is checked with one
//! slider lookup. Castling, en passant and any move that does not resolve
//! to exactly one legal move go to shakmaty, so the errors are shakmaty's
//! own.

use shakmaty::{
    Bitboard, Chess, Color, Move, Position, Rank, Role, Square, attacks,
    san::{San, SanError},
};

/// The move `san` names in `pos`: the same answer as `san.to_move(pos)`.
pub fn resolve(pos: &Chess, san: San) -> Result<Move, SanError> {
    match fast(pos, san) {
        Some(m) => Ok(m),
        None => san.to_move(pos),
    }
}

/// The one legal move `san` names, if it is of a kind resolved here and
/// exactly one legal move matches; `None` leaves the answer to shakmaty.
fn fast(pos: &Chess, san: San) -> Option<Move> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return None;
    };
    let checkers = pos.checkers();
    let board = pos.board();
    let turn = pos.turn();
    let occupied = board.occupied();
    if pos.us().contains(to) {
        return None;
    }
    let captured = board.role_at(to);
    if capture != captured.is_some() {
        return None;
    }
    let king = board.king_of(turn)?;
    // In check, a move other than the king's must capture the checker or
    // block its line; in double check only the king may move.
    if role != Role::King && checkers.any() {
        let checker = checkers.single_square()?;
        if !(attacks::between(king, checker) | Bitboard::from_square(checker)).contains(to) {
            return None;
        }
    }
    let from = match role {
        Role::Pawn => {
            if pos.maybe_ep_square() == Some(to) {
                return None;
            }
            let last_rank = to.rank() == turn.fold_wb(Rank::Eighth, Rank::First);
            match promotion {
                None if last_rank => return None,
                Some(Role::Knight | Role::Bishop | Role::Rook | Role::Queen) if last_rank => {}
                Some(_) => return None,
                None => {}
            }
            if capture {
                attacks::pawn_attacks(!turn, to) & pos.our(Role::Pawn)
            } else {
                pawn_pushers(pos, turn, to, occupied)
            }
        }
        Role::King => {
            if promotion.is_some() {
                return None;
            }
            // Without the king on the board: a slider checking it also
            // attacks the squares behind it.
            let from = attacks::king_attacks(to) & Bitboard::from_square(king);
            let without_king = occupied ^ Bitboard::from_square(king);
            if from.any() && board.attacks_to(to, !turn, without_king).any() {
                return None;
            }
            from
        }
        Role::Knight | Role::Bishop | Role::Rook | Role::Queen => {
            if promotion.is_some() {
                return None;
            }
            attacks::attacks(to, role.of(turn), occupied) & pos.our(role)
        }
    };
    let mut found = None;
    for from in from {
        if file.is_some_and(|f| f != from.file()) || rank.is_some_and(|r| r != from.rank()) {
            continue;
        }
        if role != Role::King && exposes_king(pos, king, from, to) {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(Move::Normal {
            role,
            from,
            capture: captured,
            to,
            promotion,
        });
    }
    found
}

/// Pawns of `turn` that can advance to the empty square `to`, by one step
/// or two.
fn pawn_pushers(pos: &Chess, turn: Color, to: Square, occupied: Bitboard) -> Bitboard {
    if occupied.contains(to) {
        return Bitboard::EMPTY;
    }
    let back = turn.fold_wb(-8, 8);
    let Some(one) = to.offset(back) else {
        return Bitboard::EMPTY;
    };
    let pawns = pos.our(Role::Pawn);
    if pawns.contains(one) {
        return Bitboard::from_square(one);
    }
    let double_rank = turn.fold_wb(Rank::Fourth, Rank::Fifth);
    match one.offset(back) {
        Some(two) if to.rank() == double_rank && !occupied.contains(one) && pawns.contains(two) => {
            Bitboard::from_square(two)
        }
        _ => Bitboard::EMPTY,
    }
}

/// Whether moving a piece other than the king from `from` to `to` leaves
/// an enemy slider attacking our king. A knight's or pawn's check is dealt
/// with before: such a checker must be the piece captured on `to`.
fn exposes_king(pos: &Chess, king: Square, from: Square, to: Square) -> bool {
    let board = pos.board();
    let occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let them = pos.them() & !Bitboard::from_square(to);
    let rooks = attacks::rook_attacks(king, occupied) & board.rooks_and_queens();
    let bishops = attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    ((rooks | bishops) & them).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, File, fen::Fen};

    /// Every SAN that names a role and target, with every disambiguation
    /// and capture flag, resolved both ways.
    fn check_every_san(pos: &Chess) {
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::King),
        ];
        // Every target of a legal move, and squares no move reaches.
        let mut targets: Vec<Square> = pos.legal_moves().iter().map(|m| m.to()).collect();
        targets.extend([Square::A1, Square::D4, Square::E8, Square::H5]);
        targets.sort();
        targets.dedup();
        for to in targets {
            for role in roles {
                for capture in [false, true] {
                    for promotion in promotions {
                        if promotion.is_some()
                            && role != Role::Pawn
                            && promotion != Some(Role::Queen)
                        {
                            continue;
                        }
                        for (file, rank) in disambiguations(pos, role) {
                            let san = San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion,
                            };
                            assert_eq!(
                                resolve(pos, san),
                                san.to_move(pos),
                                "{san} in {}",
                                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                            );
                        }
                    }
                }
            }
        }
    }

    fn disambiguations(pos: &Chess, role: Role) -> Vec<(Option<File>, Option<shakmaty::Rank>)> {
        let mut out = vec![(None, None)];
        for from in pos.our(role) {
            out.push((Some(from.file()), None));
            out.push((None, Some(from.rank())));
            out.push((Some(from.file()), Some(from.rank())));
        }
        out.push((Some(File::A), Some(shakmaty::Rank::First)));
        out
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn agrees_with_shakmaty_on_edge_positions() {
        for fen in [
            // Start; pins on both diagonals and files.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/q7/8/2N5/3P4/r1R1K2r w - - 0 1",
            "4k3/4r3/8/8/4N3/8/2B5/4K3 w - - 0 1",
            // Two knights and two rooks that can reach one square.
            "4k3/8/8/1N3N2/8/R6R/8/4K3 w - - 0 1",
            // En passant possible, and en passant exposing the king.
            "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            // Promotions, with and without capture, and a pinned pawn.
            "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/2p1p1r1/1N1Q3K b - - 0 1",
            "7k/8/8/8/8/8/2p1p3/1N1QK2R b - - 0 1",
            // In check: left to shakmaty, still equal.
            "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
            // Castling rights and pieces between.
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
            // King next to the enemy king's squares.
            "8/8/8/3k4/8/3K4/8/8 w - - 0 1",
        ] {
            check_every_san(&position(fen));
        }
    }

    #[test]
    fn agrees_with_shakmaty_along_random_games() {
        // A fixed-seed walk through legal moves: many middlegame positions
        // with pins, checks and promotions.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..40 {
            let mut pos = Chess::default();
            for _ in 0..160 {
                check_every_san(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = moves[(state % moves.len() as u64) as usize];
                pos.play_unchecked(m);
            }
        }
    }
}
