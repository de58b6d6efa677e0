//! Expected draws from the players' ratings: the model
//! (`analysis::expected`), its calibration, and the excess draws by year,
//! by series and by player.

use super::*;
use crate::analysis::expected::{
    CALIBRATION_BAND, ExpectedDraws, MIN_PIECE_RESULTS, MIN_SERIES_GAMES, NotFitted, TOP_PLAYERS,
    Versus,
};

/// Groups with fewer games are left out of the calibration's tally (a
/// Wilson interval of a handful of games holds anything).
const CALIBRATION_MIN_GAMES: u64 = MIN_CELL_GAMES;

/// A share as signed percentage points: `+2.1`, and `0.0` for what rounds
/// to none (not `-0.0`).
fn points(v: f64) -> String {
    let tenths = (v * 1000.0).round();
    if tenths == 0.0 {
        "0.0".into()
    } else {
        format!("{:+.1}", tenths / 10.0)
    }
}

/// Games, signed: `+22`, `-35`, and `0` for what rounds to none.
fn signed_games(v: f64) -> String {
    let games = v.round();
    if games == 0.0 {
        "0".into()
    } else {
        format!("{games:+.0}")
    }
}

/// The expected-draw section: a caption with the specification, the
/// observed and expected rate by year (chart, table), calibration by
/// band, the coefficients, and the excess by series.
pub fn expected_section(
    h: &mut String,
    model: &Result<ExpectedDraws, NotFitted>,
) -> anyhow::Result<()> {
    h.push_str("<section id=\"expected\">\n<h2>Expected draws from ratings</h2>\n");
    let model = match model {
        Ok(model) => model,
        Err(why) => {
            let _ = writeln!(
                h,
                "<p class=\"caption\">No model: {}.</p>\n</section>",
                escape(&why.to_string())
            );
            return Ok(());
        }
    };
    let (bands_ok, bands) =
        ExpectedDraws::calibrated_share(model.by_band.values(), CALIBRATION_MIN_GAMES);
    let (years_ok, years) =
        ExpectedDraws::calibrated_share(model.by_year.values(), CALIBRATION_MIN_GAMES);
    let _ = writeln!(
        h,
        "<p class=\"caption\">How many draws would these players' ratings lead us to expect? A logistic regression \
         of the draw on the mean rating of the two players (a linear spline, bending at the 5th, 27.5th, 50th, 72.5th \
         and 95th percentiles of the games' mean rating where each piece keeps at least {MIN_PIECE_RESULTS} draws \
         and as many other results), the rating gap and its square{}, fitted by maximum \
         likelihood (IRLS) to {} rated games in {} cells of like games (50-point bins of the mean rating and of \
         the gap, by year). Logistic, not a rate per cell: smooth in the rating, so a sparse cell borrows strength \
         from its neighbours, and its probabilities stay between 0 and 1. <strong>The year is left out on \
         purpose</strong>: a year's expected draws are those of its players' ratings and gaps, so the excess \
         (observed − expected) is the change the ratings do not explain. Specification: {}. Event type is not in \
         the table's columns, so not in the model; colour is not a covariate (a draw is one result for both \
         colours).</p>",
        if model.specification.formats.is_empty() {
            ""
        } else {
            ", and a term for each format"
        },
        thousands(model.total.games),
        thousands(model.cells.len() as u64),
        escape(&model.specification.formula()),
    );
    let _ = writeln!(
        h,
        "<p class=\"caption\"><strong>Calibration.</strong> The expected rate lies inside the observed rate's 95% \
         interval in {bands_ok} of {bands} rating bands and {years_ok} of {years} years with at least \
         {CALIBRATION_MIN_GAMES} games. A year outside is not a misfit of the model: it is a year whose draws \
         the ratings do not explain, which is what the excess measures.</p>"
    );
    by_year(h, model)?;
    by_band(h, model);
    coefficients(h, model);
    by_series(h, model);
    by_player(h, model);
    h.push_str("</section>\n");
    Ok(())
}

