//! Report sections for the analyses beyond the draw rate: outcomes and
//! White's score, the rating gap, openings, time classes and clocks. Each
//! takes plain data from `analysis` and writes HTML.

use std::fmt::Write;

use super::charts::{self, Line};
use super::escape;
use super::html::{csv_download, heat_cell, interval, pct, share_cells, thousands};
use crate::analysis::draws::MIN_CELL_GAMES;
use crate::analysis::games::{
    self, Clocks, FormatCounts, Openings, RatingGap, RatingSystem, TimeClasses, clock_label,
    gap_label,
};
use crate::analysis::outcomes::{OutcomeCounts, Outcomes};
use crate::study::{Band, BandScheme, Proportion};
use std::collections::BTreeMap;

fn score(c: &OutcomeCounts) -> String {
    c.white_score().map_or("–".into(), |(s, lo, hi)| {
        format!("{:.3} ({:.3}–{:.3})", s, lo, hi)
    })
}

fn expected(c: &OutcomeCounts) -> String {
    c.expected_white_score()
        .map_or("–".into(), |e| format!("{e:.3}"))
}

fn share_cell(p: &Proportion) -> String {
    format!(
        "<td title=\"95% interval {}\">{}</td>",
        interval(p),
        pct(p.rate())
    )
}

/// Win / draw / loss and White's score by band, observed and expected.
pub fn outcomes(
    h: &mut String,
    o: &Outcomes,
    scheme: &BandScheme,
    systems: &BTreeMap<RatingSystem, u64>,
) -> anyhow::Result<()> {
    let bands: Vec<Band> = o
        .by_band
        .iter()
        .filter(|(b, c)| c.games() >= MIN_CELL_GAMES && **b != Band::Unrated)
        .map(|(&b, _)| b)
        .collect();
    let glicko = systems.keys().any(|s| *s != RatingSystem::Elo);
    let labels: Vec<String> = bands
        .iter()
        .map(|&b| charts::short_label(scheme, b))
        .collect();
    let observed = Line {
        label: "White's score (observed)".into(),
        points: bands.iter().map(|b| o.by_band[b].white_score()).collect(),
        dashed: false,
    };
    let predicted = Line {
        label: "Expected from ratings (FIDE 8.1(b))".into(),
        points: bands
            .iter()
            .map(|b| o.by_band[b].expected_white_score().map(|e| (e, e, e)))
            .collect(),
        dashed: true,
    };
    let svg = charts::lines_by_category(
        "chart-score",
        "White's score by rating band, observed and expected",
        "Line chart: White's mean score per game in each rating band (a win 1, a draw one half), \
         with 95 percent intervals, and the score expected from the players' rating difference \
         by FIDE's table 8.1(b), dashed.",
        &labels,
        &[observed, predicted],
        ("Rating band", "White's score"),
        false,
    )?;
    let _ = write!(
        h,
        "<section id=\"outcomes\">\n<h2>Wins, draws and losses</h2>\n<p class=\"caption\">White's wins, draws and \
         Black's wins in each band; White's score (a win 1, a draw ½) with a 95% interval, next to the score the \
         rating difference predicts by the FIDE rating regulations' table 8.1(b) (differences over 400 count as \
         400), averaged over the band's rated games. Bands with fewer than {MIN_CELL_GAMES} games are left out of \
         the chart and greyed in the table.{}</p>\n<figure>{svg}</figure>\n\
         <table><tr><th class=\"l\">Band</th><th>Games</th><th>White wins</th><th>Draws</th><th>Black wins</th>\
         <th>White's score (95%)</th><th>Expected</th></tr>",
        if glicko {
            " Table 8.1(b) is FIDE's table for Elo ratings; for these online Glicko ratings the expected score is \
             indicative only (Glicko-2 predicts with its own formula, which needs the rating deviations)."
        } else {
            " Table 8.1(b) applies to Elo ratings, as these are."
        }
    );
    let mut csv = Vec::new();
    let rows = o
        .by_band
        .iter()
        .map(|(&b, c)| (scheme.label(b), c))
        .chain(std::iter::once(("All".to_string(), &o.overall)));
    for (label, c) in rows {
        let (s, lo, hi) = c.white_score().map_or(
            (String::new(), String::new(), String::new()),
            |(s, l, h)| (format!("{s:.4}"), format!("{l:.4}"), format!("{h:.4}")),
        );
        csv.push(vec![
            label.clone(),
            c.games().to_string(),
            c.white_wins.to_string(),
            c.draws.to_string(),
            c.black_wins.to_string(),
            s,
            lo,
            hi,
            c.expected_white_score()
                .map_or(String::new(), |e| format!("{e:.4}")),
        ]);
        let small = if c.games() < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        let _ = write!(
            h,
            "<tr{small}><td class=\"l\">{}</td><td>{}</td>{}{}{}<td>{}</td><td>{}</td></tr>",
            escape(&label),
            thousands(c.games()),
            share_cell(&c.white_win_share()),
            share_cell(&c.draw_share()),
            share_cell(&c.black_win_share()),
            score(c),
            expected(c)
        );
    }
    h.push_str("</table>\n");
    h.push_str(&csv_download(
        "outcomes-by-band.csv",
        &[
            "band",
            "games",
            "white_wins",
            "draws",
            "black_wins",
            "white_score",
            "ci95_low",
            "ci95_high",
            "expected_score",
        ],
        &csv,
    ));
    // By band and year, as a compact table of White's score.
    let years: Vec<i16> = {
        let mut y: Vec<i16> = o.by_band_year.keys().map(|&(_, y)| y).collect();
        y.sort_unstable();
        y.dedup();
        y
    };
    if years.len() > 1 {
        let _ = write!(
            h,
            "<details><summary>White's score by band and year</summary><div class=\"wide\"><table><tr><th class=\"l\">Band</th>"
        );
        for y in &years {
            let _ = write!(h, "<th>{y}</th>");
        }
        h.push_str("</tr>");
        for &band in o.by_band.keys() {
            let _ = write!(
                h,
                "<tr><th class=\"l\">{}</th>",
                escape(&scheme.label(band))
            );
            for y in &years {
                match o.by_band_year.get(&(band, *y)) {
                    Some(c) if c.games() > 0 => {
                        let (s, lo, hi) = c.white_score().unwrap_or((0.0, 0.0, 0.0));
                        let class = if c.games() < MIN_CELL_GAMES {
                            " class=\"small\""
                        } else {
                            ""
                        };
                        let _ = write!(
                            h,
                            "<td{class} title=\"95% interval {lo:.3}–{hi:.3}; expected {}\">{s:.2}<br>n={}</td>",
                            expected(c),
                            c.games()
                        );
                    }
                    _ => h.push_str("<td></td>"),
                }
            }
            h.push_str("</tr>");
        }
        h.push_str("</table></div></details>\n");
    }
    h.push_str("</section>\n");
    Ok(())
}

