//! The rule effect from a model with pair effects, beside the primary
//! model ([`super::model`]): the same linear probability model of each
//! measure on an indicator per rule regime with fixed effects for the
//! event series and the year, fitted to the games of each pair of players
//! in each edition, with a fixed effect for every pair.
//!
//! Pair rather than player effects: a pair's effect holds both players'
//! strength and style and what is between them (two friends' quick draw,
//! the draw a rule against offers is aimed at), and each game has exactly
//! one pair, so the effects are one set and demeaning within it is exact;
//! player effects would need each game in two levels of one set. The
//! counts already hold games by pairing and edition
//! ([`super::RuleStudyCounts::pairings`]); they hold no rating and no round
//! by pairing, so the ratings enter only through the pair's effect (a
//! pair's strength moves little over the years it meets) and there is no
//! last-round term.
//!
//! Thousands of pair effects are absorbed by alternating projections
//! ([`super::absorb`]); the regimes' coefficients then come from weighted
//! least squares of the demeaned measures on the demeaned indicators
//! (Frisch–Waugh–Lovell), and their intervals from the same restricted
//! wild cluster bootstrap by edition as the primary model's, on the
//! demeaned data: the projection does not depend on the outcome, so each
//! replicate's coefficient is the one the full model would give.
//!
//! A regime's coefficient is identified by pairs that met both under it and
//! without it: only pairs seen in two editions or more enter at all.

use std::collections::{BTreeMap, BTreeSet};

use remis_core::rng::Rng;

use super::absorb::{self, Demeaned, Factor};
use super::model::{Basis, ModelRow, Unit, regime_rows};
use super::{Edition, Measure, Regime};
use crate::analysis::linalg::invert_ridged;

/// Demeaning stops when a sweep moves no value (a share of games) by more
/// than this.
pub const TOLERANCE: f64 = 1e-10;
/// A cap on the sweeps, never reached on the master games.
pub const MAX_SWEEPS: usize = 20_000;

/// The pair-effects model's estimates and what it was fitted to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairModel {
    pub rows: Vec<ModelRow>,
    /// Regimes no pair met both under and without.
    pub not_identified: Vec<Regime>,
    /// Rule editions of each regime holding a pair that also met in an
    /// edition not under it: the editions that identify its coefficient.
    pub identifying: BTreeMap<Regime, usize>,
    /// Pairs that met both under each regime and without it, and their
    /// games (under it and not).
    pub spanning_pairs: BTreeMap<Regime, (usize, u64)>,
    /// Editions, pairings (a pair's games in an edition), games, pairs,
    /// series and years the fit keeps.
    pub editions: usize,
    pub pairings: usize,
    pub games: u64,
    pub pairs: usize,
    pub series: usize,
    pub years: usize,
    /// Pairings (and their games) dropped as singletons: alone in their
    /// pair (a pair met in one edition only) or, after that, in their
    /// series or year.
    pub singletons: usize,
    pub singleton_games: u64,
    /// Games of a pair with a player not named.
    pub unnamed_games: u64,
    pub demeaned: Option<Demeaned>,
    /// The factor on the cluster-robust variance for the pair effects
    /// fitted, (N − 1) / (N − K) over pairings N and pairs plus regimes K.
    pub absorbed_factor: f64,
    /// The draw rate's coefficient on the same pairings with the series
    /// and year effects only: how much of the difference from the primary
    /// estimate the pair effects make, and how much the pairings kept.
    pub without_pair_effects: BTreeMap<Regime, f64>,
}

/// The specification in words, for the page and the terminal.
pub const SPECIFICATION: &str = "linear probability model with pair effects, weighted least squares on \
the games of each pair of players in each edition: the measure on an indicator per rule regime, with fixed \
effects for the event series, the year and the pair (both players' identities, colours pooled), absorbed by \
alternating projections (each column demeaned within series, year and pair in turn until no value moves by more \
than 1e-10 in a sweep), pairings alone in their pair, series or year dropped; no rating or last-round term \
(the counts hold neither by pairing: the pair's effect holds its strength); 95% intervals by the restricted wild \
cluster bootstrap by edition on the demeaned data (399 replicates, Webb weights, the test inverted), the \
estimate's cluster-robust variance scaled by (N − 1) / (N − K) for the pair effects fitted across editions \
(N pairings, K pairs and regimes, as Stata's reghdfe).";

