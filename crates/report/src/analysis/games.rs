//! The statistician's further questions, each a plain summary of the games
//! a report uses: the draw rate by mean rating and rating gap, by opening,
//! by time class and band, and what the clocks showed when a draw was
//! agreed or a flag fell.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::merge::{Merge, pairs};
use super::population::{ByFormat, by_format, format_keys, format_of};
use super::table::{
    BAND, BAND_IMPLAUSIBLE, EFFECTIVE_TIME_CLASS, IS_DRAW, PLAY, Play, band_of_row, names,
};
use crate::study::{Band, BandScheme, Proportion};
use remis_table::ratings::Ratings;
use remis_table::schema::Column;
use remis_table::schema::{DrawType, Ending};

/// Draws among games, as a proportion, from a frame with `games` and
/// `draws` columns.
fn proportions(df: &DataFrame) -> Result<Vec<Proportion>> {
    let games = df.column(names::GAMES)?.u64()?;
    let draws = df.column(names::DRAWS)?.u64()?;
    Ok(games
        .iter()
        .zip(draws.iter())
        .map(|(n, d)| Proportion::new(d.unwrap_or(0), n.unwrap_or(0)))
        .collect())
}

/// The number of edges at or below a value, as an expression: the bin
/// index of `value` among bins that start at the edges.
fn bin_expr<T: Copy + Literal>(value: Expr, edges: &[T]) -> Expr {
    edges
        .iter()
        .map(|&e| value.clone().gt_eq(lit(e)).cast(DataType::Int32))
        .reduce(|a, b| a + b)
        .unwrap_or(lit(0i32))
}

// ---------------------------------------------------------------------------
// Rating gap.

/// Upper ends of the rating-gap bins (|White − Black|); the last bin is
/// open.
pub const GAP_EDGES: [u16; 6] = [50, 100, 150, 200, 300, 400];

/// Which rating system the ratings are on: the table's `ratings` column,
/// decided at classify time from the evidence (`ratings_by`; see
/// `remis_table::ratings`).
#[derive(
    Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, serde::Serialize, serde::Deserialize,
)]
pub enum RatingSystem {
    /// lichess.org's export: Glicko-2, not FIDE Elo.
    LichessGlicko2,
    /// chess.com's export: Glicko, not FIDE Elo.
    ChessComGlicko,
    /// Another platform's export: its own scale.
    OtherPlatform,
    /// Over-the-board records, and compilers' records of online games:
    /// FIDE (or national) Elo.
    Elo,
}

impl RatingSystem {
    pub fn of_ratings(ratings: Option<Ratings>) -> RatingSystem {
        match ratings {
            Some(Ratings::Lichess) => RatingSystem::LichessGlicko2,
            Some(Ratings::ChessCom) => RatingSystem::ChessComGlicko,
            Some(Ratings::OtherPlatform) => RatingSystem::OtherPlatform,
            Some(Ratings::Elo) | None => RatingSystem::Elo,
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            RatingSystem::LichessGlicko2 => "lichess Glicko-2 ratings (not FIDE Elo)",
            RatingSystem::ChessComGlicko => "chess.com Glicko ratings (not FIDE Elo)",
            RatingSystem::OtherPlatform => "another platform's own ratings (not FIDE Elo)",
            RatingSystem::Elo => {
                "Elo ratings (FIDE or national: over-the-board records, and compilers' records of online games)"
            }
        }
    }
}

/// Draw rate by mean rating (the report's bands) and rating gap.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RatingGap {
    /// (band of the mean rating, gap bin index) → draws among games.
    #[serde(with = "pairs")]
    pub cells: BTreeMap<(Band, usize), Proportion>,
    /// Rated games by rating system, over all of them.
    #[serde(with = "pairs")]
    pub systems: BTreeMap<RatingSystem, u64>,
}

impl Merge for RatingGap {
    fn absorb(&mut self, other: RatingGap) {
        self.cells.absorb(other.cells);
        self.systems.absorb(other.systems);
    }
}

/// The gap bin of a rating difference.
pub fn gap_bin(gap: u16) -> usize {
    GAP_EDGES.iter().take_while(|&&e| gap >= e).count()
}

/// A label for a gap bin: "0–49", …, "≥ 400".
pub fn gap_label(bin: usize) -> String {
    let lo = if bin == 0 { 0 } else { GAP_EDGES[bin - 1] };
    match GAP_EDGES.get(bin) {
        Some(hi) => format!("{lo}–{}", hi - 1),
        None => format!("≥ {lo}"),
    }
}

