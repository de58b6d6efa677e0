//! `remis report TABLE... --out FILE.html`: the draw report as one
//! self-contained HTML file.

use std::{path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};

use super::filters::{FilterArgs, SourceArgs};
use remis::analysis;
use remis::render::html;

#[derive(clap::Args)]
pub struct Args {
    /// Output folders of `remis classify` or `games.parquet` files.
    #[arg(required = true)]
    tables: Vec<PathBuf>,
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
    #[command(flatten)]
    filters: FilterArgs,
    #[command(flatten)]
    source: SourceArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = args.filters.settings(args.events.as_ref())?;
    let filters = &settings.filters;
    let loaded = super::filters::load(&args.tables, &settings, &args.source)?;
    let report = analysis::report(&loaded, &settings.config(), args.events.is_some());
    let counts_from = super::filters::counts_from(&loaded);
    let inputs: Vec<String> = report
        .aggregate
        .tables
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let page = html::render(
        &html::PageInfo {
            title: &args.title,
            inputs: &inputs,
            filters: &filters.describe(),
            generated_by: concat!("remis ", env!("CARGO_PKG_VERSION")),
            counts_from: &counts_from,
            short_draws: filters.short_draws,
            chart_bands: args.chart_bands,
        },
        &report,
        &filters.bands,
    )?;
    let aggregate = &report.aggregate;
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&args.out, page).with_context(|| format!("writing {}", args.out.display()))?;
    let overall = aggregate.stats.overall();
    match overall.rate() {
        Some(rate) => eprintln!(
            "remis: report of {} games ({} drawn, {:.1}%) -> {}",
            overall.n,
            overall.successes,
            rate * 100.0,
            args.out.display()
        ),
        None => eprintln!(
            "remis: no games matched ({}); the report says so -> {}",
            filters.describe().join(", "),
            args.out.display()
        ),
    }
    Ok(ExitCode::SUCCESS)
}
