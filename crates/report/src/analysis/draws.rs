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
}
