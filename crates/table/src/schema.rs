//! The columns of `games.parquet`, named and typed once. The writer (this
//! crate's [`writer`](crate::writer)) builds its frame in this order with
//! these names and types, the readers (remis-report's `analysis`) refer to
//! columns through [`Column`], and a test checks `docs/columns.md` against
//! [`Column::ALL`], so the three cannot drift apart.

use polars::prelude::{DataType, Expr, Field, PlSmallStr, Schema, col};

/// The values of the columns that hold a closed set of names: readers of
/// the table take them from here, not from the replay that wrote them.
pub use remis_core::replay::{Platform, TimeClass, Variant};
pub use remis_core::rules::{Deadness, DrawType, Ending, GameResult, Mate, Mismatch};

/// A column's type, as `docs/columns.md` names it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ColumnType {
    String,
    Boolean,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Int16,
    Float32,
}

impl ColumnType {
    pub const fn name(self) -> &'static str {
        match self {
            ColumnType::String => "String",
            ColumnType::Boolean => "Boolean",
            ColumnType::UInt8 => "UInt8",
            ColumnType::UInt16 => "UInt16",
            ColumnType::UInt32 => "UInt32",
            ColumnType::UInt64 => "UInt64",
            ColumnType::Int16 => "Int16",
            ColumnType::Float32 => "Float32",
        }
    }

    pub fn dtype(self) -> DataType {
        match self {
            ColumnType::String => DataType::String,
            ColumnType::Boolean => DataType::Boolean,
            ColumnType::UInt8 => DataType::UInt8,
            ColumnType::UInt16 => DataType::UInt16,
            ColumnType::UInt32 => DataType::UInt32,
            ColumnType::UInt64 => DataType::UInt64,
            ColumnType::Int16 => DataType::Int16,
            ColumnType::Float32 => DataType::Float32,
        }
    }
}

/// Every column of `games.parquet`, in table order. What each holds is in
/// `docs/columns.md`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Column {
    Source,
    GameNo,
    Event,
    Site,
    Date,
    Round,
    Year,
    White,
    Black,
    WhiteElo,
    BlackElo,
    WhiteTitle,
    BlackTitle,
    WhiteFideId,
    BlackFideId,
    Eco,
    Opening,
    TimeControl,
    TimeClass,
    Termination,
    WhiteClock,
    BlackClock,
    Variant,
    Result,
    Plies,
    Moves,
    Ending,
    DrawType,
    FinalFen,
    HalfmoveClock,
    Repetitions,
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Fivefold,
    SeventyFiveMoves,
    ThreefoldClaimable,
    FiftyClaimable,
    ClaimNeedsWrittenMove,
    DrawnOnBoard,
    ResultMismatch,
    WhiteMaterial,
    BlackMaterial,
    PlusRemiseWinner,
    PlusRemiseRule,
    PlusRemiseWhitePoints,
    PlusRemiseBlackPoints,
    AutomaticDrawPly,
    FirstEvent,
    FinalPositionDeadness,
    FlagOpponentCanMate,
    MismatchReason,
    LawResult,
    Synthetic,
    MovetextHash,
    StartFen,
    DedupKey,
    Duplicate,
    DuplicateOfRow,
    UtcDate,
    EventDate,
    Error,
    Platform,
    Play,
    PlayBy,
    Speed,
    SpeedBy,
    Ratings,
    RatingsBy,
}

