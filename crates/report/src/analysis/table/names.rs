//! The names of the aggregate columns that several queries make and read
//! back: a group's count, its games and draws, a side's player. Each is
//! spelled here once, so that a query's `alias` and the `column` that reads
//! it cannot drift apart. A name one query alone makes stays a constant of
//! that query's module; the prepared frame's derived columns are the
//! constants beside [`super::prepare`] (`BAND`, `IS_DRAW`, ...); the table's
//! own columns are `remis_table::schema::Column`.

/// A group's number of rows: games, or sides where a query counts each
/// player of a game.
pub const N: &str = "n";
/// Games in a group.
pub const GAMES: &str = "games";
/// Drawn games in a group.
pub const DRAWS: &str = "draws";
/// Agreed draws: their count in a group (the rule study), or whether a
/// draw was agreed (the draw-length query's key).
pub const AGREED: &str = "agreed";
/// Games or sides in a group with a rating (the rule study's: both
/// ratings, plausible).
pub const RATED: &str = "rated";
/// The sum of those ratings (a side's, the players' mean, or both
/// players'), for a mean rating after groups merge.
pub const RATING_SUM: &str = "rating_sum";
/// The name of one side's player, where a query takes White's and Black's
/// games as one column.
pub const PLAYER: &str = "player";

/// A group's games and draws (of the prepared rows' `is_draw`), as
/// several queries count them.
pub fn games_and_draws() -> [polars::prelude::Expr; 2] {
    use polars::prelude::*;
    [
        len().cast(DataType::UInt64).alias(GAMES),
        col(super::IS_DRAW)
            .cast(DataType::UInt64)
            .sum()
            .alias(DRAWS),
    ]
}
