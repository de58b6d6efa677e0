//! `remis sofia TABLE...`: events under rules against short draws ("Sofia
//! rules") against comparable events without them, in the terminal.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};

use super::filters::FilterArgs;
use remis::analysis::{rule_study, table as query};
use remis::study::{Proportion, events::EventCatalogue};

#[derive(clap::Args)]
pub struct Args {
    /// Output folders of `remis classify` or `games.parquet` files.
    #[arg(required = true)]
    tables: Vec<PathBuf>,
    /// Events and their rules (TOML, like data/events.toml); default: the
    /// catalogue built into remis.
    #[arg(long)]
    events: Option<PathBuf>,
    #[command(flatten)]
    filters: FilterArgs,
}

/// The catalogue in `path`, or the one built into remis.
pub fn catalogue(path: Option<&PathBuf>) -> Result<EventCatalogue> {
    let Some(path) = path else {
        return Ok(EventCatalogue::built_in());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    EventCatalogue::from_toml(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

pub fn cell(p: Proportion) -> String {
    match (p.rate(), p.wilson95()) {
        (Some(r), Some((lo, hi))) => {
            format!("{:.1}% ({:.1}–{:.1})", r * 100.0, lo * 100.0, hi * 100.0)
        }
        _ => "–".into(),
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let filters = args.filters.filters()?;
    let patterns = args.filters.event_patterns()?;
    let catalogue = catalogue(args.events.as_ref())?;
    let tables = query::table_paths(&args.tables)?;
    let prepared = query::prepare(query::scan(&tables)?, &filters, &patterns)?;
    if filters.dedup {
        query::ensure_dedup_marks(&tables)?;
    }
    let study = rule_study::rule_study(prepared, &catalogue, &patterns)?;
    let mut out = std::io::stdout().lock();
    write!(out, "{:<34} {:>6} ", "group", "games")?;
    for (label, _) in rule_study::GroupStats::default().measures() {
        write!(out, " {label:<22}")?;
    }
    writeln!(out, " mean draw length (95% CI)")?;
    let line = |out: &mut std::io::StdoutLock, name: &str, g: &rule_study::GroupStats| {
        let mean = g.mean_draw_moves().map_or("–".into(), |(m, lo, hi)| {
            format!("{m:.1} ({lo:.1}–{hi:.1})")
        });
        write!(out, "{:<34} {:>6} ", name, g.games)?;
        for (_, p) in g.measures() {
            write!(out, " {:<22}", cell(p))?;
        }
        writeln!(out, " {mean}")
    };
    for (arm, stats) in &study.arms {
        line(&mut out, &format!("{arm:?}"), stats)?;
    }
    for ((arm, series), stats) in &study.series {
        line(&mut out, &format!("  {arm:?}: {series}"), stats)?;
    }
    if study.did.is_empty() {
        writeln!(
            out,
            "no series in the data changed its rules: no difference in differences"
        )?;
    }
    for d in &study.did {
        if let Some((e, lo, hi)) = d.draw_rate_effect() {
            writeln!(
                out,
                "{}: draw rate change after the rules minus the controls' change: {:+.1} points (95% CI {:+.1} to {:+.1})",
                d.series,
                e * 100.0,
                lo * 100.0,
                hi * 100.0
            )?;
        }
    }
    if study.fast_games_left_out > 0 {
        writeln!(
            out,
            "{} games of these events left out: rapid, blitz, blindfold or simul by name",
            study.fast_games_left_out
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
