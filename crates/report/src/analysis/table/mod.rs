//! The aggregation queries behind `remis report` and `remis stats`: polars
//! lazy scans of `games.parquet`, so tables larger than memory work. Each
//! query returns a small frame; everything after that is plain Rust.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use polars::lazy::dsl::min_horizontal;
use polars::prelude::*;
use regex::Regex;

use crate::study::{Band, BandScheme, EloBasis};
/// The one play enum: the classifier's, with `Unknown` for a null `play`.
pub use remis_table::format::Play;
use remis_table::schema::Column;
use remis_table::schema::{Ending, GameResult};

pub mod names;
mod open;
pub use open::*;
mod prepared;
pub use prepared::*;

/// The filters every analyst wants; shared by the report and `stats`.
#[derive(Clone, Debug)]
pub struct Filters {
    pub years: Option<(i16, i16)>,
    pub min_elo: Option<u16>,
    pub basis: EloBasis,
    /// The largest rating gap of a game in a band (`EloBasis::Close`).
    pub max_gap: u16,
    pub bands: BandScheme,
    /// `classical`, `rapid`, `blitz`, `bullet` (from TimeControl, else from
    /// the event name, else assumed classical).
    pub time_class: Option<String>,
    pub event: Option<Regex>,
    pub exclude_event: Option<Regex>,
    pub variant: Option<String>,
    /// Leave out later copies of a game (needs `remis classify --dedup`).
    pub dedup: bool,
    /// Leave out games with a bot (title `BOT`).
    pub no_bots: bool,
    /// Only games played online, or only over the board.
    pub play: Option<Play>,
    /// The two short-draw limits, in moves.
    pub short_draws: [u32; 2],
    /// Let the lead figures mix kinds of play and time classes (`--play
    /// all`); by default they are of one format (see [`LeadFormat`]). The
    /// counts do not depend on it, so summaries ignore it.
    pub mix_formats: bool,
}

impl Default for Filters {
    fn default() -> Self {
        Filters {
            years: None,
            min_elo: None,
            basis: EloBasis::Close,
            max_gap: DEFAULT_MAX_GAP,
            bands: BandScheme::width(DEFAULT_BAND_WIDTH),
            time_class: None,
            event: None,
            exclude_event: None,
            variant: None,
            dedup: false,
            no_bots: false,
            play: None,
            short_draws: DEFAULT_SHORT_DRAWS,
            mix_formats: false,
        }
    }
}

impl Filters {
    /// The filters in force, in words, for the report's headline.
    pub fn describe(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((a, b)) = self.years {
            out.push(format!("years {a}–{b}"));
        }
        if let Some(m) = self.min_elo {
            let whose = match self.basis {
                EloBasis::Average => "the players' mean rating",
                _ => "both players",
            };
            out.push(format!("rating ≥ {m} ({whose})"));
        }
        out.push(format!("bands by {}", self.basis_words()));
        match &self.time_class {
            Some(t) => out.push(format!("time class {t}")),
            None => out.push("correspondence games left out".to_string()),
        }
        if let Some(e) = &self.event {
            out.push(format!("events matching /{e}/"));
        }
        if let Some(e) = &self.exclude_event {
            out.push(format!("events not matching /{e}/"));
        }
        match &self.variant {
            Some(v) => out.push(format!("variant {v}")),
            None => out.push("Chess960 games left out".to_string()),
        }
        if self.dedup {
            out.push("duplicates left out".to_string());
        }
        if self.no_bots {
            out.push("bot games left out".to_string());
        }
        if let Some(play) = self.play {
            out.push(format!("played {} only", play.as_str()));
        }
        out
    }

    /// The band definition in short, for a chart's axis.
    pub fn basis_axis(&self) -> String {
        match self.basis {
            EloBasis::Min => "Rating band (lower-rated player)".to_string(),
            EloBasis::Average => "Rating band (mean rating)".to_string(),
            EloBasis::Close => format!("Rating band (mean rating; gap ≤ {})", self.max_gap),
            EloBasis::Both => "Rating band (both players in it)".to_string(),
        }
    }

