//! Game records to columns to Parquet, in the order and with the names and
//! types of [`crate::schema`]; `docs/columns.md` documents every column.

use std::{fs::File, io::BufWriter, path::Path, sync::Arc};

use polars::polars_utils::compression::ZstdLevel;
use polars::prelude::*;

use crate::format::{EventPatterns, FormatDecider};
use crate::ratings;
use crate::safe_file::AtomicFile;
use crate::schema::Column;
use remis_core::replay::{Field, GameRecord, Platform, TimeClass};
use remis_core::rules::{BoardFacts, DrawType, GameResult};
use shakmaty::Color;

mod concat;
mod manifest;
pub use concat::concatenate;
pub use manifest::*;

/// Rows per Parquet row group: memory stays flat whatever the input size.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// Columns being filled for the next row group.
pub struct TableBuilder {
    rows: usize,
    source: StringChunkedBuilder,
    game_no: PrimitiveChunkedBuilder<UInt32Type>,
    text: Vec<(Field, StringChunkedBuilder)>,
    year: PrimitiveChunkedBuilder<Int16Type>,
    white_elo: PrimitiveChunkedBuilder<UInt16Type>,
    black_elo: PrimitiveChunkedBuilder<UInt16Type>,
    time_class: StringChunkedBuilder,
    platform: StringChunkedBuilder,
    play: StringChunkedBuilder,
    play_by: StringChunkedBuilder,
    speed: StringChunkedBuilder,
    speed_by: StringChunkedBuilder,
    ratings: StringChunkedBuilder,
    ratings_by: StringChunkedBuilder,
    format: FormatDecider,
    white_clock: PrimitiveChunkedBuilder<Float32Type>,
    black_clock: PrimitiveChunkedBuilder<Float32Type>,
    variant: StringChunkedBuilder,
    result: StringChunkedBuilder,
    plies: PrimitiveChunkedBuilder<UInt32Type>,
    moves: PrimitiveChunkedBuilder<UInt32Type>,
    ending: StringChunkedBuilder,
    draw_type: StringChunkedBuilder,
    final_fen: StringChunkedBuilder,
    halfmove_clock: PrimitiveChunkedBuilder<UInt16Type>,
    repetitions: PrimitiveChunkedBuilder<UInt8Type>,
    flags: Vec<(Flag, BooleanChunkedBuilder)>,
    result_mismatch: BooleanChunkedBuilder,
    white_material: PrimitiveChunkedBuilder<UInt8Type>,
    black_material: PrimitiveChunkedBuilder<UInt8Type>,
    plus_remise_winner: StringChunkedBuilder,
    plus_remise_rule: PrimitiveChunkedBuilder<UInt8Type>,
    plus_remise_white_points: PrimitiveChunkedBuilder<UInt8Type>,
    plus_remise_black_points: PrimitiveChunkedBuilder<UInt8Type>,
    automatic_draw_ply: PrimitiveChunkedBuilder<UInt32Type>,
    first_event: StringChunkedBuilder,
    final_position_deadness: StringChunkedBuilder,
    flag_opponent_can_mate: StringChunkedBuilder,
    mismatch_reason: StringChunkedBuilder,
    law_result: StringChunkedBuilder,
    synthetic: BooleanChunkedBuilder,
    movetext_hash: PrimitiveChunkedBuilder<UInt64Type>,
    start_fen: StringChunkedBuilder,
    dedup_key: PrimitiveChunkedBuilder<UInt64Type>,
    duplicate: BooleanChunkedBuilder,
    duplicate_of_row: PrimitiveChunkedBuilder<UInt64Type>,
    error: StringChunkedBuilder,
}

/// Tag columns, with the field each comes from.
const TAG_COLUMNS: [(Column, Field); 16] = [
    (Column::Event, Field::Event),
    (Column::Site, Field::Site),
    (Column::Date, Field::Date),
    (Column::Round, Field::Round),
    (Column::White, Field::White),
    (Column::Black, Field::Black),
    (Column::WhiteTitle, Field::WhiteTitle),
    (Column::BlackTitle, Field::BlackTitle),
    (Column::WhiteFideId, Field::WhiteFideId),
    (Column::BlackFideId, Field::BlackFideId),
    (Column::Eco, Field::Eco),
    (Column::Opening, Field::Opening),
    (Column::TimeControl, Field::TimeControl),
    (Column::Termination, Field::Termination),
    (Column::UtcDate, Field::UtcDate),
    (Column::EventDate, Field::EventDate),
];

