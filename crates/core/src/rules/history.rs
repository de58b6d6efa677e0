//! The positions of a game since its last irreversible move: what the
//! repetition rules (9.2, 9.6.1) compare.
//!
//! Positions are kept as they are and hashed only when a repetition becomes
//! possible (four reversible plies at the end of a game, sixteen for a
//! fivefold repetition during it). Most runs of reversible moves in real
//! games are shorter than that, so most positions are never hashed at all;
//! hashing every position as it was played cost more than the rest of
//! classification together.

use shakmaty::{Chess, EnPassantMode, Position, zobrist::Zobrist64};

/// The repetition hash of a position: Zobrist with shakmaty's legal
/// en-passant mode, so that an en-passant square counts only when the
/// capture is possible (art. 9.2.2). Castling rights and the side to move
/// are part of it.
pub fn position_hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The positions before the current one since the last irreversible move,
/// oldest first. Consecutive entries alternate the side to move, so a
/// position can only recur at an even distance.
///
/// The current position is not kept here but passed in when asked about:
/// a move is recorded by copying the position it is played from, written
/// one move earlier, not the position it has just written field by field
/// (reading that back at once stalled the copy; it was half of the
/// per-move bookkeeping's time).
#[derive(Clone, Debug, Default)]
pub struct PositionHistory {
    earlier: Vec<Chess>,
    /// Hashes of `earlier[..hashes.len()]`, filled in on demand.
    hashes: Vec<u64>,
    /// A buffer reused from game to game for [`Self::third_occurrence_possible`].
    same_side: Vec<u64>,
}

impl PositionHistory {
    pub fn new() -> PositionHistory {
        PositionHistory {
            earlier: Vec::with_capacity(128),
            hashes: Vec::with_capacity(128),
            same_side: Vec::with_capacity(64),
        }
    }

    /// Starts a game.
    pub fn reset(&mut self) {
        self.earlier.clear();
        self.hashes.clear();
    }

    /// Records that a move is played from `before`. After an irreversible
    /// move (pawn move, capture, loss of a castling right or of a possible
    /// en-passant capture) no earlier position can ever recur.
    pub fn record_move(&mut self, before: &Chess, irreversible: bool) {
        if irreversible {
            self.earlier.clear();
            self.hashes.clear();
        } else {
            self.earlier.push(before.clone());
        }
    }

    /// Number of plies since the last irreversible move.
    pub fn reversible_plies(&self) -> usize {
        self.earlier.len()
    }

    fn hash_all(&mut self) -> &[u64] {
        for pos in &self.earlier[self.hashes.len()..] {
            self.hashes.push(position_hash(pos));
        }
        &self.hashes
    }

    /// How many times the current position has occurred, this time included.
    pub fn current_count(&mut self, current: &Chess) -> u32 {
        if self.earlier.len() < 4 {
            return 1;
        }
        let hash = position_hash(current);
        1 + count_every_other_from_end(self.hash_all(), hash, 1)
    }

    /// Whether some move from the current position could make a position
    /// occur a third time: only if a position with the side to move after
    /// that move already occurred twice since the last irreversible move.
    /// Most final positions have no such pair, and then no move needs to be
    /// played and hashed to know it ([`Self::count_after_move`] of every
    /// move would be below 3).
    pub fn third_occurrence_possible(&mut self) -> bool {
        if self.earlier.len() < 3 {
            return false;
        }
        self.hash_all();
        let same_side = &mut self.same_side;
        same_side.clear();
        same_side.extend(self.hashes.iter().rev().step_by(2));
        same_side.sort_unstable();
        same_side.windows(2).any(|pair| pair[0] == pair[1])
    }

    /// How many times the position reached by one more move from the
    /// current position would have occurred, that time included.
    pub fn count_after_move(&mut self, after: &Chess) -> u32 {
        if self.earlier.len() < 3 {
            return 1;
        }
        let hash = position_hash(after);
        1 + count_every_other_from_end(self.hash_all(), hash, 0)
    }
}

/// Counts `hash` among `hashes[len-1-skip]`, `hashes[len-3-skip]`, …: the
/// entries with the same side to move as the position asked about.
fn count_every_other_from_end(hashes: &[u64], hash: u64, skip: usize) -> u32 {
    hashes
        .iter()
        .rev()
        .skip(skip)
        .step_by(2)
        .filter(|&&h| h == hash)
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Square, uci::UciMove};

    /// A game's current position and its history, as the arbiter keeps
    /// them.
    struct Game {
        pos: Chess,
        history: PositionHistory,
    }

    impl Game {
        fn new() -> Game {
            Game {
                pos: Chess::default(),
                history: PositionHistory::new(),
            }
        }

        fn play(&mut self, uci: &str) {
            let m = uci.parse::<UciMove>().unwrap().to_move(&self.pos).unwrap();
            let irreversible = self.pos.is_irreversible(m);
            self.history.record_move(&self.pos, irreversible);
            self.pos.play_unchecked(m);
        }

        /// The position after one more move, without playing it.
        fn after(&self, uci: &str) -> Chess {
            let mut pos = self.pos.clone();
            let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            pos
        }
    }

    #[test]
    fn counts_same_side_to_move_only() {
        let mut g = Game::new();
        for uci in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            g.play(uci);
        }
        assert_eq!(g.history.reversible_plies(), 8);
        assert_eq!(g.history.current_count(&g.pos), 3);
        assert!(g.history.third_occurrence_possible());
        // Nf3 now would make the position after 1.Nf3 occur a third time.
        let next = g.after("g1f3");
        assert_eq!(g.history.count_after_move(&next), 3);
        // Nc3 never occurred before.
        let other = g.after("b1c3");
        assert_eq!(g.history.count_after_move(&other), 1);
        // A pawn move: nothing before it can recur.
        g.play("e2e4");
        assert_eq!(g.history.current_count(&g.pos), 1);
        assert_eq!(g.history.reversible_plies(), 0);
        assert!(g.pos.board().piece_at(Square::E4).is_some());
    }

    #[test]
    fn no_third_occurrence_without_a_position_seen_twice() {
        let mut g = Game::new();
        // 1.Nf3 Nf6 2.Nc3 Nc6 3.Ng5: each knight move reaches a new position.
        for uci in ["g1f3", "g8f6", "b1c3", "b8c6", "f3g5"] {
            g.play(uci);
        }
        assert_eq!(g.history.reversible_plies(), 5);
        assert!(!g.history.third_occurrence_possible());
        // 3...Nb8 4.Nf3 Nc6 5.Ng5 Nb8: the position after 3.Ng5 (Black to
        // move) recurs after 5.Ng5, so 6.Nf3 Nc6 7.Ng5 could make it a third
        // time.
        for uci in ["c6b8", "g5f3", "b8c6", "f3g5", "c6b8"] {
            g.play(uci);
        }
        assert!(g.history.third_occurrence_possible());
    }
}