/// The observed and expected rate of each year, as a chart, and the
/// excess draws as a table.
fn by_year(h: &mut String, model: &ExpectedDraws) -> anyhow::Result<()> {
    use plotters::style::RGBColor;
    let observed = charts::YearSeries {
        label: "observed".into(),
        color: RGBColor(0x2f, 0x5d, 0x8a),
        dash: false,
        points: model
            .by_year
            .iter()
            .filter(|(_, v)| v.games >= MIN_CELL_GAMES)
            .filter_map(|(&y, v)| {
                let (lo, hi) = v.observed().wilson95()?;
                Some((y, (v.observed_rate()?, lo, hi)))
            })
            .collect(),
    };
    let expected = charts::YearSeries {
        label: "expected from the ratings".into(),
        color: RGBColor(0x55, 0x55, 0x55),
        dash: true,
        points: model
            .by_year
            .iter()
            .filter(|(_, v)| v.games >= MIN_CELL_GAMES)
            .filter_map(|(&y, v)| {
                let e = v.expected_rate()?;
                let half = 1.96 * v.model_variance.sqrt() / v.games as f64;
                Some((y, (e, e - half, e + half)))
            })
            .collect(),
    };
    let svg = charts::year_series(
        &[observed, expected],
        &|y| y,
        (
            "chart-expected",
            "Draw rate by year, observed and expected from the ratings",
            "Line chart: the observed draw rate of the rated games by year (solid blue, shaded 95 percent \
             Wilson interval) and the rate the model expects from the same games' ratings (dashed grey), from \
             0 to {top}. The gap between the lines is the excess; the table below gives every number.",
        ),
    )?;
    let _ = writeln!(
        h,
        "<h3 id=\"expected-by-year\">Excess draws by year</h3>\n<p class=\"caption\">Each year's observed draws \
         beside those the model expects from its games' ratings, and the excess in games and per hundred games \
         (percentage points). The excess's interval is normal, on the observed draws' binomial variance under \
         the model plus the expected draws' variance from the coefficients (delta method). Like the page's other \
         intervals it treats games as independent: a year's games share players and events, so it is too narrow \
         for claims beyond these games (Methods, Independence). Years with fewer than {MIN_CELL_GAMES} games are \
         left out of the chart.</p>"
    );
    if !svg.is_empty() {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    let mut table = versus_table(
        "excess-draws-by-year.csv",
        Col::Both("Year", "year"),
        Some("expected-years"),
    );
    for (&year, v) in &model.by_year {
        versus_row(&mut table, &year.to_string(), v);
    }
    if model.undated.games > 0 {
        versus_row(&mut table, "no year", &model.undated);
    }
    table.finish(h);
    Ok(())
}

/// A table of groups of games, observed against expected.
fn versus_table<'a>(file: &'a str, first: Col<'a>, id: Option<&'a str>) -> PageTable<'a> {
    PageTable::with_layout(
        file,
        &[
            first,
            Col::Both("Games", "games"),
            Col::Csv("draws"),
            Col::Both("Observed draw rate", "observed_rate"),
            Col::Page("95% interval"),
            Col::Csv("observed_ci95_low"),
            Col::Csv("observed_ci95_high"),
            Col::Both("Expected draw rate", "expected_rate"),
            Col::Csv("expected_draws"),
            Col::Both("Excess draws", "excess_draws"),
            Col::Both("Excess (points per 100 games)", "excess_rate"),
            Col::Page("95% interval"),
            Col::Csv("excess_ci95_low"),
            Col::Csv("excess_ci95_high"),
        ],
        Layout {
            id,
            ..Layout::wide()
        },
    )
}

fn versus_row(table: &mut PageTable, label: &str, v: &Versus) {
    let observed = v.observed();
    let (olo, ohi) = observed
        .wilson95()
        .map_or((String::new(), String::new()), |(l, h)| {
            (format!("{l:.4}"), format!("{h:.4}"))
        });
    let (rate, lo, hi) = v.excess_rate().unwrap_or((0.0, 0.0, 0.0));
    let small = v.games < MIN_CELL_GAMES;
    let class = if small { " class=\"small\"" } else { "" };
    let cells = format!(
        "<td class=\"l\">{}</td><td>{}</td><td{class}>{}</td><td{class}>{}</td><td{class}>{}</td>\
         <td{class}>{}</td><td{class}>{}</td><td{class}>{} to {}</td>",
        escape(label),
        thousands(v.games),
        pct(v.observed_rate()),
        interval(&observed),
        pct(v.expected_rate()),
        signed_games(v.excess()),
        points(rate),
        points(lo),
        points(hi),
    );
    table.row_markup(
        "",
        &cells,
        vec![
            label.to_string(),
            v.games.to_string(),
            v.draws.to_string(),
            v.observed_rate()
                .map_or(String::new(), |r| format!("{r:.4}")),
            olo,
            ohi,
            v.expected_rate()
                .map_or(String::new(), |r| format!("{r:.4}")),
            format!("{:.2}", v.expected),
            format!("{:.2}", v.excess()),
            format!("{rate:.4}"),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
        ],
    );
}

