//! Report sections for the analyses beyond the draw rate: outcomes and
//! White's score, the rating gap, openings, time classes and clocks. Each
//! takes plain data from `analysis` and writes HTML.

use std::fmt::Write;

use super::charts::{self, Line};
use super::format::{
    csv_download, escape, interval, pct, range_percent, share_cell, share_cells, share_header,
    thousands,
};
use super::palette::{draw_type_color, heat, hex};
use crate::analysis::draws::{DrawStats, MIN_CELL_GAMES, YearBins};
use crate::analysis::games::{
    self, Clocks, FormatCounts, Openings, RatingGap, RatingSystem, TimeClasses, clock_label,
    gap_label,
};
use crate::analysis::merge::Merge;
use crate::analysis::outcomes::{OutcomeCounts, Outcomes};
use crate::study::{Band, BandScheme, Proportion};
use remis_table::schema::DrawType;
use std::collections::BTreeMap;

/// One input table, as the provenance lists it.
pub struct InputInfo {
    pub name: String,
    pub bytes: u64,
    /// Its SHA-256, unless checksums were not asked for.
    pub sha256: Option<String>,
}

/// What the page is about, besides the numbers.
pub struct PageInfo<'a> {
    pub title: &'a str,
    pub inputs: &'a [InputInfo],
    pub filters: &'a [String],
    pub generated_by: &'a str,
    /// The command line that made the page, and when (UTC).
    pub command: &'a str,
    pub generated: &'a str,
    /// How the counts were read: from the rows or from summary files.
    pub counts_from: &'a str,
    /// How years are grouped in the by-year chart and table.
    pub year_bins: YearBins,
    /// The two short-draw limits, in moves (default 20 and 30).
    pub short_draws: [u32; 2],
    /// At most this many bands get a line in the by-year chart.
    pub chart_bands: usize,
    /// How a game is put in a band, in words (`Filters::basis_words`),
    /// and in short for a chart's axis (`Filters::basis_axis`).
    pub band_basis: &'a str,
    pub band_axis: &'a str,
}

fn score(c: &OutcomeCounts) -> String {
    c.white_score().map_or("–".into(), |(s, lo, hi)| {
        format!("{:.3} ({:.3}–{:.3})", s, lo, hi)
    })
}

fn expected(c: &OutcomeCounts) -> String {
    c.expected_white_score()
        .map_or("–".into(), |e| format!("{e:.3}"))
}

