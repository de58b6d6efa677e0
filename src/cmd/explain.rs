//! `remis explain INPUT --game N`: why one game ended as it did, in the
//! Laws' terms, for a terminal, a script or a browser.

use std::{io::Write, path::PathBuf, process::ExitCode};

use anyhow::{Context, Result, bail};

use remis_core::explain::{self, EXPLAIN_NODES};
use remis_core::input::{self, Input};
use remis_core::rules::SearchOptions;
use remis_report::render::explain as render;
use remis_table::parquet_input::ParquetSource;
use remis_table::safe_file;

#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
pub enum Format {
    /// Text for the terminal.
    Text,
    /// One JSON document, for scripts.
    Json,
    /// A self-contained HTML page with a board at each event (written to
    /// --out).
    Html,
}

#[derive(clap::Args)]
pub struct Args {
    /// The input the game is in: a PGN file (plain, .gz, .bz2, .zst), a
    /// zip archive, or a lichess-layout Parquet file; `-` for standard
    /// input.
    input: PathBuf,
    /// The game's number in its source, as the table's `game_no` (the
    /// first game is 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    /// In an archive of several files, the member whose games are counted:
    /// the table's `source` whole, the member's name, or its end from a `/`
    /// (`a.pgn` never names `ba.pgn`; a name that fits several members is
    /// refused, listing them); default: the first.
    #[arg(long)]
    source: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Where the HTML page is written (with --format html).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let input = if args.input.as_os_str() == "-" {
        Input::Stdin
    } else {
        let resolved = input::resolve(std::slice::from_ref(&args.input), &ParquetSource)?;
        match resolved.inputs.as_slice() {
            [one] => one.clone(),
            _ => bail!(
                "{}: explain reads one file; name the file the game is in",
                args.input.display()
            ),
        }
    };
    let search = SearchOptions {
        deep_nodes: EXPLAIN_NODES,
        ..SearchOptions::default()
    };
    let found = explain::find_game(
        &input,
        args.source.as_deref(),
        args.game,
        &ParquetSource,
        search.clone(),
    )
    .with_context(|| format!("{}: game {}", input.name(), args.game))?;
    let trail = explain::explain(&found, args.game, &search);
    match args.format {
        Format::Json => {
            let mut out = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &render::json(&trail))?;
            writeln!(out)?;
        }
        Format::Text => {
            let mut out = remis_core::excerpt::TerminalSafe(std::io::stdout().lock());
            render::text(&mut out, &trail)?;
        }
        Format::Html => {
            let Some(out) = args.out else {
                bail!("--format html writes a page: name it with --out FILE.html");
            };
            safe_file::refuse_input_as_output(&out, [args.input.as_path()])?;
            safe_file::AtomicFile::write_all(&out, render::html(&trail).as_bytes())?;
            remis_core::say!(
                "remis: explanation of game {} -> {}",
                args.game,
                remis_core::excerpt::shown_path(&out)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
