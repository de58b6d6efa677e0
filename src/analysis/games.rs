//! The statistician's further questions, each a plain summary of the games
//! a report uses: the draw rate by mean rating and rating gap, by opening,
//! by time class and band, and what the clocks showed when a draw was
//! agreed or a flag fell.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::table::{BAND, EFFECTIVE_TIME_CLASS, IS_DRAW, REASON, USED, band_of_row};
use crate::rules::{DrawType, Ending};
use crate::schema::Column;
use crate::study::{Band, BandScheme, Proportion};

fn used(prepared: LazyFrame) -> LazyFrame {
    prepared.filter(col(REASON).eq(lit(USED)))
}

/// Draws among games, as a proportion, from a frame with `games` and
/// `draws` columns.
fn proportions(df: &DataFrame) -> Result<Vec<Proportion>> {
    let games = df.column("games")?.u64()?;
    let draws = df.column("draws")?.u64()?;
    Ok(games
        .iter()
        .zip(draws.iter())
        .map(|(n, d)| Proportion::new(d.unwrap_or(0), n.unwrap_or(0)))
        .collect())
}

fn games_and_draws() -> [Expr; 2] {
    [
        len().cast(DataType::UInt64).alias("games"),
        col(IS_DRAW).cast(DataType::UInt64).sum().alias("draws"),
    ]
}

// ---------------------------------------------------------------------------
// Rating gap.

/// Upper ends of the rating-gap bins (|White − Black|); the last bin is
/// open.
pub const GAP_EDGES: [u16; 6] = [50, 100, 150, 200, 300, 400];

/// Which rating system the ratings are on, as far as the `Site` tag tells.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, serde::Serialize)]
pub enum RatingSystem {
    /// lichess.org: Glicko-2, not FIDE Elo.
    LichessGlicko2,
    /// chess.com: Glicko, not FIDE Elo.
    ChessComGlicko,
    /// Over-the-board databases: FIDE (or national) Elo.
    Elo,
}

impl RatingSystem {
    pub fn of_site(site: Option<&str>) -> RatingSystem {
        match site {
            Some(s) if s.contains("lichess.org") => RatingSystem::LichessGlicko2,
            Some(s) if s.contains("chess.com") => RatingSystem::ChessComGlicko,
            _ => RatingSystem::Elo,
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            RatingSystem::LichessGlicko2 => "lichess Glicko-2 ratings (not FIDE Elo)",
            RatingSystem::ChessComGlicko => "chess.com Glicko ratings (not FIDE Elo)",
            RatingSystem::Elo => "Elo ratings (FIDE or national; over-the-board records)",
        }
    }
}

/// Games whose `Site` tag is read to tell the rating system.
pub const RATING_SYSTEM_SAMPLE: u32 = 10_000;

/// Draw rate by mean rating (the report's bands) and rating gap.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingGap {
    /// (band of the mean rating, gap bin index) → draws among games.
    pub cells: BTreeMap<(Band, usize), Proportion>,
    /// Rated games by rating system, from the `Site` tags of at most
    /// [`RATING_SYSTEM_SAMPLE`] of them.
    pub systems: BTreeMap<RatingSystem, u64>,
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

