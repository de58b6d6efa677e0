//! How many draws would we expect from the players' ratings? The question
//! Sonas's and Chessmetrics' analyses of draw rates start from: a rise in
//! draws means something only beside what the strength of the players and
//! the closeness of their ratings predict.
//!
//! **The model.** A logistic regression of the draw on both players'
//! ratings, fitted to the lead population's rated games (both ratings
//! plausible for their system and year) grouped in cells of like games
//! ([`cells`]: 50-point bins of the mean rating and of the gap, by year),
//! by maximum likelihood for grouped binomial counts (IRLS, [`logit`]):
//!
//! ```text
//! logit P(draw) = β₀ + β₁·m + Σₖ γₖ·(m − kₖ)₊ + δ₁·g + δ₂·g² + Σ_f φ_f·[format f]
//! ```
//!
//! with m the cell's mean rating less 2000 and g its mean gap, both per
//! 100 points, knots kₖ at the 5th, 27.5th, 50th, 72.5th and 95th
//! percentiles of the games' mean rating (those that leave every piece of
//! the spline at least [`MIN_PIECE_RESULTS`] draws and as many other
//! results) (a linear spline: the draw rate may bend with
//! strength, as it does between club and elite play), and a dummy for each
//! format beside the largest when the figures mix formats (`--play all`).
//! Logistic rather than a rate per bin: it is smooth in the rating, so a
//! sparse cell (a 2750 mean with a 300-point gap) borrows strength from
//! its neighbours instead of showing its own noise, and its probabilities
//! stay inside (0, 1). Standard errors are from the inverse Fisher
//! information.
//!
//! **Year is left out on purpose**: the expected draws of a year are those
//! of its players' ratings and gaps, so the **excess** (observed − expected
//! draws, in games and as a rate) is the trend the ratings do not explain,
//! a rate standardised for rating. Colour is not a covariate: a draw is
//! the same result for both colours, and the gap is taken unsigned. Event
//! type (round robin, Swiss, team) is not in the table's columns and so
//! not in the model.
//!
//! **Intervals.** The excess of a group of games has the variance of its
//! observed draws under the model, Σ n p (1 − p), plus that of its
//! expected draws from the coefficients' uncertainty (delta method,
//! gᵀVg with g = Σ n p (1 − p) x). Both are in every interval: the
//! second is small beside the first for a group of a small share of the
//! games in the middle of the ratings, but not for a large year or a
//! series at the top of the ratings, where the spline has least data.
//! Calibration shows each group's observed rate with its Wilson interval
//! beside the expected.
//!
//! **By player** (issue 49): a player's expected draws are the sum, over
//! her rated games of the population, of the probability the model gives
//! the game's cell (her opponent's rating and hers, game by game), so the
//! summary keeps the cells of each named player's games
//! ([`cells::PlayerCells`]), for the players the Players section keeps by
//! name (past `players::PLAYER_CAP`, those with the fewest games are
//! folded and their games are in no player's row; the rows say how many
//! sides that leaves out). Identities are resolved into people as the
//! Players section resolves them (`players::people_of_identities`). The
//! interval is the series', and as narrow: a player's games share her.

pub mod cells;
pub mod logit;

use std::collections::BTreeMap;

pub use cells::{CellCounts, CellKey, DrawCells};
use logit::{Fit, FitError, Group, logistic};

use super::players::{PlayerCounts, people_of_identities};
use super::population::ByFormat;
use super::table::{LeadFormat, Play};
use crate::study::Proportion;

/// Rated games a fit needs.
pub const MIN_GAMES: u64 = 500;
/// Games a series needs to be listed.
pub const MIN_SERIES_GAMES: u64 = 200;
/// Players with the most games that the page and `stats`' text list.
pub const TOP_PLAYERS: usize = 20;
/// The width of the rating bands of the calibration table.
pub const CALIBRATION_BAND: u16 = 100;
/// The percentiles of the games' mean rating where the spline bends:
/// Harrell's placement for five knots (Regression Modeling Strategies,
/// 2nd ed., table 2.3), which puts the outer two near the ends, where a
/// straight line would otherwise be carried from the middle.
pub const KNOT_PERCENTILES: [f64; 5] = [0.05, 0.275, 0.5, 0.725, 0.95];
/// Draws, and other results, that each piece of the spline needs: a
/// piece with none of one (no draw among the weakest players' bullet
/// games) would send its slope to infinity, and with a few its slope is
/// noise (ten events a parameter: Peduzzi et al. 1996, doubled since a
/// piece's slope rests on its games alone).
pub const MIN_PIECE_RESULTS: u64 = 20;
/// Covariates are per 100 rating points, the mean rating from 2000.
pub const SCALE: f64 = 100.0;
pub const CENTRE: f64 = 2000.0;
/// The 97.5th percentile of the normal.
const Z95: f64 = 1.959_963_984_540_054;

