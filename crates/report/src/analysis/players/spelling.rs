//! The spellings behind an identity, each with its games and, by year, its
//! games and ratings: what tells namesakes apart when the counts are read
//! (a world champion of 1945–84 and a namesake of 2002–, a grandmaster and
//! a namesake rated 1900 in the same year), and what the Players section
//! lists of every merge.

use remis_table::players::given_name;
use serde::{Deserialize, Serialize};

use crate::analysis::merge::Merge;
use crate::study::Proportion;

/// Spellings kept per identity: past them, the spellings with the fewest
/// games are no longer listed (their games stay the identity's).
pub const SPELLINGS_KEPT: usize = 32;

/// Spellings held per identity while a summary is counted in batches:
/// the [`SPELLINGS_KEPT`] listed are chosen at the end from all of them,
/// so that they are the whole table's whatever the batches (a spelling
/// dropped by one batch lost that batch's games when it came back:
/// `tests/it/summaries.rs`). Past this bound the half with the most games
/// is held on, and the list may then depend on the batches. Real
/// collections come nowhere near it (the master games: at most 9); a
/// list kept sorted by insertion costs up to this many moves a spelling.
pub const SPELLINGS_HELD: usize = 256;

/// Bounds an identity's spellings as they come ([`SPELLINGS_HELD`]):
/// bounded only after a batch, one player written a new way in every game
/// of a batch of 131,072 rows grew a sorted list of 131,072 spellings one
/// insertion at a time (`summarize` of 200,000 such games took 7.9 s).
fn bound_held(kept: &mut Vec<Spelling>) {
    if kept.len() > SPELLINGS_HELD {
        trim_spellings(kept, SPELLINGS_HELD / 2);
    }
}

/// One spelling of a player's name, as the tags write it (trimmed).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spelling {
    pub name: String,
    /// Games and draws under this spelling.
    pub games: Proportion,
    /// By year, in order: the spelling's games, rated games and the sum of
    /// their ratings (games without a year are in `games` only).
    pub years: Vec<YearGames>,
}

/// A spelling's games in one year.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct YearGames {
    pub year: i16,
    pub games: u64,
    pub rated: u64,
    pub rating_sum: u64,
}

impl Spelling {
    pub fn absorb(&mut self, other: &Spelling) {
        self.games.absorb(other.games);
        for y in &other.years {
            self.add_year(*y);
        }
    }

    /// Adds one year's games (kept sorted by year).
    fn add_year(&mut self, y: YearGames) {
        match self.years.binary_search_by_key(&y.year, |k| k.year) {
            Ok(i) => {
                let k = &mut self.years[i];
                k.games += y.games;
                k.rated += y.rated;
                k.rating_sum += y.rating_sum;
            }
            Err(i) => self.years.insert(i, y),
        }
    }
}

/// Adds a spelling to an identity's (kept sorted by name, at most
/// [`SPELLINGS_HELD`]).
pub fn add_spelling(kept: &mut Vec<Spelling>, spelling: &Spelling) {
    match kept.binary_search_by(|k| k.name.as_str().cmp(&spelling.name)) {
        Ok(i) => kept[i].absorb(spelling),
        Err(i) => {
            kept.insert(i, spelling.clone());
            bound_held(kept);
        }
    }
}

/// [`add_spelling`] of the spelling `name` with `games` in at most one
/// year, made only when it is new to the identity.
pub fn add_spelling_games(
    kept: &mut Vec<Spelling>,
    name: &str,
    games: Proportion,
    year: Option<YearGames>,
) {
    match kept.binary_search_by(|k| k.name.as_str().cmp(name)) {
        Ok(i) => {
            kept[i].games.absorb(games);
            if let Some(y) = year {
                kept[i].add_year(y);
            }
        }
        Err(i) => {
            kept.insert(
                i,
                Spelling {
                    name: name.to_string(),
                    games,
                    years: year.into_iter().collect(),
                },
            );
            bound_held(kept);
        }
    }
}

/// Keeps the `cap` spellings with the most games (then the first names):
/// the same whatever order the rows and tables come in.
pub fn trim_spellings(kept: &mut Vec<Spelling>, cap: usize) {
    if kept.len() <= cap {
        return;
    }
    kept.sort_by(|a, b| b.games.n.cmp(&a.games.n).then_with(|| a.name.cmp(&b.name)));
    kept.truncate(cap);
    kept.sort_by(|a, b| a.name.cmp(&b.name));
}

/// Spellings by games, most first (then by name).
pub fn by_games(spellings: &[Spelling]) -> impl Iterator<Item = &Spelling> {
    let mut sorted: Vec<&Spelling> = spellings.iter().collect();
    sorted.sort_by(|a, b| b.games.n.cmp(&a.games.n).then_with(|| a.name.cmp(&b.name)));
    sorted.into_iter()
}

