//! The players of a table numbered once for the whole build, and their
//! counts kept in vectors by number: what the players' counts and the
//! expected-draw cells by player hold by identity, counted without a
//! lookup by text in an ordered map for every group of every batch.
//!
//! A side (a name as the tags write it, with its FIDE ID tag) is looked up
//! once a row in a hash map of its bytes; its identity
//! (`players::identity_of`), the group of its name's key and its spelling
//! are made the first time it is met. The counts by number are made into
//! the summary's maps (keyed by identity) at the end. Whenever the named
//! players pass the builder's bound they are folded by number as the maps
//! are folded, and the players no longer counted are forgotten, so that
//! the numbering holds no more players than the counts do. What comes out
//! is what adding each batch's groups to the maps made (the tests hold it
//! to the polars queries' counts, in any batches, folded or not).
//!
//! On the master games A–F the players' groups and their merges into the
//! maps keyed by text took half of the thread that counts the summary
//! (docs/performance.md, issue 50).

use std::collections::HashMap;

use anyhow::Result;
use polars::prelude::*;

use remis_table::players::Aliases;
use remis_table::schema::{Column, TimeClass};

use crate::analysis::expected::cells::{CellKey, DrawCells, PlayerCells, RawFormat, row_cells};
use crate::analysis::merge::Merge;
use crate::analysis::players::{
    self, PlayerCounts, SPELLINGS_KEPT, Spelling, YearGames, add_spelling_games, identity_of,
    kept_first, trim_spellings,
};
use crate::analysis::population::{ByFormat, format_of};
use crate::analysis::table::{EFFECTIVE_TIME_CLASS, IS_DRAW, PLAY, Play};
use crate::study::Proportion;

/// A side without a name (missing, or no side at all).
pub(crate) const NO_SIDE: u32 = u32::MAX;

/// Sides remembered from batch to batch; past them, the sides are looked
/// up afresh. The players are bounded by the folds, but not the ways of
/// writing them: a file may spell one player a million ways, or write a
/// million names that name no one, and each is a side (some 130 bytes).
const SIDES_REMEMBERED: usize = 2 * super::PLAYERS_UNFOLDED;

/// Sides and players by number.
pub(crate) struct Numbering {
    /// A side's bytes (its name, a 0xFF that UTF-8 never holds, then
    /// nothing or a 0 and its FIDE ID tag) → its number in `sides`.
    side_of: PlHashMap<Box<[u8]>, u32>,
    /// The text of the side looked up, made in place.
    text: Vec<u8>,
    sides: Vec<Side>,
    /// [`SIDES_REMEMBERED`], but in tests.
    sides_remembered: usize,
    player_of: PlHashMap<Box<str>, u32>,
    identities: Vec<Box<str>>,
}

impl Default for Numbering {
    fn default() -> Self {
        Numbering {
            side_of: PlHashMap::default(),
            text: Vec::new(),
            sides: Vec::new(),
            sides_remembered: SIDES_REMEMBERED,
            player_of: PlHashMap::default(),
            identities: Vec::new(),
        }
    }
}

/// What a side stands for.
struct Side {
    /// Its identity's number and the group of its name's key; `None` for
    /// a name that names no one ("?", or punctuation alone).
    player: Option<(u32, usize)>,
    /// The name as the players' spellings keep it (trimmed).
    spelling: Box<str>,
}

impl Numbering {
    /// The number of each used row's sides, White's then Black's
    /// ([`NO_SIDE`] for a side without a name).
    pub(crate) fn sides_of(
        &mut self,
        used: &DataFrame,
        aliases: &Aliases,
    ) -> Result<Vec<[u32; 2]>> {
        // A side's number holds for one batch: past their bound the sides
        // are forgotten between two.
        if self.sides.len() > self.sides_remembered {
            self.side_of = PlHashMap::default();
            self.sides = Vec::new();
        }
        let column = |c: Column| -> Result<&StringChunked> { Ok(used.column(c.name())?.str()?) };
        let white = column(Column::White)?
            .iter()
            .zip(column(Column::WhiteFideId)?.iter());
        let black = column(Column::Black)?
            .iter()
            .zip(column(Column::BlackFideId)?.iter());
        let mut out = Vec::with_capacity(used.height());
        for ((white, white_id), (black, black_id)) in white.zip(black) {
            out.push([
                self.side(aliases, white, white_id),
                self.side(aliases, black, black_id),
            ]);
        }
        Ok(out)
    }

