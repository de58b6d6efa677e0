//! `remis report TABLE... --out FILE.html`: the draw report as one
//! self-contained HTML file.

use std::{path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};

use super::filters::{FilterArgs, SourceArgs};
use remis_core::excerpt::shown_path;
use remis_report::analysis;
use remis_report::analysis::draws::YearBins;
use remis_report::render::format::percent;
use remis_report::render::html;
use remis_table::safe_file;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: super::filters::TablesArg,
    /// The HTML file to write.
    #[arg(long, short)]
    out: PathBuf,
    /// Title of the page.
    #[arg(long, default_value = "remis draw report")]
    title: String,
    /// Add the rule study: events and their rules (TOML, e.g. data/events.toml).
    #[arg(long)]
    events: Option<PathBuf>,
    /// At most this many rating bands get a line in the by-year chart (the
    /// largest; the band × year table always has them all).
    #[arg(long, default_value_t = 8)]
    chart_bands: usize,
    /// How years are grouped in the by-year chart and the band × year
    /// table: `auto` (bins of 10 or more years before the recent ones when
    /// there would be more than 37 year columns, so that the table stays
    /// under 40), `none`, or WIDTH:BEFORE (e.g. 10:1990: years before 1990
    /// in bins of 10).
    #[arg(long, default_value = "auto")]
    year_bins: String,
    /// Leave out the SHA-256 of each input table from the provenance (it
    /// reads every table once more).
    #[arg(long)]
    no_checksums: bool,
    #[command(flatten)]
    filters: FilterArgs,
    #[command(flatten)]
    source: SourceArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = args.filters.settings(args.events.as_ref())?;
    let filters = &settings.filters;
    let loaded = super::filters::load(&args.tables.tables, &settings, &args.source)?;
    let mut report = analysis::report(&loaded, &settings.config(), args.events.is_some());
    let counts_from = super::filters::counts_from(&loaded);
    let inputs = report
        .aggregate
        .tables
        .iter()
        .map(|p| input_info(p, !args.no_checksums))
        .collect::<Result<Vec<_>>>()?;
    // The audit's example games, replayed again from their sources for
    // the page's "why" links (sources that moved are left without one).
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
    report.explanations = remis_core::explain::explain_all(
        &examples,
        &known,
        &remis_table::parquet_input::ParquetSource,
        &search,
    );
    let year_bins = year_bins(&args.year_bins, &report.aggregate.stats.years())?;
    let command = super::command_line();
    let generated = utc_now();
    let page = html::render(
        &html::PageInfo {
            title: &args.title,
            inputs: &inputs,
            filters: &filters.describe(),
            generated_by: &super::version(),
            command: &command,
            generated: &generated,
            year_bins,
            counts_from: &counts_from,
            short_draws: filters.short_draws,
            chart_bands: args.chart_bands,
            band_basis: &filters.basis_words(),
            band_axis: &filters.basis_axis(),
            settings: html::Settings {
                patterns: settings.patterns.source_hash(),
                catalogue: args
                    .events
                    .as_ref()
                    .map(|_| settings.catalogue.source_hash()),
                aliases: remis_table::players::aliases_hash(),
                seed: analysis::rule_study::SEED,
            },
        },
        &report,
        &filters.bands,
    )?;
    let aggregate = &report.aggregate;
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // The page replaces the previous one only when whole, and never a table
    // it was made from (nor its summary).
    let read = aggregate.tables.iter().flat_map(|t| {
        let summary = settings.config().file_of(t);
        [t.clone(), summary]
    });
    let read: Vec<std::path::PathBuf> = read.collect();
    safe_file::refuse_input_as_output(&args.out, read.iter().map(|p| p.as_path()))?;
    safe_file::AtomicFile::write_all(&args.out, page.as_bytes())?;
    // The headline's population: the games its figures count.
    let overall = aggregate.stats.overall();
    match overall.rate() {
        Some(rate) => remis_core::say!(
            "remis: report of {} ({} drawn, {}) -> {}",
            aggregate.population.label(),
            overall.successes,
            percent(rate),
            shown_path(&args.out)
        ),
        None => remis_core::say!(
            "remis: no games matched ({}); the report says so -> {}",
            filters.describe().join(", "),
            shown_path(&args.out)
        ),
    }
    Ok(ExitCode::SUCCESS)
}

/// A table's name, size and (unless told not to) SHA-256.
fn input_info(path: &std::path::Path, checksum: bool) -> Result<html::InputInfo> {
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
    // How the table was made, from its manifest (tables of other tools or
    // of an older remis have none, or no run).
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

/// `--year-bins`: auto, none, or WIDTH:BEFORE.
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
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rest / 3600,
        rest / 60 % 60
    )
}
