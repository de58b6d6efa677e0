//! `remis scoring TABLE...`: points under classical, 3-1-0, 3-2-1 and
//! plus-remise scoring, and how event standings change.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::FilterArgs;
use remis::analysis::{scoring, table as query};
use remis::render::text::{self, Format};

#[derive(clap::Args)]
pub struct Args {
    /// Output folders of `remis classify` or `games.parquet` files.
    #[arg(required = true)]
    tables: Vec<PathBuf>,
    /// How to print: text, or JSON for notebooks and scripts.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
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
    if args.format == Format::Json {
        let json = serde_json::json!({
            "events": study.events,
            "plus_remise_draws": study.plus_remise_draws.iter().map(|((winner, rule), n)| {
                serde_json::json!({"winner": winner, "rule": rule,
                                   "rule_name": scoring::rule_name(*rule), "games": n})
            }).collect::<Vec<_>>(),
            "changes": study.changes.iter().map(|(system, c)| {
                serde_json::json!({
                    "system": system.label(),
                    "different_winner": c.different_winner,
                    "places_moved": c.places_moved,
                    "examples": c.examples.iter().map(|e| {
                        serde_json::json!({"event": e.event, "year": e.year,
                                           "label": e.event_label(),
                                           "classical": e.classical, "other": e.other})
                    }).collect::<Vec<_>>(),
                })
            }).collect::<Vec<_>>(),
        });
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let draws: u64 = study.plus_remise_draws.values().sum();
    writeln!(out, "plus-remise: {draws} drawn games decided by material")?;
    for ((winner, rule), n) in &study.plus_remise_draws {
        writeln!(
            out,
            "  {winner} wins, {}: {n} ({:.1}%)",
            scoring::rule_name(*rule),
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
        for e in &change.examples {
            writeln!(
                out,
                "      e.g. {}: {} -> {}",
                e.event_label(),
                text::winners(&e.classical),
                text::winners(&e.other)
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
