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

/// Positions since the last irreversible move, oldest first; the last one
/// is the current position. Consecutive entries alternate the side to move,
/// so a position can only recur at an even distance.
#[derive(Clone, Debug, Default)]
pub struct PositionHistory {
    positions: Vec<Chess>,
    /// Hashes of `positions[..hashes.len()]`, filled in on demand.
    hashes: Vec<u64>,
}

impl PositionHistory {
    pub fn new() -> PositionHistory {
        PositionHistory {
            positions: Vec::with_capacity(128),
            hashes: Vec::with_capacity(128),
        }
    }

    /// Starts a game at a position.
    pub fn reset(&mut self, start: &Chess) {
        self.positions.clear();
        self.hashes.clear();
        self.positions.push(start.clone());
    }

    /// Records the position reached by a move. After an irreversible move
    /// (pawn move, capture, loss of a castling right or of a possible
    /// en-passant capture) no earlier position can ever recur.
    pub fn push(&mut self, pos: &Chess, after_irreversible_move: bool) {
        if after_irreversible_move {
            self.positions.clear();
            self.hashes.clear();
        }
        self.positions.push(pos.clone());
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

    fn play(pos: &mut Chess, uci: &str) -> bool {
        let m = uci.parse::<UciMove>().unwrap().to_move(pos).unwrap();
        let irreversible = pos.is_irreversible(m);
        pos.play_unchecked(m);
        irreversible
    }

    #[test]
    fn counts_same_side_to_move_only() {
        let mut pos = Chess::default();
        let mut h = PositionHistory::new();
        h.reset(&pos);
        for uci in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            let irreversible = play(&mut pos, uci);
            h.push(&pos, irreversible);
        }
        assert_eq!(h.current_count(), 3);
        // Nf3 now would make the position after 1.Nf3 occur a third time.
        let mut next = pos.clone();
        play(&mut next, "g1f3");
        assert_eq!(h.count_after_move(&next), 3);
        // Nc3 never occurred before.
        let mut other = pos.clone();
        play(&mut other, "b1c3");
        assert_eq!(h.count_after_move(&other), 1);
        let irreversible = play(&mut pos, "e2e4");
        assert!(irreversible);
        h.push(&pos, irreversible);
        assert_eq!(h.current_count(), 1);
        assert_eq!(h.reversible_plies(), 0);
        assert!(pos.board().piece_at(Square::E4).is_some());
    }
}
