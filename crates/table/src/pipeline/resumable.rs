//! The classify stage in a way that can resume (`classify --resume`):
//! the row groups go to the parts of [`crate::resume`], and the table is
//! made from the parts at the end.

use std::{path::Path, sync::Arc, time::Instant};

use anyhow::{Context, Result};

use super::{GroupSink, Options, Progress, Start, Summary, account, digested, manifest_of, replay};
use crate::{
    dedup::Deduplicator,
    resume::{Parts, Position},
    schema::Column,
    writer::{self, WrittenTable},
};
use remis_core::input::Input;

/// [`classify`](super::classify), in a way that can resume (`classify --resume`): the rows
/// go to parts of about `part_rows` rows committed with a checkpoint as
/// they are written ([`Parts`]), and the table is made from the parts at
/// the end. When a checkpoint of the same run is found, its games are not
/// replayed again: the inputs are read from their start (their digests
/// need every byte) but the games the parts hold are skipped, the parts'
/// rows are counted for `rows` and remembered for `--dedup`, and the run
/// goes on from the first game after them. The parts are returned, to be
/// removed once the table is in place.
pub fn classify_resumable(
    inputs: &[Input],
    out: &Path,
    options: &Options,
    part_rows: usize,
    progress: &mut dyn FnMut(Progress),
    rows: &mut (dyn FnMut(super::ToCount<'_>) -> Result<()> + Send),
) -> Result<(Summary, WrittenTable, Parts)> {
    let started = Instant::now();
    let (stamps, manifest) = manifest_of(inputs, options);
    let run = format!(
        "remis {} {}; {:?}; search nodes {}, everywhere {}, off {}; dedup {} (player aliases {:016x}); chunks of {} bytes; row groups of {}; parts of {}; {:?}",
        env!("CARGO_PKG_VERSION"),
        options.run.as_ref().map_or("", |r| r.commit.as_str()),
        options.limits,
        options.search.deep_nodes,
        options.search.everywhere,
        options.search.off,
        options.dedup,
        options.aliases.hash(),
        options.chunk_bytes,
        options.row_group_rows,
        part_rows,
        options.patterns,
    );
    let mut parts = Parts::open(out, run, &stamps, manifest.clone(), part_rows)?;
    let committed = parts.committed().clone();
    let mut dedup = options.dedup.then(Deduplicator::default);
    let mut row = 0u64;
    for part in parts.part_paths() {
        for_each_slice(&part, options.row_group_rows, &mut |frame| {
            // The parts written before: the inputs are yet to be read.
            rows(super::ToCount::Rows(&frame, super::Flow::Reading))?;
            if let Some(d) = dedup.as_mut() {
                for key in frame
                    .column(Column::DedupKey.name())?
                    .as_materialized_series()
                    .u64()?
                    .iter()
                {
                    d.mark(key.context("a part's row without its dedup_key")?, row);
                    row += 1;
                }
            }
            Ok(())
        })
        .with_context(|| format!("reading {} again", part.display()))?;
    }
    let start = Start {
        spans: committed.spans,
        games_per_source: committed
            .games_per_source
            .iter()
            .map(|(source, &n)| (Arc::from(source.as_str()), n))
            .collect(),
        summary: Summary {
            games_read: committed.rows,
            endings: committed.endings(),
            problems: committed.problems(),
            resumed_after: (committed.rows > 0).then_some(committed.rows),
            ..Summary::default()
        },
    };
    let (mut summary, read) = replay(inputs, options, start, &mut parts, dedup, progress, rows)?;
    // The table: the parts' row groups, copied as they are, in order.
    let table = writer::concatenate(
        &parts.part_paths(),
        out,
        &digested(manifest, &stamps, &read),
    )?;
    // Counted in the table as written: the caller holds it to the games.
    summary.rows_written = crate::parquet_input::checked_row_count(table.readable_path())
        .with_context(|| format!("reading {} back", table.readable_path().display()))?;
    anyhow::ensure!(
        summary.rows_written == parts.committed().rows,
        "internal error: the parts hold {} rows, the table made of them {}",
        parts.committed().rows,
        summary.rows_written
    );
    Ok((
        account(summary, read, inputs, &stamps, started),
        table,
        parts,
    ))
}

impl GroupSink for Parts {
    fn write_group(&mut self, group: &polars::prelude::DataFrame, at: &Position<'_>) -> Result<()> {
        Ok(self.write(group, at)?)
    }

    fn close(&mut self, at: &Position<'_>) -> Result<()> {
        Ok(self.finish(at)?)
    }
}

/// Reads a table (or a part) `rows` rows at a time, in order.
fn for_each_slice(
    path: &Path,
    rows: usize,
    each: &mut dyn FnMut(polars::prelude::DataFrame) -> Result<()>,
) -> Result<()> {
    use polars::prelude::{ParquetReader, SerReader};
    let open = || crate::safe_file::open_regular(path);
    let metadata = ParquetReader::new(open()?).get_metadata()?.clone();
    let total = metadata.num_rows;
    let mut offset = 0;
    while offset < total {
        let take = rows.max(1).min(total - offset);
        let mut reader = ParquetReader::new(open()?).with_slice(Some((offset, take)));
        reader.set_metadata(metadata.clone());
        let frame = reader.finish()?;
        anyhow::ensure!(
            frame.height() == take,
            "{} rows short",
            take - frame.height()
        );
        offset += take;
        each(frame)?;
    }
    Ok(())
}
