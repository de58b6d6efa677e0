//! Alternative scoring: every used game's points under classical 1-½-0,
//! "football" 3-1-0, children's 3-2-1 and plus-remise, and the event
//! standings each system gives. A summary counts a batch's games per
//! event, standings and pairings in Rust (`build::standings`); the
//! queries here are the reference it is held to (issue 50).

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::crosstable::{self, Crosstable, PairingCounts};
use super::merge::{Merge, pairs};
#[cfg(test)]
use super::table::collect;
use super::table::names;
use remis_table::schema::Column;
use remis_table::schema::GameResult;

/// A scoring system.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
pub enum System {
    Classical,
    Football,
    Children,
    PlusRemise,
}

impl System {
    pub const ALL: [System; 4] = [
        System::Classical,
        System::Football,
        System::Children,
        System::PlusRemise,
    ];

    pub fn label(self) -> &'static str {
        match self {
            System::Classical => "classical 1-½-0",
            System::Football => "3-1-0",
            System::Children => "3-2-1",
            System::PlusRemise => "plus-remise",
        }
    }

    fn column(self) -> &'static str {
        match self {
            System::Classical => "classical",
            System::Football => "football",
            System::Children => "children",
            System::PlusRemise => "plus_remise",
        }
    }

    /// (win, draw, loss) points in whole units: classical in half points,
    /// so that sums are exact; plus-remise has no draws.
    pub(crate) const fn units(self) -> (u32, u32, u32) {
        match self {
            System::Classical => (2, 1, 0),
            System::Football => (3, 1, 0),
            System::Children => (3, 2, 1),
            System::PlusRemise => (1, 0, 0),
        }
    }

    /// Points of the player in `side` ([`Column::White`] or
    /// [`Column::Black`]) under this system, in the system's units.
    fn expr(self, side: Column) -> Expr {
        let (win, draw, loss) = self.units();
        let color = if side == Column::White {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        let won = GameResult::Win(color).as_str();
        // plus_remise_winner holds the winning colour's name.
        let color = color.fold_wb("white", "black");
        let drawn = Column::Result.col().eq(lit(GameResult::Draw.as_str()));
        let base = when(Column::Result.col().eq(lit(won)))
            .then(lit(win))
            .when(drawn.clone())
            .then(lit(draw))
            .otherwise(lit(loss));
        let points = match self {
            System::PlusRemise => when(drawn.and(Column::PlusRemiseWinner.col().eq(lit(color))))
                .then(lit(win))
                .otherwise(base),
            _ => base,
        };
        points.cast(DataType::UInt64)
    }
}

/// How a system changes an event's standings against classical scoring.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Events whose set of first-placed players differs.
    pub different_winner: u64,
    /// Of those, the events of three players or more (a two-player match's
    /// winner has more wins: 3-1-0 and 3-2-1 cannot change it).
    pub different_winner_multi: u64,
    /// Of those, the events whose players played unequal numbers of games
    /// (the only ones where 3-2-1 can differ from classical scoring).
    pub different_winner_unequal: u64,
    /// Sum over all players of |rank − classical rank|.
    pub places_moved: u64,
    /// A few events with a different winner.
    pub examples: Vec<WinnerChange>,
}

/// One event whose first place differs from classical scoring's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WinnerChange {
    pub event: String,
    pub year: Option<i16>,
    /// The players sharing first place, sorted: more than one is a tie.
    pub classical: Vec<String>,
    pub other: Vec<String>,
}

/// Plus-remise's three rules (docs/columns.md, `plus_remise_rule`) named.
pub fn rule_name(rule: u8) -> &'static str {
    match rule {
        1 => "more material",
        2 => "equal material, more when pawns count double",
        3 => "material equal either way",
        _ => "unknown rule",
    }
}

