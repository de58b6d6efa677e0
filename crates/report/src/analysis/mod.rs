//! What analysts compute from games tables: the filters, the draw cube
//! and its statistics, coverage, outcomes, the rule study, scoring systems
//! and the audit. Every table is first reduced to a [`Summary`] of counts
//! (read from its summary file, or computed from its rows on polars'
//! streaming engine); summaries add up across tables, and every analysis
//! is made from the sum. Analyses return plain data (numbers, names,
//! proportions); `render` turns it into HTML, charts, text, CSV or JSON.

pub mod audit;
pub mod build;
pub mod collection;
pub mod crosstable;
pub mod draws;
pub mod expected;
pub mod format_audit;
pub mod games;
pub mod linalg;
pub mod merge;
pub mod outcomes;
pub mod players;
pub mod population;
pub mod rule_study;
pub mod scoring;
pub mod standings;
pub mod summary;
pub mod table;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::study::EventPatterns;
use crate::study::events::EventCatalogue;
pub use build::SummaryBuilder;
pub use draws::DrawStats;
pub use merge::Merge;
use remis_table::players::Aliases;
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

/// Computes a table's summary from its rows, [`build::BATCH_ROWS`] rows
/// at a time (see [`build`]): memory holds one slice of the table and the
/// counts, whatever the table's size.
pub fn summarize_rows(table: &Path, config: &Config) -> Result<Summary> {
    summarize_rows_in(table, config, build::BATCH_ROWS)
}

/// [`summarize_rows`], `batch_rows` rows at a time: the summary is the same
/// for any number.
pub fn summarize_rows_in(table: &Path, config: &Config, batch_rows: usize) -> Result<Summary> {
    summarize_with(table, SummaryBuilder::new(config), batch_rows)
}

/// A table's rows added to `builder`, `batch_rows` at a time.
pub fn summarize_with(
    table: &Path,
    mut builder: SummaryBuilder,
    batch_rows: usize,
) -> Result<Summary> {
    let open = table::scan_one(table)?;
    let batch_rows = batch_rows.max(1);
    let mut offset: u64 = 0;
    loop {
        let before = builder.rows();
        builder.add(
            open.lf
                .clone()
                .slice(offset as i64, batch_rows as polars::prelude::IdxSize),
        )?;
        let read = builder.rows() - before;
        offset += read;
        // A short slice is the table's end (the footer's row count is not
        // trusted for it: `summarize_checked` compares the two).
        if read < batch_rows as u64 {
            break;
        }
    }
    builder.finish()
}