/// The columns [`rating_gap_query`] groups by: a game's band by the
/// players' mean rating, and its bin by their gap.
const MEAN_BAND: &str = "mean_band";
const GAP_BIN: &str = "gap_bin";

pub fn rating_gap_query(used: LazyFrame, scheme: &BandScheme) -> LazyFrame {
    let w = Column::WhiteElo.col().cast(DataType::Int32);
    let b = Column::BlackElo.col().cast(DataType::Int32);
    let edges: Vec<i32> = scheme.edge_list().iter().map(|&e| i32::from(e)).collect();
    let gap_edges = GAP_EDGES.map(i32::from);
    let mean = (w.clone() + b.clone()) / lit(2i32);
    let gap = when(w.clone().gt_eq(b.clone()))
        .then(w.clone() - b.clone())
        .otherwise(b.clone() - w.clone());
    used.filter(
        w.is_not_null()
            .and(b.is_not_null())
            .and(col(BAND).neq(lit(BAND_IMPLAUSIBLE))),
    )
    .with_columns([
        bin_expr(mean, &edges).alias(MEAN_BAND),
        bin_expr(gap, &gap_edges).alias(GAP_BIN),
    ])
    .group_by({
        let [play, speed] = format_keys();
        [
            col(MEAN_BAND),
            col(GAP_BIN),
            Column::Ratings.col(),
            play,
            speed,
        ]
    })
    .agg(names::games_and_draws())
}

/// The counts of [`rating_gap_query`], kept apart by format.
pub fn rating_gap_from(df: &DataFrame) -> Result<ByFormat<RatingGap>> {
    by_format(df, gap_cells_from)
}

