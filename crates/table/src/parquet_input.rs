//! Games stored as Parquet rows in the lichess dataset's layout
//! (`Lichess/standard-chess-games` on the Hugging Face hub): one row per
//! game, the tags as columns (`Event`, `Site`, `White`, `Black`, `Result`,
//! `WhiteTitle`, `BlackTitle`, `WhiteElo`, `BlackElo`, `WhiteRatingDiff`,
//! `BlackRatingDiff`, `UTCDate`, `UTCTime`, `ECO`, `Opening`,
//! `Termination`, `TimeControl`) and the moves in `movetext`.
//!
//! The footer is read once and the rows in slices of at most
//! [`SLICE_ROWS`], in order, so time is linear in rows however the file is
//! grouped, and memory is bounded by a slice. The tags go to the replay as they are (a
//! [`TagTable`]); only `movetext` is lexed. Every row is exactly one game,
//! whatever its movetext holds: a line break or a tag line inside it is
//! movetext, never the start of another game.

use std::{
    fs::File,
    path::{Path, PathBuf},
    sync::Arc,
};

use polars::prelude::*;

use remis_core::input::{
    Cap, ColumnarError, ColumnarGames, ColumnarSource, GameSpan, Limits, Rows, TagTable,
};

/// Tag columns read when present, by the tag they become.
const TAG_COLUMNS: [&str; 21] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "UTCDate",
    "UTCTime",
    "ECO",
    "Opening",
    "Termination",
    "TimeControl",
    "Variant",
    "FEN",
];

/// The moves column.
pub const MOVETEXT: &str = "movetext";

/// Why a Parquet file cannot be read as games.
#[derive(Debug, thiserror::Error)]
pub enum ParquetInputError {
    #[error("not a readable Parquet file: {0}")]
    Unreadable(PolarsError),
    #[error("no `{MOVETEXT}` column: not the lichess games layout (columns: {0})")]
    NoMovetext(String),
    #[error("column `{column}` has type {found}, expected text")]
    WrongType { column: String, found: String },
    #[error("row group {group}: {cause}")]
    Group { group: usize, cause: PolarsError },
    #[error("its footer says {footer} rows, its row groups hold {groups}: a corrupt file")]
    RowCount { footer: usize, groups: usize },
    #[error(
        "cut short: its footer places column data up to byte {place}, its data ends at byte {end} (the file was cut, or changed after it was written); the {rows_before} rows before the damage are whole"
    )]
    CutShort {
        place: u64,
        end: u64,
        rows_before: usize,
    },
    #[error("column `{column}` holds ratings that are not whole numbers ({example})")]
    FractionalRating { column: String, example: f64 },
}

/// Runs a polars call on a file that may be hostile: a panic inside polars
/// (a file truncated while read, a corrupt page) becomes an error, so the
/// caller can name the file and carry on.
pub fn contained<T>(call: impl FnOnce() -> PolarsResult<T>) -> PolarsResult<T> {
    match crate::panics::quietly(call) {
        Ok(result) => result,
        Err(panic) => Err(PolarsError::ComputeError(
            format!(
                "the Parquet reader failed on this file ({})",
                crate::panics::message(panic.as_ref())
            )
            .into(),
        )),
    }
}

/// The row count of a Parquet file, checked: the footer's count must equal
/// the sum of its row groups' counts, or the file is refused as corrupt.
pub fn checked_row_count(path: &Path) -> Result<u64, ParquetInputError> {
    let file = File::open(path).map_err(|e| ParquetInputError::Unreadable(e.into()))?;
    Ok(checked_metadata(&file)?.num_rows as u64)
}

/// The footer of an open Parquet file, checked before polars reads a page
/// by it: its row count must equal its row groups' (else the file is
/// corrupt), and every column chunk must lie within the file's data. A
/// file cut under its footer (cut while a copy was made, or while it was
/// read) would have polars slice past the end of its buffer: a panic on
/// its own threads, or with its streaming engine an out-of-bounds read.
pub fn checked_metadata(
    file: &File,
) -> Result<Arc<polars::io::parquet::read::FileMetadata>, ParquetInputError> {
    let size = file
        .metadata()
        .map_err(|e| ParquetInputError::Unreadable(e.into()))?
        .len();
    let clone = file
        .try_clone()
        .map_err(|e| ParquetInputError::Unreadable(e.into()))?;
    let mut reader = ParquetReader::new(clone);
    let metadata =
        contained(|| reader.get_metadata().cloned()).map_err(ParquetInputError::Unreadable)?;
    // The footer's length, just before the closing "PAR1".
    let mut tail = [0u8; 4];
    std::os::unix::fs::FileExt::read_exact_at(file, &mut tail, size.saturating_sub(8))
        .map_err(|e| ParquetInputError::Unreadable(e.into()))?;
    let data_end = size.saturating_sub(8 + u64::from(u32::from_le_bytes(tail)));
    check_footer(&metadata, data_end)?;
    Ok(metadata)
}

