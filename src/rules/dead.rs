//! Dead positions (art. 5.2.2) and mating chances after a flag fall
//! (art. 6.9), decided by search.
//!
//! "The game is drawn when a position has arisen in which neither player
//! can checkmate the opponent's king with any series of legal moves"
//! (5.2.2); a player whose flag falls loses unless "the opponent cannot
//! checkmate the player's king by any possible series of legal moves"
//! (6.9). Both questions are answered by the CHA unwinnability search
//! (chasolver, vendored with a node cap): a helpmate it finds proves that
//! a side can mate, and its exhaustion proves that it cannot. When the cap
//! stops it first, the answer is [`Mate::Unknown`], never "cannot".
//!
//! The search costs tens of microseconds, more than replaying a game, so it
//! runs only where it can matter. [`worth_searching`] is the filter; its
//! rationale and its limits are in `docs/rules.md`.

use chess::{BoardBuilder, CastleRights, File as ChessFile, Piece};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, EnPassantMode, File, Position, Role, Square};

/// Whether a side can still checkmate by some series of legal moves.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Mate {
    Possible,
    Impossible,
    /// The search reached its cap, or the position could not be handed to
    /// it: nothing is claimed.
    Unknown,
}

impl Mate {
    /// The `flag_opponent_can_mate` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mate::Possible => "possible",
            Mate::Impossible => "impossible",
            Mate::Unknown => "unknown",
        }
    }
}

/// How dead a position is (5.2.2).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Deadness {
    /// Neither side has mating material by the static test (K v K, K+minor
    /// v K, bishops all on one colour).
    InsufficientMaterial,
    /// Dead, as only a search shows (blocked pawns, forced captures).
    DeadBySearch,
    /// A mate is still possible, or the filter found no reason to search.
    Alive,
    /// The search gave up.
    Unknown,
}

impl Deadness {
    /// The `final_position_deadness` column value.
    pub const fn as_str(self) -> &'static str {
        match self {
            Deadness::InsufficientMaterial => "insufficient_material",
            Deadness::DeadBySearch => "dead_by_search",
            Deadness::Alive => "alive",
            Deadness::Unknown => "unknown",
        }
    }

    pub fn is_dead(self) -> bool {
        matches!(
            self,
            Deadness::InsufficientMaterial | Deadness::DeadBySearch
        )
    }
}

/// How much searching remis does.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct SearchOptions {
    /// Node budget of the search's last, deepest phase; the earlier phases
    /// have fixed budgets of their own.
    pub deep_nodes: u64,
    /// Search every position asked about, not only those the filter picks.
    pub everywhere: bool,
    /// Search nothing: dead positions beyond the static material test and
    /// mating chances after a flag fall are not decided (their columns are
    /// null). Only for measuring what the search costs.
    pub off: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            deep_nodes: 1 << 18,
            everywhere: false,
            off: false,
        }
    }
}

/// Can `color` checkmate from `pos` by any series of legal moves, as the
/// search finds.
pub fn can_mate(pos: &Chess, color: Color, options: &SearchOptions) -> Mate {
    let Some((board, castling_dropped)) = to_chess_board(pos) else {
        return Mate::Unknown;
    };
    let winner = match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    let impossible = if castling_dropped {
        // Without the Chess960 castling rights a proof of "cannot mate"
        // covers fewer moves than the game has: not a proof.
        Mate::Unknown
    } else {
        Mate::Impossible
    };
    if chasolver::is_unwinnable_fast(&board, winner) {
        return impossible;
    }
    match chasolver::winnability_within(&board, winner, options.deep_nodes) {
        Some(chasolver::Winnability::Winnable { .. }) => Mate::Possible,
        Some(chasolver::Winnability::Unwinnable) => impossible,
        None => Mate::Unknown,
    }
}

/// Is `pos` dead (5.2.2)? A forced line (at most two replies, two plies
/// deep) that always ends in bare material or stalemate is dead without the
/// full search; the full search runs only on frozen pawn structures (or
/// everywhere with `options.everywhere`); elsewhere the position is taken
/// to be alive.
pub fn deadness(pos: &Chess, legal_moves: usize, options: &SearchOptions) -> Deadness {
    if pos.is_insufficient_material() {
        return Deadness::InsufficientMaterial;
    }
    if legal_moves <= FORCED_REPLIES
        && forced_line_ends(pos, FORCED_PLIES, &|p: &Chess| {
            p.is_insufficient_material() || p.is_stalemate()
        })
    {
        return Deadness::DeadBySearch;
    }
    if !(options.everywhere || frozen_pawns(pos)) {
        return Deadness::Alive;
    }
    let white = can_mate(pos, Color::White, options);
    if white == Mate::Possible {
        return Deadness::Alive;
    }
    match (white, can_mate(pos, Color::Black, options)) {
        (_, Mate::Possible) => Deadness::Alive,
        (Mate::Impossible, Mate::Impossible) => Deadness::DeadBySearch,
        _ => Deadness::Unknown,
    }
}

