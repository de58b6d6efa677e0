//! The report page: one self-contained HTML file (inline CSS and SVG, no
//! scripts, no network requests) that prints well.

use std::fmt::Write;

use super::charts::{self, draw_type_color, hex};
use super::escape;
use crate::analysis::draws::{DrawStats, MIN_CELL_GAMES, YearBins};
use crate::study::{Band, BandScheme, Proportion};
use remis_core::rules::DrawType;

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
}

pub(crate) fn pct(p: Option<f64>) -> String {
    p.map_or("–".into(), |r| format!("{:.1}%", r * 100.0))
}

pub(crate) fn interval(p: &Proportion) -> String {
    p.wilson95().map_or("–".into(), |(lo, hi)| {
        format!("{:.1}–{:.1}%", lo * 100.0, hi * 100.0)
    })
}

/// A link that downloads a table as CSV from the page itself (a data:
/// URI: the page stays one file, with no network and no scripts).
pub(crate) fn csv_download(file: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let quote = |cell: &str| {
        if cell.contains([',', '"', '\n']) {
            format!("\"{}\"", cell.replace('"', "\"\""))
        } else {
            cell.to_string()
        }
    };
    let mut text = header
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(",");
    text.push('\n');
    for row in rows {
        text.push_str(&row.iter().map(|c| quote(c)).collect::<Vec<_>>().join(","));
        text.push('\n');
    }
    let mut encoded = String::with_capacity(text.len() * 2);
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                encoded.push(char::from(b))
            }
            _ => {
                let _ = write!(encoded, "%{b:02X}");
            }
        }
    }
    format!(
        "<p class=\"csv\"><a download=\"{}\" href=\"data:text/csv;charset=utf-8,{encoded}\">Download this table as CSV</a></p>\n",
        escape(file)
    )
}