/// A format: kind of play and speed.
pub type Format = (Play, String);

/// The model's terms, fixed before the fit from the cells' data.
#[derive(Clone, Debug, PartialEq)]
pub struct Specification {
    /// Mean ratings where the spline bends.
    pub knots: Vec<f64>,
    /// The format of the intercept (the one with the most games).
    pub reference: Format,
    /// The other formats, one dummy each.
    pub formats: Vec<Format>,
}

impl Specification {
    /// The covariates of games of mean rating `mean`, gap `gap` and
    /// format `format`.
    pub fn covariates(&self, mean: f64, gap: f64, format: &Format) -> Vec<f64> {
        let m = (mean - CENTRE) / SCALE;
        let g = gap / SCALE;
        let mut x = vec![1.0, m];
        x.extend(self.knots.iter().map(|k| ((mean - k) / SCALE).max(0.0)));
        x.extend([g, g * g]);
        x.extend(
            self.formats
                .iter()
                .map(|f| f64::from(u8::from(f == format))),
        );
        x
    }

    /// The terms' names, in the covariates' order.
    pub fn terms(&self) -> Vec<String> {
        let mut names = vec![
            format!("intercept ({})", format_label(&self.reference)),
            format!("mean rating (per 100, from {CENTRE:.0})"),
        ];
        names.extend(
            self.knots
                .iter()
                .map(|k| format!("mean rating above {k:.0} (per 100)")),
        );
        names.extend(["gap (per 100)".into(), "gap squared (per 100²)".into()]);
        names.extend(
            self.formats
                .iter()
                .map(|f| format!("format: {}", format_label(f))),
        );
        names
    }

    /// The specification in words, for the page and `stats`.
    pub fn formula(&self) -> String {
        let knots: Vec<String> = self.knots.iter().map(|k| format!("{k:.0}")).collect();
        let mut text = format!(
            "logit P(draw) = β₀ + β₁·mean rating + a bend at each knot ({}) + δ₁·gap + δ₂·gap²",
            if knots.is_empty() {
                "none".to_string()
            } else {
                knots.join(", ")
            }
        );
        if !self.formats.is_empty() {
            text.push_str(" + a term per format");
        }
        text.push_str("; no year term");
        text
    }
}

/// "over-the-board classical games".
pub fn format_label((play, speed): &Format) -> String {
    LeadFormat {
        play: Some(*play),
        speed: Some(speed.clone()),
    }
    .label()
}

/// A coefficient with its standard error.
#[derive(Clone, Debug, PartialEq)]
pub struct Coefficient {
    pub term: String,
    pub estimate: f64,
    pub std_error: f64,
}

/// A group of games: observed draws beside the model's expected.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Versus {
    pub games: u64,
    pub draws: u64,
    /// Σ n p over the group's cells.
    pub expected: f64,
    /// Σ n p (1 − p): the variance of the observed draws if the model
    /// holds.
    pub binomial_variance: f64,
    /// Σ n p (1 − p) x: the gradient of the expected draws in the
    /// coefficients, for the delta method.
    gradient: Vec<f64>,
    /// gᵀ V g: the variance of the expected draws from the coefficients'
    /// uncertainty (delta method).
    pub model_variance: f64,
}

impl Versus {
    fn add(&mut self, counts: &CellCounts, p: f64, x: &[f64]) {
        let n = counts.games as f64;
        self.games += counts.games;
        self.draws += counts.draws;
        self.expected += n * p;
        let w = n * p * (1.0 - p);
        self.binomial_variance += w;
        if self.gradient.is_empty() {
            self.gradient = vec![0.0; x.len()];
        }
        for (g, xi) in self.gradient.iter_mut().zip(x) {
            *g += w * xi;
        }
    }

    fn close(&mut self, fit: &Fit) {
        let g = &self.gradient;
        self.model_variance = (0..g.len())
            .map(|i| {
                (0..g.len())
                    .map(|j| g[i] * fit.covariance[i][j] * g[j])
                    .sum::<f64>()
            })
            .sum::<f64>()
            .max(0.0);
    }

