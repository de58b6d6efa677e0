//! A table's summary built batch by batch, in table order: from the row
//! groups `classify` writes (so that the summary costs no second pass over
//! the table) or from slices of a table read back (so that summarizing a
//! table of any size holds one slice at a time).
//!
//! The summary of a table built from any batches equals the summary of
//! the whole table, as long as its events of at most 10,000 games hold at
//! most [`PAIRINGS_KEPT`] games, their standings at most
//! [`scoring::STANDINGS_KEPT`] (event, player) entries, the table at
//! most [`PLAYERS_UNFOLDED`] named players, each player at most
//! [`players::SPELLINGS_HELD`] spellings, and each format label at most
//! [`format_audit::SERIES_HELD`] event series (`tests/it/summaries.rs`
//! holds the two equal on every fixture, cut into batches of a few rows):
//! - every count is a sum over games, and the examples are the first rows
//!   in table order;
//! - the format audit's largest series are chosen at the end from every
//!   series (up to [`format_audit::SERIES_HELD`] a label);
//! - so are the spellings listed for each player (up to
//!   [`players::SPELLINGS_HELD`] a player);
//! - the standings are sums; but whether an event is a complete
//!   crosstable is seen only from all its games, so the builder keeps the
//!   pairing (event, year, round, players) of every used game of an event
//!   that has not yet passed [`scoring::STANDINGS_MAX_GAMES`], and at the
//!   end counts the pairings of the events whose summed standings look
//!   complete. The games of an event drop out as soon as it passes the
//!   limit, since it gets no standings whatever follows. At most
//!   [`PAIRINGS_KEPT`] games are kept: past them, the kept games' events
//!   are judged at once and each later batch on its own, as separate
//!   tables are (the standings still add up exactly; an event whose games
//!   straddle that point, or two later batches, is judged from its parts'
//!   pairings, which errs on the side of leaving it out:
//!   [`super::crosstable`]);
//! - past [`scoring::STANDINGS_KEPT`] standings entries, the events with
//!   the most players are left out of the standings, counted and named as
//!   such in the report ([`scoring::ScoringCounts::keep_within`]);
//! - players are folded past [`players::PLAYER_CAP`] once, at the end, as
//!   the whole table's would be, unless more than [`PLAYERS_UNFOLDED`]
//!   are met: then also each time they pass it; the expected-draw cells
//!   by player are dropped with them (`expected::cells::keep_named_players`).
//!
//! What the builder holds is therefore the groups of the counts (bounded by
//! bands, years, openings, the players and standings bounds above, and the
//! events' game counts: one entry an event), one batch of rows while it is
//! counted, and the kept pairings.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use remis_table::schema::Column;

use super::crosstable::PairingCounts;
use super::merge::Merge;
use super::summary::{Config, Summary};
use super::{
    audit, collection, expected, format_audit, games, outcomes, players, rule_study, scoring,
    table::{self, Batch},
};

/// Rows summarized at a time when a table is read back: two of the row
/// groups `classify` writes. The queries' working memory grows with the
/// batch (about 1 KiB a row) and the batch's fixed cost shrinks: with
/// batches of four groups `classify` of the master games peaked at
/// 889 MiB, with one at 617 MiB (docs/performance.md).
pub const BATCH_ROWS: usize = 2 * remis_table::writer::ROW_GROUP_ROWS;

/// Pairings of small events' games kept to be judged whole: more than
/// the master games' 476,000. Counted in Rust a game takes 12 bytes (up
/// to twice that while its event's vector grows) and each event's
/// players' names are kept once (`standings::KeptPairings`), so some
/// 25 MiB and the names; the reference's rows took about 70 bytes a game.
pub const PAIRINGS_KEPT: usize = 1 << 20;

/// The columns the summary's queries read (whatever the filters): a row
/// group handed over keeps only these while it waits to be counted. A
/// query that reads another column fails here at once (every fixture's
/// summary is counted this way in `tests/it/summaries.rs`).
const READ: [Column; 39] = [
    Column::AutomaticDrawPly,
    Column::Black,
    Column::BlackClock,
    Column::BlackElo,
    Column::BlackFideId,
    Column::BlackTitle,
    Column::Date,
    Column::DrawType,
    Column::Duplicate,
    Column::Eco,
    Column::Ending,
    Column::Event,
    Column::FinalFen,
    Column::FinalPositionDeadness,
    Column::FlagOpponentCanMate,
    Column::GameNo,
    Column::MismatchReason,
    Column::Moves,
    Column::Opening,
    Column::Play,
    Column::PlayBy,
    Column::Plies,
    Column::PlusRemiseRule,
    Column::PlusRemiseWinner,
    Column::Ratings,
    Column::Result,
    Column::Round,
    Column::Site,
    Column::Source,
    Column::Speed,
    Column::SpeedBy,
    Column::Synthetic,
    Column::Variant,
    Column::White,
    Column::WhiteClock,
    Column::WhiteElo,
    Column::WhiteFideId,
    Column::WhiteTitle,
    Column::Year,
];

