//! The counts the expected-draw model is fitted on, as a summary keeps
//! them: games and draws of rated games in cells of like games (the mean
//! rating of the two players in 50-point bins, their rating gap in 50-point
//! bins, the year), kept apart by format like every count of the page, and
//! the same cells for the events of the catalogue's series. Each cell also
//! sums its games' ratings and gaps, so that the model's covariates are
//! the cell's own means. The size is bounded by the cells (about 40 mean
//! bins × 13 gap bins × the years), never by the rows. A summary counts
//! them in Rust from a batch's used rows (`counts_used`); the queries
//! are the reference the summary's tests hold them to (issue 50).
//!
//! The cells of each named player's games (both colours; her identity as
//! the Players section keys it, `players::identity_of`) are kept too, for
//! the expected draws by player (issue 49). They grow with the players, so
//! they are kept only for the players the players' counts keep by name
//! ([`keep_named_players`]): at most `players::PLAYER_CAP` players once
//! folded (twice that between a builder's folds), each with at most her
//! own games' cells; the sides of the others are told apart as such when
//! shown.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;
use serde::{Deserialize, Serialize};

use crate::analysis::merge::{Merge, pairs};
use crate::analysis::players::{PlayerCounts, identity_of};
use crate::analysis::population::{ByFormat, by_format, format_keys, format_of};
use crate::analysis::table::{BAND, BAND_IMPLAUSIBLE, EFFECTIVE_TIME_CLASS, IS_DRAW, PLAY, names};
use crate::study::events::EventCatalogue;
use remis_table::players::Aliases;
use remis_table::schema::Column;

/// Width of the bins of the mean rating and of the gap, in rating points.
pub const BIN_WIDTH: u16 = 50;
/// Gaps from this up share one bin (its covariate is still the cell's own
/// mean gap).
pub const GAP_CAP: u16 = 600;

/// A cell of like games: the start of its mean-rating bin, the start of
/// its gap bin (|White − Black|), its year.
#[derive(
    Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct CellKey {
    pub mean_bin: u16,
    pub gap_bin: u16,
    pub year: Option<i16>,
}

/// Games and draws of a cell, with the sums of its games' White + Black
/// ratings and of their gaps (whole numbers: exact in any order).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellCounts {
    pub games: u64,
    pub draws: u64,
    pub rating_sum: u64,
    pub gap_sum: u64,
}

impl CellCounts {
    /// The mean of the games' mean ratings.
    pub fn mean_rating(&self) -> f64 {
        self.rating_sum as f64 / (2.0 * self.games.max(1) as f64)
    }

    /// The mean of the games' rating gaps.
    pub fn mean_gap(&self) -> f64 {
        self.gap_sum as f64 / self.games.max(1) as f64
    }
}

impl Merge for CellCounts {
    fn absorb(&mut self, o: CellCounts) {
        self.games = self.games.saturating_add(o.games);
        self.draws = self.draws.saturating_add(o.draws);
        self.rating_sum = self.rating_sum.saturating_add(o.rating_sum);
        self.gap_sum = self.gap_sum.saturating_add(o.gap_sum);
    }
}

/// The cells of one format.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DrawCells {
    #[serde(with = "pairs")]
    pub cells: BTreeMap<CellKey, CellCounts>,
    /// The same cells for the events of each series of the rule catalogue
    /// (series, then the cell): a bounded set of events.
    #[serde(with = "pairs")]
    pub series: BTreeMap<(String, CellKey), CellCounts>,
    /// Each named player's games and draws by cell (her identity, then
    /// the cell), for the players the players' counts keep by name.
    pub players: BTreeMap<String, PlayerCells>,
}

impl Merge for DrawCells {
    fn absorb(&mut self, other: DrawCells) {
        self.cells.absorb(other.cells);
        self.series.absorb(other.series);
        self.players.absorb(other.players);
    }
}

/// One player's games and draws (`[games, draws]`) by cell.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerCells(#[serde(with = "pairs")] pub BTreeMap<CellKey, [u64; 2]>);

impl Merge for PlayerCells {
    fn absorb(&mut self, other: PlayerCells) {
        self.0.absorb(other.0);
    }
}

/// Drops the cells of the players `players` no longer keeps by name
/// (folded past its cap): what bounds the players' cells. Their sides
/// are then in no player's cells, as unnamed sides are not.
pub fn keep_named_players(cells: &mut ByFormat<DrawCells>, players: &PlayerCounts) {
    for part in cells.parts.values_mut() {
        part.players
            .retain(|identity, _| players.by_name.contains_key(identity));
    }
}

