//! The summary's simplest counts made in Rust, in one pass over a batch's
//! used rows, each column read once: the draw cube, outcomes, rating gap,
//! time classes, clocks, and the format counts (by play, draw types by
//! class, lengths). Then, by [`tally`], the counts whose counters sit
//! beside their queries in their own modules (each a pass of its own
//! over the columns it reads): the openings, the format audit, the audit
//! with its examples, the plus-remise decisions, and the collection with
//! its evidence bands. Each is the count its polars query groups (kept
//! for the reference path, [`SummaryBuilder::by_queries`]), with the same
//! keys: `tests/it/summaries.rs` holds the summaries equal on every
//! fixture and on generated games (docs/performance.md, issue 50).

use std::collections::BTreeMap;

use super::*;
use crate::analysis::audit::Audit;
use crate::analysis::collection::{CollectedCounts, EvidenceBands};
use crate::analysis::format_audit::FormatAudit;
use crate::analysis::games::{
    CLOCK_EDGES, Clocks, FormatCounts, GAP_EDGES, OpeningCounts, RatingGap, RatingSystem,
    TimeClasses,
};
use crate::analysis::outcomes::{OutcomeCells, OutcomeCounts};
use crate::analysis::population::{ByFormat, format_of};
use crate::analysis::table::{
    BAND, BAND_IMPLAUSIBLE, CubeKey, EFFECTIVE_TIME_CLASS, IS_DRAW, PLAY, Play, Results, Ticket,
    band_of_row,
};
use crate::study::{Band, BandScheme, Proportion};
use remis_table::ratings::Ratings;
use remis_table::schema::{DrawType, Ending};

/// The counts made here, of one batch.
#[derive(Default)]
pub(super) struct Counted {
    pub cube: BTreeMap<CubeKey, u64>,
    pub outcomes: ByFormat<OutcomeCells>,
    pub rating_gap: ByFormat<RatingGap>,
    pub time_classes: TimeClasses,
    pub clocks: Clocks,
    pub format: FormatCounts,
}

/// The number of edges at or below `value`: the bin index among bins that
/// start at the edges (as `games::bin_expr` counts them).
fn bin<T: PartialOrd + Copy>(value: T, edges: &[T]) -> i32 {
    edges.iter().filter(|&&e| value >= e).count() as i32
}

/// Games and draws.
type GamesDraws = (u64, u64);

fn add_game(cell: &mut GamesDraws, is_draw: bool) {
    cell.0 += 1;
    cell.1 += u64::from(is_draw);
}

fn proportion((games, draws): GamesDraws) -> Proportion {
    Proportion::new(draws, games)
}

