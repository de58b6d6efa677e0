//! What analysts compute from games tables: the filters, the draw cube
//! and its statistics, coverage, outcomes, the rule study, scoring systems
//! and the audit. Every table is first reduced to a [`Summary`] of counts
//! (read from its summary file, or computed from its rows on polars'
//! streaming engine); summaries add up across tables, and every analysis
//! is made from the sum. Analyses return plain data (numbers, names,
//! proportions); `render` turns it into HTML, charts, text, CSV or JSON.

pub mod audit;
pub mod crosstable;
pub mod draws;
pub mod format_audit;
pub mod games;
pub mod merge;
pub mod outcomes;
pub mod players;
pub mod rule_study;
pub mod scoring;
pub mod summary;
pub mod table;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use polars::prelude::DataFrame;

use remis_table::schema::Column;

use crate::study::EventPatterns;
use crate::study::events::EventCatalogue;
pub use draws::DrawStats;
pub use merge::Merge;
pub use summary::{Config, Summary, SummaryFileError};
pub use table::Filters;

/// Where the counts of each table come from.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum Source {
    /// A table's summary file when there is a current one for these
    /// settings, else its rows.
    #[default]
    Auto,
    /// Always the rows (summary files are not read).
    Rows,
    /// Only summary files: a table without a current one is an error (a
    /// cluster's head node never reads all rows).
    Summaries,
}

/// The counts of a set of tables, merged.
pub struct Loaded {
    pub tables: Vec<PathBuf>,
    pub summary: Summary,
    /// Tables whose counts came from their summary file.
    pub from_summaries: usize,
    /// Summary files that were there but not used, and why.
    pub warnings: Vec<String>,
}

/// Computes a table's summary from its rows, on the streaming engine, in
/// two passes over the table (the second needs the first's list of events:
/// which are small enough for standings, which the catalogue names). The
/// queries of a pass share one scan; each holds only its groups in memory.
pub fn summarize_rows(table: &Path, config: &Config) -> Result<Summary> {
    let open = table::scan_one(table)?;
    let lf = open.lf.clone();
    let filters = config.filters;
    let prepared = table::prepare(lf.clone(), filters)?;
    let used = table::used(prepared.clone());

    let mut first = table::Batch::default();
    let coverage = first.add(table::coverage_query(prepared));
    let marks = first.add(table::marks_query(lf));
    let cube = first.add(table::cube_query(used.clone()));
    let outcomes = first.add(outcomes::counts_query(used.clone()));
    let gap = first.add(games::rating_gap_query(used.clone(), &filters.bands));
    let eco = first.add(games::opening_query(used.clone(), Column::Eco));
    let opening = first.add(games::opening_query(used.clone(), Column::Opening));
    let time_classes = first.add(games::time_classes_query(used.clone()));
    let clocks = first.add(games::clocks_query(used.clone()));
    let play = first.add(games::play_query(used.clone()));
    let format_audit = first.add(format_audit::query(used.clone()));
    let draw_types = first.add(games::draw_types_by_class_query(used.clone()));
    let lengths = first.add(games::lengths_query(used.clone()));
    let audit_counts = first.add(audit::counts_query(used.clone()));
    let audit_examples: Vec<table::Ticket> = audit::example_queries(used.clone())
        .into_iter()
        .map(|q| first.add(q))
        .collect();
    let event_games = first.add(scoring::event_games_query(used.clone()));
    let plus_remise = first.add(scoring::plus_remise_query(used.clone()));
    let names = first.add(rule_study::names_query(used.clone()));
    let players = first.add(players::query(used.clone()));
    let first = first.run()?;

    let mut second = table::Batch::default();
    let standings = second.add(scoring::standings_query(
        used.clone(),
        first.get(event_games),
    ));
    let pairings = second.add(scoring::pairings_query(
        used.clone(),
        first.get(event_games),
    ));
    let rule_queries = rule_study::queries(
        used,
        first.get(names),
        config.catalogue,
        filters.short_draws,
    )?
    .map(|queries| queries.map(|q| second.add(q)));
    let second = second.run()?;

    let (synthetic, dedup_marked) = table::marks_from(first.get(marks))?;
    let examples: Vec<&DataFrame> = audit_examples.iter().map(|&t| first.get(t)).collect();
    Ok(Summary {
        coverage: table::coverage_from(first.get(coverage))?,
        synthetic,
        dedup_marked,
        cube: table::cube_from(first.get(cube))?,
        outcomes: outcomes::counts_from(first.get(outcomes))?,
        rating_gap: games::rating_gap_from(first.get(gap))?,
        openings: games::OpeningCounts {
            eco: games::opening_from(first.get(eco), Column::Eco)?,
            name: games::opening_from(first.get(opening), Column::Opening)?,
        },
        time_classes: games::time_classes_from(first.get(time_classes))?,
        clocks: games::clocks_from(first.get(clocks))?,
        format: games::format_from(first.get(play), first.get(draw_types), first.get(lengths))?,
        format_audit: format_audit::audit_from(first.get(format_audit))?,
        scoring: scoring::counts_from(
            first.get(event_games),
            second.get(standings),
            first.get(plus_remise),
            second.get(pairings),
        )?,
        audit: audit::audit_from(first.get(audit_counts), &examples)?,
        players: players::counts_from(first.get(players))?,
        rule_study: match rule_queries {
            Some(tickets) => rule_study::counts_from(tickets.map(|t| second.get(t)))?,
            None => rule_study::RuleStudyCounts::default(),
        },
    })
}

