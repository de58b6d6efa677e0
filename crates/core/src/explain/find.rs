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
    #[error("{input}: no source named {wanted}; its sources: {}", list(available))]
    NoSuchSource {
        input: String,
        wanted: String,
        available: Vec<String>,
    },
    #[error("{input}: {wanted} names {} sources; name one of them whole: {}", candidates.len(), list(candidates))]
    AmbiguousSource {
        input: String,
        wanted: String,
        candidates: Vec<String>,
    },
    #[error("{0}: cannot list its sources: {1}")]
    Unreadable(String, std::io::Error),
}

/// A list of names for a message, cut after twenty.
fn list(names: &[String]) -> String {
    const SHOWN: usize = 20;
    let mut text = names
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        text.push_str(&format!(" and {} more", names.len() - SHOWN));
    }
    if names.is_empty() {
        text.push_str("none");
    }
    text
}

/// Whether `wanted` names `source` (as the table's `source` column holds
/// it): the whole of it, or its end from a `/` or `!` on (a member's name,
/// a file's name below its folder). "a.pgn" names "twic.zip!a.pgn" and
/// "games/a.pgn", never "twic.zip!ba.pgn".
pub fn names_source(source: &str, wanted: &str) -> bool {
    source == wanted
        || source
            .strip_suffix(wanted)
            .is_some_and(|head| head.ends_with('/') || head.ends_with('!'))
}

/// The one source of `input` that `wanted` names (see [`names_source`]):
/// the source whose name is `wanted` whole, or the member whose name is,
/// else the only one whose name ends so; refused when none or several do. `None` when the input's
/// sources cannot be listed without reading it (standard input): the first
/// source read that `wanted` names is taken.
pub fn resolve_source(input: &Input, wanted: &str) -> Result<Option<String>, FindError> {
    let sources =
        crate::input::source_names(input).map_err(|e| FindError::Unreadable(input.name(), e))?;
    let Some(sources) = sources else {
        return Ok(None);
    };
    // The table's source whole, or a member's whole name.
    let member = format!("{}!{wanted}", input.name());
    if let Some(exact) = sources.iter().find(|s| *s == wanted || **s == member) {
        return Ok(Some(exact.clone()));
    }
    let mut candidates: Vec<String> = sources
        .iter()
        .filter(|s| names_source(s, wanted))
        .cloned()
        .collect();
    match candidates.len() {
        1 => Ok(candidates.pop()),
        0 => Err(FindError::NoSuchSource {
            input: input.name(),
            wanted: wanted.to_string(),
            available: sources,
        }),
        _ => Err(FindError::AmbiguousSource {
            input: input.name(),
            wanted: wanted.to_string(),
            candidates,
        }),
    }
}

/// A game found in an input: its record and the moves replayed.
pub struct Found {
    pub source: String,
    pub record: GameRecord,
    pub start: Chess,
    pub moves: Vec<Move>,
}

/// Reads game `game_no` (1-based, as the table's `game_no`: the games of
/// one source in order) of the source of `input` that `source` names (see
/// [`resolve_source`]; the first source when `None`), replaying every game
/// before it.
pub fn find_game(
    input: &Input,
    source: Option<&str>,
    game_no: u64,
    tables: &dyn ColumnarSource,
    search: SearchOptions,
) -> Result<Found, FindError> {
    let wanted = std::collections::BTreeSet::from([game_no]);
    let resolved = match source {
        Some(source) => Some(resolve_source(input, source)?),
        None => None,
    };
    let select = |name: &str| match (&resolved, source) {
        (Some(Some(exact)), _) => name == exact,
        (_, Some(source)) => names_source(name, source),
        (_, None) => true,
    };
    let (mut found, counted) = find_games(input, &select, &wanted, tables, search);
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

/// The games `wanted` (numbers as in [`find_game`]) of the first source of
/// `input` that `select` takes (by its name, as the table's `source`),
/// read in one pass that stops after the last of them; and the source's
/// name with the games counted (`None` when none was read).
pub fn find_games(
    input: &Input,
    select: &dyn Fn(&str) -> bool,
    wanted: &std::collections::BTreeSet<u64>,
    tables: &dyn ColumnarSource,
    search: SearchOptions,
) -> (
    std::collections::BTreeMap<u64, Found>,
    Option<(String, u64)>,
) {
    // The games before the ones wanted are only counted, by framing: a
    // span is a game (a row, numbered) unless it has no tags and does not
    // start like movetext (`pgn::is_game`, the reader's own test), so the
    // trail of the last game of a file costs reading the file, not
    // replaying and searching every game before it.
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
            if !select(&chunk.source) {
                return true;
            }
            match &counted {
                Some((name, _)) if *name != chunk.source => return false,
                None => counted = Some((chunk.source.clone(), 0)),
                _ => {}
            }
            for i in 0..chunk.games.len() {
                let span = &chunk.games[i];
                let is_game = chunk.tags.is_some()
                    || crate::input::pgn::is_game(
                        &chunk.data[span.start..span.end],
                        span.headerless,
                    );
                if !is_game {
                    continue;
                }
                let seen = &mut counted.as_mut().expect("set above").1;
                *seen += 1;
                if wanted.contains(seen) {
                    let Some(record) = replayer.replay_one(&chunk, i) else {
                        continue;
                    };
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
