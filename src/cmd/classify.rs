//! `remis classify INPUT... --out DIR`: every game becomes a row of `DIR/games.parquet`.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Result;

use remis_core::{explain, input::Limits, replay::SanResolver, rules::SearchOptions};
use remis_table::{classify::Job, classify::Shards, format::EventPatterns, pipeline};

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
    #[command(flatten)]
    limits: Limits,
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
    let exact = args.exact.then_some(explain::EXPLAIN_NODES);
    let job = Job {
        inputs: args.inputs,
        out: args.out,
        shards: args.shard_per_input.then_some(Shards {
            root: args.shard_root,
            skip_current: args.skip_current,
        }),
        resume: args.resume.then_some(args.part_rows.max(1)),
        options: pipeline::Options {
            run: Some(super::run_info()),
            threads: args.threads,
            chunk_bytes: args.chunk_bytes.max(1),
            dedup: args.dedup,
            aliases: super::filters::player_aliases(args.player_aliases.as_deref())?.into(),
            limits: args.limits,
            search: SearchOptions {
                deep_nodes: exact.unwrap_or(args.search_nodes),
                everywhere: args.search_everywhere || args.exact,
                off: args.no_search,
                ..SearchOptions::default()
            },
            resolver: args.san_resolver,
            row_group_rows: args.row_group_rows,
            patterns: EventPatterns::load(args.event_patterns.as_deref())?,
        },
    };
    let mut bar = None;
    let mut show = |event| crate::progress::show(&mut bar, event);
    let outcome = remis_report::classify::run(&job, !args.no_summary, &mut show)?;
    let damaged = outcome.damaged && !args.allow_damaged;
    Ok(ExitCode::from(if damaged { EXIT_DAMAGED } else { 0 }))
}
