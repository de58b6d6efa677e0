//! A small table of results for the terminal, CSV or JSON: what
//! `remis stats` prints, whatever the analysis.

use std::io::{self, Write};

use remis_core::excerpt::shown;

/// One cell. Missing values print as "–" in text, empty in CSV and `null`
/// in JSON. Text in the terminal is shown escaped (a line feed in a name
/// as `\u000a`: [`remis_core::excerpt::shown`]); CSV quotes it (RFC 4180:
/// a line feed stays, inside double quotes) and JSON escapes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Text(String),
    Count(u64),
    /// A share or score from 0 to 1: text shows it as a percentage.
    Share(Option<f64>),
    Number(Option<f64>),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Text(s) => shown(s).into_owned(),
            Cell::Count(n) => n.to_string(),
            Cell::Share(Some(v)) => super::format::percent(*v),
            Cell::Number(Some(v)) => format!("{v:.3}"),
            Cell::Share(None) | Cell::Number(None) => "–".into(),
        }
    }

    fn csv(&self) -> String {
        match self {
            Cell::Text(s) => super::format::csv_field(s).into_owned(),
            Cell::Count(n) => n.to_string(),
            Cell::Share(Some(v)) | Cell::Number(Some(v)) => format!("{v:.6}"),
            Cell::Share(None) | Cell::Number(None) => String::new(),
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Cell::Text(s) => serde_json::Value::String(s.clone()),
            Cell::Count(n) => serde_json::Value::from(*n),
            Cell::Share(v) | Cell::Number(v) => v
                .filter(|v| v.is_finite())
                .map_or(serde_json::Value::Null, serde_json::Value::from),
        }
    }
}

/// Named columns and rows of cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<Cell>>,
    /// Whose games the rows count (`analysis::population`): a line after
    /// the aligned table, a `population` column in CSV, a `population`
    /// field of every JSON object.
    pub population: Option<String>,
}

#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns for the terminal.
    Table,
    /// Comma-separated values with a header line.
    Csv,
    /// A JSON array of objects, one per row.
    Json,
}

/// How `sofia` and `scoring` print: their output is a study, not one
/// table, so there is no CSV of it.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum StudyFormat {
    /// Text for the terminal.
    Table,
    /// One JSON document, for notebooks and scripts.
    Json,
}

impl Table {
    pub fn new(columns: Vec<&'static str>) -> Table {
        Table {
            columns,
            rows: Vec::new(),
            population: None,
        }
    }

    pub fn push(&mut self, row: Vec<Cell>) {
        debug_assert_eq!(row.len(), self.columns.len());
        self.rows.push(row);
    }

    pub fn write(&self, out: &mut dyn Write, format: Format) -> io::Result<()> {
        match format {
            Format::Table => {
                let cells: Vec<Vec<String>> = self
                    .rows
                    .iter()
                    .map(|r| r.iter().map(Cell::text).collect())
                    .collect();
                let widths: Vec<usize> = (0..self.columns.len())
                    .map(|i| {
                        cells
                            .iter()
                            .map(|r| r[i].chars().count())
                            .chain(std::iter::once(self.columns[i].len()))
                            .max()
                            .unwrap_or(0)
                    })
                    .collect();
                // Text columns read left-aligned, numbers right-aligned.
                let left: Vec<bool> = (0..self.columns.len())
                    .map(|i| i == 0 || self.rows.iter().all(|r| matches!(r[i], Cell::Text(_))))
                    .collect();
                let line = |out: &mut dyn Write, values: &[String]| -> io::Result<()> {
                    let mut text = String::new();
                    for (i, v) in values.iter().enumerate() {
                        let pad = " ".repeat(widths[i].saturating_sub(v.chars().count()));
                        if i > 0 {
                            text.push_str("  ");
                        }
                        if left[i] {
                            text.push_str(v);
                            text.push_str(&pad);
                        } else {
                            text.push_str(&pad);
                            text.push_str(v);
                        }
                    }
                    writeln!(out, "{}", text.trim_end())
                };
                let header: Vec<String> = self.columns.iter().map(|c| c.to_string()).collect();
                line(out, &header)?;
                for row in &cells {
                    line(out, row)?;
                }
                if let Some(population) = &self.population {
                    writeln!(out, "(counts {})", shown(population))?;
                }
            }
            Format::Csv => {
                let population = self
                    .population
                    .as_ref()
                    .map(|p| Cell::Text(p.clone()).csv());
                let mut header = self.columns.join(",");
                if population.is_some() {
                    header.push_str(",population");
                }
                writeln!(out, "{header}")?;
                for row in &self.rows {
                    let mut cells: Vec<String> = row.iter().map(Cell::csv).collect();
                    cells.extend(population.clone());
                    writeln!(out, "{}", cells.join(","))?;
                }
            }
            Format::Json => {
                let rows: Vec<serde_json::Value> = self
                    .rows
                    .iter()
                    .map(|row| {
                        serde_json::Value::Object(
                            self.columns
                                .iter()
                                .zip(row)
                                .map(|(c, v)| (c.to_string(), v.json()))
                                .chain(self.population.as_ref().map(|p| {
                                    ("population".to_string(), serde_json::Value::from(p.clone()))
                                }))
                                .collect(),
                        )
                    })
                    .collect();
                serde_json::to_writer_pretty(&mut *out, &rows)?;
                writeln!(out)?;
            }
        }
        Ok(())
    }
}

