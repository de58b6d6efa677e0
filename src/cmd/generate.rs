//! `remis generate --games N --seed S`: legal games with realistic tags, for
//! samples and benchmarks.

use std::{
    fs::File,
    io::{BufWriter, Write},
    path::PathBuf,
    process::ExitCode,
};

use anyhow::{Context, Result};

#[derive(clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file (`.pgn`, or `.pgn.zst` to compress); standard output if omitted.
    #[arg(long, short)]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut out: Box<dyn Write> = match &args.out {
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
        Some(path) => {
            let file =
                File::create(path).with_context(|| format!("creating {}", path.display()))?;
            if path.extension().is_some_and(|e| e == "zst") {
                Box::new(zstd::stream::Encoder::new(file, 19)?.auto_finish())
            } else {
                Box::new(BufWriter::new(file))
            }
        }
    };
    crate::generate::write_games(&mut out, args.games, args.seed)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
