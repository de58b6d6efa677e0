//! Games are not independent draws from one population: the same players
//! meet again and again (a collection of one player's games, an online
//! account's thousands of blitz games). This part counts games by player,
//! for a table of how concentrated the games are, and gives the draw rate
//! an interval clustered by player to set beside the Wilson interval,
//! which treats every game as independent.
//!
//! Both parts are sums over games, so they merge across tables:
//! - each named player's games and draws, up to [`PLAYER_CAP`] players
//!   (past it, the players with the fewest games are folded together, and
//!   the page says so);
//! - the same counts gathered into [`BUCKETS`] groups of players by a hash
//!   of the name: a fixed-size part, whatever the number of players.
//!
//! The interval is a cluster-robust (sandwich) one for data in pairs, as
//! for trade between countries (Fafchamps and Gubert 2007; Cameron and
//! Miller 2014): a game belongs to both its players, and any two games
//! that share a player may be correlated, whatever the colours. For the
//! draw rate r = D/G, with each player's (or group's) draws D_c and games
//! G_c, and S the named sides of the games (two a game):
//!
//! ```text
//! V = ( Σ_c (D_c − r·G_c)² − (S − G)·r(1−r) ) / G²,   r ± 1.96·√V
//! ```
//!
//! The sum over players counts each game once for each named player; the
//! second term takes the extra counts away, so that for games between
//! players who never meet again V is the independent-games variance
//! r(1−r)/G. V is never taken below that. A group of players is a cluster
//! of whole players, so grouping keeps the estimate valid, a little wide.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;
use remis_core::fnv::fnv1a;
use remis_table::players::{Aliases, given_name, same_given_name};
use remis_table::schema::Column;
use serde::{Deserialize, Serialize};

use super::merge::{Merge, pairs};
use super::table::{EFFECTIVE_TIME_CLASS, IS_DRAW, PLAY, Play, names};
use crate::study::Proportion;
use remis_table::schema::TimeClass;

mod identity;
#[cfg(test)]
mod identity_list;
mod spelling;
pub(crate) use identity::people_of_identities;
use identity::*;
pub use spelling::{
    FULL_SPELLING_GAMES, Merged, SPELLINGS_HELD, SPELLINGS_KEPT, Spelling, YearGames, spelling_list,
};
use spelling::{add_spelling, by_games, shown};
pub(crate) use spelling::{add_spelling_games, trim_spellings};

/// Groups of players for the bootstrap.
pub const BUCKETS: usize = 1024;
/// Named players kept per summary; those with the fewest games beyond it
/// are folded together.
pub const PLAYER_CAP: usize = 200_000;
/// Players (or groups of players) with games needed before an interval
/// clustered on them means anything.
pub const MIN_CLUSTERS: usize = 30;

/// Games and draws by player, as a summary keeps them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerCounts {
    /// Each named player's games and draws among the games used (a game
    /// counts for both its players).
    #[serde(with = "pairs")]
    pub by_name: BTreeMap<String, Proportion>,
    /// Players past [`PLAYER_CAP`], folded together: how many, and their
    /// games and draws.
    pub folded_players: u64,
    pub folded: Proportion,
    /// The folded players by their number of games (games → players):
    /// they are the players with the fewest games, so this holds few
    /// entries, and keeps the median, the one-game players and the top 1 %
    /// exact at any number of players.
    #[serde(with = "pairs")]
    pub folded_by_games: BTreeMap<u64, u64>,
    /// The same counts by group of players ([`BUCKETS`] of them, by a hash
    /// of the name); empty when no game had a named player.
    pub buckets: Vec<Proportion>,
    /// Sides of used games without a player's name (missing or "?").
    pub unnamed_sides: u64,
    /// The spellings behind each player's identity (at most
    /// [`SPELLINGS_KEPT`] a player, sorted by name), each with its games
    /// and its games and ratings by year: the merges the Players section
    /// lists, and what tells namesakes of one key apart.
    #[serde(with = "pairs")]
    pub spellings: BTreeMap<String, Vec<Spelling>>,
}

impl Merge for PlayerCounts {
    fn absorb(&mut self, other: PlayerCounts) {
        self.absorb_unfolded(other);
        self.fold_past_cap();
    }
}

