//! Rule studies: events played under rules against short draws ("Sofia
//! rules", no draw offers before move N, 3-1-0 scoring, armageddon) against
//! comparable events without them, from a sourced catalogue
//! (`data/events.toml`).
//!
//! Each estimate is a difference in shares of games, rule minus control,
//! for every rule pooled and for each regime apart (`estimate`):
//!
//! - **raw**: rule editions against control editions;
//! - **adjusted**: against control editions matched on years (±
//!   [`MATCH_YEARS`]) and mean rating (± [`MATCH_RATING`]), the
//!   Mantel–Haenszel risk difference over cells of both players' ratings
//!   (the mean's hundred and the gap, [`RatingCell`]);
//! - **within pairs**: the same, with pairs of players as strata: the
//!   players who met both under the rule and in control editions;
//!
//! with 95 % intervals from a wild cluster bootstrap by event edition
//! ([`wild`]): games of one edition share players, conditions and rules,
//! and the editions are few. For every series that changed its rules, the
//! difference in differences (its change between editions with and
//! without the rule, minus the controls' change over the same years; raw
//! and adjusted by rating cell) with a bootstrap of editions, and a
//! pre-trend placebo. [`published`] sets published figures beside ours.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use polars::prelude::*;

use super::merge::{Merge, pairs};
use super::table::{BASIS_ELO, IS_DRAW};
use crate::study::events::{EventCatalogue, EventType, Regime};
use crate::study::{EventPatterns, Proportion};
use remis_core::rng::Rng;
use remis_table::schema::Column;
use remis_table::schema::{DrawType, Ending};

mod counts;
pub use counts::*;

pub mod estimate;
use estimate::*;
pub use estimate::{MATCH_RATING, MATCH_YEARS, MeasureEstimate, RegimeEstimate};

pub mod absorb;
pub mod inference;
pub mod model;
pub mod model_coverage;
pub mod pair_model;
pub mod published;
pub mod wild;

/// Counts over a group of games.
#[derive(Copy, Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GroupStats {
    pub games: u64,
    pub draws: u64,
    pub agreed: u64,
    /// Draws within each of the two short-draw limits.
    pub short: [u64; 2],
    /// The moves of drawn games, summed and summed as squares (whole
    /// numbers: exact in any order).
    draw_moves_sum: u64,
    draw_moves_squares: u64,
    /// Draws by draw type, in `DrawType::ALL` order.
    pub draw_types: [u64; DrawType::ALL.len()],
    /// Games whose players both have plausible ratings, and the sum of
    /// their mean ratings: the mean rating of a group, for matching.
    #[serde(default)]
    pub rated: u64,
    #[serde(default)]
    pub rating_sum: u64,
    /// Agreed draws within each of the two short-draw limits: under a rule
    /// against early offers, the games that contradict it.
    #[serde(default)]
    pub short_agreed: [u64; 2],
}

/// The column of the rule study's query that holds a game's
/// [`RatingCell`] code.
const CELL: &str = "rating_cell";

/// Both players' ratings as one stratum of the adjustment: the mean
/// rating's hundred and the gap between the two ratings in bins, so that
/// games compared within a cell are alike in strength and in mismatch.
#[derive(
    Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd, serde::Serialize, serde::Deserialize,
)]
pub enum RatingCell {
    /// A player unrated, or a rating implausible for its system and year.
    Unrated,
    Rated {
        /// The mean rating, rounded down to a hundred (2600 for 2600-2699).
        mean: u16,
        /// The gap's bin: below 50, 50-99, 100-199, 200-399, 400 or more.
        gap: u8,
    },
}

impl RatingCell {
    /// Upper edges (exclusive) of the gap bins; the last bin is open.
    pub const GAP_EDGES: [i32; 4] = [50, 100, 200, 400];
    const GAP_BINS: i32 = Self::GAP_EDGES.len() as i32 + 1;

