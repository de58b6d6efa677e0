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

/// Declares [`Column`] from one list: each column's variant, name and
/// type, in table order. The enum, [`Column::ALL`], [`Column::name`] and
/// [`Column::column_type`] are all made from it, so a column is spelled
/// once.
macro_rules! columns {
    ($($variant:ident => $name:literal: $kind:ident,)*) => {
        /// Every column of `games.parquet`, in table order. What each
        /// holds is in `docs/columns.md`.
        #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
        pub enum Column {
            $($variant,)*
        }

        impl Column {
            /// Every column, in table order.
            pub const ALL: [Column; [$(Column::$variant,)*].len()] = [$(Column::$variant,)*];

            /// The column's name in the table.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Column::$variant => $name,)*
                }
            }

            pub const fn column_type(self) -> ColumnType {
                match self {
                    $(Column::$variant => ColumnType::$kind,)*
                }
            }
        }
    };
}

columns! {
    Source => "source": String,
    GameNo => "game_no": UInt32,
    Event => "event": String,
    Site => "site": String,
    Date => "date": String,
    Round => "round": String,
    Year => "year": Int16,
    White => "white": String,
    Black => "black": String,
    WhiteElo => "white_elo": UInt16,
    BlackElo => "black_elo": UInt16,
    WhiteTitle => "white_title": String,
    BlackTitle => "black_title": String,
    WhiteFideId => "white_fide_id": String,
    BlackFideId => "black_fide_id": String,
    Eco => "eco": String,
    Opening => "opening": String,
    TimeControl => "time_control": String,
    TimeClass => "time_class": String,
    Termination => "termination": String,
    WhiteClock => "white_clock": Float32,
    BlackClock => "black_clock": Float32,
    Variant => "variant": String,
    Result => "result": String,
    Plies => "plies": UInt32,
    Moves => "moves": UInt32,
    Ending => "ending": String,
    DrawType => "draw_type": String,
    FinalFen => "final_fen": String,
    HalfmoveClock => "halfmove_clock": UInt16,
    Repetitions => "repetitions": UInt8,
    Checkmate => "checkmate": Boolean,
    Stalemate => "stalemate": Boolean,
    InsufficientMaterial => "insufficient_material": Boolean,
    Fivefold => "fivefold": Boolean,
    SeventyFiveMoves => "seventy_five_moves": Boolean,
    ThreefoldClaimable => "threefold_claimable": Boolean,
    FiftyClaimable => "fifty_claimable": Boolean,
    ClaimNeedsWrittenMove => "claim_needs_written_move": Boolean,
    DrawnOnBoard => "drawn_on_board": Boolean,
    ResultMismatch => "result_mismatch": Boolean,
    WhiteMaterial => "white_material": UInt8,
    BlackMaterial => "black_material": UInt8,
    PlusRemiseWinner => "plus_remise_winner": String,
    PlusRemiseRule => "plus_remise_rule": UInt8,
    PlusRemiseWhitePoints => "plus_remise_white_points": UInt8,
    PlusRemiseBlackPoints => "plus_remise_black_points": UInt8,
    AutomaticDrawPly => "automatic_draw_ply": UInt32,
    FirstEvent => "first_event": String,
    FinalPositionDeadness => "final_position_deadness": String,
    FlagOpponentCanMate => "flag_opponent_can_mate": String,
    MismatchReason => "mismatch_reason": String,
    LawResult => "law_result": String,
    Synthetic => "synthetic": Boolean,
    MovetextHash => "movetext_hash": UInt64,
    StartFen => "start_fen": String,
    DedupKey => "dedup_key": UInt64,
    Duplicate => "duplicate": Boolean,
    DuplicateOfRow => "duplicate_of_row": UInt64,
    UtcDate => "utc_date": String,
    EventDate => "event_date": String,
    Error => "error": String,
    Platform => "platform": String,
    Play => "play": String,
    PlayBy => "play_by": String,
    Speed => "speed": String,
    SpeedBy => "speed_by": String,
    Ratings => "ratings": String,
    RatingsBy => "ratings_by": String,
}

impl Column {
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