/// Win / draw / loss and White's score by band, observed and expected.
pub fn outcomes(
    h: &mut String,
    o: &Outcomes,
    scheme: &BandScheme,
    bins: YearBins,
    systems: &BTreeMap<RatingSystem, u64>,
) -> anyhow::Result<()> {
    let bands: Vec<Band> = o
        .by_band
        .iter()
        .filter(|(b, c)| c.games() >= MIN_CELL_GAMES && b.is_rated())
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
        dash: false,
        color: None,
    };
    let predicted = Line {
        label: "Expected from ratings (FIDE 8.1(b))".into(),
        points: bands
            .iter()
            .map(|b| o.by_band[b].expected_white_score().map(|e| (e, e, e)))
            .collect(),
        dashed: true,
        dash: false,
        color: None,
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
    // By band and year, as a compact table of White's score, with the years
    // binned as in band × year (never more than 40 columns).
    let mut binned: BTreeMap<(Band, i16), OutcomeCounts> = BTreeMap::new();
    for (&(band, year), c) in &o.by_band_year {
        binned.entry((band, bins.bin(year))).or_default().absorb(*c);
    }
    let years: Vec<i16> = {
        let mut y: Vec<i16> = binned.keys().map(|&(_, y)| y).collect();
        y.sort_unstable();
        y.dedup();
        y
    };
    if years.len() > 1 {
        let table = |h: &mut String, years: &[i16]| {
            h.push_str("<table><thead><tr><th class=\"l\">Band</th>");
            for y in years {
                let _ = write!(h, "<th>{}</th>", bins.label(*y));
            }
            h.push_str("</tr></thead>");
            for &band in o.by_band.keys() {
                let _ = write!(
                    h,
                    "<tr><th class=\"l\">{}</th>",
                    escape(&scheme.label(band))
                );
                for y in years {
                    match binned.get(&(band, *y)) {
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
            h.push_str("</table>");
        };
        h.push_str(
            "<details id=\"score-by-year\"><summary>White's score by band and year</summary><div class=\"wide screen-only\">",
        );
        table(h, &years);
        h.push_str("</div><div class=\"print-only\">");
        for part in years.chunks(PRINTED_YEAR_COLUMNS) {
            table(h, part);
        }
        h.push_str("</div></details>\n");
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
        &share_header(&["mean_rating", "gap"]),
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
            dash: false,
            color: None,
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
            .filter(|((_, band), p)| p.n >= MIN_CELL_GAMES && band.is_rated())
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
            dash: false,
            color: None,
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
        &share_header(&["time_class"]),
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
    use remis_table::schema::DrawType;
    let limits = study.short_limits;
    h.push_str("<div class=\"wide\"><table><tr><th class=\"l\">Regime</th><th>Games</th>");
    for m in Measure::all() {
        let _ = write!(h, "<th>{}</th>", escape(&m.label(limits)));
    }
    h.push_str(
        "<th>Draw rate, interval clustered by player</th><th>Mean length of draws</th><th>Draws by agreement</th><th>Draws by repetition</th></tr>",
    );
    let rule = study.rule_games();
    let rows = study
        .regimes
        .iter()
        .map(|(r, g)| {
            let clustered = study.by_player.get(r).copied().flatten();
            (r.label().to_string(), g, clustered)
        })
        .chain(std::iter::once((
            "All rule editions".to_string(),
            &rule,
            study.rule_by_player,
        )));
    for (label, g, clustered) in rows {
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
        let clustered = clustered.map_or("–".into(), |(lo, hi)| range_percent(lo, hi));
        let _ = write!(
            h,
            "<td>{clustered}</td><td>{mean}</td><td>{}</td><td>{}</td></tr>",
            pct(g.draw_type_share(DrawType::Agreed).rate()),
            pct(repetition.rate())
        );
    }
    h.push_str("</table></div>\n<p class=\"caption\">Shares of all games with 95% Wilson intervals (games taken as independent), and the draw rate's 95% interval clustered by player (games of one player may be correlated; “–” with fewer than 30 players; see Methods); the draw types are shares of the draws. Sofia rules should move draws from agreement to repetition.</p>\n");
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
                    escape(&c.rules_label()),
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

/// The headline split by where and how fast the games were played.
fn play_headline(h: &mut String, format: &crate::analysis::games::FormatCounts) {
    let mut cells: std::collections::BTreeMap<(crate::analysis::table::Play, String), Proportion> =
        std::collections::BTreeMap::new();
    for ((play, class, _), p) in &format.by_play {
        let cell = cells
            .entry((*play, class.clone()))
            .or_insert(Proportion::new(0, 0));
        cell.n += p.n;
        cell.successes += p.successes;
    }
    if cells.is_empty() {
        return;
    }
    let _ = write!(
        h,
        "<table id=\"by-play\"><tr><th class=\"l\">Played</th><th class=\"l\">Time class</th><th>Games</th>\
         <th>Draw rate</th><th>95% interval</th></tr>"
    );
    let mut rows = Vec::new();
    for play in crate::analysis::table::Play::ALL {
        let mut classes: Vec<String> = cells
            .keys()
            .filter(|(p, _)| *p == play)
            .map(|(_, c)| c.clone())
            .collect();
        charts::class_order(&mut classes);
        for class in classes {
            let p = cells[&(play, class.clone())];
            let small = if p.n < MIN_CELL_GAMES {
                " class=\"small\""
            } else {
                ""
            };
            let _ = write!(
                h,
                "<tr{small}><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                play.as_str(),
                escape(&class),
                thousands(p.n),
                pct(p.rate()),
                interval(&p)
            );
            let mut row = vec![play.as_str().to_string(), class.clone()];
            row.extend(share_cells(&p));
            rows.push(row);
        }
    }
    h.push_str("</table>\n<p class=\"caption\">Decided for each game when it was classified, from the strongest \
        evidence in its tags, and kept in the table (columns <code>play</code>, <code>play_by</code>, <code>speed</code>, \
        <code>speed_by</code>). Played: online when the <code>Site</code> tag names an online platform; else as the \
        event's name says (a series known to be played over the board or online, in all its spellings: Titled Tue, PRO \
        League, …; <code>data/event_patterns.toml</code>); else over the board when <code>Site</code> names a place, \
        or before 1992; otherwise unknown. \"Int\" in an event's name is international, never the internet. Time \
        class: from <code>TimeControl</code>, else from the event's name (a play-off is rapid from 1996 only), else \
        classical.</p>\n");
    h.push_str(&csv_download(
        "draw-rate-by-play-and-time-class.csv",
        &share_header(&["played", "time_class"]),
        &rows,
    ));
}

/// Draw rate by year for online and over-the-board play, per time class.
pub fn play_section(
    h: &mut String,
    format: &crate::analysis::games::FormatCounts,
    bins: YearBins,
) -> anyhow::Result<()> {
    use crate::analysis::table::Play;
    let mut series: std::collections::BTreeMap<
        (Play, String),
        std::collections::BTreeMap<i16, Proportion>,
    > = std::collections::BTreeMap::new();
    for ((play, class, year), p) in &format.by_play {
        let Some(year) = year else { continue };
        let cell = series
            .entry((*play, class.clone()))
            .or_default()
            .entry(bins.bin(*year))
            .or_insert(Proportion::new(0, 0));
        cell.n += p.n;
        cell.successes += p.successes;
    }
    series.retain(|_, by_year| by_year.values().any(|p| p.n >= MIN_CELL_GAMES));
    let plays: std::collections::BTreeSet<Play> = series.keys().map(|(p, _)| *p).collect();
    if series.len() < 2 && plays.len() < 2 {
        return Ok(());
    }
    let mut years: Vec<i16> = series.values().flat_map(|m| m.keys().copied()).collect();
    years.sort_unstable();
    years.dedup();
    let labels: Vec<String> = years.iter().map(|&y| bins.short_label(y)).collect();
    let lines: Vec<charts::Line> = series
        .iter()
        .map(|((play, class), by_year)| charts::Line {
            label: format!("{}, {class}", play.as_str()),
            points: years
                .iter()
                .map(|y| charts::rate_point(by_year.get(y)))
                .collect(),
            dashed: false,
            // Online apart from over the board by line style, not colour alone.
            dash: *play == Play::Online,
            // Where the tags do not say how it was played: grey.
            color: Some(if *play == Play::Unknown {
                plotters::style::RGBColor(0x99, 0x99, 0x99)
            } else {
                speed_color(class)
            }),
        })
        .collect();
    let svg = charts::lines_by_category(
        "chart-play",
        "Draw rate by year, online and over the board, by time class",
        "Line chart: one line per kind of play and time class, draw rate by year with 95 percent \
         intervals; years with fewer than 30 games of a line are left out of it.",
        &labels,
        &lines,
        ("Year", "Draw rate"),
        false,
    )?;
    let _ = write!(
        h,
        "<section id=\"play\">\n<h2>Online and over the board</h2>\n<p class=\"caption\">Online games and games \
         over the board are different populations: a collection that mixes them (master databases now carry \
         Titled Tuesday and PRO League games) shows a false trend when the mix changes. One line per kind of play \
         and time class; the headline table splits the totals the same way.</p>\n<figure>{svg}</figure>\n</section>\n"
    );
    Ok(())
}

/// A speed's colour in the play chart, the same online and over the board
/// (whose lines differ by style): one colour per speed, in a fixed order.
fn speed_color(speed: &str) -> plotters::style::RGBColor {
    const ORDER: [&str; 7] = [
        "classical",
        "rapid",
        "blitz",
        "bullet",
        "blindfold",
        "simul",
        "correspondence",
    ];
    let i = ORDER
        .iter()
        .position(|s| *s == speed)
        .unwrap_or(ORDER.len());
    super::palette::CATEGORY_COLORS[i % super::palette::CATEGORY_COLORS.len()]
}

/// How to read the numbers.
pub fn methods_section(h: &mut String) {
    h.push_str(
        "<section id=\"methods\">\n<h2>Methods</h2>\n\
         <p><strong>Endings.</strong> Every game is replayed move by move (shakmaty). A game ends at the first of: \
         checkmate, stalemate, a dead position (insufficient material, or no mate possible by any series of legal \
         moves, found by search: art. 5.2.2), fivefold repetition or the 75-move rule (9.6). A flag fall loses only \
         when the opponent could still mate (6.9, by search). A draw's <em>type</em> is the rule that ended it; a \
         draw recorded with no such rule in the moves and no other cause in the record (claim, timeout) is \
         <em>agreed</em>: “agreed” means no other cause was recorded or found, not that an offer was seen.</p>\n\
         <p><strong>Rates.</strong> A rate is drawn games over used games, as recorded (<code>result</code>); games \
         whose record the Laws contradict are counted as recorded and listed under “Results the Laws contradict”. \
         A game's band is by default the players' mean rating, for games whose rating gap is at most 200 (so that a band \
         holds games between players of its strength, not mismatches: in a collection of one player's games the \
         lower-rated player's band would measure the gap); <code>--elo-basis min|average|both</code> and \
         <code>--max-gap</code> choose another definition, and the charts say which is in force. A rating is left out \
         of the bands when it is implausible for its system and year (an Elo before 1960 or outside 100–2900; a \
         platform's rating outside its range): such games are counted in the band table as “implausible rating”. \
         The rating system is the table's <code>ratings</code> column: a platform's own export carries its Glicko \
         ratings, a compiler's record of an online game (TWIC, pgnmentor) FIDE's.</p>\n\
         <p><strong>Intervals.</strong> 95% Wilson score intervals for proportions; for White's score, the Wilson \
         interval on the score as a share of the points (a little wide when games are drawn, never of zero \
         width). Cells with fewer than 30 games are greyed or left out of charts.</p>\n\
         <p><strong>Independence.</strong> The intervals treat games as independent. They are not: a player's \
         games share the player (a lichess export is a few accounts' games; a master database is one file per \
         player), and an event's games share the event. The intervals are therefore too narrow for claims about \
         players or events in general. Two kinds of interval allow for it. The draw rate's interval clustered by \
         player is a cluster-robust interval for games in pairs (Fafchamps and Gubert 2007; Cameron and Miller \
         2014): any two games that share a player, whatever the colours, may be correlated; it is never narrower \
         than the independent-games interval (see Players). The rule study's differences resample whole event \
         editions.</p>\n\
         <p><strong>Online and over the board, and the time class.</strong> Decided for each game at \
         classification from the strongest evidence in its tags, and kept in the table with the tag that decided \
         it: play from the <code>Site</code> tag's platform, then the event's name (series known to be played over \
         the board or online; <code>data/event_patterns.toml</code>), then a <code>Site</code> naming a place, then \
         the date (no online play before 1992), else unknown; the time class from <code>TimeControl</code>, then \
         the event's name, else classical. The section Played and time class shows the games by each. Chess960 \
         and correspondence games are left out of every rate unless asked for, and counted under Coverage.</p>\n</section>\n",
    );
}

/// A citation block for the page.
pub fn cite_section(h: &mut String, info: &PageInfo<'_>, stats: &DrawStats) {
    let year = info.generated.get(..4).unwrap_or("");
    let _ = write!(
        h,
        "<section id=\"cite\">\n<h2>How to cite</h2>\n<pre class=\"cite\">{title}. Draw report of {games} games, \
         made with {tool} on {date}. Inputs and their SHA-256 checksums: see Provenance.\n\n\
         @misc{{remis-report-{year},\n  title = {{{title}}},\n  note = {{Draw report of {games} games, made with {tool}}},\n  \
         year = {{{year}}},\n}}</pre>\n</section>\n",
        title = escape(info.title),
        games = thousands(stats.games),
        tool = escape(info.generated_by),
        date = escape(info.generated),
    );
}

/// Where the numbers came from: the program, the command, the inputs.
pub fn provenance_section(h: &mut String, info: &PageInfo<'_>) {
    let _ = write!(
        h,
        "<section id=\"provenance\">\n<h2>Provenance</h2>\n<p>Made by {} on {} (UTC) with the command \
         <code>{}</code>.</p>\n<p class=\"muted\" id=\"counts-from\">Counts {}.</p>\n\
         <details><summary>Input tables ({})</summary><table><tr><th class=\"l\">Table</th><th>Bytes</th>\
         <th class=\"l\">SHA-256</th></tr>",
        escape(info.generated_by),
        escape(info.generated),
        escape(info.command),
        escape(info.counts_from),
        info.inputs.len()
    );
    for input in info.inputs {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td class=\"l\"><code>{}</code></td></tr>",
            escape(&input.name),
            thousands(input.bytes),
            escape(
                input
                    .sha256
                    .as_deref()
                    .unwrap_or("not computed (--no-checksums)")
            )
        );
    }
    h.push_str("</table></details>\n</section>\n");
}

fn section(h: &mut String, id: &str, title: &str, caption: &str, svg: &str) {
    let _ = write!(
        h,
        "<section id=\"{id}\">\n<h2>{}</h2>\n<p class=\"caption\">{}</p>\n",
        escape(title),
        escape(caption)
    );
    if svg.is_empty() {
        h.push_str("<p class=\"caption\"><em>Not enough games for this chart.</em></p>\n");
    } else {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
}

fn band_table(h: &mut String, stats: &DrawStats, scheme: &BandScheme) {
    h.push_str("<div class=\"wide\"><table><tr><th class=\"l\">Band</th><th>Games</th><th>Draws</th><th>Draw rate</th><th>95% interval</th></tr>");
    for (band, p) in &stats.by_band {
        let small = if p.n < MIN_CELL_GAMES {
            " class=\"small\""
        } else {
            ""
        };
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td{small}>{}</td><td{small}>{}</td></tr>",
            escape(&scheme.label(*band)),
            thousands(p.n),
            thousands(p.successes),
            pct(p.rate()),
            interval(p)
        );
    }
    h.push_str("</table></div>\n");
    let rows: Vec<Vec<String>> = stats
        .by_band
        .iter()
        .map(|(band, p)| {
            let mut row = vec![scheme.label(*band)];
            row.extend(share_cells(p));
            row
        })
        .collect();
    h.push_str(&csv_download(
        "draw-rate-by-band.csv",
        &share_header(&["band"]),
        &rows,
    ));
    h.push_str("</section>\n");
}

fn draw_type_table(h: &mut String, stats: &DrawStats, scheme: &BandScheme) {
    let kinds: Vec<DrawType> = DrawType::ALL
        .into_iter()
        .filter(|k| stats.draw_types.get(k).copied().unwrap_or(0) > 0)
        .collect();
    h.push_str("<div class=\"wide\"><table><tr><th class=\"l\">Band</th><th>Draws</th>");
    for k in &kinds {
        let _ = write!(
            h,
            "<th><span class=\"swatch\" style=\"background:{}\"></span>{}</th>",
            hex(draw_type_color(*k)),
            escape(k.label())
        );
    }
    h.push_str("</tr>");
    let mut rows: Vec<(String, &std::collections::BTreeMap<DrawType, u64>)> = stats
        .draw_types_by_band
        .iter()
        .map(|(b, m)| (scheme.label(*b), m))
        .collect();
    rows.push(("All bands".into(), &stats.draw_types));
    let mut csv = Vec::new();
    for (label, mix) in &rows {
        for k in &kinds {
            csv.push(vec![
                label.clone(),
                k.as_str().to_string(),
                mix.get(k).copied().unwrap_or(0).to_string(),
                mix.values().sum::<u64>().to_string(),
            ]);
        }
    }
    for (label, mix) in rows {
        let total: u64 = mix.values().sum();
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td>",
            escape(&label),
            thousands(total)
        );
        for k in &kinds {
            let n = mix.get(k).copied().unwrap_or(0);
            let p = Proportion::new(n, total);
            let _ = write!(h, "<td title=\"{} of {}\">{}</td>", n, total, pct(p.rate()));
        }
        h.push_str("</tr>");
    }
    h.push_str("</table></div>\n<p class=\"caption\">Shares of each band's draws.</p>\n");
    h.push_str(&csv_download(
        "draw-types-by-band.csv",
        &["band", "draw_type", "draws_of_type", "draws"],
        &csv,
    ));
    h.push_str("</section>\n");
}

pub fn heatmap(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    bins: YearBins,
    format: &str,
) {
    let years = stats.years();
    let bands: Vec<Band> = stats.by_band.keys().copied().collect();
    let mut csv = Vec::new();
    for &band in &bands {
        for y in &years {
            if let Some(p) = stats.by_band_year.get(&(band, *y)) {
                let mut row = vec![scheme.label(band), bins.label(*y)];
                row.extend(share_cells(p));
                csv.push(row);
            }
        }
    }
    let _ = write!(
        h,
        "<section id=\"table\">\n<h2>Band × year{}</h2>\n<p class=\"caption\">Draw rate in each cell, with the number of games; \
         the colour deepens with the draw rate. Cells with fewer than {MIN_CELL_GAMES} games are greyed and marked “*”: \
         their rates say little.</p>\n<div class=\"wide screen-only\">",
        escape(format)
    );
    let table = |h: &mut String, years: &[i16], total: bool| {
        heat_table(h, stats, scheme, bins, &bands, years, total)
    };
    table(h, &years, true);
    h.push_str("</div>\n");
    // On paper, the year columns in parts a page wide, each with the bands.
    h.push_str("<div class=\"print-only\">");
    let parts: Vec<&[i16]> = years.chunks(PRINTED_YEAR_COLUMNS).collect();
    for (i, part) in parts.iter().enumerate() {
        table(h, part, i + 1 == parts.len());
    }
    if parts.is_empty() {
        table(h, &[], true);
    }
    h.push_str("</div>\n");
    if !stats.no_year.is_empty() {
        let n: u64 = stats.no_year.values().map(|p| p.n).sum();
        let _ = writeln!(
            h,
            "<p class=\"caption\">{} games without a year are counted in the “All” column only.</p>",
            thousands(n)
        );
    }
    h.push_str(&csv_download(
        "draw-rate-by-band-and-year.csv",
        &share_header(&["band", "years"]),
        &csv,
    ));
    h.push_str("</section>\n");
}

/// Year columns in one printed part of a wide table.
pub const PRINTED_YEAR_COLUMNS: usize = 10;

/// One band × year table: a row a band, a column a year of `years`, and
/// the band's "All" column when `total`.
fn heat_table(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    bins: YearBins,
    bands: &[Band],
    years: &[i16],
    total: bool,
) {
    h.push_str("<table><thead><tr><th class=\"l\">Band</th>");
    for y in years {
        let _ = write!(h, "<th>{}</th>", bins.label(*y));
    }
    if total {
        h.push_str("<th class=\"total\">All</th>");
    }
    h.push_str("</tr></thead>");
    for &band in bands {
        let _ = write!(
            h,
            "<tr><th class=\"l\">{}</th>",
            escape(&scheme.label(band))
        );
        for y in years {
            match stats.by_band_year.get(&(band, *y)) {
                None => h.push_str("<td></td>"),
                Some(p) if p.n < MIN_CELL_GAMES => {
                    let _ = write!(
                        h,
                        "<td class=\"small\" title=\"{} games\">{}*<br>n={}</td>",
                        p.n,
                        pct(p.rate()),
                        p.n
                    );
                }
                Some(p) => heat_cell(h, p),
            }
        }
        if total {
            let all = stats.by_band[&band];
            let _ = write!(
                h,
                "<td class=\"total\"><strong>{}</strong><br>n={}</td>",
                pct(all.rate()),
                all.n
            );
        }
        h.push_str("</tr>");
    }
    h.push_str("</table>");
}

pub fn coverage(h: &mut String, coverage: &[(String, u64)], all: &DrawStats, basis: &str) {
    let total: u64 = coverage.iter().map(|(_, n)| n).sum();
    let _ = write!(
        h,
        "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p class=\"caption\">Every row of the input tables, and why rows were left out of the rates. \
         Games without both ratings are kept, in the “unrated” band, unless a minimum rating is set; so are games in no band, \
         counted in the second table.</p>\n\
         <table><tr><th class=\"l\">Rows</th><th>Games</th><th>Share</th></tr><tr><td class=\"l\">Read</td><td>{}</td><td>100%</td></tr>",
        thousands(total)
    );
    let mut csv = Vec::new();
    for (reason, n) in coverage {
        csv.push(vec![reason.clone(), n.to_string()]);
        let label = if reason == crate::analysis::table::USED {
            "Used in the rates"
        } else {
            reason.as_str()
        };
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(label),
            thousands(*n),
            pct(Proportion::new(*n, total).rate())
        );
    }
    h.push_str("</table>\n");
    h.push_str(&csv_download("coverage.csv", &["reason", "rows"], &csv));
    // Games used in the rates but in no rating band, by why.
    let unbanded: Vec<(Band, u64)> = [Band::Unrated, Band::Apart, Band::Implausible]
        .into_iter()
        .map(|b| (b, all.by_band.get(&b).map_or(0, |p| p.n)))
        .collect();
    let used = all.overall().n;
    let _ = write!(
        h,
        "<p class=\"caption\" id=\"unbanded\">Used games in no rating band (a game's band is {}): they count in \
         every rate but the bands'.</p>\n<table><tr><th class=\"l\">Used games in no band</th><th>Games</th><th>Share of used</th></tr>",
        escape(basis)
    );
    let mut csv = Vec::new();
    for (band, n) in unbanded {
        let why = match band {
            Band::Unrated => "unrated (a rating missing)",
            Band::Apart => "players further apart than the band definition allows",
            _ => "a rating implausible for its system and year",
        };
        csv.push(vec![why.to_string(), n.to_string()]);
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(why),
            thousands(n),
            pct(Proportion::new(n, used).rate())
        );
    }
    h.push_str("</table>\n");
    h.push_str(&csv_download("unbanded.csv", &["reason", "games"], &csv));
    h.push_str("</section>\n");
}

pub fn rule_study_section(
    h: &mut String,
    study: &crate::analysis::rule_study::RuleStudy,
) -> anyhow::Result<()> {
    h.push_str("<section id=\"rules\">\n<h2>Rules against short draws</h2>\n");
    let _ = writeln!(
        h,
        "<p class=\"caption\">{}</p>",
        escape(super::sections::RULE_STUDY_MEANING)
    );
    super::sections::rule_study_regimes(h, study);
    let svg = charts::rule_study(study)?;
    if !svg.is_empty() {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
    super::sections::rule_study_effects(h, study);
    super::sections::rule_study_changes(h, study);
    super::sections::rule_study_editions(h, study);
    let _ = writeln!(
        h,
        "<p class=\"caption\"><strong>What this cannot show.</strong> {}</p>",
        escape(super::sections::RULE_STUDY_LIMITS)
    );
    h.push_str("</section>\n");
    Ok(())
}

pub fn scoring_section(h: &mut String, study: &crate::analysis::scoring::ScoringStudy) {
    let draws: u64 = study.plus_remise_draws.values().sum();
    h.push_str(
        "<section id=\"scoring\">\n<h2>Scoring systems</h2>\n<p class=\"caption\">Every used game scored \
         under classical 1-½-0, “football” 3-1-0, children’s 3-2-1 and plus-remise, where no game is drawn: \
         the side with more material in the final position wins (queen 9, rook 5, bishop 3, knight 3, pawn 1, \
         bishop pair 1; if equal, pawns count double; if still equal, Black wins). Standings are per Event \
         tag and year, over the games in these tables only.</p>\n",
    );
    let _ = write!(
        h,
        "<table><tr><th class=\"l\">Plus-remise decides a draw</th><th>Draws</th><th>Share</th></tr>"
    );
    for ((winner, rule), n) in &study.plus_remise_draws {
        let side = match winner.as_str() {
            "white" => "White",
            "black" => "Black",
            other => other,
        };
        let _ = write!(
            h,
            "<tr><td class=\"l\">{} wins: {}</td><td>{}</td><td>{}</td></tr>",
            escape(side),
            crate::analysis::scoring::rule_name(*rule),
            thousands(*n),
            pct(Proportion::new(*n, draws).rate())
        );
    }
    let _ = write!(
        h,
        "</table>\n<table><tr><th class=\"l\">Against classical scoring ({} events)</th><th>Events with another winner</th><th>Places moved</th></tr>",
        thousands(study.events)
    );
    for (system, change) in &study.changes {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td></tr>",
            escape(system.label()),
            thousands(change.different_winner),
            thousands(change.places_moved)
        );
    }
    h.push_str("</table>\n");
    if study.incomplete_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"incomplete-events\">Not ranked: {} events whose games are not all in these \
             tables (a player's collection holds the profiled player's games and a game or two of each opponent; an \
             arena has players of every number of games). Standings are compared only for events in which every \
             player's number of games is within one of the most.</p>",
            thousands(study.incomplete_events)
        );
    }
    if study.events == 0 {
        h.push_str("<p class=\"caption\"><em>No event in these tables looks complete: the comparison of standings is not shown.</em></p>\n");
    }
    if study.large_events > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\" id=\"large-events\">Not ranked: {} events of more than {} games ({} games in all), \
             such as lichess's “Rated Blitz game”, which are pools of unrelated games rather than events, and \
             whose standings would grow with the data.</p>",
            thousands(study.large_events),
            thousands(crate::analysis::scoring::STANDINGS_MAX_GAMES),
            thousands(study.large_event_games)
        );
    }
    if study.changes.values().any(|c| !c.examples.is_empty()) {
        h.push_str(
            "<h3>Events whose winner changes</h3>\n<table><tr><th class=\"l\">System</th>\
             <th class=\"l\">Event</th><th class=\"l\">Classical winner</th>\
             <th class=\"l\">Winner under the system</th></tr>",
        );
        for (system, change) in &study.changes {
            for example in change.examples.iter().take(3) {
                let _ = write!(
                    h,
                    "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td>\
                     <td class=\"l\">{}</td></tr>",
                    escape(system.label()),
                    escape(&example.event_label()),
                    escape(&super::text::winners(&example.classical)),
                    escape(&super::text::winners(&example.other)),
                );
            }
        }
        h.push_str("</table>\n");
    }
    h.push_str("</section>\n");
}