    /// The cell of a query's code (`mean / 100 * 5 + gap bin`; negative or
    /// null: unrated).
    pub fn from_code(code: Option<i32>) -> RatingCell {
        match code {
            Some(c) if c >= 0 => RatingCell::Rated {
                mean: (c / Self::GAP_BINS * 100) as u16,
                gap: (c % Self::GAP_BINS) as u8,
            },
            _ => RatingCell::Unrated,
        }
    }

    /// The cell of two ratings, as the query computes it.
    pub fn of(white: u16, black: u16) -> RatingCell {
        let mean = (i32::from(white) + i32::from(black)) / 2;
        let gap = (i32::from(white) - i32::from(black)).abs();
        let bin = Self::GAP_EDGES.iter().take_while(|&&e| gap >= e).count() as i32;
        Self::from_code(Some(mean / 100 * Self::GAP_BINS + bin))
    }
}

impl Merge for GroupStats {
    fn absorb(&mut self, o: GroupStats) {
        self.add(&o);
    }
}

impl GroupStats {
    fn add(&mut self, o: &GroupStats) {
        self.games += o.games;
        self.draws += o.draws;
        self.agreed += o.agreed;
        for (a, b) in self.short.iter_mut().zip(o.short) {
            *a += b;
        }
        self.draw_moves_sum += o.draw_moves_sum;
        self.draw_moves_squares += o.draw_moves_squares;
        for (a, b) in self.draw_types.iter_mut().zip(o.draw_types) {
            *a += b;
        }
        self.rated += o.rated;
        self.rating_sum += o.rating_sum;
        for (a, b) in self.short_agreed.iter_mut().zip(o.short_agreed) {
            *a += b;
        }
    }

    /// The mean of the games' mean ratings, over the rated games.
    pub fn mean_rating(&self) -> Option<f64> {
        (self.rated > 0).then(|| self.rating_sum as f64 / self.rated as f64)
    }

    pub fn draw_rate(&self) -> Proportion {
        Proportion::new(self.draws, self.games)
    }

    /// The share of one measure, of all games.
    pub fn share(&self, measure: Measure) -> Proportion {
        let k = match measure {
            Measure::Draws => self.draws,
            Measure::Agreed => self.agreed,
            Measure::ShortDraws(i) => self.short[i],
        };
        Proportion::new(k, self.games)
    }

    /// A draw type's share of the drawn games.
    pub fn draw_type_share(&self, kind: DrawType) -> Proportion {
        let i = DrawType::ALL.iter().position(|&k| k == kind).unwrap_or(0);
        Proportion::new(self.draw_types[i], self.draws)
    }

    /// Mean length of drawn games with a normal 95% interval.
    pub fn mean_draw_moves(&self) -> Option<(f64, f64, f64)> {
        let n = self.draws as f64;
        if self.draws < 2 {
            return None;
        }
        let mean = self.draw_moves_sum as f64 / n;
        let variance = (self.draw_moves_squares as f64 - n * mean * mean) / (n - 1.0);
        let half = 1.96 * (variance.max(0.0) / n).sqrt();
        Some((mean, mean - half, mean + half))
    }
}

/// A pairing's games and the counts of each [`Measure`], in the order
/// games, draws, agreed, short draws (first and second limit).
pub type PairingStats = [u64; 5];

impl Measure {
    /// Where the measure is counted in [`PairingStats`].
    fn pairing_index(self) -> usize {
        match self {
            Measure::Draws => 1,
            Measure::Agreed => 2,
            Measure::ShortDraws(i) => 3 + i,
        }
    }
}

/// What an estimate compares: a share of all games.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, serde::Serialize)]
pub enum Measure {
    Draws,
    Agreed,
    /// Draws within the first or second short-draw limit.
    ShortDraws(usize),
}

impl Measure {
    pub fn all() -> [Measure; 4] {
        [
            Measure::Draws,
            Measure::Agreed,
            Measure::ShortDraws(0),
            Measure::ShortDraws(1),
        ]
    }

