//! `remis scoring TABLE...`: points under classical, 3-1-0, 3-2-1 and
//! plus-remise scoring, and how event standings change.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::FilterArgs;
use remis::analysis::{scoring, table as query};

#[derive(clap::Args)]
pub struct Args {
    /// Output folders of `remis classify` or `games.parquet` files.
    #[arg(required = true)]
    tables: Vec<PathBuf>,
    #[command(flatten)]
    filters: FilterArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let filters = args.filters.filters()?;
    let tables = query::table_paths(&args.tables)?;
    if filters.dedup {
        query::ensure_dedup_marks(&tables)?;
    }
    let prepared = query::prepare(
        query::scan(&tables)?,
        &filters,
        &args.filters.event_patterns()?,
    )?;
    let study = scoring::scoring_study(prepared)?;
    let mut out = std::io::stdout().lock();
    let draws: u64 = study.plus_remise_draws.values().sum();
    writeln!(out, "plus-remise: {draws} drawn games decided by material")?;
    for ((winner, rule), n) in &study.plus_remise_draws {
        writeln!(
            out,
            "  {winner} wins by rule {rule}: {n} ({:.1}%)",
            100.0 * *n as f64 / draws.max(1) as f64
        )?;
    }
    writeln!(
        out,
        "event standings ({} events, by Event tag and year), against classical scoring:",
        study.events
    )?;
    for (system, change) in &study.changes {
        writeln!(
            out,
            "  {:<12} different winner in {} events; places moved in all: {}",
            system.label(),
            change.different_winner,
            change.places_moved
        )?;
        for (event, before, after) in &change.examples {
            writeln!(out, "      e.g. {event}: {before} -> {after}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
