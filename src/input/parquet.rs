//! Games stored as Parquet rows in the lichess dataset's layout
//! (`Lichess/standard-chess-games` on the Hugging Face hub): one row per
//! game, the tags as columns (`Event`, `Site`, `White`, `Black`, `Result`,
//! `WhiteTitle`, `BlackTitle`, `WhiteElo`, `BlackElo`, `WhiteRatingDiff`,
//! `BlackRatingDiff`, `UTCDate`, `UTCTime`, `ECO`, `Opening`,
//! `Termination`, `TimeControl`) and the moves in `movetext`.
//!
//! The rows are read a row group at a time and handed on as PGN text, so
//! they go through the same framing, lexing and parallel replay as any PGN,
//! in order, and memory stays bounded by one row group. Every row becomes
//! exactly one game: its text starts with a `ParquetRow` tag, which also
//! keeps a row without any other tag or moves a game of its own.

use std::{
    fs::File,
    io::{self, Read},
    path::{Path, PathBuf},
};

use polars::prelude::*;

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
}

/// A reader of a Parquet file's games as PGN text, one row group at a time.
pub struct ParquetGames {
    path: PathBuf,
    /// The tag columns present, and whether `movetext` is.
    columns: Vec<String>,
    /// Row counts of the row groups still to read.
    groups: std::collections::VecDeque<usize>,
    offset: usize,
    row: u64,
    text: Vec<u8>,
    at: usize,
}

impl ParquetGames {
    pub fn open(path: &Path) -> Result<ParquetGames, ParquetInputError> {
        let file = File::open(path).map_err(|e| ParquetInputError::Unreadable(e.into()))?;
        let mut reader = ParquetReader::new(file);
        let schema = reader.schema().map_err(ParquetInputError::Unreadable)?;
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
        let mut columns: Vec<String> = TAG_COLUMNS
            .iter()
            .filter(|c| names.iter().any(|n| n == *c))
            .map(|c| c.to_string())
            .collect();
        columns.push(MOVETEXT.into());
        let metadata = reader
            .get_metadata()
            .map_err(ParquetInputError::Unreadable)?;
        let groups = metadata.row_groups.iter().map(|g| g.num_rows()).collect();
        Ok(ParquetGames {
            path: path.to_path_buf(),
            columns,
            groups,
            offset: 0,
            row: 0,
            text: Vec::new(),
            at: 0,
        })
    }

    /// Reads the next row group and writes its rows as PGN text.
    fn next_group(&mut self) -> io::Result<bool> {
        let Some(rows) = self.groups.pop_front() else {
            return Ok(false);
        };
        let file = File::open(&self.path)?;
        let frame = ParquetReader::new(file)
            .with_columns(Some(self.columns.clone()))
            .with_slice(Some((self.offset, rows)))
            .finish()
            .map_err(io::Error::other)?;
        self.offset += rows;
        self.text.clear();
        self.at = 0;
        // Every tag column as text: numbers (int16 ratings) print as such.
        let mut tags: Vec<(&str, StringChunked)> = Vec::new();
        for name in &self.columns[..self.columns.len() - 1] {
            let column = frame.column(name).map_err(io::Error::other)?;
            let text = column
                .cast(&DataType::String)
                .map_err(|e| io::Error::other(format!("column `{name}`: {e}")))?;
            tags.push((name.as_str(), text.str().map_err(io::Error::other)?.clone()));
        }
        let movetext = frame
            .column(MOVETEXT)
            .and_then(|c| c.str().cloned())
            .map_err(io::Error::other)?;
        for i in 0..frame.height() {
            self.row += 1;
            self.text
                .extend_from_slice(format!("[ParquetRow \"{}\"]\n", self.row).as_bytes());
            for (name, values) in &tags {
                if let Some(value) = values.get(i) {
                    self.text.push(b'[');
                    self.text.extend_from_slice(name.as_bytes());
                    self.text.extend_from_slice(b" \"");
                    for b in value.bytes() {
                        match b {
                            b'"' | b'\\' => self.text.extend_from_slice(&[b'\\', b]),
                            b'\n' | b'\r' => self.text.push(b' '),
                            _ => self.text.push(b),
                        }
                    }
                    self.text.extend_from_slice(b"\"]\n");
                }
            }
            self.text.push(b'\n');
            if let Some(moves) = movetext.get(i) {
                // Movetext is one line; a stray line break must not start a
                // tag line of its own.
                for line in moves.lines() {
                    self.text
                        .extend_from_slice(line.trim_start_matches('[').as_bytes());
                    self.text.push(b' ');
                }
            }
            self.text.extend_from_slice(b"\n\n");
        }
        Ok(true)
    }
}

impl Read for ParquetGames {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.text.len() {
            if !self.next_group()? {
                return Ok(0);
            }
        }
        let n = out.len().min(self.text.len() - self.at);
        out[..n].copy_from_slice(&self.text[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
