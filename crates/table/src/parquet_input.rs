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
    #[error("column `{column}` holds ratings that are not whole numbers ({example})")]
    FractionalRating { column: String, example: f64 },
}

/// Runs a polars call on a file that may be hostile: a panic inside polars
/// (a file truncated while read, a corrupt page) becomes an error, so the
/// caller can name the file and carry on.
pub fn contained<T>(call: impl FnOnce() -> PolarsResult<T>) -> PolarsResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            Err(PolarsError::ComputeError(
                format!("the Parquet reader failed on this file ({message})").into(),
            ))
        }
    }
}

/// The row count of a Parquet file, checked: the footer's count must equal
/// the sum of its row groups' counts, or the file is refused as corrupt.
pub fn checked_row_count(path: &Path) -> Result<u64, ParquetInputError> {
    let file = File::open(path).map_err(|e| ParquetInputError::Unreadable(e.into()))?;
    let mut reader = ParquetReader::new(file);
    let metadata =
        contained(|| reader.get_metadata().cloned()).map_err(ParquetInputError::Unreadable)?;
    check_row_count(&metadata)?;
    Ok(metadata.num_rows as u64)
}

fn check_row_count(
    metadata: &polars::io::parquet::read::FileMetadata,
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
    /// Rows not yet handed on: a run fills across small row groups.
    run: Option<Rows>,
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

impl ParquetGames {
    pub fn open(path: &Path) -> Result<ParquetGames, ParquetInputError> {
        let file = File::open(path).map_err(|e| ParquetInputError::Unreadable(e.into()))?;
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
        let metadata =
            contained(|| reader.get_metadata().cloned()).map_err(ParquetInputError::Unreadable)?;
        check_row_count(&metadata)?;
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
        let total = self.metadata.num_rows;
        if self.offset >= total {
            // The end: the last run, however short.
            if let Some(run) = self.run.take().filter(|r| !r.games.is_empty()) {
                emit(run);
            }
            return Ok(false);
        }
        // The first slice is small, so that the workers start early.
        let rows = if self.offset == 0 {
            FIRST_SLICE_ROWS
        } else {
            SLICE_ROWS
        }
        .min(total - self.offset);
        let index = self.group;
        let failed = |cause| ParquetInputError::Group {
            group: index,
            cause,
        };
        // The footer is read once, in `open`: each slice reuses it.
        let file = File::open(&self.path).map_err(|e| failed(e.into()))?;
        let mut reader = ParquetReader::new(file)
            .with_columns(Some(self.columns.clone()))
            .with_slice(Some((self.offset, rows)));
        reader.set_metadata(self.metadata.clone());
        let frame = contained(|| reader.finish()).map_err(failed)?;
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
