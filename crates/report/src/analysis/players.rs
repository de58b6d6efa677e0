//! Games are not independent draws from one population: the same players
//! meet again and again (a collection of one player's games, an online
//! account's thousands of blitz games). This part counts games by player,
//! for a table of how concentrated the games are, and gives the draw rate
//! an interval resampled by player (a cluster bootstrap) to set beside the
//! Wilson interval, which treats every game as independent.
//!
//! Both parts are sums over games, so they merge across tables:
//! - each named player's games and draws, up to [`PLAYER_CAP`] players
//!   (past it, the players with the fewest games are folded together, and
//!   the page says so);
//! - the same counts gathered into [`BUCKETS`] groups of players by a hash
//!   of the name: a fixed-size part, whatever the number of players.
//!
//! The bootstrap resamples those groups. A group of players is a cluster of
//! clusters, so resampling groups keeps every player's games together; with
//! fewer players than groups, nearly every group is one player. A game
//! counts once for each of its named players (its two sides), so a game
//! between two players sits in both their groups.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;
use remis_core::{fnv::fnv1a, rng::Rng};
use remis_table::schema::Column;
use serde::{Deserialize, Serialize};

use super::merge::{Merge, pairs};
use super::table::IS_DRAW;
use crate::study::Proportion;

/// Groups of players for the bootstrap.
pub const BUCKETS: usize = 1024;
/// Named players kept per summary; those with the fewest games beyond it
/// are folded together.
pub const PLAYER_CAP: usize = 200_000;
/// Groups with games needed before resampling them means anything.
pub const MIN_CLUSTERS: usize = 30;
const REPLICATES: usize = 1000;
const SEED: u64 = 1851; // the year of the first international tournament

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
    /// The same counts by group of players ([`BUCKETS`] of them, by a hash
    /// of the name); empty when no game had a named player.
    pub buckets: Vec<Proportion>,
    /// Sides of used games without a player's name (missing or "?").
    pub unnamed_sides: u64,
}

impl Merge for PlayerCounts {
    fn absorb(&mut self, other: PlayerCounts) {
        self.by_name.absorb(other.by_name);
        self.folded_players += other.folded_players;
        self.folded.absorb(other.folded);
        if self.buckets.is_empty() {
            self.buckets = other.buckets;
        } else if !other.buckets.is_empty() {
            for (a, b) in self.buckets.iter_mut().zip(other.buckets) {
                a.absorb(b);
            }
        }
        self.unnamed_sides += other.unnamed_sides;
        self.fold_past_cap();
    }
}

impl PlayerCounts {
    /// Folds the players with the fewest games (then the last names) past
    /// [`PLAYER_CAP`].
    fn fold_past_cap(&mut self) {
        if self.by_name.len() <= PLAYER_CAP {
            return;
        }
        let mut ranked: Vec<(String, Proportion)> =
            std::mem::take(&mut self.by_name).into_iter().collect();
        ranked.sort_by(|a, b| b.1.n.cmp(&a.1.n).then_with(|| a.0.cmp(&b.0)));
        for (_, counts) in ranked.drain(PLAYER_CAP..) {
            self.folded_players += 1;
            self.folded.absorb(counts);
        }
        self.by_name = ranked.into_iter().collect();
    }
}

fn is_named(name: &str) -> bool {
    let name = name.trim();
    !name.is_empty() && name != "?"
}

fn bucket(name: &str) -> usize {
    (fnv1a(name.trim().as_bytes()) % BUCKETS as u64) as usize
}

/// Games and draws by player name, over both sides of the used games.
pub fn query(used: LazyFrame) -> LazyFrame {
    let side = |player: Column| {
        used.clone()
            .select([player.col().alias("player"), col(IS_DRAW)])
    };
    concat(
        [side(Column::White), side(Column::Black)],
        UnionArgs::default(),
    )
    .expect("two frames of the same columns concatenate")
    .group_by([col("player")])
    .agg([
        len().cast(DataType::UInt64).alias("games"),
        col(IS_DRAW).cast(DataType::UInt64).sum().alias("draws"),
    ])
}