const MEAN_BIN: &str = "expected_mean_bin";
const GAP_BIN: &str = "expected_gap_bin";
/// A game's two ratings summed and its gap, before they are summed by
/// cell; and the cell's sum of gaps (its ratings' sum is
/// [`names::RATING_SUM`]).
const EXPECTED_RATING_SUM: &str = "expected_rating_sum";
const EXPECTED_GAP: &str = "expected_gap";
const GAP_SUM: &str = "gap_sum";

/// The rated used games (both ratings plausible for their system and
/// year) with their bins.
fn binned(used: LazyFrame) -> LazyFrame {
    let w = Column::WhiteElo.col().cast(DataType::Int64);
    let b = Column::BlackElo.col().cast(DataType::Int64);
    let gap = when(w.clone().gt_eq(b.clone()))
        .then(w.clone() - b.clone())
        .otherwise(b.clone() - w.clone());
    let width = i64::from(BIN_WIDTH);
    let capped = when(gap.clone().gt_eq(lit(i64::from(GAP_CAP))))
        .then(lit(i64::from(GAP_CAP)))
        .otherwise(gap.clone() / lit(width) * lit(width));
    used.filter(
        w.clone()
            .is_not_null()
            .and(b.clone().is_not_null())
            .and(col(BAND).neq(lit(BAND_IMPLAUSIBLE))),
    )
    .with_columns([
        ((w.clone() + b.clone()) / lit(2 * width) * lit(width)).alias(MEAN_BIN),
        capped.alias(GAP_BIN),
        (w + b).alias(EXPECTED_RATING_SUM),
        gap.alias(EXPECTED_GAP),
    ])
}

fn counts() -> [Expr; 4] {
    let [games, draws] = names::games_and_draws();
    [
        games,
        draws,
        col(EXPECTED_RATING_SUM)
            .cast(DataType::UInt64)
            .sum()
            .alias(names::RATING_SUM),
        col(EXPECTED_GAP)
            .cast(DataType::UInt64)
            .sum()
            .alias(GAP_SUM),
    ]
}

fn cell_keys() -> Vec<Expr> {
    let [play, speed] = format_keys();
    vec![col(MEAN_BIN), col(GAP_BIN), Column::Year.col(), play, speed]
}

/// Games and draws by cell and format.
pub fn cells_query(used: LazyFrame) -> LazyFrame {
    binned(used).group_by(cell_keys()).agg(counts())
}

const PLAYER: &str = "expected_player";
const FIDE_ID: &str = "expected_fide_id";

/// Games and draws by cell, format and side (name and FIDE ID), over both
/// colours: the players' cells, before their identities are made
/// ([`players_from`]).
pub fn players_query(used: LazyFrame) -> LazyFrame {
    let binned = binned(used);
    let side = |player: Column, fide_id: Column| {
        let mut columns = vec![player.col().alias(PLAYER), fide_id.col().alias(FIDE_ID)];
        columns.extend(cell_keys());
        columns.push(col(IS_DRAW));
        binned.clone().select(columns)
    };
    let mut keys = cell_keys();
    keys.extend([col(PLAYER), col(FIDE_ID)]);
    concat(
        [
            side(Column::White, Column::WhiteFideId),
            side(Column::Black, Column::BlackFideId),
        ],
        UnionArgs::default(),
    )
    .expect("two frames of the same columns concatenate")
    .group_by(keys)
    .agg(names::games_and_draws())
}

/// The players' cells of a frame of [`players_query`], each side's
/// identity made through `aliases` as the players' counts make it.
pub fn players_from(df: &DataFrame, aliases: &Aliases) -> Result<ByFormat<DrawCells>> {
    by_format(df, |part| {
        let mean = part.column(MEAN_BIN)?.i64()?;
        let gap = part.column(GAP_BIN)?.i64()?;
        let year = part.column(Column::Year.name())?.i16()?;
        let player = part.column(PLAYER)?.str()?;
        let fide_id = part.column(FIDE_ID)?.str()?;
        let games = part.column(names::GAMES)?.u64()?;
        let draws = part.column(names::DRAWS)?.u64()?;
        let mut counts = DrawCells::default();
        for i in 0..part.height() {
            let (Some(name), Some(mean), Some(gap)) = (player.get(i), mean.get(i), gap.get(i))
            else {
                continue;
            };
            let Some((identity, _)) = identity_of(aliases, name, fide_id.get(i)) else {
                continue;
            };
            let key = cell_key(mean, gap, year.get(i));
            counts
                .players
                .entry(identity)
                .or_default()
                .0
                .entry(key)
                .or_default()
                .absorb([games.get(i).unwrap_or(0), draws.get(i).unwrap_or(0)]);
        }
        Ok(counts)
    })
}