    /// How a game is put in a band, in words, for headlines and charts.
    pub fn basis_words(&self) -> String {
        match self.basis {
            EloBasis::Min => "the lower-rated player's rating".to_string(),
            EloBasis::Average => "the players' mean rating".to_string(),
            EloBasis::Close => format!(
                "the players' mean rating, for games whose players are at most {} points apart (a wider gap puts a game in no band, not out of the counts)",
                self.max_gap
            ),
            EloBasis::Both => "both players' ratings in the band".to_string(),
        }
    }
}

/// The values `--time-class` accepts: the classes read from `TimeControl`,
/// the event kinds read from event names (`tiebreak` too), and `unknown`
/// (online games nothing times).
pub fn time_class_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = remis_table::schema::TimeClass::ALL
        .into_iter()
        .map(remis_table::schema::TimeClass::as_str)
        .collect();
    for kind in crate::study::EventKind::ALL {
        if !names.contains(&kind.as_str()) {
            names.push(kind.as_str());
        }
    }
    names.push(remis_table::format::Speed::Unknown.as_str());
    names
}

/// Why a row is left out of the rates, or "used".
pub const USED: &str = "used";

/// Derived columns of the prepared table (see [`prepare`]).
pub const BAND: &str = "band";
pub const REASON: &str = "reason";
pub const IS_DRAW: &str = "is_draw";
pub const EFFECTIVE_TIME_CLASS: &str = "effective_time_class";
pub const ROW: &str = "row";
/// The kind of play as the report groups it (`Play::as_str`: "over the
/// board", "online", "unknown" where the table's `play` is null): a column
/// of its own beside the table's `play`, never in its place.
pub const PLAY: &str = "play_or_unknown";
pub const BASIS_ELO: &str = "basis_elo";
pub const EVENT_SELECTED: &str = "event_selected";

/// Coverage reasons for the games a report leaves out unless asked for.
pub const CHESS960_LEFT_OUT: &str = "Chess960 (left out; --variant chess960 reports them)";
pub const CORRESPONDENCE_LEFT_OUT: &str =
    "correspondence (left out; --time-class correspondence reports them)";

/// The other coverage reasons, in the order [`prepare`] tries them.
pub const INVALID_GAME: &str = "invalid game";
pub const UNSUPPORTED_VARIANT: &str = "unsupported variant";
pub const UNFINISHED: &str = "unfinished (no result)";
pub const DUPLICATE: &str = "duplicate (--dedup)";
pub const BOT_GAME: &str = "bot game (--no-bots)";
pub const OTHER_VARIANT: &str = "other variant";
pub const OUTSIDE_THE_YEARS: &str = "outside the years";
pub const EVENT_NOT_SELECTED: &str = "event not selected";
pub const OTHER_TIME_CLASS: &str = "other time class";
pub const OTHER_PLAY: &str = "other kind of play (--play)";
pub const IMPLAUSIBLE_RATING: &str = "rating implausible for its system and year (minimum Elo set)";
pub const UNRATED: &str = "unrated (minimum Elo set)";
pub const BELOW_MIN_ELO: &str = "below the minimum Elo";

/// A `band` cell as a [`Band`]: null is unrated.
pub fn band_of_row(band: Option<i32>) -> Band {
    match band {
        None => Band::Unrated,
        Some(BAND_APART) => Band::Apart,
        Some(BAND_IMPLAUSIBLE) => Band::Implausible,
        Some(b) => Band::Rated(b.max(0) as u16),
    }
}

/// The band column's codes for rated games outside every band.
pub const BAND_APART: i32 = -1;
pub const BAND_IMPLAUSIBLE: i32 = -2;

/// The largest rating gap of a game in a band under `EloBasis::Close`.
pub const DEFAULT_MAX_GAP: u16 = 200;

/// The default width of rating bands, in Elo points.
pub const DEFAULT_BAND_WIDTH: u16 = 100;

/// The default short-draw limits, in moves.
pub const DEFAULT_SHORT_DRAWS: [u32; 2] = [20, 30];

