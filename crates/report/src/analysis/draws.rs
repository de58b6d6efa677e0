//! Draw statistics from the aggregated cube: rates by band and year, the
//! draw-type mix, and the length of drawn games.

use std::collections::BTreeMap;

use super::table::CubeRow;
use crate::study::{Band, Proportion};
use remis_table::schema::DrawType;

/// Fewer games than this in a cell: shown greyed, left out of charts.
pub const MIN_CELL_GAMES: u64 = 30;

/// Everything the report and `stats` show, from one cube.
#[derive(Clone, Debug, Default)]
pub struct DrawStats {
    pub games: u64,
    pub draws: u64,
    pub by_band: BTreeMap<Band, Proportion>,
    pub by_year: BTreeMap<i16, Proportion>,
    pub by_band_year: BTreeMap<(Band, i16), Proportion>,
    /// Games without a year, by band (in the band totals, not by year).
    pub no_year: BTreeMap<Band, Proportion>,
    pub draw_types: BTreeMap<DrawType, u64>,
    pub draw_types_by_band: BTreeMap<Band, BTreeMap<DrawType, u64>>,
    /// Drawn games by their number of moves: agreed draws and all others.
    pub agreed_moves: BTreeMap<u32, u64>,
    pub other_draw_moves: BTreeMap<u32, u64>,
}

fn add(map_value: &mut Proportion, draws: u64, games: u64) {
    map_value.successes += draws;
    map_value.n += games;
}

impl DrawStats {
    pub fn from_cube(rows: &[CubeRow]) -> DrawStats {
        let mut s = DrawStats::default();
        let zero = || Proportion::new(0, 0);
        for row in rows {
            let draws = if row.is_draw { row.games } else { 0 };
            s.games += row.games;
            s.draws += draws;
            add(
                s.by_band.entry(row.band).or_insert_with(zero),
                draws,
                row.games,
            );
            match row.year {
                Some(y) => {
                    add(s.by_year.entry(y).or_insert_with(zero), draws, row.games);
                    add(
                        s.by_band_year.entry((row.band, y)).or_insert_with(zero),
                        draws,
                        row.games,
                    );
                }
                None => add(
                    s.no_year.entry(row.band).or_insert_with(zero),
                    draws,
                    row.games,
                ),
            }
            if row.is_draw {
                let kind = row
                    .draw_type
                    .as_deref()
                    .and_then(DrawType::from_name)
                    .unwrap_or(DrawType::Other);
                *s.draw_types.entry(kind).or_insert(0) += row.games;
                *s.draw_types_by_band
                    .entry(row.band)
                    .or_default()
                    .entry(kind)
                    .or_insert(0) += row.games;
                let moves = row.moves.unwrap_or(0);
                let histogram = if kind == DrawType::Agreed {
                    &mut s.agreed_moves
                } else {
                    &mut s.other_draw_moves
                };
                *histogram.entry(moves).or_insert(0) += row.games;
            }
        }
        s
    }

    pub fn overall(&self) -> Proportion {
        Proportion::new(self.draws, self.games)
    }

    pub fn years(&self) -> Vec<i16> {
        self.by_year.keys().copied().collect()
    }

    /// Draws of at most `moves` moves, as a share of all draws, and agreed
    /// draws of at most `moves` moves as a share of agreed draws.
    pub fn short_draws(&self, moves: u32) -> (Proportion, Proportion) {
        let count = |h: &BTreeMap<u32, u64>| -> (u64, u64) {
            let short = h.range(..=moves).map(|(_, n)| n).sum();
            (short, h.values().sum())
        };
        let (agreed_short, agreed) = count(&self.agreed_moves);
        let (other_short, other) = count(&self.other_draw_moves);
        (
            Proportion::new(agreed_short + other_short, agreed + other),
            Proportion::new(agreed_short, agreed),
        )
    }

    /// Mean length in moves of drawn games.
    pub fn mean_draw_moves(&self) -> Option<f64> {
        let (sum, n) = self
            .agreed_moves
            .iter()
            .chain(&self.other_draw_moves)
            .fold((0u64, 0u64), |(s, c), (&m, &k)| {
                (s + u64::from(m) * k, c + k)
            });
        (n > 0).then(|| sum as f64 / n as f64)
    }
}

/// How years are grouped in the report's by-year chart and band × year
/// table: single years from `before` on, and bins of `width` years before
/// it (aligned to multiples of `width`), so that two centuries of master
/// games stay a readable table.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct YearBins {
    pub width: u16,
    pub before: Option<i16>,
}

impl YearBins {
    /// Every year its own column.
    pub const NONE: YearBins = YearBins {
        width: 1,
        before: None,
    };

