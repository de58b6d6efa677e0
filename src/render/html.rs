//! The report page: one self-contained HTML file (inline CSS and SVG, no
//! scripts, no network requests) that prints well.

use std::fmt::Write;

use super::charts::{self, draw_type_color, hex};
use super::escape;
use crate::analysis::draws::{DrawStats, MIN_CELL_GAMES};
use crate::rules::DrawType;
use crate::study::{Band, BandScheme, Proportion};

/// What the page is about, besides the numbers.
pub struct PageInfo<'a> {
    pub title: &'a str,
    pub inputs: &'a [String],
    pub filters: &'a [String],
    pub generated_by: &'a str,
    /// How the counts were read: from the rows or from summary files.
    pub counts_from: &'a str,
    /// The two short-draw limits, in moves (default 20 and 30).
    pub short_draws: [u32; 2],
    /// At most this many bands get a line in the by-year chart.
    pub chart_bands: usize,
}

pub(crate) fn pct(p: Option<f64>) -> String {
    p.map_or("–".into(), |r| format!("{:.1}%", r * 100.0))
}

pub(crate) fn interval(p: &Proportion) -> String {
    p.wilson95().map_or("–".into(), |(lo, hi)| {
        format!("{:.1}–{:.1}%", lo * 100.0, hi * 100.0)
    })
}