/// A table's summary from its rows, for a table that may be hostile: it
/// must be a regular file whose footer's row count agrees with its row
/// groups, and a panic inside polars becomes an error naming the file.
pub fn summarize_checked(table: &Path, config: &Config) -> Result<Summary> {
    remis_table::safe_file::open_regular(table)?;
    let summary =
        remis_table::panics::quietly(|| summarize_rows(table, config)).map_err(|panic| {
            anyhow::anyhow!(
                "{}: the Parquet reader failed on this file ({})",
                table.display(),
                remis_table::panics::message(panic.as_ref())
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
    /// Whose games the lead figures count, and how many.
    pub population: population::Population,
    /// Every game used, of every format: whom the sections that do not
    /// keep formats apart count.
    pub everyone: population::Population,
    pub coverage: Vec<(String, u64)>,
    /// Rows of generated games (`remis generate`), which are not real.
    pub synthetic: u64,
}

impl Aggregate {
    /// The figures of the loaded tables; the lead ones of one format
    /// unless the filters mix formats.
    pub fn of(loaded: &Loaded, filters: &table::Filters) -> Aggregate {
        let summary = &loaded.summary;
        let lead = table::LeadFormat::of(&summary.cube, filters.mix_formats);
        let stats = DrawStats::from_cube(&table::cube_rows(&summary.cube, &lead));
        let all = DrawStats::from_cube(&table::cube_rows(
            &summary.cube,
            &table::LeadFormat::default(),
        ));
        let lead_is_all = lead.is_all(&summary.cube);
        let shared = filters.describe();
        let population = population::Population {
            format: lead.clone(),
            games: stats.games,
            used: all.games,
            filters: shared.clone(),
        };
        let everyone = population::Population {
            format: table::LeadFormat::default(),
            games: all.games,
            used: all.games,
            filters: shared,
        };
        Aggregate {
            tables: loaded.tables.clone(),
            stats,
            all,
            lead_is_all,
            population,
            everyone,
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
    /// The expected-draw model of the lead population's rated games, or
    /// why there is none.
    pub expected: Result<expected::ExpectedDraws, expected::NotFitted>,
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
    /// Whether `players` counts the lead population's games (else every
    /// game used: the summary keeps the players of over-the-board
    /// classical games apart, not of other formats).
    pub players_of_lead: bool,
    /// The rule study, when a catalogue was given and some game matched it.
    pub rule_study: Option<rule_study::RuleStudy>,
    /// Tables whose counts came from their summary files.
    pub from_summaries: usize,
    /// The trails of the audit's example games whose sources could be
    /// read again (`remis explain`), for the page to link to.
    pub explanations: Vec<remis_core::explain::Trail>,
    /// What kind of sample the lead population is, with its counts by band.
    pub sample: Option<(collection::Kind, collection::CollectedCounts)>,
    /// The lead population's games by band whose speed rests on evidence,
    /// not on a presumption: the band table's sensitivity check.
    pub evidence_bands: collection::EvidenceBands,
}

/// Opening groups a report lists.
pub const TOP_OPENINGS: usize = 15;
/// Players the concentration table lists.
pub const TOP_PLAYERS: usize = 10;

/// The players of the lead population where the summary keeps them apart
/// (over-the-board classical games), else of every game used; and whether
/// they are the lead population's.
pub fn players_of(
    summary: &summary::Summary,
    aggregate: &Aggregate,
    top: usize,
) -> (players::Concentration, bool) {
    if aggregate.lead_is_all {
        return (
            players::concentration(&summary.players, aggregate.all.overall(), top),
            true,
        );
    }
    let lead = &aggregate.lead;
    let classical = lead.play == Some(table::Play::OverTheBoard)
        && lead.speed.as_deref() == Some(remis_table::schema::TimeClass::Classical.as_str());
    if classical {
        let counts = &summary.classical_players;
        (
            players::concentration(counts, aggregate.stats.overall(), top),
            true,
        )
    } else {
        (
            players::concentration(&summary.players, aggregate.all.overall(), top),
            false,
        )
    }
}

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
                config.aliases,
            )
        })
        .filter(|study| !study.is_empty());
    let aggregate = Aggregate::of(loaded, config.filters);
    let lead = aggregate.lead.clone();
    let lead = &lead;
    let (players, players_of_lead) = players_of(summary, &aggregate, TOP_PLAYERS);
    Report {
        aggregate,
        // Of the lead population, as the band tables: the page's numbers
        // are of one population unless a section says otherwise.
        outcomes: outcomes::outcomes(&summary.outcomes.of(lead).0),
        rating_gap: summary.rating_gap.of(lead),
        expected: expected::expected_draws(&summary.expected, lead, &summary.players),
        openings: games::openings(&summary.openings.of(lead), TOP_OPENINGS),
        time_classes: summary.time_classes.clone(),
        clocks: summary.clocks.clone(),
        format: summary.format.clone(),
        format_audit: summary.format_audit.clone(),
        scoring: scoring::scoring_study(&summary.scoring),
        audit: summary.audit.clone(),
        players,
        players_of_lead,
        rule_study,
        from_summaries: loaded.from_summaries,
        explanations: Vec::new(),
        evidence_bands: summary.evidence_bands.of(lead),
        sample: {
            let counts = summary.collection.of(lead);
            let online = lead.play == Some(table::Play::Online);
            collection::kind(&counts, online).map(|kind| (kind, counts))
        },
    }
}

/// The settings of a command: its filters, event patterns and catalogue.
pub struct Settings {
    pub filters: Filters,
    pub patterns: EventPatterns,
    pub catalogue: EventCatalogue,
    /// The surname aliases players' identities are read through.
    pub aliases: Aliases,
}

impl Default for Settings {
    /// What `classify` writes its summary under: the default filters and
    /// the built-in event patterns, catalogue and player aliases.
    fn default() -> Self {
        Settings {
            filters: Filters::default(),
            patterns: EventPatterns::default(),
            catalogue: EventCatalogue::built_in(),
            aliases: Aliases::default(),
        }
    }
}

impl Settings {
    pub fn config(&self) -> Config<'_> {
        Config {
            filters: &self.filters,
            patterns: &self.patterns,
            catalogue: &self.catalogue,
            aliases: &self.aliases,
        }
    }
}
