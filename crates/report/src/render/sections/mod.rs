//! The report's sections, one module per part of the page: each takes plain
//! data from `analysis` and writes HTML. The page's order is `html::render`.

use std::fmt::Write;

use super::charts::{self, Line};
use super::format::{
    Col, Layout, PageTable, csv_download, escape, interval, pct, range_percent, rate_columns,
    share_cell, share_cells, share_columns, share_header, thousands,
};
use crate::analysis::draws::{
    DrawStats, MIN_CELL_GAMES, MIN_STANDARD_COVERAGE, Standardised, YearBins,
};
use crate::analysis::games::{
    self, Clocks, FormatCounts, Openings, RatingGap, RatingSystem, TimeClasses, clock_label,
    gap_label,
};
use crate::analysis::merge::Merge;
use crate::analysis::outcomes::{OutcomeCounts, Outcomes};
use crate::render::palette::{draw_type_color, heat, hex};
use crate::study::{Band, BandScheme, Proportion};
use remis_table::schema::DrawType;
use std::collections::BTreeMap;

/// One input table, as the provenance lists it.
pub struct InputInfo {
    pub name: String,
    pub bytes: u64,
    /// Its SHA-256, unless checksums were not asked for.
    pub sha256: Option<String>,
    /// How it was made, from its manifest; `None` for a table without one.
    pub made_by: Option<TableOrigin>,
}

/// How an input table was made: the remis that wrote it, the run (commit
/// and command line) when recorded, and the sources it read.
pub struct TableOrigin {
    pub remis: String,
    pub run: Option<(String, String)>,
    pub sources: Vec<Source>,
}

/// A source a table was made from, as its manifest records it.
pub struct Source {
    pub path: String,
    pub bytes: Option<u64>,
    /// Computed while its games were read (none in older tables).
    pub sha256: Option<String>,
}

/// The settings the counts depend on, for the provenance: the checksums of
/// the event patterns, the catalogue and the player aliases in force, and
/// the rule study's bootstrap seed.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub patterns: u64,
    pub catalogue: Option<u64>,
    pub aliases: u64,
    pub seed: u64,
}

/// What the page is about, besides the numbers.
pub struct PageInfo<'a> {
    pub title: &'a str,
    pub inputs: &'a [InputInfo],
    pub filters: &'a [String],
    pub generated_by: &'a str,
    /// The command line that made the page, and when (UTC).
    pub command: &'a str,
    pub generated: &'a str,
    /// How the counts were read: from the rows or from summary files.
    pub counts_from: &'a str,
    /// How years are grouped in the by-year chart and table.
    pub year_bins: YearBins,
    /// The two short-draw limits, in moves (default 20 and 30).
    pub short_draws: [u32; 2],
    /// At most this many bands get a line in the by-year chart.
    pub chart_bands: usize,
    /// How a game is put in a band, in words (`Filters::basis_words`),
    /// and in short for a chart's axis (`Filters::basis_axis`).
    pub band_basis: &'a str,
    pub band_axis: &'a str,
    pub settings: Settings,
}

mod audit;
mod draws;
mod expected;
mod outcomes;
mod play;
mod players;
mod provenance;
mod rules;

pub use audit::*;
pub use draws::*;
pub use expected::*;
pub use outcomes::*;
pub use play::*;
pub use players::*;
pub use provenance::*;
pub use rules::*;

pub(super) fn section(h: &mut String, id: &str, title: &str, caption: &str, svg: &str) {
    let _ = write!(
        h,
        "<section id=\"{id}\">\n<h2>{}</h2>\n<p class=\"caption\">{}</p>\n",
        escape(title),
        escape(caption)
    );
    if svg.is_empty() {
        h.push_str("<p class=\"caption\"><em>Not enough games for this chart.</em></p>\n");
    } else {
        let _ = writeln!(h, "<figure>{svg}</figure>");
    }
}