    /// Takes games of the group away (games it holds).
    fn subtract(&mut self, counts: &CellCounts, p: f64, x: &[f64]) {
        let n = counts.games as f64;
        self.games = self.games.saturating_sub(counts.games);
        self.draws = self.draws.saturating_sub(counts.draws);
        self.expected -= n * p;
        let w = n * p * (1.0 - p);
        self.binomial_variance -= w;
        for (g, xi) in self.gradient.iter_mut().zip(x) {
            *g -= w * xi;
        }
    }

    /// Adds another group's games (before either is closed: the model's
    /// variance of a union is not the sum of theirs).
    fn join(&mut self, other: &Versus) {
        self.games += other.games;
        self.draws += other.draws;
        self.expected += other.expected;
        self.binomial_variance += other.binomial_variance;
        if self.gradient.is_empty() {
            self.gradient = vec![0.0; other.gradient.len()];
        }
        for (g, o) in self.gradient.iter_mut().zip(&other.gradient) {
            *g += o;
        }
    }

    pub fn observed(&self) -> Proportion {
        Proportion::new(self.draws, self.games)
    }

    pub fn observed_rate(&self) -> Option<f64> {
        self.observed().rate()
    }

    pub fn expected_rate(&self) -> Option<f64> {
        (self.games > 0).then(|| self.expected / self.games as f64)
    }

    /// Observed − expected draws.
    pub fn excess(&self) -> f64 {
        self.draws as f64 - self.expected
    }

    /// The excess draws' 95 % interval: normal, on the observed draws'
    /// binomial variance under the model plus the expected's from the
    /// coefficients.
    pub fn excess_interval(&self) -> (f64, f64) {
        let half = Z95 * (self.binomial_variance + self.model_variance).sqrt();
        (self.excess() - half, self.excess() + half)
    }

    /// The excess as a share of the games, with its interval.
    pub fn excess_rate(&self) -> Option<(f64, f64, f64)> {
        (self.games > 0).then(|| {
            let n = self.games as f64;
            let (lo, hi) = self.excess_interval();
            (self.excess() / n, lo / n, hi / n)
        })
    }

    /// Whether the expected rate lies inside the observed rate's Wilson
    /// interval: the group is well calibrated.
    pub fn calibrated(&self) -> Option<bool> {
        let (lo, hi) = self.observed().wilson95()?;
        let e = self.expected_rate()?;
        Some(lo <= e && e <= hi)
    }
}

/// One cell with the model's probability: what `stats --view expected`
/// lists, so that the fit can be redone elsewhere.
#[derive(Clone, Debug, PartialEq)]
pub struct FittedCell {
    pub format: Format,
    pub key: CellKey,
    pub counts: CellCounts,
    pub probability: f64,
}

/// A player's games against what the model expects of them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerExcess {
    /// The name shown for her (the Players section's).
    pub name: String,
    pub versus: Versus,
}

/// The model, its fit shown, and the excess draws it finds.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectedDraws {
    pub specification: Specification,
    pub coefficients: Vec<Coefficient>,
    /// Rated games and draws the model is fitted on, and in how many cells.
    pub total: Versus,
    pub iterations: usize,
    pub deviance: f64,
    /// Calibration by band of the mean rating ([`CALIBRATION_BAND`] wide,
    /// keyed by its start).
    pub by_band: BTreeMap<u16, Versus>,
    /// Calibration by year, and the excess draws by year.
    pub by_year: BTreeMap<i16, Versus>,
    /// Games without a year: in the fit, in no year.
    pub undated: Versus,
    /// The excess draws of each series of the catalogue with at least
    /// [`MIN_SERIES_GAMES`] rated games.
    pub by_series: BTreeMap<String, Versus>,
    /// Series with fewer games, left out of `by_series`.
    pub series_left_out: usize,
    /// The excess draws of each player kept by name, most games first
    /// (a game counts for both its players).
    pub by_player: Vec<PlayerExcess>,
    /// The game sides (two a game) of no player in `by_player`: unnamed,
    /// or of players folded past the cap.
    pub player_sides_outside: Versus,
    /// Players folded past the cap (of every format): none of them is in
    /// `by_player`.
    pub players_folded: u64,
    pub cells: Vec<FittedCell>,
}

impl ExpectedDraws {
    /// Calibration's summary: (groups whose expected rate lies in the
    /// observed's interval, groups), over the groups with at least
    /// `min_games` games.
    pub fn calibrated_share<'a>(
        groups: impl IntoIterator<Item = &'a Versus>,
        min_games: u64,
    ) -> (usize, usize) {
        let mut within = 0;
        let mut all = 0;
        for v in groups {
            if v.games < min_games {
                continue;
            }
            if let Some(ok) = v.calibrated() {
                all += 1;
                within += usize::from(ok);
            }
        }
        (within, all)
    }
}

