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

/// "Surname, Given Names" or "Given Surname" → "surname g" (lowercase ASCII
/// letters where possible, first initial of the given names).
pub fn normalise_name(name: &str) -> String {
    let name = name.trim();
    let (surname, given) = match name.split_once(',') {
        Some((s, g)) => (s.trim(), g.trim()),
        None => match name.rsplit_once(' ') {
            Some((g, s)) => (s.trim(), g.trim()),
            None => (name, ""),
        },
    };
    let mut out: String = surname
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == ' ')
        .flat_map(char::to_lowercase)
        .collect();
    if let Some(initial) = given.chars().find(|c| c.is_alphabetic()) {
        out.push(' ');
        out.extend(initial.to_lowercase());
    }
    out
}

/// The de-duplication key of a game.
pub fn game_key(
    white: Option<&str>,
    black: Option<&str>,
    year: Option<i16>,
    result: Option<&str>,
    movetext_hash: u64,
    plies: u32,
) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    white.map(normalise_name).hash(&mut h);
    black.map(normalise_name).hash(&mut h);
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
    fn one_player_many_spellings() {
        for spelling in [
            "Kasparov, Garry",
            "Kasparov,G",
            "Kasparov, G.",
            "Garry Kasparov",
            " kasparov,g ",
        ] {
            assert_eq!(normalise_name(spelling), "kasparov g", "{spelling}");
        }
        assert_ne!(
            normalise_name("Kasparov, Garry"),
            normalise_name("Karpov, Anatoly")
        );
        assert_eq!(normalise_name("Carlsen"), "carlsen");
    }

    #[test]
    fn same_game_same_key() {
        let a = game_key(
            Some("Kasparov, Garry"),
            Some("Karpov, Anatoly"),
            Some(1990),
            Some("1/2-1/2"),
            42,
            80,
        );
        let b = game_key(
            Some("Kasparov,G"),
            Some("Karpov,A"),
            Some(1990),
            Some("1/2-1/2"),
            42,
            80,
        );
        assert_eq!(a, b);
        let other_moves = game_key(
            Some("Kasparov,G"),
            Some("Karpov,A"),
            Some(1990),
            Some("1/2-1/2"),
            43,
            80,
        );
        assert_ne!(a, other_moves);
        let swapped = game_key(
            Some("Karpov,A"),
            Some("Kasparov,G"),
            Some(1990),
            Some("1/2-1/2"),
            42,
            80,
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