type Flag = (Column, fn(&BoardFacts) -> bool);

/// Rule flags: what held in the final position, whatever was decided.
const FLAG_COLUMNS: [Flag; 9] = [
    (Column::Checkmate, |b| b.checkmate),
    (Column::Stalemate, |b| b.stalemate),
    (Column::InsufficientMaterial, |b| b.insufficient_material),
    (Column::Fivefold, |b| b.fivefold),
    (Column::SeventyFiveMoves, |b| b.seventy_five_moves),
    (Column::ThreefoldClaimable, |b| b.threefold_claimable),
    (Column::FiftyClaimable, |b| b.fifty_claimable),
    (Column::ClaimNeedsWrittenMove, |b| {
        b.claim_needs_written_move
    }),
    (Column::DrawnOnBoard, |b| b.drawn_on_board()),
];

fn strings(column: Column, capacity: usize) -> StringChunkedBuilder {
    StringChunkedBuilder::new(column.name().into(), capacity)
}

fn numbers<T: PolarsNumericType>(column: Column, capacity: usize) -> PrimitiveChunkedBuilder<T> {
    PrimitiveChunkedBuilder::new(column.name().into(), capacity)
}

fn booleans(column: Column, capacity: usize) -> BooleanChunkedBuilder {
    BooleanChunkedBuilder::new(column.name().into(), capacity)
}

impl TableBuilder {
    /// A builder that decides each game's play and speed by the built-in
    /// event patterns.
    pub fn new(capacity: usize) -> TableBuilder {
        TableBuilder::with_patterns(capacity, EventPatterns::built_in())
    }

    pub fn with_patterns(capacity: usize, patterns: Arc<EventPatterns>) -> TableBuilder {
        TableBuilder::with_decider(capacity, FormatDecider::new(patterns))
    }

    /// A builder that decides each game's play and speed with `format`,
    /// what it remembers of earlier chunks' events and sites included
    /// (the replay's workers keep one from chunk to chunk).
    pub fn with_decider(capacity: usize, format: FormatDecider) -> TableBuilder {
        let c = capacity;
        TableBuilder {
            rows: 0,
            source: strings(Column::Source, c),
            game_no: numbers(Column::GameNo, c),
            text: TAG_COLUMNS
                .iter()
                .map(|&(column, field)| (field, strings(column, c)))
                .collect(),
            year: numbers(Column::Year, c),
            white_elo: numbers(Column::WhiteElo, c),
            black_elo: numbers(Column::BlackElo, c),
            time_class: strings(Column::TimeClass, c),
            platform: strings(Column::Platform, c),
            play: strings(Column::Play, c),
            play_by: strings(Column::PlayBy, c),
            speed: strings(Column::Speed, c),
            speed_by: strings(Column::SpeedBy, c),
            ratings: strings(Column::Ratings, c),
            ratings_by: strings(Column::RatingsBy, c),
            format,
            white_clock: numbers(Column::WhiteClock, c),
            black_clock: numbers(Column::BlackClock, c),
            variant: strings(Column::Variant, c),
            result: strings(Column::Result, c),
            plies: numbers(Column::Plies, c),
            moves: numbers(Column::Moves, c),
            ending: strings(Column::Ending, c),
            draw_type: strings(Column::DrawType, c),
            final_fen: strings(Column::FinalFen, c),
            halfmove_clock: numbers(Column::HalfmoveClock, c),
            repetitions: numbers(Column::Repetitions, c),
            flags: FLAG_COLUMNS
                .iter()
                .map(|&flag| (flag, booleans(flag.0, c)))
                .collect(),
            result_mismatch: booleans(Column::ResultMismatch, c),
            white_material: numbers(Column::WhiteMaterial, c),
            black_material: numbers(Column::BlackMaterial, c),
            plus_remise_winner: strings(Column::PlusRemiseWinner, c),
            plus_remise_rule: numbers(Column::PlusRemiseRule, c),
            plus_remise_white_points: numbers(Column::PlusRemiseWhitePoints, c),
            plus_remise_black_points: numbers(Column::PlusRemiseBlackPoints, c),
            automatic_draw_ply: numbers(Column::AutomaticDrawPly, c),
            first_event: strings(Column::FirstEvent, c),
            final_position_deadness: strings(Column::FinalPositionDeadness, c),
            flag_opponent_can_mate: strings(Column::FlagOpponentCanMate, c),
            mismatch_reason: strings(Column::MismatchReason, c),
            law_result: strings(Column::LawResult, c),
            synthetic: booleans(Column::Synthetic, c),
            movetext_hash: numbers(Column::MovetextHash, c),
            start_fen: strings(Column::StartFen, c),
            dedup_key: numbers(Column::DedupKey, c),
            duplicate: booleans(Column::Duplicate, c),
            duplicate_of_row: numbers(Column::DuplicateOfRow, c),
            error: strings(Column::Error, c),
        }
    }