/// One example game: players, event, date, result and a link to the game
/// where the `Site` tag is one.
fn example_item(example: &crate::analysis::audit::Example) -> String {
    let text = |v: &Option<String>| escape(v.as_deref().unwrap_or("?"));
    let game = format!(
        "{} – {}, {} {} ({})",
        text(&example.white),
        text(&example.black),
        text(&example.event),
        text(&example.date),
        text(&example.result)
    );
    let link = match example.site.as_deref() {
        Some(site) if site.starts_with("https://") || site.starts_with("http://") => {
            format!(" <a href=\"{}\">{}</a>", escape(site), escape(site))
        }
        _ => format!(
            " <span class=\"muted\">{} game {}</span>",
            escape(&example.source),
            example.game_no
        ),
    };
    let fen = example
        .final_fen
        .as_deref()
        .map(|f| format!(" <code>{}</code>", escape(f)))
        .unwrap_or_default();
    format!("<li>{game}{link}{fen}</li>")
}

pub fn audit_section(h: &mut String, audit: &crate::analysis::audit::Audit) {
    let _ = write!(
        h,
        "<section id=\"audit\">\n<h2>Results the Laws contradict</h2>\n<p class=\"caption\">Of the {} games used, \
         the recorded results the replay shows to be wrong under the FIDE Laws: a game ends at the first checkmate, \
         stalemate, dead position, fivefold repetition or 75-move draw (5.1.1, 5.2, 9.6), and a flag fall loses only \
         when the opponent could still mate by some series of legal moves (6.9, decided by search). Lichess, for one, \
         awards wins on time without that test.</p>\n\
         <table><tr><th class=\"l\">Contradiction</th><th>Games</th></tr>",
        thousands(audit.games)
    );
    for (mismatch, finding) in &audit.mismatches {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td></tr>",
            escape(mismatch.label()),
            thousands(finding.games)
        );
    }
    let _ = write!(
        h,
        "<tr><td class=\"l\">Moves played after a dead position (5.2.2)</td><td>{}</td></tr></table>\n\
         <p>Dead final positions: {} ({} found only by search); dead before the last move: {}. \
         Searches that gave up (nothing concluded): {}.</p>\n",
        thousands(audit.past_dead_position.games),
        thousands(audit.dead_final),
        thousands(audit.dead_by_search),
        thousands(audit.dead_mid_game),
        thousands(audit.search_unknown)
    );
    let findings = audit
        .mismatches
        .iter()
        .map(|(m, f)| (m.label(), f))
        .chain(std::iter::once((
            "Moves played after a dead position (5.2.2)",
            &audit.past_dead_position,
        )));
    for (label, finding) in findings {
        if finding.examples.is_empty() {
            continue;
        }
        let _ = write!(
            h,
            "<details><summary>{} — examples</summary><ul class=\"examples\">",
            escape(label)
        );
        for example in &finding.examples {
            h.push_str(&example_item(example));
        }
        h.push_str("</ul></details>\n");
    }
    h.push_str("</section>\n");
}

