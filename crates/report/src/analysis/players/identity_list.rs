//! The labelled list of known pairs (`tests/data/player-identities.tsv`):
//! namesakes of the master games that identities keep apart, and
//! spellings of one player they join, each spelling with its games by
//! year and rating as the master games have them
//! (`tests/data/player-identity-spellings.tsv`).

use std::collections::BTreeSet;

use super::*;

const PAIRS: &str = include_str!("../../../../../tests/data/player-identities.tsv");
const SPELLINGS: &str = include_str!("../../../../../tests/data/player-identity-spellings.tsv");

fn lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// The counting query's rows for these spellings: one a spelling and
/// year (one without a year for a spelling the master games lack).
fn frame(spellings: &[&str]) -> DataFrame {
    let years: BTreeMap<&str, &str> = lines(SPELLINGS).map(|f| (f[0], f[1])).collect();
    let (mut player, mut year, mut games, mut rated, mut rating_sum) =
        (vec![], vec![], vec![], vec![], vec![]);
    for &name in spellings {
        let Some(by_year) = years.get(name) else {
            player.push(name);
            year.push(None);
            games.push(1u64);
            rated.push(0u64);
            rating_sum.push(0u64);
            continue;
        };
        for cell in by_year.split_whitespace() {
            let n: Vec<u64> = cell.split(':').map(|x| x.parse().unwrap()).collect();
            player.push(name);
            year.push(Some(n[0] as i16));
            games.push(n[1]);
            rated.push(n[2]);
            rating_sum.push(n[2] * n[3]);
        }
    }
    let fide_id: Vec<Option<&str>> = vec![None; player.len()];
    let draws = vec![0u64; player.len()];
    df!(
        names::PLAYER => player,
        FIDE_ID => fide_id,
        Column::Year.name() => year,
        names::GAMES => games,
        names::DRAWS => draws,
        names::RATED => rated,
        names::RATING_SUM => rating_sum
    )
    .unwrap()
}

/// The person a spelling is counted under.
fn person_of(resolved: &PlayerCounts, spelling: &str) -> Option<String> {
    resolved
        .spellings
        .iter()
        .find(|(_, s)| s.iter().any(|s| s.name == spelling))
        .map(|(key, _)| key.clone())
}

#[test]
fn the_labelled_pairs_are_kept_apart_or_joined() {
    let pairs: Vec<Vec<&str>> = lines(PAIRS).collect();
    assert!(pairs.len() >= 40, "{} pairs", pairs.len());
    let all: BTreeSet<&str> = pairs.iter().flat_map(|p| [p[0], p[1]]).collect();
    let all: Vec<&str> = all.into_iter().collect();
    let together = resolve_identities(&counts_from(&frame(&all), &Aliases::default()).unwrap());
    // Each pair is judged among all the list's spellings, as a key's
    // spellings are: "Sokolov,Iv RUS" in 2007 is told from Ivan Sokolov by
    // his games of 2007, "Jakovenko, Dmitry" in 2010 joins Dmitrij through
    // "Jakovenko,D" of 2000–23.
    let mut wrong = Vec::new();
    for pair in &pairs {
        let (a, b, expect) = (pair[0], pair[1], pair[2]);
        assert!(expect == "same" || expect == "different", "{pair:?}");
        let (pa, pb) = (person_of(&together, a), person_of(&together, b));
        assert!(pa.is_some() && pb.is_some(), "{a} / {b}");
        if (pa == pb) != (expect == "same") {
            wrong.push(format!("{a} / {b}: not {expect} ({})", pair[3]));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
