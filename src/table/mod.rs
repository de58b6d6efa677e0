//! Game records to columns to Parquet. The schema lives here, in one place;
//! `docs/columns.md` documents every column.

use std::{fs::File, path::Path};

use polars::polars_utils::compression::ZstdLevel;
use polars::prelude::*;

use crate::replay::{Field, GameRecord, TimeClass};
use crate::rules::{BoardFacts, DrawType, GameResult};
use shakmaty::Color;

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

/// Tag columns, in table order, with the field each comes from.
const TAG_COLUMNS: [(&str, Field); 15] = [
    ("event", Field::Event),
    ("site", Field::Site),
    ("date", Field::Date),
    ("round", Field::Round),
    ("white", Field::White),
    ("black", Field::Black),
    ("white_title", Field::WhiteTitle),
    ("black_title", Field::BlackTitle),
    ("white_fide_id", Field::WhiteFideId),
    ("black_fide_id", Field::BlackFideId),
    ("eco", Field::Eco),
    ("time_control", Field::TimeControl),
    ("termination", Field::Termination),
    ("utc_date", Field::UtcDate),
    ("event_date", Field::EventDate),
];

type Flag = (&'static str, fn(&BoardFacts) -> bool);

/// Rule flags: what held in the final position, whatever was decided.
const FLAG_COLUMNS: [Flag; 9] = [
    ("checkmate", |b| b.checkmate),
    ("stalemate", |b| b.stalemate),
    ("insufficient_material", |b| b.insufficient_material),
    ("fivefold", |b| b.fivefold),
    ("seventy_five_moves", |b| b.seventy_five_moves),
    ("threefold_claimable", |b| b.threefold_claimable),
    ("fifty_claimable", |b| b.fifty_claimable),
    ("claim_needs_written_move", |b| b.claim_needs_written_move),
    ("drawn_on_board", |b| b.drawn_on_board()),
];

impl TableBuilder {
    pub fn new(capacity: usize) -> TableBuilder {
        let s = |name: &str| StringChunkedBuilder::new(name.into(), capacity);
        TableBuilder {
            rows: 0,
            source: s("source"),
            game_no: PrimitiveChunkedBuilder::new("game_no".into(), capacity),
            text: TAG_COLUMNS.iter().map(|&(n, f)| (f, s(n))).collect(),
            year: PrimitiveChunkedBuilder::new("year".into(), capacity),
            white_elo: PrimitiveChunkedBuilder::new("white_elo".into(), capacity),
            black_elo: PrimitiveChunkedBuilder::new("black_elo".into(), capacity),
            time_class: s("time_class"),
            variant: s("variant"),
            result: s("result"),
            plies: PrimitiveChunkedBuilder::new("plies".into(), capacity),
            moves: PrimitiveChunkedBuilder::new("moves".into(), capacity),
            ending: s("ending"),
            draw_type: s("draw_type"),
            final_fen: s("final_fen"),
            halfmove_clock: PrimitiveChunkedBuilder::new("halfmove_clock".into(), capacity),
            repetitions: PrimitiveChunkedBuilder::new("repetitions".into(), capacity),
            flags: FLAG_COLUMNS
                .iter()
                .map(|&(n, f)| ((n, f), BooleanChunkedBuilder::new(n.into(), capacity)))
                .collect(),
            result_mismatch: BooleanChunkedBuilder::new("result_mismatch".into(), capacity),
            white_material: PrimitiveChunkedBuilder::new("white_material".into(), capacity),
            black_material: PrimitiveChunkedBuilder::new("black_material".into(), capacity),
            plus_remise_winner: s("plus_remise_winner"),
            plus_remise_rule: PrimitiveChunkedBuilder::new("plus_remise_rule".into(), capacity),
            plus_remise_white_points: PrimitiveChunkedBuilder::new(
                "plus_remise_white_points".into(),
                capacity,
            ),
            plus_remise_black_points: PrimitiveChunkedBuilder::new(
                "plus_remise_black_points".into(),
                capacity,
            ),
            automatic_draw_ply: PrimitiveChunkedBuilder::new("automatic_draw_ply".into(), capacity),
            first_event: s("first_event"),
            final_position_deadness: s("final_position_deadness"),
            flag_opponent_can_mate: s("flag_opponent_can_mate"),
            mismatch_reason: s("mismatch_reason"),
            law_result: s("law_result"),
            synthetic: BooleanChunkedBuilder::new("synthetic".into(), capacity),
            movetext_hash: PrimitiveChunkedBuilder::new("movetext_hash".into(), capacity),
            start_fen: s("start_fen"),
            dedup_key: PrimitiveChunkedBuilder::new("dedup_key".into(), capacity),
            duplicate: BooleanChunkedBuilder::new("duplicate".into(), capacity),
            duplicate_of_row: PrimitiveChunkedBuilder::new("duplicate_of_row".into(), capacity),
            error: s("error"),
        }
    }

    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds a game. `dedup` is `None` when duplicates are not looked for,
    /// else the game's key and, for a later copy, the first copy's row.
    pub fn push(
        &mut self,
        source: &str,
        game_no: u32,
        g: &GameRecord,
        dedup: Option<(u64, Option<u64>)>,
    ) {
        self.rows += 1;
        self.source.append_value(source);
        self.game_no.append_value(game_no);
        for (field, column) in &mut self.text {
            column.append_option(g.text.get(*field));
        }
        self.year.append_option(g.year());
        self.white_elo.append_option(g.white_elo);
        self.black_elo.append_option(g.black_elo);
        self.time_class.append_option(
            g.text
                .get(Field::TimeControl)
                .and_then(TimeClass::from_time_control)
                .map(TimeClass::as_str),
        );
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
        self.dedup_key.append_option(dedup.map(|d| d.0));
        self.duplicate.append_option(dedup.map(|d| d.1.is_some()));
        self.duplicate_of_row.append_option(dedup.and_then(|d| d.1));
        self.error.append_option(g.error());
    }

    /// Hands the filled columns over as a frame and starts afresh.
    pub fn take_frame(&mut self) -> PolarsResult<DataFrame> {
        let full = std::mem::replace(self, TableBuilder::new(ROW_GROUP_ROWS));
        let height = full.rows;
        let mut columns: Vec<Column> = vec![
            full.source.finish().into_column(),
            full.game_no.finish().into_column(),
        ];
        let mut text = full.text.into_iter().map(|(_, c)| c.finish().into_column());
        columns.extend(text.by_ref().take(4)); // event, site, date, round
        columns.push(full.year.finish().into_column());
        columns.extend(text.by_ref().take(2)); // white, black
        columns.push(full.white_elo.finish().into_column());
        columns.push(full.black_elo.finish().into_column());
        columns.extend(text.by_ref().take(5)); // titles, FIDE ids, eco
        columns.extend(text.by_ref().take(1)); // time_control
        columns.push(full.time_class.finish().into_column());
        columns.extend(text.by_ref().take(1)); // termination
        columns.push(full.variant.finish().into_column());
        columns.push(full.result.finish().into_column());
        columns.push(full.plies.finish().into_column());
        columns.push(full.moves.finish().into_column());
        columns.push(full.ending.finish().into_column());
        columns.push(full.draw_type.finish().into_column());
        columns.push(full.final_fen.finish().into_column());
        columns.push(full.halfmove_clock.finish().into_column());
        columns.push(full.repetitions.finish().into_column());
        columns.extend(
            full.flags
                .into_iter()
                .map(|(_, c)| c.finish().into_column()),
        );
        columns.push(full.result_mismatch.finish().into_column());
        columns.push(full.white_material.finish().into_column());
        columns.push(full.black_material.finish().into_column());
        columns.push(full.plus_remise_winner.finish().into_column());
        columns.push(full.plus_remise_rule.finish().into_column());
        columns.push(full.plus_remise_white_points.finish().into_column());
        columns.push(full.plus_remise_black_points.finish().into_column());
        columns.push(full.automatic_draw_ply.finish().into_column());
        columns.push(full.first_event.finish().into_column());
        columns.push(full.final_position_deadness.finish().into_column());
        columns.push(full.flag_opponent_can_mate.finish().into_column());
        columns.push(full.mismatch_reason.finish().into_column());
        columns.push(full.law_result.finish().into_column());
        columns.push(full.synthetic.finish().into_column());
        columns.push(full.movetext_hash.finish().into_column());
        columns.push(full.start_fen.finish().into_column());
        columns.push(full.dedup_key.finish().into_column());
        columns.push(full.duplicate.finish().into_column());
        columns.push(full.duplicate_of_row.finish().into_column());
        columns.extend(text); // utc_date, event_date
        columns.push(full.error.finish().into_column());
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
}

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
/// time. The rows go to a hidden temporary file beside the table, which
/// replaces the table only when the run has succeeded: an interrupted or
/// failed run leaves the previous table as it was, and never a torn file
/// under the table's name.
pub struct ParquetSink {
    writer: Option<polars::io::parquet::write::BatchedWriter<RecordingFile>>,
    /// The temporary file, until it has been handed to the writer.
    file: Option<RecordingFile>,
    /// A second handle on the temporary file, for fsync.
    sync: File,
    error: std::sync::Arc<std::sync::Mutex<Option<std::io::Error>>>,
    path: std::path::PathBuf,
    temp: std::path::PathBuf,
    pub rows_written: u64,
}

impl ParquetSink {
    /// Creates the temporary file at once, so that an unwritable place is
    /// reported before any work.
    pub fn create(path: &Path) -> Result<ParquetSink, SinkError> {
        let name = path
            .file_name()
            .map_or_else(|| "games.parquet".into(), |n| n.to_string_lossy());
        let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let create_error = |cause| SinkError::Create {
            path: path.to_path_buf(),
            cause,
        };
        let file = File::create(&temp).map_err(create_error)?;
        let sync = file.try_clone().map_err(create_error)?;
        let error = std::sync::Arc::default();
        Ok(ParquetSink {
            writer: None,
            file: Some(RecordingFile {
                file,
                error: std::sync::Arc::clone(&error),
            }),
            sync,
            error,
            path: path.to_path_buf(),
            temp,
            rows_written: 0,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
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
            let writer = ParquetWriter::new(file)
                .with_compression(ParquetCompression::Zstd(Some(
                    ZstdLevel::try_new(1).expect("zstd level 1 exists"),
                )))
                .with_statistics(StatisticsOptions::full())
                // The replay workers keep every core busy; encoding columns
                // on polars' own pool as well would only oversubscribe.
                .set_parallel(false)
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

    /// Writes the footer, flushes the file to disk and moves it over the
    /// table. An input without games still gets a valid, empty table with
    /// the full schema.
    pub fn finish(mut self) -> Result<(), SinkError> {
        if self.writer.is_none() {
            let empty = TableBuilder::new(0)
                .take_frame()
                .map_err(|e| self.failure(e))?;
            self.write(&empty)?;
        }
        if let Some(writer) = self.writer.take() {
            writer.finish().map_err(|e| self.failure(e))?;
        }
        let io_error = |cause| SinkError::Io {
            path: self.path.clone(),
            cause,
        };
        self.sync.sync_all().map_err(io_error)?;
        std::fs::rename(&self.temp, &self.path).map_err(io_error)?;
        Ok(())
    }
}

impl Drop for ParquetSink {
    fn drop(&mut self) {
        // Still there only when the run failed: the table stays as it was.
        let _ = std::fs::remove_file(&self.temp);
    }
}
