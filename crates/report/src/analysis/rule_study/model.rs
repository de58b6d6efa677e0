//! The rule effect from a model, the study's primary estimate: a linear
//! probability model of each measure on an indicator per rule regime,
//! with fixed effects for the event series (which absorb the kind of
//! event and what is constant about a series: its field's habits, its
//! organisers), the year (the trend every event shares) and both
//! players' ratings (the mean rating's hundred and the gap's bin, each
//! additive), and a term for the games of an edition's last round (where
//! draws are agreed to settle places), fitted by weighted least squares to the games grouped by
//! edition and rating cell (the same fit as to the games one by one, since
//! every regressor is constant within a group).
//!
//! With series fixed effects a regime's coefficient is identified by the
//! series that played both with and without it (a two-way fixed-effects
//! difference in differences over every series at once); a series always
//! under one regime only anchors the year and rating effects. Linear
//! rather than logistic: its coefficient is a difference in draw rates in
//! points, the same scale as the stratified estimates beside it, and it is
//! linear in the games, so the restricted wild cluster bootstrap by
//! edition ([`super::inference`]) needs no refitting.
//!
//! The draw rate is the primary outcome; the agreed and short draws are
//! secondary, their p-values adjusted by Holm's method within each regime
//! (three tests).

use std::collections::{BTreeMap, BTreeSet};

use remis_core::rng::Rng;

use super::inference::{self, Replicate, Withheld};
use super::{Edition, Effect, Measure, RatingCell, Regime};
use crate::analysis::linalg::{dot, invert_ridged, mat_vec};

/// Replicates of the model's bootstrap (each one solves the model's
/// normal equations once more).
pub const MODEL_REPLICATES: usize = 399;

/// One regime's coefficient for one measure.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelRow {
    pub regime: Regime,
    pub measure: Measure,
    pub effect: Effect,
    /// The bootstrap p-value of no effect; for a secondary measure also
    /// after Holm's adjustment over the regime's secondary measures.
    pub p_value: Option<f64>,
    pub holm_p_value: Option<f64>,
}

/// The model's estimates and what it was fitted to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelEstimates {
    pub rows: Vec<ModelRow>,
    /// Regimes whose coefficient the data cannot identify (no series
    /// played both with and without them).
    pub not_identified: Vec<Regime>,
    /// Rule editions in series that also played without that regime: the
    /// editions that identify each coefficient.
    pub identifying: BTreeMap<Regime, usize>,
    pub editions: usize,
    pub groups: usize,
    pub parameters: usize,
    pub series: usize,
    pub years: usize,
    /// The last round's coefficient on the draw rate (a point estimate:
    /// the last round's draws against the edition's other rounds).
    pub last_round: Option<f64>,
}

/// The model's specification in words, for the page and the terminal.
pub const SPECIFICATION: &str = "linear probability model, weighted least squares on games grouped by \
edition and rating cell: the measure on an indicator per rule regime, with fixed effects for the event series, \
the year, the mean rating's hundred and the rating gap's bin, and a term for an edition's last round; 95% intervals by the restricted wild cluster \
bootstrap by edition (399 replicates, Webb weights, the test inverted). Primary outcome: the draw rate; the \
agreed and short draws are secondary, with Holm-adjusted p-values over the three within each regime.";

/// One group of games in a weighted least squares fit: its cluster (the
/// edition), its games (the weight), the measures' counts (the outcome
/// times the weight) and its regressors.
pub(super) struct Unit {
    pub(super) cluster: usize,
    pub(super) games: f64,
    pub(super) hits: [f64; 4],
    pub(super) x: Vec<f64>,
}