    pub fn label(self, limits: [u32; 2]) -> String {
        match self {
            Measure::Draws => "Draw rate".into(),
            Measure::Agreed => "Agreed draws".into(),
            Measure::ShortDraws(i) => format!("Draws ≤ {} moves", limits[i]),
        }
    }
}

/// The fewest early agreed draws that flag an edition's coding
/// ([`Edition::contradicts_coding`]).
pub const CONTRADICTION_MIN_GAMES: u64 = 3;

/// One edition of an event (a series in one year) under one regime.
#[derive(Clone, Debug, PartialEq)]
pub struct Edition {
    pub series: String,
    pub year: i16,
    pub regime: Regime,
    /// Played with 3-1-0 ("football") scoring, under whatever regime.
    pub three_one_zero: bool,
    /// Where and how fast most of its games were played ("over-the-board
    /// classical"): controls are matched on it.
    pub format: String,
    pub total: GroupStats,
    pub by_cell: BTreeMap<RatingCell, GroupStats>,
    /// Games by the two players' identities (`Aliases::player_key`, in order).
    pub pairs: BTreeMap<(String, String), PairingStats>,
    /// Distinct `Round` values and players seen, and the highest round
    /// number: for judging how much of the event the data hold.
    pub rounds_seen: u32,
    pub last_round: u32,
    pub players: u32,
    /// The catalogue infers this edition's regime (a control whose source
    /// shows only that no rule applied) rather than stating it.
    pub inferred: bool,
    /// Round robin, Swiss, team, match or knock-out: from the catalogue
    /// where it says (`kind_stated`), else from the games
    /// ([`EventType::from_games`]). Controls are matched on it.
    pub event_type: EventType,
    pub kind_stated: bool,
    /// The tournaments the edition holds: one, or several where a series'
    /// year pools them (the legs of a Grand Prix, an Olympiad's open and
    /// women's sections), each with its own size if complete.
    pub tournaments: Vec<Tournament>,
    /// The games of its last round by rating cell, with the measures'
    /// counts (in [`PairingStats`] order): the model's last-round term.
    pub last_round_cells: BTreeMap<RatingCell, PairingStats>,
}

/// One tournament of an edition: the event names its games are recorded
/// under, and what it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    pub names: Vec<String>,
    pub games: u64,
    /// Distinct players seen, and the highest round number.
    pub players: u32,
    pub last_round: u32,
}

impl Tournament {
    /// Half the players times the last round: its games if complete.
    pub fn expected_games(&self) -> u64 {
        u64::from(self.players / 2) * u64::from(self.last_round)
    }
}

impl Edition {
    /// Agreed draws within the first short-draw limit (20 moves by
    /// default) of an edition coded with a rule against early offers (no
    /// offers at all, or none before a move), when there are too many to be
    /// slips of the record: at least [`CONTRADICTION_MIN_GAMES`] and 5 % of
    /// its games. Then the games contradict the catalogue's coding (the 2015
    /// European Individual Championship, coded "no offers before move 40",
    /// holds 13 agreed draws before move 20), and the edition is flagged.
    pub fn contradicts_coding(&self) -> Option<u64> {
        let coded = self.regime.restricts_offers();
        let agreed = self.total.short_agreed[0];
        (coded && agreed >= CONTRADICTION_MIN_GAMES && agreed * 20 >= self.total.games)
            .then_some(agreed)
    }

    /// The games a complete event would have if every player seen met in
    /// every round up to the last: half the players times the rounds. Right
    /// for round robins; for Swiss and team events the data hold only some
    /// players, so this is a lower bound of the event's size.
    /// Summed over its tournaments when they are known.
    pub fn expected_games(&self) -> u64 {
        if self.tournaments.is_empty() {
            u64::from(self.players / 2) * u64::from(self.last_round)
        } else {
            self.tournaments
                .iter()
                .map(Tournament::expected_games)
                .sum()
        }
    }

    /// Games between two players who met more than once in the edition.
    pub fn repeated_pair_games(&self) -> u64 {
        self.pairs.values().map(|p| p[0]).filter(|g| *g >= 2).sum()
    }
}