impl Column {
    pub const ALL: [Column; 69] = [
        Column::Source,
        Column::GameNo,
        Column::Event,
        Column::Site,
        Column::Date,
        Column::Round,
        Column::Year,
        Column::White,
        Column::Black,
        Column::WhiteElo,
        Column::BlackElo,
        Column::WhiteTitle,
        Column::BlackTitle,
        Column::WhiteFideId,
        Column::BlackFideId,
        Column::Eco,
        Column::Opening,
        Column::TimeControl,
        Column::TimeClass,
        Column::Termination,
        Column::WhiteClock,
        Column::BlackClock,
        Column::Variant,
        Column::Result,
        Column::Plies,
        Column::Moves,
        Column::Ending,
        Column::DrawType,
        Column::FinalFen,
        Column::HalfmoveClock,
        Column::Repetitions,
        Column::Checkmate,
        Column::Stalemate,
        Column::InsufficientMaterial,
        Column::Fivefold,
        Column::SeventyFiveMoves,
        Column::ThreefoldClaimable,
        Column::FiftyClaimable,
        Column::ClaimNeedsWrittenMove,
        Column::DrawnOnBoard,
        Column::ResultMismatch,
        Column::WhiteMaterial,
        Column::BlackMaterial,
        Column::PlusRemiseWinner,
        Column::PlusRemiseRule,
        Column::PlusRemiseWhitePoints,
        Column::PlusRemiseBlackPoints,
        Column::AutomaticDrawPly,
        Column::FirstEvent,
        Column::FinalPositionDeadness,
        Column::FlagOpponentCanMate,
        Column::MismatchReason,
        Column::LawResult,
        Column::Synthetic,
        Column::MovetextHash,
        Column::StartFen,
        Column::DedupKey,
        Column::Duplicate,
        Column::DuplicateOfRow,
        Column::UtcDate,
        Column::EventDate,
        Column::Error,
        Column::Platform,
        Column::Play,
        Column::PlayBy,
        Column::Speed,
        Column::SpeedBy,
        Column::Ratings,
        Column::RatingsBy,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Column::Source => "source",
            Column::GameNo => "game_no",
            Column::Event => "event",
            Column::Site => "site",
            Column::Date => "date",
            Column::Round => "round",
            Column::Year => "year",
            Column::White => "white",
            Column::Black => "black",
            Column::WhiteElo => "white_elo",
            Column::BlackElo => "black_elo",
            Column::WhiteTitle => "white_title",
            Column::BlackTitle => "black_title",
            Column::WhiteFideId => "white_fide_id",
            Column::BlackFideId => "black_fide_id",
            Column::Eco => "eco",
            Column::Opening => "opening",
            Column::TimeControl => "time_control",
            Column::TimeClass => "time_class",
            Column::Termination => "termination",
            Column::WhiteClock => "white_clock",
            Column::BlackClock => "black_clock",
            Column::Variant => "variant",
            Column::Result => "result",
            Column::Plies => "plies",
            Column::Moves => "moves",
            Column::Ending => "ending",
            Column::DrawType => "draw_type",
            Column::FinalFen => "final_fen",
            Column::HalfmoveClock => "halfmove_clock",
            Column::Repetitions => "repetitions",
            Column::Checkmate => "checkmate",
            Column::Stalemate => "stalemate",
            Column::InsufficientMaterial => "insufficient_material",
            Column::Fivefold => "fivefold",
            Column::SeventyFiveMoves => "seventy_five_moves",
            Column::ThreefoldClaimable => "threefold_claimable",
            Column::FiftyClaimable => "fifty_claimable",
            Column::ClaimNeedsWrittenMove => "claim_needs_written_move",
            Column::DrawnOnBoard => "drawn_on_board",
            Column::ResultMismatch => "result_mismatch",
            Column::WhiteMaterial => "white_material",
            Column::BlackMaterial => "black_material",
            Column::PlusRemiseWinner => "plus_remise_winner",
            Column::PlusRemiseRule => "plus_remise_rule",
            Column::PlusRemiseWhitePoints => "plus_remise_white_points",
            Column::PlusRemiseBlackPoints => "plus_remise_black_points",
            Column::AutomaticDrawPly => "automatic_draw_ply",
            Column::FirstEvent => "first_event",
            Column::FinalPositionDeadness => "final_position_deadness",
            Column::FlagOpponentCanMate => "flag_opponent_can_mate",
            Column::MismatchReason => "mismatch_reason",
            Column::LawResult => "law_result",
            Column::Synthetic => "synthetic",
            Column::MovetextHash => "movetext_hash",
            Column::StartFen => "start_fen",
            Column::DedupKey => "dedup_key",
            Column::Duplicate => "duplicate",
            Column::DuplicateOfRow => "duplicate_of_row",
            Column::UtcDate => "utc_date",
            Column::EventDate => "event_date",
            Column::Error => "error",
            Column::Platform => "platform",
            Column::Play => "play",
            Column::PlayBy => "play_by",
            Column::Speed => "speed",
            Column::SpeedBy => "speed_by",
            Column::Ratings => "ratings",
            Column::RatingsBy => "ratings_by",
        }
    }

    pub const fn column_type(self) -> ColumnType {
        match self {
            Column::Source => ColumnType::String,
            Column::GameNo => ColumnType::UInt32,
            Column::Event => ColumnType::String,
            Column::Site => ColumnType::String,
            Column::Date => ColumnType::String,
            Column::Round => ColumnType::String,
            Column::Year => ColumnType::Int16,
            Column::White => ColumnType::String,
            Column::Black => ColumnType::String,
            Column::WhiteElo => ColumnType::UInt16,
            Column::BlackElo => ColumnType::UInt16,
            Column::WhiteTitle => ColumnType::String,
            Column::BlackTitle => ColumnType::String,
            Column::WhiteFideId => ColumnType::String,
            Column::BlackFideId => ColumnType::String,
            Column::Eco => ColumnType::String,
            Column::Opening => ColumnType::String,
            Column::TimeControl => ColumnType::String,
            Column::TimeClass => ColumnType::String,
            Column::Termination => ColumnType::String,
            Column::WhiteClock => ColumnType::Float32,
            Column::BlackClock => ColumnType::Float32,
            Column::Variant => ColumnType::String,
            Column::Result => ColumnType::String,
            Column::Plies => ColumnType::UInt32,
            Column::Moves => ColumnType::UInt32,
            Column::Ending => ColumnType::String,
            Column::DrawType => ColumnType::String,
            Column::FinalFen => ColumnType::String,
            Column::HalfmoveClock => ColumnType::UInt16,
            Column::Repetitions => ColumnType::UInt8,
            Column::Checkmate => ColumnType::Boolean,
            Column::Stalemate => ColumnType::Boolean,
            Column::InsufficientMaterial => ColumnType::Boolean,
            Column::Fivefold => ColumnType::Boolean,
            Column::SeventyFiveMoves => ColumnType::Boolean,
            Column::ThreefoldClaimable => ColumnType::Boolean,
            Column::FiftyClaimable => ColumnType::Boolean,
            Column::ClaimNeedsWrittenMove => ColumnType::Boolean,
            Column::DrawnOnBoard => ColumnType::Boolean,
            Column::ResultMismatch => ColumnType::Boolean,
            Column::WhiteMaterial => ColumnType::UInt8,
            Column::BlackMaterial => ColumnType::UInt8,
            Column::PlusRemiseWinner => ColumnType::String,
            Column::PlusRemiseRule => ColumnType::UInt8,
            Column::PlusRemiseWhitePoints => ColumnType::UInt8,
            Column::PlusRemiseBlackPoints => ColumnType::UInt8,
            Column::AutomaticDrawPly => ColumnType::UInt32,
            Column::FirstEvent => ColumnType::String,
            Column::FinalPositionDeadness => ColumnType::String,
            Column::FlagOpponentCanMate => ColumnType::String,
            Column::MismatchReason => ColumnType::String,
            Column::LawResult => ColumnType::String,
            Column::Synthetic => ColumnType::Boolean,
            Column::MovetextHash => ColumnType::UInt64,
            Column::StartFen => ColumnType::String,
            Column::DedupKey => ColumnType::UInt64,
            Column::Duplicate => ColumnType::Boolean,
            Column::DuplicateOfRow => ColumnType::UInt64,
            Column::UtcDate => ColumnType::String,
            Column::EventDate => ColumnType::String,
            Column::Error => ColumnType::String,
            Column::Platform => ColumnType::String,
            Column::Play => ColumnType::String,
            Column::PlayBy => ColumnType::String,
            Column::Speed => ColumnType::String,
            Column::SpeedBy => ColumnType::String,
            Column::Ratings => ColumnType::String,
            Column::RatingsBy => ColumnType::String,
        }
    }

    pub fn dtype(self) -> DataType {
        self.column_type().dtype()
    }

    /// The column in a polars expression.
    pub fn col(self) -> Expr {
        col(self.name())
    }

    pub fn from_name(name: &str) -> Option<Column> {
        Column::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The whole table schema.
pub fn schema() -> Schema {
    Column::ALL
        .into_iter()
        .map(|c| Field::new(PlSmallStr::from_static(c.name()), c.dtype()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for c in Column::ALL {
            assert_eq!(Column::from_name(c.name()), Some(c));
        }
    }
}
