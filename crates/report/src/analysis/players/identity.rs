//! Who a player is: a FIDE ID when the tags give one, else the name key with
//! its written-out given names, which tells namesakes apart; spelling by
//! spelling, namesakes are also told apart by abbreviations and middle
//! initials, by games decades apart and by ratings far apart in the same
//! years; a spelling that could be several people goes to the one who
//! plays nearly all their games. `tests/data/player-identities.tsv` lists
//! the known pairs of the master games this keeps apart or joins.

use super::spelling::{GivenParts, given_parts};
use super::*;

/// A FIDE ID as the tags give it: digits, not 0.
pub(super) fn fide_id(tag: &str) -> Option<u64> {
    let tag = tag.trim();
    (!tag.is_empty() && tag.bytes().all(|b| b.is_ascii_digit()))
        .then(|| tag.parse().ok())
        .flatten()
        .filter(|&id| id > 0)
}

/// Separates a name's key from a FIDE ID in an identity.
pub(super) const ID_MARK: char = '\u{1f}';

/// A side's identity: the name's key, with the FIDE ID when the tags carry
/// one (`KEY␟fID`), else with the given name when the spelling writes it
/// out (`KEY␟gNAME`). Identities that share a name's key are resolved into
/// people when the counts are read ([`resolve_identities`]).
pub(super) fn identity(name_key: String, fide_id: Option<u64>, given: Option<String>) -> String {
    match (fide_id, given) {
        (Some(id), _) => format!("{name_key}{ID_MARK}f{id}"),
        (None, Some(given)) => format!("{name_key}{ID_MARK}g{given}"),
        (None, None) => name_key,
    }
}

/// Years between two people's games past which they are not one person,
/// unless both are rated at one level ([`SAME_LEVEL`]): periods decades
/// apart (Mikhail Botvinnik to 1970, an Israeli "Botvinnik,M ISR" in
/// 2009). At ten years alone, some sixty players of the master games seen
/// again after a pause were split in two ("Tarjan, James Edward" 1968–84
/// and "Tarjan,J" 2014–22, both about 2450); at twenty with the level, two
/// of those stay apart, each with unrated games of the 1950s on one side
/// ("Salomon, J." of 1954 and "Salomon,J" of 2013–19).
pub const PERIOD_GAP: i16 = 20;
/// Rating points within which two periods' mean ratings are one level:
/// a player back after decades, not a namesake.
pub const SAME_LEVEL: f64 = 200.0;
/// Rating points between two spellings' mean ratings in the years both
/// play past which they are not one person (GM Ivan Sokolov at 2650 and
/// an "Iv" rated 1902 in 2007).
pub const RATING_GAP: f64 = 400.0;
/// Rated games each side needs in the shared years for their ratings to
/// be compared.
pub const MIN_RATED: u64 = 3;

/// One spelling of an identity, the unit people are made of.
struct Unit<'a> {
    identity: &'a String,
    name: Option<&'a str>,
    games: Proportion,
    years: &'a [YearGames],
    fide: Option<&'a str>,
    given: Option<String>,
    parts: GivenParts,
    spelling: Option<&'a Spelling>,
}

/// One person among the identities of a name's key.
struct Person<'a> {
    key: String,
    units: Vec<usize>,
    games: u64,
    fide: Option<&'a str>,
    given: Vec<String>,
    abbreviations: Vec<String>,
    middle: Option<char>,
    /// Games, rated games and the sum of their ratings, by year.
    years: BTreeMap<i16, (u64, u64, u64)>,
}

impl<'a> Person<'a> {
    fn new(key: String) -> Self {
        Person {
            key,
            units: Vec::new(),
            games: 0,
            fide: None,
            given: Vec::new(),
            abbreviations: Vec::new(),
            middle: None,
            years: BTreeMap::new(),
        }
    }

    fn add(&mut self, i: usize, unit: &Unit<'a>) {
        self.units.push(i);
        self.games += unit.games.n;
        self.fide = self.fide.or(unit.fide);
        self.given.extend(unit.given.clone());
        self.abbreviations.extend(unit.parts.abbreviation.clone());
        self.middle = self.middle.or(unit.parts.middle);
        for y in unit.years {
            let e = self.years.entry(y.year).or_insert((0, 0, 0));
            e.0 += y.games;
            e.1 += y.rated;
            e.2 += y.rating_sum;
        }
    }

