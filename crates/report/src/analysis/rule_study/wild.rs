//! A difference of shares between games under a rule and control games,
//! stratified with Mantel–Haenszel weights, and its 95 % interval from a
//! wild cluster bootstrap: what the rule study reports when the games of
//! one event edition are not independent and the editions are few.
//!
//! The estimate is the Mantel–Haenszel risk difference over strata (rating
//! cells, or pairs of players): with weights n₁n₀ / (n₁ + n₀) it equals the
//! coefficient of a linear probability model with a fixed effect per
//! stratum, and it is linear in the shares of its cells. Its interval is
//! the restricted wild cluster bootstrap's (the null imposed, Webb
//! weights), inverted: see [`inference`]. Cameron, Gelbach and Miller
//! (2008) and MacKinnon and Webb (2017) show why the bootstrap of whole
//! clusters, and the unrestricted wild bootstrap, are too narrow with few
//! clusters; the coverage of this one is measured by the tests below on
//! games with a planted effect, and at the data's own edition counts by
//! [`inference::coverage`].

use remis_core::rng::Rng;

use super::Effect;
use super::inference;

/// Games of one cluster (an event edition) in one stratum, under the rule
/// (`treated`) or not.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Cell {
    pub cluster: usize,
    pub stratum: usize,
    pub treated: bool,
    pub games: u64,
    /// Games that count for the measure (draws, agreed draws, ...).
    pub hits: u64,
}

/// The estimate and how much data it rests on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Stratified {
    pub effect: Effect,
    /// Clusters with games in a stratum both groups share: under the rule
    /// and controls.
    pub clusters: [usize; 2],
    /// Strata both groups share.
    pub strata: usize,
    /// Games in those strata: under the rule and controls.
    pub games: [u64; 2],
    /// The controls' share in those strata, with the estimate's weights:
    /// the base a relative change is measured from.
    pub control_share: f64,
}

/// Replicates of the wild bootstrap.
pub const WILD_REPLICATES: usize = 999;

