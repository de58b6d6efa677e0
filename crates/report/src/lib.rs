//! What analysts read from games tables: open → analyse → render.
//!
//! - [`study`]: rating bands, proportions and their intervals, event
//!   kinds and the catalogue of rule regimes;
//! - [`analysis`]: tables reduced to mergeable counts (summaries) and the
//!   analyses made from them;
//! - [`render`]: the HTML report (its sections and charts) and the text,
//!   CSV and JSON of `stats`, `sofia` and `scoring`;
//! - [`page`]: `remis report` in one call, from the loaded counts to the
//!   page written with its provenance;
//! - [`classify`](mod@classify): `remis classify` with the summary counted
//!   beside each table as it is written.

// Messages go through `remis_core::say!` (clippy.toml).
#![deny(clippy::disallowed_macros)]

pub mod analysis;
pub mod classify;
pub mod page;
pub mod render;
pub mod study;