/// A table's summary from its rows, for a table that may be hostile: it
/// must be a regular file whose footer's row count agrees with its row
/// groups, and a panic inside polars becomes an error naming the file.
pub fn summarize_checked(table: &Path, config: &Config) -> Result<Summary> {
    remis_table::safe_file::open_regular(table)?;
    let summary = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        summarize_rows(table, config)
    }))
    .map_err(|_| {
        anyhow::anyhow!(
            "{}: the Parquet reader failed on this file",
            table.display()
        )
    })??;
    let footer_rows = remis_table::parquet_input::checked_row_count(table)
        .with_context(|| format!("{}", table.display()))?;
    anyhow::ensure!(
        summary.rows() == footer_rows,
        "{}: {} rows read, its footer says {footer_rows}: the file changed while it was read",
        table.display(),
        summary.rows()
    );
    Ok(summary)
}

/// The merged counts of the tables behind `inputs` (see
/// [`table::table_paths`]), one table at a time.
pub fn load(inputs: &[PathBuf], config: &Config, source: Source) -> Result<Loaded> {
    let tables = table::table_paths(inputs)?;
    let mut loaded = Loaded {
        tables: Vec::with_capacity(tables.len()),
        summary: Summary::default(),
        from_summaries: 0,
        warnings: Vec::new(),
    };
    for table in tables {
        let from_file = match source {
            Source::Rows => None,
            Source::Summaries => match summary::read(&table, config) {
                Ok(part) => Some(part),
                Err(e) => bail!(
                    "{e} (--source summaries reads no rows: run `remis summarize` with the same filters first)"
                ),
            },
            Source::Auto => match summary::read(&table, config) {
                Ok(part) => Some(part),
                Err(SummaryFileError::Missing(_)) => None,
                Err(e) => {
                    loaded
                        .warnings
                        .push(format!("{e}; reading the table's rows instead"));
                    None
                }
            },
        };
        let part = match from_file {
            Some(part) => {
                loaded.from_summaries += 1;
                part
            }
            None => summarize_checked(&table, config)?,
        };
        if config.filters.dedup && part.dedup_marked == 0 {
            bail!(
                "{}: no duplicate marks; classify with `remis classify --dedup` to use --dedup",
                table.display()
            );
        }
        loaded.summary.absorb(part);
        loaded.tables.push(table);
    }
    Ok(loaded)
}