/// A heatmap cell: the rate over its count, coloured by the rate, with the
/// interval as a tooltip.
fn heat_cell(h: &mut String, p: &Proportion) {
    let rate = p.rate().unwrap_or(0.0);
    let color = if rate > 0.45 { "#fff" } else { "inherit" };
    let _ = write!(
        h,
        "<td style=\"background:{};color:{color}\" title=\"95% interval {}\">{}<br>n={}</td>",
        hex(heat(rate)),
        interval(p),
        pct(p.rate()),
        p.n
    );
}

/// The headline: games used, decisive, drawn, the draw rate, the filters.
pub fn headline(h: &mut String, info: &PageInfo<'_>, report: &crate::analysis::Report) {
    let stats = &report.aggregate.all;
    let overall = stats.overall();
    let decisive = stats.games - stats.draws;
    let _ = write!(
        h,
        "<section id=\"headline\">\n<h2>Headline</h2>\n<div class=\"headline\">\
         <div>Games used<b>{}</b></div><div>Decisive<b>{}</b></div><div>Drawn<b>{}</b></div>\
         <div>Draw rate<b>{}</b>95% interval {}{}</div></div>\n",
        thousands(stats.games),
        thousands(decisive),
        thousands(stats.draws),
        pct(overall.rate()),
        interval(&overall),
        report
            .players
            .by_player
            .map_or(String::new(), |(lo, hi)| format!(
                "<br>clustered by player {}",
                range_percent(lo, hi)
            ))
    );
    let _ = write!(h, "<p><strong>Filters:</strong> ");
    let mut filters: Vec<String> = info.filters.to_vec();
    filters.extend(info.year_bins.describe());
    h.push_str(&escape(&filters.join("; ")));
    h.push_str(". Intervals are 95% Wilson score intervals (games taken as independent; see Methods); the draw rate's second interval is clustered by player (see Players). Games that were invalid, unfinished or of an unsupported variant are not counted in any rate (see Coverage).</p>\n");
    play_headline(h, &report.format);
    let aggregate = &report.aggregate;
    if !aggregate.lead_is_all {
        let _ = writeln!(
            h,
            "<p id=\"lead-format\"><strong>The charts and tables below are of {} only:</strong> {} of the {} \
             games used ({}), so that no figure mixes kinds of play or time classes. The table above and \
             “Online and over the board” give every format; <code>--play all</code> mixes them in the charts.</p>",
            escape(&aggregate.lead.label()),
            thousands(aggregate.stats.games),
            thousands(stats.games),
            pct((stats.games > 0).then(|| aggregate.stats.games as f64 / stats.games as f64))
        );
    }
    h.push_str("</section>\n");
}

