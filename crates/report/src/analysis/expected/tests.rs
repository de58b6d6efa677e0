//! Planted effects: cells drawn game by game from a known model, and the
//! model and the excess draws recovered from them.

use super::*;
use crate::analysis::merge::Merge;
use remis_core::rng::Rng;

fn classical() -> Format {
    (Play::OverTheBoard, "classical".into())
}

fn rapid() -> Format {
    (Play::OverTheBoard, "rapid".into())
}

/// Games of a cell whose games all sit at its bin's centre.
fn cell(mean_bin: u16, gap_bin: u16, games: u64) -> CellCounts {
    CellCounts {
        games,
        draws: 0,
        rating_sum: games * (2 * u64::from(mean_bin) + u64::from(cells::BIN_WIDTH)),
        gap_sum: games * (u64::from(gap_bin) + u64::from(cells::BIN_WIDTH) / 2),
    }
}

/// Draws of `games` games at probability `p`, game by game.
fn draws(rng: &mut Rng, games: u64, p: f64) -> u64 {
    (0..games).filter(|_| rng.chance(p)).count() as u64
}

/// Cells over mean ratings 1800–2699 and gaps 0–399 for each year, more
/// games in the middle; `shift(year)` moves the year's mean ratings.
fn layout(years: std::ops::RangeInclusive<i16>, shift: impl Fn(i16) -> u16) -> DrawCells {
    layout_of(years, shift, 1)
}

/// [`layout`] with `1 / divisor` of the games.
fn layout_of(
    years: std::ops::RangeInclusive<i16>,
    shift: impl Fn(i16) -> u16,
    divisor: u64,
) -> DrawCells {
    let mut out = DrawCells::default();
    for year in years {
        for mean_bin in (1800..2700).step_by(50) {
            for gap_bin in (0..400).step_by(50) {
                let games = (40 + 10 * u64::from(8 - gap_bin / 50)) / divisor;
                let mean_bin = mean_bin + shift(year);
                out.cells.insert(
                    CellKey {
                        mean_bin,
                        gap_bin,
                        year: Some(year),
                    },
                    cell(mean_bin, gap_bin, games),
                );
            }
        }
    }
    out
}

#[test]
fn a_planted_model_is_recovered_within_its_standard_errors() {
    let mut rng = Rng::new(2049);
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), layout(2000..=2003, |_| 0));
    counts
        .parts
        .insert(rapid(), layout_of(2000..=2001, |_| 0, 2));
    // The specification the fit will choose (its knots need draws and
    // other results in every piece: half of each cell's games for now),
    // and a truth in its terms: a draw rate rising with strength and
    // bending up past the knots, falling with the gap, lower in rapid.
    for cells in counts.parts.values_mut() {
        for c in cells.cells.values_mut() {
            c.draws = c.games / 2;
        }
    }
    let parts: Vec<(Format, &DrawCells)> =
        counts.parts.iter().map(|(f, c)| (f.clone(), c)).collect();
    let spec = specify(&parts);
    assert_eq!(spec.reference, classical());
    assert_eq!(spec.formats, vec![rapid()]);
    assert!(spec.knots.len() >= 3, "{:?}", spec.knots);
    let mut truth = vec![-0.6, 0.15];
    truth.extend(spec.knots.iter().enumerate().map(|(i, _)| 0.05 * i as f64));
    truth.extend([-0.35, 0.03, -0.25]);
    let mut planted = counts.clone();
    for (format, cells) in planted.parts.iter_mut() {
        for c in cells.cells.values_mut() {
            let x = spec.covariates(c.mean_rating(), c.mean_gap(), format);
            let p = logistic(x.iter().zip(&truth).map(|(a, b)| a * b).sum());
            c.draws = draws(&mut rng, c.games, p);
        }
    }
    let model = expected_draws(&planted, &LeadFormat::default()).unwrap();
    assert_eq!(model.specification, spec);
    assert_eq!(model.coefficients.len(), truth.len());
    for (c, t) in model.coefficients.iter().zip(&truth) {
        assert!(
            (c.estimate - t).abs() < 3.0 * c.std_error,
            "{}: {} vs planted {t} (se {})",
            c.term,
            c.estimate,
            c.std_error
        );
        // Precise enough for the check to mean something (the intercept
        // and the lowest piece's slope are carried from below the first
        // knot to 2000, so they are the least precise).
        assert!(c.std_error < 0.5, "{}: se {}", c.term, c.std_error);
    }
    // The intercept's score equation: expected draws add up to observed.
    assert!((model.total.excess()).abs() < 1e-6 * model.total.draws as f64);
    // A model that holds is calibrated: nearly every band and year holds
    // the expected rate inside the observed's interval.
    let (within, all) = ExpectedDraws::calibrated_share(model.by_band.values(), 100);
    assert!(all >= 9 && within + 1 >= all, "{within} of {all} bands");
}

