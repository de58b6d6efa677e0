//! `remis report TABLE... --out FILE.html`: the draw report as one
//! self-contained HTML file.

use std::{path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};

use super::filters::FilterArgs;
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
}

pub fn run(args: Args) -> Result<ExitCode> {
    let filters = args.filters.filters()?;
    let patterns = args.filters.event_patterns()?;
    let catalogue = args
        .events
        .as_ref()
        .map(|path| super::sofia::catalogue(Some(path)))
        .transpose()?;
    let report = analysis::report(&args.tables, &filters, &patterns, catalogue.as_ref())?;
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