/// Calibration by band of the mean rating.
fn by_band(h: &mut String, model: &ExpectedDraws) {
    let _ = writeln!(
        h,
        "<h3 id=\"expected-by-band\">Calibration by rating</h3>\n<p class=\"caption\">Observed and expected draw \
         rates by {CALIBRATION_BAND}-point band of the players' mean rating (every gap). A model that fits \
         shows the expected rate inside the observed's interval band by band; the years, left out of the model, \
         are the excess's to explain.</p>"
    );
    let mut table = versus_table(
        "expected-draws-by-band.csv",
        Col::Both("Mean rating", "mean_rating"),
        None,
    );
    for (&band, v) in &model.by_band {
        versus_row(
            &mut table,
            &format!("{band}–{}", band + CALIBRATION_BAND - 1),
            v,
        );
    }
    table.finish(h);
}

/// The coefficients with their standard errors.
fn coefficients(h: &mut String, model: &ExpectedDraws) {
    let _ = writeln!(
        h,
        "<h3 id=\"expected-model\">The model</h3>\n<p class=\"caption\">Coefficients on the log-odds scale, with \
         standard errors from the inverse Fisher information; {} Newton steps, residual deviance {:.1} on {} \
         cells. A spline term is the change of slope past its knot.</p>",
        model.iterations,
        model.deviance,
        thousands(model.cells.len() as u64)
    );
    let mut table = PageTable::new(
        "expected-draws-model.csv",
        &[
            Col::Both("Term", "term"),
            Col::Both("Estimate", "estimate"),
            Col::Both("Standard error", "std_error"),
        ],
    );
    for c in &model.coefficients {
        table.row(
            &[
                escape(&c.term),
                format!("{:+.4}", c.estimate),
                format!("{:.4}", c.std_error),
            ],
            vec![
                c.term.clone(),
                format!("{:.8}", c.estimate),
                format!("{:.8}", c.std_error),
            ],
        );
    }
    table.finish(h);
}

/// The excess draws of each series of the catalogue.
fn by_series(h: &mut String, model: &ExpectedDraws) {
    if model.by_series.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h3 id=\"expected-by-series\">Excess draws by event series</h3>\n<p class=\"caption\">The rated games of \
         each series of the rule catalogue with at least {MIN_SERIES_GAMES} of them ({} smaller series left \
         out), against what their ratings predict. A series is many editions of few players: its games are not \
         independent, so its interval, from the binomial variance, is too narrow, and the rule study's estimates \
         are the ones to read for rules.</p>",
        model.series_left_out
    );
    let mut table = versus_table(
        "excess-draws-by-series.csv",
        Col::Both("Series", "series"),
        None,
    );
    let mut series: Vec<(&String, &Versus)> = model.by_series.iter().collect();
    series.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(b.0)));
    for (name, v) in series {
        versus_row(&mut table, name, v);
    }
    table.finish(h);
}

/// The excess draws of the players with the most rated games.
fn by_player(h: &mut String, model: &ExpectedDraws) {
    if model.by_player.is_empty() {
        return;
    }
    let outside = &model.player_sides_outside;
    let _ = writeln!(
        h,
        "<h3 id=\"expected-by-player\">Excess draws by player</h3>\n<p class=\"caption\">The {} players with \
         the most rated games (of {} kept by name), each game against what the model expects from her rating and \
         her opponent's (the probability of the game's cell), over both colours; players are told apart and \
         joined as in the Players section. A game counts for both its players. {} The interval is the series' (binomial variance under the model plus the \
         coefficients'): it says whether her draws stand apart from what her games' ratings predict, in these \
         games; it treats them as independent, and a player's style, events and era all go into her excess.</p>",
        model.by_player.len().min(TOP_PLAYERS),
        thousands(model.by_player.len() as u64),
        if outside.games == 0 {
            format!(
                "Every one of the {} game sides (two a game) is a kept player's.",
                thousands(2 * model.total.games)
            )
        } else {
            format!(
                "{} of the {} game sides (two a game) belong to no player kept: unnamed, or of the {} players \
                 with the fewest games folded past the Players section's cap.",
                thousands(outside.games),
                thousands(2 * model.total.games),
                thousands(model.players_folded),
            )
        },
    );
    let mut table = versus_table(
        "excess-draws-by-player.csv",
        Col::Both("Player", "player"),
        None,
    );
    for player in model.by_player.iter().take(TOP_PLAYERS) {
        versus_row(&mut table, &player.name, &player.versus);
    }
    table.finish(h);
}
