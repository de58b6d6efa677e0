//! remis-table's integration tests, one executable (as the root's
//! `tests/it`): each file under `tests/` used to be an executable of its
//! own that linked the crate and polars in full.
//!
//! - [`format_labels`]: each game's play and speed against a labelled
//!   list of real event series and sites;
//! - [`safe_file_races`]: random file-system races against the safe
//!   writes.

mod format_labels;
mod safe_file_races;
