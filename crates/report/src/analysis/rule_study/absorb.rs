//! Thousands of fixed effects absorbed by alternating projections (the
//! method of Guimarães and Portugal 2010 and Gaure 2013, R's `lfe`):
//! instead of solving for a dummy per level, each column is demeaned
//! within the levels of every factor in turn, repeatedly, which converges
//! to its residual from the projection on all the dummies together (von
//! Neumann–Halperin). By Frisch–Waugh–Lovell the least-squares fit of the
//! demeaned outcome on the demeaned regressors then gives the regressors'
//! coefficients of the full dummy-variable fit, and its residuals.
//!
//! An observation alone in its level of some factor (a singleton) is fitted
//! exactly by its own dummy and tells nothing about the other
//! coefficients; dropping it, and any it leaves alone in turn, changes no
//! coefficient but keeps it out of the clusters and counts (Correia 2015).

/// One set of fixed effects: each observation's level.
#[derive(Clone, Debug, PartialEq)]
pub struct Factor {
    pub levels: Vec<usize>,
}

impl Factor {
    fn count(&self) -> usize {
        self.levels.iter().max().map_or(0, |m| m + 1)
    }
}

/// How the demeaning ended.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Demeaned {
    /// Sweeps over every factor until the slowest column settled.
    pub iterations: usize,
    /// Every column settled within the tolerance before the cap.
    pub converged: bool,
}

/// Demean every column (a value per observation) by weighted means
/// within each factor's levels, sweeping over the factors until no value
/// moves by more than `tolerance` in a sweep, at most `max_sweeps` times.
pub fn demean(
    columns: &mut [Vec<f64>],
    weights: &[f64],
    factors: &[Factor],
    tolerance: f64,
    max_sweeps: usize,
) -> Demeaned {
    let mut out = Demeaned {
        iterations: 0,
        converged: true,
    };
    // Each level's total weight, once.
    let totals: Vec<Vec<f64>> = factors
        .iter()
        .map(|f| {
            let mut t = vec![0.0; f.count()];
            for (l, w) in f.levels.iter().zip(weights) {
                t[*l] += w;
            }
            t
        })
        .collect();
    for column in columns.iter_mut() {
        let mut sweeps = 0;
        let mut settled = false;
        while sweeps < max_sweeps && !settled {
            sweeps += 1;
            let mut moved = 0.0f64;
            for (f, total) in factors.iter().zip(&totals) {
                let mut sums = vec![0.0; total.len()];
                for ((l, w), v) in f.levels.iter().zip(weights).zip(column.iter()) {
                    sums[*l] += w * v;
                }
                let means: Vec<f64> = sums
                    .iter()
                    .zip(total)
                    .map(|(s, t)| if *t > 0.0 { s / t } else { 0.0 })
                    .collect();
                for (l, v) in f.levels.iter().zip(column.iter_mut()) {
                    *v -= means[*l];
                }
                moved = moved.max(means.iter().fold(0.0f64, |m, x| m.max(x.abs())));
            }
            settled = moved <= tolerance;
        }
        out.iterations = out.iterations.max(sweeps);
        out.converged &= settled;
    }
    out
}