/// Why it stays beside the primary estimate rather than replacing it.
pub const VERDICT: &str = "It stays beside the primary estimate, as its check, not in its place: it keeps only \
the games of pairs who met in two editions or more (a pair met once is fitted exactly by its own effect and tells \
nothing about the rule), so it speaks for the regulars of the elite circuit rather than for every game, and it has \
no rating or last-round term, the counts keeping neither by pairing; and in a simulation with planted pair \
effects (24 rule editions of 96, fields chosen by the players' habits) its 95% intervals covered the effect 92% of \
the time: a little narrow. It would be the estimate to read where it \
moved a draw-rate estimate outside the primary's interval (then who played whom would be confounding the primary) \
or identified a regime the primary cannot; where it does, that is said beside it.";

/// A pairing: one pair's games in one edition.
struct Pairing {
    edition: usize,
    pair: usize,
    games: u64,
    /// The measures' counts, in [`Measure::all`] order.
    hits: [u64; 4],
}

/// Fit the pair-effects model to every edition of the study; `None` with
/// no rule regime.
pub fn fit(editions: &[Edition], rng: &mut Rng) -> Option<PairModel> {
    let regimes = super::model::rule_regimes(editions);
    if regimes.is_empty() {
        return None;
    }
    let mut out = PairModel::default();
    let mut pair_ids: BTreeMap<&(String, String), usize> = BTreeMap::new();
    let mut all = Vec::new();
    for (edition, e) in editions.iter().enumerate() {
        for (pair, stats) in &e.pairs {
            if stats[0] == 0 {
                continue;
            }
            // An unnamed side ("?") is no one player: its games are not a
            // pair's.
            let named = |n: &str| !n.is_empty() && n != "?";
            if !named(&pair.0) || !named(&pair.1) {
                out.unnamed_games += stats[0];
                continue;
            }
            let next = pair_ids.len();
            let id = *pair_ids.entry(pair).or_insert(next);
            all.push(Pairing {
                edition,
                pair: id,
                games: stats[0],
                hits: Measure::all().map(|m| stats[m.pairing_index()]),
            });
        }
    }
    let series_of = index_of(editions.iter().map(|e| e.series.as_str()));
    let year_of = index_of(editions.iter().map(|e| e.year));
    let factors_of = |p: &[&Pairing]| {
        vec![
            Factor {
                levels: p
                    .iter()
                    .map(|u| series_of[&editions[u.edition].series.as_str()])
                    .collect(),
            },
            Factor {
                levels: p
                    .iter()
                    .map(|u| year_of[&editions[u.edition].year])
                    .collect(),
            },
            Factor {
                levels: p.iter().map(|u| u.pair).collect(),
            },
        ]
    };
    let refs: Vec<&Pairing> = all.iter().collect();
    let keep = absorb::without_singletons(&factors_of(&refs));
    let kept: Vec<&Pairing> = refs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(p, _)| *p)
        .collect();
    for (p, _) in refs.iter().zip(&keep).filter(|(_, k)| !**k) {
        out.singletons += 1;
        out.singleton_games += p.games;
    }
    if kept.is_empty() {
        // No pair met in two editions: nothing identifies any regime.
        out.identifying = regimes.iter().map(|r| (*r, 0)).collect();
        out.not_identified = regimes;
        return Some(out);
    }
    // Factor levels renumbered over the kept pairings, clusters too.
    let renumber = |levels: Vec<usize>| -> (Vec<usize>, usize) {
        let mut ids = BTreeMap::new();
        let out = levels
            .into_iter()
            .map(|l| {
                let next = ids.len();
                *ids.entry(l).or_insert(next)
            })
            .collect();
        (out, ids.len())
    };
    let mut factors = factors_of(&kept);
    let mut counts = Vec::new();
    for f in &mut factors {
        let (levels, n) = renumber(std::mem::take(&mut f.levels));
        f.levels = levels;
        counts.push(n);
    }
    let (clusters_of, clusters) = renumber(kept.iter().map(|p| p.edition).collect());
    out.editions = clusters;
    out.pairings = kept.len();
    out.games = kept.iter().map(|p| p.games).sum();
    (out.series, out.years, out.pairs) = (counts[0], counts[1], counts[2]);
    // Rule editions holding a pair that also met without their regime.
    let mut regimes_of_pair: BTreeMap<usize, BTreeSet<Regime>> = BTreeMap::new();
    for p in &kept {
        regimes_of_pair
            .entry(p.pair)
            .or_default()
            .insert(editions[p.edition].regime);
    }
    for r in &regimes {
        let identifying: BTreeSet<usize> = kept
            .iter()
            .filter(|p| {
                editions[p.edition].regime == *r && regimes_of_pair[&p.pair].iter().any(|o| o != r)
            })
            .map(|p| p.edition)
            .collect();
        out.identifying.insert(*r, identifying.len());
        let spanning: Vec<&&Pairing> = kept
            .iter()
            .filter(|p| {
                let seen = &regimes_of_pair[&p.pair];
                seen.contains(r) && seen.iter().any(|o| o != r)
            })
            .collect();
        let pairs: BTreeSet<usize> = spanning.iter().map(|p| p.pair).collect();
        out.spanning_pairs.insert(
            *r,
            (pairs.len(), spanning.iter().map(|p| p.games).sum::<u64>()),
        );
    }
    // Columns: an indicator per regime, then the four measures' shares.
    let weights: Vec<f64> = kept.iter().map(|p| p.games as f64).collect();
    let indicators = |p: &&Pairing| -> Vec<f64> {
        regimes
            .iter()
            .map(|r| f64::from(u8::from(editions[p.edition].regime == *r)))
            .collect()
    };
    let mut columns: Vec<Vec<f64>> = (0..regimes.len())
        .map(|k| kept.iter().map(|p| indicators(p)[k]).collect())
        .collect();
    let raw_spread: Vec<f64> = columns
        .iter()
        .map(|c| c.iter().zip(&weights).map(|(x, w)| w * x * x).sum())
        .collect();
    for m in 0..4 {
        columns.push(
            kept.iter()
                .map(|p| p.hits[m] as f64 / p.games as f64)
                .collect(),
        );
    }
    let mut without_pairs = columns.clone();
    out.demeaned = Some(absorb::demean(
        &mut columns,
        &weights,
        &factors,
        TOLERANCE,
        MAX_SWEEPS,
    ));
    // A regime's demeaned indicator with nothing left: its coefficient
    // is not identified (the effects absorb it).
    let identified: Vec<usize> = (0..regimes.len())
        .filter(|k| {
            let spread: f64 = columns[*k]
                .iter()
                .zip(&weights)
                .map(|(x, w)| w * x * x)
                .sum();
            out.identifying[&regimes[*k]] > 0 && spread > raw_spread[*k] * 1e-9
        })
        .collect();
    out.not_identified = (0..regimes.len())
        .filter(|k| !identified.contains(k))
        .map(|k| regimes[k])
        .collect();
    if identified.is_empty() {
        return Some(out);
    }
    let n = regimes.len();
    // Each pairing as a unit of the model, from demeaned columns (the
    // regimes' indicators, then the measures).
    let units_of = |columns: &[Vec<f64>]| -> Vec<Unit> {
        (0..kept.len())
            .map(|i| Unit {
                cluster: clusters_of[i],
                games: weights[i],
                hits: std::array::from_fn(|m| columns[n + m][i] * weights[i]),
                x: identified.iter().map(|k| columns[*k][i]).collect(),
            })
            .collect()
    };
    let units = units_of(&columns);
    let h = invert_ridged(cross_product(&units));
    // The pairs' effects are fitted across editions: the residuals are
    // shrunk by them, and the estimate's variance is scaled back up.
    let fitted = out.pairs + identified.len();
    out.absorbed_factor = if kept.len() > fitted + 1 {
        (kept.len() - 1) as f64 / (kept.len() - fitted) as f64
    } else {
        f64::NAN
    };
    for (col, k) in identified.iter().enumerate() {
        let regime = regimes[*k];
        let basis = Basis {
            smallest_group: out.identifying[&regime],
            clusters,
            absorbed: out.absorbed_factor,
        };
        out.rows
            .extend(regime_rows(&units, &h, col, regime, basis, rng));
    }
    // The same pairings with the series and year effects alone.
    absorb::demean(
        &mut without_pairs,
        &weights,
        &factors[..2],
        TOLERANCE,
        MAX_SWEEPS,
    );
    let plain = units_of(&without_pairs);
    let h = invert_ridged(cross_product(&plain));
    let xty: Vec<f64> = (0..identified.len())
        .map(|j| plain.iter().map(|u| u.x[j] * u.hits[0]).sum())
        .collect();
    for (col, k) in identified.iter().enumerate() {
        let beta: f64 = h[col].iter().zip(&xty).map(|(a, b)| a * b).sum();
        out.without_pair_effects.insert(regimes[*k], beta);
    }
    Some(out)
}

