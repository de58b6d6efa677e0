//! One event's standings as the summary keeps them: its players sorted by
//! name, each with her points. The standings are the largest part of a
//! summary (up to [`super::scoring::STANDINGS_KEPT`] entries), so an entry
//! is kept small: a name inline up to 24 bytes, 16-bit counts, and a
//! sorted vector rather than a tree (some 36 bytes an entry instead of
//! the 105 a `BTreeMap<String, [u64; 5]>` took).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::merge::Merge;

/// A player's name in the standings: inline up to 24 bytes, so that an
/// entry costs no allocation of its own.
pub type Player = compact_str::CompactString;

/// Points of one player under each scoring system, in the systems' units,
/// and (last) the games the player played. 16 bits hold them: an event in
/// the standings has at most [`super::scoring::STANDINGS_MAX_GAMES`]
/// games, and a game is worth a few units (asserted in `scoring`).
pub type Points = [u16; 5];

/// One event's players, sorted by name, and their points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventStandings(Vec<(Player, Points)>);

impl EventStandings {
    /// Standings from entries in any order; a name met twice has its
    /// points added up.
    pub fn from_entries(mut entries: Vec<(Player, Points)>) -> Self {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Player, Points)> = Vec::with_capacity(entries.len());
        for (name, points) in entries {
            match out.last_mut() {
                Some((last, sum)) if *last == name => sum.absorb(points),
                _ => out.push((name, points)),
            }
        }
        EventStandings(out)
    }

    /// Players in the standings.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The players and their points, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&Player, &Points)> {
        self.0.iter().map(|(name, points)| (name, points))
    }
}

impl Merge for EventStandings {
    /// Merges two sorted lists into one of just the room it needs: the
    /// standings grow batch by batch, and a vector grown by doubling
    /// would hold up to twice the memory.
    fn absorb(&mut self, other: EventStandings) {
        if other.0.is_empty() {
            return;
        }
        let mine = std::mem::take(&mut self.0);
        let mut out = Vec::with_capacity(mine.len() + other.0.len());
        let (mut a, mut b) = (mine.into_iter().peekable(), other.0.into_iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => match x.0.cmp(&y.0) {
                    std::cmp::Ordering::Less => a.next(),
                    std::cmp::Ordering::Greater => b.next(),
                    std::cmp::Ordering::Equal => {
                        let (name, mut points) = a.next().expect("peeked");
                        points.absorb(b.next().expect("peeked").1);
                        Some((name, points))
                    }
                },
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            out.extend(next);
        }
        if out.capacity() > out.len() + out.len() / 8 {
            out.shrink_to_fit();
        }
        self.0 = out;
    }
}

/// Written as a JSON object from name to points, as the summary's
/// standings always were.
impl Serialize for EventStandings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for EventStandings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<Player, Points>::deserialize(deserializer)?;
        Ok(EventStandings(map.into_iter().collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standings(entries: &[(&str, u16)]) -> EventStandings {
        EventStandings::from_entries(
            entries
                .iter()
                .map(|&(name, games)| (Player::from(name), [2 * games, 0, 0, 0, games]))
                .collect(),
        )
    }

    #[test]
    fn merged_standings_are_sorted_and_add_up() {
        let mut a = standings(&[("Tal", 1), ("Anand", 2), ("Tal", 1)]);
        assert_eq!(a.len(), 2, "a name met twice is one player");
        a.absorb(standings(&[("Carlsen", 1), ("Tal", 3)]));
        let names: Vec<&str> = a.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Anand", "Carlsen", "Tal"]);
        let tal = a.iter().find(|(n, _)| *n == "Tal").map(|(_, p)| *p);
        assert_eq!(tal, Some([10, 0, 0, 0, 5]));
        a.absorb(EventStandings::default());
        assert_eq!(a.len(), 3);
    }

    #[test]
    fn standings_read_back_as_written() {
        let a = standings(&[("Tal", 1), ("Anand", 2)]);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"Anand":[4,0,0,0,2],"Tal":[2,0,0,0,1]}"#);
        assert_eq!(serde_json::from_str::<EventStandings>(&json).unwrap(), a);
    }
}
