//! A batch's counts by event: the scoring study's games per event,
//! standings and pairings ([`standings`]), the expected-draw cells with
//! the catalogue's series (`expected::cells::counts_used`) and the rule
//! study (`rule_study::counts_used`), counted in Rust from its used rows
//! read once. Their polars queries stay the reference
//! ([`SummaryBuilder::with_queries`]), run as they always were: those
//! that need the first batch's results (the games per event, the
//! catalogue's events among the names) in a second batch of queries.

use super::standings;
use super::*;
use crate::analysis::expected::cells::DrawCells;
use crate::analysis::population::ByFormat;

/// A batch's games of the events the standings count, kept until they
/// can be judged whole ([`SummaryBuilder::keep_pairings`]).
pub(super) enum BatchPairings {
    /// The rows of [`scoring::pairing_rows_query`] (the reference).
    Rows(DataFrame),
    Games(standings::BatchGames),
}

/// A batch's counts by event.
pub(super) struct EventCounts {
    /// Without the plus-remise decisions, counted with the other counts
    /// of games.
    pub scoring: scoring::ScoringCounts,
    /// `None` once batches are judged on their own: then `scoring`
    /// holds the batch's pairings.
    pub pairings: Option<BatchPairings>,
    pub expected: ByFormat<DrawCells>,
    pub rule_study: rule_study::RuleStudyCounts,
}

/// The reference's queries of the first batch.
pub(super) struct FirstTickets {
    event_games: table::Ticket,
    pairing_rows: table::Ticket,
    names: table::Ticket,
    draw_cells: table::Ticket,
    player_cells: table::Ticket,
}

impl FirstTickets {
    pub fn add(first: &mut Batch, used: &LazyFrame) -> Self {
        FirstTickets {
            event_games: first.add(scoring::event_games_query(used.clone())),
            pairing_rows: first.add(scoring::pairing_rows_query(used.clone())),
            names: first.add(rule_study::names_query(used.clone())),
            draw_cells: first.add(expected::cells::cells_query(used.clone())),
            player_cells: first.add(expected::cells::players_query(used.clone())),
        }
    }
}

impl SummaryBuilder<'_> {
    /// The counts by event of the used rows `used`, by the queries: those
    /// of `tickets` among the first batch's results `first`, and a second
    /// batch of queries.
    pub(super) fn events_by_queries(
        &self,
        used: &LazyFrame,
        first: &table::Results,
        tickets: FirstTickets,
    ) -> Result<EventCounts> {
        let (event_games, names) = (first.get(tickets.event_games), first.get(tickets.names));
        // The standings need this batch's games per event, the rule
        // study's queries the catalogue's events among its names; a batch
        // judged on its own, its pairings.
        let mut second = Batch::default();
        let standings = second.add(scoring::standings_query(used.clone(), event_games));
        let pairings = self
            .in_parts
            .then(|| second.add(scoring::pairings_query(used.clone(), event_games)));
        let catalogue = self.config.catalogue;
        let series_cells =
            expected::cells::series_query(used.clone(), names, catalogue)?.map(|q| second.add(q));
        let rule_queries = rule_study::queries(
            used.clone(),
            names,
            catalogue,
            self.config.filters.short_draws,
        )?
        .map(|queries| queries.map(|q| second.add(q)));
        let second = second.run()?;
        let rule_study = match rule_queries {
            Some(tickets) => rule_study::counts_from(tickets.map(|t| second.get(t)))?,
            None => rule_study::RuleStudyCounts::default(),
        };
        let mut scoring = scoring::batch_counts_from(event_games, second.get(standings))?;
        if let Some(pairings) = pairings {
            // Judged on its own: the candidates from this batch's standings.
            let candidates = scoring::candidates(&scoring);
            scoring::add_pairings(&mut scoring, second.get(pairings), &candidates)?;
        }
        let mut expected = expected::cells::counts_from(
            first.get(tickets.draw_cells),
            series_cells.map(|t| second.get(t)),
            catalogue,
        )?;
        expected.absorb(expected::cells::players_from(
            first.get(tickets.player_cells),
            self.config.aliases,
        )?);
        Ok(EventCounts {
            scoring,
            pairings: (!self.in_parts)
                .then(|| BatchPairings::Rows(first.get(tickets.pairing_rows).clone())),
            expected,
            rule_study,
        })
    }

    /// [`in_rust`] with the builder's settings.
    #[cfg(test)]
    pub(super) fn events_in_rust(&self, used: &DataFrame) -> Result<EventCounts> {
        in_rust(self.config, self.in_parts, used)
    }
}

/// The counts by event made in Rust from the batch's used rows (a frame of
/// [`table::prepare_frame`]'s columns), under `config`; `in_parts`: the
/// batch is judged on its own.
pub(super) fn in_rust(config: &Config, in_parts: bool, used: &DataFrame) -> Result<EventCounts> {
    let standings::BatchScoring { mut counts, games } = standings::count(used)?;
    let pairings = if in_parts {
        // Judged on its own: the candidates from this batch's standings.
        let pairings = standings::judge(games.games.iter().map(|(e, g)| (e, g)), &counts);
        counts.pairings.absorb(pairings);
        None
    } else {
        Some(BatchPairings::Games(games))
    };
    let catalogue = config.catalogue;
    let named = rule_study::catalogue_names(used, catalogue)?;
    Ok(EventCounts {
        scoring: counts,
        pairings,
        expected: expected::cells::counts_used(used, &named, catalogue)?,
        rule_study: rule_study::counts_used(used, &named, config.filters.short_draws)?,
    })
}