impl WinnerChange {
    /// The event's name, with its year unless the name already holds it.
    pub fn event_label(&self) -> String {
        match self.year {
            Some(year) if !self.event.contains(&year.to_string()) => {
                format!("{} {year}", self.event)
            }
            _ => self.event.clone(),
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct ScoringStudy {
    /// Events (by Event tag and year) whose standings were compared.
    pub events: u64,
    /// Events of more than [`STANDINGS_MAX_GAMES`] games, left out of the
    /// standings (lichess's "Rated Blitz game" and the like are not
    /// events), and their games.
    pub large_events: u64,
    pub large_event_games: u64,
    /// Events whose standings are partial (a player collection, an arena):
    /// left out, since ranking them would rank the data, not the event.
    pub incomplete_events: u64,
    /// Events left out of the standings to keep them within
    /// [`STANDINGS_KEPT`] entries, and their games.
    pub left_out_events: u64,
    pub left_out_games: u64,
    /// Events too small for a crosstable: fewer than
    /// [`CROSSTABLE_MIN_GAMES`] games, or a player with one game.
    pub small_events: u64,
    /// Events whose players have about the same number of games but whose
    /// pairings are neither a complete round robin nor every round of a
    /// Swiss event (see [`crosstable`]).
    pub unpaired_events: u64,
    /// The ranked events: complete round robins (matches among them) and
    /// Swiss events with every round's pairings.
    pub round_robins: u64,
    pub swiss: u64,
    /// Of the ranked events, the two-player matches: 3-1-0 and 3-2-1 rank
    /// a match as classical scoring does (wins decide it under all three).
    pub matches: u64,
    /// Of the ranked events, those whose players did not all play the same
    /// number of games: 3-2-1 gives a game 1 + 2 × its classical points, so
    /// with equal games it ranks as classical scoring does, and can differ
    /// only in these.
    pub unequal_games: u64,
    pub changes: BTreeMap<System, Changes>,
    /// Drawn games by plus-remise winner ("white"/"black") and rule (1-3).
    pub plus_remise_draws: BTreeMap<(String, u8), u64>,
}

/// Events with more games than this get no standings: they are pseudo-
/// events such as lichess's "Rated Blitz game", and their standings would
/// grow with the data. The largest real events (an Olympiad's open
/// section) have about 4,000 games a year.
pub const STANDINGS_MAX_GAMES: u64 = 10_000;

/// (event, player) entries of the standings kept at most, some 80 MiB
/// ([`EventStandings`]: about 36 bytes an entry):
/// past them, the events with the most players are left out of the
/// standings until half as many are kept, and stay out
/// ([`ScoringCounts::left_out`]). Below it the standings are exact; the
/// largest real collections here stay well under it (the master games:
/// see docs/performance.md), while a lichess month's arena tournaments,
/// each under [`STANDINGS_MAX_GAMES`] games, would pass it many times over.
pub const STANDINGS_KEPT: usize = 1 << 21;

type EventYear = (String, Option<i16>);

pub use super::standings::{EventStandings, Player, Points};

// Points are 16-bit: no player's points in an event of the standings pass them.
const _: () = {
    let mut i = 0;
    while i < System::ALL.len() {
        let (win, draw, loss) = System::ALL[i].units();
        let most = if win > draw { win } else { draw };
        let most = if most > loss { most } else { loss };
        assert!(STANDINGS_MAX_GAMES * most as u64 <= u16::MAX as u64);
        i += 1;
    }
};

/// Where a player's games are counted in [`Points`].
const GAMES: usize = 4;

/// What the scoring study counts: games per event, each player's points in
/// events small enough to rank, and the plus-remise decisions.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScoringCounts {
    #[serde(with = "pairs")]
    pub event_games: BTreeMap<EventYear, u64>,
    #[serde(with = "pairs")]
    pub standings: BTreeMap<EventYear, EventStandings>,
    #[serde(with = "pairs")]
    pub plus_remise_draws: BTreeMap<(String, u8), u64>,
    /// Pairings and rounds of the events whose standings look complete.
    pub pairings: PairingCounts,
    /// Events left out of the standings for [`STANDINGS_KEPT`]: never
    /// ranked, whatever games of theirs follow.
    #[serde(default)]
    pub left_out: std::collections::BTreeSet<EventYear>,
}

impl Merge for ScoringCounts {
    fn absorb(&mut self, other: ScoringCounts) {
        // Only the events `other` names can lose their standings: their
        // games grow, they are left out, or their standings come in.
        // Every other event's standings were kept by an earlier absorb (a
        // summary is absorbed into an empty one first, so all its events
        // are looked at once); looking at them all again each batch of
        // `classify` cost more than the rest of the scoring counts (the
        // master games).
        let kept = |key: &EventYear| {
            let games = match (self.event_games.get(key), other.event_games.get(key)) {
                (None, None) => return false,
                (a, b) => a
                    .copied()
                    .unwrap_or(0)
                    .saturating_add(b.copied().unwrap_or(0)),
            };
            games <= STANDINGS_MAX_GAMES
                && !self.left_out.contains(key)
                && !other.left_out.contains(key)
        };
        let gone: Vec<EventYear> = (other.event_games.keys())
            .chain(other.standings.keys())
            .chain(other.left_out.iter())
            .filter(|key| !kept(key))
            .cloned()
            .collect();
        self.event_games.absorb(other.event_games);
        self.left_out.absorb(other.left_out);
        self.standings.absorb(other.standings);
        self.pairings.absorb(other.pairings);
        for key in &gone {
            self.standings.remove(key);
        }
        self.plus_remise_draws.absorb(other.plus_remise_draws);
        self.keep_within(STANDINGS_KEPT);
    }
}

impl ScoringCounts {
    /// Keeps the standings within `entries` (event, player) entries: past
    /// them, leaves out the events with the most players (the least
    /// likely to be a complete crosstable: arenas, pools) until half as
    /// many are kept. Which events those are depends on the order the
    /// games come in, so past the bound a summary is no longer the same
    /// whatever its batches; the events left out are counted.
    pub fn keep_within(&mut self, entries: usize) {
        let mut kept: usize = self.standings.values().map(EventStandings::len).sum();
        if kept <= entries {
            return;
        }
        let mut by_size: Vec<(usize, EventYear)> = self
            .standings
            .iter()
            .map(|(key, players)| (players.len(), key.clone()))
            .collect();
        by_size.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (players, key) in by_size {
            if kept <= entries / 2 {
                break;
            }
            self.standings.remove(&key);
            self.left_out.insert(key);
            kept -= players;
        }
    }
}

fn with_event(used: LazyFrame) -> LazyFrame {
    used.filter(Column::Event.col().is_not_null())
}

fn event_year() -> [Expr; 2] {
    [Column::Event.col(), Column::Year.col()]
}

/// Used games per event and year.
pub fn event_games_query(used: LazyFrame) -> LazyFrame {
    with_event(used)
        .group_by(event_year())
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

/// Drawn games by plus-remise winner and rule.
pub fn plus_remise_query(used: LazyFrame) -> LazyFrame {
    with_event(used)
        .filter(
            Column::Result
                .col()
                .eq(lit(GameResult::Draw.as_str()))
                .and(Column::PlusRemiseWinner.col().is_not_null()),
        )
        .group_by([Column::PlusRemiseWinner.col(), Column::PlusRemiseRule.col()])
        .agg([len().cast(DataType::UInt64).alias(names::N)])
}

/// The plus-remise decisions of a frame of [`plus_remise_query`].
pub fn plus_remise_from(plus_remise: &DataFrame) -> Result<BTreeMap<(String, u8), u64>> {
    let (w, r, n) = (
        plus_remise.column(Column::PlusRemiseWinner.name())?.str()?,
        plus_remise.column(Column::PlusRemiseRule.name())?.u8()?,
        plus_remise.column(names::N)?.u64()?,
    );
    let mut out = BTreeMap::new();
    for i in 0..plus_remise.height() {
        *out.entry((w.get(i).unwrap_or("?").to_string(), r.get(i).unwrap_or(0)))
            .or_insert(0) += n.get(i).unwrap_or(0);
    }
    Ok(out)
}

/// [`plus_remise_from`] the [`plus_remise_query`], counted in Rust from a
/// batch's used rows: the drawn games of a named event that plus-remise
/// decides.
pub fn plus_remise_used(used: &DataFrame) -> Result<BTreeMap<(String, u8), u64>> {
    let column = |name: &str| used.column(name);
    let event = column(Column::Event.name())?.str()?;
    let result = column(Column::Result.name())?.str()?;
    let winner = column(Column::PlusRemiseWinner.name())?.str()?;
    let rule = column(Column::PlusRemiseRule.name())?.u8()?;
    let draw = GameResult::Draw.as_str();
    let mut groups: PlHashMap<(&str, Option<u8>), u64> = PlHashMap::new();
    let rows = event
        .iter()
        .zip(result.iter())
        .zip(winner.iter())
        .zip(rule.iter());
    for (((event, result), winner), rule) in rows {
        if let (Some(_), Some(winner)) = (event, winner.filter(|_| result == Some(draw))) {
            *groups.entry((winner, rule)).or_insert(0) += 1;
        }
    }
    let mut out = BTreeMap::new();
    for ((winner, rule), n) in groups {
        *out.entry((winner.to_string(), rule.unwrap_or(0)))
            .or_insert(0) += n;
    }
    Ok(out)
}

/// Every player's points in the events of at most
/// [`STANDINGS_MAX_GAMES`] games (`event_games`: the result of
/// [`event_games_query`]).
pub fn standings_query(used: LazyFrame, event_games: &DataFrame) -> LazyFrame {
    let used = with_event(used);
    let small = small_events(event_games);
    let side = |side: Column| {
        let mut columns = vec![
            Column::Event.col(),
            Column::Year.col(),
            side.col().fill_null(lit("?")).alias(names::PLAYER),
        ];
        columns.extend(System::ALL.map(|s| s.expr(side).alias(s.column())));
        used.clone().select(columns)
    };
    let mut semi = JoinArgs::new(JoinType::Semi);
    semi.nulls_equal = true;
    let sides = concat(
        [side(Column::White), side(Column::Black)],
        UnionArgs::default(),
    )
    .expect("two frames of the same columns concatenate");
    sides
        .join(small, event_year(), event_year(), semi)
        .group_by([Column::Event.col(), Column::Year.col(), col(names::PLAYER)])
        .agg(
            System::ALL
                .map(|s| col(s.column()).sum())
                .into_iter()
                .chain(std::iter::once(
                    len().cast(DataType::UInt64).alias(names::GAMES),
                ))
                .collect::<Vec<_>>(),
        )
}

/// The events of at most [`STANDINGS_MAX_GAMES`] games (`event_games`:
/// the result of [`event_games_query`]).
fn small_events(event_games: &DataFrame) -> LazyFrame {
    event_games
        .clone()
        .lazy()
        .filter(col(names::N).lt_eq(lit(STANDINGS_MAX_GAMES)))
        .select(event_year())
}

/// What [`pairings_query`] knows of an event's players before it groups
/// the pairings: the most and the fewest games of a player, the games of
/// all its sides, and its players.
const MOST: &str = "most";
const FEWEST: &str = "fewest";
const SIDES: &str = "sides";
const PLAYERS: &str = "players";

/// Games by pairing and round in the events of at most
/// [`STANDINGS_MAX_GAMES`] games, for the crosstable rule.
/// Only events whose standings look complete and large enough (as
/// `looks_complete` and `crosstable_sized` judge them) are grouped:
/// the others would cost a group of every game.
pub fn pairings_query(used: LazyFrame, event_games: &DataFrame) -> LazyFrame {
    let mut semi = JoinArgs::new(JoinType::Semi);
    semi.nulls_equal = true;
    let side = |side: Column| {
        used.clone().select([
            Column::Event.col(),
            Column::Year.col(),
            side.col().fill_null(lit("?")).alias(names::PLAYER),
        ])
    };
    let games = concat(
        [side(Column::White), side(Column::Black)],
        UnionArgs::default(),
    )
    .expect("two frames of the same columns concatenate")
    .join(small_events(event_games), event_year(), event_year(), semi)
    .group_by([Column::Event.col(), Column::Year.col(), col(names::PLAYER)])
    .agg([len().cast(DataType::UInt64).alias(names::GAMES)]);
    let candidates = games
        .group_by(event_year())
        .agg([
            col(names::GAMES).max().alias(MOST),
            col(names::GAMES).min().alias(FEWEST),
            col(names::GAMES).sum().alias(SIDES),
            len().alias(PLAYERS),
        ])
        .filter(
            (col(FEWEST) + lit(1u64))
                .gt_eq(col(MOST))
                .and(col(PLAYERS).gt_eq(lit(2u32)))
                .and(col(FEWEST).gt_eq(lit(2u64)))
                .and(col(SIDES).gt_eq(lit(2 * CROSSTABLE_MIN_GAMES))),
        )
        .select(event_year());
    crosstable::query(used, candidates)
}

/// The games of events as the pairings need them: the used rows with an
/// event, in the columns [`crosstable::query`] reads. A summary built
/// batch by batch by the queries (the reference) keeps these rows for
/// the events that are not (yet) large, and finds the crosstables among
/// them at the end ([`add_pairings`]), so that an event split between
/// batches is judged whole; counted in Rust, it keeps the same games
/// (`build::standings::KeptPairings`).
pub fn pairing_rows_query(used: LazyFrame) -> LazyFrame {
    with_event(used).select([
        Column::Event.col(),
        Column::Year.col(),
        Column::Round.col(),
        Column::White.col(),
        Column::Black.col(),
    ])
}

/// Events (by the event and year columns) as a frame.
fn events_frame<'a>(events: impl Iterator<Item = &'a EventYear>) -> Result<DataFrame> {
    let (names, years): (Vec<&str>, Vec<Option<i16>>) =
        events.map(|(e, y)| (e.as_str(), *y)).unzip();
    Ok(df! {
        Column::Event.name() => names,
        Column::Year.name() => years,
    }?)
}

/// The events of more than [`STANDINGS_MAX_GAMES`] games in
/// `event_games` (columns event, year): their rows need not be kept.
pub fn large_events_frame(event_games: &BTreeMap<EventYear, u64>) -> Result<Option<DataFrame>> {
    let mut large = event_games
        .iter()
        .filter(|&(_, &n)| n > STANDINGS_MAX_GAMES)
        .map(|(k, _)| k)
        .peekable();
    if large.peek().is_none() {
        return Ok(None);
    }
    events_frame(large).map(Some)
}

/// The events whose standings look like a complete crosstable's and are
/// large enough to rank: those whose pairings are counted.
pub fn candidates(counts: &ScoringCounts) -> std::collections::BTreeSet<EventYear> {
    counts
        .standings
        .iter()
        .filter(|(_, table)| {
            let players: Vec<(&Player, &Points)> = table.iter().collect();
            looks_complete(&players) && crosstable_sized(&players)
        })
        .map(|(key, _)| key.clone())
        .collect()
}

/// The pairings of the `candidates` among the rows of
/// [`pairing_rows_query`] (grouped by [`crosstable::query`]).
pub fn candidate_pairings_query(
    rows: LazyFrame,
    candidates: &std::collections::BTreeSet<EventYear>,
) -> Result<LazyFrame> {
    Ok(crosstable::query(
        rows,
        events_frame(candidates.iter())?.lazy(),
    ))
}

/// The counts of one batch of rows, which add up across batches: games
/// per event, the standings of its events of at most
/// [`STANDINGS_MAX_GAMES`] games (frame of [`standings_query`]). The
/// plus-remise decisions come from [`plus_remise_from`] or
/// [`plus_remise_used`], the pairings from [`add_pairings`].
pub fn batch_counts_from(event_games: &DataFrame, standings: &DataFrame) -> Result<ScoringCounts> {
    let mut out = ScoringCounts::default();
    let events = event_games.column(Column::Event.name())?.str()?;
    let years = event_games.column(Column::Year.name())?.i16()?;
    let n = event_games.column(names::N)?.u64()?;
    for i in 0..event_games.height() {
        let key = (events.get(i).unwrap_or_default().to_string(), years.get(i));
        *out.event_games.entry(key).or_insert(0) += n.get(i).unwrap_or(0);
    }
    add_standings(&mut out, standings)?;
    Ok(out)
}

/// Adds the standings of a frame of [`standings_query`] to `out`, leaving
/// out the events that `out`'s games per event show to be past
/// [`STANDINGS_MAX_GAMES`].
fn add_standings(out: &mut ScoringCounts, standings: &DataFrame) -> Result<()> {
    let events = standings.column(Column::Event.name())?.str()?;
    let years = standings.column(Column::Year.name())?.i16()?;
    let players = standings.column(names::PLAYER)?.str()?;
    let points: Vec<Vec<u16>> = System::ALL
        .iter()
        .map(|s| s.column())
        .chain(std::iter::once(names::GAMES))
        .map(|name| -> Result<Vec<u16>> {
            Ok(standings
                .column(name)?
                .u64()?
                .iter()
                .map(|v| u16::try_from(v.unwrap_or(0)).unwrap_or(u16::MAX))
                .collect())
        })
        .collect::<Result<_>>()?;
    let mut batch: BTreeMap<EventYear, Vec<(Player, Points)>> = BTreeMap::new();
    for i in 0..standings.height() {
        let key = (events.get(i).unwrap_or_default().to_string(), years.get(i));
        let mut p: Points = [0; 5];
        for (k, column) in points.iter().enumerate() {
            p[k] = column[i];
        }
        batch
            .entry(key)
            .or_default()
            .push((Player::from(players.get(i).unwrap_or("?")), p));
    }
    out.standings.absorb(
        batch
            .into_iter()
            .map(|(key, entries)| (key, EventStandings::from_entries(entries)))
            .collect(),
    );
    let games = &out.event_games;
    out.standings
        .retain(|key, _| games.get(key).is_some_and(|&n| n <= STANDINGS_MAX_GAMES));
    Ok(())
}

/// Adds the pairings of the `candidates` (only those: the other events'
/// would only fill the summary) from a frame of [`crosstable::query`].
pub fn add_pairings(
    out: &mut ScoringCounts,
    pairings: &DataFrame,
    candidates: &std::collections::BTreeSet<EventYear>,
) -> Result<()> {
    out.pairings
        .absorb(crosstable::counts_from(pairings, &|key| {
            candidates.contains(key)
        })?);
    Ok(())
}

/// The scoring study's counts over used games, in one batch.
#[cfg(test)]
fn counts(used: LazyFrame) -> Result<ScoringCounts> {
    let event_games = collect(event_games_query(used.clone()))?;
    let plus_remise = collect(plus_remise_query(used.clone()))?;
    let standings = collect(standings_query(used.clone(), &event_games))?;
    let mut out = batch_counts_from(&event_games, &standings)?;
    out.plus_remise_draws = plus_remise_from(&plus_remise)?;
    let pairings = collect(pairings_query(used, &event_games))?;
    let candidates = candidates(&out);
    add_pairings(&mut out, &pairings, &candidates)?;
    Ok(out)
}

/// The fewest games of an event whose standings are compared: a
/// one-game "event" (520 in the master collection) or a two-game match
/// ranks nothing.
pub const CROSSTABLE_MIN_GAMES: u64 = 4;

/// Whether an event is large enough for its standings to mean anything:
/// [`CROSSTABLE_MIN_GAMES`] games or more, and every player with two or
/// more.
fn crosstable_sized(players: &[(&Player, &Points)]) -> bool {
    let sides: u64 = players.iter().map(|(_, p)| u64::from(p[GAMES])).sum();
    sides / 2 >= CROSSTABLE_MIN_GAMES && players.iter().all(|(_, p)| p[GAMES] >= 2)
}

/// An event looks complete when it has at least two players and every
/// player's number of games is within one of the most any played: a round
/// robin, a match or a Swiss event with every game in the data (a bye or a
/// withdrawal costs a game). A player collection holds the profiled
/// player's games and one or two of each opponent's; an arena has players
/// of every number of games: neither looks complete.
fn looks_complete(players: &[(&Player, &Points)]) -> bool {
    let most = players.iter().map(|(_, p)| p[GAMES]).max().unwrap_or(0);
    players.len() >= 2
        && players
            .iter()
            .all(|(_, p)| u32::from(p[GAMES]) + 1 >= u32::from(most))
}

/// Ranks every complete event's players under each system and compares
/// them with classical scoring.
pub fn scoring_study(counts: &ScoringCounts) -> ScoringStudy {
    let mut study = ScoringStudy {
        plus_remise_draws: counts.plus_remise_draws.clone(),
        ..ScoringStudy::default()
    };
    for (key, &n) in &counts.event_games {
        if n > STANDINGS_MAX_GAMES {
            study.large_events += 1;
            study.large_event_games += n;
        } else if counts.left_out.contains(key) {
            study.left_out_events += 1;
            study.left_out_games += n;
        }
    }
    for ((event, year), table) in &counts.standings {
        let players: Vec<(&Player, &Points)> = table.iter().collect();
        if !looks_complete(&players) {
            study.incomplete_events += 1;
            continue;
        }
        if !crosstable_sized(&players) {
            study.small_events += 1;
            continue;
        }
        let names: Vec<&str> = players.iter().map(|(name, _)| name.as_str()).collect();
        match crosstable::crosstable(&counts.pairings, &(event.clone(), *year), &names) {
            None => {
                study.unpaired_events += 1;
                continue;
            }
            Some(Crosstable::RoundRobin { .. }) => study.round_robins += 1,
            Some(Crosstable::Swiss { .. }) => study.swiss += 1,
        }
        study.events += 1;
        let two_players = players.len() == 2;
        let equal_games = players.iter().all(|(_, p)| p[4] == players[0].1[4]);
        study.matches += u64::from(two_players);
        study.unequal_games += u64::from(!equal_games);
        let rank = |k: usize| -> Vec<usize> {
            players
                .iter()
                .map(|(_, p)| 1 + players.iter().filter(|(_, q)| q[k] > p[k]).count())
                .collect()
        };
        let classical = rank(0);
        let winners = |ranks: &[usize]| -> Vec<String> {
            players
                .iter()
                .zip(ranks)
                .filter(|(_, r)| **r == 1)
                .map(|((name, _), _)| name.to_string())
                .collect()
        };
        for (k, system) in System::ALL.iter().enumerate().skip(1) {
            let ranks = rank(k);
            let change = study.changes.entry(*system).or_default();
            change.places_moved += ranks
                .iter()
                .zip(&classical)
                .map(|(a, b)| a.abs_diff(*b) as u64)
                .sum::<u64>();
            let (before, after) = (winners(&classical), winners(&ranks));
            if before != after {
                change.different_winner += 1;
                change.different_winner_multi += u64::from(!two_players);
                change.different_winner_unequal += u64::from(!equal_games);
                if change.examples.len() < 5 {
                    change.examples.push(WinnerChange {
                        event: event.clone(),
                        year: *year,
                        classical: before,
                        other: after,
                    });
                }
            }
        }
    }
    study
}

#[cfg(test)]
mod tests;