    /// Whether the unit can be this person: no other FIDE ID, given name,
    /// abbreviation or middle initial, no decades between their games
    /// (unless the given names are the same, or one abbreviates the other:
    /// "Timman, Jan H" to 1999 and "Timman, Jan" in 2011) and no ratings far
    /// apart in the same years.
    fn admits(&self, unit: &Unit) -> bool {
        self.admits_but(unit, false)
    }

    /// [`Person::admits`], or with `decades` whatever the years between.
    fn admits_but(&self, unit: &Unit, decades: bool) -> bool {
        if let (Some(a), Some(b)) = (self.fide, unit.fide)
            && a != b
        {
            return false;
        }
        if let (Some(a), Some(b)) = (self.middle, unit.parts.middle)
            && a != b
        {
            return false;
        }
        if let Some(abbreviation) = &unit.parts.abbreviation
            && (self
                .given
                .iter()
                .any(|g| !g.starts_with(abbreviation.as_str()))
                || self.abbreviations.iter().any(|a| a != abbreviation))
        {
            return false;
        }
        if let Some(given) = &unit.given
            && self
                .abbreviations
                .iter()
                .any(|a| !given.starts_with(a.as_str()))
        {
            return false;
        }
        let same_name = unit.given.as_ref().is_some_and(|u| {
            self.given
                .iter()
                .any(|g| g.starts_with(u.as_str()) || u.starts_with(g.as_str()))
        });
        match apart_in_time(&self.years, unit.years) {
            Some(Apart::Decades) => same_name || decades,
            Some(Apart::Ratings) => false,
            None => true,
        }
    }

    /// Whether a given name names this person: a given name of hers, or
    /// the given name her abbreviations abbreviate.
    fn named(&self, given: &str) -> bool {
        self.given.iter().any(|g| same_given_name(g, given))
            || (!self.abbreviations.is_empty()
                && self
                    .abbreviations
                    .iter()
                    .all(|a| given.starts_with(a.as_str())))
    }
}

enum Apart {
    Decades,
    Ratings,
}

/// Whether a person's games (by year) and a spelling's are decades apart
/// or rated far apart in the same years.
fn apart_in_time(person: &BTreeMap<i16, (u64, u64, u64)>, unit: &[YearGames]) -> Option<Apart> {
    let span = |mut years: Box<dyn Iterator<Item = i16> + '_>| {
        let first = years.next()?;
        Some((first, years.last().unwrap_or(first)))
    };
    let (pf, pl) = span(Box::new(person.iter().filter(|y| y.1.0 > 0).map(|y| *y.0)))?;
    let (uf, ul) = span(Box::new(
        unit.iter().filter(|y| y.games > 0).map(|y| y.year),
    ))?;
    if uf - pl >= PERIOD_GAP || pf - ul >= PERIOD_GAP {
        let level = |rated: u64, sum: u64| (rated >= MIN_RATED).then(|| sum as f64 / rated as f64);
        let person_level = level(
            person.values().map(|p| p.1).sum(),
            person.values().map(|p| p.2).sum(),
        );
        let unit_level = level(
            unit.iter().map(|y| y.rated).sum(),
            unit.iter().map(|y| y.rating_sum).sum(),
        );
        return match (person_level, unit_level) {
            (Some(a), Some(b)) if (a - b).abs() < SAME_LEVEL => None,
            _ => Some(Apart::Decades),
        };
    }
    let (mut weight, mut difference, mut rated_p, mut rated_u) = (0.0, 0.0, 0, 0);
    for y in unit.iter().filter(|y| y.rated > 0) {
        if let Some(&(_, rated, sum)) = person.get(&y.year).filter(|p| p.1 > 0) {
            let w = rated.min(y.rated) as f64;
            let mean_p = sum as f64 / rated as f64;
            let mean_u = y.rating_sum as f64 / y.rated as f64;
            weight += w;
            difference += w * (mean_u - mean_p);
            rated_p += rated;
            rated_u += y.rated;
        }
    }
    (rated_p >= MIN_RATED && rated_u >= MIN_RATED && (difference / weight).abs() >= RATING_GAP)
        .then_some(Apart::Ratings)
}

