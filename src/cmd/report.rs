//! `remis report TABLE... --out FILE.html`: the draw report as one
//! self-contained HTML file.

use std::{path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};

use super::filters::FilterArgs;
use remis::analysis::{self, rule_study, scoring};
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
    #[command(flatten)]
    filters: FilterArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let filters = args.filters.filters()?;
    let patterns = args.filters.event_patterns()?;
    let aggregate = analysis::aggregate(&args.tables, &filters, &patterns)?;
    let scoring = scoring::scoring_study(aggregate.prepared.clone())?;
    let audit = analysis::audit::audit(aggregate.prepared.clone())?;
    let study = match &args.events {
        None => None,
        Some(path) => {
            let catalogue = super::sofia::catalogue(Some(path))?;
            Some(rule_study::rule_study(
                aggregate.prepared.clone(),
                &catalogue,
                &patterns,
            )?)
        }
    };
    let inputs: Vec<String> = aggregate
        .tables
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let page = html::render(
        &html::PageInfo {
            title: &args.title,
            inputs: &inputs,
            filters: &filters.describe(),
            coverage: &aggregate.coverage,
            generated_by: concat!("remis ", env!("CARGO_PKG_VERSION")),
            rule_study: study.as_ref(),
            scoring: Some(&scoring),
            audit: Some(&audit),
            synthetic: aggregate.synthetic,
        },
        &aggregate.stats,
        &filters.bands,
    )?;
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