/// A difference of shares with its 95 % interval from the restricted wild
/// cluster bootstrap ([`inference`]), or the reason it has none: a group
/// with a single edition, an unbounded test, or fewer editions in its
/// smallest group than the coverage simulation supports.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Effect {
    pub estimate: f64,
    pub interval: Option<(f64, f64)>,
    pub withheld: Option<inference::Withheld>,
    /// The fewest editions in any group the estimate compares.
    pub smallest_group: usize,
}

impl Effect {
    /// Withhold the interval when the smallest group has fewer editions
    /// than the coverage simulation supports.
    pub fn withhold_below(&mut self, minimum: Option<usize>) {
        if self.interval.is_some() && minimum.is_none_or(|m| self.smallest_group < m) {
            self.interval = None;
            self.withheld = Some(inference::Withheld::TooFewEditions {
                editions: self.smallest_group,
                minimum,
            });
        }
    }
}

/// A series that changed its rules.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesChange {
    pub series: String,
    /// The rules of its editions with a rule (one or more regimes).
    pub regimes: Vec<Regime>,
    pub before_years: Vec<i16>,
    pub after_years: Vec<i16>,
    pub before: GroupStats,
    pub after: GroupStats,
    pub control_before: GroupStats,
    pub control_after: GroupStats,
    /// Editions in each group: after, before, control after, control before.
    pub editions: [usize; 4],
    /// By measure: the raw and the rating-cell-adjusted difference in
    /// differences.
    pub effects: Vec<(Measure, Effect, Option<Effect>)>,
    /// A placebo before the change: the later half of the editions
    /// without the rule against the earlier half, less the controls'
    /// change over the same years (raw). A series whose rates were already
    /// moving shows it here; empty with fewer than two years before.
    pub pre_trend: Vec<(Measure, Effect)>,
    /// Years of the placebo: the earlier and the later editions.
    pub pre_trend_years: (Vec<i16>, Vec<i16>),
}

