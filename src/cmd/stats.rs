//! `remis stats TABLE...`: the band × year draw table in the terminal, or
//! as CSV or JSON for scripts. The views are rendered by the report crate
//! (`render::views`); this command picks one and prints it.

use std::process::ExitCode;

use anyhow::Result;

use super::filters::{FilterArgs, SourceArgs};
use remis_report::analysis::{self, Aggregate, games, outcomes};
use remis_report::render::text::Format;
use remis_report::render::views;

/// What `remis stats` prints.
#[derive(Copy, Clone, Debug, Eq, PartialEq, clap::ValueEnum)]
enum View {
    /// Draw rate by band and year (with --by-band: by band only).
    Draws,
    /// Wins, draws and losses, White's score and the score FIDE's table
    /// 8.1(b) expects, by band and year.
    Outcomes,
    /// Draw rate by mean rating and rating gap.
    Gap,
    /// Draw rate and draw types of the largest opening groups.
    Openings,
    /// Draw rate by time class and band.
    TimeClasses,
    /// Clocks at the end of agreed draws and of games won on time.
    Clocks,
    /// Results the Laws contradict.
    Audit,
    /// Expected draws from the players' ratings (a logistic model without
    /// year), its calibration, and the excess draws by year and series;
    /// CSV and JSON also list the cells it was fitted on.
    Expected,
    /// The most frequent players, one identity each (as the report's
    /// Players section), with the spellings merged into it.
    Players,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    tables: super::filters::TablesArg,
    /// What to print.
    #[arg(long, value_enum, default_value_t = View::Draws)]
    view: View,
    /// Group by band only (all years together), for the draws and outcomes
    /// views.
    #[arg(long)]
    by_band: bool,
    /// How to print: aligned columns, CSV with a header line, or a JSON
    /// array of objects.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Short for --view audit.
    #[arg(long)]
    audit: bool,
    #[command(flatten)]
    filters: FilterArgs,
    #[command(flatten)]
    source: SourceArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let settings = args.filters.settings(None)?;
    let filters = &settings.filters;
    let view = if args.audit { View::Audit } else { args.view };
    let loaded = super::filters::load(&args.tables.tables, &settings, &args.source)?;
    let summary = &loaded.summary;
    let aggregate = Aggregate::of(&loaded, filters);
    let lead = &aggregate.lead;
    if aggregate.stats.games == 0 {
        remis_core::say!(
            "remis: no games matched ({})",
            filters.describe().join(", ")
        );
    }
    let scheme = &filters.bands;
    // Whose games each view counts: the lead population's (as the report's
    // band tables), every game used compared by format, or every game used
    // where the counts are not kept apart by format.
    let lead_statement = aggregate.population.statement();
    let everyone = if aggregate.lead_is_all {
        lead_statement.clone()
    } else {
        format!(
            "every game used, of every format: {}",
            aggregate.everyone.statement()
        )
    };
    let (players, players_of_lead) =
        analysis::players_of(summary, &aggregate, views::PLAYERS_LISTED);
    let population = match view {
        View::TimeClasses => format!("formats compared: {}", aggregate.everyone.statement()),
        View::Players if players_of_lead => lead_statement,
        View::Players | View::Clocks | View::Audit => everyone,
        View::Draws | View::Outcomes | View::Gap | View::Openings | View::Expected => {
            lead_statement
        }
    };
    let mut table = match view {
        View::Audit => {
            let mut out = remis_core::excerpt::TerminalSafe(std::io::stdout().lock());
            views::write_audit(&mut out, &summary.audit, &population, args.format)?;
            return Ok(ExitCode::SUCCESS);
        }
        View::Draws => views::draws_table(&aggregate.stats, scheme, args.by_band),
        View::Outcomes => views::outcomes_table(
            &outcomes::outcomes(&summary.outcomes.of(lead).0),
            scheme,
            args.by_band,
        ),
        View::Gap => views::gap_table(&summary.rating_gap.of(lead), scheme),
        View::Openings => views::openings_table(&games::openings(
            &summary.openings.of(lead),
            analysis::TOP_OPENINGS,
        )),
        View::TimeClasses => views::time_classes_table(&summary.time_classes, scheme),
        View::Players => views::players_table(&players),
        View::Clocks => views::clocks_table(&summary.clocks),
        View::Expected => views::expected_table(
            &analysis::expected::expected_draws(&summary.expected, lead, &summary.players),
            args.format != Format::Table,
        ),
    };
    table.population = Some(population);
    let mut out = remis_core::excerpt::TerminalSafe(std::io::stdout().lock());
    table.write(&mut out, args.format)?;
    if view == View::Draws && args.format == Format::Table {
        views::write_draws_coverage(&mut out, &aggregate)?;
    }
    Ok(ExitCode::SUCCESS)
}