/// Why no model was fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NotFitted {
    #[error("{0} rated games, fewer than the {MIN_GAMES} a fit needs")]
    TooFewGames(u64),
    #[error("the fit failed: {0}")]
    Fit(#[from] FitError),
}

/// The expected-draw model of the games of `lead` (every format it holds),
/// fitted on their cells; the players' names and people from `players`
/// (the summary's players of every game, whose identities key the cells).
pub fn expected_draws(
    counts: &ByFormat<DrawCells>,
    lead: &LeadFormat,
    players: &PlayerCounts,
) -> Result<ExpectedDraws, NotFitted> {
    let parts: Vec<(Format, &DrawCells)> = counts
        .parts
        .iter()
        .filter(|((play, speed), _)| lead.holds_format(*play, speed))
        .map(|(format, cells)| (format.clone(), cells))
        .collect();
    let games: u64 = parts
        .iter()
        .flat_map(|(_, c)| c.cells.values())
        .map(|c| c.games)
        .sum();
    if games < MIN_GAMES {
        return Err(NotFitted::TooFewGames(games));
    }
    let specification = specify(&parts);
    let groups: Vec<Group> = parts
        .iter()
        .flat_map(|(format, cells)| {
            let spec = &specification;
            cells.cells.values().map(move |c| Group {
                x: spec.covariates(c.mean_rating(), c.mean_gap(), format),
                trials: c.games as f64,
                successes: c.draws as f64,
            })
        })
        .collect();
    let fit = logit::fit(&groups)?;
    let coefficients = specification
        .terms()
        .into_iter()
        .zip(fit.coefficients.iter().zip(fit.std_errors()))
        .map(|(term, (&estimate, std_error))| Coefficient {
            term,
            estimate,
            std_error,
        })
        .collect();

    let mut total = Versus::default();
    let mut by_band: BTreeMap<u16, Versus> = BTreeMap::new();
    let mut by_year: BTreeMap<i16, Versus> = BTreeMap::new();
    let mut undated = Versus::default();
    let mut by_series: BTreeMap<String, Versus> = BTreeMap::new();
    let mut fitted = Vec::new();
    let mut by_identity: BTreeMap<&String, Versus> = BTreeMap::new();
    let mut player_sides_outside = Versus::default();
    for (format, cells) in &parts {
        // Each cell's probability and covariates, for its players' games.
        let mut of_cell: BTreeMap<&CellKey, (f64, Vec<f64>)> = BTreeMap::new();
        for (key, c) in &cells.cells {
            let x = specification.covariates(c.mean_rating(), c.mean_gap(), format);
            let p = logistic(fit.eta(&x));
            // Both sides of the cell's games, less those of the players
            // below.
            let sides = CellCounts {
                games: 2 * c.games,
                draws: 2 * c.draws,
                ..CellCounts::default()
            };
            player_sides_outside.add(&sides, p, &x);
            total.add(c, p, &x);
            by_band
                .entry(key.mean_bin / CALIBRATION_BAND * CALIBRATION_BAND)
                .or_default()
                .add(c, p, &x);
            match key.year {
                Some(y) => by_year.entry(y).or_default().add(c, p, &x),
                None => undated.add(c, p, &x),
            }
            fitted.push(FittedCell {
                format: format.clone(),
                key: *key,
                counts: *c,
                probability: p,
            });
            of_cell.insert(key, (p, x));
        }
        for (identity, player) in &cells.players {
            let v = by_identity.entry(identity).or_default();
            for (key, &[games, draws]) in &player.0 {
                // A player's game is in its cell: a cell missing would be
                // a corrupt summary, and counts for no one.
                let Some((p, x)) = of_cell.get(key) else {
                    continue;
                };
                let c = CellCounts {
                    games,
                    draws,
                    ..CellCounts::default()
                };
                v.add(&c, *p, x);
                player_sides_outside.subtract(&c, *p, x);
            }
        }
        for ((series, _), c) in &cells.series {
            let x = specification.covariates(c.mean_rating(), c.mean_gap(), format);
            let p = logistic(fit.eta(&x));
            by_series.entry(series.clone()).or_default().add(c, p, &x);
        }
    }
    let listed = by_series.len();
    by_series.retain(|_, v| v.games >= MIN_SERIES_GAMES);
    let series_left_out = listed - by_series.len();
    let mut by_player = people(by_identity, players);
    player_sides_outside.binomial_variance = player_sides_outside.binomial_variance.max(0.0);
    for v in std::iter::once(&mut total)
        .chain(std::iter::once(&mut undated))
        .chain(std::iter::once(&mut player_sides_outside))
        .chain(by_player.iter_mut().map(|p| &mut p.versus))
        .chain(by_band.values_mut())
        .chain(by_year.values_mut())
        .chain(by_series.values_mut())
    {
        v.close(&fit);
    }
    Ok(ExpectedDraws {
        specification,
        coefficients,
        total,
        iterations: fit.iterations,
        deviance: fit.deviance,
        by_band,
        by_year,
        undated,
        by_series,
        series_left_out,
        by_player,
        player_sides_outside,
        players_folded: players.folded_players,
        cells: fitted,
    })
}