fn gap_cells_from(df: &DataFrame) -> Result<RatingGap> {
    let band = df.column(MEAN_BAND)?.i32()?;
    let bin = df.column(GAP_BIN)?.i32()?;
    let ratings = df.column(Column::Ratings.name())?.str()?;
    let mut out = RatingGap::default();
    for (i, p) in proportions(df)?.into_iter().enumerate() {
        let (Some(band), Some(bin)) = (band.get(i), bin.get(i)) else {
            continue;
        };
        let key = (Band::Rated(band.max(0) as u16), bin.max(0) as usize);
        out.cells
            .entry(key)
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
        let system = RatingSystem::of_ratings(ratings.get(i).and_then(Ratings::from_name));
        *out.systems.entry(system).or_insert(0) += p.n;
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Openings.

/// One opening group: draws among its games, and how they were drawn.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OpeningGroup {
    pub name: String,
    pub draws: Proportion,
    pub draw_types: BTreeMap<String, u64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Openings {
    /// By ECO code, largest first.
    pub by_eco: Vec<OpeningGroup>,
    /// By the `Opening` tag's name (lichess), largest first.
    pub by_name: Vec<OpeningGroup>,
}

/// Games and draws by opening (ECO code, and the `Opening` tag's name) and
/// draw type: every opening, so that parts add up before the largest are
/// chosen.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OpeningCounts {
    #[serde(with = "pairs")]
    pub eco: BTreeMap<(String, Option<String>), Proportion>,
    #[serde(with = "pairs")]
    pub name: BTreeMap<(String, Option<String>), Proportion>,
}

impl Merge for OpeningCounts {
    fn absorb(&mut self, other: OpeningCounts) {
        self.eco.absorb(other.eco);
        self.name.absorb(other.name);
    }
}

/// Games and draws by one opening column (ECO or name) and draw type.
pub fn opening_query(used: LazyFrame, key: Column) -> LazyFrame {
    used.filter(
        key.col()
            .is_not_null()
            .and(key.col().neq(lit("")))
            .and(key.col().neq(lit("?"))),
    )
    .group_by({
        let [play, speed] = format_keys();
        [key.col(), Column::DrawType.col(), play, speed]
    })
    .agg(names::games_and_draws())
}

/// The counts of the two [`opening_query`]s (ECO, then name), kept apart
/// by format.
pub fn openings_from(eco: &DataFrame, name: &DataFrame) -> Result<ByFormat<OpeningCounts>> {
    let eco = by_format(eco, |part| opening_from(part, Column::Eco))?;
    let name = by_format(name, |part| opening_from(part, Column::Opening))?;
    let mut out: ByFormat<OpeningCounts> = ByFormat::default();
    for (key, eco) in eco.parts {
        out.parts.entry(key).or_default().eco = eco;
    }
    for (key, name) in name.parts {
        out.parts.entry(key).or_default().name = name;
    }
    Ok(out)
}

/// [`openings_from`] the two [`opening_query`]s, counted in Rust from a
/// batch's used rows (of [`super::table::prepare_frame`]'s columns): the
/// same rows left out, grouped by the same keys, borrowed while counting.
pub fn openings_used(used: &DataFrame) -> Result<ByFormat<OpeningCounts>> {
    let column = |name: &str| used.column(name);
    let eco = column(Column::Eco.name())?.str()?;
    let name = column(Column::Opening.name())?.str()?;
    let kind = column(Column::DrawType.name())?.str()?;
    let play = column(PLAY)?.str()?;
    let speed = column(EFFECTIVE_TIME_CLASS)?.str()?;
    let is_draw = column(IS_DRAW)?.bool()?;
    type Key<'s> = (&'s str, Option<&'s str>, Option<&'s str>, Option<&'s str>);
    // ECO, then name: games and draws.
    let mut groups: [PlHashMap<Key, (u64, u64)>; 2] = Default::default();
    fn named(value: Option<&str>) -> Option<&str> {
        value.filter(|v| !v.is_empty() && *v != "?")
    }
    let rows = eco
        .iter()
        .zip(name.iter())
        .zip(kind.iter())
        .zip(play.iter())
        .zip(speed.iter())
        .zip(is_draw.iter());
    for (((((eco, name), kind), play), speed), is_draw) in rows {
        let drawn = u64::from(is_draw == Some(true));
        for (group, opening) in groups.iter_mut().zip([eco, name]) {
            if let Some(opening) = named(opening) {
                let cell = group.entry((opening, kind, play, speed)).or_default();
                cell.0 += 1;
                cell.1 += drawn;
            }
        }
    }
    let mut out: ByFormat<OpeningCounts> = ByFormat::default();
    for (by_eco, group) in [true, false].into_iter().zip(groups) {
        for ((opening, kind, play, speed), (games, draws)) in group {
            let part = out.parts.entry(format_of(play, speed)).or_default();
            let counts = if by_eco {
                &mut part.eco
            } else {
                &mut part.name
            };
            counts
                .entry((opening.to_string(), kind.map(str::to_string)))
                .or_insert(Proportion::new(0, 0))
                .absorb(Proportion::new(draws, games));
        }
    }
    Ok(out)
}

pub fn opening_from(
    df: &DataFrame,
    key: Column,
) -> Result<BTreeMap<(String, Option<String>), Proportion>> {
    let names = df.column(key.name())?.str()?;
    let kinds = df.column(Column::DrawType.name())?.str()?;
    let mut out: BTreeMap<(String, Option<String>), Proportion> = BTreeMap::new();
    for (i, p) in proportions(df)?.into_iter().enumerate() {
        let Some(name) = names.get(i) else { continue };
        out.entry((name.to_string(), kinds.get(i).map(str::to_string)))
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
    }
    Ok(out)
}

fn opening_groups(
    counts: &BTreeMap<(String, Option<String>), Proportion>,
    top: usize,
) -> Vec<OpeningGroup> {
    let mut groups: BTreeMap<&str, OpeningGroup> = BTreeMap::new();
    for ((name, kind), p) in counts {
        let group = groups.entry(name).or_insert_with(|| OpeningGroup {
            name: name.clone(),
            draws: Proportion::new(0, 0),
            draw_types: BTreeMap::new(),
        });
        group.draws.absorb(*p);
        if let Some(kind) = kind {
            *group.draw_types.entry(kind.clone()).or_insert(0) += p.successes;
        }
    }
    let mut groups: Vec<OpeningGroup> = groups.into_values().collect();
    groups.sort_by(|a, b| b.draws.n.cmp(&a.draws.n).then(a.name.cmp(&b.name)));
    groups.truncate(top);
    groups
}

/// The `top` largest opening groups of each kind.
pub fn openings(counts: &OpeningCounts, top: usize) -> Openings {
    Openings {
        by_eco: opening_groups(&counts.eco, top),
        by_name: opening_groups(&counts.name, top),
    }
}

// ---------------------------------------------------------------------------
// Time classes.

/// Draws by time class and band.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TimeClasses {
    pub by_class: BTreeMap<String, Proportion>,
    #[serde(with = "pairs")]
    pub by_class_band: BTreeMap<(String, Band), Proportion>,
}

