//! `remis report TABLE... --out FILE.html`: the draw report as one
//! self-contained HTML file.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::{FilterArgs, SourceArgs};
use remis_core::excerpt::shown_path;
use remis_report::page::{self, Page};
use remis_report::render::format::{percent, thousands};

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
    let loaded = super::filters::load(&args.tables.tables, &settings, &args.source)?;
    let page = Page {
        out: &args.out,
        title: &args.title,
        rule_study: args.events.is_some(),
        chart_bands: args.chart_bands,
        year_bins: &args.year_bins,
        checksums: !args.no_checksums,
        generated_by: &super::version(),
        command: &super::command_line(),
    };
    let written = page::write(&loaded, &settings, &page)?;
    // The headline's population: the games its figures count.
    match written.draws.rate() {
        Some(rate) => remis_core::say!(
            "remis: report of {} ({} drawn, {}) -> {}",
            written.population,
            thousands(written.draws.successes),
            percent(rate),
            shown_path(&args.out)
        ),
        None => remis_core::say!(
            "remis: no games matched ({}); the report says so -> {}",
            settings.filters.describe().join(", "),
            shown_path(&args.out)
        ),
    }
    Ok(ExitCode::SUCCESS)
}