/// The players resolved into people, key by key of name, spelling by
/// spelling (the spellings with the most games first within each step):
/// - every FIDE ID is a person;
/// - a written-out given name joins the person whose given name it matches
///   ([`same_given_name`]), or the one FIDE person of the key when that
///   person's spellings give no name; otherwise it is a person of its own
///   ("Adams, Michael" and "Adams, Mark" are two);
/// - a two-letter abbreviation ("Georgiev,Kr") or an initial alone
///   ("Adams,M") joins the one person it can be, or the one with at least
///   [`DOMINANT_SHARE`] of the games of those it can be; otherwise it
///   stays apart, under the spelling.
///
/// A spelling can be a person only if no FIDE ID, given name,
/// abbreviation or middle initial ("Petrosian, Tigran V" and "Petrosian,
/// Tigran L") says otherwise, its games are less than [`PERIOD_GAP`] years
/// from the person's, and in the years both play their mean ratings are
/// less than [`RATING_GAP`] apart.
pub(super) fn resolve_identities(counts: &PlayerCounts) -> PlayerCounts {
    let mut variants: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for key in counts.by_name.keys() {
        let name = key.split_once(ID_MARK).map_or(key.as_str(), |(n, _)| n);
        variants.entry(name).or_default().push(key);
    }
    let mut out = PlayerCounts {
        by_name: BTreeMap::new(),
        spellings: BTreeMap::new(),
        ..counts.clone()
    };
    for keys in variants.values() {
        for person in people(counts, keys) {
            let (key, units) = person;
            let total = out
                .by_name
                .entry(key.clone())
                .or_insert(Proportion::new(0, 0));
            let kept = out.spellings.entry(key).or_default();
            for unit in units {
                total.absorb(unit.games);
                if let Some(spelling) = unit.spelling {
                    add_spelling(kept, spelling);
                }
            }
        }
    }
    out.spellings.retain(|_, s| !s.is_empty());
    out
}

/// Each named identity's person (her key, and the name shown for her), as
/// the Players section resolves them ([`resolve_identities`]): an identity whose
/// spellings went to several people goes whole to the one that took most
/// of its games.
pub(crate) fn people_of_identities(counts: &PlayerCounts) -> BTreeMap<String, (String, String)> {
    let resolved = resolve_identities(counts);
    let mut variants: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for key in counts.by_name.keys() {
        let name = key.split_once(ID_MARK).map_or(key.as_str(), |(n, _)| n);
        variants.entry(name).or_default().push(key);
    }
    let mut shares: BTreeMap<&String, BTreeMap<String, u64>> = BTreeMap::new();
    for keys in variants.values() {
        for (person, units) in people(counts, keys) {
            for unit in units {
                *shares
                    .entry(unit.identity)
                    .or_default()
                    .entry(person.clone())
                    .or_insert(0) += unit.games.n;
            }
        }
    }
    shares
        .into_iter()
        .filter_map(|(identity, people)| {
            let person = people
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?
                .0;
            let name = display_name(&resolved, &person);
            Some((identity.clone(), (person, name)))
        })
        .collect()
}

/// The people of one name's key: each person's key and spellings.
fn people<'a>(counts: &'a PlayerCounts, keys: &[&'a String]) -> Vec<(String, Vec<Unit<'a>>)> {
    let mut units: Vec<Unit> = Vec::new();
    for &identity in keys {
        let fide = identity
            .split_once(ID_MARK)
            .and_then(|(_, v)| v.strip_prefix('f'));
        let total = counts.by_name[identity];
        let spellings = counts
            .spellings
            .get(identity)
            .map_or(&[][..], Vec::as_slice);
        let mut listed = Proportion::new(0, 0);
        for s in spellings {
            listed.absorb(s.games);
            units.push(Unit {
                identity,
                name: Some(&s.name),
                games: s.games,
                years: &s.years,
                fide,
                given: given_name(&s.name),
                parts: given_parts(&s.name),
                spelling: Some(s),
            });
        }
        // The games under spellings not kept go with the identity.
        let rest = Proportion::new(
            total.successes.saturating_sub(listed.successes),
            total.n.saturating_sub(listed.n),
        );
        if rest.n > 0 || spellings.is_empty() {
            units.push(Unit {
                identity,
                name: None,
                games: rest,
                years: &[],
                fide,
                given: identity
                    .split_once(ID_MARK)
                    .and_then(|(_, v)| v.strip_prefix('g'))
                    .map(str::to_string),
                parts: GivenParts::default(),
                spelling: None,
            });
        }
    }
    // By step ([`step`]), most games first.
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&units[a], &units[b]);
        (step(x), std::cmp::Reverse(x.games.n), x.name, x.identity).cmp(&(
            step(y),
            std::cmp::Reverse(y.games.n),
            y.name,
            y.identity,
        ))
    });
    let mut people: Vec<Person> = Vec::new();
    // A given name that only the years keep from a person of that name
    // waits for the initials: "Jakovenko, Dmitry" in 2010 is ten years from
    // "Jakovenko, Dmitrij" (to 1999) until "Jakovenko,D" (2000–23) joins.
    let mut deferred = Vec::new();
    for i in order {
        match place(&units[i], &units, &people, true) {
            Place::Wait => deferred.push(i),
            place => settle(i, place, &units, &mut people),
        }
    }
    for i in deferred {
        let place = place(&units[i], &units, &people, false);
        settle(i, place, &units, &mut people);
    }
    let mut units: Vec<Option<Unit>> = units.into_iter().map(Some).collect();
    people
        .into_iter()
        .map(|p| {
            let members = p.units.iter().filter_map(|&u| units[u].take()).collect();
            (p.key, members)
        })
        .collect()
}