/// Each distinct value's index, in order.
fn index_of<T: Ord>(values: impl Iterator<Item = T>) -> BTreeMap<T, usize> {
    let distinct: BTreeSet<T> = values.collect();
    distinct
        .into_iter()
        .enumerate()
        .map(|(i, v)| (v, i))
        .collect()
}

/// The weighted cross-product of the units' regressors.
fn cross_product(units: &[Unit]) -> Vec<Vec<f64>> {
    let p = units.first().map_or(0, |u| u.x.len());
    let mut xtx = vec![vec![0.0; p]; p];
    for u in units {
        for (i, xi) in u.x.iter().enumerate() {
            for (j, xj) in u.x.iter().enumerate() {
                xtx[i][j] += u.games * xi * xj;
            }
        }
    }
    xtx
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twelve series over eight years, six of them under Sofia rules from
    /// their fifth edition on, each edition a double round robin of eight
    /// of forty players whose own draw rates differ (±15 points): the
    /// rule editions invite more of the drawish half (five of eight, the
    /// others three), so within a series the rule came with drawish
    /// fields. The rule lowers the draw rate by 10 points.
    fn planted(seed: u64) -> Vec<Edition> {
        let mut rng = Rng::new(seed);
        let drawish = |p: usize| -0.15 + 0.3 * p as f64 / 39.0;
        let mut editions = Vec::new();
        for s in 0..12usize {
            for year in 0..8i16 {
                let rule = s < 6 && year >= 4;
                let from_top = if rule { 5 } else { 3 };
                let mut field = Vec::new();
                let mut pick = |lo: usize, k: usize, field: &mut Vec<usize>| {
                    while field.iter().filter(|p| **p >= lo && **p < lo + 20).count() < k {
                        let p = lo + rng.below(20) as usize;
                        if !field.contains(&p) {
                            field.push(p);
                        }
                    }
                };
                pick(20, from_top, &mut field);
                pick(0, 8 - from_top, &mut field);
                let mut pairs = BTreeMap::new();
                let (mut games, mut draws) = (0, 0);
                for (i, &a) in field.iter().enumerate() {
                    for &b in &field[i + 1..] {
                        let p = 0.45
                            + 0.02 * (s % 3) as f64
                            + 0.005 * f64::from(year)
                            + drawish(a)
                            + drawish(b)
                            + if rule { -0.10 } else { 0.0 };
                        let d = (0..2).filter(|_| rng.chance(p)).count() as u64;
                        let (x, y) = (format!("p{a:02}"), format!("p{b:02}"));
                        let key = if x <= y { (x, y) } else { (y, x) };
                        pairs.insert(key, [2, d, 0, 0, 0]);
                        games += 2;
                        draws += d;
                    }
                }
                let regime = if rule { Regime::Sofia } else { Regime::None };
                let mut e = super::super::tests::edition(
                    &format!("S{s}"),
                    2000 + year,
                    regime,
                    &[(25, games, draws)],
                );
                e.pairs = pairs;
                editions.push(e);
            }
        }
        editions
    }

    fn draw_row(rows: &[ModelRow]) -> &ModelRow {
        rows.iter().find(|r| r.measure == Measure::Draws).unwrap()
    }

    #[test]
    fn pair_effects_recover_an_effect_the_plain_model_misses() {
        let editions = planted(8);
        let plain = super::super::model::fit(&editions, &mut Rng::new(1)).unwrap();
        let plain = draw_row(&plain.rows).effect.estimate;
        let pairs = fit(&editions, &mut Rng::new(1)).unwrap();
        let row = draw_row(&pairs.rows);
        // The drawish fields of the rule editions hide most of the effect
        // from the series and year effects alone...
        assert!(plain > -0.06, "plain model {plain}");
        // ...and the pairs' effects recover it, its interval covering it.
        assert!(
            (row.effect.estimate + 0.10).abs() < 0.03,
            "{:?}",
            row.effect
        );
        let (lo, hi) = row.effect.interval.unwrap();
        assert!(lo <= -0.10 && -0.10 <= hi, "{lo} {hi}");
        assert!(pairs.demeaned.unwrap().converged);
        assert_eq!(pairs.identifying[&Regime::Sofia], 24);
        // The same pairings without the pair effects are biased as the
        // plain model is.
        assert!(pairs.without_pair_effects[&Regime::Sofia] > -0.06);
    }

    /// The bootstrap on the demeaned data keeps its level: over data sets
    /// of the planted design (24 rule editions of 96), the 95 % intervals
    /// cover the planted effect within the coverage simulation's tolerance
    /// of 95 % (4 points). Without the variance factor for the pair
    /// effects they covered 87.8 % over 1,000 data sets; with it 92.2 %
    /// (`REMIS_COVERAGE_SEEDS=1000`): still on the short side.
    #[test]
    #[allow(clippy::disallowed_macros)] // the figure, for `--nocapture`
    fn the_intervals_on_the_demeaned_data_cover_the_planted_effect() {
        let seeds = std::env::var("REMIS_COVERAGE_SEEDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(200u64);
        let mut covered = 0;
        for seed in 0..seeds {
            let m = fit(&planted(1000 + seed), &mut Rng::new(seed)).unwrap();
            let (lo, hi) = draw_row(&m.rows).effect.interval.unwrap();
            covered += usize::from(lo <= -0.10 && -0.10 <= hi);
        }
        let coverage = covered as f64 / seeds as f64;
        eprintln!("pair-effects model: coverage {coverage:.3} over {seeds} data sets");
        assert!((0.91..=0.99).contains(&coverage), "coverage {coverage}");
    }

    #[test]
    fn pairs_met_once_are_dropped_and_a_regime_no_pair_spans_is_not_identified() {
        // Two series, one always under Sofia rules: no pair met both under
        // them and without them, and every other pair met once.
        let mut editions = Vec::new();
        for (s, regime) in [("A", Regime::Sofia), ("B", Regime::None)] {
            for year in 0..3i16 {
                let mut e = super::super::tests::edition(s, 2000 + year, regime, &[(25, 4, 2)]);
                e.pairs
                    .insert((format!("{s}1"), format!("{s}2")), [2, 1, 0, 0, 0]);
                e.pairs.insert(
                    (format!("{s}{year}x"), format!("{s}{year}y")),
                    [2, 1, 0, 0, 0],
                );
                e.pairs
                    .insert(("?".into(), format!("{s}1")), [1, 0, 0, 0, 0]);
                editions.push(e);
            }
        }
        let m = fit(&editions, &mut Rng::new(1)).unwrap();
        assert_eq!(m.singletons, 6);
        assert_eq!(m.singleton_games, 12);
        assert_eq!(m.unnamed_games, 6);
        assert_eq!(m.pairs, 2);
        assert_eq!(m.pairings, 6);
        assert_eq!(m.not_identified, vec![Regime::Sofia]);
        assert!(m.rows.is_empty());
        // With every pair met once, nothing is left, and it says so.
        for e in &mut editions {
            e.pairs.retain(|(a, _), _| a.contains('x'));
        }
        let m = fit(&editions, &mut Rng::new(1)).unwrap();
        assert_eq!((m.pairings, m.singletons), (0, 6));
        assert_eq!(m.not_identified, vec![Regime::Sofia]);
        assert_eq!(m.identifying[&Regime::Sofia], 0);
    }
}