/// Draw rate by mean rating × rating gap, as a heat table.
pub fn rating_gap(h: &mut String, gap: &RatingGap, scheme: &BandScheme) {
    let bins = games::GAP_EDGES.len() + 1;
    let bands: Vec<Band> = {
        let mut b: Vec<Band> = gap.cells.keys().map(|&(band, _)| band).collect();
        b.sort();
        b.dedup();
        b
    };
    let sampled: u64 = gap.systems.values().sum();
    let systems: Vec<String> = gap
        .systems
        .iter()
        .map(|(s, n)| {
            format!(
                "{} ({}%)",
                s.label(),
                (100 * n).checked_div(sampled).unwrap_or(0)
            )
        })
        .collect();
    let lichess = gap.systems.contains_key(&RatingSystem::LichessGlicko2)
        || gap.systems.contains_key(&RatingSystem::ChessComGlicko);
    let _ = write!(
        h,
        "<section id=\"rating-gap\">\n<h2>Draw rate by rating and rating gap</h2>\n<p class=\"caption\">Rows: the mean \
         rating of the two players; columns: the difference between them. After Jeff Sonas's ChessBase series and \
         chess-db's draw-rate table, which show the draw rate rising with strength and falling with the gap. \
         Ratings: {}.{} Cells with fewer than {MIN_CELL_GAMES} games are greyed.</p>\n<div class=\"wide\"><table>\
         <tr><th class=\"l\">Mean rating</th>",
        escape(&systems.join(", ")),
        if lichess {
            " Online Glicko ratings run on another scale than FIDE Elo; compare shapes, not levels."
        } else {
            ""
        }
    );
    for bin in 0..bins {
        let _ = write!(h, "<th>gap {}</th>", gap_label(bin));
    }
    h.push_str("</tr>\n");
    let mut csv = Vec::new();
    for &band in &bands {
        let _ = write!(
            h,
            "<tr><th class=\"l\">{}</th>",
            escape(&scheme.label(band))
        );
        for bin in 0..bins {
            if let Some(p) = gap.cells.get(&(band, bin)) {
                let mut row = vec![scheme.label(band), gap_label(bin)];
                row.extend(share_cells(p));
                csv.push(row);
            }
            match gap.cells.get(&(band, bin)) {
                None => h.push_str("<td></td>"),
                Some(p) if p.n < MIN_CELL_GAMES => {
                    let _ = write!(h, "<td class=\"small\">{}<br>n={}</td>", pct(p.rate()), p.n);
                }
                Some(p) => heat_cell(h, p),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table></div>\n");
    h.push_str(&csv_download(
        "draw-rate-by-rating-and-gap.csv",
        &[
            "mean_rating",
            "gap",
            "games",
            "draws",
            "draw_rate",
            "ci95_low",
            "ci95_high",
        ],
        &csv,
    ));
    // The same as lines: the largest mean-rating bands across the gap.
    let mut charted: Vec<Band> = bands
        .iter()
        .copied()
        .filter(|b| {
            (0..bins)
                .filter(|bin| {
                    gap.cells
                        .get(&(*b, *bin))
                        .is_some_and(|p| p.n >= MIN_CELL_GAMES)
                })
                .count()
                >= 2
        })
        .collect();
    let size = |b: &Band| -> u64 {
        (0..bins)
            .filter_map(|bin| gap.cells.get(&(*b, bin)))
            .map(|p| p.n)
            .sum()
    };
    charted.sort_by_key(|b| std::cmp::Reverse(size(b)));
    charted.truncate(6);
    charted.sort();
    let labels: Vec<String> = (0..bins).map(gap_label).collect();
    let lines: Vec<Line> = charted
        .iter()
        .map(|band| Line {
            label: format!("mean {}", scheme.label(*band)),
            points: (0..bins)
                .map(|bin| charts::rate_point(gap.cells.get(&(*band, bin))))
                .collect(),
            dashed: false,
        })
        .collect();
    if let Ok(svg) = charts::lines_by_category(
        "chart-gap",
        "Draw rate by rating gap, for the largest mean-rating bands",
        "Line chart: draw rate against the rating difference of the players, one line per band of \
         their mean rating (ordered colours, low to high), with 95 percent intervals.",
        &labels,
        &lines,
        ("Rating gap |White − Black|", "Draw rate"),
        true,
    ) && !svg.is_empty()
    {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    h.push_str("</section>\n");
}

fn opening_table(h: &mut String, title: &str, groups: &[games::OpeningGroup]) {
    if groups.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<h3>{}</h3><table><tr><th class=\"l\">Opening</th><th>Games</th><th>Draw rate</th><th>95% interval</th>\
         <th class=\"l\">Most common draw types</th></tr>",
        escape(title)
    );
    for g in groups {
        let mut kinds: Vec<(&String, &u64)> =
            g.draw_types.iter().filter(|(_, n)| **n > 0).collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1));
        let kinds: Vec<String> = kinds
            .iter()
            .take(3)
            .map(|(k, n)| format!("{} {}", k.replace('_', " "), n))
            .collect();
        let class = if g.draws.n < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        let _ = write!(
            h,
            "<tr{class}><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            escape(&g.name),
            thousands(g.draws.n),
            pct(g.draws.rate()),
            interval(&g.draws),
            escape(&kinds.join(", "))
        );
    }
    h.push_str("</table>\n");
}

/// Draw rate and draw types of the largest opening groups.
pub fn openings(h: &mut String, o: &Openings) {
    if o.by_eco.is_empty() && o.by_name.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<section id=\"openings\">\n<h2>Draws by opening</h2>\n<p class=\"caption\">The largest groups of games by \
         ECO code and, where the games carry an <code>Opening</code> tag (lichess), by opening name: draw rate \
         with its 95% interval, and the draw types most often seen. Groups with fewer than {MIN_CELL_GAMES} games \
         are greyed.</p>\n"
    );
    opening_table(h, "By ECO code", &o.by_eco);
    opening_table(h, "By opening name", &o.by_name);
    h.push_str("</section>\n");
}