/// A proportion as CSV cells: n, successes, rate, interval.
pub(crate) fn share_cells(p: &Proportion) -> Vec<String> {
    let (lo, hi) = p
        .wilson95()
        .map_or((String::new(), String::new()), |(l, h)| {
            (format!("{l:.4}"), format!("{h:.4}"))
        });
    vec![
        p.n.to_string(),
        p.successes.to_string(),
        p.rate().map_or(String::new(), |r| format!("{r:.4}")),
        lo,
        hi,
    ]
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
         <p class=\"lead\">How games were drawn: draw rates by rating band and year, the rules that drew them, and how long drawn games lasted.</p>\n</header>\n<!--contents-->\n",
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
    let mut filters: Vec<String> = info.filters.to_vec();
    filters.extend(info.year_bins.describe());
    h.push_str(&escape(&filters.join("; ")));
    h.push_str(". Intervals are 95% Wilson score intervals (games taken as independent; see Methods). Games that were invalid, unfinished or of an unsupported variant are not counted in any rate (see Coverage).</p>\n");
    play_headline(&mut h, &report.format);
    h.push_str("</section>\n");

    // 2. Draw rate by year.
    let bins = info.year_bins;
    let binned = stats.binned(bins);
    let years_svg =
        charts::rate_by_year(&binned, scheme, info.chart_bands, &|y| bins.bin(y), &|y| {
            bins.short_label(y)
        })?;
    section(
        &mut h,
        "by-year",
        "Draw rate by year",
        "One line per rating band (bands with at least 30 games; at most the eight largest), in \
         colours ordered from the lowest band to the highest. Shaded areas are 95% intervals; a year \
         is drawn only where its band has at least 30 games. The vertical axis runs from 0 to just \
         above the highest interval, fit to the data. Unrated games are not a band on this axis: \
         see the band table. The band × year table below gives every number with its n. Unless the \
         filters name a kind of play, online and over-the-board games are both counted here: see \
         “Online and over the board” for the split.",
        &years_svg,
    );
    h.push_str("</section>\n");

    // 3. Draw rate by band.
    let band_svg = charts::rate_by_band(stats, scheme)?;
    section(
        &mut h,
        "by-band",
        "Draw rate by rating band, all years",
        "Each bar is the share of drawn games in a band, with its 95% interval and the number of games; \
         the vertical axis is fit to the data from 0. Bands are ranges of the lower-rated player's rating \
         (or of the basis the filters name). Unrated games are listed in the table, not charted.",
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

    // 6. Band × year table.
    heatmap(&mut h, &binned, scheme, bins);

    // 7. Beyond the draw rate.
    super::sections::outcomes(&mut h, &report.outcomes, scheme, &report.rating_gap.systems)?;
    super::sections::rating_gap(&mut h, &report.rating_gap, scheme);
    super::sections::time_classes(&mut h, &report.time_classes, &report.format, scheme)?;
    play_section(&mut h, &report.format, bins)?;
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

    // 12. Methods, citation and provenance.
    methods_section(&mut h);
    cite_section(&mut h, info, stats);
    provenance_section(&mut h, info);

    let _ = write!(
        h,
        "<footer>Made by {} — remis replays every game with shakmaty and classifies it by the FIDE Laws of Chess. \
         This page needs no network and no scripts.</footer>\n</body>\n</html>\n",
        escape(info.generated_by)
    );
    Ok(with_contents(h))
}

/// Replaces the contents placeholder with a list of the page's sections.
fn with_contents(page: String) -> String {
    let mut items = String::new();
    let mut rest = page.as_str();
    while let Some(at) = rest.find("<section id=\"") {
        rest = &rest[at + 13..];
        let Some(end) = rest.find('"') else { break };
        let id = &rest[..end];
        let Some(h2) = rest.find("<h2>") else { break };
        let Some(close) = rest[h2..].find("</h2>") else {
            break;
        };
        let title = &rest[h2 + 4..h2 + close];
        if id != "headline" && h2 < 80 {
            let _ = write!(items, "<li><a href=\"#{id}\">{title}</a></li>");
        }
    }
    page.replacen(
        "<!--contents-->",
        &format!("<nav id=\"contents\"><h2>Contents</h2><ol>{items}</ol></nav>"),
        1,
    )
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
    h.push_str("</table>\n<p class=\"caption\">Online: the <code>Site</code> tag names an online platform, or the event's \
        name is an online event's (Titled Tuesday, PRO League, …; <code>data/event_patterns.toml</code>). The time class \
        comes from <code>TimeControl</code>, else from the event's name, else it is taken as classical.</p>\n");
    h.push_str(&csv_download(
        "draw-rate-by-play-and-time-class.csv",
        &[
            "played",
            "time_class",
            "games",
            "draws",
            "draw_rate",
            "ci95_low",
            "ci95_high",
        ],
        &rows,
    ));
}

/// Draw rate by year for online and over-the-board play, per time class.
fn play_section(
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

/// How to read the numbers.
fn methods_section(h: &mut String) {
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
         Bands are ranges of the lower-rated player's rating unless the filters say otherwise.</p>\n\
         <p><strong>Intervals.</strong> 95% Wilson score intervals for proportions; for White's score, the Wilson \
         interval on the score as a share of the points (a little wide when games are drawn, never of zero \
         width). Cells with fewer than 30 games are greyed or left out of charts.</p>\n\
         <p><strong>Independence.</strong> The intervals treat games as independent. They are not: a player's \
         games share the player (a lichess export is a few accounts' games; a master database is one file per \
         player), and an event's games share the event. The intervals are therefore too narrow for claims about \
         players or events in general; the rule study resamples whole event editions for that reason.</p>\n\
         <p><strong>Online and over the board.</strong> Told apart by the <code>Site</code> tag's platform and by \
         event names (<code>data/event_patterns.toml</code>); Chess960 and correspondence games are left out of \
         every rate unless asked for, and counted under Coverage.</p>\n</section>\n",
    );
}

/// A citation block for the page.
fn cite_section(h: &mut String, info: &PageInfo<'_>, stats: &DrawStats) {
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
fn provenance_section(h: &mut String, info: &PageInfo<'_>) {
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
        &[
            "band",
            "games",
            "draws",
            "draw_rate",
            "ci95_low",
            "ci95_high",
        ],
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

fn heatmap(h: &mut String, stats: &DrawStats, scheme: &BandScheme, bins: YearBins) {
    let years = stats.years();
    let bands: Vec<Band> = stats.by_band.keys().copied().collect();
    let mut csv = Vec::new();
    let _ = write!(
        h,
        "<section id=\"table\">\n<h2>Band × year</h2>\n<p class=\"caption\">Draw rate in each cell, with the number of games; \
         the colour deepens with the draw rate. Cells with fewer than {MIN_CELL_GAMES} games are greyed and marked “*”: \
         their rates say little.</p>\n<div class=\"wide\"><table><tr><th class=\"l\">Band</th>"
    );
    for y in &years {
        let _ = write!(h, "<th>{}</th>", bins.label(*y));
    }
    h.push_str("<th class=\"total\">All</th></tr>");
    for band in bands {
        for y in &years {
            if let Some(p) = stats.by_band_year.get(&(band, *y)) {
                let mut row = vec![scheme.label(band), bins.label(*y)];
                row.extend(share_cells(p));
                csv.push(row);
            }
        }
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
    h.push_str(&csv_download(
        "draw-rate-by-band-and-year.csv",
        &[
            "band",
            "years",
            "games",
            "draws",
            "draw_rate",
            "ci95_low",
            "ci95_high",
        ],
        &csv,
    ));
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
    h.push_str("</section>\n");
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
