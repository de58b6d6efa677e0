//! Planted effects: cells drawn game by game from a known model, and the
//! model and the excess draws recovered from them.

use super::*;
use crate::analysis::merge::Merge;
use crate::analysis::table::names;
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
    let model = expected_draws(&planted, &LeadFormat::default(), &PlayerCounts::default()).unwrap();
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
    let model = expected_draws(&counts, &LeadFormat::default(), &PlayerCounts::default()).unwrap();
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
    let model = expected_draws(&counts, &LeadFormat::default(), &PlayerCounts::default()).unwrap();
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
    let model = expected_draws(&counts, &LeadFormat::default(), &PlayerCounts::default()).unwrap();
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
        expected_draws(&counts, &LeadFormat::default(), &PlayerCounts::default()),
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
    let model = expected_draws(&counts, &LeadFormat::default(), &PlayerCounts::default()).unwrap();
    // The knot at the 5th percentile (in the drawless games) is gone.
    assert!(
        model.specification.knots.iter().all(|&k| k > 1500.0),
        "{:?}",
        model.specification.knots
    );
    assert!(model.coefficients.iter().all(|c| c.std_error.is_finite()));
}

#[test]
fn a_players_expected_draws_are_her_games_at_their_cells_probabilities() {
    // A draw in every fourth game of every cell: the fit is exact, every
    // cell's probability 1/4, so a player's expected draws are a quarter
    // of her games, whoever her opponents were.
    let mut cells = layout(2000..=2001, |_| 0);
    for c in cells.cells.values_mut() {
        c.games = c.games / 4 * 4;
        c.draws = c.games / 4;
    }
    let low = CellKey {
        mean_bin: 2000,
        gap_bin: 0,
        year: Some(2000),
    };
    let high = CellKey {
        mean_bin: 2600,
        gap_bin: 150,
        year: Some(2001),
    };
    let aliases = remis_table::players::Aliases::default();
    let key = |name: &str| {
        crate::analysis::players::identity_of(&aliases, name, None)
            .unwrap()
            .0
    };
    let player = |games: &[(CellKey, u64, u64)]| {
        cells::PlayerCells(games.iter().map(|&(k, g, d)| (k, [g, d])).collect())
    };
    // Magnus's games under two spellings the Players section joins: 40
    // with 30 draws and 20 with 5, expected 15; Anna: 8 games, no draw.
    cells.players.insert(
        key("Carlsen, Magnus"),
        player(&[(low, 30, 20), (high, 20, 5)]),
    );
    cells
        .players
        .insert(key("Carlsen,M"), player(&[(low, 10, 10)]));
    cells
        .players
        .insert(key("Ushenina, Anna"), player(&[(high, 8, 0)]));
    // Every game of 2000's cells for one side: her figures are the year's.
    let year_2000: Vec<(CellKey, u64, u64)> = cells
        .cells
        .iter()
        .filter(|(k, _)| k.year == Some(2000))
        .map(|(k, c)| (*k, c.games, c.draws))
        .collect();
    cells
        .players
        .insert(key("Yearlong, Yvonne"), player(&year_2000));
    let spellings = [
        "Carlsen, Magnus",
        "Carlsen,M",
        "Ushenina, Anna",
        "Yearlong, Yvonne",
    ];
    let games = [50u64, 10, 8, 1];
    let df = polars::df!(
        names::PLAYER => spellings,
        crate::analysis::players::FIDE_ID => [None::<&str>; 4],
        names::GAMES => games,
        names::DRAWS => [0u64; 4]
    )
    .unwrap();
    let players = crate::analysis::players::counts_from(&df, &aliases).unwrap();
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), cells);
    let model = expected_draws(&counts, &LeadFormat::default(), &players).unwrap();
    for c in &model.cells {
        assert!((c.probability - 0.25).abs() < 1e-9, "{c:?}");
    }
    let by_name = |name: &str| {
        &model
            .by_player
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", model.by_player))
            .versus
    };
    assert_eq!(model.by_player.len(), 3);
    let magnus = by_name("Carlsen, Magnus");
    assert_eq!((magnus.games, magnus.draws), (60, 35));
    assert!((magnus.expected - 15.0).abs() < 1e-9);
    assert!((magnus.excess() - 20.0).abs() < 1e-9);
    assert!((magnus.binomial_variance - 60.0 * 0.25 * 0.75).abs() < 1e-9);
    let anna = by_name("Ushenina, Anna");
    assert!((anna.expected - 2.0).abs() < 1e-9 && (anna.excess() + 2.0).abs() < 1e-9);
    // Her interval is the series' and the year's: binomial and model.
    let (lo, hi) = anna.excess_interval();
    let half = Z95 * (8.0 * 0.25 * 0.75 + anna.model_variance).sqrt();
    assert!((lo - (-2.0 - half)).abs() < 1e-9 && (hi - (-2.0 + half)).abs() < 1e-9);
    let yvonne = by_name("Yearlong, Yvonne");
    let year = &model.by_year[&2000];
    assert_eq!((yvonne.games, yvonne.draws), (year.games, year.draws));
    assert!((yvonne.expected - year.expected).abs() < 1e-6);
    assert!(
        (yvonne.model_variance - year.model_variance).abs() < 1e-9 * year.model_variance.max(1.0)
    );
    assert!(yvonne.model_variance > 0.0);
    // The most games first; the other sides are nobody's.
    assert_eq!(model.by_player[0].name, "Yearlong, Yvonne");
    let kept: u64 = model.by_player.iter().map(|p| p.versus.games).sum();
    let outside = &model.player_sides_outside;
    assert_eq!(outside.games, 2 * model.total.games - kept);
    assert!((outside.expected - outside.games as f64 / 4.0).abs() < 1e-6);
}

#[test]
fn the_cells_of_players_folded_past_the_cap_are_dropped_with_them() {
    let key = CellKey {
        mean_bin: 2400,
        gap_bin: 0,
        year: Some(2001),
    };
    let mut cells = DrawCells::default();
    for name in ["kept", "folded"] {
        cells
            .players
            .insert(name.into(), cells::PlayerCells([(key, [3, 1])].into()));
    }
    let mut counts: ByFormat<DrawCells> = ByFormat::default();
    counts.parts.insert(classical(), cells);
    let mut players = PlayerCounts::default();
    players
        .by_name
        .insert("kept".into(), crate::study::Proportion::new(1, 3));
    players.folded_players = 1;
    cells::keep_named_players(&mut counts, &players);
    let kept: Vec<&String> = counts.parts[&classical()].players.keys().collect();
    assert_eq!(kept, ["kept"]);
}
