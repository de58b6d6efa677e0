//! Rule studies: events under rules against short draws ("Sofia rules",
//! minimum moves) against comparable events without them, in the same
//! years and at the same rating level (the filters decide both).

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::table::USED;
use crate::rules::Ending;
use crate::schema::Column;
use crate::study::events::EventCatalogue;
use crate::study::{EventPatterns, Proportion};

/// Counts over a group of games.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct GroupStats {
    pub games: u64,
    pub draws: u64,
    pub agreed: u64,
    pub draws_le20: u64,
    pub draws_le30: u64,
    draw_moves_sum: f64,
    draw_moves_squares: f64,
}

impl GroupStats {
    fn add(&mut self, o: &GroupStats) {
        self.games += o.games;
        self.draws += o.draws;
        self.agreed += o.agreed;
        self.draws_le20 += o.draws_le20;
        self.draws_le30 += o.draws_le30;
        self.draw_moves_sum += o.draw_moves_sum;
        self.draw_moves_squares += o.draw_moves_squares;
    }

    pub fn draw_rate(&self) -> Proportion {
        Proportion::new(self.draws, self.games)
    }

    /// The shares every view of the study shows, in order, as shares of
    /// all games: draws, agreed draws, draws within 20 and within 30 moves.
    pub fn measures(&self) -> [(&'static str, Proportion); 4] {
        let share = |k| Proportion::new(k, self.games);
        [
            ("Draw rate", share(self.draws)),
            ("Agreed draws", share(self.agreed)),
            ("Draws ≤ 20 moves", share(self.draws_le20)),
            ("Draws ≤ 30 moves", share(self.draws_le30)),
        ]
    }

    /// Mean length of drawn games with a normal 95% interval.
    pub fn mean_draw_moves(&self) -> Option<(f64, f64, f64)> {
        let n = self.draws as f64;
        if self.draws < 2 {
            return None;
        }
        let mean = self.draw_moves_sum / n;
        let variance = (self.draw_moves_squares - n * mean * mean) / (n - 1.0);
        let half = 1.96 * (variance.max(0.0) / n).sqrt();
        Some((mean, mean - half, mean + half))
    }
}

/// Which side of the comparison an edition is on.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum Arm {
    /// Played under a rule against short or agreed draws.
    Rule,
    /// A comparable event without such rules.
    Control,
    /// An edition of a rule series from before (or after) its rules.
    Unregulated,
}

/// A series that changed its rules: its change against the controls'
/// change over the same years (difference in differences).
#[derive(Clone, Debug)]
pub struct DiffInDiff {
    pub series: String,
    pub before: GroupStats,
    pub after: GroupStats,
    pub control_before: GroupStats,
    pub control_after: GroupStats,
}

impl DiffInDiff {
    /// Draw-rate difference in differences with a normal 95% interval.
    pub fn draw_rate_effect(&self) -> Option<(f64, f64, f64)> {
        let parts = [
            &self.after,
            &self.before,
            &self.control_after,
            &self.control_before,
        ]
        .map(|g| g.draw_rate());
        let rates: Vec<f64> = parts.iter().map(|p| p.rate()).collect::<Option<_>>()?;
        let effect = (rates[0] - rates[1]) - (rates[2] - rates[3]);
        let variance: f64 = parts
            .iter()
            .zip(&rates)
            .map(|(p, r)| r * (1.0 - r) / p.n as f64)
            .sum();
        let half = 1.96 * variance.sqrt();
        Some((effect, effect - half, effect + half))
    }
}

#[derive(Clone, Debug, Default)]
pub struct RuleStudy {
    pub arms: BTreeMap<Arm, GroupStats>,
    /// Per series: its arm and counts.
    pub series: BTreeMap<(Arm, String), GroupStats>,
    pub did: Vec<DiffInDiff>,
    /// Games of matching events left out because the event name says rapid,
    /// blitz, blindfold or simul.
    pub fast_games_left_out: u64,
}

impl RuleStudy {
    /// No game of the catalogue's events is in the tables.
    pub fn is_empty(&self) -> bool {
        self.arms.values().all(|g| g.games == 0)
    }
}