/// Whether a rating is plausible for the game's rating system (the
/// table's `ratings` column) and year: [`remis_table::ratings::plausible`]
/// as an expression.
fn plausible(elo: Expr) -> Expr {
    use remis_table::ratings::Ratings;
    let by_system = |f: &dyn Fn(Ratings) -> i32| {
        Ratings::ALL[1..]
            .iter()
            .fold(lit(f(Ratings::Elo)), |otherwise, &r| {
                when(Column::Ratings.col().eq(lit(r.as_str())))
                    .then(lit(f(r)))
                    .otherwise(otherwise)
            })
    };
    let lo = by_system(&|r| i32::from(r.range().0));
    let hi = by_system(&|r| i32::from(r.range().1));
    let first = by_system(&|r| i32::from(r.first_year()));
    let year = Column::Year.col().cast(DataType::Int32);
    elo.clone()
        .gt_eq(lo)
        .and(elo.lt_eq(hi))
        .and(year.clone().is_null().or(year.gt_eq(first)))
}

/// The table with the columns the report needs: `band` (Int32: band index;
/// [`BAND_APART`] for players too far apart for the basis,
/// [`BAND_IMPLAUSIBLE`] for a rating implausible for its system and year;
/// null unrated), `basis_elo` (the rating `--min-elo` applies to),
/// `effective_time_class`, `is_draw`, and `reason`.
pub fn prepare(lf: LazyFrame, filters: &Filters) -> Result<LazyFrame> {
    let events = event_table(lf.clone(), filters)?;
    let w = Column::WhiteElo.col().cast(DataType::Int32);
    let b = Column::BlackElo.col().cast(DataType::Int32);
    let either_missing = w.clone().is_null().or(b.clone().is_null());
    let trusted = plausible(w.clone()).and(plausible(b.clone()));
    let null_i32 = || lit(NULL).cast(DataType::Int32);
    let lower = min_horizontal([w.clone(), b.clone()])?;
    let mean = (w.clone() + b.clone()) / lit(2);
    let gap = when(w.clone().gt_eq(b.clone()))
        .then(w.clone() - b.clone())
        .otherwise(b.clone() - w.clone());
    // `--min-elo N` keeps "games between players rated N+" but under the
    // mean basis.
    let basis = match filters.basis {
        EloBasis::Average => mean.clone(),
        _ => lower.clone(),
    };
    let band = match filters.basis {
        EloBasis::Min => band_of(lower, &filters.bands),
        EloBasis::Average => band_of(mean, &filters.bands),
        EloBasis::Close => when(gap.lt_eq(lit(i32::from(filters.max_gap))))
            .then(band_of(mean, &filters.bands))
            .otherwise(lit(BAND_APART)),
        EloBasis::Both => {
            let (bw, bb) = (band_of(w, &filters.bands), band_of(b, &filters.bands));
            when(bw.clone().eq(bb)).then(bw).otherwise(lit(BAND_APART))
        }
    };
    let band = when(trusted.clone())
        .then(band)
        .otherwise(lit(BAND_IMPLAUSIBLE));
    // The row's place in its table, kept through the join (whose order
    // the streaming engine does not keep): examples are the first rows.
    let lf = lf
        .with_row_index(ROW, None)
        .join(
            events.lazy(),
            [Column::Event.col()],
            [Column::Event.col()],
            JoinArgs::new(JoinType::Left),
        )
        .with_columns([
            when(either_missing.clone().or(trusted.not()))
                .then(null_i32())
                .otherwise(basis)
                .alias(BASIS_ELO),
            when(either_missing)
                .then(null_i32())
                .otherwise(band)
                .alias(BAND),
            // Decided at classify time from the strongest evidence
            // (remis_table::format), and kept in the table with it.
            Column::Speed.col().alias(EFFECTIVE_TIME_CLASS),
            col(EVENT_SELECTED)
                .fill_null(lit(filters.event.is_none()))
                .alias(EVENT_SELECTED),
            Column::Result
                .col()
                .eq(lit(GameResult::Draw.as_str()))
                .alias(IS_DRAW),
            when(
                Column::Play
                    .col()
                    .eq(lit(Play::Online.column_value().unwrap_or_default())),
            )
            .then(lit(Play::Online.as_str()))
            .when(
                Column::Play
                    .col()
                    .eq(lit(Play::OverTheBoard.column_value().unwrap_or_default())),
            )
            .then(lit(Play::OverTheBoard.as_str()))
            .otherwise(lit(Play::Unknown.as_str()))
            .alias(PLAY),
        ]);

    let mut reasons: Vec<(Expr, &str)> = vec![
        (
            Column::Ending.col().eq(lit(Ending::Invalid.as_str())),
            INVALID_GAME,
        ),
        (
            Column::Ending
                .col()
                .eq(lit(Ending::UnsupportedVariant.as_str())),
            UNSUPPORTED_VARIANT,
        ),
        (
            Column::Ending
                .col()
                .eq(lit(Ending::Unfinished.as_str()))
                .or(Column::Result.col().is_null()),
            UNFINISHED,
        ),
    ];
    if filters.dedup {
        reasons.push((Column::Duplicate.col(), DUPLICATE));
    }
    if filters.no_bots {
        let bot = |c: Column| c.col().eq(lit("BOT")).fill_null(lit(false));
        reasons.push((
            bot(Column::WhiteTitle).or(bot(Column::BlackTitle)),
            BOT_GAME,
        ));
    }
    match &filters.variant {
        Some(v) => reasons.push((Column::Variant.col().neq(lit(v.as_str())), OTHER_VARIANT)),
        // Chess960 is not standard chess: shown apart, never mixed in.
        None => reasons.push((Column::Variant.col().eq(lit("chess960")), CHESS960_LEFT_OUT)),
    }
    if let Some((from, to)) = filters.years {
        reasons.push((
            Column::Year
                .col()
                .is_null()
                .or(Column::Year.col().lt(lit(from)))
                .or(Column::Year.col().gt(lit(to))),
            OUTSIDE_THE_YEARS,
        ));
    }
    if filters.event.is_some() || filters.exclude_event.is_some() {
        reasons.push((col(EVENT_SELECTED).not(), EVENT_NOT_SELECTED));
    }
    match &filters.time_class {
        Some(t) => reasons.push((
            col(EFFECTIVE_TIME_CLASS).neq(lit(t.as_str())),
            OTHER_TIME_CLASS,
        )),
        // Days per move is another game: shown apart, never mixed in.
        None => reasons.push((
            col(EFFECTIVE_TIME_CLASS)
                .eq(lit(remis_table::schema::TimeClass::Correspondence.as_str())),
            CORRESPONDENCE_LEFT_OUT,
        )),
    }
    if let Some(play) = filters.play {
        reasons.push((col(PLAY).neq(lit(play.as_str())), OTHER_PLAY));
    }
    if let Some(m) = filters.min_elo {
        reasons.push((col(BAND).eq(lit(BAND_IMPLAUSIBLE)), IMPLAUSIBLE_RATING));
        reasons.push((col(BASIS_ELO).is_null(), UNRATED));
        reasons.push((col(BASIS_ELO).lt(lit(i32::from(m))), BELOW_MIN_ELO));
    }
    let reason = reasons
        .into_iter()
        .rev()
        .fold(lit(USED), |otherwise, (cond, why)| {
            when(cond.fill_null(lit(false)))
                .then(lit(why))
                .otherwise(otherwise)
        });
    Ok(lf.with_column(reason.alias(REASON)))
}