impl SeriesChange {
    /// Whether the pre-trend placebo of a measure fails: its interval
    /// excludes zero, so the series' rates were already moving before the
    /// change (regression to the mean after unusual editions, a trend),
    /// and its difference in differences is no evidence of the rule.
    pub fn placebo_fails(&self, m: Measure) -> bool {
        self.pre_trend
            .iter()
            .find(|(pm, _)| *pm == m)
            .and_then(|(_, e)| e.interval)
            .is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0)
    }

    /// Its editions' rules, as one label: "No draw offers (Sofia rules);
    /// 3-1-0 scoring only".
    pub fn rules_label(&self) -> String {
        self.regimes
            .iter()
            .map(|r| r.label())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

#[derive(Clone, Debug, Default)]
pub struct RuleStudy {
    pub editions: Vec<Edition>,
    /// Games by regime.
    pub regimes: BTreeMap<Regime, GroupStats>,
    /// Rule editions against control editions: every rule pooled first,
    /// then each regime on its own (Sofia rules apart from move limits and
    /// scoring).
    pub estimates: Vec<RegimeEstimate>,
    /// Published figures on events these tables hold, beside ours.
    pub published: Vec<published::Comparison>,
    pub changes: Vec<SeriesChange>,
    /// Games of matching events left out because the event name says rapid,
    /// blitz, blindfold or simul.
    pub fast_games_left_out: u64,
    /// The short-draw limits the measures use.
    pub short_limits: [u32; 2],
    /// The draw rate's 95 % interval of each regime clustered by player
    /// (`None` with too few players), and of all rule editions together.
    pub by_player: BTreeMap<Regime, Option<(f64, f64)>>,
    pub rule_by_player: Option<(f64, f64)>,
    /// The coverage simulation at the data's edition counts, and the
    /// fewest editions in a smallest group from which intervals are shown.
    pub calibration: inference::coverage::Calibration,
    /// The primary estimate: each regime's effect from the model
    /// ([`model`]), the stratified estimates above being its checks.
    pub model: Option<model::ModelEstimates>,
    /// The same effects from a model with pair effects ([`pair_model`]),
    /// beside the primary estimate.
    pub pair_model: Option<pair_model::PairModel>,
    /// The primary model's own coverage simulation ([`model_coverage`]),
    /// which sets the fewest identifying editions from which its
    /// intervals are shown (the pair-effects model and the checks keep
    /// the raw designs' minimum, `calibration`).
    pub model_coverage: Option<model_coverage::ModelCoverage>,
}

impl RuleStudy {
    /// No game of the catalogue's events is in the tables.
    pub fn is_empty(&self) -> bool {
        self.editions.is_empty()
    }

    /// All games under some rule.
    pub fn rule_games(&self) -> GroupStats {
        let mut g = GroupStats::default();
        for (regime, s) in &self.regimes {
            if regime.restricts() {
                g.add(s);
            }
        }
        g
    }
}

/// Bootstrap replicates for every interval; seeded, so a study always
/// gives the same numbers.
pub const BOOTSTRAP_REPLICATES: usize = 1000;
pub const SEED: u64 = 2005; // the year of the first Sofia rules

/// An event, site and year.
type EventKey = (String, Option<String>, i16);

/// What the rule study counts: the used games of every event the
/// catalogue names, by event, site, year and band, and the rounds and
/// players seen in each. Which rules apply is decided when the study is
/// made, from the names.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RuleStudyCounts {
    #[serde(with = "pairs")]
    pub groups: BTreeMap<(String, Option<String>, i16, RatingCell), GroupStats>,
    /// Round numbers (the part of the `Round` tag before any dot: "3.1"
    /// is board 1 of round 3).
    #[serde(with = "pairs")]
    pub rounds: BTreeMap<EventKey, BTreeSet<u32>>,
    /// Games and the measures' counts by round number and rating cell: an
    /// edition's last round, for the model.
    #[serde(with = "pairs", default)]
    pub by_round: BTreeMap<(EventKey, u32, RatingCell), PairingStats>,
    /// Games by pairing (White's and Black's names as written): the
    /// players seen, each player's games and draws (for intervals
    /// clustered by player), and who met whom under which rules.
    #[serde(with = "pairs")]
    pub pairings: BTreeMap<(EventKey, String, String), PairingStats>,
    /// Games by format ("over-the-board classical"): the table's `play`
    /// and `speed`.
    #[serde(with = "pairs")]
    pub formats: BTreeMap<(EventKey, String), u64>,
}

impl Merge for RuleStudyCounts {
    fn absorb(&mut self, other: RuleStudyCounts) {
        self.groups.absorb(other.groups);
        self.rounds.absorb(other.rounds);
        self.by_round.absorb(other.by_round);
        self.pairings.absorb(other.pairings);
        self.formats.absorb(other.formats);
    }
}

