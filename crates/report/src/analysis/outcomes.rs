//! Beyond the draw rate: wins, draws and losses, White's score, and the
//! score the rating difference predicts (FIDE rating regulations, table
//! 8.1(b)), by band and by band and year.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::merge::{Merge, pairs};
use super::population::{ByFormat, by_format, format_keys};
use super::table::{BAND, band_of_row, names};
use crate::study::{Band, Proportion};
use remis_table::schema::Column;
use remis_table::schema::GameResult;
use shakmaty::Color;

/// FIDE rating regulations, table 8.1(b): the expected score of the
/// higher-rated player by the rating difference D, as (largest D of the
/// row, expected score in hundredths). Up to 400, the most that counts
/// (8.3.1: "a difference in rating of more than 400 points shall be counted
/// as though it were a difference of 400 points").
const TABLE_8_1_B: [(u16, u8); 43] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (400, 92),
];

/// The expected score of White against Black by FIDE's table 8.1(b).
pub fn expected_score(white_elo: u16, black_elo: u16) -> f64 {
    let difference = i32::from(white_elo) - i32::from(black_elo);
    let d = difference.unsigned_abs().min(400) as u16;
    let higher = TABLE_8_1_B
        .iter()
        .find(|&&(last, _)| d <= last)
        .map_or(92, |&(_, p)| p);
    let higher = f64::from(higher) / 100.0;
    if difference >= 0 {
        higher
    } else {
        1.0 - higher
    }
}

/// Results of a group of games, from White's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutcomeCounts {
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Games with both ratings, and the sum of White's expected scores
    /// over them in hundredths (table 8.1(b) is in hundredths, so the sum
    /// is exact and adds up the same in any order).
    pub rated: u64,
    pub expected_hundredths: u64,
}

impl OutcomeCounts {
    pub fn games(&self) -> u64 {
        self.white_wins + self.draws + self.black_wins
    }

    pub fn white_win_share(&self) -> Proportion {
        Proportion::new(self.white_wins, self.games())
    }

    pub fn draw_share(&self) -> Proportion {
        Proportion::new(self.draws, self.games())
    }

    pub fn black_win_share(&self) -> Proportion {
        Proportion::new(self.black_wins, self.games())
    }