/// Adds up a table's summary from batches of its rows.
/// Named players counted before any is folded: past them, the players
/// with the fewest games so far are folded down to
/// [`players::PLAYER_CAP`] at once, not only at the end, so that a table
/// of millions of players (a lichess month) is counted in bounded memory
/// (some 100 MiB of names). Below it the fold is the whole table's;
/// past it, a player folded early whose games go on is counted under her
/// name again, and the games and draws still add up exactly (the folded
/// group's count of players may then count her twice).
pub const PLAYERS_UNFOLDED: usize = 2 * players::PLAYER_CAP;

pub struct SummaryBuilder<'a> {
    config: &'a Config<'a>,
    counts: Summary,
    /// The used games of the events not (yet) past the standings' limit,
    /// in the columns of [`scoring::pairing_rows_query`] (the reference's).
    pairing_rows: Option<DataFrame>,
    /// The same, counted in Rust.
    kept: standings::KeptPairings,
    /// More than `pairings_kept` games were kept: each batch is now
    /// judged on its own.
    in_parts: bool,
    pairings_kept: usize,
    /// Rows handed over and not yet counted: they are counted once
    /// `batch_rows` rows are there. `classify` hands them over a chunk at
    /// a time, and a chunk may be one game (a folder of one-game files):
    /// they are stacked in `fresh` and made compact every
    /// [`FRESH_CHUNKS`] chunks before they join `pending`, since held as
    /// they came, each with its own allocation a column, 6,000 one-game
    /// sources took 240 MiB instead of under 200
    /// (`tests/python/test_memory_bounds.py`).
    pending: Option<DataFrame>,
    fresh: Option<DataFrame>,
    fresh_chunks: usize,
    batch_rows: usize,
    /// Rows prepared by the lazy [`table::prepare`] and counted by the
    /// polars queries only, not in Rust (the tests' reference).
    by_queries: bool,
    /// The players' counts and cells by number, when counted in Rust:
    /// in `counts` at the end.
    numbered: numbered::Numbered,
    /// The format audit's series in full, the largest kept at the end.
    series: format_audit::HeldSeries,
    /// [`PLAYERS_UNFOLDED`] and [`players::PLAYER_CAP`], but in tests.
    players_unfolded: usize,
    player_cap: usize,
}

impl<'a> SummaryBuilder<'a> {
    pub fn new(config: &'a Config<'a>) -> Self {
        SummaryBuilder {
            config,
            counts: Summary::default(),
            pairing_rows: None,
            kept: standings::KeptPairings::default(),
            in_parts: false,
            pairings_kept: PAIRINGS_KEPT,
            pending: None,
            fresh: None,
            fresh_chunks: 0,
            batch_rows: remis_table::writer::ROW_GROUP_ROWS,
            by_queries: false,
            numbered: numbered::Numbered::default(),
            series: format_audit::HeldSeries::default(),
            players_unfolded: PLAYERS_UNFOLDED,
            player_cap: players::PLAYER_CAP,
        }
    }

    /// Counts row groups handed over `rows` at a time (a row group of
    /// `classify`'s by default).
    pub fn with_batch_rows(self, rows: usize) -> Self {
        SummaryBuilder {
            batch_rows: rows.max(1),
            ..self
        }
    }

    /// Counts the rows handed over from now on `rows` at a time, when
    /// fewer than the batches so far.
    pub fn count_within(&mut self, rows: usize) {
        self.batch_rows = self.batch_rows.min(rows.max(1));
    }

    /// Keeps at most `games` games' pairings ([`PAIRINGS_KEPT`] by default).
    pub fn with_pairings_kept(self, games: usize) -> Self {
        SummaryBuilder {
            pairings_kept: games,
            ..self
        }
    }

    /// Folds the players down to half of `players` whenever more than
    /// `players` are named ([`PLAYERS_UNFOLDED`], down to
    /// [`players::PLAYER_CAP`], by default): what a table of millions of
    /// players does, in a test's few rows.
    pub fn with_players_unfolded(self, players: usize) -> Self {
        SummaryBuilder {
            players_unfolded: players,
            player_cap: players / 2,
            ..self
        }
    }

