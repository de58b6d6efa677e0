//! What analysts compute on the games table: rating bands and confidence
//! intervals for proportions.

mod bands;
pub mod events;

pub use bands::{Band, BandScheme, EloBasis};
pub use remis_table::format::{DEFAULT_PATTERNS_TOML, EventKind, EventPatterns};

/// A count with narrow no-break spaces between thousands, as every count
/// in the report is written (its tables and its populations' statements
/// alike).
///
/// ```
/// assert_eq!(remis_report::study::thousands(391_208), "391\u{202f}208");
/// assert_eq!(remis_report::study::thousands(999), "999");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// A proportion with its 95% Wilson score interval.
#[derive(Copy, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Proportion {
    pub successes: u64,
    pub n: u64,
}

impl Proportion {
    pub fn new(successes: u64, n: u64) -> Proportion {
        Proportion { successes, n }
    }

    /// `None` when there are no trials.
    pub fn rate(&self) -> Option<f64> {
        (self.n > 0).then(|| self.successes as f64 / self.n as f64)
    }

    /// The 95% Wilson score interval (z = 1.959964).
    ///
    /// ```
    /// use remis_report::study::Proportion;
    /// let (lo, hi) = Proportion::new(0, 20).wilson95().unwrap();
    /// assert_eq!(lo, 0.0);
    /// assert!((hi - 0.161).abs() < 0.001, "0 draws in 20 games: 0–16.1%");
    /// assert_eq!(Proportion::new(0, 0).wilson95(), None);
    /// ```
    pub fn wilson95(&self) -> Option<(f64, f64)> {
        wilson(self.successes, self.n, 1.959_963_984_540_054)
    }
}

/// Wilson score interval for `successes` out of `n` at normal quantile `z`.
/// Unlike the normal approximation it stays inside [0, 1] and behaves for
/// small n and rates near 0 or 1.
pub fn wilson(successes: u64, n: u64, z: f64) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_textbook_values() {
        // Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263
        // gives 0.2553 to 0.3662 by the Wilson method.
        let (lo, hi) = Proportion::new(81, 263).wilson95().unwrap();
        assert!((lo - 0.2553).abs() < 5e-4, "{lo}");
        assert!((hi - 0.3662).abs() < 5e-4, "{hi}");
        // 15/148: 0.0624 to 0.1605 (same table).
        let (lo, hi) = Proportion::new(15, 148).wilson95().unwrap();
        assert!((lo - 0.0624).abs() < 5e-4, "{lo}");
        assert!((hi - 0.1605).abs() < 5e-4, "{hi}");
        // 0/20: 0 to 0.1611.
        let (lo, hi) = Proportion::new(0, 20).wilson95().unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.1611).abs() < 5e-4, "{hi}");
        assert_eq!(Proportion::new(0, 0).wilson95(), None);
    }
}