impl PlayerCounts {
    /// Adds another batch's players without folding any: a table's
    /// summary built batch by batch folds once, at the end, as the
    /// whole table's would ([`PlayerCounts::fold_past_cap`]).
    pub(crate) fn absorb_unfolded(&mut self, other: PlayerCounts) {
        self.by_name.absorb(other.by_name);
        self.folded_players += other.folded_players;
        self.folded.absorb(other.folded);
        self.folded_by_games.absorb(other.folded_by_games);
        if self.buckets.is_empty() {
            self.buckets = other.buckets;
        } else if !other.buckets.is_empty() {
            for (a, b) in self.buckets.iter_mut().zip(other.buckets) {
                a.absorb(b);
            }
        }
        self.unnamed_sides += other.unnamed_sides;
        for (key, spellings) in other.spellings {
            let kept = self.spellings.entry(key).or_default();
            // Bounded between the folds, as the players are (by
            // `add_spelling`, as each spelling comes).
            for spelling in &spellings {
                add_spelling(kept, spelling);
            }
        }
    }

    /// Folds the players with the fewest games (then the last names) past
    /// [`PLAYER_CAP`].
    pub(crate) fn fold_past_cap(&mut self) {
        self.fold_past(PLAYER_CAP);
    }

    /// Folds the players with the fewest games past `cap`.
    pub(crate) fn fold_past(&mut self, cap: usize) {
        for kept in self.spellings.values_mut() {
            trim_spellings(kept, SPELLINGS_KEPT);
        }
        if self.by_name.len() <= cap {
            return;
        }
        let mut ranked: Vec<(String, Proportion)> =
            std::mem::take(&mut self.by_name).into_iter().collect();
        // Only which players are kept matters (the map orders them by
        // name): selected, not sorted.
        ranked.select_nth_unstable_by(cap, |a, b| kept_first((a.1, &a.0), (b.1, &b.0)));
        for (key, counts) in ranked.drain(cap..) {
            self.spellings.remove(&key);
            self.count_folded(counts);
        }
        self.by_name = ranked.into_iter().collect();
    }

    /// Counts a player folded, with her games and draws.
    pub(crate) fn count_folded(&mut self, counts: Proportion) {
        self.folded_players += 1;
        *self.folded_by_games.entry(counts.n).or_insert(0) += 1;
        self.folded.absorb(counts);
    }

    /// Adds a player's games and draws to her group's.
    pub(crate) fn add_to_group(&mut self, group: usize, counts: Proportion) {
        if self.buckets.is_empty() {
            self.buckets = vec![Proportion::new(0, 0); BUCKETS];
        }
        self.buckets[group].absorb(counts);
    }
}

/// The order in which players are kept past a cap: the most games first,
/// then by identity.
pub(crate) fn kept_first(
    (a, a_identity): (Proportion, &str),
    (b, b_identity): (Proportion, &str),
) -> std::cmp::Ordering {
    b.n.cmp(&a.n).then_with(|| a_identity.cmp(b_identity))
}

/// Groups of players by a hash of the identity, so that a player's
/// spellings fall in one group.
pub(crate) fn bucket(key: &str) -> usize {
    (fnv1a(key.as_bytes()) % BUCKETS as u64) as usize
}

/// A side's FIDE ID and rating in [`query`] (its name is
/// [`names::PLAYER`]), White's and Black's taken as one column each.
pub(crate) const FIDE_ID: &str = "fide_id";
const ELO: &str = "elo";

/// Games and draws by player name, FIDE ID and year, over both sides of
/// the used games, with the rated games and the sum of their ratings.
pub fn query(used: LazyFrame) -> LazyFrame {
    let side = |player: Column, fide_id: Column, elo: Column| {
        used.clone().select([
            player.col().alias(names::PLAYER),
            fide_id.col().alias(FIDE_ID),
            Column::Year.col(),
            elo.col().cast(DataType::UInt64).alias(ELO),
            col(IS_DRAW),
            col(PLAY),
            col(EFFECTIVE_TIME_CLASS),
        ])
    };
    let [games, draws] = names::games_and_draws();
    concat(
        [
            side(Column::White, Column::WhiteFideId, Column::WhiteElo),
            side(Column::Black, Column::BlackFideId, Column::BlackElo),
        ],
        UnionArgs::default(),
    )
    .expect("two frames of the same columns concatenate")
    .group_by([
        col(names::PLAYER),
        col(FIDE_ID),
        Column::Year.col(),
        col(PLAY),
        col(EFFECTIVE_TIME_CLASS),
    ])
    .agg([
        games,
        draws,
        col(ELO)
            .gt(lit(0u64))
            .cast(DataType::UInt64)
            .sum()
            .alias(names::RATED),
        col(ELO).sum().alias(names::RATING_SUM),
    ])
}

