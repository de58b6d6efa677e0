//! Whose games a figure counts. The lead figures are of one kind of play
//! and one time class (over-the-board classical where the data hold any:
//! [`LeadFormat`]); every count that a section of the page or a `stats`
//! view shows is kept apart by format ([`ByFormat`]) so that the section
//! can show the lead population's, and the [`Population`] it counts is
//! written on it: in its heading or caption, as a field in JSON, as a
//! column in CSV. A section that compares formats says so instead.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;
use serde::{Deserialize, Serialize};

use super::merge::{Merge, pairs};
use super::table::{EFFECTIVE_TIME_CLASS, LeadFormat, PLAY, Play};
use crate::study::thousands;

/// Counts kept apart by the format of their games: kind of play and
/// speed (the table's `speed`, as the cube keys it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub struct ByFormat<T> {
    #[serde(with = "pairs")]
    pub parts: BTreeMap<(Play, String), T>,
}

impl<T> Default for ByFormat<T> {
    fn default() -> Self {
        ByFormat {
            parts: BTreeMap::new(),
        }
    }
}

impl<T: Merge> Merge for ByFormat<T> {
    fn absorb(&mut self, other: ByFormat<T>) {
        self.parts.absorb(other.parts);
    }
}

impl<T: Merge + Default + Clone> ByFormat<T> {
    /// The counts of the games of `format` (every format when it mixes).
    pub fn of(&self, format: &LeadFormat) -> T {
        let mut out = T::default();
        for ((play, speed), part) in &self.parts {
            if format.holds_format(*play, speed) {
                out.absorb(part.clone());
            }
        }
        out
    }

    /// The counts of every game, whatever its format.
    pub fn all(&self) -> T {
        self.of(&LeadFormat::default())
    }
}

/// The group keys a query adds so that its counts can be kept apart by
/// format ([`by_format`] reads them back).
pub fn format_keys() -> [Expr; 2] {
    [col(PLAY), col(EFFECTIVE_TIME_CLASS)]
}

/// The format of a row's [`format_keys`] values, as [`by_format`] keys
/// it: a kind of play it does not know is [`Play::Unknown`], no speed "".
/// The counts made in Rust key their groups by it too, so that theirs and
/// the queries' are one.
pub fn format_of(play: Option<&str>, speed: Option<&str>) -> (Play, String) {
    (
        play.and_then(Play::from_name).unwrap_or(Play::Unknown),
        speed.unwrap_or_default().to_string(),
    )
}

/// A query's result, grouped also by [`format_keys`], parsed format by
/// format with `parse` (which reads its own columns and ignores these).
pub fn by_format<T>(
    df: &DataFrame,
    parse: impl Fn(&DataFrame) -> Result<T>,
) -> Result<ByFormat<T>> {
    let play = df.column(PLAY)?.str()?;
    let speed = df.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let mut rows: BTreeMap<(Play, String), Vec<IdxSize>> = BTreeMap::new();
    for i in 0..df.height() {
        let key = format_of(play.get(i), speed.get(i));
        rows.entry(key).or_default().push(i as IdxSize);
    }
    let mut parts = BTreeMap::new();
    for (key, indices) in rows {
        let taken = df.take(&IdxCa::from_vec("rows".into(), indices))?;
        parts.insert(key, parse(&taken)?);
    }
    Ok(ByFormat { parts })
}

/// Whose games a figure counts, and how many: a format (or every format),
/// within the games the filters use.
#[derive(Clone, Debug, PartialEq)]
pub struct Population {
    pub format: LeadFormat,
    /// Games of this population.
    pub games: u64,
    /// Games the filters use, of every format.
    pub used: u64,
    /// The filters every figure shares (ratings, duplicates, years, …).
    pub filters: Vec<String>,
}

impl Population {
    /// Whether it holds every game used.
    pub fn is_everything(&self) -> bool {
        self.games == self.used
    }

    /// "over-the-board classical games: 285 035 of the 391 208 games used"
    pub fn label(&self) -> String {
        // "games of every kind of play and time class" when it mixes them.
        let what = self.format.label();
        if self.is_everything() {
            format!("{what}: all {} games used", thousands(self.games))
        } else {
            format!(
                "{what}: {} of the {} games used",
                thousands(self.games),
                thousands(self.used)
            )
        }
    }

    /// The label with the filters: the whole statement for a caption, a
    /// JSON field or a CSV column.
    pub fn statement(&self) -> String {
        if self.filters.is_empty() {
            self.label()
        } else {
            format!("{} ({})", self.label(), self.filters.join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::table::names;

    #[test]
    fn counts_are_kept_apart_by_format_and_summed_for_one() {
        let df = df!(
            PLAY => ["over the board", "online", "over the board", "over the board"],
            EFFECTIVE_TIME_CLASS => ["classical", "blitz", "classical", "blitz"],
            names::GAMES => [3u64, 5, 4, 7],
        )
        .unwrap();
        let by = by_format(&df, |part| {
            Ok(part
                .column(names::GAMES)?
                .u64()?
                .into_no_null_iter()
                .sum::<u64>())
        })
        .unwrap();
        assert_eq!(by.parts.len(), 3);
        let lead = LeadFormat {
            play: Some(Play::OverTheBoard),
            speed: Some("classical".into()),
        };
        assert_eq!(by.of(&lead), 7);
        assert_eq!(by.all(), 19);
        let json = serde_json::to_string(&by).unwrap();
        let back: ByFormat<u64> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, by);
    }

    #[test]
    fn a_population_says_what_it_is_and_how_many_of_the_used_games() {
        let lead = Population {
            format: LeadFormat {
                play: Some(Play::OverTheBoard),
                speed: Some("classical".into()),
            },
            games: 285_035,
            used: 391_208,
            filters: vec!["duplicates left out".into()],
        };
        assert_eq!(
            lead.statement(),
            "over-the-board classical games: 285\u{202f}035 of the 391\u{202f}208 games used (duplicates left out)"
        );
        let all = Population {
            format: LeadFormat::default(),
            games: 10,
            used: 10,
            filters: vec![],
        };
        assert_eq!(
            all.label(),
            "games of every kind of play and time class: all 10 games used"
        );
    }
}
