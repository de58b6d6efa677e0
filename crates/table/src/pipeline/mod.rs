//! The classify stage end to end: inputs → chunks → parallel replay →
//! rows in input order → Parquet. Threads live here and nowhere else: one
//! reads and decompresses, a rayon pool replays chunks, the caller's thread
//! puts results back in order and writes them.

use std::{
    collections::{BTreeMap, HashMap},
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use rayon::prelude::*;

use remis_core::{
    input::{self, Input, InputProblem, Limits},
    replay::{Field, GameReplayer, NotPgn, SanResolver},
    rules::{Ending, GameResult, SearchOptions},
};

use crate::{
    dedup::{self, Deduplicator},
    format::{EventPatterns, FormatDecider},
    parquet_input::ParquetSource,
    players::Aliases,
    resume::Position,
    schema::Column,
    writer::{InputStamp, Manifest, ParquetSink, ROW_GROUP_ROWS, TableBuilder, WrittenTable},
};

pub use resumable::classify_resumable;

mod resumable;

#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads for replay, as asked ([`replay_threads`]): 0 means
    /// one per core.
    pub threads: usize,
    /// Bytes of PGN per chunk handed to a worker.
    pub chunk_bytes: usize,
    /// Mark later copies of the same game (`duplicate`, `duplicate_of_row`).
    pub dedup: bool,
    /// The surname aliases the `--dedup` key reads players' names through.
    pub aliases: Arc<Aliases>,
    /// Caps on one game.
    pub limits: Limits,
    /// How much the dead-position and mating-chance search does.
    pub search: SearchOptions,
    /// Which code resolves SAN moves (both give the same table).
    pub resolver: SanResolver,
    /// The event-name patterns that decide play and speed with the tags.
    pub patterns: Arc<EventPatterns>,
    /// The run, recorded in the table's manifest.
    pub run: Option<crate::writer::RunInfo>,
    /// Rows per Parquet row group, about (a group closes at the first
    /// chunk that reaches it).
    pub row_group_rows: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 0,
            chunk_bytes: 1 << 20,
            dedup: false,
            aliases: Arc::new(Aliases::default()),
            limits: Limits::default(),
            search: SearchOptions::default(),
            resolver: SanResolver::default(),
            patterns: EventPatterns::built_in(),
            run: None,
            row_group_rows: ROW_GROUP_ROWS,
        }
    }
}

/// The replay threads of a run.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Threads {
    pub count: usize,
    /// More were asked for than [`MAX_THREADS_PER_CORE`] a core.
    pub capped: bool,
}

/// Replay threads a core at most: more only add memory and switching.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The replay threads for `asked` (`--threads`): 0 is one per core, and
/// more than [`MAX_THREADS_PER_CORE`] a core are that many.
pub fn replay_threads(asked: usize) -> Threads {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        0 => Threads {
            count: cores,
            capped: false,
        },
        n if n > MAX_THREADS_PER_CORE * cores => Threads {
            count: MAX_THREADS_PER_CORE * cores,
            capped: true,
        },
        n => Threads {
            count: n,
            capped: false,
        },
    }
}

/// Rows of the table as [`classify`] hands them to its caller: a chunk's
/// games, numbered and marked, as soon as they take their place in table
/// order (before their row group is full), so that counting them keeps
/// pace with the replay instead of waiting for the last group.
pub type Rows = polars::prelude::DataFrame;

/// What the counting is handed, in table order.
pub enum ToCount<'a> {
    /// The next rows, numbered.
    Rows(&'a Rows, Flow),
    /// No rows follow: handed before the table's last row group is
    /// written, so that what the counting does at its end runs beside
    /// that (the last group, up to `row_group_rows` rows, is encoded
    /// after the replay has ended).
    End,
}

/// Where the reading stands when rows are handed to the counting.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// More input is to be read.
    Reading,
    /// Every input is read: only the games in flight are left (on the
    /// master games A-F at two threads, the last 0.2 s of the replay). A
    /// counter that waits for a batch to fill should count what it holds
    /// as it comes, beside the replay, not after it.
    InputRead,
}

