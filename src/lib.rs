//! remis: how were chess games drawn? The library behind the `remis`
//! command, laid out as its pipeline:
//!
//! - [`fnv`]: the one small hash, a leaf;
//! - [`input`]: files, folders, stdin, compression, chunks of whole games;
//! - [`rules`]: the FIDE Laws as pure functions (a leaf: it knows only
//!   shakmaty);
//! - [`replay`]: the PGN visitor that replays games and applies the rules;
//! - [`table`]: game records to Parquet;
//! - [`pipeline`]: the classify stage, wiring the above across threads;
//! - [`schema`]: the table's columns, named and typed once;
//! - [`study`] and [`analysis`]: what analysts compute from the table;
//! - [`render`]: HTML report sections and charts.

pub mod analysis;
pub mod fnv;
pub mod generate;
pub mod input;
pub mod pipeline;
pub mod render;
pub mod replay;
pub mod rules;
pub mod schema;
pub mod study;
pub mod table;
