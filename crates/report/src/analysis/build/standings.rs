//! The scoring study's counts of a batch made in Rust, from its used rows
//! read once: the games per event ([`scoring::event_games_query`]), the
//! standings of the events of at most [`STANDINGS_MAX_GAMES`] games in
//! the batch ([`scoring::standings_query`]), and those events' pairings,
//! which the builder keeps to judge an event whole ([`KeptPairings`], for
//! the rows of [`scoring::pairing_rows_query`]) or, past
//! [`super::PAIRINGS_KEPT`], judges batch by batch (as
//! [`scoring::pairings_query`] groups them). The queries stay the
//! reference ([`SummaryBuilder::with_queries`]); `tests/it/summaries.rs`
//! holds the two equal (issue 50).

use super::*;
use crate::analysis::crosstable::{UNKNOWN_PLAYER, round_number};
use crate::analysis::scoring::{
    EventStandings, Player, Points, STANDINGS_MAX_GAMES, ScoringCounts, System,
};
use remis_table::schema::GameResult;
use shakmaty::Color;

/// An event by its `Event` tag and year.
type EventYear = (String, Option<i16>);

/// A game of an event: its round number (none when its `Round` tag has
/// none), White and Black, as the numbers of their names in the event.
type Game = (Option<u32>, u32, u32);

/// One event's games as the pairings need them: the players' names
/// once each, numbered by their place (a missing name is
/// [`UNKNOWN_PLAYER`], as the standings count it), and a game in 12 bytes.
#[derive(Default)]
pub(super) struct EventGames {
    names: Vec<Player>,
    games: Vec<Game>,
}

impl EventGames {
    /// Adds another part of the same event's games (an event split
    /// between batches: the names are looked up only then).
    fn absorb(&mut self, other: EventGames) {
        let known: PlHashMap<&str, u32> = (self.names.iter())
            .zip(0..)
            .map(|(name, at)| (name.as_str(), at))
            .collect();
        let mut added = Vec::new();
        let number: Vec<u32> = other
            .names
            .into_iter()
            .map(|name| match known.get(name.as_str()) {
                Some(&at) => at,
                None => {
                    added.push(name);
                    (self.names.len() + added.len() - 1) as u32
                }
            })
            .collect();
        drop(known);
        self.names.extend(added);
        self.games.extend(
            other
                .games
                .into_iter()
                .map(|(round, w, b)| (round, number[w as usize], number[b as usize])),
        );
    }

    /// Adds the event's pairings to `out`, as [`crosstable::counts_from`]
    /// counts them from the groups of [`crosstable::query`].
    fn add_pairings(&self, event: &EventYear, out: &mut PairingCounts) {
        let names: Vec<&str> = self.names.iter().map(Player::as_str).collect();
        let mut pairings: PlHashMap<(u32, u32), u64> = PlHashMap::new();
        let mut rounds: BTreeMap<u32, u64> = BTreeMap::new();
        // Games of each player in each round, to see a player twice.
        let mut seen: PlHashMap<(u32, u32), u64> = PlHashMap::new();
        let mut unnumbered = 0;
        for &(round, w, b) in &self.games {
            let pair = if names[w as usize] <= names[b as usize] {
                (w, b)
            } else {
                (b, w)
            };
            *pairings.entry(pair).or_insert(0) += 1;
            match round {
                None => unnumbered += 1,
                Some(r) => {
                    *rounds.entry(r).or_insert(0) += 1;
                    for player in [w, b] {
                        *seen.entry((r, player)).or_insert(0) += 1;
                    }
                }
            }
        }
        for ((first, second), n) in pairings {
            let key = (
                event.clone(),
                names[first as usize].to_string(),
                names[second as usize].to_string(),
            );
            *out.pairings.entry(key).or_insert(0) += n;
        }
        for (r, games) in rounds {
            out.rounds.entry((event.clone(), r)).or_insert([0; 2])[0] += games;
        }
        for ((r, _), games) in seen {
            if games > 1 {
                out.rounds.entry((event.clone(), r)).or_insert([0; 2])[1] = 1;
            }
        }
        if unnumbered > 0 {
            *out.unnumbered.entry(event.clone()).or_insert(0) += unnumbered;
        }
    }
}

/// The pairings of `events` whose standings in `standings` look
/// complete (only those: the other events' would only fill the summary).
pub(super) fn judge<'a>(
    events: impl Iterator<Item = (&'a EventYear, &'a EventGames)>,
    standings: &ScoringCounts,
) -> PairingCounts {
    let candidates = scoring::candidates(standings);
    let mut out = PairingCounts::default();
    if candidates.is_empty() {
        return out;
    }
    for (event, games) in events {
        if candidates.contains(event) {
            games.add_pairings(event, &mut out);
        }
    }
    out
}