/// The rows of [`query`]'s result that count over-the-board classical
/// games (the players of `Summary::classical_players`).
pub fn classical(df: &DataFrame) -> Result<DataFrame> {
    let mask: BooleanChunked = classical_mask(df)?.into_iter().map(Some).collect();
    Ok(df.filter(&mask)?)
}

/// Whether each row of [`query`]'s result counts over-the-board classical
/// games.
fn classical_mask(df: &DataFrame) -> Result<Vec<bool>> {
    let play = df.column(PLAY)?.str()?;
    let speed = df.column(EFFECTIVE_TIME_CLASS)?.str()?;
    let classical = TimeClass::Classical.as_str();
    let over_the_board = Play::OverTheBoard.as_str();
    Ok(play
        .iter()
        .zip(speed.iter())
        .map(|(play, speed)| play == Some(over_the_board) && speed == Some(classical))
        .collect())
}

/// The counts of a frame of [`query`], its players' identities read
/// through `aliases`.
pub fn counts_from(df: &DataFrame, aliases: &Aliases) -> Result<PlayerCounts> {
    let mut out = PlayerCounts::default();
    add_rows(df, aliases, &mut out, None)?;
    Ok(out)
}

/// The counts of a frame of [`query`], and those of its over-the-board
/// classical rows: `counts_from(df)` and `counts_from(&classical(df)?)`
/// in one pass, each name's key made once.
pub fn counts_and_classical(
    df: &DataFrame,
    aliases: &Aliases,
) -> Result<(PlayerCounts, PlayerCounts)> {
    let mask = classical_mask(df)?;
    let mut all = PlayerCounts::default();
    let mut classical = PlayerCounts::default();
    add_rows(df, aliases, &mut all, Some((&mask, &mut classical)))?;
    Ok((all, classical))
}

/// One group of [`query`]: a side's games in one year and format.
#[derive(Clone, Copy)]
struct SideGames<'a> {
    player: Option<&'a str>,
    fide_id: Option<&'a str>,
    year: Option<i16>,
    games: u64,
    draws: u64,
    rated: u64,
    rating_sum: u64,
    /// Counted also in the second counts (over-the-board classical).
    also: bool,
}

/// Adds the rows of a frame of [`query`] to `out`, and those the mask
/// holds to the second counts.
fn add_rows(
    df: &DataFrame,
    aliases: &Aliases,
    out: &mut PlayerCounts,
    also: Option<(&[bool], &mut PlayerCounts)>,
) -> Result<()> {
    let (mask, also) = match also {
        Some((mask, counts)) => (Some(mask), Some(counts)),
        None => (None, None),
    };
    let players = df.column(names::PLAYER)?.str()?;
    let fide_ids = df.column(FIDE_ID)?.str()?;
    let games = df.column(names::GAMES)?.u64()?;
    let draws = df.column(names::DRAWS)?.u64()?;
    // By year, with ratings (a frame without them counts the games only).
    let year = df
        .column(Column::Year.name())
        .ok()
        .map(|c| c.i16())
        .transpose()?;
    let rated = df.column(names::RATED).ok().map(|c| c.u64()).transpose()?;
    let rating_sum = df
        .column(names::RATING_SUM)
        .ok()
        .map(|c| c.u64())
        .transpose()?;
    let groups = (0..df.height()).map(|i| SideGames {
        player: players.get(i),
        fide_id: fide_ids.get(i),
        year: year.and_then(|y| y.get(i)),
        games: games.get(i).unwrap_or(0),
        draws: draws.get(i).unwrap_or(0),
        rated: rated.and_then(|r| r.get(i)).unwrap_or(0),
        rating_sum: rating_sum.and_then(|r| r.get(i)).unwrap_or(0),
        also: mask.is_some_and(|m| m[i]),
    });
    add_groups(groups, aliases, out, also);
    Ok(())
}

/// A side's identity (and the name's key), as the players' counts key it:
/// `None` for a side without a name. The expected draws by player key
/// their cells by it too (`expected::cells`), so that theirs are the
/// players of the Players section.
pub(crate) fn identity_of(
    aliases: &Aliases,
    name: &str,
    fide_id_tag: Option<&str>,
) -> Option<(String, String)> {
    aliases.player_key(name).map(|name_key| {
        let key = identity(
            name_key.clone(),
            fide_id_tag.and_then(fide_id),
            given_name(name),
        );
        (key, name_key)
    })
}

