//! `remis generate --games N --seed S`: legal games with realistic tags, for
//! samples and benchmarks.

use std::{
    io::{BufWriter, Write},
    path::PathBuf,
    process::ExitCode,
};

use anyhow::{Context, Result};
use remis_table::safe_file::AtomicFile;

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
    let Some(path) = &args.out else {
        let mut out = BufWriter::new(std::io::stdout().lock());
        crate::generate::write_games(&mut out, args.games, args.seed)?;
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    };
    // The file replaces an earlier one only when whole.
    let mut file = AtomicFile::create(path)?;
    {
        let sink = BufWriter::new(&mut file);
        if path.extension().is_some_and(|e| e == "zst") {
            let mut packed = zstd::stream::Encoder::new(sink, 19)?;
            crate::generate::write_games(&mut packed, args.games, args.seed)?;
            packed.finish()?.flush()?;
        } else {
            let mut sink = sink;
            crate::generate::write_games(&mut sink, args.games, args.seed)?;
            sink.flush()?;
        }
    }
    file.commit()
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(ExitCode::SUCCESS)
}