/// The study from its counts.
pub fn rule_study(
    counts: &RuleStudyCounts,
    catalogue: &EventCatalogue,
    patterns: &EventPatterns,
    short_limits: [u32; 2],
    aliases: &remis_table::players::Aliases,
) -> RuleStudy {
    let mut study = RuleStudy {
        short_limits,
        ..RuleStudy::default()
    };
    let mut editions: BTreeMap<(String, i16, Regime), Edition> = BTreeMap::new();
    // Each event spelling's edition, for its rounds and pairings.
    let mut edition_of: BTreeMap<EventKey, (String, i16, Regime)> = BTreeMap::new();
    let mut spelling_games: BTreeMap<EventKey, u64> = BTreeMap::new();
    for ((event, site, year, cell), stats) in &counts.groups {
        let Some(rules) = catalogue.rules(event, site.as_deref(), Some(*year)) else {
            continue;
        };
        if patterns.kind(event, Some(*year)).is_some() {
            study.fast_games_left_out += stats.games;
            continue;
        }
        let key = (rules.series.clone(), *year, rules.regime);
        let edition = editions.entry(key.clone()).or_insert_with(|| Edition {
            series: rules.series.clone(),
            year: *year,
            regime: rules.regime,
            three_one_zero: rules.scoring == "3-1-0",
            format: String::new(),
            total: GroupStats::default(),
            by_cell: BTreeMap::new(),
            pairs: BTreeMap::new(),
            rounds_seen: 0,
            last_round: 0,
            players: 0,
            inferred: false,
            event_type: EventType::RoundRobin,
            kind_stated: false,
            tournaments: Vec::new(),
            last_round_cells: BTreeMap::new(),
        });
        edition.inferred |= !rules.confirmed;
        if let Some(kind) = rules.kind {
            edition.event_type = kind;
            edition.kind_stated = true;
        }
        edition.total.add(stats);
        edition.by_cell.entry(*cell).or_default().add(stats);
        *spelling_games
            .entry((event.clone(), site.clone(), *year))
            .or_insert(0) += stats.games;
        edition_of.insert((event.clone(), site.clone(), *year), key);
    }
    // Spellings of one edition share its games: the most players any
    // spelling shows, and the rounds all of them show.
    let mut rounds: BTreeMap<&(String, i16, Regime), BTreeSet<u32>> = BTreeMap::new();
    for (event_key, seen) in &counts.rounds {
        if let Some(key) = edition_of.get(event_key) {
            rounds.entry(key).or_default().extend(seen);
        }
    }
    // Players seen with White and with Black, and each player's games and
    // draws, by spelling of the event.
    let mut seen: BTreeMap<&EventKey, [BTreeSet<&str>; 2]> = BTreeMap::new();
    let mut player_games: BTreeMap<Regime, BTreeMap<&str, Proportion>> = BTreeMap::new();
    for ((event_key, white, black), stats) in &counts.pairings {
        let Some(key) = edition_of.get(event_key) else {
            continue;
        };
        let sides = seen.entry(event_key).or_default();
        sides[0].insert(white);
        sides[1].insert(black);
        let games = player_games.entry(key.2).or_default();
        for name in [white, black] {
            games
                .entry(name)
                .or_default()
                .absorb(Proportion::new(stats[1], stats[0]));
        }
        let identity = |name: &str| {
            aliases
                .player_key(name)
                .unwrap_or_else(|| name.trim().to_string())
        };
        let (a, b) = (identity(white), identity(black));
        let pair = if a <= b { (a, b) } else { (b, a) };
        if let Some(edition) = editions.get_mut(key) {
            edition.pairs.entry(pair).or_default().absorb(*stats);
        }
    }
    for (event_key, [white, black]) in &seen {
        if let Some(edition) = edition_of.get(*event_key).and_then(|k| editions.get_mut(k)) {
            edition.players = edition.players.max(white.len().max(black.len()) as u32);
        }
    }
    // Each edition's tournaments, from its spellings.
    let mut spellings: BTreeMap<&(String, i16, Regime), Vec<&EventKey>> = BTreeMap::new();
    for (event_key, key) in &edition_of {
        spellings.entry(key).or_default().push(event_key);
    }
    for (key, keys) in spellings {
        if let Some(edition) = editions.get_mut(key) {
            edition.tournaments = tournaments(&keys, &spelling_games, &counts.rounds, &seen);
        }
    }
    // The last round's games by cell, once each edition's last round is
    // known (the highest round of any of its spellings).
    let mut last_round: BTreeMap<&(String, i16, Regime), u32> = BTreeMap::new();
    for (key, seen) in &rounds {
        last_round.insert(key, seen.last().copied().unwrap_or(0));
    }
    for ((event_key, round, cell), stats) in &counts.by_round {
        let Some(key) = edition_of.get(event_key) else {
            continue;
        };
        if last_round.get(key) == Some(round)
            && let Some(edition) = editions.get_mut(key)
        {
            edition
                .last_round_cells
                .entry(*cell)
                .or_default()
                .absorb(*stats);
        }
    }
    let mut formats: BTreeMap<&(String, i16, Regime), BTreeMap<&str, u64>> = BTreeMap::new();
    for ((event_key, format), n) in &counts.formats {
        if let Some(key) = edition_of.get(event_key) {
            *formats.entry(key).or_default().entry(format).or_insert(0) += n;
        }
    }
    for (key, edition) in &mut editions {
        if let Some(by_format) = formats.get(key) {
            // The most games; of equal counts, the first by name.
            let most = by_format.values().max().copied().unwrap_or(0);
            edition.format = by_format
                .iter()
                .find(|(_, n)| **n == most)
                .map_or(String::new(), |(f, _)| f.to_string());
        }
        if let Some(seen) = rounds.get(key) {
            edition.rounds_seen = seen.len() as u32;
            edition.last_round = seen.last().copied().unwrap_or(0);
        }
        if !edition.kind_stated {
            edition.event_type = EventType::from_games(
                edition.players,
                edition.last_round,
                edition.total.games,
                edition.repeated_pair_games(),
            );
        }
    }
    study.editions = editions.into_values().collect();
    for e in &study.editions {
        study.regimes.entry(e.regime).or_default().add(&e.total);
    }
    let mut rng = Rng::new(SEED);
    study.estimates = estimates(&study.editions, &mut rng);
    study.changes = series_changes(&study.editions, &mut rng);
    study.calibration = calibrate(&study.editions, &study.estimates, &study.changes);
    let minimum = study.calibration.minimum;
    study.model = model::fit(&study.editions, &mut rng);
    // A stream of its own, so that adding this fit moved no other figure.
    study.pair_model = pair_model::fit(&study.editions, &mut Rng::new(SEED + 49));
    // The model's own minimum, from a stream of its own too; without a
    // regime it could simulate (none identified by two editions or more),
    // no count is supported.
    study.model_coverage = study
        .model
        .as_ref()
        .and_then(|m| model_coverage::simulate(&study.editions, m, model_coverage::SEED));
    let model_minimum = study.model_coverage.as_ref().and_then(|c| c.minimum);
    // Below the minimum the bootstrap's p-values are no surer than its
    // intervals: both withheld.
    for (row, minimum) in study
        .model
        .iter_mut()
        .flat_map(|m| m.rows.iter_mut())
        .map(|r| (r, model_minimum))
        .chain(
            study
                .pair_model
                .iter_mut()
                .flat_map(|m| m.rows.iter_mut())
                .map(|r| (r, minimum)),
        )
    {
        row.effect.withhold_below(minimum);
        if matches!(
            row.effect.withheld,
            Some(inference::Withheld::TooFewEditions { .. })
        ) {
            row.p_value = None;
            row.holm_p_value = None;
        }
    }
    for e in &mut study.estimates {
        for m in &mut e.measures {
            for s in [&mut m.raw, &mut m.adjusted, &mut m.within_pair]
                .into_iter()
                .flatten()
            {
                s.effect.withhold_below(minimum);
            }
        }
    }
    for c in &mut study.changes {
        for (_, raw, adjusted) in &mut c.effects {
            raw.withhold_below(minimum);
            if let Some(a) = adjusted {
                a.withhold_below(minimum);
            }
        }
    }
    study.published = published::comparisons(&study.editions, &mut rng);
    let players_of = |regimes: &mut dyn Iterator<Item = &Regime>| {
        let mut by_name: BTreeMap<&str, Proportion> = BTreeMap::new();
        for regime in regimes {
            for (name, p) in player_games.get(regime).into_iter().flatten() {
                by_name.entry(name).or_default().absorb(*p);
            }
        }
        by_name.into_values().collect::<Vec<_>>()
    };
    for (regime, games) in &study.regimes {
        let players = players_of(&mut std::iter::once(regime));
        let overall = Proportion::new(games.draws, games.games);
        study
            .by_player
            .insert(*regime, super::players::clustered(&players, overall).0);
    }
    let rule_players = players_of(&mut study.regimes.keys().filter(|r| r.restricts()));
    let rule = study.rule_games();
    study.rule_by_player =
        super::players::clustered(&rule_players, Proportion::new(rule.draws, rule.games)).0;
    study
}