/// A cell's key from its bins as the queries give them.
fn cell_key(mean: i64, gap: i64, year: Option<i16>) -> CellKey {
    let clamp = |v: i64| v.clamp(0, i64::from(u16::MAX)) as u16;
    CellKey {
        mean_bin: clamp(mean),
        gap_bin: clamp(gap),
        year,
    }
}

/// The same by event, site and year, for the events the catalogue names
/// (among `names`, the result of the rule study's `names_query`); `None`
/// when it names none.
pub fn series_query(
    used: LazyFrame,
    names: &DataFrame,
    catalogue: &EventCatalogue,
) -> Result<Option<LazyFrame>> {
    let Some(named) = crate::analysis::rule_study::catalogue_events(names, catalogue)? else {
        return Ok(None);
    };
    let mut keys = cell_keys();
    keys.extend([Column::Event.col(), Column::Site.col()]);
    Ok(Some(
        binned(used)
            .join(
                named.lazy(),
                [Column::Event.col()],
                [Column::Event.col()],
                JoinArgs::new(JoinType::Semi),
            )
            .group_by(keys)
            .agg(counts()),
    ))
}

fn key_and_counts(df: &DataFrame, i: usize) -> Result<Option<(CellKey, CellCounts)>> {
    let mean = df.column(MEAN_BIN)?.i64()?.get(i);
    let gap = df.column(GAP_BIN)?.i64()?.get(i);
    let year = df.column(Column::Year.name())?.i16()?.get(i);
    let u = |name: &str| -> Result<u64> { Ok(df.column(name)?.u64()?.get(i).unwrap_or(0)) };
    let (Some(mean), Some(gap)) = (mean, gap) else {
        return Ok(None);
    };
    let clamp = |v: i64| v.clamp(0, i64::from(u16::MAX)) as u16;
    Ok(Some((
        CellKey {
            mean_bin: clamp(mean),
            gap_bin: clamp(gap),
            year,
        },
        CellCounts {
            games: u(names::GAMES)?,
            draws: u(names::DRAWS)?,
            rating_sum: u(names::RATING_SUM)?,
            gap_sum: u(GAP_SUM)?,
        },
    )))
}

/// The counts of [`cells_query`] and, when there was one, of
/// [`series_query`] (each event's series decided by the catalogue from its
/// name, site and year), kept apart by format.
pub fn counts_from(
    cells: &DataFrame,
    series: Option<&DataFrame>,
    catalogue: &EventCatalogue,
) -> Result<ByFormat<DrawCells>> {
    let mut out = by_format(cells, |part| {
        let mut counts = DrawCells::default();
        for i in 0..part.height() {
            if let Some((key, c)) = key_and_counts(part, i)? {
                counts.cells.entry(key).or_default().absorb(c);
            }
        }
        Ok(counts)
    })?;
    if let Some(series) = series {
        let by_series = by_format(series, |part| {
            let events = part.column(Column::Event.name())?.str()?;
            let sites = part.column(Column::Site.name())?.str()?;
            let mut counts = DrawCells::default();
            for i in 0..part.height() {
                let Some((key, c)) = key_and_counts(part, i)? else {
                    continue;
                };
                let Some(event) = events.get(i) else { continue };
                if let Some(rules) = catalogue.rules(event, sites.get(i), key.year) {
                    counts
                        .series
                        .entry((rules.series.clone(), key))
                        .or_default()
                        .absorb(c);
                }
            }
            Ok(counts)
        })?;
        out.absorb(by_series);
    }
    Ok(out)
}