    /// White's score (a win 1, a draw ½) with a 95% Wilson score interval
    /// on the score as a proportion of the points at stake. Unlike the
    /// normal approximation it never collapses to a point (one game won is
    /// 1.000 with an interval of 0.207–1.000, not 1.000–1.000); with draws
    /// it is a little wider than needed, never narrower.
    pub fn white_score(&self) -> Option<(f64, f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let score = (self.white_wins as f64 + 0.5 * self.draws as f64) / n;
        let z = 1.959_963_984_540_054f64;
        let z2 = z * z;
        let denominator = 1.0 + z2 / n;
        let centre = (score + z2 / (2.0 * n)) / denominator;
        let half = z * (score * (1.0 - score) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
        Some((score, (centre - half).max(0.0), (centre + half).min(1.0)))
    }

    /// White's mean expected score by table 8.1(b), over rated games.
    pub fn expected_white_score(&self) -> Option<f64> {
        (self.rated > 0).then(|| self.expected_hundredths as f64 / 100.0 / self.rated as f64)
    }
}

impl Merge for OutcomeCounts {
    fn absorb(&mut self, o: OutcomeCounts) {
        self.white_wins += o.white_wins;
        self.draws += o.draws;
        self.black_wins += o.black_wins;
        self.rated += o.rated;
        self.expected_hundredths += o.expected_hundredths;
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcomes {
    pub overall: OutcomeCounts,
    pub by_band: BTreeMap<Band, OutcomeCounts>,
    pub by_band_year: BTreeMap<(Band, i16), OutcomeCounts>,
}

/// The keys [`counts_query`] adds for the expected score: whether White
/// is the higher-rated, and the rating difference capped at 400.
const WHITE_HIGHER: &str = "white_higher";
const DIFFERENCE: &str = "difference";

/// Results from White's side by band and year (a summary's part). The
/// expected score needs only the rating difference up to 400 (8.3.1) and
/// which side is higher, so games are grouped by those and the table is
/// looked up once per group.
pub fn counts_query(used: LazyFrame) -> LazyFrame {
    let w = Column::WhiteElo.col().cast(DataType::Int32);
    let b = Column::BlackElo.col().cast(DataType::Int32);
    let white_higher = w.clone().gt_eq(b.clone());
    let difference = when(white_higher.clone())
        .then(w.clone() - b.clone())
        .otherwise(b - w);
    let difference = when(difference.clone().gt(lit(400i32)))
        .then(lit(400i32))
        .otherwise(difference);
    let [play, speed] = format_keys();
    used.group_by([
        col(BAND),
        Column::Year.col(),
        Column::Result.col(),
        white_higher.alias(WHITE_HIGHER),
        difference.alias(DIFFERENCE),
        play,
        speed,
    ])
    .agg([len().cast(DataType::UInt64).alias(names::GAMES)])
}

/// Results from White's side by band and year, of one format's games.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OutcomeCells(#[serde(with = "pairs")] pub BTreeMap<(Band, Option<i16>), OutcomeCounts>);

impl Merge for OutcomeCells {
    fn absorb(&mut self, other: OutcomeCells) {
        self.0.absorb(other.0);
    }
}

/// The counts of [`counts_query`], kept apart by format.
pub fn counts_from(df: &DataFrame) -> Result<ByFormat<OutcomeCells>> {
    by_format(df, |part| cells_from(part).map(OutcomeCells))
}

fn cells_from(df: &DataFrame) -> Result<BTreeMap<(Band, Option<i16>), OutcomeCounts>> {
    let band = df.column(BAND)?.i32()?;
    let year = df.column(Column::Year.name())?.i16()?;
    let result = df.column(Column::Result.name())?.str()?;
    let white_higher = df.column(WHITE_HIGHER)?.bool()?;
    let difference = df.column(DIFFERENCE)?.i32()?;
    let games = df.column(names::GAMES)?.u64()?;
    let mut out: BTreeMap<(Band, Option<i16>), OutcomeCounts> = BTreeMap::new();
    for i in 0..df.height() {
        let rated = match (white_higher.get(i), difference.get(i)) {
            (Some(higher), Some(d)) => Some((higher, d)),
            _ => None,
        };
        add_games(
            &mut out,
            (band_of_row(band.get(i)), year.get(i)),
            result.get(i),
            rated,
            games.get(i).unwrap_or(0),
        );
    }
    Ok(out)
}

/// Adds `n` games of one result to their cell (see [`games_of`]).
pub(crate) fn add_games(
    out: &mut BTreeMap<(Band, Option<i16>), OutcomeCounts>,
    cell: (Band, Option<i16>),
    result: Option<&str>,
    rated: Option<(bool, i32)>,
    n: u64,
) {
    if let Some(c) = games_of(result, rated, n) {
        out.entry(cell).or_default().absorb(c);
    }
}

/// `n` games of one result as counts (`None` for a result that is no
/// win or draw): `rated` is whether White is the higher rated (or equal)
/// and the rating difference, capped at 400, when both are rated. The
/// one place a group of [`counts_query`] and a game counted in Rust
/// (`build`) become counts.
pub(crate) fn games_of(
    result: Option<&str>,
    rated: Option<(bool, i32)>,
    n: u64,
) -> Option<OutcomeCounts> {
    let mut c = OutcomeCounts::default();
    match result.and_then(|r| GameResult::parse(r.as_bytes())) {
        Some(GameResult::Win(Color::White)) => c.white_wins = n,
        Some(GameResult::Win(Color::Black)) => c.black_wins = n,
        Some(GameResult::Draw) => c.draws = n,
        _ => return None,
    }
    if let Some((higher, d)) = rated {
        let d = d.clamp(0, 400) as u16;
        let (white, black) = if higher { (d, 0) } else { (0, d) };
        c.rated = n;
        c.expected_hundredths = n * hundredths(expected_score(white, black));
    }
    Some(c)
}

/// An expected score of the table as whole hundredths.
fn hundredths(score: f64) -> u64 {
    (score * 100.0).round() as u64
}

/// The outcome split of the games a report uses, from the counts.
pub fn outcomes(counts: &BTreeMap<(Band, Option<i16>), OutcomeCounts>) -> Outcomes {
    let mut out = Outcomes::default();
    for (&(band, year), &c) in counts {
        out.overall.absorb(c);
        out.by_band.entry(band).or_default().absorb(c);
        if let Some(y) = year {
            out.by_band_year.entry((band, y)).or_default().absorb(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fide_table_8_1_b() {
        assert_eq!(expected_score(2500, 2500), 0.5);
        assert_eq!(expected_score(2600, 2500), 0.64);
        assert_eq!(expected_score(2500, 2600), 0.36);
        assert_eq!(expected_score(2357, 2000), 0.89);
        assert_eq!(expected_score(2358, 2000), 0.90);
        // More than 400 counts as 400.
        assert_eq!(expected_score(2900, 2000), 0.92);
        assert!((expected_score(2000, 2900) - 0.08).abs() < 1e-12);
    }

    #[test]
    fn white_score_interval() {
        let c = OutcomeCounts {
            white_wins: 40,
            draws: 20,
            black_wins: 40,
            ..Default::default()
        };
        let (s, lo, hi) = c.white_score().unwrap();
        assert!((s - 0.5).abs() < 1e-12);
        // The Wilson interval of 50 of 100: 0.4038 to 0.5962.
        assert!(
            (lo - 0.4038).abs() < 5e-4 && (hi - 0.5962).abs() < 5e-4,
            "{lo} {hi}"
        );
        // One game won: no zero-width interval.
        let one = OutcomeCounts {
            white_wins: 1,
            ..Default::default()
        };
        let (s, lo, hi) = one.white_score().unwrap();
        assert_eq!((s, hi), (1.0, 1.0));
        assert!((lo - 0.2065).abs() < 5e-4, "{lo}");
    }
}
