//! `classify` with its summary: beside each table it writes, the counts
//! for the default filters, which the reading commands without filters
//! read instead of the rows. They are counted from the rows as
//! remis-table numbers them, a chunk at a time ([`Beside`]): no second
//! pass over the table.

use anyhow::{Context, Result};

use remis_table::classify::{Beside, Counter, Event, Job, Outcome};
use remis_table::pipeline::{Flow, Rows};
use remis_table::safe_file::AtomicFile;
use remis_table::writer::WrittenTable;

use crate::analysis::{Config, Settings, Summary, SummaryBuilder, summary};

/// Runs `job` (see [`remis_table::classify::run`]), each table with its
/// summary unless `summarize` is false (its players read through the
/// job's aliases, as the `--dedup` key is).
pub fn run(job: &Job, summarize: bool, show: &mut dyn FnMut(Event)) -> Result<Outcome> {
    if !summarize {
        return remis_table::classify::run(job, None, show);
    }
    let settings = Settings {
        aliases: (*job.options.aliases).clone(),
        ..Settings::default()
    };
    let config = settings.config();
    remis_table::classify::run(job, Some(&DefaultSummary { config: &config }), show)
}

/// Rows counted at a time beside the replay until every input is read
/// (then [`TAIL_BATCH_ROWS`], so that little is left to count when the
/// replay ends). The rows come a chunk at a time as they are numbered,
/// and each batch's counts are merged into the totals, so a batch should
/// not be small: on the master games A-F at two threads the default
/// command took 1.67-1.72 s with batches of 65,536 rows counted by polars
/// queries, 1.45-1.47 s with 16,384; counted in Rust, 32,768 took 0.967 of
/// 16,384's wall on all the master games (5 pairs; 432 MiB peak against
/// 417), the same on A-F.
const BATCH_ROWS: usize = 32_768;

/// Rows counted at a time once every input is read ([`Flow::InputRead`]).
const TAIL_BATCH_ROWS: usize = 4_096;

/// The summary under `config`, of each table written.
struct DefaultSummary<'a> {
    config: &'a Config<'a>,
}

impl Beside for DefaultSummary<'_> {
    fn counter(&self) -> Box<dyn Counter + '_> {
        Box::new(Counting {
            config: self.config,
            stage: Stage::Counting(Box::new(
                SummaryBuilder::new(self.config).with_batch_rows(BATCH_ROWS),
            )),
        })
    }
}

struct Counting<'a> {
    config: &'a Config<'a>,
    stage: Stage<'a>,
}

/// The builder until every row is counted ([`Counter::close`]), then the
/// counts.
enum Stage<'a> {
    Counting(Box<SummaryBuilder<'a>>),
    Counted(Box<Summary>),
}

impl Counter for Counting<'_> {
    fn add(&mut self, rows: &Rows, flow: Flow) -> Result<()> {
        let Stage::Counting(builder) = &mut self.stage else {
            anyhow::bail!("internal error: rows counted after the summary was finished");
        };
        if flow == Flow::InputRead {
            // What is left follows the replay's pace: held for a batch of
            // BATCH_ROWS it would be counted after the replay, the other
            // core idle (on A-F at two threads, 70 ms of the wall).
            builder.count_within(TAIL_BATCH_ROWS);
        }
        builder.add_frame(rows).context("counting the summary")
    }

    fn close(&mut self) -> Result<()> {
        // The players' maps and the events' pairings made while the
        // table's last row group is written (40 ms of the wall after the
        // replay on A-F at two threads, one core idle).
        let stage = std::mem::replace(&mut self.stage, Stage::Counted(Box::default()));
        self.stage = match stage {
            Stage::Counting(builder) => {
                Stage::Counted(Box::new(builder.finish().context("finishing the summary")?))
            }
            counted => counted,
        };
        Ok(())
    }

    fn finish(self: Box<Self>, table: &WrittenTable) -> Result<(u64, AtomicFile)> {
        let counts = match self.stage {
            Stage::Counted(counts) => *counts,
            Stage::Counting(builder) => builder
                .finish()
                .with_context(|| format!("summarizing {}", table.path().display()))?,
        };
        let file = summary::prepare(table.path(), table.readable_path(), self.config, &counts)?;
        let rows = counts.rows();
        // Freed beside what follows, not before it: the maps of a large
        // summary took 16 ms to free, the last thing `classify` waited
        // for (the master games A-F).
        std::thread::spawn(move || drop(counts));
        Ok((rows, file))
    }
}
