//! The integration tests of the `remis` binary, as one test executable
//! (as ripgrep's `tests/` are): each module was a test crate of its own,
//! and each linked polars in full — fifteen links for every change. One
//! module a subject; `common` holds what they share.

mod common;

mod analyses;
mod classify_cli;
mod expected;
mod explain;
mod formats;
mod help_texts;
mod hostile_input;
mod hostile_output;
mod malformed_input;
mod parquet_datasets;
mod parquet_input;
mod presumptions;
mod resume;
mod schema_docs;
mod sofia_cli;
mod summaries;
