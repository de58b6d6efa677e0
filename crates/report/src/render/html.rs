//! The report page: one self-contained HTML file (inline CSS and SVG, no
//! scripts, no network requests) that prints well.

use std::fmt::Write;

use super::format::{escape, thousands};
use super::sections;
pub use super::sections::{InputInfo, PageInfo, Settings, Source, TableOrigin};
use crate::study::BandScheme;

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
td.note { text-align: left; white-space: normal; }
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
.print-only { display: none; }
@media print {
  body { max-width: none; padding: 0; font-size: 9pt; }
  h2, h3 { break-after: avoid; }
  figure, svg { break-inside: avoid; }
  /* Every table the page's width: cells wrap, no column is cut off. */
  .wide { overflow: visible; }
  table { table-layout: fixed; width: 100%; font-size: 7pt; }
  /* Every cell wraps, the left-aligned label cells too (on screen they
     keep one line): a label wider than its printed column spilled over
     the next cell. */
  th, td, td.l, th.l { overflow-wrap: anywhere; white-space: normal; padding: 1px 3px; position: static !important; }
  code { white-space: normal; word-break: break-all; }
  /* A SHA-256 on one line. */
  #provenance th:last-child { width: 60%; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  /* Collapsed sections are printed open. */
  details::details-content { content-visibility: visible; display: block; }
  details > summary { list-style: none; font-weight: 600; }
  .screen-only { display: none; }
  .print-only { display: block; }
  .print-only table { margin-bottom: 0.6rem; }
  p.csv { display: none; }
}
"#;

/// Renders the whole report.
pub fn render(
    info: &PageInfo<'_>,
    report: &crate::analysis::Report,
    scheme: &BandScheme,
) -> anyhow::Result<String> {
    let mut h = String::with_capacity(256 * 1024);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}{trail}</style>\n</head>\n<body>\n<header>\n<h1>{title}</h1>\n\
         <p class=\"lead\">How games were drawn: draw rates by rating band and year, the rules that drew them, and how long drawn games lasted.</p>\n</header>\n<!--contents-->\n",
        title = escape(info.title),
        trail = super::explain::STYLE
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

    let stats = &report.aggregate.stats;
    let bins = info.year_bins;
    let binned = stats.binned(bins);
    // The sections in page order; each is written in `sections`.
    // The lead figures are of one format; their titles say which.
    let format = if report.aggregate.lead_is_all {
        String::new()
    } else {
        format!(": {}", report.aggregate.lead.label())
    };
    sections::headline(&mut h, info, report);
    sections::by_year(&mut h, info, &binned, scheme, &format)?;
    sections::by_band(
        &mut h,
        stats,
        scheme,
        info.band_basis,
        info.band_axis,
        &format,
    )?;
    sections::sample_note(&mut h, report, scheme);
    sections::sensitivity(&mut h, report, scheme);
    sections::draw_types(&mut h, stats, scheme, &format)?;
    sections::lengths(&mut h, info, report)?;
    let presumed =
        super::format_audit::presumption_note(&report.format_audit, &report.aggregate.lead);
    sections::heatmap(&mut h, &binned, scheme, bins, &format, presumed.as_deref());
    sections::outcomes(
        &mut h,
        &report.outcomes,
        scheme,
        bins,
        &report.rating_gap.systems,
    )?;
    sections::rating_gap(&mut h, &report.rating_gap, scheme);
    sections::expected_section(&mut h, &report.expected)?;
    sections::time_classes(&mut h, &report.time_classes, &report.format, scheme)?;
    sections::play_section(&mut h, &report.format, bins)?;
    super::format_audit::format_audit_section(&mut h, &report.format_audit);
    sections::openings(&mut h, &report.openings);
    sections::clocks(&mut h, &report.clocks);
    if let Some(study) = &report.rule_study {
        sections::rule_study_section(&mut h, study)?;
    }
    sections::scoring_section(&mut h, &report.scoring);
    sections::audit_section(&mut h, &report.audit, &report.explanations);
    sections::players_section(&mut h, report);
    sections::coverage(
        &mut h,
        &report.aggregate.coverage,
        &report.aggregate.all,
        info.band_basis,
    );
    sections::methods_section(&mut h, &report.audit);
    sections::cite_section(&mut h, info, stats);
    sections::provenance_section(&mut h, info);
    sections::footer(&mut h, info);
    Ok(with_contents(with_populations(h, report)))
}