    /// The bins that keep `years` within `max` columns with as many single
    /// (recent) years as fit: bins of 10 years before them, or of 25, 50,
    /// 100 and wider when 10 are too many. Any span of years fits: the
    /// widest bins (25,000 years) cover every year a table can hold in
    /// three columns.
    pub fn fit(years: &[i16], max: usize) -> YearBins {
        if years.len() <= max {
            return YearBins::NONE;
        }
        for width in [
            10u16, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000,
        ] {
            for singles in (1..max).rev() {
                let before = years[years.len() - singles];
                let bins = YearBins {
                    width,
                    before: Some(before),
                };
                let mut columns: Vec<i16> = years.iter().map(|&y| bins.bin(y)).collect();
                columns.dedup();
                if columns.len() <= max {
                    return bins;
                }
            }
        }
        YearBins::NONE
    }

    /// The first year of the column `year` falls in.
    pub fn bin(&self, year: i16) -> i16 {
        match self.before {
            Some(before) if year < before => {
                let year = i32::from(year);
                // Clamped: the first bin of the earliest years may start
                // before the first year an i16 holds.
                (year - year.rem_euclid(i32::from(self.width))).max(i32::from(i16::MIN)) as i16
            }
            _ => year,
        }
    }

    /// The column's label: "1840–1849", or the year.
    pub fn label(&self, start: i16) -> String {
        match self.before {
            Some(before) if start < before => {
                let end = self.end(start, before);
                if end > start {
                    format!("{start}–{end}")
                } else {
                    start.to_string()
                }
            }
            _ => start.to_string(),
        }
    }

    /// A short label for a chart's axis: "1970s" for a whole decade,
    /// "2000–07" for part of one, "1900–24" for other bins.
    pub fn short_label(&self, start: i16) -> String {
        match self.before {
            Some(before) if start < before => {
                let end = self.end(start, before);
                if self.width == 10 && i32::from(end) == i32::from(start) + 9 && start % 10 == 0 {
                    format!("{start}s")
                } else if end > start {
                    format!("{start}–{:02}", end % 100)
                } else {
                    start.to_string()
                }
            }
            _ => start.to_string(),
        }
    }

    /// The last year of the bin that starts at `start`, before `before`.
    fn end(&self, start: i16, before: i16) -> i16 {
        (i32::from(start) + i32::from(self.width) - 1).min(i32::from(before) - 1) as i16
    }

    /// The bins in words, for the page; `None` when every year stands
    /// alone.
    pub fn describe(&self) -> Option<String> {
        self.before
            .map(|before| format!("years before {before} in bins of {} years", self.width))
    }
}

impl DrawStats {
    /// The same statistics with years grouped by `bins`.
    pub fn binned(&self, bins: YearBins) -> DrawStats {
        if bins.before.is_none() {
            return self.clone();
        }
        let mut out = self.clone();
        out.by_year.clear();
        out.by_band_year.clear();
        for (&y, p) in &self.by_year {
            let cell = out
                .by_year
                .entry(bins.bin(y))
                .or_insert(Proportion::new(0, 0));
            cell.successes += p.successes;
            cell.n += p.n;
        }
        for (&(b, y), p) in &self.by_band_year {
            let cell = out
                .by_band_year
                .entry((b, bins.bin(y)))
                .or_insert(Proportion::new(0, 0));
            cell.successes += p.successes;
            cell.n += p.n;
        }
        out
    }
}

/// A band needs this share of the standard band mix present in a year (or
/// bin) for the year's standardised rate to be charted.
pub const MIN_STANDARD_COVERAGE: f64 = 0.8;

/// The draw rate by year standardised for rating (direct standardisation):
/// each year's rate in each rated band, weighted by one fixed band mix, the
/// standard. The standard is the band mix of the population's rated games
/// with a year, over all years. A band enters a year only with at least
/// [`MIN_CELL_GAMES`] games that year; a year is standardised over the
/// bands present, their weights scaled to sum to one, and says how much of
/// the standard they hold (`coverage`).
#[derive(Clone, Debug, Default)]
pub struct Standardised {
    /// The standard: each rated band's share of the rated games.
    pub weights: BTreeMap<Band, f64>,
    pub by_year: BTreeMap<i16, StandardisedYear>,
}

