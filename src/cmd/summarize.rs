//! `remis summarize TABLE...`: writes each table's summary file beside
//! it, for the filters given, so that `report`, `stats`, `sofia` and
//! `scoring` with the same filters read a small file per table instead of
//! its rows. `remis classify` writes the summary for the default filters
//! itself.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Result;

use remis_core::excerpt::shown_path;

use super::filters::FilterArgs;
use remis_report::analysis::{self, summary, table};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: super::filters::TablesArg,
    /// The rule catalogue whose events the summary counts (TOML, like
    /// data/events.toml); default: the catalogue built into remis.
    #[arg(long)]
    events: Option<PathBuf>,
    /// Summarize again even where a current summary exists.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    filters: FilterArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = args.filters.settings(args.events.as_ref())?;
    let config = settings.config();
    let (mut written, mut current) = (0, 0);
    for table in table::table_paths(&args.tables.tables)? {
        if !args.force && summary::read(&table, &config).is_ok() {
            current += 1;
            continue;
        }
        let counts = analysis::summarize_rows(&table, &config)?;
        let path = summary::write(&table, &config, &counts)?;
        remis_core::say!("remis: {} rows -> {}", counts.rows(), shown_path(&path));
        written += 1;
    }
    remis_core::say!("remis: {written} summaries written, {current} already current");
    Ok(ExitCode::SUCCESS)
}