fn check_footer(
    metadata: &polars::io::parquet::read::FileMetadata,
    end: u64,
) -> Result<(), ParquetInputError> {
    let groups = metadata
        .row_groups
        .iter()
        .try_fold(0usize, |sum, g| sum.checked_add(g.num_rows()))
        .unwrap_or(usize::MAX);
    if groups != metadata.num_rows {
        return Err(ParquetInputError::RowCount {
            footer: metadata.num_rows,
            groups,
        });
    }
    let ends: Vec<u64> = metadata
        .row_groups
        .iter()
        .map(|g| g.byte_ranges_iter().map(|r| r.end).max().unwrap_or(0))
        .collect();
    let place = ends.iter().copied().max().unwrap_or(0);
    if place > end {
        let rows_before = metadata
            .row_groups
            .iter()
            .zip(&ends)
            .take_while(|(_, group_end)| **group_end <= end)
            .map(|(g, _)| g.num_rows())
            .sum();
        return Err(ParquetInputError::CutShort {
            place,
            end,
            rows_before,
        });
    }
    Ok(())
}

/// A reader of a Parquet file's games, a slice of rows at a time.
pub struct ParquetGames {
    path: PathBuf,
    metadata: Arc<polars::io::parquet::read::FileMetadata>,
    /// The tag columns present, then `movetext`.
    columns: Vec<String>,
    names: Arc<[&'static str]>,
    /// The row group that holds row `offset`, and the row past its end.
    group: usize,
    group_end: usize,
    offset: usize,
    /// Rows read so far: the next row's number is `row + 1`.
    row: u64,
    /// A file cut under its footer: read up to the damage, then this.
    cut: Option<ParquetInputError>,
    /// Rows not yet handed on: a run fills across small row groups.
    run: Option<Rows>,
    /// The most bytes a row of the columns read has taken so far, as
    /// decoded: a footer that understates its sizes is caught after one
    /// slice.
    seen_row_bytes: usize,
}

/// Core's hook for Parquet input: files of games in the lichess layout.
pub struct ParquetSource;

impl ColumnarSource for ParquetSource {
    fn open(&self, path: &Path) -> Result<Box<dyn ColumnarGames + '_>, ColumnarError> {
        Ok(Box::new(ParquetGames::open(path)?))
    }

    fn is_games_table(&self, path: &Path) -> bool {
        is_remis_table(path)
    }
}

/// Whether a Parquet file is a games table remis wrote (its footer holds a
/// remis manifest, or it has the table's columns): remis's own output is
/// never read back as input.
pub fn is_remis_table(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    let mut reader = ParquetReader::new(file);
    let manifest = reader.get_metadata().is_ok_and(|m| {
        m.key_value_metadata
            .as_ref()
            .is_some_and(|kv| kv.iter().any(|kv| kv.key.starts_with("remis.")))
    });
    manifest
        || reader.schema().is_ok_and(|schema| {
            ["game_no", "ending", "draw_type", "movetext_hash"]
                .iter()
                .all(|c| schema.contains(c))
        })
}

/// Rows read at a time: a slice of a row group, or many small groups.
pub const SLICE_ROWS: usize = 16_384;
const FIRST_SLICE_ROWS: usize = 4_096;
/// Bytes of the columns read, uncompressed, in one slice: rows of 256 KiB
/// of movetext are read 256 at a time, not 16,384 (4 GiB).
pub const SLICE_BYTES: usize = 64 << 20;

impl ParquetGames {
    /// The rows of the next slice, from `offset`: at most `rows`, and no
    /// more than [`SLICE_BYTES`] by the footer's uncompressed sizes of the
    /// columns read (and by the largest row decoded so far); at least one.
    fn slice_rows(&self, rows: usize) -> usize {
        let groups = &self.metadata.row_groups;
        let (mut group, mut start) = (self.group, self.group_end);
        if let Some(g) = groups.get(group) {
            start -= g.num_rows();
        }
        let (mut taken, mut bytes) = (0usize, 0usize);
        while taken < rows {
            let Some(g) = groups.get(group) else {
                break;
            };
            let from = (self.offset + taken).max(start);
            let end = start + g.num_rows();
            if from >= end {
                group += 1;
                start = end;
                continue;
            }
            let footer: usize = self
                .columns
                .iter()
                .filter_map(|c| g.columns_under_root_iter(c))
                .flatten()
                .map(|m| usize::try_from(m.uncompressed_size()).unwrap_or(0))
                .sum();
            let per_row = footer
                .div_ceil(g.num_rows().max(1))
                .max(self.seen_row_bytes)
                .max(1);
            let room = (SLICE_BYTES.saturating_sub(bytes) / per_row).max(usize::from(taken == 0));
            let here = (end - from).min(rows - taken).min(room);
            if here == 0 {
                break;
            }
            taken += here;
            bytes += here * per_row;
            group += 1;
            start = end;
        }
        taken.max(1)
    }
}