/// The weighted least-squares slope of the excess rate on the year, and
/// its standard error from the excess's variances.
fn excess_slope(model: &ExpectedDraws) -> (f64, f64) {
    let points: Vec<(f64, f64, f64)> = model
        .by_year
        .iter()
        .map(|(&y, v)| {
            let n = v.games as f64;
            let var = (v.binomial_variance + v.model_variance) / (n * n);
            (f64::from(y), v.excess() / n, 1.0 / var)
        })
        .collect();
    let w: f64 = points.iter().map(|p| p.2).sum();
    let xm = points.iter().map(|p| p.2 * p.0).sum::<f64>() / w;
    let ym = points.iter().map(|p| p.2 * p.1).sum::<f64>() / w;
    let sxx: f64 = points.iter().map(|p| p.2 * (p.0 - xm).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| p.2 * (p.0 - xm) * (p.1 - ym)).sum();
    (sxy / sxx, (1.0 / sxx).sqrt())
}

/// The base model: rising with strength, falling with the gap.
fn base_rate(c: &CellCounts) -> f64 {
    let m = (c.mean_rating() - 2000.0) / 100.0;
    let g = c.mean_gap() / 100.0;
    logistic(-0.5 + 0.2 * m - 0.3 * g)
}

#[test]
fn a_planted_excess_trend_by_year_is_recovered() {
    // The same rating mix every year, and 0.4 points more draws per 100
    // games each year than the ratings predict.
    let slope = 0.004;
    let mut rng = Rng::new(1990);
    let mut cells = layout(1990..=2020, |_| 0);
    for (key, c) in cells.cells.iter_mut() {
        let year = f64::from(key.year.unwrap() - 2005);
        c.draws = draws(&mut rng, c.games, base_rate(c) + slope * year);
    }
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), cells);
    let model = expected_draws(&counts, &LeadFormat::default()).unwrap();
    let (found, se) = excess_slope(&model);
    assert!(se < slope / 5.0, "se {se}: too weak a test");
    assert!(
        (found - slope).abs() < 3.0 * se,
        "{found} vs {slope} (se {se})"
    );
    // Without a year term, the years' excesses add up to none.
    let sum: f64 = model.by_year.values().map(Versus::excess).sum();
    assert!(sum.abs() < 1e-6 * model.total.draws as f64, "{sum}");
    // The first and last years lie outside the model's calibration.
    assert_eq!(model.by_year[&1990].calibrated(), Some(false));
    assert_eq!(model.by_year[&2020].calibrated(), Some(false));
}