/// The draw rate by year, one line per band.
pub fn by_year(
    h: &mut String,
    info: &PageInfo<'_>,
    binned: &DrawStats,
    scheme: &BandScheme,
    format: &str,
) -> anyhow::Result<()> {
    let bins = info.year_bins;
    let years_svg =
        charts::rate_by_year(binned, scheme, info.chart_bands, &|y| bins.bin(y), &|y| {
            bins.short_label(y)
        })?;
    section(
        h,
        "by-year",
        &format!("Draw rate by year{format}"),
        &format!(
            "One line per rating band (bands with at least 30 games; at most the eight largest), in \
         colours ordered from the lowest band to the highest. A game's band is {basis} (--elo-basis, \
         --max-gap). Shaded areas are 95% intervals; a year \
         is drawn only where its band has at least 30 games. The vertical axis runs from 0 to just \
         above the highest interval, fit to the data. Games in no band (unrated, players further apart, \
         a rating implausible for its system and year) are not on this axis: \
         see the band table. The band × year table below gives every number with its n. The chart and \
         the tables after it are of one format (named in the title: over-the-board classical games \
         where the data hold any), so that online blitz never floods a year of classical chess; \
         “Online and over the board” has every format, and --play all mixes them here.",
            basis = info.band_basis
        ),
        &years_svg,
    );
    h.push_str("</section>\n");

    Ok(())
}