    /// Adds a game. Its number in its source and its duplicate marks depend
    /// on the games before its chunk: the writer fills them in, in input
    /// order ([`crate::pipeline`]); here they are 0 and null.
    pub fn push(&mut self, source: &str, g: &GameRecord) {
        self.rows += 1;
        self.source.append_value(source);
        self.game_no.append_value(0);
        for (field, column) in &mut self.text {
            column.append_option(g.text.get(*field));
        }
        self.year.append_option(g.year());
        self.white_elo.append_option(g.white_elo);
        self.black_elo.append_option(g.black_elo);
        let time_class = g
            .text
            .get(Field::TimeControl)
            .and_then(TimeClass::from_time_control);
        self.time_class
            .append_option(time_class.map(TimeClass::as_str));
        let site = self.format.site(g.text.get(Field::Site));
        self.platform
            .append_option(site.platform().map(Platform::as_str));
        // `-` (no clock) is correspondence for the speed, though no time
        // class for `time_class` (the tag as read).
        let speed_class = g
            .text
            .get(Field::TimeControl)
            .and_then(crate::format::speed_class);
        let format = self.format.decide(
            speed_class,
            site,
            g.text.get(Field::Event),
            g.text.get(Field::Round),
            g.year(),
        );
        self.play
            .append_option(format.play.and_then(|(play, _)| play.column_value()));
        self.play_by
            .append_option(format.play.map(|(_, by)| by.as_str()));
        self.speed.append_value(format.speed.as_str());
        self.speed_by.append_value(format.speed_by.as_str());
        let rated = g.white_elo.is_some() || g.black_elo.is_some();
        let ratings = rated.then(|| {
            let export = ratings::is_export(&ratings::Tags {
                site: g.text.get(Field::Site),
                utc_date: g.text.get(Field::UtcDate),
                time_control: g.text.get(Field::TimeControl),
                termination: g.text.get(Field::Termination),
            });
            ratings::decide(site, export)
        });
        self.ratings.append_option(ratings.map(|(r, _)| r.as_str()));
        self.ratings_by
            .append_option(ratings.map(|(_, by)| by.as_str()));
        self.white_clock.append_option(g.clocks[0]);
        self.black_clock.append_option(g.clocks[1]);
        self.variant
            .append_option(g.variant.name().or_else(|| g.text.get(Field::Variant)));
        self.result.append_option(g.result.map(GameResult::as_str));
        self.plies.append_value(g.plies);
        self.moves.append_value(g.plies.div_ceil(2));
        self.ending.append_value(g.ending.as_str());
        let drawn = g.result == Some(GameResult::Draw) && g.board.is_some();
        self.draw_type
            .append_option(drawn.then(|| DrawType::of(g.ending).as_str()));
        self.final_fen.append_option(g.text.get(Field::FinalFen));
        self.halfmove_clock.append_option(
            g.board
                .map(|b| b.halfmove_clock.min(u16::MAX as u32) as u16),
        );
        self.repetitions
            .append_option(g.board.map(|b| b.repetitions.min(255) as u8));
        for ((_, flag), column) in &mut self.flags {
            column.append_option(g.board.as_ref().map(*flag));
        }
        self.result_mismatch.append_value(g.result_mismatch());
        self.white_material
            .append_option(g.board.map(|b| b.white_material));
        self.black_material
            .append_option(g.board.map(|b| b.black_material));
        let plus = drawn.then(|| g.board.map(|b| b.plus_remise)).flatten();
        self.plus_remise_winner
            .append_option(plus.map(|p| match p.winner {
                Color::White => "white",
                Color::Black => "black",
            }));
        self.plus_remise_rule.append_option(plus.map(|p| p.rule));
        let points = |p: u32| p.min(255) as u8;
        self.plus_remise_white_points
            .append_option(plus.map(|p| points(p.white_points)));
        self.plus_remise_black_points
            .append_option(plus.map(|p| points(p.black_points)));
        self.automatic_draw_ply
            .append_option(g.first_event.map(|(ply, _)| ply));
        self.first_event
            .append_option(g.first_event.map(|(_, event)| event.as_str()));
        self.final_position_deadness
            .append_option(g.dead.map(|d| d.as_str()));
        self.flag_opponent_can_mate
            .append_option(g.flag_opponent.map(|m| m.as_str()));
        self.mismatch_reason
            .append_option(g.mismatch.map(|m| m.as_str()));
        self.law_result
            .append_option(g.law_result.map(GameResult::as_str));
        self.synthetic
            .append_value(g.text.get(Field::Synthetic).is_some());
        self.movetext_hash.append_value(g.movetext_hash);
        self.start_fen.append_option(g.text.get(Field::StartFen));
        self.dedup_key.append_null();
        self.duplicate.append_null();
        self.duplicate_of_row.append_null();
        self.error.append_option(g.error());
    }