/// The spelling a player is shown by: the most frequent that writes the
/// given name out ("Karpov, Anatoly", not the longest, "Karpov,
/// Anantoly2"), if it has [`FULL_SPELLING_GAMES`] games or a tenth of the
/// most frequent spelling's; else the most frequent spelling ("Vachier
/// Lagrave,M" with 7,325 games, not the misspelt "Vachier Lagrave, Mexime"
/// with 11).
pub fn shown(spellings: &[Spelling]) -> Option<&Spelling> {
    let most = by_games(spellings).next()?;
    let full = by_games(spellings).find(|s| given_name(&s.name).is_some());
    Some(match full {
        Some(full) if full.games.n >= FULL_SPELLING_GAMES || full.games.n * 10 >= most.games.n => {
            full
        }
        _ => most,
    })
}

/// Games a spelling that writes the given name out needs to be shown
/// whatever the most frequent spelling's games: fewer, and it may be a
/// slip ("Mexime").
pub const FULL_SPELLING_GAMES: u64 = 20;

/// A spelling merged into a player and its games; `None` for the games
/// under spellings past [`SPELLINGS_KEPT`].
pub type Merged = (Option<String>, u64);

/// A merge's spellings with their games, as listed: "Karpov, Anatoly
/// (4095) | Karpov,Ana (1219)", the games under spellings not kept last.
pub fn spelling_list(spellings: &[Merged], separator: &str) -> String {
    spellings
        .iter()
        .map(|(name, games)| match name {
            Some(name) => format!("{name} ({games})"),
            None => format!("other spellings ({games})"),
        })
        .collect::<Vec<_>>()
        .join(separator)
}

/// What a spelling's given name says beyond [`remis_table::players::given_name`]:
/// an abbreviation of two letters ("Georgiev,Ki", "Sokolov,Iv": the given
/// name starts so), and a middle initial ("Petrosian, Tigran V",
/// "Petrosian,TL": two people are not one when these differ).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GivenParts {
    pub abbreviation: Option<String>,
    pub middle: Option<char>,
}

pub fn given_parts(name: &str) -> GivenParts {
    let mut out = GivenParts::default();
    let Some((_, given)) = name.split_once(',') else {
        return out;
    };
    if name.contains([':', '/', '&', '+']) {
        return out;
    }
    let tokens: Vec<&str> = given
        .split(|c: char| c.is_whitespace() || c == '.')
        .filter(|t| !t.is_empty())
        .collect();
    let Some(first) = tokens.first() else {
        return out;
    };
    let letters: Vec<char> = first.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() == 2 {
        if letters.iter().all(|c| c.is_uppercase()) {
            // Initials: "TL" is T. L.
            out.middle = letters[1].to_lowercase().next();
        } else {
            out.abbreviation = Some(letters.iter().flat_map(|c| c.to_lowercase()).collect());
        }
    }
    if let Some(second) = tokens.get(1) {
        let mut chars = second.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && c.is_alphabetic()
        {
            out.middle = c.to_lowercase().next();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_and_middle_initials() {
        let parts = |n: &str| {
            let p = given_parts(n);
            (p.abbreviation, p.middle)
        };
        assert_eq!(parts("Georgiev,Ki"), (Some("ki".into()), None));
        assert_eq!(parts("Sokolov,Iv NED"), (Some("iv".into()), None));
        assert_eq!(parts("Petrosian,TL"), (None, Some('l')));
        assert_eq!(parts("Petrosian, Tigran V"), (None, Some('v')));
        assert_eq!(parts("Nikolic,Predrag N"), (None, Some('n')));
        for none in [
            "Kasparov, G.",
            "Carlsen,M",
            "Carlsen",
            "Botvinnik,M ISR",
            "Larsen, B2.",
        ] {
            assert_eq!(parts(none), (None, None), "{none}");
        }
    }

    #[test]
    fn spellings_merge_by_name_and_year() {
        let s = |name: &str, year: i16, games: u64| Spelling {
            name: name.into(),
            games: Proportion::new(0, games),
            years: vec![YearGames {
                year,
                games,
                rated: games,
                rating_sum: 2500 * games,
            }],
        };
        let mut kept = Vec::new();
        for x in [
            s("b", 2001, 2),
            s("a", 2000, 1),
            s("b", 2000, 3),
            s("c", 1999, 1),
        ] {
            add_spelling(&mut kept, &x);
        }
        assert_eq!(
            kept.iter()
                .map(|k| (k.name.as_str(), k.games.n))
                .collect::<Vec<_>>(),
            [("a", 1), ("b", 5), ("c", 1)]
        );
        assert_eq!(
            kept[1].years.iter().map(|y| y.year).collect::<Vec<_>>(),
            [2000, 2001]
        );
        trim_spellings(&mut kept, 2);
        assert_eq!(
            kept.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
    }
}
