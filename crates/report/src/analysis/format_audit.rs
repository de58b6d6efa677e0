//! How each game's format was decided, for a reader to check: per label
//! (kind of play × speed), the games by the evidence that decided them
//! (the table's `play_by` and `speed_by`) and the largest event series.
//!
//! Series are event names with their dates taken out ([`series_of`]), so
//! that "Titled Tuesday 28th Apr" and "Titled Tuesday 12th May" are one
//! series. A summary keeps the [`SERIES_KEPT`] largest series of each label;
//! merged over many tables, a series that is never among a table's largest
//! can be undercounted, and the page says "largest kept".

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;
use remis_table::schema::Column;
use serde::{Deserialize, Serialize};

use super::merge::{Merge, pairs};
use super::table::{EFFECTIVE_TIME_CLASS, PLAY, Play, names};

/// Series kept per label in a summary.
pub const SERIES_KEPT: usize = 50;

/// Series a summary's builder holds per label before it keeps the largest
/// [`SERIES_KEPT`] at the end: below it, which series are kept does not
/// depend on the batches the rows come in. Past it (a hostile file's
/// million event names) the largest half are held on.
pub const SERIES_HELD: usize = 1 << 16;

/// A label: kind of play and speed.
pub type Label = (Play, String);

/// The evidence behind each label, and its largest series.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FormatAudit {
    /// (label, `play_by` or "nothing", `speed_by`) → games used.
    #[serde(with = "pairs")]
    pub evidence: BTreeMap<(Label, String, String), u64>,
    /// Label → series → games used, the largest [`SERIES_KEPT`].
    #[serde(with = "pairs")]
    pub series: Series,
}

impl Merge for FormatAudit {
    fn absorb(&mut self, other: FormatAudit) {
        self.evidence.absorb(other.evidence);
        add_series(&mut self.series, other.series, SERIES_KEPT, SERIES_KEPT);
    }
}

/// Each label's series and their games.
pub type Series = BTreeMap<Label, BTreeMap<String, u64>>;

/// Adds `batch`'s series to `into`; a label past `most` series keeps its
/// `keep` largest.
fn add_series(into: &mut Series, batch: Series, most: usize, keep: usize) {
    for (label, series) in batch {
        let held = into.entry(label).or_default();
        held.absorb(series);
        if held.len() > most {
            keep_most(held, keep);
        }
    }
}

/// Keeps the `n` largest series (ties by name).
fn keep_most(series: &mut BTreeMap<String, u64>, n: usize) {
    if series.len() <= n {
        return;
    }
    let mut ranked: Vec<(String, u64)> = std::mem::take(series).into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked.truncate(n);
    *series = ranked.into_iter().collect();
}

/// A table's series, batch by batch, in full (up to [`SERIES_HELD`] a
/// label): a batch's largest are not the table's. A series of a few
/// games in each batch would be dropped from every batch and be missing
/// from the table's largest, so that the summary depended on the batch
/// size (`classify`'s and `summarize`'s differed on the master games).
#[derive(Default)]
pub struct HeldSeries(Series);

impl HeldSeries {
    /// Adds a batch's series.
    pub fn add(&mut self, batch: Series) {
        add_series(&mut self.0, batch, SERIES_HELD, SERIES_HELD / 2);
    }

    /// The largest [`SERIES_KEPT`] of each label.
    pub fn largest(self) -> Series {
        let mut out = self.0;
        for series in out.values_mut() {
            keep_most(series, SERIES_KEPT);
        }
        out
    }
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// An event's series: its name in lower case without the words that date
/// an edition (words with digits, month names).
///
/// ```
/// use remis_report::analysis::format_audit::series_of;
/// assert_eq!(series_of("Titled Tuesday 28th Apr"), "titled tuesday");
/// assert_eq!(series_of("Titled Tue 4th Jan Early"), "titled tue early");
/// assert_eq!(series_of("FIDE Grand Swiss 2019"), "fide grand swiss");
/// ```
pub fn series_of(event: &str) -> String {
    let lower = event.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '-' | '/'))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '\'' || c == '"'))
        .filter(|w| {
            !w.is_empty()
                && !w.chars().any(|c| c.is_ascii_digit())
                && !MONTHS.contains(w)
                && !is_month_name(w)
        })
        .collect();
    if words.is_empty() {
        lower.trim().to_string()
    } else {
        words.join(" ")
    }
}

fn is_month_name(w: &str) -> bool {
    matches!(
        w,
        "january"
            | "february"
            | "march"
            | "april"
            | "june"
            | "july"
            | "august"
            | "september"
            | "sept"
            | "october"
            | "november"
            | "december"
    )
}

pub fn query(used: LazyFrame) -> LazyFrame {
    used.group_by([
        col(PLAY),
        col(EFFECTIVE_TIME_CLASS),
        Column::PlayBy.col(),
        Column::SpeedBy.col(),
        Column::Event.col(),
    ])
    .agg([len().cast(DataType::UInt64).alias(names::N)])
}