/// An edition's tournaments from the spellings of its event (name, site):
/// spellings of one name are one tournament (the same event recorded at
/// two sites, as the 2012 Bilbao Final Masters' São Paulo and Bilbao
/// halves); names whose rounds overlap are different tournaments (a player
/// plays one game a round: the Grand Prix's legs, an Olympiad's sections),
/// names whose rounds do not are parts of one (the 2006 European Club Cup's
/// first round under another name).
fn tournaments(
    spellings: &[&EventKey],
    games: &BTreeMap<EventKey, u64>,
    rounds: &BTreeMap<EventKey, BTreeSet<u32>>,
    seen: &BTreeMap<&EventKey, [BTreeSet<&str>; 2]>,
) -> Vec<Tournament> {
    struct Part<'a> {
        names: BTreeSet<String>,
        games: u64,
        rounds: BTreeSet<u32>,
        players: BTreeSet<&'a str>,
    }
    let normal = |name: &str| {
        name.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let mut by_name: BTreeMap<String, Part> = BTreeMap::new();
    for key in spellings {
        let part = by_name.entry(normal(&key.0)).or_insert_with(|| Part {
            names: BTreeSet::new(),
            games: 0,
            rounds: BTreeSet::new(),
            players: BTreeSet::new(),
        });
        part.names.insert(key.0.clone());
        part.games += games.get(*key).copied().unwrap_or(0);
        part.rounds.extend(rounds.get(*key).into_iter().flatten());
        if let Some([white, black]) = seen.get(*key) {
            part.players.extend(white.iter().chain(black));
        }
    }
    // The largest first; each further name joins the first tournament
    // whose rounds it does not share.
    let mut parts: Vec<Part> = by_name.into_values().collect();
    parts.sort_by(|a, b| b.games.cmp(&a.games).then(a.names.cmp(&b.names)));
    let mut out: Vec<Part> = Vec::new();
    for part in parts {
        match out.iter_mut().find(|t| t.rounds.is_disjoint(&part.rounds)) {
            Some(t) => {
                t.names.extend(part.names);
                t.games += part.games;
                t.rounds.extend(part.rounds);
                t.players.extend(part.players);
            }
            None => out.push(part),
        }
    }
    out.into_iter()
        .map(|t| Tournament {
            names: t.names.into_iter().collect(),
            games: t.games,
            players: t.players.len() as u32,
            last_round: t.rounds.last().copied().unwrap_or(0),
        })
        .collect()
}

