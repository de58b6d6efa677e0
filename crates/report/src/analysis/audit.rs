//! "Results the Laws contradict": recorded results that the replay shows
//! to be wrong (a win on time by a side that could not mate, a win after a
//! drawn ending, a draw on a mate), and games that went on past a dead
//! position. Plain data; `html` and `cmd/stats` render it.

use anyhow::Result;
use polars::prelude::*;

use super::merge::Merge;
use super::table::{ROW, names};
use remis_table::schema::Column;
use remis_table::schema::Mismatch;
use remis_table::schema::{Deadness, Ending, Mate};

/// Examples kept per kind of contradiction.
pub const EXAMPLES: usize = 5;

/// One game shown as an example.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Example {
    pub white: Option<String>,
    pub black: Option<String>,
    pub event: Option<String>,
    pub date: Option<String>,
    pub result: Option<String>,
    /// The game's `Site`, a link when it is one (lichess, chess.com).
    pub site: Option<String>,
    pub source: String,
    pub game_no: u32,
    pub final_fen: Option<String>,
}

/// Count and examples of one kind of contradiction.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    pub games: u64,
    pub examples: Vec<Example>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Audit {
    /// Games looked at: those the report uses.
    pub games: u64,
    /// One entry per kind of mismatch, in `Mismatch::ALL` order.
    #[serde(serialize_with = "by_reason", deserialize_with = "from_reasons")]
    pub mismatches: Vec<(Mismatch, Finding)>,
    /// Games with moves played after a dead position (5.2.2).
    pub past_dead_position: Finding,
    /// Dead final positions (static test or search), and games whose first
    /// dead position came before the final one.
    pub dead_final: u64,
    pub dead_mid_game: u64,
    /// Of those, found only by the search (not the static test).
    pub dead_by_search: u64,
    /// Searches that gave up (dead position or flag fall undecided).
    pub search_unknown: u64,
    /// Final positions the filter presumed alive without a search, and
    /// flag falls after which it presumed the opponent able to mate
    /// (docs/rules.md, "Where remis searches").
    pub presumed_alive: u64,
    pub presumed_mateable: u64,
}