/// First place in words: one winner, or a tie named as one.
pub fn winners(players: &[String]) -> String {
    match players {
        [] => "–".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {} (tied)", init.join(", "), last),
    }
}

/// An effect in percentage points, and its interval in words:
/// ("+1.2", "(−0.3 to +2.5)"). `None` when there is no estimate.
pub fn effect_parts(e: Option<&crate::analysis::rule_study::Effect>) -> Option<(String, String)> {
    let e = e?;
    let interval = match (e.interval, e.withheld) {
        (Some((lo, hi)), _) => format!("({:+.1} to {:+.1})", lo * 100.0, hi * 100.0),
        (None, Some(w)) => format!("({})", w.reason()),
        (None, None) => "(no interval)".into(),
    };
    Some((format!("{:+.1}", e.estimate * 100.0), interval))
}

/// An effect and its interval on one line, "–" without an estimate.
pub fn effect(e: Option<&crate::analysis::rule_study::Effect>) -> String {
    effect_parts(e).map_or_else(
        || "–".into(),
        |(estimate, interval)| format!("{estimate} {interval}"),
    )
}

/// A clustered estimate in percentage points and its interval in words,
/// with what it rests on when there is no interval.
pub fn stratified_parts(
    s: Option<&crate::analysis::rule_study::wild::Stratified>,
) -> Option<(String, String)> {
    let s = s?;
    let interval = match s.effect.interval {
        Some((lo, hi)) => format!("({:+.1} to {:+.1})", lo * 100.0, hi * 100.0),
        None => format!(
            "({}; {} rule / {} control editions)",
            s.effect
                .withheld
                .map_or("no interval".into(), |w| w.reason()),
            s.clusters[0],
            s.clusters[1]
        ),
    };
    Some((format!("{:+.1}", s.effect.estimate * 100.0), interval))
}

/// A clustered estimate and its interval on one line, "–" without one.
pub fn stratified(s: Option<&crate::analysis::rule_study::wild::Stratified>) -> String {
    stratified_parts(s).map_or_else(
        || "–".into(),
        |(estimate, interval)| format!("{estimate} {interval}"),
    )
}

/// A bootstrap p-value ("0.030"; "< 0.005" when no replicate reached the
/// statistic; "–" without one).
pub fn p_value(p: Option<f64>) -> String {
    use crate::analysis::rule_study::model::MODEL_REPLICATES;
    match p {
        None => "–".into(),
        Some(p) if p <= 0.0 => format!("< {:.3}", 2.0 / MODEL_REPLICATES as f64),
        Some(p) => format!("{p:.3}"),
    }
}