impl Merge for TimeClasses {
    fn absorb(&mut self, other: TimeClasses) {
        self.by_class.absorb(other.by_class);
        self.by_class_band.absorb(other.by_class_band);
    }
}

pub fn time_classes_query(used: LazyFrame) -> LazyFrame {
    used.group_by([col(EFFECTIVE_TIME_CLASS), col(BAND)])
        .agg(names::games_and_draws())
}

pub fn time_classes_from(df: &DataFrame) -> Result<TimeClasses> {
    let class = df.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let band = df.column(BAND)?.i32()?;
    let mut out = TimeClasses::default();
    for (i, p) in proportions(df)?.into_iter().enumerate() {
        let class = class.get(i).unwrap_or("?").to_string();
        out.by_class
            .entry(class.clone())
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
        out.by_class_band
            .entry((class, band_of_row(band.get(i))))
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Clocks.

/// Upper ends, in seconds, of the clock bins; the last bin is open.
pub const CLOCK_EDGES: [f32; 5] = [10.0, 30.0, 60.0, 180.0, 600.0];

/// The clock bin [`clocks_query`] groups by (with [`names::AGREED`]).
const CLOCK_BIN: &str = "bin";

pub fn clock_label(bin: usize) -> String {
    let show = |s: f32| {
        if s >= 60.0 {
            format!("{} min", s / 60.0)
        } else {
            format!("{s} s")
        }
    };
    let lo = if bin == 0 { 0.0 } else { CLOCK_EDGES[bin - 1] };
    match CLOCK_EDGES.get(bin) {
        Some(&hi) if bin == 0 => format!("under {}", show(hi)),
        Some(&hi) => format!("{} – {}", show(lo), show(hi)),
        None => format!("{} or more", show(lo)),
    }
}

/// What the clocks showed at the end of agreed draws and of games lost on
/// time, for games with `[%clk]` comments.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Clocks {
    /// Agreed draws by the lower of the two clocks.
    pub agreed_lower_clock: BTreeMap<usize, u64>,
    pub agreed_without_clock: u64,
    /// Games won on time by the winner's clock.
    pub flag_winner_clock: BTreeMap<usize, u64>,
    pub flag_without_clock: u64,
}

impl Merge for Clocks {
    fn absorb(&mut self, other: Clocks) {
        self.agreed_lower_clock.absorb(other.agreed_lower_clock);
        self.agreed_without_clock += other.agreed_without_clock;
        self.flag_winner_clock.absorb(other.flag_winner_clock);
        self.flag_without_clock += other.flag_without_clock;
    }
}

pub fn clocks_query(used: LazyFrame) -> LazyFrame {
    let white = Column::WhiteClock.col();
    let black = Column::BlackClock.col();
    let agreed = Column::DrawType
        .col()
        .eq(lit(DrawType::Agreed.as_str()))
        .fill_null(lit(false));
    let flag = Column::Ending.col().eq(lit(Ending::TimeForfeit.as_str()));
    // The lower clock needs both; one missing is no clock.
    let lower = when(white.clone().is_null().or(black.clone().is_null()))
        .then(lit(NULL).cast(DataType::Float32))
        .when(white.clone().lt(black.clone()))
        .then(white.clone())
        .otherwise(black.clone());
    let winner = when(Column::Result.col().eq(lit("1-0")))
        .then(white)
        .otherwise(black);
    let seconds = when(agreed.clone()).then(lower).otherwise(winner);
    used.filter(agreed.clone().or(flag))
        .select([
            agreed.alias(names::AGREED),
            when(seconds.clone().is_null())
                .then(lit(NULL).cast(DataType::Int32))
                .otherwise(bin_expr(seconds, &CLOCK_EDGES))
                .alias(CLOCK_BIN),
        ])
        .group_by([col(names::AGREED), col(CLOCK_BIN)])
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

pub fn clocks_from(df: &DataFrame) -> Result<Clocks> {
    let is_agreed = df.column(names::AGREED)?.bool()?;
    let bin = df.column(CLOCK_BIN)?.i32()?;
    let n = df.column(names::N)?.u64()?;
    let mut out = Clocks::default();
    for i in 0..df.height() {
        let k = n.get(i).unwrap_or(0);
        let bin = bin.get(i).map(|b| b.max(0) as usize);
        match (is_agreed.get(i) == Some(true), bin) {
            (true, Some(b)) => *out.agreed_lower_clock.entry(b).or_insert(0) += k,
            (true, None) => out.agreed_without_clock += k,
            (false, Some(b)) => *out.flag_winner_clock.entry(b).or_insert(0) += k,
            (false, None) => out.flag_without_clock += k,
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Format: online or over the board, time class, and game lengths.

/// Games and draws by where and how fast they were played, draw types by
/// time class, and the length of every game used, by format.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FormatCounts {
    /// (play, effective time class, year) → draws among games.
    #[serde(with = "pairs")]
    pub by_play: BTreeMap<(Play, String, Option<i16>), Proportion>,
    /// (effective time class, draw type) → drawn games.
    #[serde(with = "pairs")]
    pub draw_types_by_class: BTreeMap<(String, String), u64>,
    /// Games used by their number of moves, kept apart by format so that
    /// the length chart counts the lead population's games, as the drawn
    /// games' lengths beside it do.
    pub lengths: ByFormat<BTreeMap<u32, u64>>,
}

impl FormatCounts {
    /// Each time class's drawn games by draw type (a name no longer known
    /// counted as `Other`): the draw-type mix the chart and its table show.
    pub fn draw_mixes_by_class(&self) -> BTreeMap<String, BTreeMap<DrawType, u64>> {
        let mut mixes: BTreeMap<String, BTreeMap<DrawType, u64>> = BTreeMap::new();
        for ((class, kind), &n) in &self.draw_types_by_class {
            let kind = DrawType::from_name(kind).unwrap_or(DrawType::Other);
            *mixes
                .entry(class.clone())
                .or_default()
                .entry(kind)
                .or_insert(0) += n;
        }
        mixes
    }
}

impl Merge for FormatCounts {
    fn absorb(&mut self, other: FormatCounts) {
        self.by_play.absorb(other.by_play);
        self.draw_types_by_class.absorb(other.draw_types_by_class);
        self.lengths.absorb(other.lengths);
    }
}

pub fn play_query(used: LazyFrame) -> LazyFrame {
    used.group_by([col(PLAY), col(EFFECTIVE_TIME_CLASS), Column::Year.col()])
        .agg(names::games_and_draws())
}

pub fn draw_types_by_class_query(used: LazyFrame) -> LazyFrame {
    used.filter(col(IS_DRAW).and(Column::DrawType.col().is_not_null()))
        .group_by([col(EFFECTIVE_TIME_CLASS), Column::DrawType.col()])
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

pub fn lengths_query(used: LazyFrame) -> LazyFrame {
    let [play, speed] = format_keys();
    used.group_by([Column::Moves.col(), play, speed])
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

pub fn format_from(
    play: &DataFrame,
    types: &DataFrame,
    lengths: &DataFrame,
) -> Result<FormatCounts> {
    let mut out = FormatCounts::default();
    let kind = play.column(PLAY)?.str()?;
    let class = play.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let year = play.column(Column::Year.name())?.i16()?;
    for (i, p) in proportions(play)?.into_iter().enumerate() {
        let Some(kind) = kind.get(i).and_then(Play::from_name) else {
            continue;
        };
        let key = (kind, class.get(i).unwrap_or("?").to_string(), year.get(i));
        out.by_play
            .entry(key)
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
    }
    let class = types.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let draw_type = types.column(Column::DrawType.name())?.str()?;
    let n = types.column(names::N)?.u64()?;
    for i in 0..types.height() {
        let key = (
            class.get(i).unwrap_or("?").to_string(),
            draw_type.get(i).unwrap_or("?").to_string(),
        );
        *out.draw_types_by_class.entry(key).or_insert(0) += n.get(i).unwrap_or(0);
    }
    out.lengths = by_format(lengths, |part| {
        let moves = part.column(Column::Moves.name())?.u32()?;
        let n = part.column(names::N)?.u64()?;
        let mut counts = BTreeMap::new();
        for i in 0..part.height() {
            if let Some(m) = moves.get(i) {
                *counts.entry(m).or_insert(0) += n.get(i).unwrap_or(0);
            }
        }
        Ok(counts)
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_and_labels() {
        assert_eq!(gap_bin(0), 0);
        assert_eq!(gap_bin(49), 0);
        assert_eq!(gap_bin(50), 1);
        assert_eq!(gap_bin(400), 6);
        assert_eq!(gap_label(0), "0–49");
        assert_eq!(gap_label(6), "≥ 400");
        assert_eq!(clock_label(0), "under 10 s");
        assert_eq!(clock_label(5), "10 min or more");
    }
}
