//! `remis scoring TABLE...`: points under classical, 3-1-0, 3-2-1 and
//! plus-remise scoring, and how event standings change.

use std::{io::Write, process::ExitCode};

use anyhow::Result;

use super::filters::{FilterArgs, SourceArgs};
use remis_report::analysis::scoring;
use remis_report::render::format::percent;
use remis_report::render::text::{self, StudyFormat};

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
    if args.format == StudyFormat::Json {
        let json = serde_json::json!({
            "events": study.events,
            "large_events_left_out": study.large_events,
            "incomplete_events_left_out": study.incomplete_events,
            "small_events_left_out": study.small_events,
            "crosstable_min_games": scoring::CROSSTABLE_MIN_GAMES,
            "large_event_games_left_out": study.large_event_games,
            "standings_max_games": scoring::STANDINGS_MAX_GAMES,
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
            "  {winner} wins, {}: {n} ({})",
            scoring::rule_name(*rule),
            percent(*n as f64 / draws.max(1) as f64)
        )?;
    }
    writeln!(
        out,
        "event standings ({} events, by Event tag and year), against classical scoring:",
        study.events
    )?;
    if study.incomplete_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events whose games are not all here (player collections, arenas)",
            study.incomplete_events
        )?;
    }
    if study.small_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events too small for a crosstable (fewer than {} games, or a player with one)",
            study.small_events,
            scoring::CROSSTABLE_MIN_GAMES
        )?;
    }
    if study.large_events > 0 {
        writeln!(
            out,
            "  not ranked: {} events of more than {} games ({} games), pools rather than events",
            study.large_events,
            scoring::STANDINGS_MAX_GAMES,
            study.large_event_games
        )?;
    }
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
