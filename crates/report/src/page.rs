//! `remis report` in one call: every analysis of the loaded tables, the
//! page's provenance (each table's size, SHA-256 and manifest, where the
//! counts came from, the settings' checksums, the date), the trails of the
//! audit's example games, and the page itself, put in place only when
//! whole and never over a table it was made from (nor its summary).

use std::path::Path;

use anyhow::{Context, Result};

use crate::analysis::{self, Loaded, Settings, draws::YearBins};
use crate::render::html;
use crate::study::Proportion;

/// What the page is, besides the tables' counts.
pub struct Page<'a> {
    /// The HTML file to write.
    pub out: &'a Path,
    pub title: &'a str,
    /// With the rule study: a catalogue was named (`--events`).
    pub rule_study: bool,
    /// At most this many bands get a line in the by-year chart.
    pub chart_bands: usize,
    /// `--year-bins`: `auto`, `none`, or WIDTH:BEFORE.
    pub year_bins: &'a str,
    /// Each table's SHA-256 in the provenance (every table is read once
    /// more).
    pub checksums: bool,
    /// The remis (version and commit) and the command line that made the
    /// page.
    pub generated_by: &'a str,
    pub command: &'a str,
}

/// The lead figure of the page written: whose games, and their draws.
pub struct Written {
    pub population: String,
    pub draws: Proportion,
}

/// Writes the report of `loaded` under `settings` to `page.out`.
pub fn write(loaded: &Loaded, settings: &Settings, page: &Page) -> Result<Written> {
    let filters = &settings.filters;
    let config = settings.config();
    let mut report = analysis::report(loaded, &config, page.rule_study);
    let counts_from = counts_from(loaded);
    let inputs = report
        .aggregate
        .tables
        .iter()
        .map(|p| input_info(p, page.checksums))
        .collect::<Result<Vec<_>>>()?;
    report.explanations = example_trails(&report, &inputs);
    let year_bins = year_bins(page.year_bins, &report.aggregate.stats.years())?;
    let generated = utc_now();
    let html = html::render(
        &html::PageInfo {
            title: page.title,
            inputs: &inputs,
            filters: &filters.describe(),
            generated_by: page.generated_by,
            command: page.command,
            generated: &generated,
            year_bins,
            counts_from: &counts_from,
            short_draws: filters.short_draws,
            chart_bands: page.chart_bands,
            band_basis: &filters.basis_words(),
            band_axis: &filters.basis_axis(),
            settings: html::Settings {
                patterns: settings.patterns.source_hash(),
                catalogue: page.rule_study.then(|| settings.catalogue.source_hash()),
                aliases: settings.aliases.hash(),
                seed: analysis::rule_study::SEED,
            },
        },
        &report,
        &filters.bands,
    )?;
    let aggregate = &report.aggregate;
    if let Some(dir) = page.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let read: Vec<std::path::PathBuf> = aggregate
        .tables
        .iter()
        .flat_map(|t| [t.clone(), config.file_of(t)])
        .collect();
    remis_table::safe_file::refuse_input_as_output(page.out, read.iter().map(|p| p.as_path()))?;
    remis_table::safe_file::AtomicFile::write_all(page.out, html.as_bytes())?;
    Ok(Written {
        population: aggregate.population.label(),
        draws: aggregate.stats.overall(),
    })
}

/// The trails of the audit's example games, replayed again from their
/// sources for the page's "why" links (sources that moved are left
/// without one).
fn example_trails(
    report: &analysis::Report,
    inputs: &[html::InputInfo],
) -> Vec<remis_core::explain::Trail> {
    let known: Vec<String> = inputs
        .iter()
        .filter_map(|i| i.made_by.as_ref())
        .flat_map(|m| m.sources.iter().map(|s| s.path.clone()))
        .collect();
    let examples: Vec<(String, u64)> = report
        .audit
        .findings()
        .flat_map(|(_, finding)| &finding.examples)
        .map(|e| (e.source.clone(), u64::from(e.game_no)))
        .collect();
    let search = remis_core::rules::SearchOptions {
        deep_nodes: remis_core::explain::EXPLAIN_NODES,
        ..Default::default()
    };
    remis_core::explain::explain_all(
        &examples,
        &known,
        &remis_table::parquet_input::ParquetSource,
        &search,
    )
}