/// Which observations to keep once singletons are dropped: repeatedly,
/// every observation alone in its level of some factor.
pub fn without_singletons(factors: &[Factor]) -> Vec<bool> {
    let n = factors.first().map_or(0, |f| f.levels.len());
    let mut keep = vec![true; n];
    loop {
        let mut dropped = false;
        for f in factors {
            let mut count = vec![0usize; f.count()];
            for (l, k) in f.levels.iter().zip(&keep) {
                count[*l] += usize::from(*k);
            }
            for (l, k) in f.levels.iter().zip(keep.iter_mut()) {
                if *k && count[*l] == 1 {
                    *k = false;
                    dropped = true;
                }
            }
        }
        if !dropped {
            return keep;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::linalg::{invert_ridged, mat_vec};
    use remis_core::rng::Rng;

    /// The full dummy-variable weighted least squares fit: the first
    /// factor's every level, the others' without their first (the
    /// intercept in the first), then the regressors; the regressors'
    /// coefficients.
    fn dummy_fit(y: &[f64], x: &[Vec<f64>], w: &[f64], factors: &[Factor]) -> Vec<f64> {
        let n = y.len();
        let mut rows: Vec<Vec<f64>> = vec![Vec::new(); n];
        for (fi, f) in factors.iter().enumerate() {
            let skip = usize::from(fi > 0);
            for level in skip..f.count() {
                for (i, row) in rows.iter_mut().enumerate() {
                    row.push(f64::from(u8::from(f.levels[i] == level)));
                }
            }
        }
        let d = rows[0].len();
        for (i, row) in rows.iter_mut().enumerate() {
            row.extend(x.iter().map(|col| col[i]));
        }
        let p = rows[0].len();
        let mut xtx = vec![vec![0.0; p]; p];
        let mut xty = vec![0.0; p];
        for i in 0..n {
            for a in 0..p {
                xty[a] += w[i] * rows[i][a] * y[i];
                for b in 0..p {
                    xtx[a][b] += w[i] * rows[i][a] * rows[i][b];
                }
            }
        }
        mat_vec(&invert_ridged(xtx), &xty)[d..].to_vec()
    }

    /// The FWL fit: demean, then weighted least squares on the regressors.
    fn absorbed_fit(y: &[f64], x: &[Vec<f64>], w: &[f64], factors: &[Factor]) -> Vec<f64> {
        let mut columns: Vec<Vec<f64>> = x.to_vec();
        columns.push(y.to_vec());
        let run = demean(&mut columns, w, factors, 1e-13, 100_000);
        assert!(run.converged, "{run:?}");
        let ty = columns.pop().unwrap();
        let k = columns.len();
        let mut xtx = vec![vec![0.0; k]; k];
        let mut xty = vec![0.0; k];
        for i in 0..y.len() {
            for a in 0..k {
                xty[a] += w[i] * columns[a][i] * ty[i];
                for b in 0..k {
                    xtx[a][b] += w[i] * columns[a][i] * columns[b][i];
                }
            }
        }
        mat_vec(&invert_ridged(xtx), &xty)
    }

    #[test]
    fn alternating_projections_give_the_dummy_variable_fit() {
        // Three crossed factors (series, year, pair) with unequal weights
        // and two regressors correlated with the levels.
        let mut rng = Rng::new(5);
        let n = 120;
        let factors = [
            Factor {
                levels: (0..n).map(|i| i % 5).collect(),
            },
            Factor {
                levels: (0..n).map(|i| (i / 5) % 7).collect(),
            },
            Factor {
                levels: (0..n).map(|_| rng.below(15) as usize).collect(),
            },
        ];
        let x: Vec<Vec<f64>> = (0..2)
            .map(|k| {
                (0..n)
                    .map(|i| {
                        let lift = 0.1 * factors[2].levels[i] as f64 + k as f64;
                        f64::from(u8::from(rng.chance(0.3))) + lift * 0.05
                    })
                    .collect()
            })
            .collect();
        let w: Vec<f64> = (0..n).map(|_| 1.0 + rng.below(4) as f64).collect();
        let y: Vec<f64> = (0..n)
            .map(|i| {
                0.4 + 0.02 * factors[0].levels[i] as f64 - 0.01 * factors[1].levels[i] as f64
                    + 0.03 * (factors[2].levels[i] % 4) as f64
                    - 0.1 * x[0][i]
                    + 0.05 * x[1][i]
                    + (rng.below(101) as f64 - 50.0) / 500.0
            })
            .collect();
        let direct = dummy_fit(&y, &x, &w, &factors);
        let absorbed = absorbed_fit(&y, &x, &w, &factors);
        for (d, a) in direct.iter().zip(&absorbed) {
            assert!(
                (d - a).abs() < 1e-8,
                "direct {direct:?}, absorbed {absorbed:?}"
            );
        }
    }

    #[test]
    fn singletons_go_and_those_they_leave_alone_after_them() {
        // Observation 3 is alone in pair 1; once it goes, observation 2 is
        // alone in series 1.
        let factors = [
            Factor {
                levels: vec![0, 0, 1, 1],
            },
            Factor {
                levels: vec![0, 0, 0, 1],
            },
        ];
        assert_eq!(without_singletons(&factors), vec![true, true, false, false]);
    }

    #[test]
    fn a_column_inside_the_effects_demeans_to_zero() {
        // A regressor constant within each series: nothing left once the
        // series' effects are absorbed (not identified).
        let factors = [Factor {
            levels: vec![0, 0, 1, 1, 1],
        }];
        let mut columns = vec![vec![1.0, 1.0, 0.0, 0.0, 0.0]];
        let run = demean(&mut columns, &[1.0; 5], &factors, 1e-12, 100);
        assert!(run.converged);
        assert!(columns[0].iter().all(|v| v.abs() < 1e-12));
    }
}