pub fn audit_from(df: &DataFrame) -> Result<FormatAudit> {
    let play = df.column(PLAY)?.str()?;
    let speed = df.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let play_by = df.column(Column::PlayBy.name())?.str()?;
    let speed_by = df.column(Column::SpeedBy.name())?.str()?;
    let event = df.column(Column::Event.name())?.str()?;
    let n = df.column(names::N)?.u64()?;
    let mut out = FormatAudit::default();
    for i in 0..df.height() {
        let group = (
            play.get(i),
            speed.get(i),
            play_by.get(i),
            speed_by.get(i),
            event.get(i),
        );
        add_group(&mut out, group, n.get(i).unwrap_or(0));
    }
    Ok(out)
}

/// [`audit_from`] the [`query`], counted in Rust from a batch's used rows
/// (of [`super::table::prepare_frame`]'s columns): grouped by the same
/// keys, borrowed while counting, and each group added as the query's are.
pub fn count_used(used: &DataFrame) -> Result<FormatAudit> {
    let column = |name: &str| used.column(name);
    let play = column(PLAY)?.str()?;
    let speed = column(EFFECTIVE_TIME_CLASS)?.str()?;
    let play_by = column(Column::PlayBy.name())?.str()?;
    let speed_by = column(Column::SpeedBy.name())?.str()?;
    let event = column(Column::Event.name())?.str()?;
    let mut groups: PlHashMap<Group, u64> = PlHashMap::new();
    let rows = play
        .iter()
        .zip(speed.iter())
        .zip(play_by.iter())
        .zip(speed_by.iter())
        .zip(event.iter());
    for ((((play, speed), play_by), speed_by), event) in rows {
        *groups
            .entry((play, speed, play_by, speed_by, event))
            .or_insert(0) += 1;
    }
    let mut out = FormatAudit::default();
    for (group, games) in groups {
        add_group(&mut out, group, games);
    }
    Ok(out)
}

/// A group of [`query`]: play, speed, `play_by`, `speed_by`, event.
type Group<'s> = (
    Option<&'s str>,
    Option<&'s str>,
    Option<&'s str>,
    Option<&'s str>,
    Option<&'s str>,
);

fn add_group(out: &mut FormatAudit, group: Group, games: u64) {
    let (play, speed, play_by, speed_by, event) = group;
    let Some(kind) = play.and_then(Play::from_name) else {
        return;
    };
    let label = (kind, speed.unwrap_or("?").to_string());
    let key = (
        label.clone(),
        play_by.unwrap_or("nothing").to_string(),
        speed_by.unwrap_or("?").to_string(),
    );
    *out.evidence.entry(key).or_insert(0) += games;
    let series = event
        .map(str::trim)
        .filter(|e| !e.is_empty() && *e != "?")
        .map_or_else(|| "(no event)".to_string(), series_of);
    *out.series
        .entry(label)
        .or_default()
        .entry(series)
        .or_insert(0) += games;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editions_of_a_series_share_it() {
        for (a, b) in [
            ("Titled Tuesday 28th Apr", "Titled Tuesday 12th May"),
            ("Tata Steel Masters 2020", "Tata Steel Masters 2021"),
            ("Titled Tue 4th Jan Early", "Titled Tue 18th March Early"),
        ] {
            assert_eq!(series_of(a), series_of(b), "{a} / {b}");
        }
        assert_ne!(
            series_of("Titled Tue 4th Jan Early"),
            series_of("Titled Tue 4th Jan Late")
        );
        // "Mayors Cup" keeps its word: only a month's name is a date.
        assert_eq!(series_of("Mayors Cup"), "mayors cup");
        assert_eq!(series_of("2019"), "2019");
    }

    #[test]
    fn held_series_are_bounded_by_the_largest() {
        let label = (Play::Online, "blitz".to_string());
        let mut many: BTreeMap<String, u64> =
            (0..SERIES_HELD).map(|i| (format!("s{i:06}"), 1)).collect();
        many.insert("big".to_string(), 5);
        let mut held = HeldSeries::default();
        held.add([(label.clone(), many)].into());
        assert_eq!(held.0[&label].len(), SERIES_HELD / 2);
        assert_eq!(held.0[&label]["big"], 5);
        held.add([(label.clone(), [("s000000".to_string(), 9)].into())].into());
        let largest = held.largest();
        assert_eq!(largest[&label].len(), SERIES_KEPT);
        assert_eq!(largest[&label]["s000000"], 10);
    }

    #[test]
    fn merging_keeps_the_largest_series() {
        let audit = |pairs: &[(&str, u64)]| FormatAudit {
            evidence: BTreeMap::new(),
            series: [(
                (Play::Online, "blitz".to_string()),
                pairs.iter().map(|&(s, n)| (s.to_string(), n)).collect(),
            )]
            .into(),
        };
        let many: Vec<(String, u64)> = (0..SERIES_KEPT as u64 + 5)
            .map(|i| (format!("s{i:03}"), i + 1))
            .collect();
        let refs: Vec<(&str, u64)> = many.iter().map(|(s, n)| (s.as_str(), *n)).collect();
        let mut a = audit(&refs);
        a.absorb(audit(&[("s000", 1000)]));
        let kept = &a.series[&(Play::Online, "blitz".to_string())];
        assert_eq!(kept.len(), SERIES_KEPT);
        assert_eq!(kept["s000"], 1001);
        assert!(!kept.contains_key("s001"), "the smallest are dropped");
    }
}