    fn side(&mut self, aliases: &Aliases, name: Option<&str>, fide_id: Option<&str>) -> u32 {
        let Some(name) = name else {
            return NO_SIDE;
        };
        self.text.clear();
        self.text.extend_from_slice(name.as_bytes());
        self.text.push(0xff);
        if let Some(id) = fide_id {
            self.text.push(0);
            self.text.extend_from_slice(id.as_bytes());
        }
        if let Some(&number) = self.side_of.get(self.text.as_slice()) {
            return number;
        }
        let player = identity_of(aliases, name, fide_id)
            .map(|(identity, name_key)| (self.player(&identity), players::bucket(&name_key)));
        let number = self.sides.len() as u32;
        self.sides.push(Side {
            player,
            spelling: name.trim().into(),
        });
        self.side_of.insert(self.text.as_slice().into(), number);
        number
    }

    /// The number of an identity, made if it has none.
    fn player(&mut self, identity: &str) -> u32 {
        if let Some(&number) = self.player_of.get(identity) {
            return number;
        }
        let number = self.identities.len() as u32;
        self.identities.push(identity.into());
        self.player_of.insert(identity.into(), number);
        number
    }

    fn side_player(&self, side: u32) -> Option<(u32, usize)> {
        self.sides.get(side as usize).and_then(|s| s.player)
    }

    /// The players' numbers in the order of their identities, and each
    /// number's place in it.
    fn by_identity(&self) -> (Vec<u32>, Vec<u32>) {
        let mut order: Vec<u32> = (0..self.identities.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| {
            self.identities[a as usize].cmp(&self.identities[b as usize])
        });
        let mut rank = vec![0; order.len()];
        for (place, &player) in order.iter().enumerate() {
            rank[player as usize] = place as u32;
        }
        (order, rank)
    }
}

/// One [`PlayerCounts`] by number: each player's games and spellings in
/// vectors, the rest (groups, unnamed sides, the folded players) as the
/// counts hold them.
#[derive(Default)]
pub(crate) struct PlayerTally {
    games: Vec<Option<Proportion>>,
    spellings: Vec<Vec<Spelling>>,
    met: usize,
    /// `by_name` and `spellings` empty.
    rest: PlayerCounts,
}

impl PlayerTally {
    /// Named players counted.
    pub(crate) fn players(&self) -> usize {
        self.met
    }

    fn add(
        &mut self,
        player: u32,
        group: usize,
        spelling: &str,
        counts: Proportion,
        year: Option<YearGames>,
    ) {
        let at = player as usize;
        if at >= self.games.len() {
            self.games.resize(at + 1, None);
            self.spellings.resize_with(at + 1, Vec::new);
        }
        match &mut self.games[at] {
            Some(games) => games.absorb(counts),
            none => {
                *none = Some(counts);
                self.met += 1;
            }
        }
        add_spelling_games(&mut self.spellings[at], spelling, counts, year);
        self.rest.add_to_group(group, counts);
    }

    /// The counts keyed by identity; `order`: the numbers by identity
    /// ([`Numbering::by_identity`]), so that the maps are built from
    /// sorted runs.
    fn take(&mut self, numbering: &Numbering, order: &[u32]) -> PlayerCounts {
        let mut out = std::mem::take(&mut self.rest);
        let games = std::mem::take(&mut self.games);
        let mut spellings = std::mem::take(&mut self.spellings);
        self.met = 0;
        let mut by_name = Vec::new();
        let mut spelt = Vec::new();
        for &player in order {
            let at = player as usize;
            let Some(games) = games.get(at).copied().flatten() else {
                continue;
            };
            let identity = numbering.identities[at].to_string();
            spelt.push((identity.clone(), std::mem::take(&mut spellings[at])));
            by_name.push((identity, games));
        }
        out.by_name = by_name.into_iter().collect();
        out.spellings = spelt.into_iter().collect();
        out
    }

    /// [`PlayerCounts::fold_past`] by number (`identities`: the numbers'
    /// identities, which break ties in games): the same players kept, the
    /// same folded. Only which players are kept matters, so they are
    /// selected, not sorted.
    fn fold_past(&mut self, cap: usize, identities: &[Box<str>]) {
        for kept in &mut self.spellings {
            trim_spellings(kept, SPELLINGS_KEPT);
        }
        if self.met <= cap {
            return;
        }
        let mut ranked: Vec<(u32, Proportion)> = self
            .games
            .iter()
            .enumerate()
            .filter_map(|(at, games)| games.map(|games| (at as u32, games)))
            .collect();
        ranked.select_nth_unstable_by(cap, |a, b| {
            kept_first(
                (a.1, &identities[a.0 as usize]),
                (b.1, &identities[b.0 as usize]),
            )
        });
        for &(player, counts) in &ranked[cap..] {
            let at = player as usize;
            self.games[at] = None;
            self.spellings[at] = Vec::new();
            self.rest.count_folded(counts);
        }
        self.met = cap;
    }