/// Mismatches keyed by their `mismatch_reason` value.
fn by_reason<S: serde::Serializer>(
    mismatches: &[(Mismatch, Finding)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(mismatches.iter().map(|(m, f)| (m.as_str(), f)))
}

/// Mismatches from a map keyed by `mismatch_reason` values, in
/// `Mismatch::ALL` order; a kind not in the map has no games.
fn from_reasons<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<(Mismatch, Finding)>, D::Error> {
    use serde::Deserialize;
    let mut map: std::collections::BTreeMap<String, Finding> =
        std::collections::BTreeMap::deserialize(deserializer)?;
    if let Some(unknown) = map.keys().find(|k| Mismatch::from_name(k).is_none()) {
        return Err(serde::de::Error::custom(format!(
            "unknown mismatch reason \"{unknown}\""
        )));
    }
    Ok(Mismatch::ALL
        .into_iter()
        .map(|m| (m, map.remove(m.as_str()).unwrap_or_default()))
        .collect())
}

impl Default for Audit {
    fn default() -> Self {
        Audit {
            games: 0,
            mismatches: Mismatch::ALL
                .into_iter()
                .map(|m| (m, Finding::default()))
                .collect(),
            past_dead_position: Finding::default(),
            dead_final: 0,
            dead_mid_game: 0,
            dead_by_search: 0,
            search_unknown: 0,
            presumed_alive: 0,
            presumed_mateable: 0,
        }
    }
}

impl Merge for Finding {
    /// Counts add up; the examples are the first of all parts, in order.
    fn absorb(&mut self, other: Finding) {
        self.games += other.games;
        self.examples.extend(other.examples);
        self.examples.truncate(EXAMPLES);
    }
}

impl Merge for Audit {
    fn absorb(&mut self, other: Audit) {
        self.games += other.games;
        for ((a, mine), (b, theirs)) in self.mismatches.iter_mut().zip(other.mismatches) {
            debug_assert_eq!(*a, b);
            mine.absorb(theirs);
        }
        self.past_dead_position.absorb(other.past_dead_position);
        self.dead_final += other.dead_final;
        self.dead_mid_game += other.dead_mid_game;
        self.dead_by_search += other.dead_by_search;
        self.search_unknown += other.search_unknown;
        self.presumed_alive += other.presumed_alive;
        self.presumed_mateable += other.presumed_mateable;
    }
}

impl Audit {
    pub fn contradictions(&self) -> u64 {
        self.mismatches.iter().map(|(_, f)| f.games).sum()
    }

    /// Every finding with its label, as the page and the terminal list
    /// them: each kind of mismatch, then moves after a dead position.
    pub fn findings(&self) -> impl Iterator<Item = (&'static str, &Finding)> {
        self.mismatches
            .iter()
            .map(|(m, f)| (m.label(), f))
            .chain(std::iter::once((
                "Moves played after a dead position (5.2.2)",
                &self.past_dead_position,
            )))
    }
}

fn examples(frame: &DataFrame) -> PolarsResult<Vec<Example>> {
    let text = |column: Column| -> PolarsResult<Vec<Option<String>>> {
        Ok(frame
            .column(column.name())?
            .str()?
            .iter()
            .map(|s| s.map(str::to_string))
            .collect())
    };
    let (white, black, event, date, result, site, source, fen) = (
        text(Column::White)?,
        text(Column::Black)?,
        text(Column::Event)?,
        text(Column::Date)?,
        text(Column::Result)?,
        text(Column::Site)?,
        text(Column::Source)?,
        text(Column::FinalFen)?,
    );
    let game_no: Vec<u32> = frame
        .column(Column::GameNo.name())?
        .u32()?
        .iter()
        .flatten()
        .collect();
    Ok((0..frame.height())
        .map(|i| Example {
            white: white[i].clone(),
            black: black[i].clone(),
            event: event[i].clone(),
            date: date[i].clone(),
            result: result[i].clone(),
            site: site[i].clone(),
            source: source[i].clone().unwrap_or_default(),
            game_no: game_no.get(i).copied().unwrap_or(0),
            final_fen: fen[i].clone(),
        })
        .collect())
}

fn dead_ending() -> Expr {
    Column::Ending
        .col()
        .eq(lit(Ending::DeadPosition.as_str()))
        .or(Column::Ending
            .col()
            .eq(lit(Ending::InsufficientMaterial.as_str())))
}

/// Moves were played after the game had ended in a dead position.
fn past_dead_position() -> Expr {
    dead_ending().and(Column::AutomaticDrawPly.col().lt(Column::Plies.col()))
}

/// What an example shows of its game.
const EXAMPLE_COLUMNS: [Column; 9] = [
    Column::White,
    Column::Black,
    Column::Event,
    Column::Date,
    Column::Result,
    Column::Site,
    Column::Source,
    Column::GameNo,
    Column::FinalFen,
];

/// The first games of each kind of contradiction, in table order, and
/// then of the games that went on past a dead position.
pub fn example_queries(used: LazyFrame) -> Vec<LazyFrame> {
    Mismatch::ALL
        .into_iter()
        .map(|m| Column::MismatchReason.col().eq(lit(m.as_str())))
        .chain(std::iter::once(past_dead_position()))
        .map(|rows| {
            used.clone()
                .filter(rows)
                .select(
                    EXAMPLE_COLUMNS
                        .map(|c| c.col())
                        .into_iter()
                        .chain([col(ROW)])
                        .collect::<Vec<_>>(),
                )
                .sort([ROW], SortMultipleOptions::default())
                .limit(EXAMPLES as IdxSize)
        })
        .collect()
}

/// The sums of [`counts_query`] beside the games and the mismatches (whose
/// columns are `Mismatch::as_str`), named as the [`Audit`] fields they fill.
const DEAD_FINAL: &str = "dead_final";
const DEAD_BY_SEARCH: &str = "dead_by_search";
const DEAD_MID_GAME: &str = "dead_mid_game";
const SEARCH_UNKNOWN: &str = "search_unknown";
const PRESUMED_ALIVE: &str = "presumed_alive";
const PRESUMED_MATEABLE: &str = "presumed_mateable";

/// The audit's counts over the used rows: one row of sums.
pub fn counts_query(used: LazyFrame) -> LazyFrame {
    let deadness = || Column::FinalPositionDeadness.col();
    let mut sums = vec![
        len().alias(names::GAMES),
        deadness()
            .eq(lit(Deadness::InsufficientMaterial.as_str()))
            .or(deadness().eq(lit(Deadness::DeadBySearch.as_str())))
            .sum()
            .alias(DEAD_FINAL),
        deadness()
            .eq(lit(Deadness::DeadBySearch.as_str()))
            .sum()
            .alias(DEAD_BY_SEARCH),
        past_dead_position().sum().alias(DEAD_MID_GAME),
        deadness()
            .eq(lit(Deadness::Unknown.as_str()))
            .or(Column::FlagOpponentCanMate
                .col()
                .eq(lit(Mate::Unknown.as_str())))
            .sum()
            .alias(SEARCH_UNKNOWN),
        deadness()
            .eq(lit(Deadness::PresumedAlive.as_str()))
            .sum()
            .alias(PRESUMED_ALIVE),
        Column::FlagOpponentCanMate
            .col()
            .eq(lit(Mate::Presumed.as_str()))
            .sum()
            .alias(PRESUMED_MATEABLE),
    ];
    sums.extend(Mismatch::ALL.into_iter().map(|m| {
        Column::MismatchReason
            .col()
            .eq(lit(m.as_str()))
            .sum()
            .alias(m.as_str())
    }));
    used.select(sums)
}

/// [`audit_from`] the [`counts_query`] and the [`example_queries`],
/// counted in Rust from a batch's used rows (of
/// [`super::table::prepare_frame`]'s columns, in table order): the same
/// sums, null being no, and the same first rows of each kind as examples.
pub fn count_used(used: &DataFrame) -> Result<Audit> {
    let column = |name: &str| used.column(name);
    let deadness = column(Column::FinalPositionDeadness.name())?.str()?;
    let flag = column(Column::FlagOpponentCanMate.name())?.str()?;
    let reason = column(Column::MismatchReason.name())?.str()?;
    let ending = column(Column::Ending.name())?.str()?;
    let automatic_draw = column(Column::AutomaticDrawPly.name())?.u32()?;
    let plies = column(Column::Plies.name())?.u32()?;
    let is = |value: Option<&str>, word: &str| value == Some(word);
    let dead_endings = [
        Ending::DeadPosition.as_str(),
        Ending::InsufficientMaterial.as_str(),
    ];
    let mut out = Audit {
        games: used.height() as u64,
        ..Audit::default()
    };
    // The rows of each kind's examples: each mismatch, then past a dead
    // position.
    let mut example_rows: Vec<Vec<IdxSize>> = vec![Vec::new(); Mismatch::ALL.len() + 1];
    let rows = deadness
        .iter()
        .zip(flag.iter())
        .zip(reason.iter())
        .zip(ending.iter())
        .zip(automatic_draw.iter())
        .zip(plies.iter());
    for (row, (((((deadness, flag), reason), ending), automatic_draw), plies)) in rows.enumerate() {
        let search_dead = is(deadness, Deadness::DeadBySearch.as_str());
        out.dead_final +=
            u64::from(search_dead || is(deadness, Deadness::InsufficientMaterial.as_str()));
        out.dead_by_search += u64::from(search_dead);
        out.search_unknown +=
            u64::from(is(deadness, Deadness::Unknown.as_str()) || is(flag, Mate::Unknown.as_str()));
        out.presumed_alive += u64::from(is(deadness, Deadness::PresumedAlive.as_str()));
        out.presumed_mateable += u64::from(is(flag, Mate::Presumed.as_str()));
        let past_dead = ending.is_some_and(|e| dead_endings.contains(&e))
            && matches!((automatic_draw, plies), (Some(a), Some(p)) if a < p);
        let mut found = |k: usize, finding: &mut Finding| {
            finding.games += 1;
            if example_rows[k].len() < EXAMPLES {
                example_rows[k].push(row as IdxSize);
            }
        };
        if let Some(k) = reason.and_then(|r| Mismatch::ALL.iter().position(|m| m.as_str() == r)) {
            found(k, &mut out.mismatches[k].1);
        }
        if past_dead {
            found(Mismatch::ALL.len(), &mut out.past_dead_position);
        }
    }
    out.dead_mid_game = out.past_dead_position.games;
    let shown = used.select(EXAMPLE_COLUMNS.map(Column::name))?;
    let findings = out
        .mismatches
        .iter_mut()
        .map(|(_, finding)| finding)
        .chain(std::iter::once(&mut out.past_dead_position));
    for (finding, rows) in findings.zip(example_rows) {
        if !rows.is_empty() {
            finding.examples = examples(&shown.take(&IdxCa::from_vec("rows".into(), rows))?)?;
        }
    }
    Ok(out)
}

/// The audit from its counts and its example frames (in the order of
/// [`example_queries`]).
pub fn audit_from(counts: &DataFrame, examples_of: &[&DataFrame]) -> Result<Audit> {
    let count = |name: &str| -> Result<u64> {
        Ok(counts.column(name)?.get(0)?.extract::<u64>().unwrap_or(0))
    };
    let mut mismatches = Vec::with_capacity(Mismatch::ALL.len());
    for (m, frame) in Mismatch::ALL.into_iter().zip(examples_of) {
        mismatches.push((
            m,
            Finding {
                games: count(m.as_str())?,
                examples: examples(frame)?,
            },
        ));
    }
    let past = examples_of
        .get(Mismatch::ALL.len())
        .ok_or_else(|| anyhow::anyhow!("the audit's examples are missing"))?;
    let dead_mid_game = count(DEAD_MID_GAME)?;
    Ok(Audit {
        games: count(names::GAMES)?,
        mismatches,
        past_dead_position: Finding {
            games: dead_mid_game,
            examples: examples(past)?,
        },
        dead_final: count(DEAD_FINAL)?,
        dead_mid_game,
        dead_by_search: count(DEAD_BY_SEARCH)?,
        search_unknown: count(SEARCH_UNKNOWN)?,
        presumed_alive: count(PRESUMED_ALIVE)?,
        presumed_mateable: count(PRESUMED_MATEABLE)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::table::collect;

    /// The audit counted in Rust and by its queries, on rows with every
    /// mix of nulls that a sum over `or` and `<` sees, and more examples
    /// of a kind than are kept.
    #[test]
    fn the_audit_counted_in_rust_is_the_queries_audit() {
        let dead = Some(Ending::DeadPosition.as_str());
        let bare = Some(Ending::InsufficientMaterial.as_str());
        let mated = Some(Mismatch::WinnerMated.as_str());
        let on_time = Some(Mismatch::WinOnTimeWithoutMate.as_str());
        let by_search = Some(Deadness::DeadBySearch.as_str());
        let used = df!(
            Column::FinalPositionDeadness.name() => [
                None, Some("unknown"), by_search, Some("insufficient_material"),
                Some("presumed_alive"), None, Some("alive"), None, None, None,
            ],
            Column::FlagOpponentCanMate.name() => [
                Some("unknown"), None, Some("presumed_possible"), None,
                Some("unknown"), None, Some("possible"), None, None, None,
            ],
            Column::MismatchReason.name() => [
                mated, None, mated, Some("no_such_reason"), mated, mated, on_time, mated, mated,
                None,
            ],
            Column::Ending.name() => [
                dead, dead, bare, None, dead, bare, Some("checkmate"), dead, None, bare,
            ],
            Column::AutomaticDrawPly.name() => [
                Some(10u32), None, Some(3), Some(1), Some(20), Some(4), Some(1), Some(7), Some(1),
                Some(9),
            ],
            Column::Plies.name() => [
                Some(12u32), Some(12), None, Some(5), Some(20), Some(9), Some(9), Some(9), Some(2),
                Some(11),
            ],
            Column::White.name() => ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
            Column::Black.name() => [Some("k"), None, Some("m"), None, None, None, None, None, None, None],
            Column::Event.name() => [None::<&str>; 10],
            Column::Date.name() => [Some("2020.01.01"); 10],
            Column::Result.name() => ["1-0"; 10],
            Column::Site.name() => [None::<&str>; 10],
            Column::Source.name() => ["f.pgn"; 10],
            Column::GameNo.name() => [
                Some(1u32), Some(2), None, Some(4), Some(5), None, Some(7), Some(8), Some(9),
                Some(10),
            ],
            Column::FinalFen.name() => [Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"); 10],
            ROW => (0..10u32).collect::<Vec<_>>(),
        )
        .unwrap();
        let counts = collect(counts_query(used.clone().lazy())).unwrap();
        let examples: Vec<DataFrame> = example_queries(used.clone().lazy())
            .into_iter()
            .map(|q| collect(q).unwrap())
            .collect();
        let examples: Vec<&DataFrame> = examples.iter().collect();
        let by_queries = audit_from(&counts, &examples).unwrap();
        let in_rust = count_used(&used).unwrap();
        assert_eq!(in_rust, by_queries);
        // What the rows hold, so that the comparison is not of nothing.
        assert_eq!(in_rust.search_unknown, 3, "null or unknown is unknown");
        assert_eq!(in_rust.dead_mid_game, 4);
        assert_eq!(in_rust.mismatches[1].1.games, 6);
        assert_eq!(in_rust.mismatches[1].1.examples.len(), EXAMPLES);
    }
}
