//! `remis sofia TABLE...`: events under rules against short draws ("Sofia
//! rules") against comparable events without them, in the terminal.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::{FilterArgs, SourceArgs};
use remis_report::analysis::rule_study;
use remis_report::render::studies;
use remis_report::render::text::StudyFormat;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: super::filters::TablesArg,
    /// Events and their rules (TOML, like data/events.toml); default: the
    /// catalogue built into remis.
    #[arg(long)]
    events: Option<PathBuf>,
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
    let settings = args.filters.settings(args.events.as_ref())?;
    let loaded = super::filters::load(&args.tables.tables, &settings, &args.source)?;
    let study = rule_study::rule_study(
        &loaded.summary.rule_study,
        &settings.catalogue,
        &settings.patterns,
        settings.filters.short_draws,
        &settings.aliases,
    );
    let mut out = remis_core::excerpt::TerminalSafe(std::io::stdout().lock());
    match args.format {
        StudyFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &studies::rule_study_json(&study))?;
            writeln!(out)?;
        }
        StudyFormat::Table => {
            studies::write_rule_study(&mut out, &study, &settings.filters.describe())?
        }
    }
    Ok(ExitCode::SUCCESS)
}