/// Band index of a rating: the number of band edges at or below it.
fn band_of(elo: Expr, scheme: &BandScheme) -> Expr {
    scheme
        .edge_list()
        .iter()
        .map(|&e| elo.clone().gt_eq(lit(i32::from(e))).cast(DataType::Int32))
        .reduce(|a, b| a + b)
        .unwrap_or(lit(0))
}

/// One row per distinct event name: whether the event filters select it.
/// Regexes run in Rust, once per name.
fn event_table(lf: LazyFrame, filters: &Filters) -> Result<DataFrame> {
    let names = collect(
        lf.select([Column::Event.col()])
            .filter(Column::Event.col().is_not_null())
            .group_by([Column::Event.col()])
            .agg([len().alias(names::N)]),
    )?;
    let names = names.column(Column::Event.name())?.str()?;
    let mut selected = Vec::with_capacity(names.len());
    for name in names.iter() {
        let name = name.unwrap_or_default();
        let included = filters.event.as_ref().is_none_or(|re| re.is_match(name));
        let excluded = filters
            .exclude_event
            .as_ref()
            .is_some_and(|re| re.is_match(name));
        selected.push(included && !excluded);
    }
    let height = names.len();
    Ok(DataFrame::new(
        height,
        vec![
            names.clone().into_column(),
            polars::prelude::Column::new(EVENT_SELECTED.into(), selected),
        ],
    )?)
}