/// Where a report's counts came from, in words, for its provenance.
pub fn counts_from(loaded: &Loaded) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let tables = loaded.tables.len();
    match loaded.from_summaries {
        0 => format!("read from the rows of {tables} table{}", plural(tables)),
        n if n == tables => format!(
            "read from the summary files of {tables} table{}",
            plural(tables)
        ),
        n => format!(
            "read from the summary files of {n} and the rows of {} of {tables} tables",
            tables - n
        ),
    }
}

/// A table's name, size and (unless told not to) SHA-256, and how it was
/// made, from its manifest (tables of other tools or of an older remis
/// have none, or no run).
fn input_info(path: &Path, checksum: bool) -> Result<html::InputInfo> {
    use sha2::Digest;
    let bytes = std::fs::metadata(path)
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    let sha256 = checksum
        .then(|| -> Result<String> {
            let mut file =
                std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
            let mut hasher = sha2::Sha256::new();
            std::io::copy(&mut file, &mut hasher)
                .with_context(|| format!("reading {}", path.display()))?;
            Ok(hasher
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect())
        })
        .transpose()?;
    let made_by = remis_table::writer::Manifest::read(path)
        .ok()
        .flatten()
        .map(|m| html::TableOrigin {
            remis: m.remis,
            run: m.run.map(|r| (r.commit, r.command)),
            sources: m
                .inputs
                .into_iter()
                .map(|i| html::Source {
                    path: i.path,
                    bytes: i.bytes,
                    sha256: i.sha256,
                })
                .collect(),
        });
    Ok(html::InputInfo {
        name: path.display().to_string(),
        bytes,
        sha256,
        made_by,
    })
}

/// `--year-bins`: auto (bins that keep the table under 40 columns), none,
/// or WIDTH:BEFORE.
fn year_bins(text: &str, years: &[i16]) -> Result<YearBins> {
    match text {
        "auto" => Ok(YearBins::fit(years, 37)),
        "none" => Ok(YearBins::NONE),
        _ => {
            let parsed = text
                .split_once(':')
                .and_then(|(w, b)| {
                    Some((w.trim().parse::<u16>().ok()?, b.trim().parse::<i16>().ok()?))
                })
                .filter(|(w, _)| *w >= 1);
            match parsed {
                Some((width, before)) => Ok(YearBins {
                    width,
                    before: Some(before),
                }),
                None => anyhow::bail!(
                    "--year-bins {text}: give auto, none, or WIDTH:BEFORE such as 10:1990"
                ),
            }
        }
    }
}

/// The time now, UTC, as "2026-11-24 10:15".
fn utc_now() -> String {
    chrono::Utc::now().format("%Y-%m-%d %H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn year_bins_take_auto_none_or_a_width_and_a_year() {
        assert_eq!(year_bins("none", &[2000, 2001]).unwrap(), YearBins::NONE);
        assert_eq!(
            year_bins("10:1990", &[]).unwrap(),
            YearBins {
                width: 10,
                before: Some(1990)
            }
        );
        for refused in ["0:1990", "10", "ten:1990", "10:"] {
            let e = year_bins(refused, &[]).unwrap_err().to_string();
            assert!(
                e.contains("give auto, none, or WIDTH:BEFORE"),
                "{refused}: {e}"
            );
        }
    }

    #[test]
    fn the_date_is_minutes_in_utc() {
        let now = utc_now();
        // "2026-11-24 10:15"
        assert_eq!(now.len(), 16, "{now}");
        assert_eq!(
            now.char_indices()
                .filter(|(_, c)| !c.is_ascii_digit())
                .collect::<Vec<_>>(),
            [(4, '-'), (7, '-'), (10, ' '), (13, ':')],
            "{now}"
        );
    }
}
