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
/// numbered once each (a missing name is [`UNKNOWN_PLAYER`], as the
/// standings count it), and a game in 12 bytes.
#[derive(Default)]
pub(super) struct EventGames {
    names: PlHashMap<Player, u32>,
    games: Vec<Game>,
}

impl EventGames {
    /// Adds another part of the same event's games.
    fn absorb(&mut self, other: EventGames) {
        let mut number = vec![0u32; other.names.len()];
        for (name, at) in other.names {
            let next = self.names.len() as u32;
            number[at as usize] = *self.names.entry(name).or_insert(next);
        }
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
        let mut names = vec![""; self.names.len()];
        for (name, &at) in &self.names {
            names[at as usize] = name.as_str();
        }
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
    events: BTreeMap<EventYear, EventGames>,
    games: usize,
}

impl KeptPairings {
    /// Games kept.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Adds a batch's games and drops those of the events that
    /// `event_games` (the games so far) puts past the standings' limit.
    pub fn add(
        &mut self,
        batch: BTreeMap<EventYear, EventGames>,
        event_games: &BTreeMap<EventYear, u64>,
    ) {
        for (event, games) in batch {
            match self.events.get_mut(&event) {
                Some(kept) => kept.absorb(games),
                None => {
                    self.events.insert(event, games);
                }
            }
        }
        self.events.retain(|event, _| {
            event_games
                .get(event)
                .is_none_or(|&n| n <= STANDINGS_MAX_GAMES)
        });
        self.games = self.events.values().map(|e| e.games.len()).sum();
    }

    /// The pairings of the kept events whose standings look complete,
    /// and nothing kept any more.
    pub fn judge(&mut self, standings: &ScoringCounts) -> PairingCounts {
        let events = std::mem::take(&mut self.events);
        self.games = 0;
        judge(events.iter(), standings)
    }
}

/// One batch's scoring counts: the games per event and the standings
/// (no plus-remise decisions), and the games of the events the
/// standings count.
pub(super) struct BatchScoring {
    pub counts: ScoringCounts,
    pub games: BTreeMap<EventYear, EventGames>,
}

/// An event of the batch while its rows are counted, its players' names
/// borrowed from the batch.
#[derive(Default)]
struct BatchEvent<'a> {
    names: PlHashMap<&'a str, u32>,
    points: Vec<[u32; 5]>,
    games: Vec<Game>,
}

impl<'a> BatchEvent<'a> {
    fn player(&mut self, name: Option<&'a str>) -> u32 {
        let next = self.names.len() as u32;
        let at = *self
            .names
            .entry(name.unwrap_or(UNKNOWN_PLAYER))
            .or_insert(next);
        if at == next {
            self.points.push([0; 5]);
        }
        at
    }
}

/// A side's points under each system, in [`System::ALL`] order, as
/// `System::expr` gives them.
fn points(result: Option<&str>, plus_remise_winner: Option<&str>, side: Color) -> [u32; 4] {
    let won = result == Some(GameResult::Win(side).as_str());
    let drawn = result == Some(GameResult::Draw.as_str());
    System::ALL.map(|system| {
        let (win, draw, loss) = system.units();
        let wins_the_draw = system == System::PlusRemise
            && drawn
            && plus_remise_winner == Some(side.fold_wb("white", "black"));
        if won || wins_the_draw {
            win
        } else if drawn {
            draw
        } else {
            loss
        }
    })
}

/// Counts the used rows of a batch (a frame of [`table::prepare_frame`]'s
/// columns): games per event, then the standings and games of the events
/// of at most [`STANDINGS_MAX_GAMES`] games in the batch.
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

    let white = column(Column::White)?.str()?;
    let black = column(Column::Black)?.str()?;
    let result = column(Column::Result)?.str()?;
    let winner = column(Column::PlusRemiseWinner)?.str()?;
    let round = column(Column::Round)?.str()?;
    let mut batch: Vec<Option<BatchEvent>> = (0..events.len()).map(|_| None).collect();
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
        let event = batch[at as usize].get_or_insert_with(BatchEvent::default);
        let (w, b) = (event.player(white), event.player(black));
        for (player, side) in [(w, Color::White), (b, Color::Black)] {
            let total = &mut event.points[player as usize];
            for (sum, p) in total.iter_mut().zip(points(result, winner, side)) {
                *sum += p;
            }
            total[4] += 1;
        }
        event.games.push((round.and_then(round_number), w, b));
    }

    let mut out = BatchScoring {
        counts: ScoringCounts::default(),
        games: BTreeMap::new(),
    };
    for ((event, year), at) in events {
        let key = (event.to_string(), year);
        out.counts
            .event_games
            .insert(key.clone(), games[at as usize]);
        let Some(event) = batch[at as usize].take() else {
            continue;
        };
        let standings: Vec<(Player, Points)> = event
            .names
            .iter()
            .map(|(&name, &at)| {
                let p = event.points[at as usize];
                (
                    Player::from(name),
                    p.map(|v| u16::try_from(v).unwrap_or(u16::MAX)),
                )
            })
            .collect();
        out.counts
            .standings
            .insert(key.clone(), EventStandings::from_entries(standings));
        let names = event
            .names
            .into_iter()
            .map(|(name, at)| (Player::from(name), at))
            .collect();
        out.games.insert(
            key,
            EventGames {
                names,
                games: event.games,
            },
        );
    }
    Ok(out)
}
