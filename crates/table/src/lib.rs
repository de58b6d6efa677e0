//! The games table: every classified game becomes one row.
//!
//! - [`schema`]: the table's columns, named and typed once;
//! - [`writer`]: game records to rows, rows to Parquet (with the manifest
//!   that ties a shard to its input);
//! - [`parquet_input`]: games stored as Parquet rows (the lichess dataset),
//!   read through core's [`remis_core::input::ColumnarSource`];
//! - [`format`](mod@format): each game's play and speed, decided from its tags;
//! - [`dedup`]: the same game met twice;
//! - [`players`]: one identity per player, however the name is spelled;
//! - [`safe_file`]: the one way remis writes a file (and opens one it
//!   reads back);
//! - [`pipeline`]: the classify stage, wiring core's reader and replay
//!   across threads into the writer;
//! - [`classify`](mod@classify): a whole `classify` run, one table or a
//!   shard per input, each committed with the file written beside it;
//! - [`resume`]: the parts and checkpoints of a run that can resume;
//! - [`shards`]: where classify writes (one table, or a shard per input)
//!   and when a shard already there may be replaced.

// Messages go through `remis_core::say!` (clippy.toml).
#![deny(clippy::disallowed_macros)]

pub mod classify;
pub mod dedup;
pub mod format;
pub mod panics;
pub mod parquet_input;
pub mod pipeline;
pub mod players;
pub mod ratings;
pub mod resume;
pub mod safe_file;
pub mod schema;
pub mod shards;
pub mod writer;