/// The coverage simulation and the minimum it sets, in words (terminal
/// and page).
pub fn calibration(c: &crate::analysis::rule_study::inference::coverage::Calibration) -> String {
    use crate::analysis::rule_study::inference::coverage as sim;
    let found: Vec<String> = c
        .designs
        .iter()
        .map(|(k, cov)| {
            format!(
                "{k}: {:.1}%{}",
                cov.coverage * 100.0,
                if cov.unbounded > 0.0 {
                    format!(" ({:.0}% unbounded)", cov.unbounded * 100.0)
                } else {
                    String::new()
                }
            )
        })
        .collect();
    let minimum = match c.minimum {
        Some(m) => format!(
            "Intervals are shown from {m} editions in a comparison's smallest group: every design of these data with at least {m} covered the planted effect within {:.0} points of 95%",
            sim::TOLERANCE * 100.0
        ),
        None => format!(
            "No interval is shown: the design with the most editions did not cover the planted effect within {:.0} points of 95%",
            sim::TOLERANCE * 100.0
        ),
    };
    format!(
        "{minimum} (coverage simulation at the data's own edition counts and sizes, raw estimates, {} data sets a design with {} replicates; planted draw rate {:.0}%, each edition shifted uniformly within ±{:.0} points, effect {:+.0} points). Coverage by smallest group: {}.",
        sim::DATA_SETS,
        sim::SIMULATION_REPLICATES,
        sim::BASE_RATE * 100.0,
        sim::EDITION_SHIFT * 100.0,
        sim::PLANTED_EFFECT * 100.0,
        found.join(", ")
    )
}

/// The primary model's own coverage simulation and the minimum it sets,
/// in words (terminal and page).
pub fn model_coverage(c: &crate::analysis::rule_study::model_coverage::ModelCoverage) -> String {
    use crate::analysis::rule_study::model_coverage as sim;
    let tally = |t: &sim::Tally| {
        format!(
            "{:.1}%{}",
            t.coverage() * 100.0,
            if t.unbounded > 0 {
                format!(" ({:.0}% unbounded)", t.unbounded_share() * 100.0)
            } else {
                String::new()
            }
        )
    };
    let by_count: Vec<String> = c
        .by_count
        .iter()
        .map(|(k, t)| {
            format!(
                "{k}: {} of {}{}",
                tally(t),
                t.data_sets,
                if t.holds() { "" } else { ", fails" }
            )
        })
        .collect();
    let mut regimes: Vec<String> = Vec::new();
    for r in c
        .cells
        .iter()
        .map(|x| x.regime)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let cells: Vec<String> = c
            .cells
            .iter()
            .filter(|x| x.regime == r)
            .map(|x| {
                format!(
                    "{}{}: {} / {}",
                    x.treated,
                    if x.treated == x.of { " (its own)" } else { "" },
                    tally(&x.by_effect[0]),
                    tally(&x.by_effect[1])
                )
            })
            .collect();
        regimes.push(format!("{} {}", r.as_str(), cells.join(", ")));
    }
    let minimum = match c.minimum {
        Some(m) => format!(
            "The model's intervals are shown from {m} identifying editions of a regime (its own coverage simulation)"
        ),
        None => "No interval of the model is shown: at the largest count simulated its own coverage simulation did not hold".into(),
    };
    let own = c.at_own_counts();
    format!(
        "{minimum}: {}. Coverage by identifying editions, pooled: {}. At the data's own designs (each regime at its own \
count, its real editions under the rule): {} of {}. By regime (effect {:+.0} / {:+.0}): {}.",
        model_coverage_design(c),
        by_count.join(", "),
        tally(&own),
        own.data_sets,
        sim::EFFECTS[0] * 100.0,
        sim::EFFECTS[1] * 100.0,
        regimes.join("; "),
    )
}

/// How the primary model's coverage simulation is made, and its rule.
pub fn model_coverage_design(
    c: &crate::analysis::rule_study::model_coverage::ModelCoverage,
) -> String {
    use crate::analysis::rule_study::model_coverage as sim;
    format!(
        "the model's design as fitted (its editions, groups of games and fixed effects), each group's draw rate \
the fit's without the regimes' terms, each edition shifted by a normal shock of sd {:.1} points (the between-edition sd \
estimated from the fit's residuals by the method of moments), the treated editions by a planted effect of {:+.0} or {:+.0} \
points; the data's own count of identifying editions and fewer (down to 2, a random few kept under the rule, the rest \
coded without it, redrawn every {} data sets); {} data sets per regime, count and effect, each with the model's restricted \
wild cluster bootstrap ({} replicates, seed {}); {}",
        c.between_edition_sd * 100.0,
        sim::EFFECTS[0] * 100.0,
        sim::EFFECTS[1] * 100.0,
        sim::SUBSAMPLE_EVERY,
        sim::DATA_SETS,
        sim::REPLICATES,
        sim::SEED,
        sim::rule(),
    )
}