/// Holm's step-down adjustment of p-values (same order as given).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|a, b| p[*a].total_cmp(&p[*b]));
    let m = p.len() as f64;
    let mut out = vec![0.0; p.len()];
    let mut running = 0.0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank as f64) * p[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// The model's regressors on the study's games: each group's cluster,
/// games, counts and row of the design matrix, and where its columns are.
pub(super) struct Design {
    pub(super) regimes: Vec<Regime>,
    pub(super) units: Vec<Unit>,
    /// Columns: the regimes' from `r0`; the last round's term at `last`
    /// when some edition's last round is known.
    pub(super) r0: usize,
    pub(super) last: Option<usize>,
    pub(super) parameters: usize,
    pub(super) series: usize,
    pub(super) years: usize,
}

/// The rule regimes the editions were played under, in order: a model's
/// indicators.
pub(super) fn rule_regimes(editions: &[Edition]) -> Vec<Regime> {
    editions
        .iter()
        .map(|e| e.regime)
        .filter(|r| r.restricts())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The model's design on every edition of the study; `None` without a
/// rule edition.
pub(super) fn design(editions: &[Edition]) -> Option<Design> {
    let regimes = rule_regimes(editions);
    if regimes.is_empty() {
        return None;
    }
    let series: Vec<&str> = editions
        .iter()
        .map(|e| e.series.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let years: Vec<i16> = editions
        .iter()
        .map(|e| e.year)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let (mut means, mut gaps) = (BTreeSet::new(), BTreeSet::new());
    for e in editions {
        for cell in e.by_cell.keys() {
            match cell {
                RatingCell::Rated { mean, gap } => {
                    means.insert(Some(*mean));
                    gaps.insert(*gap);
                }
                RatingCell::Unrated => {
                    means.insert(None);
                }
            }
        }
    }
    let means: Vec<Option<u16>> = means.into_iter().collect();
    let gaps: Vec<u8> = gaps.into_iter().collect();
    // Columns: regimes, series (all: together the intercept), years, mean
    // hundreds and gap bins (each without its first level).
    let r0 = 0;
    let s0 = r0 + regimes.len();
    let y0 = s0 + series.len();
    let m0 = y0 + years.len().saturating_sub(1);
    let g0 = m0 + means.len().saturating_sub(1);
    // The last round's term, when some edition's last round is known.
    let last = g0 + gaps.len().saturating_sub(1);
    let with_last = editions.iter().any(|e| !e.last_round_cells.is_empty());
    let p = last + usize::from(with_last);
    let mut units = Vec::new();
    for (cluster, e) in editions.iter().enumerate() {
        for (cell, g) in &e.by_cell {
            if g.games == 0 {
                continue;
            }
            let mut x = vec![0.0; p];
            if let Some(i) = regimes.iter().position(|r| *r == e.regime) {
                x[r0 + i] = 1.0;
            }
            x[s0 + series.iter().position(|s| *s == e.series).unwrap_or(0)] = 1.0;
            if let Some(i) = years.iter().position(|y| *y == e.year).filter(|i| *i > 0) {
                x[y0 + i - 1] = 1.0;
            }
            let (mean, gap) = match cell {
                RatingCell::Rated { mean, gap } => (Some(*mean), Some(*gap)),
                RatingCell::Unrated => (None, None),
            };
            if let Some(i) = means.iter().position(|m| *m == mean).filter(|i| *i > 0) {
                x[m0 + i - 1] = 1.0;
            }
            if let Some(i) = gap
                .and_then(|g| gaps.iter().position(|x| *x == g))
                .filter(|i| *i > 0)
            {
                x[g0 + i - 1] = 1.0;
            }
            let hits = Measure::all().map(|m| g.share(m).successes as f64);
            // The games of the last round apart, with the last-round term.
            let lr = e.last_round_cells.get(cell).copied().unwrap_or_default();
            let lr_hits = Measure::all().map(|m| lr[m.pairing_index()] as f64);
            if with_last && lr[0] > 0 && lr[0] <= g.games {
                let mut x_last = x.clone();
                x_last[last] = 1.0;
                units.push(Unit {
                    cluster,
                    games: lr[0] as f64,
                    hits: lr_hits,
                    x: x_last,
                });
                if lr[0] < g.games {
                    units.push(Unit {
                        cluster,
                        games: (g.games - lr[0]) as f64,
                        hits: std::array::from_fn(|i| hits[i] - lr_hits[i]),
                        x,
                    });
                }
            } else {
                units.push(Unit {
                    cluster,
                    games: g.games as f64,
                    hits,
                    x,
                });
            }
        }
    }
    Some(Design {
        regimes,
        units,
        r0,
        last: with_last.then_some(last),
        parameters: p,
        series: series.len(),
        years: years.len(),
    })
}

/// The editions (their indices) under `regime` in series that also played
/// without it: those that identify its coefficient.
pub(super) fn identifying_editions(editions: &[Edition], regime: Regime) -> Vec<usize> {
    (0..editions.len())
        .filter(|&i| {
            let e = &editions[i];
            e.regime == regime
                && editions
                    .iter()
                    .any(|o| o.series == e.series && o.regime != regime)
        })
        .collect()
}

/// Fit the model to every edition of the study.
#[allow(clippy::needless_range_loop)] // a matrix's index arithmetic reads as the algebra
pub fn fit(editions: &[Edition], rng: &mut Rng) -> Option<ModelEstimates> {
    let Design {
        regimes,
        units,
        r0,
        last,
        parameters: p,
        series,
        years,
    } = design(editions)?;
    let mut xtx = vec![vec![0.0; p]; p];
    for u in &units {
        for i in 0..p {
            if u.x[i] == 0.0 {
                continue;
            }
            for j in 0..p {
                xtx[i][j] += u.games * u.x[i] * u.x[j];
            }
        }
    }
    let h = invert_ridged(xtx.clone());
    let clusters = editions.len();
    // Rule editions of each regime in series that also played without it.
    let identifying: BTreeMap<Regime, usize> = regimes
        .iter()
        .map(|r| (*r, identifying_editions(editions, *r).len()))
        .collect();
    let mut out = ModelEstimates {
        editions: clusters,
        groups: units.len(),
        parameters: p,
        series,
        years,
        identifying: identifying.clone(),
        ..ModelEstimates::default()
    };
    if let Some(last) = last {
        let xty: Vec<f64> = (0..p)
            .map(|i| units.iter().map(|u| u.x[i] * u.hits[0]).sum())
            .collect();
        out.last_round = Some(dot(&h[last], &xty));
    }
    for (k, regime) in regimes.iter().enumerate() {
        // The partialled-out regressor's precision: near zero, the
        // coefficient is not identified.
        let own: f64 = xtx[r0 + k][r0 + k];
        if identifying[regime] == 0 || own == 0.0 || 1.0 / h[r0 + k][r0 + k] < own * 1e-9 {
            out.not_identified.push(*regime);
            continue;
        }
        let basis = Basis {
            smallest_group: identifying[regime],
            clusters,
            absorbed: 1.0,
        };
        out.rows
            .extend(regime_rows(&units, &h, r0 + k, *regime, basis, rng));
    }
    Some(out)
}

/// What a coefficient's inference rests on.
#[derive(Copy, Clone, Debug)]
pub(super) struct Basis {
    /// The editions identifying it (intervals are withheld below the
    /// coverage simulation's minimum).
    pub(super) smallest_group: usize,
    /// The units' clusters, numbered from 0.
    pub(super) clusters: usize,
    /// The factor on the estimate's cluster-robust variance for effects
    /// absorbed before the fit that are not constant within a cluster
    /// (pairs across editions): their residuals are shrunk by the
    /// effects fitted, (N − 1) / (N − K) as Stata's `reghdfe`; 1 for the
    /// primary model, whose absorbed effects are few or nested in editions.
    /// The replicates' own residuals are not shrunk so, and take none.
    pub(super) absorbed: f64,
}

/// One regime's coefficient (column `col` of the units' regressors) for
/// every measure, with its restricted wild cluster bootstrap interval and
/// p-value by cluster, and Holm's adjustment over the secondary measures.
/// `h` is the inverse of the weighted cross-product of the regressors.
#[allow(clippy::needless_range_loop)] // a matrix's index arithmetic reads as the algebra
pub(super) fn regime_rows(
    units: &[Unit],
    h: &[Vec<f64>],
    col: usize,
    regime: Regime,
    basis: Basis,
    rng: &mut Rng,
) -> Vec<ModelRow> {
    let Basis {
        smallest_group,
        clusters,
        absorbed,
    } = basis;
    let p = h.len();
    let small_sample = clusters as f64 / (clusters as f64 - 1.0);
    // β̂ₖ = Σ a_u hits_u with a_u = (H x_u)ₖ; the partialled regressor
    // x̃_u = a_u / Hₖₖ.
    let hk = &h[col];
    let a: Vec<f64> = units.iter().map(|u| dot(hk, &u.x)).collect();
    let tilde: Vec<f64> = a.iter().map(|a| a / hk[col]).collect();
    let mut rows = Vec::new();
    for (mi, measure) in Measure::all().into_iter().enumerate() {
        let xty: Vec<f64> = (0..p)
            .map(|i| units.iter().map(|u| u.x[i] * u.hits[mi]).sum())
            .collect();
        let beta = mat_vec(h, &xty);
        let estimate = beta[col];
        // Residuals of the shares; by cluster the coefficient's parts.
        let resid: Vec<f64> = units
            .iter()
            .map(|u| u.hits[mi] / u.games - dot(&u.x, &beta))
            .collect();
        let mut a0 = vec![0.0; clusters];
        let mut b = vec![0.0; clusters];
        let mut w0 = vec![vec![0.0; p]; clusters];
        let mut w1 = vec![vec![0.0; p]; clusters];
        let mut g = vec![vec![0.0; p]; clusters];
        for (i, u) in units.iter().enumerate() {
            let m = a[i] * u.games;
            a0[u.cluster] += m * resid[i];
            b[u.cluster] += m * tilde[i];
            for j in 0..p {
                if u.x[j] != 0.0 {
                    w0[u.cluster][j] += u.games * resid[i] * u.x[j];
                    w1[u.cluster][j] += u.games * tilde[i] * u.x[j];
                    g[u.cluster][j] += m * u.x[j];
                }
            }
        }
        let se = (small_sample * absorbed * a0.iter().map(|x| x * x).sum::<f64>()).sqrt();
        let (interval, withheld, p_value) = if se.is_nan() || se <= 0.0 {
            (None, Some(Withheld::OneEdition), None)
        } else {
            let mut replicates = Vec::with_capacity(MODEL_REPLICATES);
            let mut v = vec![0.0; clusters];
            for _ in 0..MODEL_REPLICATES {
                for w in v.iter_mut() {
                    *w = inference::webb(rng);
                }
                let (mut z0, mut z1) = (vec![0.0; p], vec![0.0; p]);
                for c in 0..clusters {
                    if v[c] == 0.0 {
                        continue;
                    }
                    for j in 0..p {
                        z0[j] += v[c] * w0[c][j];
                        z1[j] += v[c] * w1[c][j];
                    }
                }
                let (h0, h1) = (mat_vec(h, &z0), mat_vec(h, &z1));
                let (mut pp, mut q, mut s0, mut s1, mut s2) = (0.0, 0.0, 0.0, 0.0, 0.0);
                for c in 0..clusters {
                    pp += v[c] * a0[c];
                    q += v[c] * b[c];
                    let alpha = v[c] * a0[c] - dot(&g[c], &h0);
                    let beta = v[c] * b[c] - dot(&g[c], &h1);
                    s0 += alpha * alpha;
                    s1 += alpha * beta;
                    s2 += beta * beta;
                }
                replicates.push(Replicate {
                    p: pp,
                    q,
                    s0,
                    s1,
                    s2,
                });
            }
            // λ = β̂ − δ₀: the restricted residuals are û + λ x̃.
            let inv = inference::Inversion::from_parts(estimate, se, 1.0, small_sample, replicates);
            let p_value = Some(inv.p_value(0.0));
            match inv.interval() {
                Ok(i) => (Some(i), None, p_value),
                Err(w) => (None, Some(w), p_value),
            }
        };
        rows.push(ModelRow {
            regime,
            measure,
            effect: Effect {
                estimate,
                interval,
                withheld,
                smallest_group,
            },
            p_value,
            holm_p_value: None,
        });
    }
    // Holm over the secondary measures.
    let secondary: Vec<usize> = (0..rows.len())
        .filter(|i| rows[*i].measure != Measure::Draws && rows[*i].p_value.is_some())
        .collect();
    let adjusted = holm(
        &secondary
            .iter()
            .map(|i| rows[*i].p_value.unwrap_or(1.0))
            .collect::<Vec<_>>(),
    );
    for (i, adj) in secondary.into_iter().zip(adjusted) {
        rows[i].holm_p_value = Some(adj);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_adjusts_step_down() {
        let adj = holm(&[0.01, 0.04, 0.03]);
        assert!((adj[0] - 0.03).abs() < 1e-12);
        assert!((adj[2] - 0.06).abs() < 1e-12);
        assert!((adj[1] - 0.06).abs() < 1e-12);
    }

    /// A planted rule effect, recovered: twelve series over eight years,
    /// six of them playing under the rule from their fifth edition on;
    /// every series its own draw rate, every year a common shift, the
    /// stronger games drawing more, and the rule 8 points fewer draws.
    #[test]
    fn the_model_recovers_a_planted_effect() {
        let mut rng = Rng::new(21);
        let mut editions = Vec::new();
        for s in 0..12 {
            let level = 0.35 + 0.02 * s as f64;
            for year in 0..8i16 {
                let rule = s < 6 && year >= 4;
                let mut bands = Vec::new();
                for (band, lift) in [(25u16, 0.0), (27, 0.1)] {
                    let p = level
                        + 0.01 * year as f64
                        + lift
                        + if rule { -0.08 } else { 0.0 }
                        + (rng.below(61) as f64 - 30.0) / 1000.0;
                    let games = 60;
                    let draws = (0..games).filter(|_| rng.chance(p)).count() as u64;
                    bands.push((band, games, draws));
                }
                let regime = if rule { Regime::Sofia } else { Regime::None };
                editions.push(super::super::tests::edition(
                    &format!("S{s}"),
                    2000 + year,
                    regime,
                    &bands,
                ));
            }
        }
        let model = fit(&editions, &mut Rng::new(3)).unwrap();
        let draws = model
            .rows
            .iter()
            .find(|r| r.measure == Measure::Draws)
            .unwrap();
        let (lo, hi) = draws.effect.interval.unwrap();
        assert!(
            (draws.effect.estimate + 0.08).abs() < 0.03,
            "{:?}",
            draws.effect
        );
        assert!(lo <= -0.08 && -0.08 <= hi, "{lo} {hi}");
        assert!(hi < 0.0, "{lo} {hi}");
        assert_eq!(model.identifying[&Regime::Sofia], 24);
        // Secondary measures carry Holm's adjustment; the primary not.
        assert!(draws.holm_p_value.is_none());
    }
}