/// The draw rate by band, all years.
pub fn by_band(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    basis: &str,
    axis: &str,
    format: &str,
) -> anyhow::Result<()> {
    let band_svg = charts::rate_by_band(stats, scheme, axis)?;
    section(
        h,
        "by-band",
        &format!("Draw rate by rating band, all years{format}"),
        &format!(
            "Each bar is the share of drawn games in a band, with its 95% interval and the number of games; \
         the vertical axis is fit to the data from 0. A game's band is {basis} (--elo-basis, --max-gap). \
         Games in no band (unrated, players further apart, a rating implausible for its system and year) \
         are listed in the table, not charted."
        ),
        &band_svg,
    );
    band_table(h, stats, scheme);

    Ok(())
}

/// How the draws happened, by band.
pub fn draw_types(
    h: &mut String,
    stats: &DrawStats,
    scheme: &BandScheme,
    format: &str,
) -> anyhow::Result<()> {
    let mix_svg = charts::draw_mix_by_band(stats, scheme)?;
    section(
        h,
        "draw-types",
        &format!("How the draws happened{format}"),
        "Draw types as decided from the final position and the record, following the FIDE Laws \
         (art. 5.2, 6.9, 9.2, 9.3, 9.6): agreed draws, repetitions, the 50- and 75-move rules, stalemate, \
         insufficient material, and timeouts against a side that cannot mate.",
        &mix_svg,
    );
    draw_type_table(h, stats, scheme);

    Ok(())
}