/// The rows the rates use (see [`prepare`]).
pub fn used(prepared: LazyFrame) -> LazyFrame {
    prepared.filter(col(REASON).eq(lit(USED)))
}

/// Rows by the reason they were left out (`used` for the rest).
pub fn coverage_query(prepared: LazyFrame) -> LazyFrame {
    prepared
        .group_by([col(REASON)])
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

pub fn coverage_from(df: &DataFrame) -> Result<BTreeMap<String, u64>> {
    let reasons = df.column(REASON)?.str()?;
    let n = df.column(names::N)?.u64()?;
    Ok(reasons
        .iter()
        .zip(n.iter())
        .map(|(r, n)| (r.unwrap_or_default().to_string(), n.unwrap_or(0)))
        .collect())
}

/// The columns of [`marks_query`].
const SYNTHETIC: &str = "synthetic";
const MARKED: &str = "marked";

/// Rows made by `remis generate` (tag `Synthetic`), and rows with
/// duplicate marks (`classify --dedup`), among all rows read.
pub fn marks_query(lf: LazyFrame) -> LazyFrame {
    lf.select([
        Column::Synthetic
            .col()
            .cast(DataType::UInt64)
            .sum()
            .alias(SYNTHETIC),
        Column::Duplicate
            .col()
            .is_not_null()
            .cast(DataType::UInt64)
            .sum()
            .alias(MARKED),
    ])
}

/// (synthetic rows, rows with duplicate marks).
pub fn marks_from(df: &DataFrame) -> Result<(u64, u64)> {
    let get =
        |name: &str| -> Result<u64> { Ok(df.column(name)?.get(0)?.extract::<u64>().unwrap_or(0)) };
    Ok((get(SYNTHETIC)?, get(MARKED)?))
}

/// One cell of the draw cube: games used, by band, year, result kind,
/// draw type and (for draws) the number of moves.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct CubeKey {
    pub band: Band,
    pub year: Option<i16>,
    pub is_draw: bool,
    pub draw_type: Option<String>,
    pub moves: Option<u32>,
    /// The game's format, so that the lead figures never mix formats.
    pub play: Play,
    pub speed: String,
}

/// The format the lead figures (the by-year chart, the band × year table,
/// the band and draw-type charts) are of: over-the-board classical games
/// where the data hold any, else the largest format they hold; `None`
/// fields mix (with `--play all`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadFormat {
    pub play: Option<Play>,
    pub speed: Option<String>,
}

impl LeadFormat {
    /// The lead format of a cube.
    pub fn of(cube: &BTreeMap<CubeKey, u64>, mix: bool) -> LeadFormat {
        if mix {
            return LeadFormat::default();
        }
        let mut games: BTreeMap<(Play, &str), u64> = BTreeMap::new();
        for (key, &n) in cube {
            *games.entry((key.play, key.speed.as_str())).or_insert(0) += n;
        }
        let classical = remis_table::schema::TimeClass::Classical.as_str();
        let chosen = if games.contains_key(&(Play::OverTheBoard, classical)) {
            Some((Play::OverTheBoard, classical))
        } else {
            games
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                .map(|(&k, _)| k)
        };
        LeadFormat {
            play: chosen.map(|(p, _)| p),
            speed: chosen.map(|(_, s)| s.to_string()),
        }
    }

    pub fn holds(&self, key: &CubeKey) -> bool {
        self.holds_format(key.play, &key.speed)
    }

    /// Whether games of this kind of play and speed are of this format.
    pub fn holds_format(&self, play: Play, speed: &str) -> bool {
        self.play.is_none_or(|p| p == play) && self.speed.as_deref().is_none_or(|s| s == speed)
    }

