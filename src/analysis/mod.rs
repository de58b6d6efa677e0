//! What analysts compute from games tables: the filters, the draw cube
//! and its statistics, coverage, outcomes, the rule study, scoring systems
//! and the audit. Every analysis returns plain data (numbers, names,
//! proportions); `render` turns it into HTML, charts, text, CSV or JSON.

pub mod audit;
pub mod draws;
pub mod games;
pub mod outcomes;
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

/// Every analysis a report shows, as plain data.
pub struct Report {
    pub aggregate: Aggregate,
    pub outcomes: outcomes::Outcomes,
    pub rating_gap: games::RatingGap,
    pub openings: games::Openings,
    pub time_classes: games::TimeClasses,
    pub clocks: games::Clocks,
    pub scoring: scoring::ScoringStudy,
    pub audit: audit::Audit,
    /// The rule study, when a catalogue was given and some game matched it.
    pub rule_study: Option<rule_study::RuleStudy>,
}

/// Opening groups a report lists.
pub const TOP_OPENINGS: usize = 15;

/// Runs every analysis of a report over the same filtered rows.
pub fn report(
    inputs: &[PathBuf],
    filters: &Filters,
    patterns: &EventPatterns,
    catalogue: Option<&crate::study::events::EventCatalogue>,
) -> Result<Report> {
    let aggregate = aggregate(inputs, filters, patterns)?;
    let prepared = || aggregate.prepared.clone();
    let rule_study = match catalogue {
        Some(catalogue) => Some(rule_study::rule_study(
            prepared(),
            catalogue,
            patterns,
            filters.short_draws,
        )?)
        .filter(|study| !study.is_empty()),
        None => None,
    };
    Ok(Report {
        outcomes: outcomes::outcomes(prepared())?,
        rating_gap: games::rating_gap(prepared(), &filters.bands)?,
        openings: games::openings(prepared(), TOP_OPENINGS)?,
        time_classes: games::time_classes(prepared())?,
        clocks: games::clocks(prepared())?,
        scoring: scoring::scoring_study(prepared())?,
        audit: audit::audit(prepared())?,
        rule_study,
        aggregate,
    })
}