/// The games of the events not (yet) past [`STANDINGS_MAX_GAMES`],
/// kept across batches so that an event split between batches is judged
/// whole: a game costs 12 bytes, a player's name once an event.
#[derive(Default)]
pub(super) struct KeptPairings {
    events: PlHashMap<EventYear, EventGames>,
    games: usize,
}

impl KeptPairings {
    /// Games kept.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds a batch's games and drops those of the events that
    /// `event_games` (the games so far, this batch's too) puts past the
    /// standings' limit: only the batch's events can have passed it.
    pub fn add(&mut self, batch: BatchGames, event_games: &BTreeMap<EventYear, u64>) {
        let large = |event: &EventYear| {
            event_games
                .get(event)
                .is_some_and(|&n| n > STANDINGS_MAX_GAMES)
        };
        for (event, games) in batch.games {
            if large(&event) {
                self.drop_event(&event);
                continue;
            }
            self.games += games.games.len();
            match self.events.get_mut(&event) {
                Some(kept) => kept.absorb(games),
                None => {
                    self.events.insert(event, games);
                }
            }
        }
        for event in &batch.large {
            self.drop_event(event);
        }
    }

    fn drop_event(&mut self, event: &EventYear) {
        if let Some(kept) = self.events.remove(event) {
            self.games -= kept.games.len();
        }
    }

    /// The pairings of the kept events whose standings look complete,
    /// and nothing kept any more.
    pub fn judge(&mut self, standings: &ScoringCounts) -> PairingCounts {
        let events = std::mem::take(&mut self.events);
        self.games = 0;
        judge(events.iter(), standings)
    }
}

/// A batch's games of the events its standings count, and the events
/// it leaves out for passing [`STANDINGS_MAX_GAMES`] games in the batch
/// alone.
#[derive(Default)]
pub(super) struct BatchGames {
    pub games: Vec<(EventYear, EventGames)>,
    pub large: Vec<EventYear>,
}

/// One batch's scoring counts: the games per event and the standings
/// (no plus-remise decisions), and the games of the events the
/// standings count.
pub(super) struct BatchScoring {
    pub counts: ScoringCounts,
    pub games: BatchGames,
}

/// A side's game for the points: won, drawn (and won by plus-remise or
/// not), lost (or no result).
#[derive(Copy, Clone)]
enum SideResult {
    Won = 0,
    Drawn = 1,
    DrawnWonByPlusRemise = 2,
    Lost = 3,
}

/// The points of each [`SideResult`] under each system, in
/// [`System::ALL`] order, as `System::expr` gives them.
const POINTS: [[u32; 4]; 4] = {
    let mut table = [[0; 4]; 4];
    let mut k = 0;
    while k < System::ALL.len() {
        let (win, draw, loss) = System::ALL[k].units();
        table[SideResult::Won as usize][k] = win;
        table[SideResult::Drawn as usize][k] = draw;
        table[SideResult::DrawnWonByPlusRemise as usize][k] = match System::ALL[k] {
            System::PlusRemise => win,
            _ => draw,
        };
        table[SideResult::Lost as usize][k] = loss;
        k += 1;
    }
    table
};

/// Both sides' results of a game (White's, Black's).
fn side_results(result: Option<&str>, plus_remise_winner: Option<&str>) -> [SideResult; 2] {
    use SideResult::*;
    match result {
        Some(r) if r == GameResult::Win(Color::White).as_str() => [Won, Lost],
        Some(r) if r == GameResult::Win(Color::Black).as_str() => [Lost, Won],
        Some(r) if r == GameResult::Draw.as_str() => match plus_remise_winner {
            Some(w) if w == Color::White.fold_wb("white", "black") => [DrawnWonByPlusRemise, Drawn],
            Some(w) if w == Color::Black.fold_wb("white", "black") => [Drawn, DrawnWonByPlusRemise],
            _ => [Drawn, Drawn],
        },
        _ => [Lost, Lost],
    }
}