    /// "over-the-board classical games", "online blitz games", "games of
    /// every format".
    pub fn label(&self) -> String {
        match (&self.play, &self.speed) {
            (None, None) => "games of every kind of play and time class".into(),
            (play, speed) => {
                let play = match play {
                    Some(Play::OverTheBoard) => "over-the-board ",
                    Some(Play::Online) => "online ",
                    Some(Play::Unknown) => "unknown-venue ",
                    None => "",
                };
                format!("{play}{} games", speed.as_deref().unwrap_or("all-speed"))
            }
        }
    }

    /// Whether the lead figures hold every game used.
    pub fn is_all(&self, cube: &BTreeMap<CubeKey, u64>) -> bool {
        cube.keys().all(|k| self.holds(k))
    }
}

/// A cube cell with its games.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeRow {
    pub band: Band,
    pub year: Option<i16>,
    pub is_draw: bool,
    pub draw_type: Option<String>,
    pub moves: Option<u32>,
    pub games: u64,
}

/// The cube's cells as rows.
pub fn cube_rows(cube: &BTreeMap<CubeKey, u64>, format: &LeadFormat) -> Vec<CubeRow> {
    cube.iter()
        .filter(|(k, _)| format.holds(k))
        .map(|(k, &games)| CubeRow {
            band: k.band,
            year: k.year,
            is_draw: k.is_draw,
            draw_type: k.draw_type.clone(),
            moves: k.moves,
            games,
        })
        .collect()
}

/// A draw's number of moves in the cube (null for decisive games).
const DRAW_MOVES: &str = "draw_moves";

/// The draw cube of the used rows.
pub fn cube_query(used: LazyFrame) -> LazyFrame {
    used.with_column(
        when(col(IS_DRAW))
            .then(Column::Moves.col())
            .otherwise(lit(NULL).cast(DataType::UInt32))
            .alias(DRAW_MOVES),
    )
    .group_by([
        col(BAND),
        Column::Year.col(),
        col(IS_DRAW),
        Column::DrawType.col(),
        col(DRAW_MOVES),
        col(PLAY),
        col(EFFECTIVE_TIME_CLASS),
    ])
    .agg([len().cast(DataType::UInt64).alias(names::GAMES)])
}

pub fn cube_from(df: &DataFrame) -> Result<BTreeMap<CubeKey, u64>> {
    let band = df.column(BAND)?.i32()?;
    let year = df.column(Column::Year.name())?.i16()?;
    let is_draw = df.column(IS_DRAW)?.bool()?;
    let draw_type = df.column(Column::DrawType.name())?.str()?;
    let moves = df.column(DRAW_MOVES)?.u32()?;
    let play = df.column(PLAY)?.str()?;
    let speed = df.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let games = df.column(names::GAMES)?.u64()?;
    let mut out = BTreeMap::new();
    for i in 0..df.height() {
        let key = CubeKey {
            band: band_of_row(band.get(i)),
            year: year.get(i),
            is_draw: is_draw.get(i).unwrap_or(false),
            draw_type: draw_type.get(i).map(str::to_string),
            moves: moves.get(i),
            play: play
                .get(i)
                .and_then(Play::from_name)
                .unwrap_or(Play::Unknown),
            speed: speed.get(i).unwrap_or_default().to_string(),
        };
        *out.entry(key).or_insert(0) += games.get(i).unwrap_or(0);
    }
    Ok(out)
}

/// The coverage as a list, largest first (ties by name).
pub fn coverage_list(coverage: &BTreeMap<String, u64>) -> Vec<(String, u64)> {
    let mut list: Vec<(String, u64)> = coverage.iter().map(|(r, &n)| (r.clone(), n)).collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default bands leave a game whose players are far apart out of
    /// every band, not out of the counts: the population statement the
    /// page and `stats` print must not read as a filter of the games.
    #[test]
    fn the_band_basis_does_not_read_as_a_filter_of_the_games() {
        let words = Filters::default().describe().join("; ");
        assert!(
            words.contains("in no band, not out of the counts"),
            "{words}"
        );
        assert!(!words.contains("only"), "{words}");
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match("2024-*.parquet", "2024-01.parquet"));
        assert!(wildcard_match("*", "x"));
        assert!(wildcard_match("a?c", "abc"));
        assert!(!wildcard_match("2024-*.parquet", "2023-01.parquet"));
        assert!(!wildcard_match("a?c", "ac"));
    }
}