pub fn counts_from(df: &DataFrame) -> Result<PlayerCounts> {
    let players = df.column("player")?.str()?;
    let games = df.column("games")?.u64()?;
    let draws = df.column("draws")?.u64()?;
    let mut out = PlayerCounts::default();
    for i in 0..df.height() {
        let counts = Proportion::new(draws.get(i).unwrap_or(0), games.get(i).unwrap_or(0));
        match players.get(i).filter(|p| is_named(p)) {
            Some(name) => {
                if out.buckets.is_empty() {
                    out.buckets = vec![Proportion::new(0, 0); BUCKETS];
                }
                out.buckets[bucket(name)].absorb(counts);
                out.by_name
                    .entry(name.trim().to_string())
                    .or_insert(Proportion::new(0, 0))
                    .absorb(counts);
            }
            None => out.unnamed_sides += counts.n,
        }
    }
    out.fold_past_cap();
    Ok(out)
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
    /// Games per named player: the median, and players with one game.
    pub median_games: Option<u64>,
    pub one_game_players: u64,
    /// The share of game sides (two a game) held by the most frequent 1 %
    /// of players.
    pub top_percent_share: Option<f64>,
    /// The draw rate resampled by player: the 95 % percentile interval of
    /// a cluster bootstrap over groups of players; `None` with fewer than
    /// [`MIN_CLUSTERS`] groups.
    pub by_player: Option<(f64, f64)>,
    /// Groups of players resampled.
    pub clusters: usize,
}

/// The concentration table and the resampled interval, from the counts;
/// `games` is the number of games used.
pub fn concentration(counts: &PlayerCounts, games: u64, top: usize) -> Concentration {
    let mut ranked: Vec<(&String, &Proportion)> = counts.by_name.iter().collect();
    ranked.sort_by(|a, b| b.1.n.cmp(&a.1.n).then_with(|| a.0.cmp(b.0)));
    let share = |n: u64| {
        if games > 0 {
            n as f64 / games as f64
        } else {
            0.0
        }
    };
    let mut per_player: Vec<u64> = ranked.iter().map(|(_, p)| p.n).collect();
    per_player.reverse();
    let median_games = (!per_player.is_empty()).then(|| per_player[per_player.len() / 2]);
    let sides: u64 = counts.by_name.values().map(|p| p.n).sum::<u64>() + counts.folded.n;
    let top_percent = ranked.len().div_ceil(100);
    let top_percent_share = (sides > 0 && !ranked.is_empty())
        .then(|| ranked[..top_percent].iter().map(|(_, p)| p.n).sum::<u64>() as f64 / sides as f64);
    let (by_player, clusters) = resampled_by_player(&counts.buckets);
    Concentration {
        games,
        players: counts.by_name.len() as u64 + counts.folded_players,
        folded_players: counts.folded_players,
        unnamed_sides: counts.unnamed_sides,
        top: ranked
            .iter()
            .take(top)
            .map(|(name, p)| Frequent {
                name: (*name).clone(),
                games: **p,
                share: share(p.n),
            })
            .collect(),
        median_games,
        one_game_players: per_player.iter().filter(|&&n| n == 1).count() as u64,
        top_percent_share,
        by_player,
        clusters,
    }
}

/// The draw rate's 95 % interval from resampling the groups of players
/// with games, and how many groups there were.
pub fn resampled_by_player(buckets: &[Proportion]) -> (Option<(f64, f64)>, usize) {
    let groups: Vec<Proportion> = buckets.iter().copied().filter(|p| p.n > 0).collect();
    if groups.len() < MIN_CLUSTERS {
        return (None, groups.len());
    }
    let mut rng = Rng::new(SEED);
    let replicates: Vec<f64> = (0..REPLICATES)
        .filter_map(|_| {
            let (mut draws, mut n) = (0u64, 0u64);
            for _ in 0..groups.len() {
                let g = groups[rng.below(groups.len() as u64) as usize];
                draws += g.successes;
                n += g.n;
            }
            (n > 0).then(|| draws as f64 / n as f64)
        })
        .collect();
    (
        super::rule_study::percentile_interval(replicates),
        groups.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(players: &[(&str, u64, u64)]) -> PlayerCounts {
        let names: Vec<&str> = players.iter().map(|p| p.0).collect();
        let games: Vec<u64> = players.iter().map(|p| p.1).collect();
        let draws: Vec<u64> = players.iter().map(|p| p.2).collect();
        let df = df!("player" => names, "games" => games, "draws" => draws).unwrap();
        counts_from(&df).unwrap()
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
        // independent, and resampling by player says so.
        let mut players = vec![("Hub".to_string(), 400u64, 200u64)];
        for i in 0..40 {
            players.push((format!("p{i}"), 10, if i % 2 == 0 { 10 } else { 0 }));
        }
        let refs: Vec<(&str, u64, u64)> = players
            .iter()
            .map(|(n, g, d)| (n.as_str(), *g, *d))
            .collect();
        let c = concentration(&counts(&refs), 400, 5);
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
    fn few_players_are_not_resampled() {
        let c = concentration(&counts(&[("A", 10, 5), ("B", 10, 5)]), 10, 5);
        assert_eq!(c.by_player, None);
        assert_eq!(c.players, 2);
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
    }
}