/// [`counts_from`] the [`cells_query`] and [`series_query`], counted in
/// Rust from a batch's used rows (a frame of `table::prepare_frame`'s
/// columns) read once: `named`, the events the catalogue names
/// (`rule_study::catalogue_names`). Rows are grouped by the queries' keys
/// as they are in the columns, and each group's series is then decided
/// by the catalogue, as [`counts_from`] decides the queries' groups'. The
/// players' cells of [`players_query`] are counted by the summary's
/// builder, its players numbered once (`build::numbered`), each game in
/// its [`game_cell`].
pub(crate) fn counts_used(
    used: &DataFrame,
    named: &PlHashSet<&str>,
    catalogue: &EventCatalogue,
) -> Result<ByFormat<DrawCells>> {
    let event = used.column(Column::Event.name())?.str()?;
    let site = used.column(Column::Site.name())?.str()?;
    let rows = row_cells(used)?.zip(event.iter().zip(site.iter()));

    type Key<'a> = (CellKey, RawFormat<'a>);
    let mut cells: PlHashMap<Key, CellCounts> = PlHashMap::new();
    let mut series: PlHashMap<(Key, &str, Option<&str>), CellCounts> = PlHashMap::new();
    for (row, (event, site)) in rows {
        let Some((cell, game, format)) = row else {
            continue;
        };
        let key = (cell, format);
        cells.entry(key).or_default().absorb(game);
        if let Some(event) = event.filter(|e| named.contains(e)) {
            series.entry((key, event, site)).or_default().absorb(game);
        }
    }

    // Each format's cells sorted and its map built from them at once (a
    // format's name made once, not once a cell).
    let mut formats: PlHashMap<RawFormat, Vec<(CellKey, CellCounts)>> = PlHashMap::new();
    for ((cell, format), counts) in cells {
        formats.entry(format).or_default().push((cell, counts));
    }
    let mut out = ByFormat::<DrawCells>::default();
    for (format, mut cells) in formats {
        cells.sort_unstable_by_key(|&(cell, _)| cell);
        out.parts
            .entry(format_of(format.0, format.1))
            .or_default()
            .cells
            .absorb(cells.into_iter().collect());
    }
    for (((cell, format), event, site), counts) in series {
        if let Some(rules) = catalogue.rules(event, site, cell.year) {
            out.parts
                .entry(format_of(format.0, format.1))
                .or_default()
                .series
                .entry((rules.series.clone(), cell))
                .or_default()
                .absorb(counts);
        }
    }
    Ok(out)
}

/// A row's play and speed as the columns hold them.
pub(crate) type RawFormat<'a> = (Option<&'a str>, Option<&'a str>);

/// Each used row's cell, its counts and its format as the columns hold it
/// ([`game_cell`]; `None` for a row the cells leave out), in order.
pub(crate) fn row_cells(
    used: &DataFrame,
) -> Result<impl Iterator<Item = Option<(CellKey, CellCounts, RawFormat<'_>)>>> {
    let column = |name: &str| used.column(name);
    let white_elo = column(Column::WhiteElo.name())?.u16()?;
    let black_elo = column(Column::BlackElo.name())?.u16()?;
    let band = column(BAND)?.i32()?;
    let year = column(Column::Year.name())?.i16()?;
    let is_draw = column(IS_DRAW)?.bool()?;
    let play = column(PLAY)?.str()?;
    let speed = column(EFFECTIVE_TIME_CLASS)?.str()?;
    let rows = white_elo
        .iter()
        .zip(black_elo.iter())
        .zip(band.iter().zip(year.iter()))
        .zip(is_draw.iter())
        .zip(play.iter().zip(speed.iter()));
    Ok(rows.map(|(((ratings, (band, year)), is_draw), format)| {
        game_cell(ratings.0, ratings.1, band, year, is_draw)
            .map(|(cell, game)| (cell, game, format))
    }))
}

/// A used game's cell and its counts, from its ratings (White's, Black's),
/// its band, year and whether drawn: `None` for a game the cells leave
/// out (as [`binned`] does: not both rated, or a rating implausible for
/// its system and year, or no band).
pub(crate) fn game_cell(
    white: Option<u16>,
    black: Option<u16>,
    band: Option<i32>,
    year: Option<i16>,
    is_draw: Option<bool>,
) -> Option<(CellKey, CellCounts)> {
    let (Some(w), Some(b)) = (white, black) else {
        return None;
    };
    if band.is_none_or(|band| band == BAND_IMPLAUSIBLE) {
        return None;
    }
    let width = i64::from(BIN_WIDTH);
    let (w, b) = (i64::from(w), i64::from(b));
    let gap = (w - b).abs();
    let gap_bin = if gap >= i64::from(GAP_CAP) {
        i64::from(GAP_CAP)
    } else {
        gap / width * width
    };
    let game = CellCounts {
        games: 1,
        draws: u64::from(is_draw == Some(true)),
        rating_sum: (w + b) as u64,
        gap_sum: gap as u64,
    };
    Some((cell_key((w + b) / (2 * width) * width, gap_bin, year), game))
}