    /// Prepares the rows with the lazy [`table::prepare`] that the other
    /// readers run, and makes every count with its polars query, not in
    /// Rust ([`table::prepare_frame`], `counters`): the reference the
    /// tests hold the summary to (`tests/it/summaries.rs`).
    pub fn with_queries(self) -> Self {
        SummaryBuilder {
            by_queries: true,
            ..self
        }
    }

    /// Rows counted so far.
    pub fn rows(&self) -> u64 {
        self.counts.rows()
    }

    /// Counts the next rows in table order, as `classify` hands them over
    /// (once `batch_rows` rows are there, or at [`SummaryBuilder::finish`]).
    pub fn add_frame(&mut self, rows: &DataFrame) -> Result<()> {
        stack(&mut self.fresh, rows.select(READ.map(Column::name))?)?;
        self.fresh_chunks += 1;
        let held = |frame: &Option<DataFrame>| frame.as_ref().map_or(0, DataFrame::height);
        let rows = held(&self.pending) + held(&self.fresh);
        if self.fresh_chunks < FRESH_CHUNKS && rows < self.batch_rows {
            return Ok(());
        }
        // Made compact only if they wait: a batch counted now is read
        // as it is (on the master games A-F the copy cost 2.6 % of the
        // counting thread).
        let wait = rows < self.batch_rows;
        self.settle(wait)?;
        if wait {
            return Ok(());
        }
        match self.pending.take() {
            Some(pending) => self.add_rows(&pending),
            None => Ok(()),
        }
    }

    /// The fresh chunks join the pending rows, made compact if `compact`.
    fn settle(&mut self, compact: bool) -> Result<()> {
        self.fresh_chunks = 0;
        if let Some(mut fresh) = self.fresh.take() {
            if compact {
                fresh.rechunk_mut();
            }
            stack(&mut self.pending, fresh)?;
        }
        Ok(())
    }

    /// Counts the next batch of the table's rows (all of the table's
    /// columns, in table order).
    pub fn add(&mut self, rows: LazyFrame) -> Result<()> {
        // Only the columns read: a slice of a table read back holds all of
        // them (the movetext too).
        let rows = table::collect(rows.select(READ.map(|c| c.col())))?;
        self.add_rows(&rows)
    }

    /// Counts a batch of the table's rows, of the [`READ`] columns.
    fn add_rows(&mut self, rows: &DataFrame) -> Result<()> {
        let filters = self.config.filters;
        // The rows prepared once, in Rust: a plan of the batches below
        // that started from the lazy `table::prepare` computed it again
        // (the streaming engine shares no work between the plans of one
        // `collect_all`), and its join and conditional columns cost more
        // than all the queries together (docs/performance.md, issue 50).
        let prepared = if self.by_queries {
            table::collect(table::prepare(rows.clone().lazy(), filters)?)?
                .sort([table::ROW], Default::default())?
        } else {
            table::prepare_frame(rows, filters)?
        };
        let reasons = prepared.column(table::REASON)?.str()?;
        // Keyed by the borrowed reason while counting: a handful of
        // distinct reasons, not a String made for every row.
        let mut by_reason: BTreeMap<&str, u64> = BTreeMap::new();
        for reason in reasons.iter() {
            *by_reason.entry(reason.unwrap_or_default()).or_insert(0) += 1;
        }
        let coverage: BTreeMap<String, u64> = by_reason
            .into_iter()
            .map(|(reason, n)| (reason.to_string(), n))
            .collect();
        // Most batches are used whole: then the frame is the used rows,
        // not a copy of them.
        let used_rows = if coverage.get(table::USED).copied() == Some(prepared.height() as u64) {
            prepared.clone()
        } else {
            let is_used: BooleanChunked = reasons
                .iter()
                .map(|r| Some(r == Some(table::USED)))
                .collect();
            prepared.filter(&is_used)?
        };
        let synthetic = rows.column(Column::Synthetic.name())?.bool()?.num_trues() as u64;
        let dedup_marked = rows.column(Column::Duplicate.name())?.null_count();
        let dedup_marked = (rows.height() - dedup_marked) as u64;

        let Counts {
            by_event,
            counted,
            mut tallied,
            players: batch_players,
        } = if self.by_queries {
            self.count_by_queries(&used_rows.clone().lazy())?
        } else {
            self.count_in_rust(&used_rows)?
        };
        let mut scoring = by_event.scoring;
        self.series
            .add(std::mem::take(&mut tallied.format_audit.series));
        scoring.plus_remise_draws = tallied.plus_remise_draws;
        // Players fold once, at the end: `Summary::absorb` would fold them
        // at every batch. In Rust they are counted by number (`numbered`,
        // already), by the query added to the counts so far.
        let mut players_so_far = std::mem::take(&mut self.counts.players);
        let mut classical_so_far = std::mem::take(&mut self.counts.classical_players);
        if let Some((batch_all, batch_classical)) = batch_players {
            players_so_far.absorb_unfolded(batch_all);
            classical_so_far.absorb_unfolded(batch_classical);
        }
        drop(used_rows);
        let part = Summary {
            coverage,
            synthetic,
            dedup_marked,
            cube: counted.cube,
            outcomes: counted.outcomes,
            rating_gap: counted.rating_gap,
            openings: tallied.openings,
            time_classes: counted.time_classes,
            clocks: counted.clocks,
            format: counted.format,
            format_audit: tallied.format_audit,
            scoring,
            audit: tallied.audit,
            players: players::PlayerCounts::default(),
            classical_players: players::PlayerCounts::default(),
            collection: tallied.collection,
            evidence_bands: tallied.evidence_bands,
            // Added below, once the players are: its players' cells go
            // with the players kept by name.
            expected: Default::default(),
            rule_study: by_event.rule_study,
        };
        let (limit, cap) = (self.players_unfolded, self.player_cap);
        let folded = players_so_far.by_name.len() > limit;
        for counts in [&mut players_so_far, &mut classical_so_far] {
            if counts.by_name.len() > limit {
                counts.fold_past(cap);
            }
        }
        self.numbered.fold_past(limit, cap);
        // Out while the players are: `Summary::absorb` drops the cells of
        // players it does not keep.
        let mut expected_so_far = std::mem::take(&mut self.counts.expected);
        self.counts.absorb(part);
        self.counts.players = players_so_far;
        self.counts.classical_players = classical_so_far;
        expected_so_far.absorb(by_event.expected);
        if folded {
            expected::cells::keep_named_players(&mut expected_so_far, &self.counts.players);
        }
        self.counts.expected = expected_so_far;

        if let Some(pairings) = by_event.pairings {
            self.keep_pairings(pairings)?;
        }
        Ok(())
    }