impl ParquetGames {
    pub fn open(path: &Path) -> Result<ParquetGames, ParquetInputError> {
        let file = File::open(path).map_err(|e| ParquetInputError::Unreadable(e.into()))?;
        // A file cut under its footer is read up to the damage.
        let (metadata, cut) = match checked_metadata(&file) {
            Ok(metadata) => (metadata, None),
            Err(cut @ ParquetInputError::CutShort { .. }) => {
                let mut reader = ParquetReader::new(
                    file.try_clone()
                        .map_err(|e| ParquetInputError::Unreadable(e.into()))?,
                );
                let metadata = contained(|| reader.get_metadata().cloned())
                    .map_err(ParquetInputError::Unreadable)?;
                (metadata, Some(cut))
            }
            Err(e) => return Err(e),
        };
        let mut reader = ParquetReader::new(file);
        let schema = contained(|| reader.schema()).map_err(ParquetInputError::Unreadable)?;
        let names: Vec<String> = schema.iter_names().map(|n| n.to_string()).collect();
        let Some(movetext) = schema.get(MOVETEXT) else {
            return Err(ParquetInputError::NoMovetext(names.join(", ")));
        };
        if !matches!(
            movetext.dtype(),
            ArrowDataType::Utf8 | ArrowDataType::LargeUtf8 | ArrowDataType::Utf8View
        ) {
            return Err(ParquetInputError::WrongType {
                column: MOVETEXT.into(),
                found: format!("{:?}", movetext.dtype()),
            });
        }
        let present: Vec<&'static str> = TAG_COLUMNS
            .into_iter()
            .filter(|c| names.iter().any(|n| n == c))
            .collect();
        let mut columns: Vec<String> = present.iter().map(|c| c.to_string()).collect();
        columns.push(MOVETEXT.into());
        let first_group_rows = metadata.row_groups.first().map_or(0, |g| g.num_rows());
        Ok(ParquetGames {
            path: path.to_path_buf(),
            metadata,
            columns,
            names: present.into(),
            group: 0,
            group_end: first_group_rows,
            offset: 0,
            row: 0,
            run: None,
            seen_row_bytes: 0,
            cut,
        })
    }
}