/// After a flag fall: can `color`, the opponent of the flagged player,
/// still mate (6.9)? Searched when `color` has no queen, rook or pawn, or
/// the pawns are frozen; a forced line that strips `color` of its mating
/// material answers "impossible" at once; a side that keeps a queen, rook
/// or pawn in an open position can mate.
pub fn can_mate_after_flag(
    pos: &Chess,
    color: Color,
    legal_moves: usize,
    options: &SearchOptions,
) -> Mate {
    let board = pos.board();
    let heavy_or_pawn = board.by_color(color) & (board.pawns() | board.rooks_and_queens());
    if options.everywhere || heavy_or_pawn.is_empty() || frozen_pawns(pos) {
        return can_mate(pos, color, options);
    }
    if legal_moves <= FORCED_REPLIES
        && forced_line_ends(pos, FORCED_PLIES, &|p: &Chess| {
            p.has_insufficient_material(color) || p.is_stalemate()
        })
    {
        return Mate::Impossible;
    }
    Mate::Possible
}

/// A position with at most this many legal moves starts a forced line.
const FORCED_REPLIES: usize = 2;
/// How many plies of a forced line are followed.
const FORCED_PLIES: u32 = 2;

/// Every line from `pos` in which each side to move has at most
/// [`FORCED_REPLIES`] legal moves reaches, within `plies`, a position where
/// `end` holds; a position with more replies, or the end of the depth,
/// answers no. A proof, when it answers yes: the side to move cannot avoid
/// the end (1.Rg8+ Kxg8, the only reply, leaves bare kings).
fn forced_line_ends(pos: &Chess, plies: u32, end: &dyn Fn(&Chess) -> bool) -> bool {
    if end(pos) {
        return true;
    }
    if plies == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() || moves.len() > FORCED_REPLIES {
        return false;
    }
    moves.iter().all(|&m| {
        let mut next = pos.clone();
        next.play_unchecked(m);
        forced_line_ends(&next, plies - 1, end)
    })
}

/// The filter for the full search: positions that can be dead although
/// neither side lacks material and no short forced line settles them need a
/// pawn structure that never opens. Without a frozen structure a pawn can
/// advance and promote, or a capture can open the position.
pub fn worth_searching(pos: &Chess) -> bool {
    frozen_pawns(pos)
}

/// Every pawn has a pawn directly in front of it, and no pawn capture
/// (en passant included) is possible. A position without pawns has no
/// frozen structure.
fn frozen_pawns(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() {
        return false;
    }
    let white = pawns & board.white();
    let black = pawns & board.black();
    let white_free = shift_north(white) & !pawns;
    let black_free = shift_south(black) & !pawns;
    if white_free.any() || black_free.any() {
        return false;
    }
    let white_attacks = white.into_iter().fold(Bitboard::EMPTY, |a, sq| {
        a | shakmaty::attacks::pawn_attacks(Color::White, sq)
    });
    let black_attacks = black.into_iter().fold(Bitboard::EMPTY, |a, sq| {
        a | shakmaty::attacks::pawn_attacks(Color::Black, sq)
    });
    (white_attacks & board.black()).is_empty()
        && (black_attacks & board.white()).is_empty()
        && pos.ep_square(EnPassantMode::Legal).is_none()
}

fn shift_north(b: Bitboard) -> Bitboard {
    Bitboard(b.0 << 8)
}

fn shift_south(b: Bitboard) -> Bitboard {
    Bitboard(b.0 >> 8)
}