/// Adds groups of [`query`] to `out`, and those the mask holds (by
/// their place) to the second counts.
fn add_groups<'a>(
    groups: impl Iterator<Item = SideGames<'a>>,
    aliases: &Aliases,
    out: &mut PlayerCounts,
    mut also: Option<&mut PlayerCounts>,
) {
    // A side comes back on many rows (a row a year and format): its
    // identity and group are made once a name and FIDE ID.
    type Side = Option<(String, usize)>;
    let mut sides: PlHashMap<(&str, Option<&str>), Side> = PlHashMap::new();
    for side_games in groups {
        let counts = Proportion::new(side_games.draws, side_games.games);
        let name = side_games.player;
        let also = match also.as_mut() {
            Some(counts) if side_games.also => Some(&mut **counts),
            _ => None,
        };
        let side = match name {
            Some(name) => {
                let id_tag = side_games.fide_id;
                sides.entry((name, id_tag)).or_insert_with(|| {
                    identity_of(aliases, name, id_tag)
                        .map(|(key, name_key)| (key, bucket(&name_key)))
                })
            }
            None => &None,
        };
        let Some((key, group)) = side else {
            out.unnamed_sides += counts.n;
            if let Some(also) = also {
                also.unnamed_sides += counts.n;
            }
            continue;
        };
        let spelling = name.unwrap_or_default().trim();
        let year = side_games.year.map(|year| YearGames {
            year,
            games: counts.n,
            rated: side_games.rated,
            rating_sum: side_games.rating_sum,
        });
        for counts_of in std::iter::once(&mut *out).chain(also) {
            // By the name's key, so that a player's games with and
            // without an ID fall in one group.
            counts_of.add_to_group(*group, counts);
            match counts_of.spellings.get_mut(key.as_str()) {
                Some(kept) => add_spelling_games(kept, spelling, counts, year),
                None => {
                    let mut kept = Vec::new();
                    add_spelling_games(&mut kept, spelling, counts, year);
                    counts_of.spellings.insert(key.clone(), kept);
                }
            }
            match counts_of.by_name.get_mut(key.as_str()) {
                Some(p) => p.absorb(counts),
                None => {
                    counts_of.by_name.insert(key.clone(), counts);
                }
            }
        }
    }
}

/// One row of the concentration table.
#[derive(Clone, Debug, PartialEq)]
pub struct Frequent {
    pub name: String,
    /// The player's games and draws.
    pub games: Proportion,
    /// The share of all games used that the player played.
    pub share: f64,
}

/// How concentrated the games are on few players.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Concentration {
    /// Games used (each once).
    pub games: u64,
    /// Named players (folded ones included).
    pub players: u64,
    /// Players folded past the cap.
    pub folded_players: u64,
    /// Sides of games without a name.
    pub unnamed_sides: u64,
    /// The most frequent players, most games first.
    pub top: Vec<Frequent>,
    /// Identities made of more than one spelling, among the most frequent
    /// [`MERGES_LISTED`] players: the name shown and every spelling merged
    /// with its games, most games first (a last `None` holds the games
    /// under spellings past [`SPELLINGS_KEPT`]).
    pub merges: Vec<(String, Vec<Merged>)>,
    /// Identities of more than one spelling, among all named players.
    pub merged_players: u64,
    /// Games per named player: the median, and players with one game.
    pub median_games: Option<u64>,
    pub one_game_players: u64,
    /// The share of game sides (two a game) held by the most frequent 1 %
    /// of players.
    pub top_percent_share: Option<f64>,
    /// The draw rate's 95 % interval clustered by player; `None` with
    /// fewer than [`MIN_CLUSTERS`] groups of players.
    pub by_player: Option<(f64, f64)>,
    /// Groups of players clustered on.
    pub clusters: usize,
}

