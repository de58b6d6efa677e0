//! `remis stats TABLE...`: the band × year draw table in the terminal, or
//! as CSV or JSON for scripts.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::FilterArgs;
use remis::analysis::{self, draws::DrawStats};
use remis::study::{Band, BandScheme, Proportion};

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum Format {
    Table,
    Csv,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// Output folders of `remis classify` or `games.parquet` files.
    #[arg(required = true)]
    tables: Vec<PathBuf>,
    /// Group by band only (all years together).
    #[arg(long)]
    by_band: bool,
    /// How to print: an aligned table, CSV or JSON.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Print the results the Laws contradict (wins on time by a side that
    /// could not mate, wins after a drawn ending, draws on a mate, moves
    /// after a dead position) instead of the draw table.
    #[arg(long)]
    audit: bool,
    #[command(flatten)]
    filters: FilterArgs,
}

struct Row {
    band: String,
    year: Option<i16>,
    p: Proportion,
}

fn rows(stats: &DrawStats, scheme: &BandScheme, by_band: bool) -> Vec<Row> {
    let mut out = Vec::new();
    let bands: Vec<Band> = stats.by_band.keys().copied().collect();
    for band in bands {
        if !by_band {
            for ((b, y), p) in &stats.by_band_year {
                if *b == band {
                    out.push(Row {
                        band: scheme.label(band),
                        year: Some(*y),
                        p: *p,
                    });
                }
            }
        }
        out.push(Row {
            band: scheme.label(band),
            year: None,
            p: stats.by_band[&band],
        });
    }
    out.push(Row {
        band: "all".into(),
        year: None,
        p: stats.overall(),
    });
    out
}

pub fn run(args: Args) -> Result<ExitCode> {
    let filters = args.filters.filters()?;
    let aggregate = analysis::aggregate(&args.tables, &filters, &args.filters.event_patterns()?)?;
    if args.audit {
        let audit = analysis::audit::audit(aggregate.prepared.clone())?;
        print_audit(&audit, args.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rows = rows(&aggregate.stats, &filters.bands, args.by_band);
    let mut out = std::io::stdout().lock();
    if aggregate.stats.games == 0 {
        eprintln!(
            "remis: no games matched ({})",
            filters.describe().join(", ")
        );
    }
    let cells = |r: &Row| {
        let (lo, hi) = r.p.wilson95().unwrap_or((f64::NAN, f64::NAN));
        (
            r.year.map_or("all".to_string(), |y| y.to_string()),
            r.p.rate().unwrap_or(f64::NAN),
            lo,
            hi,
        )
    };
    // Empty cells read "–" in the terminal, stay empty in CSV.
    let percent = |v: f64| {
        if v.is_finite() {
            format!("{:.1}%", v * 100.0)
        } else {
            "–".into()
        }
    };
    let csv_number = |v: f64| {
        if v.is_finite() {
            format!("{v:.6}")
        } else {
            String::new()
        }
    };
    match args.format {
        Format::Table => {
            writeln!(
                out,
                "{:<12} {:>5} {:>9} {:>9} {:>7}  {:<15}",
                "band", "year", "games", "draws", "rate", "95% interval"
            )?;
            for r in &rows {
                let (year, rate, lo, hi) = cells(r);
                let interval = if lo.is_finite() {
                    format!("{:.1}–{:.1}%", lo * 100.0, hi * 100.0)
                } else {
                    "–".into()
                };
                writeln!(
                    out,
                    "{:<12} {:>5} {:>9} {:>9} {:>7}  {:<15}{}",
                    r.band,
                    year,
                    r.p.n,
                    r.p.successes,
                    percent(rate),
                    interval,
                    if r.p.n < analysis::draws::MIN_CELL_GAMES {
                        "  (n < 30)"
                    } else {
                        ""
                    }
                )?;
            }
            let used = aggregate.stats.games;
            let read: u64 = aggregate.coverage.iter().map(|(_, n)| n).sum();
            writeln!(out, "rows read {read}, used {used}")?;
            for (reason, n) in &aggregate.coverage {
                if reason != analysis::table::USED {
                    writeln!(out, "  left out: {reason}: {n}")?;
                }
            }
        }
        Format::Csv => {
            writeln!(out, "band,year,games,draws,draw_rate,ci95_low,ci95_high")?;
            for r in &rows {
                let (year, rate, lo, hi) = cells(r);
                writeln!(
                    out,
                    "{},{},{},{},{},{},{}",
                    r.band,
                    year,
                    r.p.n,
                    r.p.successes,
                    csv_number(rate),
                    csv_number(lo),
                    csv_number(hi)
                )?;
            }
        }
        Format::Json => {
            writeln!(out, "[")?;
            for (i, r) in rows.iter().enumerate() {
                let (year, rate, lo, hi) = cells(r);
                let num = |v: f64| {
                    if v.is_finite() {
                        format!("{v:.6}")
                    } else {
                        "null".into()
                    }
                };
                writeln!(
                    out,
                    "  {{\"band\": \"{}\", \"year\": {}, \"games\": {}, \"draws\": {}, \"draw_rate\": {}, \"ci95_low\": {}, \"ci95_high\": {}}}{}",
                    r.band,
                    if year == "all" {
                        "null".to_string()
                    } else {
                        year
                    },
                    r.p.n,
                    r.p.successes,
                    num(rate),
                    num(lo),
                    num(hi),
                    if i + 1 < rows.len() { "," } else { "" }
                )?;
            }
            writeln!(out, "]")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_audit(audit: &analysis::audit::Audit, format: Format) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let past_dead = "moves_after_dead_position";
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, audit)?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "contradiction,games")?;
            for (mismatch, finding) in &audit.mismatches {
                writeln!(out, "{},{}", mismatch.as_str(), finding.games)?;
            }
            writeln!(out, "{past_dead},{}", audit.past_dead_position.games)?;
        }
        Format::Table => {
            writeln!(
                out,
                "Results the Laws contradict, of {} games used:",
                audit.games
            )?;
            let findings =
                audit
                    .mismatches
                    .iter()
                    .map(|(m, f)| (m.label(), f))
                    .chain(std::iter::once((
                        "Moves played after a dead position (5.2.2)",
                        &audit.past_dead_position,
                    )));
            for (label, finding) in findings {
                writeln!(out, "{:>9}  {label}", finding.games)?;
                for e in &finding.examples {
                    let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
                    let place = e
                        .site
                        .clone()
                        .filter(|s| s.starts_with("http"))
                        .unwrap_or_else(|| format!("{} game {}", e.source, e.game_no));
                    writeln!(
                        out,
                        "           {} – {}, {} {} ({})  {place}",
                        text(&e.white),
                        text(&e.black),
                        text(&e.event),
                        text(&e.date),
                        text(&e.result)
                    )?;
                }
            }
            writeln!(
                out,
                "dead final positions {} ({} by search only), dead before the last move {}, searches that gave up {}",
                audit.dead_final, audit.dead_by_search, audit.dead_mid_game, audit.search_unknown
            )?;
        }
    }
    Ok(())
}