/// The batch's number of an event's player (a missing name is
/// [`UNKNOWN_PLAYER`]), numbering her when met first.
fn number<'a>(
    players: &mut PlHashMap<(u32, &'a str), u32>,
    entries: &mut Vec<(u32, &'a str, [u32; 5])>,
    event: u32,
    name: Option<&'a str>,
) -> u32 {
    let name = name.unwrap_or(UNKNOWN_PLAYER);
    let next = entries.len() as u32;
    let at = *players.entry((event, name)).or_insert(next);
    if at == next {
        entries.push((event, name, [0; 5]));
    }
    at
}

/// Counts the used rows of a batch (a frame of [`table::prepare_frame`]'s
/// columns): games per event, then the standings and games of the events
/// of at most [`STANDINGS_MAX_GAMES`] games in the batch. One map of
/// the batch's (event, player) pairs, made once to its size, numbers the
/// players; each event's vectors are then made to their length.
pub(super) fn count(used: &DataFrame) -> Result<BatchScoring> {
    let column = |c: Column| used.column(c.name());
    let event = column(Column::Event)?.str()?;
    let year = column(Column::Year)?.i16()?;

    // The event of each row (`NONE`: no event), and its games.
    const NONE: u32 = u32::MAX;
    let mut events: PlHashMap<(&str, Option<i16>), u32> = PlHashMap::new();
    let mut games: Vec<u64> = Vec::new();
    let mut row_event: Vec<u32> = Vec::with_capacity(used.height());
    for (event, year) in event.iter().zip(year.iter()) {
        let Some(event) = event else {
            row_event.push(NONE);
            continue;
        };
        let next = events.len() as u32;
        let at = *events.entry((event, year)).or_insert(next);
        if at == next {
            games.push(0);
        }
        games[at as usize] += 1;
        row_event.push(at);
    }

    // Each (event, player) of the events the standings count numbered in
    // the batch, with its points; the games as (event, game) by those
    // numbers.
    let white = column(Column::White)?.str()?;
    let black = column(Column::Black)?.str()?;
    let result = column(Column::Result)?.str()?;
    let winner = column(Column::PlusRemiseWinner)?.str()?;
    let round = column(Column::Round)?.str()?;
    let mut players: PlHashMap<(u32, &str), u32> = PlHashMap::with_capacity(used.height());
    let mut entries: Vec<(u32, &str, [u32; 5])> = Vec::with_capacity(used.height());
    let mut counted: Vec<(u32, Game)> = Vec::with_capacity(used.height());
    let rows = row_event
        .iter()
        .zip(white.iter())
        .zip(black.iter())
        .zip(result.iter())
        .zip(winner.iter())
        .zip(round.iter());
    for (((((&at, white), black), result), winner), round) in rows {
        if at == NONE || games[at as usize] > STANDINGS_MAX_GAMES {
            continue;
        }
        let (w, b) = (
            number(&mut players, &mut entries, at, white),
            number(&mut players, &mut entries, at, black),
        );
        for (p, side) in [w, b].into_iter().zip(side_results(result, winner)) {
            let total = &mut entries[p as usize].2;
            for (sum, points) in total.iter_mut().zip(POINTS[side as usize]) {
                *sum += points;
            }
            total[4] += 1;
        }
        counted.push((at, (round.and_then(round_number), w, b)));
    }
    drop(players);

    // Each player's number within her event, in the order met.
    let mut players_of = vec![0u32; events.len()];
    let local: Vec<u32> = entries
        .iter()
        .map(|&(event, ..)| {
            let n = &mut players_of[event as usize];
            *n += 1;
            *n - 1
        })
        .collect();
    let mut standings_of: Vec<Vec<(Player, Points)>> = players_of
        .iter()
        .map(|&n| Vec::with_capacity(n as usize))
        .collect();
    for (event, name, points) in entries {
        standings_of[event as usize].push((
            Player::from(name),
            points.map(|v| u16::try_from(v).unwrap_or(u16::MAX)),
        ));
    }
    let mut games_of: Vec<Vec<Game>> = (games.iter().zip(&players_of))
        .map(|(&n, &players)| Vec::with_capacity(if players > 0 { n as usize } else { 0 }))
        .collect();
    for (event, (round, w, b)) in counted {
        games_of[event as usize].push((round, local[w as usize], local[b as usize]));
    }

    let mut event_games = Vec::with_capacity(events.len());
    let mut standings = Vec::new();
    let mut out = BatchGames::default();
    for ((event, year), at) in events {
        let at = at as usize;
        let key = (event.to_string(), year);
        let n = games[at];
        if players_of[at] > 0 {
            // The names in the order of their numbers, for the pairings;
            // the standings sort them.
            let entries = std::mem::take(&mut standings_of[at]);
            let names = entries.iter().map(|(name, _)| name.clone()).collect();
            standings.push((key.clone(), EventStandings::from_entries(entries)));
            let games = EventGames {
                names,
                games: std::mem::take(&mut games_of[at]),
            };
            out.games.push((key.clone(), games));
        } else if n > STANDINGS_MAX_GAMES {
            out.large.push(key.clone());
        }
        event_games.push((key, n));
    }
    let counts = ScoringCounts {
        event_games: event_games.into_iter().collect(),
        standings: standings.into_iter().collect(),
        ..ScoringCounts::default()
    };
    Ok(BatchScoring { counts, games: out })
}