/// The concentration table and the clustered interval, from the counts;
/// `overall` is the draws among the games used.
pub fn concentration(counts: &PlayerCounts, overall: Proportion, top: usize) -> Concentration {
    let resolved = resolve_identities(counts);
    let counts = &resolved;
    let games = overall.n;
    let mut ranked: Vec<(&String, &Proportion)> = counts.by_name.iter().collect();
    ranked.sort_by(|a, b| b.1.n.cmp(&a.1.n).then_with(|| a.0.cmp(b.0)));
    let share = |n: u64| {
        if games > 0 {
            n as f64 / games as f64
        } else {
            0.0
        }
    };
    // Every player's games, fewest first: the folded players (all with
    // fewer games than any named one), then the named ones.
    let folded = counts
        .folded_by_games
        .iter()
        .flat_map(|(&games, &players)| std::iter::repeat_n(games, players as usize));
    let named = ranked.iter().rev().map(|(_, p)| p.n);
    let players = counts.by_name.len() + counts.folded_players as usize;
    let median_games = (players > 0).then(|| {
        folded
            .clone()
            .chain(named.clone())
            .nth(players / 2)
            .unwrap_or(0)
    });
    let sides: u64 = counts.by_name.values().map(|p| p.n).sum::<u64>() + counts.folded.n;
    let top_percent = players.div_ceil(100);
    let top_percent_share = (sides > 0 && players > 0).then(|| {
        let most: u64 = ranked
            .iter()
            .map(|(_, p)| p.n)
            .chain(folded.clone().rev())
            .take(top_percent)
            .sum();
        most as f64 / sides as f64
    });
    let one_game_players = named.filter(|&n| n == 1).count() as u64
        + counts.folded_by_games.get(&1).copied().unwrap_or(0);
    let (by_player, clusters) = clustered(&counts.buckets, overall);
    Concentration {
        games,
        players: players as u64,
        folded_players: counts.folded_players,
        unnamed_sides: counts.unnamed_sides,
        top: ranked
            .iter()
            .take(top)
            .map(|(key, p)| Frequent {
                name: display_name(counts, key),
                games: **p,
                share: share(p.n),
            })
            .collect(),
        merges: ranked
            .iter()
            .take(MERGES_LISTED)
            .filter_map(|(key, p)| {
                let spellings = counts.spellings.get(*key).filter(|s| s.len() > 1)?;
                let mut listed: Vec<Merged> = by_games(spellings)
                    .map(|s| (Some(s.name.clone()), s.games.n))
                    .collect();
                let unlisted = p.n - listed.iter().map(|s| s.1).sum::<u64>().min(p.n);
                if unlisted > 0 {
                    listed.push((None, unlisted));
                }
                Some((display_name(counts, key), listed))
            })
            .collect(),
        merged_players: counts.spellings.values().filter(|s| s.len() > 1).count() as u64,
        median_games,
        one_game_players,
        top_percent_share,
        by_player,
        clusters,
    }
}

/// The most frequent players whose merged spellings the page lists.
pub const MERGES_LISTED: usize = 100;

/// The name a player is shown by ([`shown`]), with the FIDE ID when two
/// people share the name.
fn display_name(counts: &PlayerCounts, key: &str) -> String {
    let name = spelling(counts, key);
    // Two people of one name are told apart by their IDs.
    match key.split_once(ID_MARK) {
        Some((name_key, id))
            if id.starts_with('f')
                && counts
                    .by_name
                    .range(format!("{name_key}{ID_MARK}")..)
                    .take_while(|(k, _)| k.starts_with(&format!("{name_key}{ID_MARK}")))
                    .nth(1)
                    .is_some() =>
        {
            format!("{name} (FIDE ID {})", &id[1..])
        }
        _ => name,
    }
}

fn spelling(counts: &PlayerCounts, key: &str) -> String {
    let spellings = counts.spellings.get(key).map_or(&[][..], Vec::as_slice);
    shown(spellings).map_or_else(|| key.to_string(), |s| s.name.clone())
}

