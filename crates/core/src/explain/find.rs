//! Finding a game again in its source: the input read up to it, every
//! game before it replayed, as the table's `game_no` counts them.

use std::sync::{Arc, atomic::AtomicU64};

use shakmaty::{Chess, Move};

use crate::input::{ColumnarSource, Input, Limits, read_chunks};
use crate::replay::{GameRecord, GameReplayer};
use crate::rules::SearchOptions;

/// Why `find_game` found nothing.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    #[error("{name}: has {games} games; there is no game {wanted}")]
    TooFew {
        name: String,
        games: u64,
        wanted: u64,
    },
    #[error("{0}: no games read")]
    Empty(String),
}

/// A game found in an input: its record and the moves replayed.
pub struct Found {
    pub source: String,
    pub record: GameRecord,
    pub start: Chess,
    pub moves: Vec<Move>,
}

/// Reads game `game_no` (1-based, as the table's `game_no`: the games of
/// one source in order) of the first source of `input` whose name ends
/// with `source` (any source when `None`), replaying every game before it.
pub fn find_game(
    input: &Input,
    source: Option<&str>,
    game_no: u64,
    tables: &dyn ColumnarSource,
    search: SearchOptions,
) -> Result<Found, FindError> {
    let wanted = std::collections::BTreeSet::from([game_no]);
    let (mut found, counted) = find_games(input, source, &wanted, tables, search);
    match (found.remove(&game_no), counted) {
        (Some(found), _) => Ok(found),
        (None, Some((name, games))) => Err(FindError::TooFew {
            name,
            games,
            wanted: game_no,
        }),
        (None, None) => Err(FindError::Empty(input.name())),
    }
}

/// The games `wanted` (numbers as in [`find_game`]) of one source of
/// `input`, read in one pass that stops after the last of them; and the
/// source's name with the games counted (`None` when none was read).
pub fn find_games(
    input: &Input,
    source: Option<&str>,
    wanted: &std::collections::BTreeSet<u64>,
    tables: &dyn ColumnarSource,
    search: SearchOptions,
) -> (
    std::collections::BTreeMap<u64, Found>,
    Option<(String, u64)>,
) {
    let mut replayer = GameReplayer::with_options(Limits::default(), search);
    let mut found = std::collections::BTreeMap::new();
    let mut counted: Option<(Arc<str>, u64)> = None;
    let last = wanted.last().copied().unwrap_or(0);
    read_chunks(
        std::slice::from_ref(input),
        1 << 20,
        Limits::default(),
        tables,
        Arc::new(AtomicU64::new(0)),
        &mut |chunk| {
            if source.is_some_and(|s| !chunk.source.ends_with(s)) {
                return true;
            }
            match &counted {
                Some((name, _)) if *name != chunk.source => return false,
                None => counted = Some((chunk.source.clone(), 0)),
                _ => {}
            }
            for i in 0..chunk.games.len() {
                let Some(record) = replayer.replay_one(&chunk, i) else {
                    continue;
                };
                let seen = &mut counted.as_mut().expect("set above").1;
                *seen += 1;
                if wanted.contains(seen) {
                    let (start, moves) = replayer.played();
                    found.insert(
                        *seen,
                        Found {
                            source: chunk.source.to_string(),
                            record,
                            start: start.clone(),
                            moves: moves.to_vec(),
                        },
                    );
                }
                if *seen >= last {
                    return false;
                }
            }
            true
        },
    );
    (found, counted.map(|(name, n)| (name.to_string(), n)))
}

/// Where a source named as classify named it (relative to the folder it
/// ran in) is now: the path itself when it is a file from here, else the
/// one of `known` (the absolute paths the tables' manifests record) that
/// ends with its path (leading `.` and `..` left aside).
pub fn locate(source: &str, known: &[String]) -> Option<std::path::PathBuf> {
    let path = std::path::Path::new(source);
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let tail: std::path::PathBuf = path
        .components()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .collect();
    if tail.as_os_str().is_empty() {
        return None;
    }
    known
        .iter()
        .map(std::path::Path::new)
        .find(|k| k.ends_with(&tail) && k.is_file())
        .map(std::path::Path::to_path_buf)
}
