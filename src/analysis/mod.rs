//! What analysts compute from games tables: the filters, the draw cube
//! and its statistics, coverage, outcomes, the rule study, scoring systems
//! and the audit. Every analysis returns plain data (numbers, names,
//! proportions); `render` turns it into HTML, charts, text, CSV or JSON.

pub mod audit;
pub mod draws;
pub mod rule_study;
pub mod scoring;
pub mod table;

use std::path::PathBuf;

use anyhow::Result;

use crate::study::EventPatterns;
pub use draws::DrawStats;
pub use table::Filters;

/// The numbers behind a report or a `stats` table.
pub struct Aggregate {
    pub tables: Vec<PathBuf>,
    pub stats: DrawStats,
    pub coverage: Vec<(String, u64)>,
    /// Rows of generated games (`remis generate`), which are not real.
    pub synthetic: u64,
    /// The filtered table (lazy), for further studies over the same rows.
    pub prepared: polars::prelude::LazyFrame,
}

/// Scans the tables once for coverage and once for the cube.
pub fn aggregate(
    inputs: &[PathBuf],
    filters: &Filters,
    patterns: &EventPatterns,
) -> Result<Aggregate> {
    let tables = table::table_paths(inputs)?;
    let prepared = table::prepare(table::scan(&tables)?, filters, patterns)?;
    let coverage = table::coverage(prepared.clone())?;
    let synthetic = table::synthetic_rows(prepared.clone())?;
    if filters.dedup {
        table::ensure_dedup_marks(&tables)?;
    }
    let cube = table::cube(prepared.clone())?;
    Ok(Aggregate {
        tables,
        stats: DrawStats::from_cube(&cube),
        coverage,
        synthetic,
        prepared,
    })
}
