//! Who a player is: a FIDE ID when the tags give one, else the name key with
//! its written-out given names, which tells namesakes apart; games under an
//! initial alone go to the one person who plays nearly all the key's games.

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

/// One person among the identities of a name's key.
pub(super) struct Person {
    /// The identity the person is counted under.
    key: String,
    /// Written-out given names seen for the person.
    given: Vec<String>,
}

/// The players resolved into people, key by key of name:
/// - every FIDE ID is a person;
/// - a written-out given name joins the person whose given name it matches
///   ([`same_given_name`]), or the one FIDE person of the key when that
///   person's spellings give no name; otherwise it is a person of its own
///   ("Adams, Michael" and "Adams, Mark" are two);
/// - games under an initial only ("Adams,M") join the key's person who has
///   at least [`DOMINANT_SHARE`] of its written-out games (the one person,
///   when there is one), and otherwise stay apart, under the spelling.
pub(super) fn resolve_identities(counts: &PlayerCounts) -> PlayerCounts {
    let mut variants: BTreeMap<&str, Vec<&String>> = BTreeMap::new();
    for key in counts.by_name.keys() {
        let name = key.split_once(ID_MARK).map_or(key.as_str(), |(n, _)| n);
        variants.entry(name).or_default().push(key);
    }
    let mut target: BTreeMap<&String, String> = BTreeMap::new();
    for (name, keys) in &variants {
        let mut people: Vec<Person> = Vec::new();
        let given_of = |key: &String| -> Vec<String> {
            counts
                .spellings
                .get(key)
                .into_iter()
                .flatten()
                .filter_map(|s| given_name(s))
                .collect()
        };
        for key in keys.iter().filter(|k| is_variant(k, 'f')) {
            people.push(Person {
                key: (*key).clone(),
                given: given_of(key),
            });
            target.insert(key, (*key).clone());
        }
        let fide_people = people.len();
        for key in keys.iter().filter(|k| is_variant(k, 'g')) {
            let given = key.rsplit_once(ID_MARK).map_or("", |(_, g)| &g[1..]);
            let matching: Vec<usize> = (0..people.len())
                .filter(|&i| people[i].given.iter().any(|g| same_given_name(g, given)))
                .collect();
            let join = match matching.as_slice() {
                [one] => Some(*one),
                [] if fide_people == 1 && people[0].given.is_empty() => Some(0),
                _ => None,
            };
            match join {
                Some(i) => {
                    people[i].given.push(given.to_string());
                    target.insert(key, people[i].key.clone());
                }
                None => {
                    people.push(Person {
                        key: (*key).clone(),
                        given: vec![given.to_string()],
                    });
                    target.insert(key, (*key).clone());
                }
            }
        }
        if let Some(bare) = keys.iter().find(|k| k.as_str() == *name) {
            // Each person's games under written-out names or IDs.
            let mut games: BTreeMap<&str, u64> = BTreeMap::new();
            for key in keys.iter().filter(|k| k.as_str() != *name) {
                let person = target.get(key).map_or(key.as_str(), String::as_str);
                *games.entry(person).or_insert(0) += counts.by_name[*key].n;
            }
            let total: u64 = games.values().sum();
            let largest = games
                .iter()
                .max_by_key(|&(k, n)| (*n, std::cmp::Reverse(*k)));
            let to = match largest {
                Some((person, &n)) if n as f64 >= DOMINANT_SHARE * total as f64 => {
                    person.to_string()
                }
                _ => (*bare).clone(),
            };
            target.insert(bare, to);
        }
    }
    let mut out = PlayerCounts {
        by_name: BTreeMap::new(),
        spellings: BTreeMap::new(),
        ..counts.clone()
    };
    for (key, p) in &counts.by_name {
        let to = target.get(key).cloned().unwrap_or_else(|| key.clone());
        out.by_name
            .entry(to.clone())
            .or_insert(Proportion::new(0, 0))
            .absorb(*p);
        if let Some(spellings) = counts.spellings.get(key) {
            let kept = out.spellings.entry(to).or_default();
            for s in spellings {
                keep_spelling(kept, s.clone());
            }
        }
    }
    out
}

/// The share of a key's written-out games one person needs for the games
/// under an initial alone to be taken as theirs: in a collection of one
/// player's games ("Aronian,L" 4,000 times, "Aronian, Laurel" twice) the
/// initial is the collection's player.
pub const DOMINANT_SHARE: f64 = 0.9;

/// Whether an identity is a FIDE (`f`) or given-name (`g`) variant.
pub(super) fn is_variant(key: &str, kind: char) -> bool {
    key.split_once(ID_MARK)
        .is_some_and(|(_, rest)| rest.starts_with(kind))
}
