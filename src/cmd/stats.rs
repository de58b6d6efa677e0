//! `remis stats TABLE...`: the band × year draw table in the terminal, or
//! as CSV or JSON for scripts.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::Result;

use super::filters::FilterArgs;
use remis::report::{self, stats::DrawStats};
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
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
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
    let aggregate = report::aggregate(&args.tables, &filters, &args.filters.event_patterns()?)?;
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
                    if r.p.n < report::stats::MIN_CELL_GAMES {
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
                if reason != report::query::USED {
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