/// The position as the `chess` crate's board, built square by square.
/// Chess960 castling rights it cannot hold are dropped, and said so.
fn to_chess_board(pos: &Chess) -> Option<(chess::Board, bool)> {
    let mut builder = BoardBuilder::new();
    for (square, piece) in pos.board().iter() {
        let role = match piece.role {
            Role::Pawn => Piece::Pawn,
            Role::Knight => Piece::Knight,
            Role::Bishop => Piece::Bishop,
            Role::Rook => Piece::Rook,
            Role::Queen => Piece::Queen,
            Role::King => Piece::King,
        };
        builder.piece(
            chess::ALL_SQUARES[usize::from(square)],
            role,
            chess_color(piece.color),
        );
    }
    builder.side_to_move(chess_color(pos.turn()));
    let mut dropped = false;
    for color in Color::ALL {
        let back = color.backrank();
        let king_home = pos.board().king_of(color) == Some(Square::from_coords(File::E, back));
        let rook_home = |side: CastlingSide, file: File| {
            pos.castles().rook(color, side) == Some(Square::from_coords(file, back))
        };
        let has = |side| pos.castles().has(color, side);
        let king_side = king_home && rook_home(CastlingSide::KingSide, File::H);
        let queen_side = king_home && rook_home(CastlingSide::QueenSide, File::A);
        dropped |= (has(CastlingSide::KingSide) && !king_side)
            || (has(CastlingSide::QueenSide) && !queen_side);
        let rights = match (
            has(CastlingSide::KingSide) && king_side,
            has(CastlingSide::QueenSide) && queen_side,
        ) {
            (true, true) => CastleRights::Both,
            (true, false) => CastleRights::KingSide,
            (false, true) => CastleRights::QueenSide,
            (false, false) => CastleRights::NoRights,
        };
        builder.castle_rights(chess_color(color), rights);
    }
    if let Some(ep) = pos.ep_square(EnPassantMode::Legal) {
        builder.en_passant(Some(ChessFile::from_index(usize::from(ep.file()))));
    }
    chess::Board::try_from(builder).ok().map(|b| (b, dropped))
}

fn chess_color(color: Color) -> chess::Color {
    match color {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn dead(fen: &str) -> Deadness {
        let pos = position(fen);
        deadness(&pos, pos.legal_moves().len(), &SearchOptions::default())
    }

    #[test]
    fn walls_and_forced_captures_are_dead() {
        // Eight locked pawn pairs; the kings can never cross.
        let wall = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
        assert_eq!(dead(wall), Deadness::DeadBySearch);
        // Bishops locked behind the same wall.
        let bishops = "2b1k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1";
        assert_eq!(dead(bishops), Deadness::DeadBySearch);
        // After 1.Rg8+ Kxg8 is forced, leaving K v K.
        assert_eq!(
            dead("6Rk/8/6K1/8/8/8/8/8 b - - 0 1"),
            Deadness::DeadBySearch
        );
        assert_eq!(
            dead("8/8/4k3/8/8/3K4/5B2/8 w - - 0 1"),
            Deadness::InsufficientMaterial
        );
    }

    #[test]
    fn look_alikes_are_alive() {
        // One free pawn.
        assert_eq!(
            dead("4k3/8/8/1p1p1p2/pPpPpPp1/P1P1P1P1/7P/4K3 w - - 0 1"),
            Deadness::Alive
        );
        // A lever that can capture.
        assert_eq!(
            dead("4k3/8/8/1p1p1p2/pPpPpPpp/P1P1P1P1/8/4K3 w - - 0 1"),
            Deadness::Alive
        );
        // A bishop that can reach enemy pawns.
        assert_eq!(
            dead("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 w - - 0 1"),
            Deadness::Alive
        );
        // A check with a flight square.
        assert_eq!(dead("6Rk/8/5K2/8/8/8/8/8 b - - 0 1"), Deadness::Alive);
        // K+N v K+N.
        assert_eq!(dead("8/8/4k3/3n4/8/3K4/5N2/8 w - - 0 1"), Deadness::Alive);
    }

    #[test]
    fn mating_chances_after_a_flag_fall_are_searched() {
        let options = SearchOptions::default();
        let ask = |fen: &str, color| {
            let pos = position(fen);
            can_mate_after_flag(&pos, color, pos.legal_moves().len(), &options)
        };
        // K+N cannot mate K+Q; K+N can mate K+R (a helpmate exists).
        assert_eq!(
            ask("q7/8/4k3/8/8/3K4/5N2/8 w - - 0 1", Color::White),
            Mate::Impossible
        );
        assert_eq!(
            ask("r7/8/4k3/8/8/3K4/5N2/8 w - - 0 1", Color::White),
            Mate::Possible
        );
        // K+B can mate K+P.
        assert_eq!(
            ask("8/8/4k3/8/3p4/3K4/5B2/8 w - - 0 1", Color::White),
            Mate::Possible
        );
        // Pawns behind a locked wall cannot.
        let wall = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
        assert_eq!(ask(wall, Color::White), Mate::Impossible);
    }
}
