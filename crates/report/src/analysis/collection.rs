//! What kind of sample a table is, and what that does to its band rates.
//!
//! A collection of players' files (one file a player: `Carlsen.pgn`)
//! holds every game of its collected players and of their opponents only
//! the games against them: a band's games are then mostly games of the
//! players someone chose to collect, who became strong, and its draw rate
//! is theirs, not the band's. A tournament database (issues of a magazine,
//! an event's file) holds whole events; a platform's export holds its
//! players' games. The summary counts, by format and band, the games used
//! and those in which a player is named by the file the game came from;
//! the page says what the sample looks like and, for players' files, that
//! share in each band.

use std::collections::BTreeMap;

use anyhow::Result;
use polars::prelude::*;

use super::merge::Merge;
use super::population::{ByFormat, by_format, format_keys, format_of};
use super::table::{BAND, EFFECTIVE_TIME_CLASS, PLAY, band_of_row, names};
use crate::study::Band;
use remis_table::schema::Column;

/// Games of a band, and those of a player its source file names.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CollectedCounts(#[serde(with = "super::merge::pairs")] pub BTreeMap<Band, [u64; 2]>);

impl Merge for CollectedCounts {
    fn absorb(&mut self, other: CollectedCounts) {
        self.0.absorb(other.0);
    }
}

/// The rows the count needs: each used game's source, players, band and
/// format.
pub fn query(used: LazyFrame) -> LazyFrame {
    let [play, speed] = format_keys();
    used.select([
        Column::Source.col(),
        Column::White.col(),
        Column::Black.col(),
        col(BAND),
        play,
        speed,
    ])
}

/// The name a source file gives: its file name (an archive's member's)
/// without its folders and its `.pgn`, compression and `#N` suffixes,
/// lower-case: "…/pgnmentor-players/Carlsen.pgn.zst" → "carlsen".
pub fn source_stem(source: &str) -> String {
    let name = source.rsplit(['/', '!']).next().unwrap_or(source);
    let name = name.split('#').next().unwrap_or(name);
    let mut stem = name.to_lowercase();
    for suffix in [".zst", ".gz", ".bz2", ".zip", ".pgn", ".parquet"] {
        if let Some(s) = stem.strip_suffix(suffix) {
            stem = s.to_string();
        }
    }
    stem
}

/// Whether a player's name is the one its source file is named after:
/// the name's surname (before a comma or the last word) equals the stem,
/// letters only ("Vachier-Lagrave, M" and "VachierLagrave").
pub fn names(player: &str, stem: &str) -> bool {
    stem_letters(stem).is_some_and(|stem| surname_letters(player) == stem)
}