/// Counts the used rows of a batch (a frame of [`table::prepare_frame`]'s
/// columns, its used rows only). Rows are grouped first by their values
/// as they are in the columns (hash maps of borrowed text: no allocation
/// a row), as the queries group them, and each group is then added to
/// the summary's maps as the queries' groups are.
pub(super) fn count(used: &DataFrame, bands: &BandScheme) -> Result<Counted> {
    let column = |name: &str| used.column(name);
    let band = column(BAND)?.i32()?;
    let year = column(Column::Year.name())?.i16()?;
    let is_draw = column(IS_DRAW)?.bool()?;
    let draw_type = column(Column::DrawType.name())?.str()?;
    let moves = column(Column::Moves.name())?.u32()?;
    let play = column(PLAY)?.str()?;
    let speed = column(EFFECTIVE_TIME_CLASS)?.str()?;
    let white_elo = column(Column::WhiteElo.name())?.u16()?;
    let black_elo = column(Column::BlackElo.name())?.u16()?;
    let result = column(Column::Result.name())?.str()?;
    let ratings = column(Column::Ratings.name())?.str()?;
    let white_clock = column(Column::WhiteClock.name())?.f32()?;
    let black_clock = column(Column::BlackClock.name())?.f32()?;
    let ending = column(Column::Ending.name())?.str()?;

    // Each column read once, in order.
    let mut band = band.iter();
    let mut year = year.iter();
    let mut is_draw = is_draw.iter();
    let mut draw_type = draw_type.iter();
    let mut moves = moves.iter();
    let mut play = play.iter();
    let mut speed = speed.iter();
    let mut white_elo = white_elo.iter();
    let mut black_elo = black_elo.iter();
    let mut result = result.iter();
    let mut ratings = ratings.iter();
    let mut white_clock = white_clock.iter();
    let mut black_clock = black_clock.iter();
    let mut ending = ending.iter();
    let band_edges: Vec<i32> = bands.edge_list().iter().map(|&e| i32::from(e)).collect();
    let gap_edges = GAP_EDGES.map(i32::from);
    let agreed_type = DrawType::Agreed.as_str();
    let time_forfeit = Ending::TimeForfeit.as_str();

    type Format<'s> = (Option<&'s str>, Option<&'s str>);
    let mut cube: PlHashMap<_, u64> = PlHashMap::new();
    let mut outcomes: PlHashMap<_, OutcomeCounts> = PlHashMap::new();
    let mut gap: PlHashMap<_, GamesDraws> = PlHashMap::new();
    let mut time_classes: PlHashMap<_, GamesDraws> = PlHashMap::new();
    let mut by_play: PlHashMap<_, GamesDraws> = PlHashMap::new();
    let mut draw_types: PlHashMap<_, u64> = PlHashMap::new();
    let mut lengths: PlHashMap<_, u64> = PlHashMap::new();
    let mut out = Counted::default();
    for _ in 0..used.height() {
        let band_code = band.next().flatten();
        let year = year.next().flatten();
        let is_draw = is_draw.next().flatten();
        let draw_type = draw_type.next().flatten();
        let speed = speed.next().flatten();
        let format: Format = (play.next().flatten(), speed);
        let drawn = is_draw == Some(true);
        let (w, b) = (
            white_elo.next().flatten().map(i32::from),
            black_elo.next().flatten().map(i32::from),
        );
        let result = result.next().flatten();
        let moves = moves.next().flatten();
        let ratings = ratings.next().flatten();
        let ending = ending.next().flatten();
        let (white, black) = (white_clock.next().flatten(), black_clock.next().flatten());

        // The cube (`table::cube_query`).
        let draw_moves = if drawn { moves } else { None };
        *cube
            .entry((band_code, year, is_draw, draw_type, draw_moves, format))
            .or_insert(0) += 1;
        // Outcomes (`outcomes::counts_query`): White higher rated (or
        // equal), and the difference capped at 400, when both are rated.
        let rated = match (w, b) {
            (Some(w), Some(b)) => Some((w >= b, (w - b).abs().min(400))),
            _ => None,
        };
        if let Some(c) = crate::analysis::outcomes::games_of(result, rated, 1) {
            outcomes
                .entry((band_code, year, format))
                .or_insert_with(OutcomeCounts::default)
                .absorb(c);
        }
        // Rating gap (`games::rating_gap_query`): rated games whose
        // ratings are plausible.
        if let (Some(w), Some(b)) = (w, b)
            && band_code != Some(BAND_IMPLAUSIBLE)
        {
            let cell = (
                bin((w + b) / 2, &band_edges),
                bin((w - b).abs(), &gap_edges),
            );
            add_game(gap.entry((cell, ratings, format)).or_default(), drawn);
        }
        // Time classes (`games::time_classes_query`).
        add_game(time_classes.entry((speed, band_code)).or_default(), drawn);
        // Clocks (`games::clocks_query`): agreed draws by the lower clock,
        // games lost on time by the winner's.
        let agreed = draw_type == Some(agreed_type);
        if agreed || ending == Some(time_forfeit) {
            let seconds = if agreed {
                match (white, black) {
                    (Some(w), Some(b)) => Some(if w < b { w } else { b }),
                    _ => None,
                }
            } else if result == Some("1-0") {
                white
            } else {
                black
            };
            let clocks = &mut out.clocks;
            match (agreed, seconds.map(|s| bin(s, &CLOCK_EDGES) as usize)) {
                (true, Some(b)) => *clocks.agreed_lower_clock.entry(b).or_insert(0) += 1,
                (true, None) => clocks.agreed_without_clock += 1,
                (false, Some(b)) => *clocks.flag_winner_clock.entry(b).or_insert(0) += 1,
                (false, None) => clocks.flag_without_clock += 1,
            }
        }
        // Format (`games::play_query`, `draw_types_by_class_query`,
        // `lengths_query`).
        add_game(by_play.entry((format.0, speed, year)).or_default(), drawn);
        if let (Some(_), Some(kind)) = (is_draw.filter(|&d| d), draw_type) {
            *draw_types.entry((speed, kind)).or_insert(0) += 1;
        }
        *lengths.entry((moves, format)).or_insert(0) += 1;
    }

    // The groups into the summary's maps, as `*_from` reads the queries'.
    // The cube's cells sorted and the map built from them at once: put
    // one by one, in the hash map's order, each searched the tree with its
    // text compared (4 % of the counting thread on the master games).
    let mut cells: Vec<(CubeKey, u64)> = cube
        .into_iter()
        .map(|((band, year, is_draw, draw_type, moves, format), n)| {
            let (play, speed) = format_of(format.0, format.1);
            let key = CubeKey {
                band: band_of_row(band),
                year,
                is_draw: is_draw.unwrap_or(false),
                draw_type: draw_type.map(str::to_string),
                moves,
                play,
                speed,
            };
            (key, n)
        })
        .collect();
    cells.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // Groups the columns tell apart may be one cell (no play and an
    // unknown one): their games add up.
    cells.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 += later.1;
        }
        same
    });
    out.cube = cells.into_iter().collect();
    // Every format with a used game has its part, as the query's groups
    // give it (the lengths count every used game).
    for &format in lengths.keys().map(|(_, format)| format) {
        out.outcomes
            .parts
            .entry(format_of(format.0, format.1))
            .or_default();
    }
    for ((band, year, format), c) in outcomes {
        out.outcomes
            .parts
            .entry(format_of(format.0, format.1))
            .or_default()
            .0
            .entry((band_of_row(band), year))
            .or_default()
            .absorb(c);
    }
    for (((band, bin), ratings, format), games) in gap {
        let part = out
            .rating_gap
            .parts
            .entry(format_of(format.0, format.1))
            .or_default();
        let p = proportion(games);
        part.cells
            .entry((Band::Rated(band.max(0) as u16), bin.max(0) as usize))
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
        let system = RatingSystem::of_ratings(ratings.and_then(Ratings::from_name));
        *part.systems.entry(system).or_insert(0) += p.n;
    }
    for ((class, band), games) in time_classes {
        let class = class.unwrap_or("?").to_string();
        let p = proportion(games);
        let by_class = &mut out.time_classes;
        by_class
            .by_class
            .entry(class.clone())
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
        by_class
            .by_class_band
            .entry((class, band_of_row(band)))
            .or_insert(Proportion::new(0, 0))
            .absorb(p);
    }
    for ((play, class, year), games) in by_play {
        let Some(kind) = play.and_then(Play::from_name) else {
            continue;
        };
        out.format
            .by_play
            .entry((kind, class.unwrap_or("?").to_string(), year))
            .or_insert(Proportion::new(0, 0))
            .absorb(proportion(games));
    }
    for ((class, kind), n) in draw_types {
        *out.format
            .draw_types_by_class
            .entry((class.unwrap_or("?").to_string(), kind.to_string()))
            .or_insert(0) += n;
    }
    for ((moves, format), n) in lengths {
        let part = out
            .format
            .lengths
            .parts
            .entry(format_of(format.0, format.1))
            .or_default();
        if let Some(m) = moves {
            *part.entry(m).or_insert(0) += n;
        }
    }
    Ok(out)
}