    /// The counts under the players' new numbers (`renumbered`, by old
    /// number; `u32::MAX` for a player forgotten, whom these counts do
    /// not hold), `players` of them.
    fn renumber(&mut self, renumbered: &[u32], players: usize) {
        let mut games = vec![None; players];
        let mut spellings: Vec<Vec<Spelling>> = Vec::new();
        spellings.resize_with(players, Vec::new);
        for (at, counts) in std::mem::take(&mut self.games).into_iter().enumerate() {
            let Some(counts) = counts else { continue };
            let new = renumbered[at] as usize;
            games[new] = Some(counts);
            spellings[new] = std::mem::take(&mut self.spellings[at]);
        }
        self.games = games;
        self.spellings = spellings;
    }
}

/// The expected-draw cells of each named player's games by format and
/// number ([`DrawCells::players`] by number).
#[derive(Default)]
pub(crate) struct PlayerCellTally {
    formats: Vec<(Play, String)>,
    /// By format, player and cell in one map: a tree of cells for each
    /// player cost a second lookup, in memory of its own, for every
    /// side of every row (a tenth of the counting thread on the master
    /// games).
    cells: PlHashMap<(u32, u32, CellKey), [u64; 2]>,
}

impl PlayerCellTally {
    /// The number of a format.
    pub(crate) fn format(&mut self, format: (Play, String)) -> u32 {
        match self.formats.iter().position(|known| *known == format) {
            Some(at) => at as u32,
            None => {
                self.formats.push(format);
                (self.formats.len() - 1) as u32
            }
        }
    }

    /// Adds a player's games (`[games, draws]`) in a cell of a format.
    pub(crate) fn add(&mut self, format: u32, player: u32, cell: CellKey, counts: [u64; 2]) {
        self.cells
            .entry((format, player, cell))
            .or_default()
            .absorb(counts);
    }

    /// The cells keyed by identity, added to `out`'s formats; `rank`:
    /// each number's place among the identities in order.
    fn take_into(&mut self, numbering: &Numbering, rank: &[u32], out: &mut ByFormat<DrawCells>) {
        let mut cells: Vec<_> = std::mem::take(&mut self.cells).into_iter().collect();
        cells.sort_unstable_by_key(|&((format, player, cell), _)| {
            (format, rank[player as usize], cell)
        });
        for of_format in cells.chunk_by(|a, b| a.0.0 == b.0.0) {
            let format = of_format[0].0.0;
            let players = of_format.chunk_by(|a, b| a.0.1 == b.0.1).map(|of_player| {
                let identity = numbering.identities[of_player[0].0.1 as usize].to_string();
                let by_cell = of_player
                    .iter()
                    .map(|&((_, _, cell), counts)| (cell, counts));
                (identity, PlayerCells(by_cell.collect()))
            });
            out.parts
                .entry(self.formats[format as usize].clone())
                .or_default()
                .players
                .absorb(players.collect());
        }
    }
}

/// The players' counts (all games', and the over-the-board classical
/// games') and the players' cells, by number.
#[derive(Default)]
pub(crate) struct Numbered {
    pub(crate) numbering: Numbering,
    all: PlayerTally,
    classical: PlayerTally,
    cells: PlayerCellTally,
}