fn letters(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The letters of a stem that can name a player: none when fewer than
/// three.
fn stem_letters(stem: &str) -> Option<String> {
    Some(letters(stem)).filter(|stem| stem.len() >= 3)
}

/// The letters of a player's surname, as [`names`] compares them.
fn surname_letters(player: &str) -> String {
    let surname = match player.split_once(',') {
        Some((surname, _)) => surname,
        None => player.split_whitespace().last().unwrap_or(player),
    };
    letters(surname)
}

/// The counts of [`query`]'s rows, by format and band.
pub fn counts_from(df: &DataFrame) -> Result<ByFormat<CollectedCounts>> {
    by_format(df, |part| {
        let source = part.column(Column::Source.name())?.str()?;
        let white = part.column(Column::White.name())?.str()?;
        let black = part.column(Column::Black.name())?.str()?;
        let band = part.column(BAND)?.i32()?;
        let mut out = CollectedCounts::default();
        // Rows come source by source: the stem is made once a source.
        let mut last: Option<(&str, String)> = None;
        for i in 0..part.height() {
            let s = source.get(i).unwrap_or("");
            if last.as_ref().is_none_or(|(l, _)| *l != s) {
                last = Some((s, source_stem(s)));
            }
            let stem = &last.as_ref().expect("set above").1;
            let named = [white.get(i), black.get(i)]
                .into_iter()
                .flatten()
                .any(|p| names(p, stem));
            let cell = out.0.entry(band_of_row(band.get(i))).or_default();
            cell[0] += 1;
            cell[1] += u64::from(named);
        }
        Ok(out)
    })
}

/// [`counts_from`] the [`query`], counted in Rust from a batch's used
/// rows (of [`super::table::prepare_frame`]'s columns): a source's stem
/// and a player's surname are made once, not a row.
pub fn count_used(used: &DataFrame) -> Result<ByFormat<CollectedCounts>> {
    let column = |name: &str| used.column(name);
    let source = column(Column::Source.name())?.str()?;
    let white = column(Column::White.name())?.str()?;
    let black = column(Column::Black.name())?.str()?;
    let band = column(BAND)?.i32()?;
    let play = column(PLAY)?.str()?;
    let speed = column(EFFECTIVE_TIME_CLASS)?.str()?;
    let mut stems: PlHashMap<&str, Option<String>> = PlHashMap::new();
    let mut surnames: PlHashMap<&str, String> = PlHashMap::new();
    // Rows come source by source: the stem is looked up when it changes.
    let mut last: Option<(&str, Option<String>)> = None;
    let mut cells: PlHashMap<_, [u64; 2]> = PlHashMap::new();
    let rows = source
        .iter()
        .zip(white.iter())
        .zip(black.iter())
        .zip(band.iter())
        .zip(play.iter())
        .zip(speed.iter());
    for (((((source, white), black), band), play), speed) in rows {
        let source = source.unwrap_or("");
        if last.as_ref().is_none_or(|(l, _)| *l != source) {
            let stem = stems
                .entry(source)
                .or_insert_with(|| stem_letters(&source_stem(source)));
            last = Some((source, stem.clone()));
        }
        let stem = &last.as_ref().expect("set above").1;
        let is_named = stem.as_ref().is_some_and(|stem| {
            [white, black].into_iter().flatten().any(|player| {
                surnames
                    .entry(player)
                    .or_insert_with(|| surname_letters(player))
                    == stem
            })
        });
        let cell = cells.entry((band, play, speed)).or_default();
        cell[0] += 1;
        cell[1] += u64::from(is_named);
    }
    let mut out: ByFormat<CollectedCounts> = ByFormat::default();
    for ((band, play, speed), [games, named]) in cells {
        let cell = out
            .parts
            .entry(format_of(play, speed))
            .or_default()
            .0
            .entry(band_of_row(band))
            .or_default();
        cell[0] += games;
        cell[1] += named;
    }
    Ok(out)
}

/// What kind of sample the games of a population look like.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Kind {
    /// Most games involve a player their file is named after.
    PlayersFiles,
    /// Online games, from a platform.
    PlatformExport,
    /// Whole events (tournament issues, an event database).
    Events,
}

/// The share of games with a player named by their file above which a
/// table is a collection of players' files.
pub const PLAYERS_FILES_SHARE: f64 = 0.5;

