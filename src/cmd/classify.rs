//! `remis classify INPUT... --out DIR`: every game becomes a row of
//! `DIR/games.parquet`.

use std::{io::IsTerminal, path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use remis::{input, pipeline, rules::Ending};

#[derive(clap::Args)]
pub struct Args {
    /// PGN files (.pgn, .pgn.gz, .pgn.bz2, .pgn.zst, .zip), folders, or `-`
    /// for standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Output folder; the table is written to DIR/games.parquet.
    #[arg(long, short)]
    out: PathBuf,
    /// Replay threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Mark later copies of the same game (same players, year, result and
    /// moves): columns `duplicate` and `duplicate_of_row`.
    #[arg(long)]
    dedup: bool,
    /// Bytes of PGN per work unit.
    #[arg(long, default_value_t = 1 << 20, hide = true)]
    chunk_bytes: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = input::resolve(&args.inputs)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let out = args.out.join("games.parquet");
    let bar = progress_bar(input::total_size(&inputs));
    let options = pipeline::Options {
        threads: args.threads,
        chunk_bytes: args.chunk_bytes,
        dedup: args.dedup,
    };
    let started = std::time::Instant::now();
    let summary = pipeline::classify(&inputs, &out, &options, &mut |p| {
        bar.set_position(p.bytes_read);
        let rate = p.games as f64 / started.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{} games, {rate:.0} games/s", p.games));
    })?;
    bar.finish_and_clear();

    eprintln!(
        "remis: {} games read, {} rows written, {} invalid, {} unsupported variant, {} damaged inputs, {:.2} s, {:.0} games/s -> {}",
        summary.games_read,
        summary.rows_written,
        summary.count(Ending::Invalid),
        summary.count(Ending::UnsupportedVariant),
        summary.problems.len(),
        summary.elapsed.as_secs_f64(),
        summary.games_per_second(),
        out.display()
    );
    if let Some(duplicates) = summary.duplicates {
        eprintln!("remis: {duplicates} games are later copies of an earlier game (--dedup)");
    }
    for problem in &summary.problems {
        eprintln!("remis: damaged input: {problem}");
    }
    anyhow::ensure!(
        summary.games_read == summary.rows_written,
        "{} games read but {} rows written",
        summary.games_read,
        summary.rows_written
    );
    Ok(ExitCode::SUCCESS)
}

fn progress_bar(total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let template = if total.is_some() {
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}) {msg} ETA {eta}"
    } else {
        "{spinner} [{elapsed_precise}] {bytes} ({bytes_per_sec}) {msg}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