impl Numbered {
    /// Adds a batch's used rows (a frame of `table::prepare_frame`'s
    /// columns, its used rows only, with their `sides`) to the players'
    /// counts, as `players::query`'s groups are added: each side's games
    /// by year, and the over-the-board classical ones also to the second
    /// counts.
    pub(crate) fn add_players(&mut self, used: &DataFrame, sides: &[[u32; 2]]) -> Result<()> {
        let year = used.column(Column::Year.name())?.i16()?;
        let is_draw = used.column(IS_DRAW)?.bool()?;
        let play = used.column(PLAY)?.str()?;
        let speed = used.column(EFFECTIVE_TIME_CLASS)?.str()?;
        let white_elo = used.column(Column::WhiteElo.name())?.u16()?;
        let black_elo = used.column(Column::BlackElo.name())?.u16()?;
        let classical = TimeClass::Classical.as_str();
        let over_the_board = Play::OverTheBoard.as_str();
        // A side's games by year, and whether over-the-board classical:
        // `[games, draws, rated, rating sum]`.
        // A fixed hasher: the groups are added in the same order every run,
        // so a player past the spellings held keeps the same ones.
        let mut groups: HashMap<(u32, Option<i16>, bool), [u64; 4], PlFixedStateQuality> =
            HashMap::default();
        let rows = sides
            .iter()
            .zip(year.iter())
            .zip(is_draw.iter())
            .zip(play.iter().zip(speed.iter()))
            .zip(white_elo.iter().zip(black_elo.iter()));
        for ((((sides, year), is_draw), (play, speed)), (white_elo, black_elo)) in rows {
            let also = play == Some(over_the_board) && speed == Some(classical);
            let draw = u64::from(is_draw == Some(true));
            for (side, elo) in [(sides[0], white_elo), (sides[1], black_elo)] {
                let group = groups.entry((side, year, also)).or_default();
                group[0] += 1;
                group[1] += draw;
                group[2] += u64::from(elo.is_some_and(|e| e > 0));
                group[3] += elo.map_or(0, u64::from);
            }
        }
        for ((side, year, also), [games, draws, rated, rating_sum]) in groups {
            let counts = Proportion::new(draws, games);
            let tallies = std::iter::once(&mut self.all).chain(also.then_some(&mut self.classical));
            let Some((player, group)) = self.numbering.side_player(side) else {
                for tally in tallies {
                    tally.rest.unnamed_sides += games;
                }
                continue;
            };
            let spelling = &self.numbering.sides[side as usize].spelling;
            let year = year.map(|year| YearGames {
                year,
                games,
                rated,
                rating_sum,
            });
            for tally in tallies {
                tally.add(player, group, spelling, counts, year);
            }
        }
        Ok(())
    }

    /// Adds a batch's used rows (with their `sides`) to the players'
    /// expected-draw cells, as `expected::cells::players_query` groups
    /// them: each named side's rated games by format and cell.
    pub(crate) fn add_cells(&mut self, used: &DataFrame, sides: &[[u32; 2]]) -> Result<()> {
        // The rows of a batch come in runs of one format: its number is
        // looked up again only when the format changes.
        let mut last: Option<(RawFormat, u32)> = None;
        for (row, sides) in row_cells(used)?.zip(sides) {
            let Some((cell, game, format)) = row else {
                continue;
            };
            let number = match last {
                Some((seen, number)) if seen == format => number,
                _ => {
                    let number = self.cells.format(format_of(format.0, format.1));
                    last = Some((format, number));
                    number
                }
            };
            for side in *sides {
                if let Some((player, _)) = self.numbering.side_player(side) {
                    self.cells
                        .add(number, player, cell, [game.games, game.draws]);
                }
            }
        }
        Ok(())
    }

    /// Folds the players' counts that hold more than `limit` named
    /// players past `cap` (`players::PLAYER_CAP`), as the builder folds
    /// the maps (`PlayerCounts::fold_past`; the cells of the players no
    /// longer kept dropped with them), by number, and forgets the players
    /// neither counts keeps: the numbering holds no more players than the
    /// counts do. A table of millions of players folds every few batches:
    /// made into the maps and numbered again at each fold, 800,000 players
    /// spent half the counting thread's time in the folds.
    pub(crate) fn fold_past(&mut self, limit: usize, cap: usize) {
        let folded = self.all.players() > limit;
        if !folded && self.classical.players() <= limit {
            return;
        }
        let identities = &self.numbering.identities;
        for tally in [&mut self.all, &mut self.classical] {
            if tally.players() > limit {
                tally.fold_past(cap, identities);
            }
        }
        if folded {
            let all = &self.all.games;
            self.cells
                .cells
                .retain(|&(_, player, _), _| all.get(player as usize).is_some_and(Option::is_some));
        }
        self.forget_unmet();
    }