pub(crate) fn thousands(n: u64) -> String {
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

const STYLE: &str = r#"
:root { --ink: #1f2933; --muted: #52606d; --line: #d9e2ec; --accent: #2f5d8a; }
* { box-sizing: border-box; }
body { font-family: "Source Sans Pro", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink);
       max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; line-height: 1.5; }
h1 { font-size: 1.9rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 40px 0 6px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
p.lead { color: var(--muted); margin-top: 0; }
.caption { color: var(--muted); max-width: 60em; }
.headline { display: flex; flex-wrap: wrap; gap: 16px; margin: 20px 0; }
.headline div { border: 1px solid var(--line); border-radius: 6px; padding: 10px 18px; min-width: 150px; }
.headline b { display: block; font-size: 1.6rem; color: var(--accent); }
figure { margin: 12px 0; }
svg.chart { max-width: 100%; height: auto; display: block; }
table { border-collapse: collapse; margin: 10px 0 4px; font-variant-numeric: tabular-nums; font-size: 0.92rem; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; }
th { background: #f5f7fa; }
td.l, th.l { text-align: left; white-space: nowrap; }
td.small { color: #9aa5b1; background: #f8f8f8 !important; font-style: italic; }
.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 6px; border-radius: 2px; vertical-align: baseline; }
.wide { overflow-x: auto; }
/* A wide table scrolls inside itself; its first column and its totals stay in view. */
.wide tr > :first-child { position: sticky; left: 0; background: #f5f7fa; }
.wide .total { position: sticky; right: 0; background: #fff; box-shadow: -2px 0 0 var(--line); }
ul.inputs { columns: 2; font-size: 0.85rem; color: var(--muted); }
footer { margin-top: 48px; color: var(--muted); font-size: 0.85rem; }
.muted { color: var(--muted); }
.banner { background: #fff3cd; border: 2px solid #c9a227; padding: 12px 16px; margin: 16px 0; font-size: 1.05rem; }
ul.examples { font-size: 0.9rem; }
ul.examples code { font-size: 0.8rem; color: var(--muted); }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  h2 { break-after: avoid; }
  figure, table { break-inside: avoid; }
  .wide { overflow: visible; }
}
"#;

/// Renders the whole report.
pub fn render(
    info: &PageInfo<'_>,
    report: &crate::analysis::Report,
    scheme: &BandScheme,
) -> anyhow::Result<String> {
    let stats = &report.aggregate.stats;
    let mut h = String::with_capacity(256 * 1024);
    let overall = stats.overall();
    let decisive = stats.games - stats.draws;
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{title}</h1>\n\
         <p class=\"lead\">How games were drawn: draw rates by rating band and year, the rules that drew them, and how long drawn games lasted.</p>\n</header>\n",
        title = escape(info.title)
    );

    if report.aggregate.synthetic > 0 {
        let _ = writeln!(
            h,
            "<div class=\"banner\" id=\"synthetic\" role=\"alert\"><strong>Generated games.</strong> \
             {} rows of these tables were made by <code>remis generate</code>: random legal moves between invented players. \
             The figures below show the tool at work; they say nothing about chess.</div>",
            thousands(report.aggregate.synthetic)
        );
    }

    // 1. Headline.
    let _ = write!(
        h,
        "<section id=\"headline\">\n<h2>Headline</h2>\n<div class=\"headline\">\
         <div>Games used<b>{}</b></div><div>Decisive<b>{}</b></div><div>Drawn<b>{}</b></div>\
         <div>Draw rate<b>{}</b>95% interval {}</div></div>\n",
        thousands(stats.games),
        thousands(decisive),
        thousands(stats.draws),
        pct(overall.rate()),
        interval(&overall)
    );
    let _ = write!(h, "<p><strong>Filters:</strong> ");
    if info.filters.is_empty() {
        h.push_str("none");
    } else {
        h.push_str(&escape(&info.filters.join("; ")));
    }
    h.push_str(". Intervals are 95% Wilson score intervals. Games that were invalid, unfinished or of an unsupported variant are not counted in any rate (see Coverage).</p>\n");
    let _ = write!(
        h,
        "<details><summary>Input tables ({})</summary><ul class=\"inputs\">",
        info.inputs.len()
    );
    for input in info.inputs {
        let _ = write!(h, "<li>{}</li>", escape(input));
    }
    h.push_str("</ul></details>\n");
    // The one line that says how the counts were read: a report from
    // summary files equals the report from rows but for this line.
    let _ = writeln!(
        h,
        "<p class=\"muted\" id=\"counts-from\">Counts {}.</p>\n</section>",
        escape(info.counts_from)
    );

    // 2. Draw rate by year.
    let years_svg = charts::rate_by_year(stats, scheme, info.chart_bands)?;
    section(
        &mut h,
        "by-year",
        "Draw rate by year",
        "One line per rating band (bands with at least 30 games; at most the eight largest). \
         Shaded areas are 95% intervals; a year is drawn only where its band has at least 30 games. \
         The band × year table below gives every number.",
        &years_svg,
    );
    h.push_str("</section>\n");

    // 3. Draw rate by band.
    let band_svg = charts::rate_by_band(stats, scheme)?;
    section(
        &mut h,
        "by-band",
        "Draw rate by rating band, all years",
        "Each bar is the share of drawn games in a band, with its 95% interval and the number of games.",
        &band_svg,
    );
    band_table(&mut h, stats, scheme);

    // 4. Draw types by band.
    let mix_svg = charts::draw_mix_by_band(stats, scheme)?;
    section(
        &mut h,
        "draw-types",
        "How the draws happened",
        "Draw types as decided from the final position and the record, following the FIDE Laws \
         (art. 5.2, 6.9, 9.2, 9.3, 9.6): agreed draws, repetitions, the 50- and 75-move rules, stalemate, \
         insufficient material, and timeouts against a side that cannot mate.",
        &mix_svg,
    );
    draw_type_table(&mut h, stats, scheme);

    // 5. Length of drawn games.
    let length_svg = charts::draw_length(stats, info.short_draws)?;
    let [first, second] = info.short_draws;
    let (short20, agreed20) = stats.short_draws(first);
    let (short30, agreed30) = stats.short_draws(second);
    section(
        &mut h,
        "length",
        "How long drawn games lasted",
        "The number of moves played in drawn games. Short agreed draws are what rules such as the \
         “Sofia rules” (no draw offers) and minimum-move rules aim at.",
        &length_svg,
    );
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

    // 6. Band × year table.
    heatmap(&mut h, stats, scheme);

    // 7. Beyond the draw rate.
    super::sections::outcomes(&mut h, &report.outcomes, scheme)?;
    super::sections::rating_gap(&mut h, &report.rating_gap, scheme);
    super::sections::time_classes(&mut h, &report.time_classes, scheme)?;
    super::sections::openings(&mut h, &report.openings);
    super::sections::clocks(&mut h, &report.clocks);

    // 8. Rules against short draws.
    if let Some(study) = &report.rule_study {
        rule_study_section(&mut h, study)?;
    }

    // 9. Scoring systems.
    scoring_section(&mut h, &report.scoring);

    // 10. Results the Laws contradict.
    audit_section(&mut h, &report.audit);

    // 11. Coverage.
    coverage(&mut h, &report.aggregate.coverage);

    let _ = write!(
        h,
        "<footer>Made by {} — remis replays every game with shakmaty and classifies it by the FIDE Laws of Chess. \
         This page needs no network and no scripts.</footer>\n</body>\n</html>\n",
        escape(info.generated_by)
    );
    Ok(h)
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
    h.push_str("</table></div>\n</section>\n");
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
    h.push_str(
        "</table></div>\n<p class=\"caption\">Shares of each band's draws.</p>\n</section>\n",
    );
}

/// Background colour for a draw rate: white at 0%, deep blue at 80%+.
/// A heatmap cell: the rate over its count, coloured by the rate, with the
/// interval as a tooltip.
pub(crate) fn heat_cell(h: &mut String, p: &Proportion) {
    let rate = p.rate().unwrap_or(0.0);
    let color = if rate > 0.45 { "#fff" } else { "inherit" };
    let _ = write!(
        h,
        "<td style=\"background:{};color:{color}\" title=\"95% interval {}\">{}<br>n={}</td>",
        heat(rate),
        interval(p),
        pct(p.rate()),
        p.n
    );
}

pub(crate) fn heat(rate: f64) -> String {
    let t = (rate / 0.8).clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(255.0, 0x2f as f64),
        mix(255.0, 0x5d as f64),
        mix(255.0, 0x8a as f64)
    )
}

fn heatmap(h: &mut String, stats: &DrawStats, scheme: &BandScheme) {
    let years = stats.years();
    let bands: Vec<Band> = stats.by_band.keys().copied().collect();
    let _ = write!(
        h,
        "<section id=\"table\">\n<h2>Band × year</h2>\n<p class=\"caption\">Draw rate in each cell, with the number of games; \
         the colour deepens with the draw rate. Cells with fewer than {MIN_CELL_GAMES} games are greyed and marked “*”: \
         their rates say little.</p>\n<div class=\"wide\"><table><tr><th class=\"l\">Band</th>"
    );
    for y in &years {
        let _ = write!(h, "<th>{y}</th>");
    }
    h.push_str("<th class=\"total\">All</th></tr>");
    for band in bands {
        let _ = write!(
            h,
            "<tr><th class=\"l\">{}</th>",
            escape(&scheme.label(band))
        );
        for y in &years {
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
        let all = stats.by_band[&band];
        let _ = write!(
            h,
            "<td class=\"total\"><strong>{}</strong><br>n={}</td></tr>",
            pct(all.rate()),
            all.n
        );
    }
    h.push_str("</table></div>\n");
    if !stats.no_year.is_empty() {
        let n: u64 = stats.no_year.values().map(|p| p.n).sum();
        let _ = writeln!(
            h,
            "<p class=\"caption\">{} games without a year are counted in the “All” column only.</p>",
            thousands(n)
        );
    }
    h.push_str("</section>\n");
}

fn coverage(h: &mut String, coverage: &[(String, u64)]) {
    let total: u64 = coverage.iter().map(|(_, n)| n).sum();
    let _ = write!(
        h,
        "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p class=\"caption\">Every row of the input tables, and why rows were left out of the rates. \
         Games without both ratings are kept, in the “unrated” band, unless a minimum rating is set.</p>\n\
         <table><tr><th class=\"l\">Rows</th><th>Games</th><th>Share</th></tr><tr><td class=\"l\">Read</td><td>{}</td><td>100%</td></tr>",
        thousands(total)
    );
    for (reason, n) in coverage {
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
    h.push_str("</table>\n</section>\n");
}

fn rule_study_section(
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

fn scoring_section(h: &mut String, study: &crate::analysis::scoring::ScoringStudy) {
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

fn audit_section(h: &mut String, audit: &crate::analysis::audit::Audit) {
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
