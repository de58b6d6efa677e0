//! A logistic regression for grouped binomial counts (games and draws in a
//! cell of like games), fitted by iteratively reweighted least squares:
//! Newton's method on the log-likelihood, which for the logit link is also
//! Fisher scoring. The standard errors are from the inverse of the Fisher
//! information XᵀWX at the estimate. A leaf: it knows nothing of chess.
#![allow(
    clippy::needless_range_loop,
    reason = "matrix algebra reads as the formulas' indices"
)]

use crate::analysis::linalg::{dot, invert_spd};

/// One cell: its covariates (the first is the intercept's 1), its trials
/// and its successes.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub x: Vec<f64>,
    pub trials: f64,
    pub successes: f64,
}

/// The maximum-likelihood estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub coefficients: Vec<f64>,
    /// The inverse Fisher information at the estimate: the coefficients'
    /// covariance.
    pub covariance: Vec<Vec<f64>>,
    /// Newton steps taken.
    pub iterations: usize,
    /// The residual deviance, 2 Σ [y log(y/μ) + (n−y) log((n−y)/(n−μ))].
    pub deviance: f64,
}

impl Fit {
    pub fn std_errors(&self) -> Vec<f64> {
        (0..self.coefficients.len())
            .map(|i| self.covariance[i][i].max(0.0).sqrt())
            .collect()
    }

    /// The linear predictor of covariates `x`.
    pub fn eta(&self, x: &[f64]) -> f64 {
        x.iter().zip(&self.coefficients).map(|(a, b)| a * b).sum()
    }
}

/// Why no estimate.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    #[error("no cell with games")]
    Empty,
    #[error("the covariates are collinear (the information matrix is singular)")]
    Singular,
    #[error("Newton's method did not converge in {0} steps (separated data?)")]
    NoConvergence(usize),
}

/// Steps before giving up: a well-posed logit converges in under ten.
const MAX_ITERATIONS: usize = 100;
/// Converged when no coefficient moves by more than this (relative to
/// its size, or absolutely near zero).
const TOLERANCE: f64 = 1e-12;

pub fn logistic(eta: f64) -> f64 {
    if eta >= 0.0 {
        1.0 / (1.0 + (-eta).exp())
    } else {
        let e = eta.exp();
        e / (1.0 + e)
    }
}

/// Fits `logit P(success) = x·β` to the groups.
pub fn fit(groups: &[Group]) -> Result<Fit, FitError> {
    let groups: Vec<&Group> = groups.iter().filter(|g| g.trials > 0.0).collect();
    let Some(first) = groups.first() else {
        return Err(FitError::Empty);
    };
    let k = first.x.len();
    let trials: f64 = groups.iter().map(|g| g.trials).sum();
    let successes: f64 = groups.iter().map(|g| g.successes).sum();
    // Start from the overall rate in the intercept: every μ inside (0, 1).
    let mut beta = vec![0.0; k];
    let overall = (successes + 0.5) / (trials + 1.0);
    beta[0] = (overall / (1.0 - overall)).ln();
    for iteration in 1..=MAX_ITERATIONS {
        let (information, score) = information_and_score(&groups, &beta, k);
        let inverse = invert_spd(&information).ok_or(FitError::Singular)?;
        let step: Vec<f64> = (0..k)
            .map(|i| (0..k).map(|j| inverse[i][j] * score[j]).sum())
            .collect();
        let mut largest: f64 = 0.0;
        for (b, s) in beta.iter_mut().zip(&step) {
            *b += s;
            largest = largest.max(s.abs() / b.abs().max(1.0));
        }
        if !largest.is_finite() {
            return Err(FitError::NoConvergence(iteration));
        }
        if largest < TOLERANCE || (iteration > 5 && largest < 1e-10) {
            let (information, _) = information_and_score(&groups, &beta, k);
            let covariance = invert_spd(&information).ok_or(FitError::Singular)?;
            return Ok(Fit {
                deviance: deviance(&groups, &beta),
                coefficients: beta,
                covariance,
                iterations: iteration,
            });
        }
    }
    Err(FitError::NoConvergence(MAX_ITERATIONS))
}