#[test]
fn rising_ratings_raise_the_draw_rate_and_not_the_excess() {
    // Ratings rise 10 points a year, and nothing else changes: the raw
    // draw rate climbs, the excess stays flat.
    let mut rng = Rng::new(1970);
    let mut cells = layout(1990..=2020, |y| (y - 1990) as u16 / 5 * 50);
    for c in cells.cells.values_mut() {
        c.draws = draws(&mut rng, c.games, base_rate(c));
    }
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), cells);
    let model = expected_draws(&counts, &LeadFormat::default()).unwrap();
    let first = model.by_year[&1990].observed_rate().unwrap();
    let last = model.by_year[&2020].observed_rate().unwrap();
    assert!(last - first > 0.05, "{first} → {last}");
    let (found, se) = excess_slope(&model);
    assert!(found.abs() < 3.0 * se, "{found} (se {se})");
}

#[test]
fn series_are_scored_against_the_model_and_small_ones_left_out() {
    let mut rng = Rng::new(7);
    let mut cells = layout(2000..=2001, |_| 0);
    for c in cells.cells.values_mut() {
        c.draws = draws(&mut rng, c.games, base_rate(c));
    }
    // A series of strong, close games drawn far more than expected, and
    // one too small to list.
    let key = CellKey {
        mean_bin: 2650,
        gap_bin: 0,
        year: Some(2001),
    };
    let mut strong = cell(2650, 0, 400);
    strong.draws = 300;
    cells.series.insert(("Elite Open".into(), key), strong);
    cells
        .series
        .insert(("Tiny Cup".into(), key), cell(2650, 0, 10));
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), cells);
    let model = expected_draws(&counts, &LeadFormat::default()).unwrap();
    assert_eq!(model.series_left_out, 1);
    let elite = &model.by_series["Elite Open"];
    let expected = 400.0 * base_rate(&strong);
    assert!((elite.expected - expected).abs() < 0.1 * expected);
    let (_, lo, hi) = elite.excess_rate().unwrap();
    assert!(lo > 0.0 && hi < 1.0, "{lo}–{hi}");
    // The model's own uncertainty is in the interval: here, at the top of
    // the ratings where the spline has least data, a fifth of the whole.
    assert!(elite.model_variance > 0.0);
    assert!(
        elite.model_variance < elite.binomial_variance / 2.0,
        "{} vs {}",
        elite.model_variance,
        elite.binomial_variance
    );
    let (lo, hi) = elite.excess_interval();
    let half = 1.959_963_984_540_054 * (elite.binomial_variance + elite.model_variance).sqrt();
    assert!((hi - lo - 2.0 * half).abs() < 1e-9);
}

#[test]
fn too_few_games_fit_no_model() {
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    let mut cells = DrawCells::default();
    cells.cells.insert(
        CellKey {
            mean_bin: 2000,
            gap_bin: 0,
            year: Some(2000),
        },
        cell(2000, 0, 10),
    );
    counts.parts.insert(classical(), cells);
    assert_eq!(
        expected_draws(&counts, &LeadFormat::default()),
        Err(NotFitted::TooFewGames(10))
    );
}

#[test]
fn a_piece_without_draws_loses_its_knot_instead_of_the_fit() {
    // Bullet between weak players: no draw at all below 1500, a few above
    // (the lichess sample's shape, which separated the lowest piece).
    let mut rng = Rng::new(3);
    let mut cells = layout_of(2020..=2020, |_| 0, 1);
    let mut low = DrawCells::default();
    for mean_bin in (1000..1500).step_by(50) {
        let key = CellKey {
            mean_bin,
            gap_bin: 0,
            year: Some(2020),
        };
        low.cells.insert(key, cell(mean_bin, 0, 150));
    }
    for c in cells.cells.values_mut() {
        c.draws = draws(&mut rng, c.games, 0.05);
    }
    cells.absorb(low);
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), cells);
    let model = expected_draws(&counts, &LeadFormat::default()).unwrap();
    // The knot at the 5th percentile (in the drawless games) is gone.
    assert!(
        model.specification.knots.iter().all(|&k| k > 1500.0),
        "{:?}",
        model.specification.knots
    );
    assert!(model.coefficients.iter().all(|c| c.std_error.is_finite()));
}