    /// What the builder remembers of events and sites, for the next
    /// chunk's builder.
    pub fn into_decider(self) -> FormatDecider {
        self.format
    }

    /// Hands the filled columns over as a frame, in the order of
    /// [`Column::ALL`], and starts afresh.
    pub fn take_frame(&mut self) -> PolarsResult<DataFrame> {
        let patterns = Arc::clone(self.format.patterns());
        let format = std::mem::replace(&mut self.format, FormatDecider::new(patterns));
        // The builder goes on with what the decider remembers.
        let full = std::mem::replace(self, TableBuilder::with_decider(0, format));
        let height = full.rows;
        let mut columns: Vec<polars::prelude::Column> = vec![
            full.source.finish().into_column(),
            full.game_no.finish().into_column(),
            full.year.finish().into_column(),
            full.white_elo.finish().into_column(),
            full.black_elo.finish().into_column(),
            full.time_class.finish().into_column(),
            full.platform.finish().into_column(),
            full.play.finish().into_column(),
            full.play_by.finish().into_column(),
            full.speed.finish().into_column(),
            full.speed_by.finish().into_column(),
            full.ratings.finish().into_column(),
            full.ratings_by.finish().into_column(),
            full.white_clock.finish().into_column(),
            full.black_clock.finish().into_column(),
            full.variant.finish().into_column(),
            full.result.finish().into_column(),
            full.plies.finish().into_column(),
            full.moves.finish().into_column(),
            full.ending.finish().into_column(),
            full.draw_type.finish().into_column(),
            full.final_fen.finish().into_column(),
            full.halfmove_clock.finish().into_column(),
            full.repetitions.finish().into_column(),
            full.result_mismatch.finish().into_column(),
            full.white_material.finish().into_column(),
            full.black_material.finish().into_column(),
            full.plus_remise_winner.finish().into_column(),
            full.plus_remise_rule.finish().into_column(),
            full.plus_remise_white_points.finish().into_column(),
            full.plus_remise_black_points.finish().into_column(),
            full.automatic_draw_ply.finish().into_column(),
            full.first_event.finish().into_column(),
            full.final_position_deadness.finish().into_column(),
            full.flag_opponent_can_mate.finish().into_column(),
            full.mismatch_reason.finish().into_column(),
            full.law_result.finish().into_column(),
            full.synthetic.finish().into_column(),
            full.movetext_hash.finish().into_column(),
            full.start_fen.finish().into_column(),
            full.dedup_key.finish().into_column(),
            full.duplicate.finish().into_column(),
            full.duplicate_of_row.finish().into_column(),
            full.error.finish().into_column(),
        ];
        columns.extend(full.text.into_iter().map(|(_, c)| c.finish().into_column()));
        columns.extend(
            full.flags
                .into_iter()
                .map(|(_, c)| c.finish().into_column()),
        );
        // The schema decides the order. Each column's place is looked up
        // once (a search by name): looked up at every comparison of the
        // sort it was 0.8 % of a replay worker's time on lichess games.
        let position = |c: &polars::prelude::Column| {
            Column::from_name(c.name().as_str()).map(|c| Column::ALL.iter().position(|&x| x == c))
        };
        columns.sort_by_cached_key(position);
        DataFrame::new(height, columns)
    }
}

