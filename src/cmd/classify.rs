//! `remis classify INPUT... --out DIR`: every game becomes a row of
//! `DIR/games.parquet`.

use std::{io::IsTerminal, path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use remis_core::{
    excerpt::{Shown, shown_path},
    input::{self, Limits},
    replay::SanResolver,
    rules::{Ending, SearchOptions},
};
use remis_table::{format::EventPatterns, parquet_input::ParquetSource, pipeline, shards};

/// Exit status of a run that completed but met damaged input.
pub const EXIT_DAMAGED: u8 = 1;

#[derive(clap::Args)]
pub struct Args {
    /// Files: PGN, plain or compressed with gzip, bzip2 or zstd; zip
    /// archives of PGN; Parquet files in the lichess dataset layout — each
    /// told by its magic bytes, whatever its name. Folders: every file
    /// below them named *.pgn, *.pgn.gz, *.pgn.bz2, *.pgn.zst, *.zip or
    /// *.parquet (remis's own tables excepted). `-`: standard input.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output: a folder (the table is DIR/games.parquet) or a file name
    /// ending in .parquet.
    #[arg(long, short)]
    out: PathBuf,
    /// Replay threads; 0 means one per core. At most 4 per core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Mark later copies of the same game (same players, year, result and
    /// moves): columns `duplicate` and `duplicate_of_row`.
    #[arg(long)]
    dedup: bool,
    /// Exit with status 0 even when inputs were damaged (truncated, not
    /// PGN, unreadable); the damage is still reported.
    #[arg(long)]
    allow_damaged: bool,
    /// Write one table per input instead of one for all: shards that many
    /// machines can write, and that can be rerun one by one. A shard keeps
    /// the input's place: DIR/PATH.parquet (PATH: its path below the folder named), or for
    /// a file named itself DIR/KEY=VALUE/.../NAME.parquet (its key=value folders). A
    /// shard from another input is never replaced. `remis report DIR`
    /// reads them all.
    #[arg(long, conflicts_with = "dedup")]
    shard_per_input: bool,
    /// With --shard-per-input: name each shard by its input's path below
    /// this folder (a Ray task, given one file, keeps the dataset's tree).
    #[arg(long, requires = "shard_per_input")]
    shard_root: Option<PathBuf>,
    /// With --shard-per-input: leave a shard alone when it came from this
    /// input as it is now (same size and time, same remis).
    #[arg(long, requires = "shard_per_input")]
    skip_current: bool,
    /// Write no summary file beside the table (`remis summarize` can write
    /// it later). By default each table gets the summary that `report`,
    /// `stats`, `sofia` and `scoring` read without filters.
    #[arg(long)]
    no_summary: bool,
    /// Keep checkpoints, and resume from the last one: the rows go to parts
    /// committed beside the table (OUT.resume/) with a checkpoint of how far
    /// the inputs were read, so that a run stopped by a kill or a power
    /// loss, started again with --resume, replays only the games after the
    /// last checkpoint (the inputs are read again from their start to skip
    /// the others, and must be unchanged). The table is made from the parts
    /// at the end, and the parts removed.
    #[arg(long)]
    resume: bool,
    /// With --resume: rows per part, about (a stop loses at most one
    /// part's work).
    #[arg(long, default_value_t = remis_table::resume::PART_ROWS, value_name = "ROWS", hide = true)]
    part_rows: usize,
    /// Rows per Parquet row group, about: a group closes at the first
    /// chunk of games that reaches it. The summary is counted from each
    /// group as it is written.
    #[arg(long, default_value_t = remis_table::writer::ROW_GROUP_ROWS, value_name = "ROWS")]
    row_group_rows: usize,
    /// Largest game read, in bytes; a longer game becomes an invalid row
    /// with its tags.
    #[arg(long, default_value_t = Limits::default().max_game_bytes)]
    max_game_bytes: usize,
    /// Largest tag section of one game, in bytes.
    #[arg(long, default_value_t = Limits::default().max_header_bytes)]
    max_header_bytes: usize,
    /// Largest { comment }, in bytes.
    #[arg(long, default_value_t = Limits::default().max_comment_bytes)]
    max_comment_bytes: usize,
    /// Most plies replayed in one game.
    #[arg(long, default_value_t = Limits::default().max_plies)]
    max_plies: u32,
    /// Node budget of the deepest phase of the dead-position search; a
    /// search that runs out says "unknown", never "dead".
    #[arg(long, default_value_t = SearchOptions::default().deep_nodes)]
    search_nodes: u64,
    /// Search every final position and every flag fall for dead positions
    /// and mating chances, not only those the filter picks (slower; for
    /// audits of the filter).
    #[arg(long)]
    search_everywhere: bool,
    /// Skip the dead-position and mating-chance searches (their columns are
    /// then null, and only the static material test finds dead positions).
    /// For measuring what the search costs.
    #[arg(long, conflicts_with_all = ["search_everywhere", "exact"])]
    no_search: bool,
    /// Exact verdicts: the full search on every final position and flag
    /// fall, at the solver's own budget (short for `--search-everywhere
    /// --search-nodes 16777216`): no verdict rests on a presumption
    /// (`presumed_alive`, `presumed_possible`). About 4 times slower.
    #[arg(long, conflicts_with_all = ["search_everywhere", "search_nodes"])]
    exact: bool,
    /// Which code resolves SAN moves: remis's own, or shakmaty's
    /// `San::to_move`. Both give the same table; for comparing them.
    #[arg(long, value_enum, default_value_t = SanResolver::default(), hide = true)]
    san_resolver: SanResolver,
    /// Event-name patterns that decide, with the TimeControl and Site
    /// tags, each game's play and speed (TOML, like
    /// data/event_patterns.toml; the built-in ones by default).
    #[arg(long)]
    event_patterns: Option<PathBuf>,
    /// More surname aliases for player identities, which --dedup compares
    /// (TOML with an `[aliases]` table, like data/player_aliases.toml),
    /// added to the built-in ones.
    #[arg(long)]
    player_aliases: Option<PathBuf>,
    /// Bytes of PGN per work unit.
    #[arg(long, default_value_t = 1 << 20, hide = true)]
    chunk_bytes: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    super::filters::use_player_aliases(args.player_aliases.as_deref())?;
    let resolved = input::resolve(&args.inputs, &ParquetSource)?;
    for (path, why) in &resolved.skipped {
        remis_core::say!(
            "remis: warning: {}: skipped: {}",
            shown_path(path),
            Shown(why)
        );
    }
    let placed = resolved.placed;
    let inputs = resolved.inputs;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if args.threads > 4 * cores {
        remis_core::say!(
            "remis: warning: --threads {} is more than 4 per core; using {}",
            args.threads,
            4 * cores
        );
        4 * cores
    } else {
        args.threads
    };
    let options = pipeline::Options {
        run: Some(remis_table::writer::RunInfo {
            commit: super::COMMIT.to_string(),
            command: super::command_line(),
        }),
        threads,
        chunk_bytes: args.chunk_bytes.max(1),
        dedup: args.dedup,
        limits: Limits {
            max_game_bytes: args.max_game_bytes,
            max_header_bytes: args.max_header_bytes,
            max_comment_bytes: args.max_comment_bytes,
            max_plies: args.max_plies,
        },
        search: SearchOptions {
            deep_nodes: if args.exact {
                remis_core::explain::EXPLAIN_NODES
            } else {
                args.search_nodes
            },
            everywhere: args.search_everywhere || args.exact,
            off: args.no_search,
            ..SearchOptions::default()
        },
        resolver: args.san_resolver,
        row_group_rows: args.row_group_rows,
        patterns: match &args.event_patterns {
            None => EventPatterns::built_in(),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                std::sync::Arc::new(
                    EventPatterns::from_toml(&text)
                        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?,
                )
            }
        },
    };
    let write = Write {
        summarize: !args.no_summary,
        resume: args.resume.then_some(args.part_rows.max(1)),
    };
    if !args.shard_per_input {
        let out = shards::table_path(&args.out)?;
        shards::refuse_overwriting_an_input(&out, &inputs)?;
        let damaged = classify_into(&inputs, &out, &options, &write)?;
        return Ok(exit(damaged, args.allow_damaged));
    }
    // One shard per input: each written (or failed) on its own.
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating folder {}", args.out.display()))?;
    let mut shards = std::collections::BTreeMap::new();
    let mut planned = Vec::with_capacity(inputs.len());
    for (input, placed) in inputs.iter().zip(&placed) {
        let shard = args.out.join(shards::shard_path(
            input,
            placed,
            args.shard_root.as_deref(),
        )?);
        if let Some(other) = shards.insert(shard.clone(), input.name()) {
            anyhow::bail!(
                "{} and {} would both write the shard {}: rename one, or use --shard-root",
                other,
                input.name(),
                shard.display()
            );
        }
        shards::refuse_overwriting_an_input(&shard, &inputs)?;
        planned.push(shard);
    }
    let (mut damaged, mut failed, mut current) = (false, Vec::new(), 0);
    for (input, shard) in inputs.iter().zip(&planned) {
        let written = shards::check_existing(shard, input).and_then(|existing| match existing {
            shards::Existing::Current if args.skip_current => {
                current += 1;
                Ok(false)
            }
            _ => {
                if let Some(dir) = shard.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating folder {}", dir.display()))?;
                }
                classify_into(std::slice::from_ref(input), shard, &options, &write)
            }
        });
        match written {
            Ok(d) => damaged |= d,
            Err(e) => {
                remis_core::say!(
                    "remis: error: {}: {}",
                    Shown(input.name()),
                    Shown(format!("{e:#}"))
                );
                failed.push(input.name());
            }
        }
    }
    if current > 0 {
        remis_core::say!("remis: {current} shards already current, skipped (--skip-current)");
    }
    if !failed.is_empty() {
        anyhow::bail!(
            "{} of {} shards failed ({}); the others are written, rerun the failed ones alone",
            failed.len(),
            inputs.len(),
            failed.join(", ")
        );
    }
    Ok(exit(damaged, args.allow_damaged))
}

