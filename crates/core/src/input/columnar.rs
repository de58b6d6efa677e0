//! Games stored as columns: each tag in a column of its own, the moves in
//! one text column (the lichess dataset's Parquet layout). Core defines
//! what a reader of such a file hands on ([`Rows`]) and the hook that opens
//! one ([`ColumnarSource`]); the table crate implements it with polars, so
//! that this crate never depends on a Parquet reader.

use std::{path::Path, sync::Arc};

use super::{GameSpan, Limits};

/// Why a file of games stored as columns could not be read.
pub type ColumnarError = Box<dyn std::error::Error + Send + Sync>;

/// The tags of a run of games, as the replay reads them: each value in
/// PGN's escaped form (`\"` and `\\`), one cell per game and tag name.
#[derive(Debug, Default)]
pub struct TagTable {
    names: Arc<[&'static str]>,
    bytes: Vec<u8>,
    /// `games × names` cells, row by row: where each value lies in `bytes`.
    cells: Vec<Option<(u32, u32)>>,
}

impl TagTable {
    pub fn new(names: Arc<[&'static str]>) -> TagTable {
        TagTable {
            names,
            ..TagTable::default()
        }
    }

    /// The tags of game `game` of the chunk, as (name, escaped value).
    pub fn tags(&self, game: usize) -> impl Iterator<Item = (&[u8], &[u8])> {
        let width = self.names.len();
        self.names
            .iter()
            .zip(&self.cells[game * width..(game + 1) * width])
            .filter_map(|(name, cell)| {
                let (at, len) = (*cell)?;
                let value = &self.bytes[at as usize..(at + len) as usize];
                Some((name.as_bytes(), value))
            })
    }

    /// Adds a game's tags; returns false (keeping the first ones) when
    /// they pass `max_bytes` together.
    pub fn push<'a>(
        &mut self,
        values: impl Iterator<Item = Option<&'a str>>,
        max_bytes: usize,
    ) -> bool {
        let mut used = 0usize;
        let mut whole = true;
        for value in values {
            let cell = match value {
                Some(v) if whole && used + v.len() <= max_bytes => {
                    used += v.len();
                    let at = self.bytes.len() as u32;
                    if memchr::memchr2(b'"', b'\\', v.as_bytes()).is_some() {
                        for b in v.bytes() {
                            if matches!(b, b'"' | b'\\') {
                                self.bytes.push(b'\\');
                            }
                            self.bytes.push(b);
                        }
                    } else {
                        self.bytes.extend_from_slice(v.as_bytes());
                    }
                    Some((at, self.bytes.len() as u32 - at))
                }
                Some(_) => {
                    whole = false;
                    None
                }
                None => None,
            };
            self.cells.push(cell);
        }
        whole
    }
}

/// A run of rows made ready for the replay: the movetexts one after
/// another in `data`, each game's span, and the tags beside them.
pub struct Rows {
    pub data: Vec<u8>,
    pub games: Vec<GameSpan>,
    pub tags: TagTable,
}

/// A file of games stored as columns, read a slice of rows at a time.
pub trait ColumnarGames {
    /// Reads the next slice of rows: its games in runs of at most
    /// `max_games` rows and about `target` bytes of movetext, through
    /// `emit` (a run may span slices; the last one goes at the end of the
    /// file). Returns false at the end of the file, or when `emit` says
    /// stop.
    fn next_slice(
        &mut self,
        target: usize,
        max_games: usize,
        limits: &Limits,
        emit: &mut dyn FnMut(Rows) -> bool,
    ) -> Result<bool, ColumnarError>;

    /// The share of the file's rows read so far, from 0 to 1 (progress).
    fn fraction_read(&self) -> f64;
}

/// Opens files of games stored as columns; supplied by the layer that
/// knows the file format.
pub trait ColumnarSource: Sync {
    fn open(&self, path: &Path) -> Result<Box<dyn ColumnarGames + '_>, ColumnarError>;

    /// A games table written by remis: never read back as input when a
    /// folder is walked (`classify d --out d`).
    fn is_games_table(&self, path: &Path) -> bool;
}

/// No reader for columnar files: such an input is reported, not read.
pub struct NoColumnarSource;

impl ColumnarSource for NoColumnarSource {
    fn open(&self, _: &Path) -> Result<Box<dyn ColumnarGames + '_>, ColumnarError> {
        Err("no reader for games stored as columns in this build".into())
    }

    fn is_games_table(&self, _: &Path) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_are_escaped_and_capped() {
        let mut table = TagTable::new(Arc::from(["Event", "Site"]));
        assert!(table.push([Some("a \"b\" \\c"), None].into_iter(), 100));
        assert!(!table.push([Some("short"), Some("far too long")].into_iter(), 8));
        let first: Vec<_> = table.tags(0).collect();
        assert_eq!(first, [(&b"Event"[..], &br#"a \"b\" \\c"#[..])]);
        let second: Vec<_> = table.tags(1).collect();
        assert_eq!(second, [(&b"Event"[..], &b"short"[..])]);
    }
}