/// The counts made in Rust by their own modules, each beside its query:
/// the openings, the format audit, the audit with its examples, the
/// plus-remise decisions, and the collection and its evidence bands.
pub(super) struct Tallied {
    pub openings: ByFormat<OpeningCounts>,
    pub format_audit: FormatAudit,
    pub audit: Audit,
    pub plus_remise_draws: BTreeMap<(String, u8), u64>,
    pub collection: ByFormat<CollectedCounts>,
    pub evidence_bands: ByFormat<EvidenceBands>,
}

/// Counts the used rows of a batch (as [`count`]) for [`Tallied`].
pub(super) fn tally(used: &DataFrame) -> Result<Tallied> {
    Ok(Tallied {
        openings: games::openings_used(used)?,
        format_audit: format_audit::count_used(used)?,
        audit: audit::count_used(used)?,
        plus_remise_draws: scoring::plus_remise_used(used)?,
        collection: collection::count_used(used)?,
        evidence_bands: collection::evidence_used(used)?,
    })
}

/// The queries of [`Tallied`]'s counts, in a batch: the reference path.
pub(super) struct TallyTickets {
    pub eco: Ticket,
    pub opening: Ticket,
    pub format_audit: Ticket,
    pub audit_counts: Ticket,
    /// In the order of [`audit::example_queries`].
    pub audit_examples: Vec<Ticket>,
    pub plus_remise: Ticket,
    pub collection: Ticket,
    pub evidence: Ticket,
}

impl TallyTickets {
    /// Adds the queries of the used rows `used` to a batch.
    pub fn add(batch: &mut Batch, used: &LazyFrame) -> TallyTickets {
        TallyTickets {
            eco: batch.add(games::opening_query(used.clone(), Column::Eco)),
            opening: batch.add(games::opening_query(used.clone(), Column::Opening)),
            format_audit: batch.add(format_audit::query(used.clone())),
            audit_counts: batch.add(audit::counts_query(used.clone())),
            audit_examples: audit::example_queries(used.clone())
                .into_iter()
                .map(|q| batch.add(q))
                .collect(),
            plus_remise: batch.add(scoring::plus_remise_query(used.clone())),
            collection: batch.add(collection::query(used.clone())),
            evidence: batch.add(collection::evidence_query(used.clone())),
        }
    }

    /// The counts from the queries' results.
    pub fn read(&self, results: &Results) -> Result<Tallied> {
        let examples: Vec<&DataFrame> = self
            .audit_examples
            .iter()
            .map(|&t| results.get(t))
            .collect();
        Ok(Tallied {
            openings: games::openings_from(results.get(self.eco), results.get(self.opening))?,
            format_audit: format_audit::audit_from(results.get(self.format_audit))?,
            audit: audit::audit_from(results.get(self.audit_counts), &examples)?,
            plus_remise_draws: scoring::plus_remise_from(results.get(self.plus_remise))?,
            collection: collection::counts_from(results.get(self.collection))?,
            evidence_bands: collection::evidence_from(results.get(self.evidence))?,
        })
    }
}