/// Draw rate by band for each time class: small multiples as lines.
pub fn time_classes(
    h: &mut String,
    t: &TimeClasses,
    format: &FormatCounts,
    scheme: &BandScheme,
) -> anyhow::Result<()> {
    if t.by_class.len() < 2 {
        return Ok(());
    }
    let bands: Vec<Band> = {
        let mut b: Vec<Band> = t
            .by_class_band
            .iter()
            .filter(|((_, band), p)| p.n >= MIN_CELL_GAMES && *band != Band::Unrated)
            .map(|((_, band), _)| *band)
            .collect();
        b.sort();
        b.dedup();
        b
    };
    let labels: Vec<String> = bands
        .iter()
        .map(|&b| charts::short_label(scheme, b))
        .collect();
    let mut classes: Vec<String> = t.by_class.keys().cloned().collect();
    charts::class_order(&mut classes);
    let lines: Vec<Line> = classes
        .iter()
        .map(|class| Line {
            label: format!("{class} (n={})", t.by_class[class].n),
            points: bands
                .iter()
                .map(|b| charts::rate_point(t.by_class_band.get(&(class.clone(), *b))))
                .collect(),
            dashed: false,
        })
        .collect();
    let svg = charts::lines_by_category(
        "chart-time-class",
        "Draw rate by rating band for each time class",
        "Line chart: one line per time class (bullet, blitz, rapid, classical), draw rate by rating band \
         with 95 percent intervals; bands with fewer than 30 games of a class are left out of its line.",
        &labels,
        &lines,
        ("Rating band", "Draw rate"),
        false,
    )?;
    let _ = write!(
        h,
        "<section id=\"time-classes\">\n<h2>Draws by time control</h2>\n<p class=\"caption\">The time class comes from \
         the <code>TimeControl</code> tag (lichess's limits on base + 40 × increment), else from the event's name. \
         One line per class.</p>\n<figure>{svg}</figure>\n<table><tr><th class=\"l\">Time class</th><th>Games</th>\
         <th>Draw rate</th><th>95% interval</th></tr>"
    );
    let mut csv = Vec::new();
    for class in &classes {
        let p = &t.by_class[class];
        let mut row = vec![class.clone()];
        row.extend(share_cells(p));
        csv.push(row);
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(class),
            thousands(p.n),
            pct(p.rate()),
            interval(p)
        );
    }
    h.push_str("</table>\n");
    h.push_str(&csv_download(
        "draw-rate-by-time-class.csv",
        &[
            "time_class",
            "games",
            "draws",
            "draw_rate",
            "ci95_low",
            "ci95_high",
        ],
        &csv,
    ));
    let mix = charts::draw_mix_by_class(format)?;
    if !mix.is_empty() {
        let _ = writeln!(
            h,
            "<figure>{mix}</figure>\n<p class=\"caption\">How the draws of each time class happened: \
             faster play draws more by repetition and on time against a lone king, slower play by agreement.</p>"
        );
    }
    h.push_str("</section>\n");
    Ok(())
}

