//! Whether an event's games in the tables form a complete crosstable, so
//! that ranking its players under another scoring system ranks the event
//! and not the data: a **round robin** (every pair of its players met, each
//! pair equally often: once, twice for a double round robin; a match is the
//! round robin of two) or a **Swiss** event with every round's pairings
//! (rounds 1 to R numbered in the `Round` tag, each with half the players'
//! number of games, no player twice in a round, no pair twice).
//!
//! The counts are kept only for events whose standings look complete in
//! one table (every player's number of games within one of the most): an
//! event split across tables, each part looking incomplete, is judged
//! incomplete after the merge too, which errs on the side of leaving out.
//! Within one table, however it is read in batches, an event is judged
//! from all its games ([`super::build`]).

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::merge::{Merge, pairs};
use super::table::names;
use remis_table::schema::Column;

/// An event by its `Event` tag and year.
pub type EventYear = (String, Option<i16>);

/// What the rule needs of an event: games by pairing (the two names in
/// order), and by round number its games and whether a player was seen
/// twice in it; games without a round number.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairingCounts {
    #[serde(with = "pairs")]
    pub pairings: BTreeMap<(EventYear, String, String), u64>,
    /// By round: games, and 1 when a player played twice in it.
    #[serde(with = "pairs")]
    pub rounds: BTreeMap<(EventYear, u32), [u64; 2]>,
    #[serde(with = "pairs")]
    pub unnumbered: BTreeMap<EventYear, u64>,
}

impl Merge for PairingCounts {
    fn absorb(&mut self, other: PairingCounts) {
        self.pairings.absorb(other.pairings);
        self.rounds.absorb(other.rounds);
        self.unnumbered.absorb(other.unnumbered);
    }
}

/// What an event's games are, when they are a complete crosstable.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Crosstable {
    /// Every pair met `cycles` times.
    RoundRobin { cycles: u64 },
    /// Every round's pairings, rounds 1 to `rounds`.
    Swiss { rounds: u32 },
}

/// The name a missing player is counted under, as in the standings.
pub const UNKNOWN_PLAYER: &str = "?";