/// The designs of the study's comparisons, raw, at the data's edition
/// counts and sizes: each regime's rule editions against the controls, and
/// each series' four groups; simulated by [`inference::coverage`].
fn calibrate(
    editions: &[Edition],
    estimates: &[RegimeEstimate],
    changes: &[SeriesChange],
) -> inference::coverage::Calibration {
    use inference::coverage::Design;
    let mut designs = Vec::new();
    for e in estimates {
        let in_rule =
            |ed: &Edition| ed.regime.restricts() && e.regime.is_none_or(|r| ed.regime == r);
        designs.push(Design {
            editions: editions
                .iter()
                .filter(|ed| in_rule(ed) || !ed.regime.restricts())
                .map(|ed| (usize::from(!in_rule(ed)), ed.total.games))
                .collect(),
            coefficient: vec![1.0, -1.0],
        });
    }
    for c in changes {
        let groups = c.groups(editions);
        designs.push(Design {
            editions: groups
                .iter()
                .enumerate()
                .flat_map(|(g, eds)| eds.iter().map(move |e| (g, e.total.games)))
                .collect(),
            coefficient: vec![1.0, -1.0, -1.0, 1.0],
        });
    }
    inference::coverage::calibrate(&designs, SEED)
}

#[cfg(test)]
mod tests;
