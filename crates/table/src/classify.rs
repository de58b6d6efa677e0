//! `remis classify` whole: the inputs named on the command line into one
//! table, or into one shard per input, each committed with what is written
//! beside it. The caller (remis-report, whose summary that is) hands in a
//! [`Beside`] that counts the rows as they are numbered, a chunk at a
//! time; a table and the file beside it are both written whole before
//! either is renamed into place, so a failure at the second (a full disk)
//! leaves the previous pair as it was.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use remis_core::{
    excerpt::{Shown, shown_path},
    input::{self, Input},
    rules::Ending,
};

use crate::{
    parquet_input::ParquetSource,
    pipeline::{self, Flow, Options, Progress, Rows, ToCount},
    safe_file::AtomicFile,
    shards,
    writer::WrittenTable,
};

/// One `classify` run.
#[derive(Clone, Debug)]
pub struct Job {
    /// As named: files, folders (every game file below them) and `-`.
    pub inputs: Vec<PathBuf>,
    /// A folder (the table is `games.parquet` in it) or a `.parquet` name;
    /// with `shards`, the dataset's folder.
    pub out: PathBuf,
    /// One table per input instead of one for all.
    pub shards: Option<Shards>,
    /// Checkpoints, with parts of about this many rows (`--resume`).
    pub resume: Option<usize>,
    pub options: Options,
}

/// One shard per input, each written (or failed) on its own: it keeps
/// its input's place below the folder named, or below `root`.
#[derive(Clone, Debug, Default)]
pub struct Shards {
    pub root: Option<PathBuf>,
    /// Leave alone a shard that came from its input as it is now.
    pub skip_current: bool,
}

/// What is written beside each table, counted from its rows as they are
/// written (no second pass over the table).
pub trait Beside: Sync {
    /// The counter of one table.
    fn counter(&self) -> Box<dyn Counter + '_>;
}

/// Counts one table's rows, a chunk at a time in table order, on a thread
/// of its own.
pub trait Counter: Send {
    /// Counts the next rows; `flow`: whether every input is read.
    fn add(&mut self, rows: &Rows, flow: Flow) -> Result<()>;
    /// No rows follow: what can be done before the table is written
    /// (called while its last row group is).
    fn close(&mut self) -> Result<()> {
        Ok(())
    }
    /// The rows counted, and the file for `table` written whole but not
    /// yet in place: it is committed after the table.
    fn finish(self: Box<Self>, table: &WrittenTable) -> Result<(u64, AtomicFile)>;
}

/// Where a run stands, for a progress display.
#[derive(Copy, Clone, Debug)]
pub enum Event {
    /// A table is begun; its inputs hold this many bytes, when known.
    Begin {
        bytes: Option<u64>,
    },
    Progress(Progress),
    /// The table is written: what is said about it comes next.
    End,
}

/// How a run went.
#[derive(Copy, Clone, Debug)]
pub struct Outcome {
    /// Some input was damaged (truncated, not PGN, unreadable): its damage
    /// has been said.
    pub damaged: bool,
}

/// Classifies `job`'s inputs, with `beside` written beside each table
/// when given; says on standard error what each table holds. A shard that
/// fails is named and the others written: the run then fails, naming them.
pub fn run(job: &Job, beside: Option<&dyn Beside>, show: &mut dyn FnMut(Event)) -> Result<Outcome> {
    let resolved = input::resolve(&job.inputs, &ParquetSource)?;
    for (path, why) in &resolved.skipped {
        remis_core::say!(
            "remis: warning: {}: skipped: {}",
            shown_path(path),
            Shown(why)
        );
    }
    let threads = pipeline::replay_threads(job.options.threads);
    if threads.capped {
        remis_core::say!(
            "remis: warning: --threads {} is more than 4 per core; using {}",
            job.options.threads,
            threads.count
        );
    }
    let (inputs, placed) = (resolved.inputs, resolved.placed);
    let Some(Shards { root, skip_current }) = &job.shards else {
        let out = shards::table_path(&job.out)?;
        shards::refuse_overwriting_an_input(&out, &inputs)?;
        let damaged = classify_into(&inputs, &out, job, beside, show)?;
        return Ok(Outcome { damaged });
    };
    std::fs::create_dir_all(&job.out)
        .with_context(|| format!("creating folder {}", job.out.display()))?;
    let mut shards = std::collections::BTreeMap::new();
    let mut planned = Vec::with_capacity(inputs.len());
    for (input, placed) in inputs.iter().zip(&placed) {
        let shard = job
            .out
            .join(shards::shard_path(input, placed, root.as_deref())?);
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
            shards::Existing::Current if *skip_current => {
                current += 1;
                Ok(false)
            }
            _ => {
                if let Some(dir) = shard.parent() {
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("creating folder {}", dir.display()))?;
                }
                classify_into(std::slice::from_ref(input), shard, job, beside, show)
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
    Ok(Outcome { damaged })
}

/// Classifies inputs into one table (and what goes beside it); returns
/// whether any input was damaged.
fn classify_into(
    inputs: &[Input],
    out: &Path,
    job: &Job,
    beside: Option<&dyn Beside>,
    show: &mut dyn FnMut(Event),
) -> Result<bool> {
    show(Event::Begin {
        bytes: input::total_size(inputs),
    });
    let mut counter = beside.map(Beside::counter);
    let mut rows = |handed: ToCount| match (counter.as_mut(), handed) {
        (Some(counter), ToCount::Rows(rows, flow)) => counter.add(rows, flow),
        (Some(counter), ToCount::End) => counter.close(),
        (None, _) => Ok(()),
    };
    let options = &job.options;
    let mut progress = |p: Progress| show(Event::Progress(p));
    let (summary, table, parts) = match job.resume {
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
    show(Event::End);
    say_written(&summary, out);
    anyhow::ensure!(
        summary.games_read == summary.rows_written,
        "{} games read but {} rows written",
        summary.games_read,
        summary.rows_written
    );
    let side_file = match counter {
        Some(counter) => {
            let (counted, file) = counter.finish(&table)?;
            anyhow::ensure!(
                counted == summary.rows_written,
                "internal error: the summary counted {counted} rows of the {} written",
                summary.rows_written
            );
            Some(file)
        }
        None => None,
    };
    table.commit()?;
    if let Some(file) = side_file {
        file.commit()?;
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

/// What the run read and wrote into `out`, and the damage it met.
fn say_written(summary: &pipeline::Summary, out: &Path) {
    if let Some(games) = summary.resumed_after {
        remis_core::say!(
            "remis: resumed after the {games} games an earlier run had committed ({})",
            shown_path(&crate::resume::Parts::folder_of(out))
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
}