/// One year's (or bin's) standardised draw rate.
#[derive(Clone, Debug, PartialEq)]
pub struct StandardisedYear {
    pub rate: f64,
    /// The 95% interval: rate ± 1.96 √V, V the variance of the weighted
    /// sum of the bands' proportions (each band's variance with the
    /// Agresti–Coull proportion (x + 2)/(n + 4) over n + 4 games, so that
    /// a band with no draws, or only draws, is not taken as certain),
    /// within 0–1.
    pub low: f64,
    pub high: f64,
    /// The share of the standard held by the bands present this year.
    pub coverage: f64,
    /// The bands present, and the rated games they hold.
    pub bands: usize,
    pub games: u64,
}

impl StandardisedYear {
    /// Whether enough of the standard is present for the rate to be
    /// charted (it is tabled either way).
    pub fn charted(&self) -> bool {
        self.coverage >= MIN_STANDARD_COVERAGE
    }
}

impl Standardised {
    /// Standardises `stats`' rates by year (or by bin, for binned stats:
    /// the standard is the same) to the band mix of its rated games.
    pub fn of(stats: &DrawStats) -> Standardised {
        let mut weights: BTreeMap<Band, f64> = BTreeMap::new();
        for (&(band, _), p) in &stats.by_band_year {
            if band.is_rated() {
                *weights.entry(band).or_insert(0.0) += p.n as f64;
            }
        }
        let total: f64 = weights.values().sum();
        if total == 0.0 {
            return Standardised::default();
        }
        for w in weights.values_mut() {
            *w /= total;
        }
        let mut by_year = BTreeMap::new();
        for &year in stats.by_year.keys() {
            let present: Vec<(f64, &Proportion)> = weights
                .iter()
                .filter_map(|(&band, &w)| {
                    stats
                        .by_band_year
                        .get(&(band, year))
                        .filter(|p| p.n >= MIN_CELL_GAMES)
                        .map(|p| (w, p))
                })
                .collect();
            let coverage: f64 = present.iter().map(|(w, _)| w).sum();
            if present.is_empty() || coverage <= 0.0 {
                continue;
            }
            let mut rate = 0.0;
            let mut variance = 0.0;
            for &(w, p) in &present {
                let w = w / coverage;
                rate += w * p.successes as f64 / p.n as f64;
                let n = p.n as f64 + 4.0;
                let q = (p.successes as f64 + 2.0) / n;
                variance += w * w * q * (1.0 - q) / n;
            }
            let half = 1.959964 * variance.sqrt();
            by_year.insert(
                year,
                StandardisedYear {
                    rate,
                    low: (rate - half).max(0.0),
                    high: (rate + half).min(1.0),
                    coverage,
                    bands: present.len(),
                    games: present.iter().map(|(_, p)| p.n).sum(),
                },
            );
        }
        Standardised { weights, by_year }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(band: u16, year: i16, draw: Option<&str>, moves: u32, games: u64) -> CubeRow {
        CubeRow {
            band: Band::Rated(band),
            year: Some(year),
            is_draw: draw.is_some(),
            draw_type: draw.map(str::to_string),
            moves: draw.map(|_| moves),
            games,
        }
    }

    #[test]
    fn year_bins_hold_for_any_span_of_years() {
        // 272 distinct years over the whole range a table's year holds.
        let mut years: Vec<i16> = (0..272)
            .map(|i: i32| (i16::MIN as i32 + i * 241) as i16)
            .collect();
        years.push(i16::MAX);
        years.sort();
        years.dedup();
        for max in [5, 37, 39] {
            let bins = YearBins::fit(&years, max);
            let mut columns: Vec<i16> = years.iter().map(|&y| bins.bin(y)).collect();
            columns.dedup();
            assert!(
                columns.len() <= max,
                "{} columns for at most {max}",
                columns.len()
            );
            for &start in &columns {
                assert!(!bins.label(start).is_empty());
                assert!(!bins.short_label(start).is_empty());
            }
        }
    }

    #[test]
    fn year_bins_keep_a_long_span_under_the_column_limit() {
        let years: Vec<i16> = (1749..=2024).collect();
        let bins = YearBins::fit(&years, 39);
        let mut columns: Vec<i16> = years.iter().map(|&y| bins.bin(y)).collect();
        columns.dedup();
        assert!(columns.len() <= 39, "{} columns", columns.len());
        assert_eq!(bins.label(bins.bin(2024)), "2024");
        assert_eq!(bins.label(1840), "1840–1849");
        assert_eq!(YearBins::fit(&[2018, 2019, 2020], 39), YearBins::NONE);
    }

    #[test]
    fn rates_and_mix_from_a_hand_built_cube() {
        let cube = vec![
            row(25, 2000, None, 0, 45),
            row(25, 2000, Some("agreed"), 18, 40),
            row(25, 2000, Some("threefold_repetition"), 35, 15),
            row(24, 2001, None, 0, 70),
            row(24, 2001, Some("agreed"), 25, 30),
        ];
        let s = DrawStats::from_cube(&cube);
        assert_eq!(s.games, 200);
        assert_eq!(s.draws, 85);
        let band25 = s.by_band[&Band::Rated(25)];
        assert_eq!((band25.successes, band25.n), (55, 100));
        assert_eq!(band25.rate(), Some(0.55));
        assert_eq!(s.by_band_year[&(Band::Rated(24), 2001)].rate(), Some(0.3));
        assert_eq!(s.draw_types[&DrawType::Agreed], 70);
        assert_eq!(s.draw_types[&DrawType::ThreefoldRepetition], 15);
        let (all, agreed) = s.short_draws(20);
        assert_eq!((all.successes, all.n), (40, 85));
        assert_eq!((agreed.successes, agreed.n), (40, 70));
        let (all30, _) = s.short_draws(30);
        assert_eq!(all30.successes, 70);
        let mean = s.mean_draw_moves().unwrap();
        assert!((mean - (40.0 * 18.0 + 15.0 * 35.0 + 30.0 * 25.0) / 85.0).abs() < 1e-9);
    }

    #[test]
    fn standardised_rates_hold_the_band_mix_fixed() {
        // Two bands drawing 30% and 60% every year; the mix shifts from
        // the lower band (2000) to the higher (2001). Pooled, the rate
        // rises from 150/400 = 37.5% to 210/400 = 52.5%; standardised to
        // the mix of all years (400 + 400 games: half and half) it is
        // 0.5 × 30% + 0.5 × 60% = 45% both years.
        let cube = vec![
            row(20, 2000, None, 0, 210),
            row(20, 2000, Some("agreed"), 20, 90),
            row(25, 2000, None, 0, 40),
            row(25, 2000, Some("agreed"), 20, 60),
            row(20, 2001, None, 0, 70),
            row(20, 2001, Some("agreed"), 20, 30),
            row(25, 2001, None, 0, 120),
            row(25, 2001, Some("agreed"), 20, 180),
            // 2002: the lower band alone, 10 draws in 50 games.
            row(20, 2002, None, 0, 40),
            row(20, 2002, Some("agreed"), 20, 10),
            // 2003: the higher band has too few games to enter.
            row(20, 2003, None, 0, 35),
            row(20, 2003, Some("agreed"), 20, 35),
            row(25, 2003, Some("agreed"), 20, 10),
        ];
        let s = DrawStats::from_cube(&cube);
        assert_eq!(s.by_year[&2000].rate(), Some(0.375));
        assert_eq!(s.by_year[&2001].rate(), Some(0.525));
        let st = Standardised::of(&s);
        // The standard: 520 rated games in the lower band (300 + 100 + 50
        // + 70), 410 in the higher (100 + 300 + 10).
        let (w20, w25) = (520.0 / 930.0, 410.0 / 930.0);
        assert!((st.weights[&Band::Rated(20)] - w20).abs() < 1e-12);
        assert!((st.weights[&Band::Rated(25)] - w25).abs() < 1e-12);
        let y2000 = &st.by_year[&2000];
        let expected = w20 * 0.3 + w25 * 0.6;
        assert!((y2000.rate - expected).abs() < 1e-12, "{y2000:?}");
        assert!((st.by_year[&2001].rate - expected).abs() < 1e-12);
        assert_eq!((y2000.bands, y2000.games), (2, 400));
        assert!((y2000.coverage - 1.0).abs() < 1e-12 && y2000.charted());
        // The interval: the variance of the weighted sum, each band's with
        // the Agresti–Coull proportion.
        let var = |x: f64, n: f64| {
            let q = (x + 2.0) / (n + 4.0);
            q * (1.0 - q) / (n + 4.0)
        };
        let half = 1.959964 * (w20 * w20 * var(90.0, 300.0) + w25 * w25 * var(60.0, 100.0)).sqrt();
        assert!((y2000.low - (expected - half)).abs() < 1e-12);
        assert!((y2000.high - (expected + half)).abs() < 1e-12);
        // A year with one band present: its rate, over the bands present,
        // and the share of the standard they hold: not charted.
        let y2002 = &st.by_year[&2002];
        assert!((y2002.rate - 0.2).abs() < 1e-12);
        assert!((y2002.coverage - w20).abs() < 1e-12);
        assert!(!y2002.charted());
        // A band under 30 games in a year does not enter it.
        let y2003 = &st.by_year[&2003];
        assert_eq!((y2003.bands, y2003.games), (1, 70));
        assert!((y2003.rate - 0.5).abs() < 1e-12);
    }
}