pub fn rating_gap(prepared: LazyFrame, scheme: &BandScheme) -> Result<RatingGap> {
    let w = Column::WhiteElo.col().cast(DataType::Int32);
    let b = Column::BlackElo.col().cast(DataType::Int32);
    let rated = used(prepared).filter(w.clone().is_not_null().and(b.clone().is_not_null()));
    let df = rated
        .clone()
        .with_columns([
            ((w.clone() + b.clone()) / lit(2)).alias("mean_elo"),
            when(w.clone().gt_eq(b.clone()))
                .then(w.clone() - b.clone())
                .otherwise(b - w)
                .alias("gap"),
        ])
        .group_by([col("mean_elo"), col("gap")])
        .agg(games_and_draws())
        .collect()?;
    let mean = df.column("mean_elo")?.i32()?;
    let gap = df.column("gap")?.i32()?;
    let mut out = RatingGap::default();
    for (i, p) in proportions(&df)?.into_iter().enumerate() {
        let (Some(m), Some(g)) = (mean.get(i), gap.get(i)) else {
            continue;
        };
        let band = Band::Rated(scheme.index(m.clamp(0, i32::from(u16::MAX)) as u16));
        let cell = out
            .cells
            .entry((band, gap_bin(g.clamp(0, i32::from(u16::MAX)) as u16)))
            .or_insert(Proportion::new(0, 0));
        cell.n += p.n;
        cell.successes += p.successes;
    }
    // The rating system, from the Site tags of a sample of the games.
    let sites = rated
        .select([Column::Site.col()])
        .limit(RATING_SYSTEM_SAMPLE)
        .collect()?;
    for site in sites.column(Column::Site.name())?.str()?.iter() {
        *out.systems.entry(RatingSystem::of_site(site)).or_insert(0) += 1;
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

fn opening_groups(lf: LazyFrame, key: Column, top: usize) -> Result<Vec<OpeningGroup>> {
    let df = lf
        .filter(
            key.col()
                .is_not_null()
                .and(key.col().neq(lit("")))
                .and(key.col().neq(lit("?"))),
        )
        .group_by([key.col(), Column::DrawType.col()])
        .agg(games_and_draws())
        .collect()?;
    let names = df.column(key.name())?.str()?;
    let kinds = df.column(Column::DrawType.name())?.str()?;
    let mut groups: BTreeMap<String, OpeningGroup> = BTreeMap::new();
    for (i, p) in proportions(&df)?.into_iter().enumerate() {
        let Some(name) = names.get(i) else { continue };
        let group = groups
            .entry(name.to_string())
            .or_insert_with(|| OpeningGroup {
                name: name.to_string(),
                draws: Proportion::new(0, 0),
                draw_types: BTreeMap::new(),
            });
        group.draws.n += p.n;
        group.draws.successes += p.successes;
        if let Some(kind) = kinds.get(i) {
            *group.draw_types.entry(kind.to_string()).or_insert(0) += p.successes;
        }
    }
    let mut groups: Vec<OpeningGroup> = groups.into_values().collect();
    groups.sort_by(|a, b| b.draws.n.cmp(&a.draws.n).then(a.name.cmp(&b.name)));
    groups.truncate(top);
    Ok(groups)
}

pub fn openings(prepared: LazyFrame, top: usize) -> Result<Openings> {
    let lf = used(prepared);
    Ok(Openings {
        by_eco: opening_groups(lf.clone(), Column::Eco, top)?,
        by_name: opening_groups(lf, Column::Opening, top)?,
    })
}

// ---------------------------------------------------------------------------
// Time classes.

/// Draws by time class and band.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeClasses {
    pub by_class: BTreeMap<String, Proportion>,
    pub by_class_band: BTreeMap<(String, Band), Proportion>,
}

pub fn time_classes(prepared: LazyFrame) -> Result<TimeClasses> {
    let df = used(prepared)
        .group_by([col(EFFECTIVE_TIME_CLASS), col(BAND)])
        .agg(games_and_draws())
        .collect()?;
    let class = df.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let band = df.column(BAND)?.i32()?;
    let mut out = TimeClasses::default();
    for (i, p) in proportions(&df)?.into_iter().enumerate() {
        let class = class.get(i).unwrap_or("?").to_string();
        let total = out
            .by_class
            .entry(class.clone())
            .or_insert(Proportion::new(0, 0));
        total.n += p.n;
        total.successes += p.successes;
        out.by_class_band
            .insert((class, band_of_row(band.get(i))), p);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Clocks.

/// Upper ends, in seconds, of the clock bins; the last bin is open.
pub const CLOCK_EDGES: [f32; 5] = [10.0, 30.0, 60.0, 180.0, 600.0];

pub fn clock_bin(seconds: f32) -> usize {
    CLOCK_EDGES.iter().take_while(|&&e| seconds >= e).count()
}

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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clocks {
    /// Agreed draws by the lower of the two clocks.
    pub agreed_lower_clock: BTreeMap<usize, u64>,
    pub agreed_without_clock: u64,
    /// Games won on time by the winner's clock.
    pub flag_winner_clock: BTreeMap<usize, u64>,
    pub flag_without_clock: u64,
}

pub fn clocks(prepared: LazyFrame) -> Result<Clocks> {
    let white = Column::WhiteClock.col();
    let black = Column::BlackClock.col();
    let agreed = Column::DrawType.col().eq(lit(DrawType::Agreed.as_str()));
    let flag = Column::Ending.col().eq(lit(Ending::TimeForfeit.as_str()));
    let winner_clock = when(Column::Result.col().eq(lit("1-0")))
        .then(white.clone())
        .otherwise(black.clone());
    let df = used(prepared)
        .filter(agreed.clone().fill_null(lit(false)).or(flag.clone()))
        .select([
            agreed.fill_null(lit(false)).alias("agreed"),
            // The lower clock needs both; one missing is no clock.
            when(white.clone().is_null().or(black.clone().is_null()))
                .then(lit(NULL).cast(DataType::Float32))
                .when(white.clone().lt(black.clone()))
                .then(white)
                .otherwise(black)
                .alias("lower"),
            winner_clock.alias("winner"),
        ])
        .collect()?;
    let is_agreed = df.column("agreed")?.bool()?;
    let lower = df.column("lower")?.f32()?;
    let winner = df.column("winner")?.f32()?;
    let mut out = Clocks::default();
    for i in 0..df.height() {
        if is_agreed.get(i) == Some(true) {
            match lower.get(i) {
                Some(s) => *out.agreed_lower_clock.entry(clock_bin(s)).or_insert(0) += 1,
                None => out.agreed_without_clock += 1,
            }
        } else {
            match winner.get(i) {
                Some(s) => *out.flag_winner_clock.entry(clock_bin(s)).or_insert(0) += 1,
                None => out.flag_without_clock += 1,
            }
        }
    }
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
        assert_eq!(clock_bin(9.9), 0);
        assert_eq!(clock_bin(10.0), 1);
        assert_eq!(clock_label(0), "under 10 s");
        assert_eq!(clock_label(5), "10 min or more");
    }
}
