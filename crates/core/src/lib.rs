//! remis's core: from bytes to classified games, and nothing after.
//!
//! - [`fnv`], [`rng`] and [`excerpt`]: the one small hash, the one seeded
//!   generator and the one way to quote text in a message, leaves;
//! - [`input`]: files, folders, stdin, compression, chunks of whole games;
//!   games stored as columns come in through a [`input::ColumnarSource`]
//!   that a higher layer supplies (the table crate reads Parquet);
//! - [`rules`]: the FIDE Laws as pure functions over shakmaty positions;
//!   the searches for dead positions and mating chances, which hand the
//!   position to chasolver on the `chess` crate's board; and the rule
//!   state of one game ([`rules::Arbiter`]);
//! - [`replay`]: the pgn-reader visitor that feeds a game's moves to the
//!   rules and turns it into a [`replay::GameRecord`];
//! - [`explain`](mod@explain): one game replayed again for the trail an
//!   arbiter can check (repetitions, move counts, the searches' proofs),
//!   which `remis explain` and the report's audit links show.
//!
//! This crate knows nothing of Parquet, polars or charts.

// Messages go through `remis_core::say!` (clippy.toml).
#![deny(clippy::disallowed_macros)]

pub mod excerpt;
pub mod explain;
pub mod fnv;
pub mod input;
pub mod replay;
pub mod rng;
pub mod rules;
