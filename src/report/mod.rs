//! The report stage: aggregation queries (polars lazy), statistics, charts
//! (plotters SVG) and the HTML page.

pub mod audit;
pub mod charts;
pub mod html;
pub mod query;
pub mod rule_study;
pub mod scoring;
pub mod stats;

use std::path::PathBuf;

use anyhow::Result;

use crate::study::EventPatterns;
pub use query::Filters;
pub use stats::DrawStats;

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
    let tables = query::table_paths(inputs)?;
    let prepared = query::prepare(query::scan(&tables)?, filters, patterns)?;
    let coverage = query::coverage(prepared.clone())?;
    let synthetic = query::synthetic_rows(prepared.clone())?;
    if filters.dedup {
        query::ensure_dedup_marks(&tables)?;
    }
    let cube = query::cube(prepared.clone())?;
    Ok(Aggregate {
        tables,
        stats: DrawStats::from_cube(&cube),
        coverage,
        synthetic,
        prepared,
    })
}