/// What the clocks showed when a draw was agreed or a flag fell.
pub fn clocks(h: &mut String, c: &Clocks) {
    let agreed: u64 = c.agreed_lower_clock.values().sum();
    let flags: u64 = c.flag_winner_clock.values().sum();
    if agreed + flags == 0 {
        return;
    }
    let _ = write!(
        h,
        "<section id=\"clocks\">\n<h2>Clocks at the end</h2>\n<p class=\"caption\">From the <code>[%clk]</code> \
         comments (lichess, chess.com): for agreed draws the lower of the two clocks after each side's last move; \
         for games lost on time the winner's clock. {} agreed draws and {} losses on time had no clock.</p>\n\
         <table><tr><th class=\"l\">Clock</th><th>Agreed draws</th><th>Share</th><th>Won on time</th><th>Share</th></tr>",
        thousands(c.agreed_without_clock),
        thousands(c.flag_without_clock)
    );
    for bin in 0..=games::CLOCK_EDGES.len() {
        let a = c.agreed_lower_clock.get(&bin).copied().unwrap_or(0);
        let f = c.flag_winner_clock.get(&bin).copied().unwrap_or(0);
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&clock_label(bin)),
            thousands(a),
            pct(Proportion::new(a, agreed).rate()),
            thousands(f),
            pct(Proportion::new(f, flags).rate())
        );
    }
    h.push_str("</table>\n</section>\n");
}