/// Whose games a section of the page counts.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Whose {
    /// The lead population (the headline's).
    Lead,
    /// Every game used, of every format: the section's counts are not
    /// kept apart by format.
    Everyone,
    /// Every game used, compared by format.
    Compared,
}

/// The population of each section of the page, by its id; `None` for the
/// parts that are about the page, not about games (and the rule study,
/// whose estimates state their own editions and controls). The Players
/// section counts the lead population where the summary keeps its players
/// apart (`players_of_lead`: `analysis::players_of`), else every game.
pub fn whose(section: &str, players_of_lead: bool) -> Option<Whose> {
    match section {
        "by-year" | "by-band" | "draw-types" | "length" | "table" | "outcomes" | "rating-gap"
        | "openings" | "standardised" | "expected" => Some(Whose::Lead),
        "clocks" | "scoring" | "audit" | "explanations" => Some(Whose::Everyone),
        "players" if players_of_lead => Some(Whose::Lead),
        "players" => Some(Whose::Everyone),
        "time-classes" | "play" | "format-audit" | "coverage" => Some(Whose::Compared),
        _ => None,
    }
}

/// Writes under each section's heading whose games it counts, from one
/// place ([`whose`]), so that no section can leave it unsaid.
fn with_populations(page: String, report: &crate::analysis::Report) -> String {
    let aggregate = &report.aggregate;
    // The filters every section shares are in the headline's statement.
    let lead = escape(&aggregate.population.label());
    let lead_games = aggregate.population.games;
    let used = aggregate.everyone.games;
    // Where the lead population is every game used, the two are one.
    let one = |whose: Whose| match whose {
        Whose::Everyone if aggregate.lead_is_all => Whose::Lead,
        other => other,
    };
    let line = |whose: Whose| match one(whose) {
        Whose::Lead => format!(
            "<p class=\"population\" data-whose=\"lead\" data-games=\"{lead_games}\"><strong>Counts:</strong> {lead}.</p>"
        ),
        Whose::Everyone => format!(
            "<p class=\"population\" data-whose=\"everyone\" data-games=\"{used}\"><strong>Counts every game used</strong>, \
             of every kind of play and time class: {} games, not only the {} {} of the lead figures (these counts \
             are not kept apart by format).</p>",
            thousands(used),
            thousands(lead_games),
            escape(&aggregate.lead.label())
        ),
        Whose::Compared => format!(
            "<p class=\"population\" data-whose=\"compared\" data-games=\"{used}\"><strong>Compares formats:</strong> \
             all {} games used, by kind of play and time class.</p>",
            thousands(used)
        ),
    };
    let mut out = String::with_capacity(page.len() + 4096);
    let mut rest = page.as_str();
    while let Some(at) = rest.find("<section id=\"") {
        let start = at + 13;
        let Some(end) = rest[start..].find('"') else {
            break;
        };
        let id = &rest[start..start + end];
        let heading_end = rest[at..].find("</h2>").map(|i| at + i + 5);
        match (whose(id, report.players_of_lead), heading_end) {
            (Some(who), Some(heading_end)) => {
                out.push_str(&rest[..heading_end]);
                out.push('\n');
                out.push_str(&line(who));
                rest = &rest[heading_end..];
            }
            _ => {
                out.push_str(&rest[..start]);
                rest = &rest[start..];
            }
        }
    }
    out.push_str(rest);
    out
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
