//! `remis scoring TABLE...`: points under classical, 3-1-0, 3-2-1 and
//! plus-remise scoring, and how event standings change.

use std::{io::Write, process::ExitCode};

use anyhow::Result;

use super::filters::{FilterArgs, SourceArgs};
use remis_report::analysis::scoring;
use remis_report::render::studies;
use remis_report::render::text::StudyFormat;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: super::filters::TablesArg,
    /// How to print: text for the terminal, or one JSON document for
    /// notebooks and scripts.
    #[arg(long, value_enum, default_value_t = StudyFormat::Table)]
    format: StudyFormat,
    #[command(flatten)]
    filters: FilterArgs,
    #[command(flatten)]
    source: SourceArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = args.filters.settings(None)?;
    let loaded = super::filters::load(&args.tables.tables, &settings, &args.source)?;
    let study = scoring::scoring_study(&loaded.summary.scoring);
    let mut out = remis_core::excerpt::TerminalSafe(std::io::stdout().lock());
    match args.format {
        StudyFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &studies::scoring_json(&study))?;
            writeln!(out)?;
        }
        StudyFormat::Table => studies::write_scoring(&mut out, &study)?,
    }
    Ok(ExitCode::SUCCESS)
}