/// What the rule study's estimates mean, in words (report and `remis sofia`).
pub const RULE_STUDY_MEANING: &str = "Event editions played under a rule against draws (no draw offers, \
no draw offers before move N, 3-1-0 scoring, armageddon after a draw), from the sourced catalogue, against \
editions without one; the filters above apply to both, and rapid, blitz, blindfold and simul events are left \
out by name. Each estimate is a difference in the share of games (in percentage points): rule minus control. \
“Raw” compares all games; “strength-adjusted” compares games of the same rating band (Mantel–Haenszel \
weights), so that stronger fields under the rule do not pass for an effect of it. For a series that changed \
its rules, the difference in differences is its change between editions with and without the rule, minus the \
controls' change over the same years. Intervals are 95% percentile intervals from 1,000 bootstrap resamples \
of event editions, because games of one edition are not independent; they are missing where a group has a \
single edition.";

/// What the rule study cannot show, in words.
pub const RULE_STUDY_LIMITS: &str = "These are comparisons of events that chose their rules, not an \
experiment: organisers who adopt anti-draw rules also invite fighting players, change time controls or \
scoring at the same time, and the controls are whatever comparable events the catalogue lists. A before/after \
change within a series can coincide with other changes (the 2008 Olympiad also moved to match points). The \
data may be a player collection rather than complete events: then only the games of profiled players are \
present (see the coverage of each edition), which favours strong boards in team and Swiss events.";

fn effect_cell(e: Option<&crate::analysis::rule_study::Effect>) -> String {
    super::text::effect_parts(e).map_or_else(
        || "–".into(),
        |(estimate, interval)| format!("{estimate} <small>{interval}</small>"),
    )
}

/// Games and shares by regime, with the draw types among draws.
pub fn rule_study_regimes(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    use crate::analysis::rule_study::Measure;
    use remis_core::rules::DrawType;
    let limits = study.short_limits;
    h.push_str("<div class=\"wide\"><table><tr><th class=\"l\">Regime</th><th>Games</th>");
    for m in Measure::all() {
        let _ = write!(h, "<th>{}</th>", escape(&m.label(limits)));
    }
    h.push_str(
        "<th>Mean length of draws</th><th>Draws by agreement</th><th>Draws by repetition</th></tr>",
    );
    let rule = study.rule_games();
    let rows = study
        .regimes
        .iter()
        .map(|(r, g)| (r.label().to_string(), g))
        .chain(std::iter::once(("All rule editions".to_string(), &rule)));
    for (label, g) in rows {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td>",
            escape(&label),
            thousands(g.games)
        );
        for m in Measure::all() {
            let p = g.share(m);
            let _ = write!(
                h,
                "<td>{} <small>({})</small></td>",
                pct(p.rate()),
                interval(&p)
            );
        }
        let mean = g.mean_draw_moves().map_or("–".into(), |(m, lo, hi)| {
            format!("{m:.1} <small>({lo:.1}–{hi:.1})</small>")
        });
        let repetition = {
            let three = g.draw_type_share(DrawType::ThreefoldRepetition);
            let five = g.draw_type_share(DrawType::FivefoldRepetition);
            Proportion::new(three.successes + five.successes, three.n)
        };
        let _ = write!(
            h,
            "<td>{mean}</td><td>{}</td><td>{}</td></tr>",
            pct(g.draw_type_share(DrawType::Agreed).rate()),
            pct(repetition.rate())
        );
    }
    h.push_str("</table></div>\n<p class=\"caption\">Shares of all games with 95% Wilson intervals (games taken as independent); the draw types are shares of the draws. Sofia rules should move draws from agreement to repetition.</p>\n");
}