fn exit(damaged: bool, allow_damaged: bool) -> ExitCode {
    if damaged && !allow_damaged {
        ExitCode::from(EXIT_DAMAGED)
    } else {
        ExitCode::SUCCESS
    }
}

/// What a table gets besides its rows.
struct Write {
    /// Its summary.
    summarize: bool,
    /// Checkpoints, with parts of this many rows (`--resume`).
    resume: Option<usize>,
}

/// Classifies inputs into one table (and its summary, when asked);
/// returns whether any input was damaged. The table and its summary are
/// both written whole before either is renamed into place, so a failure
/// at the summary (a full disk) leaves the previous table as it was.
fn classify_into(
    inputs: &[input::Input],
    out: &std::path::Path,
    options: &pipeline::Options,
    write: &Write,
) -> Result<bool> {
    let bar = progress_bar(input::total_size(inputs));
    let started = std::time::Instant::now();
    // The summary for the default filters (the one reading commands
    // without filters use), counted from each row group as it is written:
    // no second pass over the table.
    let settings = remis_report::analysis::Settings {
        filters: remis_report::analysis::Filters::default(),
        patterns: remis_report::study::EventPatterns::default(),
        catalogue: remis_report::study::events::EventCatalogue::built_in(),
    };
    let config = settings.config();
    let mut builder = write
        .summarize
        .then(|| remis_report::analysis::SummaryBuilder::new(&config));
    let mut progress = |p: pipeline::Progress| {
        bar.set_position(p.bytes_read);
        let rate = p.games as f64 / started.elapsed().as_secs_f64().max(1e-3);
        bar.set_message(format!("{} games, {rate:.0} games/s", p.games));
    };
    let mut rows = |rows: &pipeline::RowGroup| match builder.as_mut() {
        Some(builder) => builder.add_frame(rows).context("counting the summary"),
        None => Ok(()),
    };
    let (summary, table, parts) = match write.resume {
        None => {
            let (summary, table) =
                pipeline::classify(inputs, out, options, &mut progress, &mut rows)?;
            (summary, table, None)
        }
        Some(part_rows) => {
            let (summary, table, parts) = pipeline::classify_resumable(
                inputs,
                out,
                options,
                part_rows,
                &mut progress,
                &mut rows,
            )?;
            (summary, table, Some(parts))
        }
    };
    bar.finish_and_clear();
    if let Some(games) = summary.resumed_after {
        remis_core::say!(
            "remis: resumed after the {games} games an earlier run had committed ({})",
            shown_path(&remis_table::resume::Parts::folder_of(out))
        );
    }

    remis_core::say!(
        "remis: {} games read, {} rows written, {} invalid, {} unsupported variant, {} input problem{}, {:.2} s, {:.0} games/s -> {}",
        summary.games_read,
        summary.rows_written,
        summary.count(Ending::Invalid),
        summary.count(Ending::UnsupportedVariant),
        summary.problems.len(),
        if summary.problems.len() == 1 { "" } else { "s" },
        summary.elapsed.as_secs_f64(),
        summary.games_per_second(),
        shown_path(out)
    );
    if let Some(duplicates) = summary.duplicates {
        remis_core::say!("remis: {duplicates} games are later copies of an earlier game (--dedup)");
    }
    for problem in &summary.problems {
        remis_core::say!("remis: damaged input: {}", Shown(problem));
    }
    anyhow::ensure!(
        summary.games_read == summary.rows_written,
        "{} games read but {} rows written",
        summary.games_read,
        summary.rows_written
    );
    let counts = match builder {
        Some(builder) => {
            let counts = builder
                .finish()
                .with_context(|| format!("summarizing {}", table.path().display()))?;
            anyhow::ensure!(
                counts.rows() == summary.rows_written,
                "internal error: the summary counted {} rows of the {} written",
                counts.rows(),
                summary.rows_written
            );
            Some(remis_report::analysis::summary::prepare(
                table.path(),
                table.readable_path(),
                &config,
                &counts,
            )?)
        }
        None => None,
    };
    table.commit()?;
    if let Some(counts) = counts {
        counts.commit()?;
    }
    if let Some(parts) = parts
        && let Err(e) = parts.remove()
    {
        // The table is in place whatever is left beside it.
        remis_core::say!(
            "remis: warning: the checkpoints were not all removed: {}",
            Shown(&e)
        );
    }
    Ok(!summary.problems.is_empty())
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
