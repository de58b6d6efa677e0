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
//! runs only where it can matter. `worth_searching` is the filter; its
//! rationale and its limits are in `docs/rules.md`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chess::{BoardBuilder, CastleRights, File as ChessFile, Piece};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, EnPassantMode, File, Position, Role, Square};

/// Whether a side can still checkmate by some series of legal moves.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Mate {
    /// The search found a helpmate, or a line shows one.
    Possible,
    /// The search exhausted every series of legal moves, or a forced line
    /// leaves no mate.
    Impossible,
    /// Not searched: the side keeps a queen, rook or pawn in a position
    /// the filter sees no reason to search (docs/rules.md, "Where remis
    /// searches"). Taken as "can mate" to let a recorded win on time
    /// stand, never to overturn a recorded draw.
    Presumed,
    /// The search reached its cap, or the position could not be handed to
    /// it: nothing is claimed.
    Unknown,
}

impl Mate {
    /// The `flag_opponent_can_mate` column value.
    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            Mate::Possible => "possible",
            Mate::Impossible => "impossible",
            Mate::Presumed => "presumed_possible",
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
    /// Alive: the search found a helpmate for a side.
    Alive,
    /// Not searched: a side keeps mating material in a position without
    /// frozen pawns or forced lines, and the filter takes it to be alive
    /// (docs/rules.md says where that can be wrong). Never a claim that
    /// a helpmate was found.
    PresumedAlive,
    /// The search gave up.
    Unknown,
}

impl Deadness {
    /// The `final_position_deadness` column value.
    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            Deadness::InsufficientMaterial => "insufficient_material",
            Deadness::DeadBySearch => "dead_by_search",
            Deadness::Alive => "alive",
            Deadness::PresumedAlive => "presumed_alive",
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
#[derive(Clone, Debug)]
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
    /// The search's answers so far, shared by every clone of these options
    /// (the workers of one run).
    pub memo: Arc<SearchMemo>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            deep_nodes: 1 << 18,
            everywhere: false,
            off: false,
            memo: Arc::default(),
        }
    }
}

/// The search's answers by position, so that a position is searched once a
/// run. A database often holds a game more than once (the same event from
/// two sources, a game republished in a later collection), and a search
/// costs a thousand times a lookup: on the master games a fifth of the
/// search time went to positions searched before. The search is
/// deterministic, so an answer looked up is the answer a search would give.
#[derive(Debug, Default)]
pub struct SearchMemo {
    answers: Mutex<HashMap<MemoKey, SearchAnswer>>,
}

/// The position as the search sees it (placement, side to move, castling
/// and en-passant rights), whose mate is asked about, and with what node
/// budget.
type MemoKey = (chess::Board, chess::Color, u64);

/// What the search said, before remis reads it.
#[derive(Copy, Clone, Debug)]
enum SearchAnswer {
    CanMate,
    CannotMate,
    Undecided,
}

/// Bounds the memo's memory (about 128 bytes an answer, 8 MiB in all):
/// when it is full it starts again empty.
const MEMO_ANSWERS: usize = 1 << 16;

