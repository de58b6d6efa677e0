//! De-duplication: the same game seen twice (TWIC corrections, both
//! players' files of a player collection) gets the same key.
//!
//! The key is made of the normalised player names, the year, the result and
//! the hash of the moves (with the start position when set up). Names are
//! normalised to "surname initial": "Kasparov, Garry", "Kasparov,G" and
//! "Kasparov, G." are all `kasparov g`. Dates are reduced to the year
//! because copies of one game often differ in how much of the date they
//! know ("1999.??.??" against "1999.03.14"); event, site and round are left
//! out because collections spell them differently.

use std::hash::{Hash, Hasher};

/// The de-duplication key of a game, its players read through `aliases`.
///
/// ```
/// use remis_table::{dedup::game_key, players::Aliases};
/// let aliases = Aliases::default();
/// let key = |w: &str, b: &str| game_key(Some(w), Some(b), Some(1984), Some("1/2-1/2"), 42, 80, &aliases);
/// // Two databases' copies of one game.
/// assert_eq!(key("Kasparov, Garry", "Karpov, Anatoly"), key("Kasparov,G", "Karpov,A"));
/// ```
pub fn game_key(
    white: Option<&str>,
    black: Option<&str>,
    year: Option<i16>,
    result: Option<&str>,
    movetext_hash: u64,
    plies: u32,
    aliases: &crate::players::Aliases,
) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // The players' identities: two databases spell one player apart.
    white.and_then(|w| aliases.player_key(w)).hash(&mut h);
    black.and_then(|b| aliases.player_key(b)).hash(&mut h);
    year.hash(&mut h);
    result.hash(&mut h);
    movetext_hash.hash(&mut h);
    plies.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_spelled_apart_share_a_key() {
        // Two databases' copies of one game: the player identity
        // (`players::player_key`) folds transliterations and accents.
        let aliases = crate::players::Aliases::default();
        let key = |w: &str, b: &str| {
            game_key(
                Some(w),
                Some(b),
                Some(1978),
                Some("1/2-1/2"),
                7,
                90,
                &aliases,
            )
        };
        assert_eq!(
            key("Kortschnoj, Viktor", "Karpov, Anatoly"),
            key("Korchnoi,V", "Karpov,A")
        );
        assert_eq!(
            key("Hübner, Robert", "Vachier-Lagrave, Maxime"),
            key("Huebner,R", "Vachier Lagrave,M")
        );
        assert_ne!(key("Korchnoi,V", "Karpov,A"), key("Karpov,A", "Korchnoi,V"));
    }

    #[test]
    fn same_game_same_key() {
        let aliases = crate::players::Aliases::default();
        let a = game_key(
            Some("Kasparov, Garry"),
            Some("Karpov, Anatoly"),
            Some(1990),
            Some("1/2-1/2"),
            42,
            80,
            &aliases,
        );
        let b = game_key(
            Some("Kasparov,G"),
            Some("Karpov,A"),
            Some(1990),
            Some("1/2-1/2"),
            42,
            80,
            &aliases,
        );
        assert_eq!(a, b);
        let other_moves = game_key(
            Some("Kasparov,G"),
            Some("Karpov,A"),
            Some(1990),
            Some("1/2-1/2"),
            43,
            80,
            &aliases,
        );
        assert_ne!(a, other_moves);
        let swapped = game_key(
            Some("Karpov,A"),
            Some("Kasparov,G"),
            Some(1990),
            Some("1/2-1/2"),
            42,
            80,
            &aliases,
        );
        assert_ne!(a, swapped);
    }
}

/// Marks the later copies of a game. Keeps one entry per distinct game
/// (16 bytes), the price of finding duplicates across a whole input.
#[derive(Debug, Default)]
pub struct Deduplicator {
    first_row: std::collections::HashMap<u64, u64>,
    pub duplicates: u64,
}

impl Deduplicator {
    /// The row of the first game with this key, when `row` is a later copy.
    pub fn mark(&mut self, key: u64, row: u64) -> Option<u64> {
        match self.first_row.entry(key) {
            std::collections::hash_map::Entry::Occupied(first) => {
                self.duplicates += 1;
                Some(*first.get())
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(row);
                None
            }
        }
    }
}
