//! How counts add up across tables: the [`Merge`] trait every part of a
//! summary implements, and the serde form of maps with tuple keys. A leaf
//! of the analysis layer, so that each part can merge without knowing the
//! summary that gathers them.

use std::collections::{BTreeMap, BTreeSet};

use crate::study::Proportion;

/// Adds the counts of another part (a later table) to these. Counts
/// saturate, never wrap: a corrupt summary can make a figure absurd (and
/// `summary::read` refuses the ones whose counts do not add up), but never
/// turn 200 games into 50.
pub trait Merge {
    fn absorb(&mut self, other: Self);
}

impl Merge for u64 {
    fn absorb(&mut self, other: u64) {
        *self = self.saturating_add(other);
    }
}

impl Merge for u16 {
    fn absorb(&mut self, other: u16) {
        *self = self.saturating_add(other);
    }
}

impl Merge for Proportion {
    fn absorb(&mut self, other: Proportion) {
        self.n = self.n.saturating_add(other.n);
        self.successes = self.successes.saturating_add(other.successes);
    }
}

impl<T: Merge, const N: usize> Merge for [T; N] {
    fn absorb(&mut self, other: [T; N]) {
        for (a, b) in self.iter_mut().zip(other) {
            a.absorb(b);
        }
    }
}

impl<T: Ord> Merge for BTreeSet<T> {
    fn absorb(&mut self, other: BTreeSet<T>) {
        if self.is_empty() {
            *self = other;
            return;
        }
        self.extend(other);
    }
}

impl<K: Ord, V: Merge> Merge for BTreeMap<K, V> {
    fn absorb(&mut self, other: BTreeMap<K, V>) {
        // A batch's counts into none yet (the first batch, a part's first
        // entry): taken whole, not key by key.
        if self.is_empty() {
            *self = other;
            return;
        }
        for (key, value) in other {
            match self.entry(key) {
                std::collections::btree_map::Entry::Vacant(e) => {
                    e.insert(value);
                }
                std::collections::btree_map::Entry::Occupied(mut e) => e.get_mut().absorb(value),
            }
        }
    }
}

/// Maps with tuple keys as lists of `[key, value]` pairs (JSON object keys
/// must be strings).
pub mod pairs {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        map: &BTreeMap<K, V>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(map.iter())
    }

    pub fn deserialize<'de, K, V, D>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        let entries: Vec<(K, V)> = Vec::deserialize(deserializer)?;
        Ok(entries.into_iter().collect())
    }
}