impl SearchMemo {
    fn answer(&self, key: MemoKey, search: impl FnOnce() -> SearchAnswer) -> SearchAnswer {
        if let Some(&answer) = self.lock().get(&key) {
            return answer;
        }
        // Searched without the lock held: the other workers go on.
        let answer = search();
        let mut answers = self.lock();
        if answers.len() >= MEMO_ANSWERS {
            answers.clear();
        }
        answers.insert(key, answer);
        answer
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<MemoKey, SearchAnswer>> {
        // A worker that panicked mid-insert leaves a map that is still whole.
        self.answers.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Can `color` checkmate from `pos` by any series of legal moves, as the
/// search finds.
///
/// ```
/// use remis_core::rules::{Mate, SearchOptions, can_mate};
/// use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
///
/// // Two knights cannot force mate, but a series of legal moves mates.
/// let pos: Chess = "8/8/8/4k3/8/8/2NNK3/8 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(can_mate(&pos, Color::White, &SearchOptions::default()), Mate::Possible);
/// assert_eq!(can_mate(&pos, Color::Black, &SearchOptions::default()), Mate::Impossible);
/// ```
pub fn can_mate(pos: &Chess, color: Color, options: &SearchOptions) -> Mate {
    let Some((board, castling_dropped)) = to_chess_board(pos) else {
        return Mate::Unknown;
    };
    let winner = chess_color(color);
    let impossible = if castling_dropped {
        // Without the Chess960 castling rights a proof of "cannot mate"
        // covers fewer moves than the game has: not a proof.
        Mate::Unknown
    } else {
        Mate::Impossible
    };
    let answer = options
        .memo
        .answer((board, winner, options.deep_nodes), || {
            if chasolver::is_unwinnable_fast_within(&board, winner, QUICK_NODES).0 {
                return SearchAnswer::CannotMate;
            }
            // Most helpmates are found by a short pass first (see
            // QUICK_HELPMATE_NODES); the full search runs when it finds none.
            if chasolver::quick_helpmate(&board, winner, QUICK_HELPMATE_NODES, QUICK_HELPMATE_DEPTH)
                .is_some()
            {
                return SearchAnswer::CanMate;
            }
            match chasolver::winnability_within(&board, winner, options.deep_nodes) {
                Some(chasolver::Winnability::Winnable { .. }) => SearchAnswer::CanMate,
                Some(chasolver::Winnability::Unwinnable) => SearchAnswer::CannotMate,
                None => SearchAnswer::Undecided,
            }
        });
    match answer {
        SearchAnswer::CanMate => Mate::Possible,
        SearchAnswer::CannotMate => impossible,
        SearchAnswer::Undecided => Mate::Unknown,
    }
}

/// A series of legal moves from `pos` in which `color` mates, found by the
/// search within `nodes` of its deepest phase: the certificate that
/// `color` can mate. `None` when the search proves it cannot, gives up, or
/// cannot take the position.
///
/// ```
/// use remis_core::rules::helpmate;
/// use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen};
///
/// let pos: Chess = "8/8/8/4k3/8/8/2NNK3/8 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// let line = helpmate(&pos, Color::White, 1 << 20).unwrap();
/// let mut end = pos.clone();
/// for m in &line {
///     end.play_unchecked(*m);
/// }
/// assert!(end.is_checkmate() && end.turn() == Color::Black);
/// assert!(helpmate(&pos, Color::Black, 1 << 20).is_none());
/// ```
pub fn helpmate(pos: &Chess, color: Color, nodes: u64) -> Option<Vec<shakmaty::Move>> {
    let (board, _) = to_chess_board(pos)?;
    let winner = chess_color(color);
    let Some(chasolver::Winnability::Winnable { helpmate }) =
        chasolver::winnability_within(&board, winner, nodes)
    else {
        return None;
    };
    // The solver's moves, matched to the legal moves of each position.
    let mut at = pos.clone();
    let mut line = Vec::with_capacity(helpmate.len());
    for m in helpmate {
        let (from, to) = (m.get_source().to_index(), m.get_dest().to_index());
        let promotion = m.get_promotion().map(|p| match p {
            Piece::Knight => Role::Knight,
            Piece::Bishop => Role::Bishop,
            Piece::Rook => Role::Rook,
            _ => Role::Queen,
        });
        let legal = at.legal_moves().into_iter().find(|l| {
            let to_square = match l {
                // The solver writes castling as the king's two-square move.
                shakmaty::Move::Castle { king, rook } => {
                    let side = CastlingSide::from_queen_side(rook < king);
                    Square::from_coords(side.king_to_file(), king.rank())
                }
                other => other.to(),
            };
            l.from().map(|s| s as usize) == Some(from)
                && to_square as usize == to
                && l.promotion() == promotion
        })?;
        at.play_unchecked(legal);
        line.push(legal);
    }
    (at.is_checkmate() && at.turn() != color).then_some(line)
}

/// Is `pos` dead (5.2.2)? A forced line (at most four replies, two plies
/// deep) that always ends in bare material or stalemate is dead without the
/// full search; the full search runs only where the filter sends it (frozen
/// or jammed pawns; everywhere with `options.everywhere`); where the pieces
/// barely move, chasolver's quick mode may still prove both sides unable to
/// mate; elsewhere the position is presumed alive
/// ([`Deadness::PresumedAlive`]), unsearched.
///
/// ```
/// use remis_core::rules::{Deadness, SearchOptions, deadness};
/// use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
///
/// let dead = |fen: &str| {
///     let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
///     deadness(&pos, pos.legal_moves().len(), &SearchOptions::default())
/// };
/// // King and bishop against king: no mate by any series of moves.
/// assert_eq!(dead("8/8/8/4k3/8/8/3BK3/8 w - - 0 1"), Deadness::InsufficientMaterial);
/// // A rook and a king can still mate: presumed so, as the filter sends
/// // nothing here to the search; the search itself finds the helpmate.
/// assert_eq!(dead("8/8/8/4k3/8/8/3RK3/8 w - - 0 1"), Deadness::PresumedAlive);
/// let everywhere = SearchOptions { everywhere: true, ..SearchOptions::default() };
/// let pos: Chess = "8/8/8/4k3/8/8/3RK3/8 w - - 0 1".parse::<Fen>().unwrap()
///     .into_position(CastlingMode::Standard).unwrap();
/// assert_eq!(deadness(&pos, pos.legal_moves().len(), &everywhere), Deadness::Alive);
/// ```
pub fn deadness(pos: &Chess, legal_moves: usize, options: &SearchOptions) -> Deadness {
    if pos.is_insufficient_material() {
        return Deadness::InsufficientMaterial;
    }
    if ends_by_force(pos, legal_moves, &|p: &Chess| {
        p.is_insufficient_material() || p.is_stalemate()
    }) {
        return Deadness::DeadBySearch;
    }
    let still = !options.everywhere && worth_a_quick_proof(pos);
    if !(options.everywhere || worth_searching(pos, legal_moves, still)) {
        // Dead only when both sides are proven unable to mate; the side
        // with more pieces, likelier to keep a mate, is asked first.
        if still {
            let board = pos.board();
            let pieces = |c: Color| (board.by_color(c) & !board.pawns()).count();
            let first = if pieces(Color::White) >= pieces(Color::Black) {
                Color::White
            } else {
                Color::Black
            };
            if quick_board(pos).is_some_and(|board| {
                cannot_mate_quickly(&board, first) && cannot_mate_quickly(&board, !first)
            }) {
                return Deadness::DeadBySearch;
            }
        }
        return Deadness::PresumedAlive;
    }
    // Either side's mate settles it. The side that just moved is asked
    // first: on the master games' final positions that search is the
    // shorter one often enough to save an eighth of the search time
    // (docs/performance.md).
    let mover = !pos.turn();
    let first = can_mate(pos, mover, options);
    if first == Mate::Possible {
        return Deadness::Alive;
    }
    match (first, can_mate(pos, !mover, options)) {
        (_, Mate::Possible) => Deadness::Alive,
        (Mate::Impossible, Mate::Impossible) => Deadness::DeadBySearch,
        _ => Deadness::Unknown,
    }
}

/// After a flag fall: can `color`, the opponent of the flagged player,
/// still mate (6.9)? Searched when `color` has no queen, rook or pawn, or
/// the filter sends the position to the search; a forced line that strips
/// `color` of its mating material, or the quick mode where the pieces
/// barely move, answers "impossible" at once; a side that keeps a queen,
/// rook or pawn in an open position is presumed to be able to mate
/// ([`Mate::Presumed`]), unsearched.
pub fn can_mate_after_flag(
    pos: &Chess,
    color: Color,
    legal_moves: usize,
    options: &SearchOptions,
) -> Mate {
    let board = pos.board();
    let heavy_or_pawn = board.by_color(color) & (board.pawns() | board.rooks_and_queens());
    if options.everywhere || heavy_or_pawn.is_empty() {
        return can_mate(pos, color, options);
    }
    let still = worth_a_quick_proof(pos);
    if worth_searching(pos, legal_moves, still) {
        return can_mate(pos, color, options);
    }
    if legal_moves <= FORCED_REPLIES
        && forced_line_ends(pos, FORCED_PLIES, FORCED_REPLIES, &|p: &Chess| {
            p.has_insufficient_material(color) || p.is_stalemate()
        })
    {
        return Mate::Impossible;
    }
    // Every move of the flagged player stalemates, strips `color` of its
    // mating material, or mates `color`: no series of moves is left in
    // which `color` mates (B7/8/8/8/4r3/8/7p/5K1k w: four of White's five
    // moves stalemate, the fifth mates).
    if pos.turn() != color
        && legal_moves <= ENDING_REPLIES
        && forced_line_ends(pos, 1, ENDING_REPLIES, &|p: &Chess| {
            p.has_insufficient_material(color)
                || p.is_stalemate()
                || (p.is_checkmate() && p.turn() == color)
        })
    {
        return Mate::Impossible;
    }
    if still && quick_board(pos).is_some_and(|board| cannot_mate_quickly(&board, color)) {
        return Mate::Impossible;
    }
    Mate::Presumed
}

/// Where a position the filter does not send to the full search still gets
/// chasolver's quick proof: pawns on the board, and the pieces other than
/// kings and pawns with at most [`STILL_PIECE_MOVES`] moves among them
/// (counted as squares they attack that their own side does not hold). Pawn
/// endings and composed walls whose pieces are shut in come here; open
/// middlegames, where the quick mode proves nothing, do not.
fn worth_a_quick_proof(pos: &Chess) -> bool {
    let board = pos.board();
    if board.pawns().is_empty() {
        return false;
    }
    let occupied = board.occupied();
    let mut moves = 0;
    for (square, piece) in board.iter() {
        if matches!(piece.role, Role::Pawn | Role::King) {
            continue;
        }
        let targets =
            shakmaty::attacks::attacks(square, piece, occupied) & !board.by_color(piece.color);
        moves += targets.count();
        if moves > STILL_PIECE_MOVES {
            return false;
        }
    }
    true
}

/// The most piece moves a position may have and still get the quick proof.
/// Eight: on the master games about 3 % of the final positions qualify, and
/// the quick mode costs 0.18 s there in all (about 12 µs a call on these
/// positions); 16 would nearly triple that for 13 more of CHA-Solver's
/// positions (docs/performance.md).
const STILL_PIECE_MOVES: usize = 8;

/// The position as chasolver's quick mode takes it, converted once for
/// both sides' proofs; `None` where its proof would not be one (Chess960
/// castling rights dropped: a proof covering fewer moves than the game has).
fn quick_board(pos: &Chess) -> Option<chess::Board> {
    match to_chess_board(pos) {
        Some((board, false)) => Some(board),
        _ => None,
    }
}

/// chasolver's quick mode: a sound, incomplete proof that `color` cannot
/// mate (6 µs on the average final position). No proof is not "can mate".
fn cannot_mate_quickly(board: &chess::Board, color: Color) -> bool {
    chasolver::is_unwinnable_fast_within(board, chess_color(color), QUICK_NODES).0
}

/// The budget of a short pass for a helpmate before the full search
/// (chasolver's `quick_helpmate`, vendor/chasolver/REMIS.md): positions for
/// each ply of depth, and the deepest depth tried. The full search finds its
/// costliest helpmates (lines of 20 to 70 plies, after flag falls where the
/// winner keeps only minor pieces) at depths 3 to 13 of its iterative
/// deepening, after every shallower depth has used up 7,000 positions a
/// ply: half the search time of the lichess users' questions went to 25 of
/// them. A pass at 1,000 a ply, depths 2 to 16, finds most of them for less:
/// the search's instructions on those questions fall by a quarter
/// (docs/performance.md, 2026-11-27). A helpmate is a proof, so an answer
/// can differ from the full search's only where that search would give up
/// (`unknown`); when the pass finds none, nothing is concluded and the full
/// search runs as before.
const QUICK_HELPMATE_NODES: u64 = 1_000;
const QUICK_HELPMATE_DEPTH: u8 = 16;

/// The quick mode's budget of positions for its full-width searches. As
/// published it has none, and its depth-15 search visited 26 million
/// positions (2.2 s) in `kb6/b1p2p1p/1pP5/1P6/8/8/5P1P/5K2 w`, which the
/// full search settles in 27 ms. On the real collections it never visits
/// more than 104 (docs/performance.md); past the budget it proves nothing
/// and the full search, capped by `--search-nodes`, answers instead.
pub(crate) const QUICK_NODES: u64 = 10_000;

/// A position with at most this many legal moves is tried for moves that
/// all end the game at once: a few move generations each, and such
/// positions are a small part of the final ones.
const ENDING_REPLIES: usize = 12;

/// A position with at most this many legal moves starts a forced line.
/// Four, not two: a check answered by three captures that all stalemate
/// (Kxg5, Qxg5, fxg5 in Portisch–Lengyel, Malaga 1964), or a check whose
/// four answers all stalemate (53...h4+ in lichess.org/hjwtU1Q6), is common
/// enough in real endings, and the lines stay a few move generations.
const FORCED_REPLIES: usize = 4;
/// How many plies of a forced line are followed.
const FORCED_PLIES: u32 = 2;

/// A line the side to move cannot avoid ends where `end` holds: with at
/// most [`FORCED_REPLIES`] legal moves, followed [`FORCED_PLIES`] deep;
/// with five to [`ENDING_REPLIES`], one ply deep (every move stalemates,
/// say).
fn ends_by_force(pos: &Chess, legal_moves: usize, end: &dyn Fn(&Chess) -> bool) -> bool {
    if legal_moves <= FORCED_REPLIES {
        forced_line_ends(pos, FORCED_PLIES, FORCED_REPLIES, end)
    } else {
        legal_moves <= ENDING_REPLIES && forced_line_ends(pos, 1, ENDING_REPLIES, end)
    }
}

/// Every line from `pos` in which each side to move has at most `width`
/// legal moves reaches, within `plies`, a position where `end` holds; a
/// position with more replies, or the end of the depth, answers no. A
/// proof, when it answers yes: the side to move cannot avoid the end
/// (1.Rg8+ Kxg8, the only reply, leaves bare kings).
fn forced_line_ends(pos: &Chess, plies: u32, width: usize, end: &dyn Fn(&Chess) -> bool) -> bool {
    if end(pos) {
        return true;
    }
    if plies == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() || moves.len() > width {
        return false;
    }
    moves.iter().all(|&m| {
        let mut next = pos.clone();
        next.play_unchecked(m);
        forced_line_ends(&next, plies - 1, width, end)
    })
}

/// The filter for the full search: positions that can be dead although
/// neither side lacks material and no short forced line settles them need a
/// pawn structure that never opens. Without a frozen structure a pawn can
/// advance and promote, or a capture can open the position. A position
/// whose few legal moves all lead into a frozen structure is searched too:
/// Kh8, Black's only move in 4K1k1/6pP/6P1/8/8/8/8/8 b, shuts the h-pawn in
/// for good (Zhu Chen–Danielian, Nalchik 2010). So are jammed pawns when
/// `still_pieces` (the position's pieces barely move: [`worth_a_quick_proof`],
/// computed once by the caller, who needs it again).
fn worth_searching(pos: &Chess, legal_moves: usize, still_pieces: bool) -> bool {
    if frozen_pawns(pos) || (still_pieces && pawns_jammed(pos)) {
        return true;
    }
    legal_moves > 0
        && legal_moves <= FORCED_REPLIES
        && pos.legal_moves().iter().all(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            frozen_pawns(&next)
        })
}

/// Every pawn has a pawn somewhere ahead of it on its file: no pawn can
/// promote without a capture. With pieces that barely move as well
/// ([`worth_a_quick_proof`]) such walls are where the composed dead
/// positions are that the quick proof misses (pawns that can still step a
/// square or two into files already locked); on real games they are rare
/// enough for the full search (docs/performance.md).
fn pawns_jammed(pos: &Chess) -> bool {
    let board = pos.board();
    board.pawns().into_iter().all(|pawn| {
        let white = board.white().contains(pawn);
        (Bitboard::from_file(pawn.file()) & board.pawns())
            .into_iter()
            .any(|other| {
                if white {
                    other.rank() > pawn.rank()
                } else {
                    other.rank() < pawn.rank()
                }
            })
    })
}

/// Every pawn has a pawn, or a king shut in for good, directly in front of
/// it, and no pawn capture (en passant included) is possible; a pawn that
/// gives check captures nothing. A position without pawns has no frozen
/// structure. A king in front of a pawn usually steps aside later, and
/// counting every such king would send most pawn endings to the full
/// search; a king boxed in by pawns (K a8 behind its own b7 pawn, with a
/// white pawn on a7 guarded from b6) never can.
fn frozen_pawns(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() {
        return false;
    }
    let white = pawns & board.white();
    let black = pawns & board.black();
    let white_attacks = white.into_iter().fold(Bitboard::EMPTY, |a, sq| {
        a | shakmaty::attacks::pawn_attacks(Color::White, sq)
    });
    let black_attacks = black.into_iter().fold(Bitboard::EMPTY, |a, sq| {
        a | shakmaty::attacks::pawn_attacks(Color::Black, sq)
    });
    // A king whose every neighbouring square holds one of its own pawns or
    // is attacked by an enemy pawn: only a pawn move could free it, and the
    // pawns are frozen.
    let boxed = |color: Color, own_pawns: Bitboard, enemy_attacks: Bitboard| {
        board.king_of(color).filter(|&king| {
            (shakmaty::attacks::king_attacks(king) & !own_pawns & !enemy_attacks).is_empty()
        })
    };
    let mut blockers = pawns;
    blockers.extend(boxed(Color::White, white, black_attacks));
    blockers.extend(boxed(Color::Black, black, white_attacks));
    let white_free = shift_north(white) & !blockers;
    let black_free = shift_south(black) & !blockers;
    if white_free.any() || black_free.any() {
        return false;
    }
    let targets = !board.kings();
    (white_attacks & board.black() & targets).is_empty()
        && (black_attacks & board.white() & targets).is_empty()
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
mod tests;
