//! The `remis` command: parses flags and runs one subcommand. The work is
//! done by the library; see `cmd/` for each subcommand's wiring.

// Messages go through `remis_core::say!` (clippy.toml).
#![deny(clippy::disallowed_macros)]

mod cmd;
mod generate;
mod progress;

use clap::{Parser, Subcommand};

// mimalloc rather than the system's allocator: chunks of games, records
// and column buffers are allocated and freed all run long, and glibc hands
// large blocks back to the kernel only to fault them in again. 1.7 % (master
// games) to 4.9 % (lichess games) less wall time at one thread, for about
// 40 MiB more peak memory (docs/performance.md). Without transparent huge
// pages (`no_thp`): they cost 20 MiB of peak memory and no time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "remis",
    version,
    about = "How were chess games drawn? Classify PGN databases by the FIDE Laws, write Parquet, report draw rates."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Classify every game of the inputs (PGN, zip, lichess-layout Parquet) into a games table.
    Classify(cmd::classify::Args),
    /// Write a self-contained HTML draw report from games tables.
    Report(cmd::report::Args),
    /// Points and event standings under classical, 3-1-0, 3-2-1 and plus-remise scoring.
    Scoring(cmd::scoring::Args),
    /// Compare events under rules against short draws with comparable events.
    Sofia(cmd::sofia::Args),
    /// Why one game ended as it did: the trail in the Laws' terms (repetitions, move counts, helpmates).
    Explain(cmd::explain::Args),
    /// Print results as text, CSV or JSON: draw rates, outcomes, rating gap, openings, time classes, clocks, audit.
    Stats(cmd::stats::Args),
    /// Write each table's summary file for the filters given, so that reading commands need not read its rows.
    Summarize(cmd::summarize::Args),
    /// Write seeded synthetic games (random legal moves) for tests and benchmarks.
    Generate(cmd::generate::Args),
}

/// SIGINT and SIGTERM end the run at once: its temporary files are
/// removed, so the tables it would have replaced stay as they were, and it
/// exits with 128 + the signal's number (130, 143), as shells expect.
fn on_interrupt() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let removed = remis_table::safe_file::remove_temporaries();
            let name = if signal == SIGINT {
                "SIGINT"
            } else {
                "SIGTERM"
            };
            remis_core::say!(
                "remis: interrupted ({name}); {} temporary file{} removed, earlier tables left as they were",
                removed.len(),
                if removed.len() == 1 { "" } else { "s" }
            );
            std::process::exit(128 + signal);
        }
    });
}

/// A file-size limit (`ulimit -f`) would kill the process with SIGXFSZ,
/// with no message and a temporary file left behind; with the signal
/// caught, the write fails with EFBIG instead, and the run reports it,
/// naming the file, and cleans up like any failed write.
fn on_file_size_limit() {
    let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, caught);
}

/// The command line parsed. A usage error quotes the arguments it
/// rejects, and a file name with a line feed would start a line of its
/// own: the error is made again from the arguments with their control
/// characters shown escaped (`excerpt::shown`), and printed through
/// `terminal_safe`.
fn parse() -> Cli {
    use clap::error::ErrorKind;
    let err = match Cli::try_parse() {
        Ok(cli) => return cli,
        Err(err) => err,
    };
    if matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        err.exit();
    }
    let shown = std::env::args_os().map(|arg| match arg.to_str() {
        Some(text) if !text.chars().any(char::is_control) => arg,
        _ => remis_core::excerpt::shown(&arg.to_string_lossy())
            .into_owned()
            .into(),
    });
    let err = Cli::try_parse_from(shown)
        .err()
        .filter(|e| e.kind() == err.kind())
        .unwrap_or(err);
    let text = err.render().to_string();
    let text = remis_core::excerpt::terminal_safe(&text);
    let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), text.as_bytes());
    std::process::exit(err.exit_code());
}

fn main() -> std::process::ExitCode {
    let cli = parse();
    on_interrupt();
    on_file_size_limit();
    remis_table::panics::install_hook();
    // A panic that no reader contained (on the Parquet library's threads, kept quiet by
    // the hook, or here) is said as an error, not lost.
    let result = match remis_table::panics::quietly(|| run(cli)) {
        Ok(result) => result,
        Err(panic) => Err(anyhow::anyhow!(
            "internal failure: {}",
            remis_table::panics::message(panic.as_ref())
        )),
    };
    match result {
        Ok(code) => code,
        // `remis stats | head`: the reader has gone, nothing is wrong.
        Err(err)
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            std::process::ExitCode::SUCCESS
        }
        Err(err) => {
            // One line, whatever names the error holds: a line feed in
            // a file name is shown as `\u000a` (`say!`).
            remis_core::say!("remis: error: {err:#}");
            std::process::ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<std::process::ExitCode> {
    match cli.command {
        Command::Classify(args) => cmd::classify::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::Stats(args) => cmd::stats::run(args),
        Command::Sofia(args) => cmd::sofia::run(args),
        Command::Explain(args) => cmd::explain::run(args),
        Command::Scoring(args) => cmd::scoring::run(args),
        Command::Summarize(args) => cmd::summarize::run(args),
    }
}