/// The players' groups of games joined into people as the Players section
/// joins their identities (an identity `players` does not know stands
/// alone, under its key), most games first, then by name.
fn people(by_identity: BTreeMap<&String, Versus>, players: &PlayerCounts) -> Vec<PlayerExcess> {
    let people = people_of_identities(players);
    let mut joined: BTreeMap<String, PlayerExcess> = BTreeMap::new();
    for (identity, v) in by_identity {
        let (person, name) = people
            .get(identity)
            .cloned()
            .unwrap_or_else(|| (identity.clone(), identity.clone()));
        joined
            .entry(person)
            .or_insert_with(|| PlayerExcess {
                name,
                versus: Versus::default(),
            })
            .versus
            .join(&v);
    }
    let mut out: Vec<PlayerExcess> = joined
        .into_values()
        .filter(|p| p.versus.games > 0)
        .collect();
    out.sort_by(|a, b| {
        b.versus
            .games
            .cmp(&a.versus.games)
            .then_with(|| a.name.cmp(&b.name))
    });
    out
}

/// The terms: knots at the percentiles of the games' mean rating, kept
/// only where every piece of the spline holds enough of both results
/// ([`MIN_PIECE_RESULTS`]), and a dummy for each format beside the largest.
fn specify(parts: &[(Format, &DrawCells)]) -> Specification {
    let mut by_mean: Vec<(f64, &CellCounts)> = parts
        .iter()
        .flat_map(|(_, c)| c.cells.values())
        .filter(|c| c.games > 0)
        .map(|c| (c.mean_rating(), c))
        .collect();
    by_mean.sort_by(|a, b| a.0.total_cmp(&b.0));
    let games: u64 = by_mean.iter().map(|&(_, c)| c.games).sum();
    let mut candidates: Vec<f64> = Vec::new();
    for q in KNOT_PERCENTILES {
        let target = q * games as f64;
        let mut seen = 0u64;
        let Some(&(m, _)) = by_mean.iter().find(|&&(_, c)| {
            seen += c.games;
            seen as f64 >= target
        }) else {
            continue;
        };
        // On the bins' grid, so that the knots read as ratings.
        let knot = (m / f64::from(cells::BIN_WIDTH)).round() * f64::from(cells::BIN_WIDTH);
        if candidates.last().is_none_or(|&last| knot > last) {
            candidates.push(knot);
        }
    }
    // Draws and other results between two mean ratings.
    let results = |from: f64, to: f64| -> (u64, u64) {
        by_mean
            .iter()
            .filter(|&&(m, _)| from <= m && m < to)
            .fold((0, 0), |(d, o), &(_, c)| {
                (d + c.draws, o + c.games - c.draws)
            })
    };
    let enough = |(draws, others): (u64, u64)| draws.min(others) >= MIN_PIECE_RESULTS;
    // From the bottom, a knot is kept when the piece below it is full
    // enough; then the last knots go until the piece above them is.
    let mut knots: Vec<f64> = Vec::new();
    for knot in candidates {
        let from = knots.last().copied().unwrap_or(f64::NEG_INFINITY);
        if enough(results(from, knot)) {
            knots.push(knot);
        }
    }
    while let Some(&last) = knots.last() {
        if enough(results(last, f64::INFINITY)) {
            break;
        }
        knots.pop();
    }
    let mut format_games: Vec<(Format, u64)> = parts
        .iter()
        .map(|(f, c)| (f.clone(), c.cells.values().map(|c| c.games).sum()))
        .filter(|&(_, n)| n > 0)
        .collect();
    format_games.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let reference = format_games
        .first()
        .map(|(f, _)| f.clone())
        .unwrap_or((Play::Unknown, String::new()));
    Specification {
        knots,
        formats: format_games.into_iter().skip(1).map(|(f, _)| f).collect(),
        reference,
    }
}

#[cfg(test)]
mod tests;