/// Why the table could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    #[error("{path}: cannot write the table here: {cause}")]
    Create {
        path: std::path::PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: writing the table failed: {cause}")]
    Io {
        path: std::path::PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: encoding the table failed: {cause}")]
    Encode {
        path: std::path::PathBuf,
        cause: PolarsError,
    },
    #[error(transparent)]
    Safe(#[from] crate::safe_file::SafeFileError),
}

/// Bytes held before they go to the table's file in one write call.
const WRITE_BUFFER: usize = 1 << 20;

/// A file that remembers the first error the operating system gave, so
/// that a full disk is reported as such and not as whatever the Parquet
/// encoder made of it.
struct RecordingFile {
    file: File,
    error: std::sync::Arc<std::sync::Mutex<Option<std::io::Error>>>,
}

impl std::io::Write for RecordingFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf).inspect_err(|e| self.remember(e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush().inspect_err(|e| self.remember(e))
    }
}

impl RecordingFile {
    fn remember(&self, e: &std::io::Error) {
        if let Ok(mut slot) = self.error.lock()
            && slot.is_none()
        {
            *slot = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
    }
}

/// Writes game rows to a zstd-compressed Parquet file, a row group at a
/// time. The rows go to a temporary file beside the table
/// ([`AtomicFile`]), which replaces the table only when the run has
/// succeeded: an interrupted or failed run leaves the previous table as it
/// was, and never a torn file under the table's name.
pub struct ParquetSink {
    writer: Option<polars::io::parquet::write::BatchedWriter<BufWriter<RecordingFile>>>,
    /// The temporary file's second handle, until the writer takes it.
    file: Option<RecordingFile>,
    out: AtomicFile,
    error: std::sync::Arc<std::sync::Mutex<Option<std::io::Error>>>,
    path: std::path::PathBuf,
    pub rows_written: u64,
    /// The manifest, as the footer's key-value metadata stores it.
    manifest: String,
}

/// A table written whole but not yet in place: its rows can be read (a
/// summary made from them) before [`WrittenTable::commit`] puts it under
/// its name.
#[derive(Debug)]
pub struct WrittenTable(AtomicFile);

impl WrittenTable {
    /// Where the finished table can be read now.
    pub fn readable_path(&self) -> &Path {
        self.0.temp_path()
    }

    /// The table's own name.
    pub fn path(&self) -> &Path {
        self.0.target()
    }

    /// Renames the table into place (flushed to disk first).
    pub fn commit(self) -> Result<(), SinkError> {
        self.0.commit().map_err(SinkError::Safe)
    }
}

impl ParquetSink {
    /// Creates the temporary file at once, so that an unwritable place is
    /// reported before any work. Temporary files that dead runs left beside
    /// the table (a kill leaves no chance to remove them) are removed.
    pub fn create(path: &Path, manifest: &Manifest) -> Result<ParquetSink, SinkError> {
        remove_stale_temporaries(path);
        let out = AtomicFile::create(path).map_err(SinkError::Safe)?;
        let file = out.file().try_clone().map_err(|cause| SinkError::Create {
            path: path.to_path_buf(),
            cause,
        })?;
        let error = std::sync::Arc::default();
        Ok(ParquetSink {
            writer: None,
            file: Some(RecordingFile {
                file,
                error: std::sync::Arc::clone(&error),
            }),
            out,
            error,
            path: path.to_path_buf(),
            rows_written: 0,
            manifest: manifest.to_json(),
        })
    }

    /// The error to report for a failure of the encoder: the operating
    /// system's, when it gave one.
    fn failure(&self, encoder: PolarsError) -> SinkError {
        let path = self.path.clone();
        match self.error.lock().ok().and_then(|mut e| e.take()) {
            Some(cause) => SinkError::Io { path, cause },
            None => SinkError::Encode {
                path,
                cause: encoder,
            },
        }
    }

    pub fn write(&mut self, frame: &DataFrame) -> Result<(), SinkError> {
        if self.writer.is_none()
            && let Some(file) = self.file.take()
        {
            // Buffered: the encoder writes each page header and the footer
            // a thrift field at a time, mostly single bytes; unbuffered that
            // was some 11,000 write calls a table, 8 ms of a one-game run
            // (docs/performance.md). The encoder flushes at its end.
            let writer = ParquetWriter::new(BufWriter::with_capacity(WRITE_BUFFER, file))
                .with_compression(ParquetCompression::Zstd(Some(
                    ZstdLevel::try_new(1).expect("zstd level 1 exists"),
                )))
                // Min, max and null counts let readers skip row groups; a
                // distinct count for every column of every group costs
                // the writer and no reader uses it.
                .with_statistics(StatisticsOptions {
                    distinct_count: false,
                    ..StatisticsOptions::full()
                })
                // The replay workers keep every core busy; encoding columns
                // on polars' own pool as well would only oversubscribe.
                .set_parallel(false)
                .with_key_value_metadata(Some(KeyValueMetadata::from_static(vec![(
                    MANIFEST_KEY.to_string(),
                    self.manifest.clone(),
                )])))
                .batched(frame.schema())
                .map_err(|e| self.failure(e))?;
            self.writer = Some(writer);
        }
        if let Some(writer) = &mut self.writer {
            writer.write_batch(frame).map_err(|e| self.failure(e))?;
        }
        self.rows_written += frame.height() as u64;
        Ok(())
    }

    /// [`ParquetSink::finish`], with the manifest in the footer replaced by
    /// `manifest`: what was learnt while the rows were written (each
    /// source's SHA-256, computed as it was read).
    pub fn finish_with(self, manifest: &Manifest) -> Result<WrittenTable, SinkError> {
        let path = self.path.clone();
        let table = self.finish()?;
        replace_footer_manifest(table.0.file(), &manifest.to_json())
            .map_err(|cause| SinkError::Io { path, cause })?;
        Ok(table)
    }

    /// Writes the footer. An input without games still gets a valid,
    /// empty table with the full schema. The table is whole but not yet in
    /// place: [`WrittenTable::commit`] puts it there.
    pub fn finish(mut self) -> Result<WrittenTable, SinkError> {
        if self.writer.is_none() {
            let empty = TableBuilder::new(0)
                .take_frame()
                .map_err(|e| self.failure(e))?;
            self.write(&empty)?;
        }
        if let Some(writer) = self.writer.take() {
            writer.finish().map_err(|e| self.failure(e))?;
        }
        if let Some(e) = self.error.lock().ok().and_then(|mut e| e.take()) {
            return Err(SinkError::Io {
                path: self.path.clone(),
                cause: e,
            });
        }
        Ok(WrittenTable(self.out))
    }
}

/// Removes the temporary files of `path` (`.NAME.PID-RANDOM.tmp`) whose
/// process is no longer running (Linux's /proc tells); says so on
/// standard error.
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = crate::safe_file::temporary_pid(&entry.file_name(), name) else {
            continue;
        };
        let alive = pid == std::process::id() || crate::safe_file::process_alive(pid);
        if !alive && std::fs::remove_file(entry.path()).is_ok() {
            remis_core::say!(
                "remis: removed {}, left by an interrupted run (process {pid})",
                remis_core::excerpt::shown_path(&entry.path())
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_has_exactly_the_schema() {
        let frame = TableBuilder::new(0).take_frame().unwrap();
        let got: Vec<(String, DataType)> = frame
            .columns()
            .iter()
            .map(|c| (c.name().to_string(), c.dtype().clone()))
            .collect();
        let want: Vec<(String, DataType)> = Column::ALL
            .iter()
            .map(|c| (c.name().to_string(), c.dtype()))
            .collect();
        assert_eq!(got, want);
    }
}