/// Where the run stands, for a progress display.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    pub bytes_read: u64,
    pub games: u64,
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games_read: u64,
    pub rows_written: u64,
    pub endings: BTreeMap<Ending, u64>,
    /// Later copies of a game already seen (with `Options::dedup`).
    pub duplicates: Option<u64>,
    pub problems: Vec<InputProblem>,
    pub elapsed: Duration,
    /// The games an earlier, stopped run had committed, when this run
    /// resumed after them.
    pub resumed_after: Option<u64>,
}

impl Summary {
    pub fn count(&self, ending: Ending) -> u64 {
        self.endings.get(&ending).copied().unwrap_or(0)
    }

    pub fn games_per_second(&self) -> f64 {
        self.games_read as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// A chunk's games, replayed and already built into columns by the worker
/// (the writer only numbers, marks duplicates and encodes).
struct Replayed {
    seq: u64,
    source: Arc<str>,
    frame: polars::prelude::DataFrame,
    /// Each game's de-duplication key, when duplicates are looked for.
    keys: Vec<u64>,
    endings: BTreeMap<Ending, u64>,
    not_pgn: Vec<NotPgn>,
    /// Game texts in the chunk (rows and stretches that were not PGN).
    spans: u64,
    /// The last chunk of its source.
    last: bool,
}

/// Classifies every game of `inputs` into the Parquet table `out`, written
/// whole but not yet in place: the caller commits it (after writing what
/// must go with it, such as its summary). `rows` sees every chunk's rows
/// ([`Rows`]) in table order, on a thread of its own (the summary is
/// counted there, in the same pass, while the replay goes on); an error
/// from it stops the run.
pub fn classify(
    inputs: &[Input],
    out: &Path,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
    rows: &mut (dyn FnMut(ToCount<'_>) -> Result<()> + Send),
) -> Result<(Summary, WrittenTable)> {
    let started = Instant::now();
    let (stamps, manifest) = manifest_of(inputs, options);
    let mut sink = ParquetSink::create(out, &manifest)?;
    let dedup = options.dedup.then(Deduplicator::default);
    let (mut summary, read) = replay(
        inputs,
        options,
        Start::default(),
        &mut sink,
        dedup,
        progress,
        rows,
    )?;
    summary.rows_written = sink.rows_written;
    let table = sink.finish_with(&digested(manifest, &stamps, &read))?;
    Ok((account(summary, read, inputs, &stamps, started), table))
}

/// The inputs as they are before the run, and the manifest naming them.
fn manifest_of(inputs: &[Input], options: &Options) -> (Vec<InputStamp>, Manifest) {
    let stamps: Vec<InputStamp> = inputs.iter().map(stamp).collect();
    let manifest = Manifest {
        run: options.run.clone(),
        ..Manifest::new(stamps.clone())
    };
    (stamps, manifest)
}

fn stamp(input: &Input) -> InputStamp {
    match input {
        Input::File(path) => InputStamp::of_path(path),
        Input::Stdin => InputStamp::stdin(),
    }
}

/// The manifest with each input's digest, computed as it was read.
fn digested(manifest: Manifest, stamps: &[InputStamp], read: &input::ReadReport) -> Manifest {
    Manifest {
        inputs: stamps
            .iter()
            .zip(&read.sha256)
            .map(|(stamp, sha256)| InputStamp {
                sha256: sha256.clone(),
                ..stamp.clone()
            })
            .collect(),
        ..manifest
    }
}

/// The run's summary with the inputs' problems first, then what the
/// games' text showed.
fn account(
    mut summary: Summary,
    read: input::ReadReport,
    inputs: &[Input],
    stamps: &[InputStamp],
    started: Instant,
) -> Summary {
    let found = std::mem::take(&mut summary.problems);
    summary.problems = read.problems;
    // An input rewritten or truncated while it was read gave rows of no
    // one version of it: damage, and the manifest would be wrong.
    for (input, before) in inputs.iter().zip(stamps) {
        if before.bytes.is_some() && !stamp(input).same_file(before) {
            summary.problems.push(input::InputProblem {
                source: input.name(),
                message: "the file changed while it was read (size or time differs); \
                          its rows may be torn: classify it again"
                    .into(),
            });
        }
    }
    summary.problems.extend(found);
    summary.elapsed = started.elapsed();
    summary
}

/// Where a run starts: at the beginning, or after the games of a
/// checkpoint.
#[derive(Default)]
struct Start {
    /// Game texts to skip, in reading order.
    spans: u64,
    /// Games already numbered in each source.
    games_per_source: HashMap<Arc<str>, u32>,
    /// What the skipped games added up to.
    summary: Summary,
}

/// Where the row groups go: the table itself, or the parts of a run that
/// can resume.
trait GroupSink {
    fn write_group(&mut self, group: &polars::prelude::DataFrame, at: &Position<'_>) -> Result<()>;
    /// After the last group.
    fn close(&mut self, at: &Position<'_>) -> Result<()>;
}

impl GroupSink for ParquetSink {
    fn write_group(&mut self, group: &polars::prelude::DataFrame, _: &Position<'_>) -> Result<()> {
        Ok(self.write(group)?)
    }

    fn close(&mut self, _: &Position<'_>) -> Result<()> {
        Ok(())
    }
}

/// Reads, replays and writes the games of `inputs` after those `start`
/// skips.
fn replay(
    inputs: &[Input],
    options: &Options,
    start: Start,
    sink: &mut dyn GroupSink,
    dedup: Option<Deduplicator>,
    progress: &mut dyn FnMut(Progress),
    rows: &mut (dyn FnMut(ToCount<'_>) -> Result<()> + Send),
) -> Result<(Summary, input::ReadReport)> {
    let threads = replay_threads(options.threads).count;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("remis-replay-{i}"))
        .build()
        .context("starting the replay threads")?;
    let bytes_read = Arc::new(AtomicU64::new(0));
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<input::Chunk>(threads * 8);
    let (done_tx, done_rx) = mpsc::sync_channel::<Replayed>(threads * 4);
    let Start {
        spans: mut skip,
        games_per_source,
        mut summary,
    } = start;
    let skipped = skip;
    // Set when the writer fails (a full disk): reading and replaying stop
    // at once instead of finishing inputs whose rows cannot be written.
    let stop = std::sync::atomic::AtomicBool::new(false);
    // Set when the skipped games end inside a chunk: the input is not
    // read as it was when the checkpoint was made.
    let misplaced = std::sync::atomic::AtomicBool::new(false);
    // Set when the reader has read every input ([`Flow::InputRead`]).
    let input_read = std::sync::atomic::AtomicBool::new(false);
    let read = std::thread::scope(|scope| -> Result<input::ReadReport> {
        let (stop, misplaced, input_read) = (&stop, &misplaced, &input_read);
        let reader = {
            let bytes_read = bytes_read.clone();
            let chunk_bytes = options.chunk_bytes;
            let limits = options.limits;
            let mut seq = 0;
            std::thread::Builder::new()
                .name("remis-read".into())
                .spawn_scoped(scope, move || {
                    let report = input::read_chunks(
                        inputs,
                        chunk_bytes,
                        limits,
                        &ParquetSource,
                        bytes_read,
                        &mut |mut chunk| {
                            if skip > 0 {
                                let games = chunk.games.len() as u64;
                                if games > skip {
                                    misplaced.store(true, Ordering::Relaxed);
                                    return false;
                                }
                                skip -= games;
                                return !stop.load(Ordering::Relaxed);
                            }
                            chunk.seq = seq;
                            seq += 1;
                            !stop.load(Ordering::Relaxed) && chunk_tx.send(chunk).is_ok()
                        },
                    );
                    input_read.store(true, Ordering::Release);
                    report
                })
                .context("starting the reading thread")?
        };
        std::thread::Builder::new()
            .name("remis-replay".into())
            .spawn_scoped(scope, move || {
                pool.install(|| {
                    chunk_rx.into_iter().par_bridge().for_each_init(
                        || {
                            (
                                GameReplayer::with_options(options.limits, options.search.clone())
                                    .with_resolver(options.resolver),
                                FormatDecider::new(Arc::clone(&options.patterns)),
                            )
                        },
                        |worker, chunk| {
                            if stop.load(Ordering::Relaxed) {
                                return;
                            }
                            let replayed = replay_chunk(
                                worker,
                                chunk,
                                options.dedup.then_some(&*options.aliases),
                                &options.patterns,
                            );
                            let _ = done_tx.send(replayed);
                        },
                    )
                })
            })
            .context("starting the replay pool")?;

        // A few chunks wait at most (each some thousands of rows): the
        // writer does not run ahead of the counting by more. `None` once
        // every row is handed over ([`ToCount::End`]); rows that stop
        // coming without it (the writer failed) end nothing.
        let (rows_tx, rows_rx) = mpsc::sync_channel::<Option<Rows>>(threads * 8);
        let counting = std::thread::Builder::new()
            .name("remis-rows".into())
            .spawn_scoped(scope, move || -> Result<()> {
                for chunk in rows_rx {
                    let Some(chunk) = chunk else {
                        return rows(ToCount::End);
                    };
                    let flow = if input_read.load(Ordering::Acquire) {
                        Flow::InputRead
                    } else {
                        Flow::Reading
                    };
                    rows(ToCount::Rows(&chunk, flow))?;
                }
                Ok(())
            })
            .context("starting the thread that counts the rows")?;
        let write_result = write_in_order(
            done_rx,
            sink,
            &mut summary,
            Numbering {
                spans: skipped,
                games_per_source,
                dedup,
            },
            options.row_group_rows.max(1),
            &mut |games| {
                progress(Progress {
                    bytes_read: bytes_read.load(Ordering::Relaxed),
                    games,
                })
            },
            // The counting ends beside the last group's writing.
            &mut |chunk| {
                rows_tx
                    .send(chunk.cloned())
                    .map_err(|_| anyhow::anyhow!("the rows could not be counted"))
            },
        );
        drop(rows_tx);
        // The counting's own error says more than the writer's.
        let counted = counting.join().expect("counting thread panicked");
        let write_result = counted.and(write_result);
        if write_result.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let read = reader.join().expect("reading thread panicked");
        write_result?;
        Ok(read)
    })?;

    anyhow::ensure!(
        !misplaced.load(Ordering::Relaxed),
        "the inputs do not read as they did when the checkpoint was made ({skipped} game texts to skip end inside a chunk): remove the checkpoint's folder and classify again"
    );
    Ok((summary, read))
}

fn replay_chunk(
    (replayer, decider): &mut (GameReplayer, FormatDecider),
    chunk: input::Chunk,
    dedup: Option<&Aliases>,
    patterns: &Arc<EventPatterns>,
) -> Replayed {
    let mut records = Vec::with_capacity(chunk.games.len());
    let not_pgn = replayer.replay_chunk(&chunk, &mut records);
    if let (Some(damage), Some(last)) = (&chunk.damage, records.last_mut()) {
        // The stream broke off inside or right after this game.
        let message = match last.error() {
            Some(e) => format!("{damage}; {e}"),
            None => format!("{damage}; this game may be incomplete"),
        };
        last.text.set(Field::Error, &message);
    }
    // The decider goes from chunk to chunk with the worker: an event's
    // patterns and a site are read once a run of games, not once a chunk.
    let remembered = std::mem::replace(decider, FormatDecider::new(Arc::clone(patterns)));
    let mut table = TableBuilder::with_decider(records.len(), remembered);
    let mut endings = BTreeMap::new();
    let mut keys = Vec::with_capacity(if dedup.is_some() { records.len() } else { 0 });
    for record in &records {
        table.push(&chunk.source, record);
        *endings.entry(record.ending).or_insert(0) += 1;
        if let Some(aliases) = dedup {
            keys.push(dedup::game_key(
                record.text.get(Field::White),
                record.text.get(Field::Black),
                record.year(),
                record.result.map(GameResult::as_str),
                record.movetext_hash,
                record.plies,
                aliases,
            ));
        }
    }
    let frame = table
        .take_frame()
        .expect("a frame of the table's own columns");
    *decider = table.into_decider();
    Replayed {
        seq: chunk.seq,
        source: chunk.source,
        frame,
        keys,
        endings,
        not_pgn,
        spans: chunk.games.len() as u64,
        last: chunk.last,
    }
}

/// Where the writing stands, for a checkpoint.
fn position<'a>(
    spans: u64,
    games_per_source: &'a HashMap<Arc<str>, u32>,
    summary: &'a Summary,
) -> Position<'a> {
    Position {
        spans,
        games_per_source,
        endings: &summary.endings,
        problems: &summary.problems,
    }
}

/// What the writer carries from game to game.
struct Numbering {
    /// Game texts written (rows and text that was not PGN).
    spans: u64,
    /// Games numbered in each source.
    games_per_source: HashMap<Arc<str>, u32>,
    /// The games seen, when later copies are marked.
    dedup: Option<Deduplicator>,
}

/// The rows of the row group being filled. Chunks are stacked in batches
/// made compact before they join it: a chunk of one game (a folder or an
/// archive of one-game files) is a frame of some 70 columns, each with its
/// own allocation, and 65,536 of them held until the group is full took
/// about 45 KB a source (2.97 GB for 66,000 one-game members).
#[derive(Default)]
struct Group {
    rows: Option<polars::prelude::DataFrame>,
    batch: Option<polars::prelude::DataFrame>,
    batched: usize,
}

impl Group {
    /// Chunks stacked before the batch is made compact.
    const BATCH_CHUNKS: usize = 64;

    fn height(&self) -> usize {
        self.rows.as_ref().map_or(0, |r| r.height()) + self.batch.as_ref().map_or(0, |b| b.height())
    }

    fn push(&mut self, frame: polars::prelude::DataFrame) -> polars::prelude::PolarsResult<()> {
        match &mut self.batch {
            Some(batch) => {
                batch.vstack_mut(&frame)?;
            }
            None => self.batch = Some(frame),
        }
        self.batched += 1;
        if self.batched >= Self::BATCH_CHUNKS {
            self.settle()?;
        }
        Ok(())
    }

    /// The batch, made compact, joins the group's rows.
    fn settle(&mut self) -> polars::prelude::PolarsResult<()> {
        self.batched = 0;
        let Some(mut batch) = self.batch.take() else {
            return Ok(());
        };
        batch.rechunk_mut();
        match &mut self.rows {
            Some(rows) => {
                rows.vstack_mut(&batch)?;
            }
            None => self.rows = Some(batch),
        }
        Ok(())
    }

    /// The whole group as one frame of one chunk a column; the group is
    /// empty afterwards.
    fn take(&mut self) -> polars::prelude::PolarsResult<Option<polars::prelude::DataFrame>> {
        self.settle()?;
        Ok(self.rows.take().map(|mut rows| {
            rows.rechunk_mut();
            rows
        }))
    }
}

/// Puts replayed chunks back in input order, numbers the games within each
/// source, marks duplicates, and writes row groups of about
/// `row_group_rows` rows ([`ROW_GROUP_ROWS`] by default). Each chunk's rows
/// go to `rows_numbered` once numbered, and `None` once the last has,
/// before the last group is written.
fn write_in_order(
    done: mpsc::Receiver<Replayed>,
    sink: &mut dyn GroupSink,
    summary: &mut Summary,
    numbering: Numbering,
    row_group_rows: usize,
    progress: &mut dyn FnMut(u64),
    rows_numbered: &mut dyn FnMut(Option<&Rows>) -> Result<()>,
) -> Result<()> {
    use polars::prelude::{IntoColumn, NamedFrom, Series};
    let Numbering {
        mut spans,
        games_per_source: mut game_numbers,
        mut dedup,
    } = numbering;
    let mut pending: BTreeMap<u64, Replayed> = BTreeMap::new();
    let mut next_seq = 0;
    let mut group = Group::default();
    for replayed in done {
        pending.insert(replayed.seq, replayed);
        while let Some(mut ready) = pending.remove(&next_seq) {
            next_seq += 1;
            for skipped in &ready.not_pgn {
                summary.problems.push(InputProblem {
                    source: ready.source.to_string(),
                    message: format!(
                        "{}: text that is not PGN, skipped (\"{}\")",
                        skipped.at, skipped.excerpt
                    ),
                });
            }
            let rows = ready.frame.height();
            let game_no = game_numbers.entry(ready.source.clone()).or_insert(0);
            let first = *game_no + 1;
            *game_no += rows as u32;
            let numbers: Vec<u32> = (first..first + rows as u32).collect();
            ready
                .frame
                .with_column(Series::new(Column::GameNo.name().into(), numbers).into_column())?;
            if let Some(d) = dedup.as_mut() {
                let mut of_row = Vec::with_capacity(rows);
                for (i, &key) in ready.keys.iter().enumerate() {
                    of_row.push(d.mark(key, summary.games_read + i as u64));
                }
                let duplicate: Vec<bool> = of_row.iter().map(Option::is_some).collect();
                ready.frame.with_column(
                    Series::new(Column::DedupKey.name().into(), ready.keys.clone()).into_column(),
                )?;
                ready.frame.with_column(
                    Series::new(Column::Duplicate.name().into(), duplicate).into_column(),
                )?;
                ready.frame.with_column(
                    Series::new(Column::DuplicateOfRow.name().into(), of_row).into_column(),
                )?;
            }
            for (ending, n) in &ready.endings {
                *summary.endings.entry(*ending).or_insert(0) += n;
            }
            summary.games_read += rows as u64;
            spans += ready.spans;
            if ready.last && game_numbers.get(&ready.source).is_none_or(|&n| n == 0) {
                summary.problems.push(InputProblem {
                    source: ready.source.to_string(),
                    message: "no PGN games in this input".into(),
                });
            }
            // A source's games are numbered: once its last chunk is in,
            // its count is not needed (a checkpoint keeps the sources still
            // being read), so memory does not grow with the sources.
            if ready.last {
                game_numbers.remove(&ready.source);
            }
            // Counted as soon as it has its place and its marks: waiting
            // for the group would leave the last group (up to
            // `row_group_rows` rows) to count after the replay has ended.
            rows_numbered(Some(&ready.frame))?;
            group.push(ready.frame)?;
            if group.height() >= row_group_rows {
                let full = group.take()?.expect("rows above");
                sink.write_group(&full, &position(spans, &game_numbers, summary))?;
            }
            progress(summary.games_read);
        }
    }
    rows_numbered(None)?;
    if let Some(rest) = group.take()?.filter(|g| g.height() > 0) {
        sink.write_group(&rest, &position(spans, &game_numbers, summary))?;
    }
    sink.close(&position(spans, &game_numbers, summary))?;
    summary.duplicates = dedup.map(|d| d.duplicates);
    anyhow::ensure!(
        pending.is_empty(),
        "internal error: {} replayed chunks were never written",
        pending.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Group;
    use polars::prelude::*;

    #[test]
    fn a_group_of_one_row_chunks_is_held_in_few_compact_chunks() {
        // 1,000 one-game sources: each chunk is its own frame; the group
        // must not hold 1,000 allocations a column until it is written.
        let mut group = Group::default();
        for i in 0..1_000u32 {
            let frame = df!("game_no" => [i], "source" => [format!("{i}.pgn")]).unwrap();
            group.push(frame).unwrap();
        }
        assert_eq!(group.height(), 1_000);
        let held = group.rows.as_ref().map_or(0, |r| r.first_col_n_chunks())
            + group.batch.as_ref().map_or(0, |b| b.first_col_n_chunks());
        assert!(
            held <= 1_000 / Group::BATCH_CHUNKS + 64,
            "{held} chunks held"
        );
        let whole = group.take().unwrap().unwrap();
        assert_eq!(whole.height(), 1_000);
        assert_eq!(whole.first_col_n_chunks(), 1);
        let numbers: Vec<u32> = whole
            .column("game_no")
            .unwrap()
            .u32()
            .unwrap()
            .into_no_null_iter()
            .collect();
        assert_eq!(numbers, (0..1_000).collect::<Vec<_>>());
        assert!(group.take().unwrap().is_none());
    }
}
