//! "Results the Laws contradict": recorded results that the replay shows
//! to be wrong (a win on time by a side that could not mate, a win after a
//! drawn ending, a draw on a mate), and games that went on past a dead
//! position. Plain data; `html` and `cmd/stats` render it.

use anyhow::Result;
use polars::prelude::*;

use super::table::USED;
use crate::rules::Mismatch;
use crate::rules::{Deadness, Ending, Mate};
use crate::schema::Column;

/// Examples kept per kind of contradiction.
pub const EXAMPLES: usize = 5;

/// One game shown as an example.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
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
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Finding {
    pub games: u64,
    pub examples: Vec<Example>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Audit {
    /// Games looked at: those the report uses.
    pub games: u64,
    /// One entry per kind of mismatch, in `Mismatch::ALL` order.
    #[serde(serialize_with = "by_reason")]
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
}

/// Mismatches keyed by their `mismatch_reason` value.
fn by_reason<S: serde::Serializer>(
    mismatches: &[(Mismatch, Finding)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(mismatches.iter().map(|(m, f)| (m.as_str(), f)))
}

impl Audit {
    pub fn contradictions(&self) -> u64 {
        self.mismatches.iter().map(|(_, f)| f.games).sum()
    }
}

fn examples(frame: &DataFrame) -> PolarsResult<Vec<Example>> {
    let text = |name: &str| -> PolarsResult<Vec<Option<String>>> {
        Ok(frame
            .column(name)?
            .str()?
            .iter()
            .map(|s| s.map(str::to_string))
            .collect())
    };
    let (white, black, event, date, result, site, source, fen) = (
        text("white")?,
        text("black")?,
        text("event")?,
        text("date")?,
        text("result")?,
        text("site")?,
        text("source")?,
        text("final_fen")?,
    );
    let game_no: Vec<u32> = frame.column("game_no")?.u32()?.iter().flatten().collect();
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

fn finding(rows: LazyFrame) -> PolarsResult<Finding> {
    let games = rows.clone().select([len().alias("n")]).collect()?;
    let games = games.column("n")?.get(0)?.extract::<u64>().unwrap_or(0);
    let shown = rows
        .select([
            Column::White.col(),
            Column::Black.col(),
            Column::Event.col(),
            Column::Date.col(),
            Column::Result.col(),
            Column::Site.col(),
            Column::Source.col(),
            Column::GameNo.col(),
            Column::FinalFen.col(),
        ])
        .limit(EXAMPLES as IdxSize)
        .collect()?;
    Ok(Finding {
        games,
        examples: examples(&shown)?,
    })
}

/// The audit of the games a report uses (`prepared`, from
/// [`super::table::prepare`]).
pub fn audit(prepared: LazyFrame) -> Result<Audit> {
    let used = prepared.filter(col("reason").eq(lit(USED)));
    let dead_ending = Column::Ending
        .col()
        .eq(lit(Ending::DeadPosition.as_str()))
        .or(Column::Ending
            .col()
            .eq(lit(Ending::InsufficientMaterial.as_str())));
    let counts = used
        .clone()
        .select([
            len().alias("games"),
            Column::FinalPositionDeadness
                .col()
                .eq(lit(Deadness::InsufficientMaterial.as_str()))
                .or(Column::FinalPositionDeadness
                    .col()
                    .eq(lit(Deadness::DeadBySearch.as_str())))
                .sum()
                .alias("dead_final"),
            Column::FinalPositionDeadness
                .col()
                .eq(lit(Deadness::DeadBySearch.as_str()))
                .sum()
                .alias("dead_by_search"),
            dead_ending
                .clone()
                .and(Column::AutomaticDrawPly.col().lt(Column::Plies.col()))
                .sum()
                .alias("dead_mid_game"),
            Column::FinalPositionDeadness
                .col()
                .eq(lit(Deadness::Unknown.as_str()))
                .or(Column::FlagOpponentCanMate
                    .col()
                    .eq(lit(Mate::Unknown.as_str())))
                .sum()
                .alias("search_unknown"),
        ])
        .collect()?;
    let count = |name: &str| -> Result<u64> {
        Ok(counts.column(name)?.get(0)?.extract::<u64>().unwrap_or(0))
    };
    let mismatches = Mismatch::ALL
        .into_iter()
        .map(|m| {
            let rows = used
                .clone()
                .filter(Column::MismatchReason.col().eq(lit(m.as_str())));
            Ok((m, finding(rows)?))
        })
        .collect::<Result<Vec<_>>>()?;
    let past_dead_position = finding(
        used.filter(dead_ending.and(Column::AutomaticDrawPly.col().lt(Column::Plies.col()))),
    )?;
    Ok(Audit {
        games: count("games")?,
        mismatches,
        past_dead_position,
        dead_final: count("dead_final")?,
        dead_mid_game: count("dead_mid_game")?,
        dead_by_search: count("dead_by_search")?,
        search_unknown: count("search_unknown")?,
    })
}