/// Raw and strength-adjusted differences, rule minus control.
pub fn rule_study_effects(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    if study.effects.iter().all(|(_, raw, _)| raw.is_none()) {
        return;
    }
    h.push_str("<h3>Rule editions against control editions</h3><table><tr><th class=\"l\">Share of games</th>\
        <th>Raw difference (points)</th><th>Strength-adjusted (Mantel–Haenszel over rating bands)</th></tr>");
    for (m, raw, adjusted) in &study.effects {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(&m.label(study.short_limits)),
            effect_cell(raw.as_ref()),
            effect_cell(adjusted.as_ref())
        );
    }
    h.push_str("</table>\n");
}

/// Every series that changed its rules: difference in differences.
pub fn rule_study_changes(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    if study.changes.is_empty() {
        h.push_str("<p class=\"caption\">No series in these tables has editions both with and without a rule, \
            so there is no before/after (difference-in-differences) estimate.</p>\n");
        return;
    }
    h.push_str("<h3>Series that changed their rules: difference in differences</h3>\
        <div class=\"wide\"><table><tr><th class=\"l\">Series</th><th class=\"l\">Rule</th>\
        <th class=\"l\">With the rule</th><th class=\"l\">Without</th><th>Editions (rule / without / controls)</th>\
        <th class=\"l\">Share of games</th><th>Raw (points)</th><th>Strength-adjusted</th></tr>");
    let years = |y: &[i16]| {
        y.iter()
            .map(|y| y.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for c in &study.changes {
        for (i, (m, raw, adjusted)) in c.effects.iter().enumerate() {
            let lead = if i == 0 {
                format!(
                    "<td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{} / {} / {}+{}</td>",
                    escape(&c.series),
                    escape(
                        &c.regimes
                            .iter()
                            .map(|r| r.label())
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                    years(&c.after_years),
                    years(&c.before_years),
                    c.editions[0],
                    c.editions[1],
                    c.editions[2],
                    c.editions[3]
                )
            } else {
                "<td></td><td></td><td></td><td></td><td></td>".into()
            };
            let _ = write!(
                h,
                "<tr>{lead}<td class=\"l\">{}</td><td>{}</td><td>{}</td></tr>",
                escape(&m.label(study.short_limits)),
                effect_cell(Some(raw)),
                effect_cell(adjusted.as_ref())
            );
        }
    }
    h.push_str("</table></div>\n");
}

/// How much of each edition the data hold.
pub fn rule_study_editions(h: &mut String, study: &crate::analysis::rule_study::RuleStudy) {
    let _ = write!(
        h,
        "<details><summary>Editions and how much of each the data hold ({})</summary><div class=\"wide\"><table>\
         <tr><th class=\"l\">Series</th><th>Year</th><th class=\"l\">Regime</th><th>Games</th><th>Draw rate</th>\
         <th>Rounds seen</th><th>Last round</th><th>Players seen</th><th>Games if complete</th><th>Share present</th></tr>",
        study.editions.len()
    );
    for e in &study.editions {
        let expected = e.expected_games();
        let share = Proportion::new(e.total.games.min(expected), expected);
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&e.series),
            e.year,
            if e.inferred {
                format!("{} (inferred)", escape(e.regime.as_str()))
            } else {
                escape(e.regime.as_str())
            },
            thousands(e.total.games),
            pct(e.total.draw_rate().rate()),
            e.rounds_seen,
            e.last_round,
            e.players,
            thousands(expected),
            pct(share.rate())
        );
    }
    h.push_str("</table></div><p class=\"caption\">“(inferred)”: the catalogue's source shows only that no rule \
        against draws applied (early draws were offered, or a rule came later “for the first time”), not a statement \
        of the rules. “Games if complete” is half the players seen times the last round: \
        the size of a round robin of those players; for Swiss and team events, where the data hold only some \
        players, it understates the event.</p></details>\n");
}