/// The Mantel–Haenszel difference (rule minus control) with its wild
/// cluster bootstrap interval; `None` when no stratum has games of both
/// groups.
pub fn stratified(cells: &[Cell], rng: &mut Rng) -> Option<Stratified> {
    let strata = cells.iter().map(|c| c.stratum + 1).max().unwrap_or(0);
    // Games and hits by stratum and group (1 = rule).
    let mut n = vec![[0u64; 2]; strata];
    let mut k = vec![[0u64; 2]; strata];
    for c in cells {
        n[c.stratum][usize::from(c.treated)] += c.games;
        k[c.stratum][usize::from(c.treated)] += c.hits;
    }
    let weight: Vec<f64> = n
        .iter()
        .map(|[n0, n1]| {
            if *n0 == 0 || *n1 == 0 {
                0.0
            } else {
                (*n0 as f64) * (*n1 as f64) / ((n0 + n1) as f64)
            }
        })
        .collect();
    let total: f64 = weight.iter().sum();
    if total == 0.0 {
        return None;
    }
    let share = |s: usize, g: usize, hits: f64| hits / n[s][g] as f64;
    let estimate_of = |hits: &dyn Fn(usize, usize) -> f64| -> f64 {
        (0..strata)
            .filter(|&s| weight[s] > 0.0)
            .map(|s| weight[s] * (share(s, 1, hits(s, 1)) - share(s, 0, hits(s, 0))))
            .sum::<f64>()
            / total
    };
    let estimate = estimate_of(&|s, g| k[s][g] as f64);
    let mut sides = [
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    ];
    for c in cells
        .iter()
        .filter(|c| weight[c.stratum] > 0.0 && c.games > 0)
    {
        sides[usize::from(c.treated)].insert(c.cluster);
    }
    let games = [
        (0..strata)
            .filter(|&s| weight[s] > 0.0)
            .map(|s| n[s][1])
            .sum(),
        (0..strata)
            .filter(|&s| weight[s] > 0.0)
            .map(|s| n[s][0])
            .sum(),
    ];
    let control_share = (0..strata)
        .filter(|&s| weight[s] > 0.0)
        .map(|s| weight[s] * share(s, 0, k[s][0] as f64))
        .sum::<f64>()
        / total;
    // The estimate as a linear combination of cell shares (cell 2s + 1:
    // the rule editions' games of stratum s, 2s: the controls'), for the
    // restricted bootstrap.
    let units: Vec<inference::Unit> = cells
        .iter()
        .map(|c| inference::Unit {
            cluster: c.cluster,
            cell: 2 * c.stratum + usize::from(c.treated),
            games: c.games,
            hits: c.hits,
        })
        .collect();
    let coefficient: Vec<f64> = (0..2 * strata)
        .map(|cell| {
            let w = weight[cell / 2] / total;
            if cell % 2 == 1 { w } else { -w }
        })
        .collect();
    let linear = inference::Linear {
        units: &units,
        coefficient: &coefficient,
    };
    let clusters = [sides[1].len(), sides[0].len()];
    let (interval, withheld) =
        match inference::interval(&linear, |cell| cell % 2, WILD_REPLICATES, rng) {
            Some(Ok(i)) => (Some(i), None),
            Some(Err(w)) => (None, Some(w)),
            None => (None, Some(inference::Withheld::OneEdition)),
        };
    Some(Stratified {
        control_share,
        effect: Effect {
            estimate,
            interval,
            withheld,
            smallest_group: clusters[0].min(clusters[1]),
        },
        clusters,
        strata: weight.iter().filter(|w| **w > 0.0).count(),
        games,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Games of `editions` rule and control editions in three rating
    /// strata whose draw rates differ (the rule editions mostly in the
    /// strongest), each edition with its own shift of the draw rate (the
    /// reason games of one edition are not independent), and the rule
    /// moving the draw rate by `effect`.
    pub(crate) fn planted(
        rng: &mut Rng,
        editions: [usize; 2],
        games: u64,
        effect: f64,
    ) -> Vec<Cell> {
        let base = [0.35, 0.45, 0.6];
        let mut cells = Vec::new();
        for (cluster, treated) in std::iter::repeat_n(true, editions[0])
            .chain(std::iter::repeat_n(false, editions[1]))
            .enumerate()
        {
            // An edition's shift: uniform in ±0.06 (sd about 0.035).
            let shift = (rng.below(1201) as f64 - 600.0) / 10_000.0;
            let mix: [u64; 3] = if treated { [1, 2, 7] } else { [5, 3, 2] };
            for (stratum, &m) in mix.iter().enumerate() {
                let n = games * m / 10;
                let p = base[stratum] + shift + if treated { effect } else { 0.0 };
                let hits = (0..n).filter(|_| rng.chance(p)).count() as u64;
                cells.push(Cell {
                    cluster,
                    stratum,
                    treated,
                    games: n,
                    hits,
                });
            }
        }
        cells
    }

    fn coverage(seeds: u64, editions: [usize; 2], effect: f64) -> (f64, f64) {
        let mut covered = 0;
        let mut sum = 0.0;
        for seed in 0..seeds {
            let mut rng = Rng::new(seed);
            let cells = planted(&mut rng, editions, 120, effect);
            let s = stratified(&cells, &mut rng).unwrap();
            let (lo, hi) = s.effect.interval.unwrap();
            covered += usize::from(lo <= effect && effect <= hi);
            sum += s.effect.estimate;
        }
        (covered as f64 / seeds as f64, sum / seeds as f64)
    }

    #[test]
    fn the_adjusted_difference_recovers_a_planted_effect() {
        // The rule lowers the draw rate by 8 points; the rule editions
        // are stronger, so the raw difference is far from it.
        let (cover, mean) = coverage(60, [6, 18], -0.08);
        assert!((mean + 0.08).abs() < 0.015, "mean estimate {mean}");
        assert!(cover >= 0.85, "coverage {cover}");
        let mut rng = Rng::new(7);
        let cells = planted(&mut rng, [6, 18], 120, -0.08);
        let pooled: Vec<Cell> = cells.iter().map(|c| Cell { stratum: 0, ..*c }).collect();
        let raw = stratified(&pooled, &mut rng).unwrap().effect.estimate;
        assert!(
            raw > 0.0,
            "strength should hide the effect in the raw difference: {raw}"
        );
    }

    #[test]
    #[allow(clippy::disallowed_macros)] // the figure, for `--nocapture`
    fn with_no_effect_the_intervals_cover_zero_about_95_percent_of_the_time() {
        // 200 seeds here; REMIS_COVERAGE_SEEDS=2000 for the full figure.
        let seeds = std::env::var("REMIS_COVERAGE_SEEDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(200);
        for editions in [[4, 12], [8, 30]] {
            let (cover, mean) = coverage(seeds, editions, 0.0);
            eprintln!(
                "editions {editions:?}: coverage of zero {cover:.3} over {seeds} seeds, mean estimate {mean:+.4}"
            );
            assert!(
                (0.89..=0.99).contains(&cover),
                "coverage {cover} with {editions:?}"
            );
        }
    }

    #[test]
    fn one_rule_cluster_gives_an_estimate_but_no_interval() {
        let mut rng = Rng::new(3);
        let cells = planted(&mut rng, [1, 10], 100, 0.0);
        let s = stratified(&cells, &mut rng).unwrap();
        assert!(s.effect.interval.is_none());
        assert_eq!(s.clusters, [1, 10]);
    }

    #[test]
    fn the_estimate_is_the_mantel_haenszel_difference_by_hand() {
        let cell = |cluster, stratum, treated, games, hits| Cell {
            cluster,
            stratum,
            treated,
            games,
            hits,
        };
        // Stratum 0: 4/10 vs 30/100; stratum 1: 60/100 vs 5/10.
        let cells = [
            cell(0, 0, true, 10, 4),
            cell(1, 0, false, 100, 30),
            cell(0, 1, true, 100, 60),
            cell(1, 1, false, 10, 5),
            // A stratum with controls only does not enter.
            cell(1, 2, false, 50, 50),
        ];
        let s = stratified(&cells, &mut Rng::new(1)).unwrap();
        let w = 10.0 * 100.0 / 110.0;
        let expected = (w * (0.4 - 0.3) + w * (0.6 - 0.5)) / (2.0 * w);
        assert!((s.effect.estimate - expected).abs() < 1e-12);
        assert_eq!(s.strata, 2);
        assert_eq!(s.games, [110, 110]);
    }
}
