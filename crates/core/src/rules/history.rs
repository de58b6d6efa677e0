//! The positions of a game since its last irreversible move: what the
//! repetition rules (9.2, 9.6.1) compare.
//!
//! Positions are kept as they are and hashed only when a repetition becomes
//! possible (four reversible plies at the end of a game, sixteen for a
//! fivefold repetition during it). Most runs of reversible moves in real
//! games are shorter than that, so most positions are never hashed at all;
//! hashing every position as it was played cost more than the rest of
//! classification together.

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

/// The repetition hash of a position: Zobrist with shakmaty's legal
/// en-passant mode, so that an en-passant square counts only when the
/// capture is possible (art. 9.2.2). Castling rights and the side to move
/// are part of it.
pub fn position_hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Positions since the last irreversible move, oldest first; the last one
/// is the current position. Consecutive entries alternate the side to move,
/// so a position can only recur at an even distance.
#[derive(Clone, Debug, Default)]
pub struct PositionHistory {
    positions: Vec<Chess>,
    /// Hashes of `positions[..hashes.len()]`, filled in on demand.
    hashes: Vec<u64>,
    /// A buffer reused from game to game for [`Self::third_occurrence_possible`].
    same_side: Vec<u64>,
}

impl PositionHistory {
    pub fn new() -> PositionHistory {
        PositionHistory {
            positions: Vec::with_capacity(128),
            hashes: Vec::with_capacity(128),
            same_side: Vec::with_capacity(64),
        }
    }

    /// Starts a game at a position.
    pub fn reset(&mut self, start: &Chess) {
        self.positions.clear();
        self.hashes.clear();
        self.positions.push(start.clone());
    }

    /// The position now: the last one recorded.
    pub fn current(&self) -> &Chess {
        self.positions.last().expect("a game has a start position")
    }

    /// Plays a legal move from the current position. After an irreversible
    /// move (pawn move, capture, loss of a castling right or of a possible
    /// en-passant capture) no earlier position can ever recur, so only the
    /// new one is kept.
    ///
    /// The move is played in place, on the history's own copy: playing it
    /// elsewhere and copying the position in afterwards read back memory
    /// the move had just written field by field, and that copy was half of
    /// the per-move bookkeeping's time.
    pub fn play(&mut self, m: Move) {
        let last = self.positions.len() - 1;
        if self.positions[last].is_irreversible(m) {
            self.positions.swap(0, last);
            self.positions.truncate(1);
            self.hashes.clear();
        } else {
            let next = self.positions[last].clone();
            self.positions.push(next);
        }
        self.positions
            .last_mut()
            .expect("a game has a start position")
            .play_unchecked(m);
    }

    /// Number of plies since the last irreversible move.
    pub fn reversible_plies(&self) -> usize {
        self.positions.len().saturating_sub(1)
    }

    fn hash_all(&mut self) -> &[u64] {
        for pos in &self.positions[self.hashes.len()..] {
            self.hashes.push(position_hash(pos));
        }
        &self.hashes
    }

    /// How many times the current position has occurred, this time included.
    pub fn current_count(&mut self) -> u32 {
        if self.positions.len() < 5 {
            return u32::from(!self.positions.is_empty());
        }
        match self.hash_all().split_last() {
            Some((&current, earlier)) => 1 + count_every_other_from_end(earlier, current, 1),
            None => 0,
        }
    }

    /// Whether some move from the current position could make a position
    /// occur a third time: only if a position with the side to move after
    /// that move already occurred twice since the last irreversible move.
    /// Most final positions have no such pair, and then no move needs to be
    /// played and hashed to know it ([`Self::count_after_move`] of every
    /// move would be below 3).
    pub fn third_occurrence_possible(&mut self) -> bool {
        if self.positions.len() < 4 {
            return false;
        }
        self.hash_all();
        let earlier = &mut self.same_side;
        earlier.clear();
        earlier.extend(self.hashes.iter().rev().skip(1).step_by(2));
        earlier.sort_unstable();
        earlier.windows(2).any(|pair| pair[0] == pair[1])
    }

    /// How many times the position reached by one more move from the
    /// current position would have occurred, that time included.
    pub fn count_after_move(&mut self, after: &Chess) -> u32 {
        if self.positions.len() < 4 {
            return 1;
        }
        let hash = position_hash(after);
        1 + count_every_other_from_end(self.hash_all(), hash, 1)
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

    /// Plays a move given in UCI on the history's current position.
    fn play(h: &mut PositionHistory, uci: &str) {
        let m = uci
            .parse::<UciMove>()
            .unwrap()
            .to_move(h.current())
            .unwrap();
        h.play(m);
    }

    /// The position after one more move, without playing it.
    fn after(h: &PositionHistory, uci: &str) -> Chess {
        let mut pos = h.current().clone();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        pos
    }

    #[test]
    fn counts_same_side_to_move_only() {
        let mut h = PositionHistory::new();
        h.reset(&Chess::default());
        for uci in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            play(&mut h, uci);
        }
        assert_eq!(h.current(), &Chess::default());
        assert_eq!(h.reversible_plies(), 8);
        assert_eq!(h.current_count(), 3);
        assert!(h.third_occurrence_possible());
        // Nf3 now would make the position after 1.Nf3 occur a third time.
        let next = after(&h, "g1f3");
        assert_eq!(h.count_after_move(&next), 3);
        // Nc3 never occurred before.
        let other = after(&h, "b1c3");
        assert_eq!(h.count_after_move(&other), 1);
        // A pawn move: nothing before it can recur.
        play(&mut h, "e2e4");
        assert_eq!(h.current_count(), 1);
        assert_eq!(h.reversible_plies(), 0);
        assert!(h.current().board().piece_at(Square::E4).is_some());
        assert_eq!(h.current().halfmoves(), 0);
    }

    #[test]
    fn no_third_occurrence_without_a_position_seen_twice() {
        let mut h = PositionHistory::new();
        h.reset(&Chess::default());
        // Each knight move reaches a new position.
        for uci in ["g1f3", "g8f6", "b1c3", "b8c6", "f3g5"] {
            play(&mut h, uci);
        }
        assert_eq!(h.reversible_plies(), 5);
        assert!(!h.third_occurrence_possible());
        // 3...Nb8 4.Nf3 Nc6 5.Ng5 Nb8: the position after 3.Ng5 (Black to
        // move) recurs after 5.Ng5, so 6.Nf3 Nc6 7.Ng5 could make it a third
        // time.
        for uci in ["c6b8", "g5f3", "b8c6", "f3g5", "c6b8"] {
            play(&mut h, uci);
        }
        assert!(h.third_occurrence_possible());
    }
}