    /// Numbers again, in the same order, the players either counts holds,
    /// and forgets the others (and their sides).
    fn forget_unmet(&mut self) {
        let met = |tally: &PlayerTally, at: usize| tally.games.get(at).is_some_and(Option::is_some);
        let numbering = &mut self.numbering;
        let mut renumbered = vec![u32::MAX; numbering.identities.len()];
        let mut identities = Vec::new();
        for (at, identity) in numbering.identities.iter_mut().enumerate() {
            if met(&self.all, at) || met(&self.classical, at) {
                renumbered[at] = identities.len() as u32;
                identities.push(std::mem::take(identity));
            }
        }
        numbering.identities = identities;
        numbering.player_of.retain(|_, number| {
            let new = renumbered[*number as usize];
            *number = new;
            new != u32::MAX
        });
        for tally in [&mut self.all, &mut self.classical] {
            tally.renumber(&renumbered, numbering.identities.len());
        }
        self.cells.cells = std::mem::take(&mut self.cells.cells)
            .into_iter()
            .filter_map(|((format, player, cell), counts)| {
                let new = renumbered[player as usize];
                (new != u32::MAX).then_some(((format, new, cell), counts))
            })
            .collect();
        // A side whose player is forgotten is looked up afresh if met
        // again; a side that names no one stays.
        let mut side_renumbered = vec![u32::MAX; numbering.sides.len()];
        let mut sides = Vec::new();
        for (at, mut side) in std::mem::take(&mut numbering.sides).into_iter().enumerate() {
            match &mut side.player {
                Some((player, _)) if renumbered[*player as usize] == u32::MAX => continue,
                Some((player, _)) => *player = renumbered[*player as usize],
                None => {}
            }
            side_renumbered[at] = sides.len() as u32;
            sides.push(side);
        }
        numbering.sides = sides;
        numbering.side_of.retain(|_, number| {
            let new = side_renumbered[*number as usize];
            *number = new;
            new != u32::MAX
        });
    }