/// The kind of a population's sample, from its counts and whether it is
/// online.
pub fn kind(counts: &CollectedCounts, online: bool) -> Option<Kind> {
    let (games, named) = counts
        .0
        .values()
        .fold((0u64, 0u64), |(g, n), c| (g + c[0], n + c[1]));
    if games == 0 {
        return None;
    }
    Some(if named as f64 >= PLAYERS_FILES_SHARE * games as f64 {
        Kind::PlayersFiles
    } else if online {
        Kind::PlatformExport
    } else {
        Kind::Events
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_names_its_player() {
        assert_eq!(
            source_stem("/data/pgnmentor-players/Carlsen.pgn.zst"),
            "carlsen"
        );
        assert_eq!(source_stem("twic/twic1500g.zip!twic1500.pgn#3"), "twic1500");
        assert!(names("Carlsen, Magnus", "carlsen"));
        assert!(names("Carlsen,M", "carlsen"));
        assert!(names("Magnus Carlsen", "carlsen"));
        assert!(names("Vachier-Lagrave, Maxime", "vachierlagrave"));
        assert!(!names("Carlsen, Magnus", "twic1500"));
        assert!(!names("Anand, V", "an"));
    }

    #[test]
    fn a_collection_is_players_files_when_most_games_involve_them() {
        let df = df!(
            "source" => ["p/Tal.pgn", "p/Tal.pgn", "p/Tal.pgn", "e/Hastings.pgn"],
            "white" => ["Tal, Mikhail", "Smyslov, V", "Petrosian, T", "Euwe, M"],
            "black" => ["Botvinnik, M", "Tal,M", "Keres, P", "Alekhine, A"],
            BAND => [Some(2600i32), Some(2600), Some(2500), None],
            super::super::table::PLAY => ["over the board"; 4],
            super::super::table::EFFECTIVE_TIME_CLASS => ["classical"; 4],
        )
        .unwrap();
        let by = counts_from(&df).unwrap().all();
        assert_eq!(by.0[&Band::Rated(2600)], [2, 2]);
        assert_eq!(by.0[&Band::Rated(2500)], [1, 0]);
        assert_eq!(by.0[&Band::Unrated], [1, 0]);
        assert_eq!(kind(&by, false), Some(Kind::PlayersFiles));
        // Counted in Rust from the used rows, as by the query (the
        // fixtures' files name none of their players).
        let used = df!(
            "source" => [Some("p/Tal.pgn"), Some("p/Tal.pgn"), Some("q/Keres.pgn"), None, Some("p/Tal.pgn")],
            "white" => [Some("Tal, Mikhail"), None, Some("Smyslov, V"), Some("Tal, M"), Some("Euwe, M")],
            "black" => [None, Some("Tal,M"), Some("Keres, P"), None, Some("Tal, M")],
            BAND => [Some(2600i32), Some(2600), Some(2500), None, Some(2600)],
            super::super::table::PLAY => [Some("over the board"), Some("online"), Some("over the board"), None, Some("over the board")],
            super::super::table::EFFECTIVE_TIME_CLASS => [Some("classical"), Some("blitz"), Some("classical"), Some("rapid"), None],
        )
        .unwrap();
        let by_query =
            counts_from(&super::super::table::collect(query(used.clone().lazy())).unwrap())
                .unwrap();
        assert_eq!(count_used(&used).unwrap(), by_query);
        assert_eq!(by_query.all().0[&Band::Rated(2600)], [3, 3]);
        assert_eq!(by_query.parts.len(), 4);
        let events = CollectedCounts([(Band::Unrated, [10, 1])].into());
        assert_eq!(kind(&events, false), Some(Kind::Events));
        assert_eq!(kind(&events, true), Some(Kind::PlatformExport));
    }
}

/// Games and draws by band, of the games whose speed was decided by
/// evidence (`speed_by` is not `presumed`): the lead band table without
/// the games classical only by presumption, a sensitivity check.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EvidenceBands(
    #[serde(with = "super::merge::pairs")] pub BTreeMap<Band, crate::study::Proportion>,
);

impl Merge for EvidenceBands {
    fn absorb(&mut self, other: EvidenceBands) {
        self.0.absorb(other.0);
    }
}

/// The `speed_by` of a game classical for want of other evidence (and
/// its name in tables classified before the word was chosen).
pub const PRESUMED: [&str; 2] = ["presumed", "default"];

pub fn evidence_query(used: LazyFrame) -> LazyFrame {
    let [play, speed] = format_keys();
    let by = Column::SpeedBy.col();
    used.filter(
        by.clone()
            .neq(lit(PRESUMED[0]))
            .and(by.neq(lit(PRESUMED[1])))
            .fill_null(lit(false)),
    )
    .group_by([col(BAND), play, speed])
    .agg(names::games_and_draws())
}

/// [`evidence_from`] the [`evidence_query`], counted in Rust from a
/// batch's used rows (of [`super::table::prepare_frame`]'s columns).
pub fn evidence_used(used: &DataFrame) -> Result<ByFormat<EvidenceBands>> {
    let column = |name: &str| used.column(name);
    let speed_by = column(Column::SpeedBy.name())?.str()?;
    let band = column(BAND)?.i32()?;
    let play = column(PLAY)?.str()?;
    let speed = column(EFFECTIVE_TIME_CLASS)?.str()?;
    let is_draw = column(super::table::IS_DRAW)?.bool()?;
    let mut cells: PlHashMap<_, (u64, u64)> = PlHashMap::new();
    let rows = speed_by
        .iter()
        .zip(band.iter())
        .zip(play.iter())
        .zip(speed.iter())
        .zip(is_draw.iter());
    for ((((speed_by, band), play), speed), is_draw) in rows {
        // No `speed_by` is no evidence, as the query's null filter is.
        if speed_by.is_none_or(|by| PRESUMED.contains(&by)) {
            continue;
        }
        let cell = cells.entry((band, play, speed)).or_default();
        cell.0 += 1;
        cell.1 += u64::from(is_draw == Some(true));
    }
    let mut out: ByFormat<EvidenceBands> = ByFormat::default();
    for ((band, play, speed), (games, draws)) in cells {
        out.parts
            .entry(format_of(play, speed))
            .or_default()
            .0
            .entry(band_of_row(band))
            .or_insert(crate::study::Proportion::new(0, 0))
            .absorb(crate::study::Proportion::new(draws, games));
    }
    Ok(out)
}

pub fn evidence_from(df: &DataFrame) -> Result<ByFormat<EvidenceBands>> {
    by_format(df, |part| {
        let band = part.column(BAND)?.i32()?;
        let games = part.column(names::GAMES)?.u64()?;
        let draws = part.column(names::DRAWS)?.u64()?;
        let mut out = EvidenceBands::default();
        for i in 0..part.height() {
            out.0
                .entry(band_of_row(band.get(i)))
                .or_insert(crate::study::Proportion::new(0, 0))
                .absorb(crate::study::Proportion::new(
                    draws.get(i).unwrap_or(0),
                    games.get(i).unwrap_or(0),
                ));
        }
        Ok(out)
    })
}
