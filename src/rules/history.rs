//! The positions of a game since its last irreversible move, as Zobrist
//! hashes: what the repetition rules (9.2, 9.6.1) compare.

/// Hashes of the positions since the last irreversible move, oldest first;
/// the last entry is the current position. Consecutive entries alternate
/// the side to move, so a position can only recur at an even distance.
///
/// The hashes must be computed with shakmaty's `EnPassantMode::Legal`:
/// art. 9.2.2 counts an en-passant square only when the capture is possible.
#[derive(Clone, Debug, Default)]
pub struct PositionHistory {
    hashes: Vec<u64>,
}

impl PositionHistory {
    pub fn new() -> PositionHistory {
        PositionHistory {
            hashes: Vec::with_capacity(128),
        }
    }

    /// Starts a game at a position.
    pub fn reset(&mut self, start: u64) {
        self.hashes.clear();
        self.hashes.push(start);
    }

    /// Records the position reached by a move. After an irreversible move
    /// (pawn move, capture, loss of a castling right or of a possible
    /// en-passant capture) no earlier position can ever recur.
    pub fn push(&mut self, hash: u64, after_irreversible_move: bool) {
        if after_irreversible_move {
            self.hashes.clear();
        }
        self.hashes.push(hash);
    }

    /// Number of plies since the last irreversible move.
    pub fn reversible_plies(&self) -> usize {
        self.hashes.len().saturating_sub(1)
    }

    /// How many times the current position has occurred, this time included.
    pub fn current_count(&self) -> u32 {
        match self.hashes.split_last() {
            Some((&current, earlier)) => 1 + count_every_other_from_end(earlier, current, 1),
            None => 0,
        }
    }

    /// How many times a position reached by one more move from the current
    /// position would have occurred, that time included.
    pub fn count_after_move(&self, hash: u64) -> u32 {
        1 + count_every_other_from_end(&self.hashes, hash, 1)
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

    #[test]
    fn counts_same_side_to_move_only() {
        let mut h = PositionHistory::new();
        h.reset(1);
        for x in [2, 3, 4, 1, 2, 3, 4, 1] {
            h.push(x, false);
        }
        assert_eq!(h.current_count(), 3);
        // One more move to 2 would make position 2 occur a third time.
        assert_eq!(h.count_after_move(2), 3);
        // Position 3 was seen only with the other side to move at that
        // distance parity, so it does not count after one move.
        assert_eq!(h.count_after_move(3), 1);
        h.push(9, true);
        assert_eq!(h.current_count(), 1);
        assert_eq!(h.reversible_plies(), 0);
    }
}