    /// The counts keyed by identity: all games' players, the classical
    /// games' players, and the players' cells by format.
    pub(crate) fn take(&mut self) -> (PlayerCounts, PlayerCounts, ByFormat<DrawCells>) {
        let (order, rank) = self.numbering.by_identity();
        let all = self.all.take(&self.numbering, &order);
        let classical = self.classical.take(&self.numbering, &order);
        let mut cells = ByFormat::default();
        self.cells.take_into(&self.numbering, &rank, &mut cells);
        (all, classical, cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::players::{SPELLINGS_HELD, counts_and_classical, query};
    use crate::analysis::table::IS_DRAW;

    /// Used rows (of `table::prepare_frame`'s columns) of games of one
    /// player under the spellings `white` against one opponent.
    fn used_rows(white: &[String], draws: usize) -> DataFrame {
        let n = white.len();
        let black = vec!["Opponent, A"; n];
        let none: Vec<Option<&str>> = vec![None; n];
        df!(
            Column::White.name() => white,
            Column::Black.name() => black,
            Column::WhiteFideId.name() => none.clone(),
            Column::BlackFideId.name() => none,
            Column::WhiteElo.name() => vec![2500u16; n],
            Column::BlackElo.name() => vec![2400u16; n],
            Column::Year.name() => vec![1990i16; n],
            IS_DRAW => (0..n).map(|i| i < draws).collect::<Vec<bool>>(),
            PLAY => vec![Play::OverTheBoard.as_str(); n],
            EFFECTIVE_TIME_CLASS => vec![TimeClass::Classical.as_str(); n],
        )
        .expect("a frame of equal columns")
    }

    #[test]
    fn counted_by_number_equals_the_batches_merged() -> Result<()> {
        // One player under many spellings (fewer than are held), in two
        // batches: the second repeats some of the first's with more games.
        let spelling = |i: usize| format!("Korchnoi, V ({i})");
        let first: Vec<String> = (0..100).map(spelling).collect();
        let mut second: Vec<String> = (100..200).map(spelling).collect();
        for i in 0..20 {
            second.extend(std::iter::repeat_n(spelling(i), 3));
        }
        let aliases = Aliases::default();
        let mut numbered = Numbered::default();
        let (mut merged, mut merged_classical) = (PlayerCounts::default(), PlayerCounts::default());
        for batch in [used_rows(&first, 10), used_rows(&second, 30)] {
            let sides = numbered.numbering.sides_of(&batch, &aliases)?;
            numbered.add_players(&batch, &sides)?;
            let groups = query(batch.lazy()).collect()?;
            let (batch_all, batch_classical) = counts_and_classical(&groups, &aliases)?;
            merged.absorb_unfolded(batch_all);
            merged_classical.absorb_unfolded(batch_classical);
        }
        let (all, classical, _) = numbered.take();
        let kept = &all.spellings["korchnoi v"];
        assert_eq!(kept.len(), 200);
        assert!(kept.iter().any(|k| k.name == spelling(0) && k.games.n == 4));
        assert_eq!(all, merged);
        assert_eq!(classical, merged_classical);
        assert_eq!(all.by_name["korchnoi v"], Proportion::new(40, 260));
        Ok(())
    }

    #[test]
    fn a_players_spellings_stay_within_the_bound_in_one_batch() -> Result<()> {
        // One player written a new way in every game of a batch, three
        // times more ways than are held, and one spelling in ten games.
        let mut white: Vec<String> = (0..3 * SPELLINGS_HELD)
            .map(|i| format!("Korchnoi, V ({i})"))
            .collect();
        white.extend(std::iter::repeat_n("Korchnoi, V.".to_string(), 10));
        let batch = used_rows(&white, 0);
        let mut numbered = Numbered::default();
        let sides = numbered.numbering.sides_of(&batch, &Aliases::default())?;
        numbered.add_players(&batch, &sides)?;
        let (all, _, _) = numbered.take();
        let kept = &all.spellings["korchnoi v"];
        assert!(
            kept.len() <= SPELLINGS_HELD,
            "{} spellings held",
            kept.len()
        );
        assert!(
            kept.iter()
                .any(|k| k.name == "Korchnoi, V." && k.games.n == 10)
        );
        assert_eq!(all.by_name["korchnoi v"].n, white.len() as u64);
        Ok(())
    }

    #[test]
    fn sides_past_their_bound_are_forgotten_and_looked_up_alike() {
        // Eight ways of writing one player and four names of no one a
        // batch, two sides remembered: a batch of other names does not
        // add its sides to the first's, and the first batch again finds
        // the same players.
        let aliases = Aliases::default();
        let mut numbering = Numbering {
            sides_remembered: 2,
            ..Numbering::default()
        };
        let batch = |player: &str, nobody: &str| {
            let names: Vec<String> = (0..8)
                .map(|i| format!("{player},{}V", " ".repeat(i)))
                .chain((1..5).map(|i| nobody.repeat(i)))
                .collect();
            let none: Vec<Option<&str>> = vec![None; names.len()];
            df!(
                Column::White.name() => &names,
                Column::Black.name() => &names,
                Column::WhiteFideId.name() => none.clone(),
                Column::BlackFideId.name() => none,
            )
            .unwrap()
        };
        let players = |numbering: &mut Numbering, batch: &DataFrame| {
            let sides = numbering.sides_of(batch, &aliases).unwrap();
            let players: Vec<Option<u32>> = sides
                .iter()
                .map(|[white, _]| numbering.side_player(*white).map(|(p, _)| p))
                .collect();
            (players, numbering.sides.len())
        };
        let (first, held) = players(&mut numbering, &batch("Korchnoi", "."));
        assert_eq!(held, 12);
        assert!(first[..8].iter().all(|p| *p == first[0] && p.is_some()));
        assert!(first[8..].iter().all(Option::is_none));
        let (other, held) = players(&mut numbering, &batch("Larsen", "-"));
        assert_eq!(held, 12, "the first batch's sides forgotten");
        assert!(other[0].is_some() && other[0] != first[0]);
        let (again, held) = players(&mut numbering, &batch("Korchnoi", "."));
        assert_eq!((again, held), (first, 12));
        assert_eq!(numbering.identities.len(), 2);
    }

    #[test]
    fn a_side_is_told_by_its_name_and_its_fide_id_tag() {
        let aliases = Aliases::default();
        let mut numbering = Numbering::default();
        let mut side = |name, id| numbering.side(&aliases, name, id);
        let plain = side(Some("Adams, Michael"), None);
        let with_id = side(Some("Adams, Michael"), Some("400041"));
        let empty_id = side(Some("Adams, Michael"), Some(""));
        assert_eq!(side(Some("Adams, Michael"), None), plain);
        assert_eq!(side(Some("Adams, Michael"), Some("400041")), with_id);
        assert_ne!(plain, with_id);
        assert_ne!(plain, empty_id);
        assert_eq!(side(None, Some("400041")), NO_SIDE);
        // "?" names no one.
        let unnamed = side(Some("?"), None);
        assert_eq!(numbering.side_player(unnamed), None);
        assert_eq!(numbering.side_player(NO_SIDE), None);
    }
}