enum Place {
    Join(usize),
    New,
    Wait,
}

/// Where a unit goes among the people so far.
fn place(unit: &Unit, units: &[Unit], people: &[Person], may_wait: bool) -> Place {
    let join = match (step(unit), &unit.given) {
        // One FIDE ID, one person.
        (0, _) => people.iter().position(|p| p.fide == unit.fide),
        (1, Some(given)) => {
            let sole_fide = people.iter().filter(|p| p.fide.is_some()).count() == 1;
            let named = |person: &Person| {
                person.named(given)
                    || (sole_fide && person.fide.is_some() && person.given.is_empty())
            };
            let matching: Vec<usize> = (0..people.len())
                .filter(|&p| named(&people[p]) && people[p].admits(unit))
                .collect();
            if matching.is_empty()
                && may_wait
                && people.iter().any(|p| named(p) && p.admits_but(unit, true))
            {
                return Place::Wait;
            }
            match matching.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        }
        _ if unit.name.is_none() => None,
        _ => {
            let possible: Vec<usize> = (0..people.len())
                .filter(|&p| people[p].admits(unit))
                .collect();
            let total: u64 = possible.iter().map(|&p| people[p].games).sum();
            possible
                .iter()
                .copied()
                .max_by_key(|&p| (people[p].games, std::cmp::Reverse(p)))
                .filter(|&p| people[p].games as f64 >= DOMINANT_SHARE * total as f64)
        }
    };
    // The games under spellings not kept go with the identity's person.
    let join = join.or_else(|| {
        unit.name.is_none().then(|| {
            people
                .iter()
                .position(|p| p.units.iter().any(|&u| units[u].identity == unit.identity))
        })?
    });
    join.map_or(Place::New, Place::Join)
}

/// Adds unit `i` to its person, or makes it one.
fn settle<'a>(i: usize, place: Place, units: &[Unit<'a>], people: &mut Vec<Person<'a>>) {
    let unit = &units[i];
    match place {
        Place::Join(p) => people[p].add(i, unit),
        _ => {
            let taken = people.iter().any(|p| &p.key == unit.identity);
            let key = match unit.name {
                Some(name) if taken => format!("{}{ID_MARK}s{name}", unit.identity),
                _ => unit.identity.clone(),
            };
            let mut person = Person::new(key);
            person.add(i, unit);
            people.push(person);
        }
    }
}

/// The order spellings are placed in: FIDE IDs, then given names and
/// abbreviations, then initials alone.
fn step(u: &Unit) -> u8 {
    match (u.fide, &u.given, &u.parts.abbreviation) {
        (Some(_), _, _) => 0,
        (None, Some(_), _) | (None, None, Some(_)) => 1,
        _ => 2,
    }
}

/// The share of a key's written-out games one person needs for the games
/// under an initial alone to be taken as theirs: in a collection of one
/// player's games ("Aronian,L" 4,000 times, "Aronian, Laurel" twice) the
/// initial is the collection's player.
pub const DOMINANT_SHARE: f64 = 0.9;