/// The numbers behind a report or a `stats` table.
pub struct Aggregate {
    pub tables: Vec<PathBuf>,
    /// The lead figures: games of the lead format only.
    pub stats: DrawStats,
    /// Every game used, whatever its format.
    pub all: DrawStats,
    /// The format of `stats`.
    pub lead: table::LeadFormat,
    /// Whether `stats` holds every game used (one format, or mixed).
    pub lead_is_all: bool,
    pub coverage: Vec<(String, u64)>,
    /// Rows of generated games (`remis generate`), which are not real.
    pub synthetic: u64,
}

impl Aggregate {
    /// The figures of the loaded tables; the lead ones of one format
    /// unless `mix_formats`.
    pub fn of(loaded: &Loaded, mix_formats: bool) -> Aggregate {
        let summary = &loaded.summary;
        let lead = table::LeadFormat::of(&summary.cube, mix_formats);
        Aggregate {
            tables: loaded.tables.clone(),
            stats: DrawStats::from_cube(&table::cube_rows(&summary.cube, &lead)),
            all: DrawStats::from_cube(&table::cube_rows(
                &summary.cube,
                &table::LeadFormat::default(),
            )),
            lead_is_all: lead.is_all(&summary.cube),
            lead,
            coverage: table::coverage_list(&summary.coverage),
            synthetic: summary.synthetic,
        }
    }
}

/// Every analysis a report shows, as plain data.
pub struct Report {
    pub aggregate: Aggregate,
    pub outcomes: outcomes::Outcomes,
    pub rating_gap: games::RatingGap,
    pub openings: games::Openings,
    pub time_classes: games::TimeClasses,
    pub clocks: games::Clocks,
    pub format: games::FormatCounts,
    pub format_audit: format_audit::FormatAudit,
    pub scoring: scoring::ScoringStudy,
    pub audit: audit::Audit,
    /// How concentrated the games are on few players, and the draw rate's
    /// interval clustered by player.
    pub players: players::Concentration,
    /// The rule study, when a catalogue was given and some game matched it.
    pub rule_study: Option<rule_study::RuleStudy>,
    /// Tables whose counts came from their summary files.
    pub from_summaries: usize,
    /// The trails of the audit's example games whose sources could be
    /// read again (`remis explain`), for the page to link to.
    pub explanations: Vec<remis_core::explain::Trail>,
}

/// Opening groups a report lists.
pub const TOP_OPENINGS: usize = 15;
/// Players the concentration table lists.
pub const TOP_PLAYERS: usize = 10;

/// Every analysis of a report, from the merged counts.
pub fn report(loaded: &Loaded, config: &Config, with_rule_study: bool) -> Report {
    let summary = &loaded.summary;
    let rule_study = with_rule_study
        .then(|| {
            rule_study::rule_study(
                &summary.rule_study,
                config.catalogue,
                config.patterns,
                config.filters.short_draws,
            )
        })
        .filter(|study| !study.is_empty());
    let aggregate = Aggregate::of(loaded, config.filters.mix_formats);
    let players = players::concentration(&summary.players, aggregate.all.overall(), TOP_PLAYERS);
    Report {
        aggregate,
        outcomes: outcomes::outcomes(&summary.outcomes),
        rating_gap: summary.rating_gap.clone(),
        openings: games::openings(&summary.openings, TOP_OPENINGS),
        time_classes: summary.time_classes.clone(),
        clocks: summary.clocks.clone(),
        format: summary.format.clone(),
        format_audit: summary.format_audit.clone(),
        scoring: scoring::scoring_study(&summary.scoring),
        audit: summary.audit.clone(),
        players,
        rule_study,
        from_summaries: loaded.from_summaries,
        explanations: Vec::new(),
    }
}

/// The settings of a command: its filters, event patterns and catalogue.
pub struct Settings {
    pub filters: Filters,
    pub patterns: EventPatterns,
    pub catalogue: EventCatalogue,
}

impl Settings {
    pub fn config(&self) -> Config<'_> {
        Config {
            filters: &self.filters,
            patterns: &self.patterns,
            catalogue: &self.catalogue,
        }
    }
}