/// Games by event, year, `Round` tag and pairing, for the events
/// `events` lists (columns event, year).
pub fn query(used: LazyFrame, events: LazyFrame) -> LazyFrame {
    let mut semi = JoinArgs::new(JoinType::Semi);
    semi.nulls_equal = true;
    let keys = [Column::Event.col(), Column::Year.col()];
    used.filter(Column::Event.col().is_not_null())
        .join(events, keys.clone(), keys, semi)
        .select([
            Column::Event.col(),
            Column::Year.col(),
            Column::Round.col(),
            Column::White.col().fill_null(lit(UNKNOWN_PLAYER)),
            Column::Black.col().fill_null(lit(UNKNOWN_PLAYER)),
        ])
        .group_by([
            Column::Event.col(),
            Column::Year.col(),
            Column::Round.col(),
            Column::White.col(),
            Column::Black.col(),
        ])
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

/// A `Round` tag's round number: the part before any dot ("3.1" is board
/// 1 of round 3).
pub(crate) fn round_number(tag: &str) -> Option<u32> {
    tag.split('.').next()?.trim().parse().ok()
}

/// The counts of the events `keep` accepts, from the frame of [`query`].
pub fn counts_from(df: &DataFrame, keep: &dyn Fn(&EventYear) -> bool) -> Result<PairingCounts> {
    let events = df.column(Column::Event.name())?.str()?;
    let years = df.column(Column::Year.name())?.i16()?;
    let rounds = df.column(Column::Round.name())?.str()?;
    let white = df.column(Column::White.name())?.str()?;
    let black = df.column(Column::Black.name())?.str()?;
    let n = df.column(names::N)?.u64()?;
    let mut out = PairingCounts::default();
    // Games of each player in each round, to see a player twice.
    let mut seen: BTreeMap<(EventYear, u32, &str), u64> = BTreeMap::new();
    for i in 0..df.height() {
        let key = (events.get(i).unwrap_or_default().to_string(), years.get(i));
        if !keep(&key) {
            continue;
        }
        let games = n.get(i).unwrap_or(0);
        let (w, b) = (
            white.get(i).unwrap_or(UNKNOWN_PLAYER),
            black.get(i).unwrap_or(UNKNOWN_PLAYER),
        );
        let (first, second) = if w <= b { (w, b) } else { (b, w) };
        *out.pairings
            .entry((key.clone(), first.to_string(), second.to_string()))
            .or_insert(0) += games;
        match rounds.get(i).and_then(round_number) {
            None => *out.unnumbered.entry(key).or_insert(0) += games,
            Some(r) => {
                out.rounds.entry((key.clone(), r)).or_insert([0; 2])[0] += games;
                for player in [w, b] {
                    *seen.entry((key.clone(), r, player)).or_insert(0) += games;
                }
            }
        }
    }
    for ((key, r, _), games) in seen {
        if games > 1 {
            out.rounds.entry((key, r)).or_insert([0; 2])[1] = 1;
        }
    }
    Ok(out)
}

/// The event's games as a crosstable, given its players; `None` when
/// they are neither a complete round robin nor a complete Swiss event.
pub fn crosstable(
    counts: &PairingCounts,
    event: &EventYear,
    players: &[&str],
) -> Option<Crosstable> {
    let k = players.len() as u64;
    if k < 2 {
        return None;
    }
    let from = (event.clone(), String::new(), String::new());
    let met: Vec<u64> = counts
        .pairings
        .range(from..)
        .take_while(|((e, _, _), _)| e == event)
        .map(|(_, &n)| n)
        .collect();
    let all_pairs = k * (k - 1) / 2;
    if met.len() as u64 == all_pairs && met.iter().all(|&n| n == met[0]) {
        return Some(Crosstable::RoundRobin { cycles: met[0] });
    }
    if counts.unnumbered.get(event).copied().unwrap_or(0) > 0 || met.iter().any(|&n| n != 1) {
        return None;
    }
    let rounds: Vec<(u32, [u64; 2])> = counts
        .rounds
        .range((event.clone(), 0)..)
        .take_while(|((e, _), _)| e == event)
        .map(|((_, r), s)| (*r, *s))
        .collect();
    let numbered_from_one = rounds
        .iter()
        .enumerate()
        .all(|(i, (r, _))| *r as usize == i + 1);
    let full = rounds
        .iter()
        .all(|(_, [games, twice])| *games == k / 2 && *twice == 0);
    (rounds.len() >= 2 && numbered_from_one && full).then_some(Crosstable::Swiss {
        rounds: rounds.len() as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts from games (white, black, round).
    fn counts(games: &[(&str, &str, &str)]) -> (PairingCounts, Vec<String>) {
        let df = df! {
            Column::Event.name() => vec!["E"; games.len()],
            Column::Year.name() => vec![2000i16; games.len()],
            Column::Round.name() => games.iter().map(|g| g.2).collect::<Vec<_>>(),
            Column::White.name() => games.iter().map(|g| g.0).collect::<Vec<_>>(),
            Column::Black.name() => games.iter().map(|g| g.1).collect::<Vec<_>>(),
        }
        .unwrap();
        let frame = query(
            df.clone().lazy(),
            df.lazy()
                .select([Column::Event.col(), Column::Year.col()])
                .unique(None, UniqueKeepStrategy::Any),
        )
        .collect()
        .unwrap();
        let mut players: Vec<String> = games
            .iter()
            .flat_map(|g| [g.0.to_string(), g.1.to_string()])
            .collect();
        players.sort();
        players.dedup();
        (counts_from(&frame, &|_| true).unwrap(), players)
    }

    fn judge(games: &[(&str, &str, &str)]) -> Option<Crosstable> {
        let (c, players) = counts(games);
        let players: Vec<&str> = players.iter().map(String::as_str).collect();
        crosstable(&c, &("E".to_string(), Some(2000)), &players)
    }

    #[test]
    fn a_round_robin_needs_every_pair_equally_often() {
        let single = [
            ("A", "B", "1"),
            ("C", "D", "1"),
            ("A", "C", "2"),
            ("B", "D", "2"),
            ("A", "D", "3"),
            ("B", "C", "3"),
        ];
        assert_eq!(judge(&single), Some(Crosstable::RoundRobin { cycles: 1 }));
        let mut double = single.to_vec();
        double.extend(single.iter().map(|(w, b, _)| (*b, *w, "?")));
        assert_eq!(judge(&double), Some(Crosstable::RoundRobin { cycles: 2 }));
        // One game of the second cycle missing: neither.
        double.pop();
        assert_eq!(judge(&double), None);
        // A match is the round robin of two.
        assert_eq!(
            judge(&[
                ("A", "B", "1"),
                ("B", "A", "2"),
                ("A", "B", "3"),
                ("B", "A", "4")
            ]),
            Some(Crosstable::RoundRobin { cycles: 4 })
        );
    }

    #[test]
    fn a_swiss_event_needs_every_rounds_pairings() {
        // Six players, three rounds of three boards, no pair twice.
        let swiss = [
            ("A", "B", "1.1"),
            ("C", "D", "1.2"),
            ("E", "F", "1.3"),
            ("A", "C", "2.1"),
            ("B", "E", "2.2"),
            ("D", "F", "2.3"),
            ("A", "E", "3.1"),
            ("C", "F", "3.2"),
            ("B", "D", "3.3"),
        ];
        assert_eq!(judge(&swiss), Some(Crosstable::Swiss { rounds: 3 }));
        // A board of round 2 missing.
        let mut missing = swiss.to_vec();
        missing.remove(4);
        assert_eq!(judge(&missing), None);
        // Rounds that do not start at 1 (the first round's games absent).
        assert_eq!(judge(&swiss[3..]), None);
        // A player twice in one round.
        let mut twice = swiss.to_vec();
        twice[5] = ("A", "F", "2.3");
        assert_eq!(judge(&twice), None);
        // Without round numbers a Swiss cannot be checked.
        let unnumbered: Vec<_> = swiss.iter().map(|(w, b, _)| (*w, *b, "?")).collect();
        assert_eq!(judge(&unnumbered), None);
    }
}