/// XᵀWX and Xᵀ(y − nμ) at `beta`.
fn information_and_score(groups: &[&Group], beta: &[f64], k: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut information = vec![vec![0.0; k]; k];
    let mut score = vec![0.0; k];
    for g in groups {
        let mu = logistic(dot(&g.x, beta));
        let w = g.trials * mu * (1.0 - mu);
        let r = g.successes - g.trials * mu;
        for i in 0..k {
            score[i] += g.x[i] * r;
            let wi = w * g.x[i];
            for j in 0..=i {
                information[i][j] += wi * g.x[j];
            }
        }
    }
    for i in 0..k {
        for j in 0..i {
            information[j][i] = information[i][j];
        }
    }
    (information, score)
}

fn deviance(groups: &[&Group], beta: &[f64]) -> f64 {
    let term = |y: f64, m: f64| if y > 0.0 { y * (y / m).ln() } else { 0.0 };
    groups
        .iter()
        .map(|g| {
            let mu = g.trials * logistic(dot(&g.x, beta));
            2.0 * (term(g.successes, mu) + term(g.trials - g.successes, g.trials - mu))
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use remis_core::rng::Rng;

    #[test]
    fn one_group_recovers_its_log_odds_exactly() {
        let fit = fit(&[Group {
            x: vec![1.0],
            trials: 400.0,
            successes: 100.0,
        }])
        .unwrap();
        assert!((fit.coefficients[0] - (1.0f64 / 3.0).ln()).abs() < 1e-12);
        // Var(logit p̂) = 1 / (n p (1 − p)).
        let se = (1.0f64 / (400.0 * 0.25 * 0.75)).sqrt();
        assert!((fit.std_errors()[0] - se).abs() < 1e-12);
        assert!(fit.deviance.abs() < 1e-9);
    }

    #[test]
    fn a_planted_model_is_recovered_within_its_standard_errors() {
        // logit p = −0.4 + 0.8 x − 0.3 x², at eleven values of x, with
        // draws drawn game by game.
        let truth = [-0.4, 0.8, -0.3];
        let mut rng = Rng::new(49);
        let groups: Vec<Group> = (0..=10)
            .map(|i| {
                let x = -1.0 + 0.2 * f64::from(i);
                let covariates = vec![1.0, x, x * x];
                let p = logistic(dot(&covariates, &truth));
                let trials = 20_000u32;
                let successes = (0..trials).filter(|_| rng.chance(p)).count();
                Group {
                    x: covariates,
                    trials: f64::from(trials),
                    successes: successes as f64,
                }
            })
            .collect();
        let fit = fit(&groups).unwrap();
        for ((b, t), se) in fit.coefficients.iter().zip(truth).zip(fit.std_errors()) {
            assert!((b - t).abs() < 3.0 * se, "{b} vs {t} (se {se})");
            assert!(se < 0.05, "{se}");
        }
        // The score equations hold at the estimate: the intercept's says
        // the expected successes add up to the observed.
        let expected: f64 = groups
            .iter()
            .map(|g| g.trials * logistic(fit.eta(&g.x)))
            .sum();
        let observed: f64 = groups.iter().map(|g| g.successes).sum();
        assert!((expected - observed).abs() < 1e-6 * observed);
    }

    #[test]
    fn collinear_covariates_are_an_error_not_a_number() {
        let groups: Vec<Group> = (0..4)
            .map(|i| Group {
                x: vec![1.0, f64::from(i), 2.0 * f64::from(i)],
                trials: 100.0,
                successes: 30.0 + f64::from(i),
            })
            .collect();
        assert_eq!(fit(&groups), Err(FitError::Singular));
        assert_eq!(fit(&[]), Err(FitError::Empty));
    }
}