/// Runs the study over the rows the filters use.
pub fn rule_study(
    prepared: LazyFrame,
    catalogue: &EventCatalogue,
    patterns: &EventPatterns,
) -> Result<RuleStudy> {
    let draw = col("is_draw");
    let count = |e: Expr| e.cast(DataType::UInt64).sum();
    let df = prepared
        .filter(
            col("reason")
                .eq(lit(USED))
                .and(Column::Event.col().is_not_null()),
        )
        .group_by([Column::Event.col(), Column::Site.col(), Column::Year.col()])
        .agg([
            len().cast(DataType::UInt64).alias("games"),
            count(draw.clone()).alias("draws"),
            count(
                Column::DrawType
                    .col()
                    .eq(lit(Ending::Agreed.as_str()))
                    .fill_null(lit(false)),
            )
            .alias("agreed"),
            count(draw.clone().and(Column::Moves.col().lt_eq(lit(20u32)))).alias("le20"),
            count(draw.clone().and(Column::Moves.col().lt_eq(lit(30u32)))).alias("le30"),
            when(draw.clone())
                .then(Column::Moves.col().cast(DataType::Float64))
                .otherwise(lit(0.0))
                .sum()
                .alias("moves_sum"),
            when(draw)
                .then(Column::Moves.col().cast(DataType::Float64).pow(2))
                .otherwise(lit(0.0))
                .sum()
                .alias("moves_sq"),
        ])
        .collect()?;
    let u = |name: &str| -> Result<Vec<u64>> {
        Ok(df
            .column(name)?
            .u64()?
            .iter()
            .map(|v| v.unwrap_or(0))
            .collect())
    };
    let f = |name: &str| -> Result<Vec<f64>> {
        Ok(df
            .column(name)?
            .f64()?
            .iter()
            .map(|v| v.unwrap_or(0.0))
            .collect())
    };
    let (games, draws, agreed, le20, le30) = (
        u("games")?,
        u("draws")?,
        u("agreed")?,
        u("le20")?,
        u("le30")?,
    );
    let (sums, squares) = (f("moves_sum")?, f("moves_sq")?);
    let events = df.column("event")?.str()?;
    let sites = df.column("site")?.str()?;
    let years = df.column("year")?.i16()?;

    let mut study = RuleStudy::default();
    let mut by_year: BTreeMap<(Arm, String, i16), GroupStats> = BTreeMap::new();
    for i in 0..df.height() {
        let event = events.get(i).unwrap_or_default();
        let Some(rules) = catalogue.rules(event, sites.get(i), years.get(i)) else {
            continue;
        };
        if patterns.kind(event).is_some() {
            study.fast_games_left_out += games[i];
            continue;
        }
        let stats = GroupStats {
            games: games[i],
            draws: draws[i],
            agreed: agreed[i],
            draws_le20: le20[i],
            draws_le30: le30[i],
            draw_moves_sum: sums[i],
            draw_moves_squares: squares[i],
        };
        let arm = if rules.restricts_draws() {
            Arm::Rule
        } else if rules.control {
            Arm::Control
        } else {
            Arm::Unregulated
        };
        study.arms.entry(arm).or_default().add(&stats);
        study
            .series
            .entry((arm, rules.series.clone()))
            .or_default()
            .add(&stats);
        if let Some(year) = years.get(i) {
            by_year
                .entry((arm, rules.series.clone(), year))
                .or_default()
                .add(&stats);
        }
    }
    study.did = differences_in_differences(&by_year);
    Ok(study)
}

fn differences_in_differences(
    by_year: &BTreeMap<(Arm, String, i16), GroupStats>,
) -> Vec<DiffInDiff> {
    let control_in = |years: &[i16]| {
        let mut g = GroupStats::default();
        for ((arm, _, y), s) in by_year {
            if *arm == Arm::Control && years.contains(y) {
                g.add(s);
            }
        }
        g
    };
    let series: std::collections::BTreeSet<&String> = by_year.keys().map(|(_, s, _)| s).collect();
    series
        .into_iter()
        .filter_map(|name| {
            let years_of = |arm: Arm| -> Vec<i16> {
                by_year
                    .keys()
                    .filter(|(a, s, _)| *a == arm && s == name)
                    .map(|k| k.2)
                    .collect()
            };
            let (after_years, before_years) = (years_of(Arm::Rule), years_of(Arm::Unregulated));
            if after_years.is_empty() || before_years.is_empty() {
                return None;
            }
            let sum = |arm: Arm| {
                let mut g = GroupStats::default();
                for ((a, s, _), st) in by_year {
                    if *a == arm && s == name {
                        g.add(st);
                    }
                }
                g
            };
            Some(DiffInDiff {
                series: name.clone(),
                before: sum(Arm::Unregulated),
                after: sum(Arm::Rule),
                control_before: control_in(&before_years),
                control_after: control_in(&after_years),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(games: u64, draws: u64) -> GroupStats {
        GroupStats {
            games,
            draws,
            ..GroupStats::default()
        }
    }

    #[test]
    fn difference_in_differences_by_hand() {
        let d = DiffInDiff {
            series: "x".into(),
            before: g(100, 60),
            after: g(100, 40),
            control_before: g(200, 100),
            control_after: g(200, 90),
        };
        let (effect, lo, hi) = d.draw_rate_effect().unwrap();
        assert!((effect - (-0.20 + 0.05)).abs() < 1e-12);
        let se =
            (0.4 * 0.6 / 100.0 + 0.6 * 0.4 / 100.0 + 0.45 * 0.55 / 200.0 + 0.5 * 0.5 / 200.0f64)
                .sqrt();
        assert!((hi - effect - 1.96 * se).abs() < 1e-12 && (effect - lo - 1.96 * se).abs() < 1e-12);
    }

    #[test]
    fn mean_draw_length_interval() {
        // Draws of 10, 20 and 30 moves: mean 20, sd 10, half-width 1.96·10/√3.
        let s = GroupStats {
            games: 5,
            draws: 3,
            draw_moves_sum: 60.0,
            draw_moves_squares: 100.0 + 400.0 + 900.0,
            ..GroupStats::default()
        };
        let (mean, lo, hi) = s.mean_draw_moves().unwrap();
        assert_eq!(mean, 20.0);
        assert!(
            (hi - 20.0 - 1.96 * 10.0 / 3f64.sqrt()).abs() < 1e-9
                && (20.0 - lo - (hi - 20.0)).abs() < 1e-9
        );
    }
}