/// What one regime's estimates rest on, in words: editions, the matched
/// controls and the mean ratings.
pub fn regime_basis(e: &crate::analysis::rule_study::RegimeEstimate) -> String {
    use crate::analysis::rule_study::{MATCH_RATING, MATCH_YEARS};
    let rating = |r: Option<f64>| r.map_or("–".into(), |r| format!("{r:.0}"));
    let years = e.years.map_or(String::new(), |(a, b)| {
        if a == b {
            format!(", {a}")
        } else {
            format!(", {a}–{b}")
        }
    });
    let pairs = e
        .measures
        .first()
        .and_then(|m| m.within_pair)
        .map_or(0, |w| w.strata);
    let types = |m: &std::collections::BTreeMap<crate::study::events::EventType, usize>| {
        m.iter()
            .map(|(t, n)| format!("{n} {}", t.label()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let share = |s: Option<f64>| s.map_or("–".into(), |s| format!("{:.0}%", s * 100.0));
    format!(
        "{} rule editions{years} ({}; {} without a control of the same kind of event and format within {MATCH_YEARS} years and {MATCH_RATING:.0} points of mean rating); controls matched {} of {} ({}); matched control games of the same kind as their rule edition {} (format, years and rating alone would give {}); mean rating {} under the rule, {} matched controls, {} all controls; {pairs} pairs of players met under both",
        e.rule_editions,
        types(&e.rule_types),
        e.unmatched,
        e.matched_controls,
        e.all_controls,
        types(&e.control_types),
        share(e.same_type_share),
        share(e.same_type_share_format_only),
        rating(e.mean_rating[0]),
        rating(e.mean_rating[1]),
        rating(e.mean_rating[2]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_values_and_quoting() {
        let mut t = Table::new(vec!["name", "games", "rate"]);
        t.push(vec![
            Cell::Text("a, b".into()),
            Cell::Count(3),
            Cell::Share(None),
        ]);
        let render = |f| {
            let mut out = Vec::new();
            t.write(&mut out, f).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(render(Format::Csv), "name,games,rate\n\"a, b\",3,\n");
        assert!(render(Format::Table).contains('–'));
        let json: serde_json::Value = serde_json::from_str(&render(Format::Json)).unwrap();
        assert_eq!(json[0]["rate"], serde_json::Value::Null);
        assert_eq!(json[0]["games"], 3);
    }

    #[test]
    fn a_cell_with_a_line_feed_stays_in_its_row() {
        let mut t = Table::new(vec!["player", "games"]);
        t.push(vec![
            Cell::Text("Anna\nFORGED \"x\", \u{1b}[31m".into()),
            Cell::Count(3),
        ]);
        let render = |f| {
            let mut out = Vec::new();
            t.write(&mut out, f).unwrap();
            String::from_utf8(out).unwrap()
        };
        let text = render(Format::Table);
        assert_eq!(text.lines().count(), 2, "{text}");
        let row = text.lines().nth(1).unwrap();
        assert!(
            row.starts_with("Anna\\u000aFORGED \"x\", \\u001b[31m ") && row.ends_with(" 3"),
            "{text}"
        );
        // RFC 4180: the line feed inside the quotes, quotes doubled.
        assert_eq!(
            render(Format::Csv),
            "player,games\n\"Anna\nFORGED \"\"x\"\", \u{1b}[31m\",3\n"
        );
        let json: serde_json::Value = serde_json::from_str(&render(Format::Json)).unwrap();
        assert_eq!(json[0]["player"], "Anna\nFORGED \"x\", \u{1b}[31m");
        assert!(render(Format::Json).contains("Anna\\nFORGED"));
    }

    #[test]
    fn text_columns_left_numbers_right() {
        let mut t = Table::new(vec!["band", "opening", "games"]);
        t.push(vec![
            Cell::Text("2500+".into()),
            Cell::Text("C42".into()),
            Cell::Count(7),
        ]);
        t.push(vec![
            Cell::Text("all".into()),
            Cell::Text("Sicilian".into()),
            Cell::Count(1234),
        ]);
        let mut out = Vec::new();
        t.write(&mut out, Format::Table).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "2500+  C42           7");
        assert_eq!(lines[2], "all    Sicilian   1234");
    }

    #[test]
    fn a_shared_first_place_reads_as_a_tie() {
        assert_eq!(winners(&["A".into()]), "A");
        assert_eq!(winners(&["A".into(), "C".into()]), "A and C (tied)");
        assert_eq!(
            winners(&["A".into(), "B".into(), "C".into()]),
            "A, B and C (tied)"
        );
    }
}