    /// A batch's counts made in Rust from its used rows (a frame of
    /// [`table::prepare_frame`]'s columns, its used rows only), the
    /// players' counted by number into `numbered`. The counters read the
    /// rows and write their own counts, so they run on two threads: once
    /// the replay ends, what is left to count has both cores (on the
    /// master games A-F at two threads, the counting ended 70-100 ms
    /// after the replay, one core idle).
    fn count_in_rust(&mut self, used: &DataFrame) -> Result<Counts> {
        let (config, in_parts) = (self.config, self.in_parts);
        let numbered = &mut self.numbered;
        std::thread::scope(|scope| {
            let by_number = scope.spawn(move || -> Result<counters::Counted> {
                let sides = numbered.numbering.sides_of(used, config.aliases)?;
                numbered.add_players(used, &sides)?;
                numbered.add_cells(used, &sides)?;
                counters::count(used, &config.filters.bands)
            });
            let tallied = counters::tally(used);
            let by_event = events::in_rust(config, in_parts, used);
            let counted = by_number
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            Ok(Counts {
                by_event: by_event?,
                counted,
                tallied: tallied?,
                players: None,
            })
        })
    }

    /// A batch's counts made by the polars queries from its used rows
    /// `used` (the reference).
    fn count_by_queries(&self, used: &LazyFrame) -> Result<Counts> {
        let filters = self.config.filters;
        let mut first = Batch::default();
        let queried = (
            first.add(table::cube_query(used.clone())),
            first.add(outcomes::counts_query(used.clone())),
            first.add(games::rating_gap_query(used.clone(), &filters.bands)),
            first.add(games::time_classes_query(used.clone())),
            first.add(games::clocks_query(used.clone())),
            first.add(games::play_query(used.clone())),
            first.add(games::draw_types_by_class_query(used.clone())),
            first.add(games::lengths_query(used.clone())),
        );
        let tallied = counters::TallyTickets::add(&mut first, used);
        let by_event = events::FirstTickets::add(&mut first, used);
        let players = first.add(players::query(used.clone()));
        let first = first.run()?;
        let by_event = self.events_by_queries(used, &first, by_event)?;
        let (cube, outcomes, gap, time_classes, clocks, play, draw_types, lengths) = queried;
        let counted = counters::Counted {
            cube: table::cube_from(first.get(cube))?,
            outcomes: outcomes::counts_from(first.get(outcomes))?,
            rating_gap: games::rating_gap_from(first.get(gap))?,
            time_classes: games::time_classes_from(first.get(time_classes))?,
            clocks: games::clocks_from(first.get(clocks))?,
            format: games::format_from(first.get(play), first.get(draw_types), first.get(lengths))?,
        };
        Ok(Counts {
            by_event,
            counted,
            tallied: tallied.read(&first)?,
            players: Some(players::counts_and_classical(
                first.get(players),
                self.config.aliases,
            )?),
        })
    }

