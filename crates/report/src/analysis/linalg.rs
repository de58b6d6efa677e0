//! The little dense linear algebra the report's models need (the
//! expected-draw logistic fit, the rule study's linear model): a few dozen
//! parameters at most, so Cholesky on rows of `f64` is enough, and one copy
//! of it serves both.
#![allow(
    clippy::needless_range_loop,
    reason = "matrix algebra reads as the formulas' indices"
)]

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn mat_vec(m: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    m.iter().map(|row| dot(row, v)).collect()
}

/// The inverse of a symmetric positive definite matrix by Cholesky
/// factorisation; `None` when it is not (numerically) positive definite:
/// a pivot this small next to its diagonal entry means collinear columns,
/// and the inverse would be noise.
pub fn invert_spd(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    cholesky(a, None).map(|l| inverse_from_factor(&l))
}

/// The inverse of a symmetric positive semidefinite matrix with a tiny
/// ridge, so that an exactly collinear column does not break it (the
/// caller reports its coefficient as not identified).
pub fn invert_ridged(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let scale = (0..a.len())
        .map(|i| a[i][i])
        .fold(0.0f64, f64::max)
        .max(1.0);
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += scale * 1e-12;
    }
    let l = cholesky(&a, Some(scale * 1e-14)).expect("a floored pivot never refuses");
    inverse_from_factor(&l)
}

/// The lower factor `l` of `a = l lᵀ`. A pivot at or below its tolerance
/// refuses the matrix (`None`) or, with a `floor`, is raised to it.
fn cholesky(a: &[Vec<f64>], floor: Option<f64>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i][j];
            for k in 0..j {
                sum -= l[i][k] * l[j][k];
            }
            if i == j {
                let pivot = match floor {
                    Some(floor) => sum.max(floor),
                    None if sum <= a[i][i].abs() * 1e-12 || sum <= 0.0 => return None,
                    None => sum,
                };
                l[i][i] = pivot.sqrt();
            } else {
                l[i][j] = sum / l[j][j];
            }
        }
    }
    Some(l)
}

/// `(l lᵀ)⁻¹ = l⁻ᵀ l⁻¹`, with `l⁻¹` by forward substitution.
fn inverse_from_factor(l: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = l.len();
    let mut inv_l = vec![vec![0.0; n]; n];
    for col in 0..n {
        for i in col..n {
            let mut sum = if i == col { 1.0 } else { 0.0 };
            for k in col..i {
                sum -= l[i][k] * inv_l[k][col];
            }
            inv_l[i][col] = sum / l[i][i];
        }
    }
    let mut out = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (i..n).map(|k| inv_l[k][i] * inv_l[k][j]).sum();
            out[i][j] = s;
            out[j][i] = s;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inverse_times_its_matrix_is_the_identity() {
        let a = vec![
            vec![4.0, 1.0, 0.5],
            vec![1.0, 3.0, 0.2],
            vec![0.5, 0.2, 2.0],
        ];
        for inv in [invert_spd(&a).unwrap(), invert_ridged(a.clone())] {
            for i in 0..3 {
                for j in 0..3 {
                    let product: f64 = (0..3).map(|k| a[i][k] * inv[k][j]).sum();
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((product - want).abs() < 1e-9, "{i},{j}: {product}");
                }
            }
        }
    }

    #[test]
    fn collinear_columns_are_refused_or_ridged() {
        let singular = vec![vec![1.0, 1.0], vec![1.0, 1.0]];
        assert_eq!(invert_spd(&singular), None);
        let ridged = invert_ridged(singular);
        assert!(ridged.iter().flatten().all(|x| x.is_finite()));
    }
}