/// How long drawn games lasted, and all games beside them.
pub fn lengths(
    h: &mut String,
    info: &PageInfo<'_>,
    report: &crate::analysis::Report,
) -> anyhow::Result<()> {
    let stats = &report.aggregate.stats;
    let length_svg = charts::draw_length(stats, info.short_draws)?;
    let [first, second] = info.short_draws;
    let (short20, agreed20) = stats.short_draws(first);
    let (short30, agreed30) = stats.short_draws(second);
    section(
        h,
        "length",
        "How long drawn games lasted",
        "The number of moves played in drawn games. Short agreed draws are what rules such as the \
         “Sofia rules” (no draw offers) and minimum-move rules aim at.",
        &length_svg,
    );
    let all_lengths = charts::game_lengths(&report.format, stats)?;
    if !all_lengths.is_empty() {
        let _ = writeln!(
            h,
            "<figure>{all_lengths}</figure>\n<p class=\"caption\">The length of every game used, and of the drawn \
             ones among them: where the draws sit in the whole distribution.</p>"
        );
    }
    let _ = write!(
        h,
        "<table><tr><th class=\"l\">Draws</th><th>≤ {first} moves</th><th>95% interval</th><th>≤ {second} moves</th><th>95% interval</th><th>n</th></tr>\
         <tr><td class=\"l\">All draws</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\
         <tr><td class=\"l\">Agreed draws</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table>\n\
         <p class=\"caption\">Mean length of drawn games: {} moves.</p>\n</section>\n",
        pct(short20.rate()),
        interval(&short20),
        pct(short30.rate()),
        interval(&short30),
        thousands(short20.n),
        pct(agreed20.rate()),
        interval(&agreed20),
        pct(agreed30.rate()),
        interval(&agreed30),
        thousands(agreed20.n),
        stats
            .mean_draw_moves()
            .map_or("–".into(), |m| format!("{m:.1}")),
    );

    Ok(())
}