    /// Appends a batch's pairings and drops those of events now past the
    /// standings' limit.
    fn keep_pairings(&mut self, batch: events::BatchPairings) -> Result<()> {
        let batch = match batch {
            events::BatchPairings::Rows(rows) => rows,
            events::BatchPairings::Games(games) => {
                self.kept.add(games, &self.counts.scoring.event_games);
                if self.kept.games() > self.pairings_kept {
                    self.in_parts = true;
                    let pairings = self.kept.judge(&self.counts.scoring);
                    self.counts.scoring.pairings.absorb(pairings);
                }
                return Ok(());
            }
        };
        let mut rows = match self.pairing_rows.take() {
            Some(mut kept) => {
                kept.vstack_mut(&batch)?;
                kept
            }
            None => batch,
        };
        if let Some(large) = scoring::large_events_frame(&self.counts.scoring.event_games)? {
            let keys = [Column::Event.col(), Column::Year.col()];
            let mut anti = JoinArgs::new(JoinType::Anti);
            anti.nulls_equal = true;
            rows = rows
                .lazy()
                .join(large.lazy(), keys.clone(), keys, anti)
                .collect()?;
        }
        if rows.height() > self.pairings_kept {
            self.in_parts = true;
            let pairings = judge(rows, &self.counts.scoring)?;
            self.counts.scoring.pairings.absorb(pairings);
            return Ok(());
        }
        self.pairing_rows = Some(rows);
        Ok(())
    }

    /// The table's summary: the events ranked, the players folded.
    pub fn finish(mut self) -> Result<Summary> {
        self.settle(false)?;
        if let Some(pending) = self.pending.take() {
            self.add_rows(&pending)?;
        }
        if let Some(rows) = self.pairing_rows.take() {
            let pairings = judge(rows, &self.counts.scoring)?;
            self.counts.scoring.pairings.absorb(pairings);
        }
        let pairings = self.kept.judge(&self.counts.scoring);
        self.counts.scoring.pairings.absorb(pairings);
        self.counts.format_audit.series = self.series.largest();
        if !self.by_queries {
            // Folded by number first, as the maps are below: fewer players
            // to make into maps.
            self.numbered.fold_past(self.player_cap, self.player_cap);
            let (all, classical, cells) = self.numbered.take();
            self.counts.players = all;
            self.counts.classical_players = classical;
            self.counts.expected.absorb(cells);
        }
        self.counts.players.fold_past(self.player_cap);
        self.counts.classical_players.fold_past(self.player_cap);
        expected::cells::keep_named_players(&mut self.counts.expected, &self.counts.players);
        Ok(self.counts)
    }
}

/// A batch's counts, before they join the summary's.
struct Counts {
    by_event: events::EventCounts,
    counted: counters::Counted,
    tallied: counters::Tallied,
    /// All games' players and the classical games', when counted by the
    /// queries (in Rust they are counted by number, in the builder).
    players: Option<(players::PlayerCounts, players::PlayerCounts)>,
}

/// Chunks handed over that are stacked before they are made compact.
const FRESH_CHUNKS: usize = 64;

/// `rows` below the frame in `onto`.
fn stack(onto: &mut Option<DataFrame>, rows: DataFrame) -> Result<()> {
    match onto {
        Some(frame) => {
            frame.vstack_mut(&rows)?;
        }
        None => *onto = Some(rows),
    }
    Ok(())
}

/// The pairings, among kept games, of the events whose standings in
/// `standings` look complete.
fn judge(rows: DataFrame, standings: &scoring::ScoringCounts) -> Result<PairingCounts> {
    let candidates = scoring::candidates(standings);
    let mut judged = scoring::ScoringCounts::default();
    if rows.height() > 0 && !candidates.is_empty() {
        let pairings =
            table::collect(scoring::candidate_pairings_query(rows.lazy(), &candidates)?)?;
        scoring::add_pairings(&mut judged, &pairings, &candidates)?;
    }
    Ok(judged.pairings)
}

mod counters;
mod events;
mod numbered;
mod standings;

#[cfg(test)]
mod costs;