impl ColumnarGames for ParquetGames {
    /// Slices are at most [`SLICE_ROWS`] rows whatever the row groups:
    /// polars reads only the pages a slice needs, so a file of one huge
    /// group starts replaying at once and memory stays bounded by a slice,
    /// and a file of thousands of tiny groups is read a few calls at a time.
    fn next_slice(
        &mut self,
        target: usize,
        max_games: usize,
        limits: &Limits,
        emit: &mut dyn FnMut(Rows) -> bool,
    ) -> Result<bool, ColumnarError> {
        let total = match &self.cut {
            Some(ParquetInputError::CutShort { rows_before, .. }) => *rows_before,
            _ => self.metadata.num_rows,
        };
        if self.offset >= total {
            // The end: the last run, however short.
            if let Some(run) = self.run.take().filter(|r| !r.games.is_empty()) {
                emit(run);
            }
            return match self.cut.take() {
                Some(cut) => Err(cut.into()),
                None => Ok(false),
            };
        }
        // The first slice is small, so that the workers start early.
        let rows = if self.offset == 0 {
            FIRST_SLICE_ROWS
        } else {
            SLICE_ROWS
        }
        .min(total - self.offset);
        let rows = self.slice_rows(rows);
        let index = self.group;
        let failed = |cause| ParquetInputError::Group {
            group: index,
            cause,
        };
        // The footer is read once, in `open`: each slice reuses it.
        let read = |rows: usize| -> Result<DataFrame, ParquetInputError> {
            let file = File::open(&self.path).map_err(|e| failed(e.into()))?;
            let mut reader = ParquetReader::new(file)
                .with_columns(Some(self.columns.clone()))
                .with_slice(Some((self.offset, rows)));
            reader.set_metadata(self.metadata.clone());
            contained(|| reader.finish()).map_err(failed)
        };
        // A slice across row groups that fails is read again up to the end
        // of its first group, so that the groups before the damage (a file
        // cut while it is read) are kept.
        let in_group = self.group_end.saturating_sub(self.offset).max(1);
        let (frame, rows) = match read(rows) {
            Ok(frame) => (frame, rows),
            Err(_) if rows > in_group => (read(in_group)?, in_group),
            Err(e) => return Err(e.into()),
        };
        self.offset += rows;
        // The group that holds the next row, for messages.
        while self.group_end <= self.offset && self.group + 1 < self.metadata.row_groups.len() {
            self.group += 1;
            self.group_end += self.metadata.row_groups[self.group].num_rows();
        }
        let mut tags: Vec<StringChunked> = Vec::with_capacity(self.names.len());
        for name in self.names.iter() {
            let column = frame.column(name).map_err(failed)?;
            let text = tag_text(name, column, index)?;
            tags.push(text.str().map_err(failed)?.clone());
        }
        let movetext = frame
            .column(MOVETEXT)
            .and_then(|c| c.str().cloned())
            .map_err(failed)?;
        let text_bytes =
            |column: &StringChunked| column.iter().map(|v| v.map_or(0, str::len)).sum::<usize>();
        let decoded = text_bytes(&movetext) + tags.iter().map(text_bytes).sum::<usize>();
        self.seen_row_bytes = self.seen_row_bytes.max(decoded.div_ceil(rows.max(1)));
        let names = self.names.clone();
        let fresh = || Rows {
            data: Vec::with_capacity(target.min(1 << 24)),
            games: Vec::new(),
            tags: TagTable::new(names.clone()),
        };
        let mut run = self.run.take().unwrap_or_else(fresh);
        // Walked in step by iterators: a slice over many small row groups
        // is a column of many chunks, where looking up row i is not O(1).
        let mut tag_values: Vec<_> = tags.iter().map(|t| t.iter()).collect();
        for moves in movetext.iter() {
            self.row += 1;
            let whole = run.tags.push(
                tag_values.iter_mut().map(|t| t.next().flatten()),
                limits.max_header_bytes,
            );
            let moves = moves.unwrap_or_default();
            let start = run.data.len();
            let cut = if !whole {
                Some(Cap::HeaderBytes(limits.max_header_bytes))
            } else if moves.len() > limits.max_game_bytes {
                Some(Cap::GameBytes(limits.max_game_bytes))
            } else {
                run.data.extend_from_slice(moves.as_bytes());
                None
            };
            run.games.push(GameSpan {
                start,
                end: run.data.len(),
                at: remis_core::input::Place::row(self.row),
                headerless: false,
                cut,
            });
            run.data.push(b'\n');
            if run.games.len() >= max_games || run.data.len() >= target {
                let full = std::mem::replace(&mut run, fresh());
                if !emit(full) {
                    return Ok(false);
                }
            }
        }
        self.run = Some(run);
        Ok(true)
    }

    fn fraction_read(&self) -> f64 {
        match self.metadata.num_rows {
            0 => 1.0,
            total => self.offset as f64 / total as f64,
        }
    }
}

/// A tag column as text. Ratings stored as floats (pandas writes integer
/// columns with gaps as Float64, NaN for the gaps) are read as the whole
/// numbers they are, NaN as no rating; a rating with a fraction is refused,
/// naming the column, rather than guessed.
fn tag_text(name: &str, column: &Column, group: usize) -> Result<Column, ParquetInputError> {
    let failed = |cause| ParquetInputError::Group { group, cause };
    if !column.dtype().is_float() {
        return column.cast(&DataType::String).map_err(failed);
    }
    let floats = column.cast(&DataType::Float64).map_err(failed)?;
    let values = || {
        floats.f64().map(|ca| {
            ca.downcast_iter()
                .flat_map(|a| a.iter().map(|v| v.copied()))
        })
    };
    if let Some(example) = values()
        .map_err(failed)?
        .flatten()
        .find(|v| v.is_finite() && v.fract() != 0.0)
    {
        return Err(ParquetInputError::FractionalRating {
            column: name.to_string(),
            example,
        });
    }
    let whole: Int64Chunked = values()
        .map_err(failed)?
        .map(|v| v.filter(|v| v.is_finite()).map(|v| v as i64))
        .collect();
    whole
        .into_series()
        .into_column()
        .cast(&DataType::String)
        .map_err(failed)
}