/// The page's footer.
pub fn footer(h: &mut String, info: &PageInfo<'_>) {
    let _ = write!(
        h,
        "<footer>Made by {} — remis replays every game with shakmaty and classifies it by the FIDE Laws of Chess. \
         This page needs no network and no scripts.</footer>\n</body>\n</html>\n",
        escape(info.generated_by)
    );
}

/// Players: how concentrated the games are, and the draw rate's interval
/// clustered by player beside the Wilson interval.
pub fn players_section(
    h: &mut String,
    c: &crate::analysis::players::Concentration,
    stats: &DrawStats,
) {
    h.push_str("<section id=\"players\">\n<h2>Players</h2>\n");
    if c.players == 0 {
        h.push_str(
            "<p class=\"caption\">No game names its players: nothing to show.</p>\n</section>\n",
        );
        return;
    }
    let overall = stats.overall();
    let _ = writeln!(
        h,
        "<p class=\"caption\">Games are not independent when the same players recur. {} named players \
         play the {} games used; half of them have at most {} game{}, {} have one. The most frequent 1% of \
         players hold {} of the game sides (two a game).{}</p>",
        thousands(c.players),
        thousands(c.games),
        c.median_games.unwrap_or(0),
        if c.median_games == Some(1) { "" } else { "s" },
        thousands(c.one_game_players),
        pct(c.top_percent_share),
        if c.unnamed_sides > 0 {
            format!(
                " {} game sides name no player and belong to no one here.",
                thousands(c.unnamed_sides)
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        h,
        "<table id=\"by-player\"><tr><th class=\"l\">Draw rate</th><th>Rate</th><th>95% interval</th><th class=\"l\">Interval treats as independent</th></tr>\
         <tr><td class=\"l\">Wilson</td><td>{rate}</td><td>{}</td><td class=\"l\">games</td></tr>\
         <tr><td class=\"l\">Clustered by player</td><td>{rate}</td><td>{}</td><td class=\"l\">groups of players ({} of them)</td></tr></table>",
        interval(&overall),
        c.by_player.map_or_else(
            || format!(
                "– (fewer than {} groups of players)",
                crate::analysis::players::MIN_CLUSTERS
            ),
            |(lo, hi)| range_percent(lo, hi)
        ),
        thousands(c.clusters as u64),
        rate = pct(overall.rate()),
    );
    h.push_str(
        "<div class=\"wide\"><table><tr><th class=\"l\">Most frequent players</th><th>Games</th><th>Share of games</th><th>Draw rate</th><th>95% interval</th></tr>",
    );
    let mut csv = Vec::new();
    for p in &c.top {
        let _ = write!(
            h,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td>{}<td>{}</td></tr>",
            escape(&p.name),
            thousands(p.games.n),
            pct(Some(p.share)),
            share_cell(&p.games),
            interval(&p.games)
        );
        let mut row = vec![p.name.clone(), format!("{:.4}", p.share)];
        row.extend(share_cells(&p.games));
        csv.push(row);
    }
    h.push_str("</table></div>\n");
    if c.merged_players > 0 {
        let _ = write!(
            h,
            "<details id=\"player-merges\"><summary>One identity per player: {} players are spelled in more \
             than one way</summary><p class=\"caption\">A player is the surname and the first initial, accents \
             folded, hyphens read as spaces, and transliterations read through a built-in table \
             (<code>data/player_aliases.toml</code>: Kortschnoj is Korchnoi); names without a comma (online \
             user names) stay whole. People who share that key are kept apart by their FIDE IDs where the tags \
             carry them, and by written-out given names that differ (“Adams, Michael” and “Adams, Mark”; \
             “Sergei” and “Sergey” are one). Games under an initial alone go to the person with at least 90% \
             of the key's written-out games, and otherwise stay apart under the initial. The merges among the \
             {} most frequent players:</p><ul>",
            thousands(c.merged_players),
            crate::analysis::players::MERGES_LISTED
        );
        for (name, spellings) in &c.merges {
            let _ = write!(
                h,
                "<li>{}: {}</li>",
                escape(name),
                escape(&spellings.join(" · "))
            );
        }
        h.push_str("</ul></details>\n");
    }
    if c.folded_players > 0 {
        let _ = writeln!(
            h,
            "<p class=\"caption\">Bounded: past {} players, the {} with the fewest games are counted \
             together, not by name; the table and the clustered interval still cover every game.</p>",
            thousands(crate::analysis::players::PLAYER_CAP as u64),
            thousands(c.folded_players)
        );
    }
    h.push_str(&csv_download(
        "most-frequent-players.csv",
        &share_header(&["player", "share_of_games"]),
        &csv,
    ));
    h.push_str("</section>\n");
}