/// The draw rate's 95 % interval clustered on `clusters` (players, or
/// groups of players: each one's draws and games, a game counted for each
/// of its named players), for `overall` draws among games; and how many
/// clusters had games.
pub fn clustered(clusters: &[Proportion], overall: Proportion) -> (Option<(f64, f64)>, usize) {
    let with_games = clusters.iter().filter(|c| c.n > 0).count();
    let Some(r) = overall.rate() else {
        return (None, with_games);
    };
    if with_games < MIN_CLUSTERS {
        return (None, with_games);
    }
    let games = overall.n as f64;
    let sides: u64 = clusters.iter().map(|c| c.n).sum();
    let squares: f64 = clusters
        .iter()
        .map(|c| (c.successes as f64 - r * c.n as f64).powi(2))
        .sum();
    let independent = games * r * (1.0 - r);
    let extra = (sides as f64 - games) * r * (1.0 - r);
    let variance = (squares - extra).max(independent) / (games * games);
    let half = 1.959_963_984_540_054 * variance.sqrt();
    (Some(((r - half).max(0.0), (r + half).min(1.0))), with_games)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(players: &[(&str, u64, u64)]) -> PlayerCounts {
        let spellings: Vec<&str> = players.iter().map(|p| p.0).collect();
        let games: Vec<u64> = players.iter().map(|p| p.1).collect();
        let draws: Vec<u64> = players.iter().map(|p| p.2).collect();
        let ids: Vec<Option<&str>> = vec![None; spellings.len()];
        let df = df!(
            names::PLAYER => spellings,
            FIDE_ID => ids,
            names::GAMES => games,
            names::DRAWS => draws
        )
        .unwrap();
        counts_from(&df, &Aliases::default()).unwrap()
    }

    #[test]
    fn one_pass_counts_all_games_and_the_classical_ones_as_two_passes_do() {
        // A name on several rows (years, formats), with and without an ID,
        // unnamed sides, and a consultation game.
        let player = [
            Some("Larsen, Bent"),
            Some("Larsen, Bent"),
            Some("Larsen,B"),
            Some("Larsen, Bent"),
            None,
            Some("?"),
            Some("Tal:Koblents"),
            Some("Adams, Michael"),
        ];
        let fide_id = [
            None,
            Some("1200000"),
            None,
            None,
            None,
            None,
            None,
            Some("x"),
        ];
        let year = [
            Some(1970i16),
            Some(1971),
            None,
            Some(1970),
            Some(1980),
            None,
            Some(1960),
            Some(2001),
        ];
        let play = [
            "over the board",
            "over the board",
            "online",
            "over the board",
            "over the board",
            "online",
            "over the board",
            "unknown",
        ];
        let speed = [
            "classical",
            "classical",
            "blitz",
            "rapid",
            "classical",
            "classical",
            "classical",
            "classical",
        ];
        let games = [3u64, 1, 2, 5, 4, 1, 2, 7];
        let draws = [1u64, 0, 2, 1, 0, 1, 1, 3];
        let rated = [3u64, 1, 0, 2, 0, 0, 0, 7];
        let rating_sum = [7200u64, 2500, 0, 4900, 0, 0, 0, 18000];
        let df = df!(
            names::PLAYER => player, FIDE_ID => fide_id, Column::Year.name() => year,
            PLAY => play, EFFECTIVE_TIME_CLASS => speed, names::GAMES => games,
            names::DRAWS => draws, names::RATED => rated, names::RATING_SUM => rating_sum
        )
        .unwrap();
        let (all, classical_only) = counts_and_classical(&df, &Aliases::default()).unwrap();
        assert_eq!(all, counts_from(&df, &Aliases::default()).unwrap());
        assert_eq!(
            classical_only,
            counts_from(&classical(&df).unwrap(), &Aliases::default()).unwrap()
        );
        assert_ne!(all, classical_only);
        // Sides without a name: 4 + 1 games, of which 4 over the board.
        assert_eq!(all.unnamed_sides, 5);
        assert_eq!(classical_only.unnamed_sides, 4);
    }

    #[test]
    fn the_spellings_kept_do_not_depend_on_the_order_of_the_rows() {
        // polars gives groups in any order: the same players in two orders
        // must keep the same spellings (the report is the same page).
        let names = [
            "Larsen,B",
            "Larsen, Ba",
            "Larsen, Bo",
            "Larsen,Be",
            "Larsen,Br",
            "Larsen, B2.",
        ];
        let rows: Vec<(&str, u64, u64)> = names.iter().map(|&n| (n, 3, 1)).collect();
        let mut reversed = rows.clone();
        reversed.reverse();
        let (a, b) = (counts(&rows), counts(&reversed));
        assert_eq!(a.spellings, b.spellings);
        let top = |c: &PlayerCounts| concentration(c, Proportion::new(0, 18), 5).top;
        assert_eq!(top(&a), top(&b));
    }

    #[test]
    fn written_out_given_names_keep_namesakes_apart() {
        let c = concentration(
            &counts(&[
                ("Adams, Michael", 40, 10),
                ("Adams, Mark", 7, 1),
                ("Adams,M", 5, 1),
                ("Karjakin, Sergei", 20, 5),
                ("Karjakin, Sergey", 10, 5),
                ("Karjakin,S", 30, 10),
                ("Aronian, Levon", 50, 20),
                ("Aronian, Laurel", 2, 0),
                ("Aronian,L", 100, 40),
                ("Vachier Lagrave, Mexime", 3, 1),
                ("Vachier-Lagrave,M", 9, 4),
            ]),
            Proportion::new(0, 276),
            10,
        );
        let top: Vec<(String, u64)> = c.top.iter().map(|f| (f.name.clone(), f.games.n)).collect();
        assert_eq!(
            top,
            [
                // The initial alone is the dominant Aronian's.
                ("Aronian, Levon".to_string(), 150),
                ("Karjakin, Sergei".to_string(), 60),
                ("Adams, Michael".to_string(), 40),
                ("Vachier Lagrave, Mexime".to_string(), 12),
                ("Adams, Mark".to_string(), 7),
                // An initial alone cannot say which Adams (40 of 47).
                ("Adams,M".to_string(), 5),
                ("Aronian, Laurel".to_string(), 2),
            ]
        );
    }

    #[test]
    fn fide_ids_join_a_players_spellings_and_keep_namesakes_apart() {
        let rows: [(&str, Option<&str>, u64); 6] = [
            ("Ivanchuk,V", None, 10),
            ("Ivanchuk, Vassily", Some("14100010"), 20),
            // Two people of one key, told apart by their IDs.
            ("Kasparov,S", Some("13500325"), 7),
            ("Kasparov, Sergey", Some("4100239"), 6),
            ("Kasparov,S", None, 5),
            ("Carlsen,M", Some("0"), 3),
        ];
        let df = df!(
            names::PLAYER => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            FIDE_ID => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
            names::GAMES => rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            names::DRAWS => rows.iter().map(|_| 0u64).collect::<Vec<_>>()
        )
        .unwrap();
        let c = concentration(
            &counts_from(&df, &Aliases::default()).unwrap(),
            Proportion::new(0, 51),
            10,
        );
        let top: Vec<(String, u64)> = c.top.iter().map(|f| (f.name.clone(), f.games.n)).collect();
        assert_eq!(
            top,
            [
                ("Ivanchuk, Vassily".to_string(), 30),
                ("Kasparov,S (FIDE ID 13500325)".to_string(), 7),
                ("Kasparov, Sergey (FIDE ID 4100239)".to_string(), 6),
                ("Kasparov,S".to_string(), 5),
                ("Carlsen,M".to_string(), 3),
            ]
        );
    }

    #[test]
    fn the_concentration_counts_the_folded_players_too() {
        // 1,000 one-game players, kept to 50 by name: all 1,000 have one
        // game, the median is 1, and the top 1 % (10 players) hold 10 of
        // the 1,000 sides.
        let names: Vec<String> = (0..1000).map(|i| format!("p{i:04}")).collect();
        let players: Vec<(&str, u64, u64)> = names.iter().map(|n| (n.as_str(), 1, 0)).collect();
        let mut c = counts(&players);
        c.fold_past(50);
        assert_eq!(c.by_name.len(), 50);
        assert_eq!(c.folded_players, 950);
        let k = concentration(&c, Proportion::new(0, 500), 10);
        assert_eq!(k.players, 1000);
        assert_eq!(k.one_game_players, 1000);
        assert_eq!(k.median_games, Some(1));
        assert!((k.top_percent_share.unwrap() - 0.01).abs() < 1e-12, "{k:?}");

        // A few players with many games and many folded with one or two.
        let mut players = vec![("A", 100u64, 10u64), ("B", 50, 5)];
        players.extend(players_with(&names[..300], 2));
        players.extend(players_with(&names[300..], 1));
        let mut c = counts(&players);
        c.fold_past(10);
        assert_eq!(c.folded_by_games.values().sum::<u64>(), c.folded_players);
        let k = concentration(&c, Proportion::new(0, 600), 10);
        assert_eq!(k.players, 1002);
        assert_eq!(k.one_game_players, 700);
        assert_eq!(k.median_games, Some(1));
        // The top 11 players: A, B and nine with two games.
        let sides = 100 + 50 + 300 * 2 + 700;
        let want = (100 + 50 + 9 * 2) as f64 / sides as f64;
        assert!((k.top_percent_share.unwrap() - want).abs() < 1e-12, "{k:?}");
    }

    fn players_with(names: &[String], games: u64) -> Vec<(&str, u64, u64)> {
        names.iter().map(|n| (n.as_str(), games, 0)).collect()
    }

    #[test]
    fn unnamed_sides_are_not_players() {
        let c = counts(&[("A", 3, 1), ("?", 2, 0), (" ", 1, 1), ("B", 3, 1)]);
        assert_eq!(c.by_name.len(), 2);
        assert_eq!(c.unnamed_sides, 3);
        let total: u64 = c.buckets.iter().map(|p| p.n).sum();
        assert_eq!(total, 6);
    }

    #[test]
    fn merging_equals_counting_the_union() {
        let a = counts(&[("A", 3, 1), ("B", 1, 0)]);
        let b = counts(&[("A", 2, 2), ("C", 4, 1)]);
        let union = counts(&[("A", 5, 3), ("B", 1, 0), ("C", 4, 1)]);
        let mut merged = a;
        merged.absorb(b);
        assert_eq!(merged, union);
    }

    #[test]
    fn one_player_in_every_game_widens_the_interval() {
        // 40 opponents; one player is in every game and draws them all
        // against half of the opponents: the games are far from
        // independent, and clustering by player says so.
        let mut players = vec![("Hub".to_string(), 400u64, 200u64)];
        for i in 0..40 {
            players.push((format!("p{i}"), 10, if i % 2 == 0 { 10 } else { 0 }));
        }
        let refs: Vec<(&str, u64, u64)> = players
            .iter()
            .map(|(n, g, d)| (n.as_str(), *g, *d))
            .collect();
        let c = concentration(&counts(&refs), Proportion::new(200, 400), 5);
        assert_eq!(c.top[0].name, "Hub");
        assert_eq!(c.top[0].share, 1.0);
        let (lo, hi) = c.by_player.expect("41 players");
        let wilson = Proportion::new(200, 400).wilson95().unwrap();
        assert!(lo < 0.5 && hi > 0.5);
        assert!(
            hi - lo > wilson.1 - wilson.0,
            "{lo}–{hi} against {wilson:?}"
        );
    }

    #[test]
    fn few_players_get_no_clustered_interval() {
        let c = concentration(
            &counts(&[("A", 10, 5), ("B", 10, 5)]),
            Proportion::new(5, 10),
            5,
        );
        assert_eq!(c.by_player, None);
        assert_eq!(c.players, 2);
    }

    #[test]
    fn players_who_never_meet_again_give_the_independent_interval() {
        // 100 games, each between two players seen nowhere else: the
        // clustered variance is r(1-r)/G exactly.
        let mut players = Vec::new();
        for i in 0..100u64 {
            let draw = u64::from(i % 4 == 0);
            players.push((format!("w{i}"), 1, draw));
            players.push((format!("b{i}"), 1, draw));
        }
        let clusters: Vec<Proportion> = players
            .iter()
            .map(|(_, g, d)| Proportion::new(*d, *g))
            .collect();
        let (ci, n) = clustered(&clusters, Proportion::new(25, 100));
        let (lo, hi) = ci.unwrap();
        let half = 1.959_963_984_540_054 * (0.25f64 * 0.75 / 100.0).sqrt();
        assert_eq!(n, 200);
        assert!((lo - (0.25 - half)).abs() < 1e-12 && (hi - (0.25 + half)).abs() < 1e-12);
    }

    #[test]
    fn the_cap_folds_the_players_with_fewest_games() {
        let mut c = PlayerCounts::default();
        for i in 0..PLAYER_CAP + 2 {
            c.by_name
                .insert(format!("p{i:07}"), Proportion::new(0, 1 + (i == 5) as u64));
        }
        c.fold_past_cap();
        assert_eq!(c.by_name.len(), PLAYER_CAP);
        assert_eq!(c.folded_players, 2);
        assert!(c.by_name.contains_key("p0000005"));
        assert_eq!(c.folded.n, 2);
        // Among equal games the last names are folded: the two last of
        // the one-game players.
        let last = format!("p{:07}", PLAYER_CAP + 1);
        let second_last = format!("p{:07}", PLAYER_CAP);
        assert!(!c.by_name.contains_key(&last) && !c.by_name.contains_key(&second_last));
        assert!(c.by_name.contains_key(&format!("p{:07}", PLAYER_CAP - 1)));
    }

    #[test]
    fn an_early_fold_keeps_every_game_and_draw() {
        // A builder folds whenever it meets more than PLAYERS_UNFOLDED
        // players; a player folded then and met again is named again.
        let mut c = PlayerCounts::default();
        for (name, games) in [("a", 1), ("b", 1), ("c", 3), ("d", 4)] {
            c.by_name.insert(name.into(), Proportion::new(1, games));
        }
        c.fold_past(2);
        assert_eq!(c.by_name.keys().collect::<Vec<_>>(), ["c", "d"]);
        let mut later = PlayerCounts::default();
        later.by_name.insert("a".into(), Proportion::new(0, 5));
        c.absorb_unfolded(later);
        c.fold_past(2);
        assert_eq!(c.by_name.keys().collect::<Vec<_>>(), ["a", "d"]);
        let named: u64 = c.by_name.values().map(|p| p.n).sum();
        let draws: u64 = c.by_name.values().map(|p| p.successes).sum();
        assert_eq!(named + c.folded.n, 1 + 1 + 3 + 4 + 5);
        assert_eq!(draws + c.folded.successes, 4);
        // "a"'s first game and "c" are folded; "b" too: three fold events.
        assert_eq!(c.folded_players, 3);
    }
}
