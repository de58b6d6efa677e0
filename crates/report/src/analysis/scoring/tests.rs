use super::*;

#[test]
fn events_of_a_game_or_two_are_not_crosstables() {
    // One game between two players, and a two-game match: every player
    // has "all" the event's games, but a ranking of them says nothing.
    let df = df! {
        "event" => ["One", "Two", "Two"],
        "year" => [2000i16; 3],
        "round" => ["1", "1", "2"],
        "white" => ["A", "C", "D"],
        "black" => ["B", "D", "C"],
        "result" => ["1-0", "1-0", "1/2-1/2"],
        "plus_remise_winner" => [None::<&str>, None, Some("white")],
        "plus_remise_rule" => [None::<u8>, None, Some(1u8)],
    }
    .unwrap();
    let study = scoring_study(&counts(df.lazy()).unwrap());
    assert_eq!(study.events, 0);
    assert_eq!(study.small_events, 2);
}

#[test]
fn plus_remise_breaks_a_tie_the_other_systems_keep() {
    // A beats B, C beats D, A-C and B-D drawn; plus-remise gives A-C to
    // A (White) and B-D to D (Black). Classical: A 1½, C 1½ share first.
    let df = df! {
        "event" => ["Test"; 4],
        "year" => [2000i16; 4],
        // Two rounds of a Swiss event: every round's pairings.
        "round" => ["1.1", "1.2", "2.1", "2.2"],
        "white" => ["A", "C", "A", "B"],
        "black" => ["B", "D", "C", "D"],
        "result" => ["1-0", "1-0", "1/2-1/2", "1/2-1/2"],
        "plus_remise_winner" => [None, None, Some("white"), Some("black")],
        "plus_remise_rule" => [None, None, Some(1u8), Some(3u8)],
    }
    .unwrap();
    let study = scoring_study(&counts(df.lazy()).unwrap());
    assert_eq!(study.events, 1);
    assert_eq!((study.swiss, study.round_robins), (1, 0));
    assert_eq!(study.changes[&System::Football].different_winner, 0);
    assert_eq!(study.changes[&System::Children].different_winner, 0);
    let plus = &study.changes[&System::PlusRemise];
    assert_eq!(plus.different_winner, 1);
    assert_eq!(plus.examples[0].classical, ["A", "C"]);
    assert_eq!(plus.examples[0].other, ["A"]);
    assert_eq!(plus.examples[0].event_label(), "Test 2000");
    // Classical ranks A1 C1 B3 D3; plus-remise A 2, C 1, D 1, B 0:
    // ranks A1 C2 D2 B4, so C, D and B move one place each.
    assert_eq!(plus.places_moved, 3);
    assert_eq!(study.plus_remise_draws[&("white".to_string(), 1)], 1);
    assert_eq!(study.plus_remise_draws[&("black".to_string(), 3)], 1);
}

#[test]
fn matches_and_equal_games_are_counted_apart_as_arithmetic_says() {
    // Issue 49: a four-game match (A wins one, three draws) and a
    // three-player double round robin: X beats Z twice, draws and loses
    // against Y (2 wins, 1 draw, 1 loss: 2½); Y beats X once and draws the
    // rest (1 win, 3 draws: 2½); Z 1. Classical: X and Y share first;
    // 3-1-0: X alone (7 against 6). 3-2-1: 9 each, as classical. The match
    // cannot change under either; every player of both events played the
    // same number of games, so 3-2-1 can change neither.
    let df = df! {
        "event" => ["Match", "Match", "Match", "Match", "RR", "RR", "RR", "RR", "RR", "RR"],
        "year" => [2000i16; 10],
        "round" => ["1", "2", "3", "4", "1", "2", "3", "4", "5", "6"],
        "white" => ["A", "B", "A", "B", "X", "Y", "X", "Z", "Y", "Z"],
        "black" => ["B", "A", "B", "A", "Y", "X", "Z", "X", "Z", "Y"],
        "result" => ["1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "1/2-1/2", "1-0", "1-0", "0-1", "1/2-1/2", "1/2-1/2"],
        "plus_remise_winner" => [None::<&str>; 10],
        "plus_remise_rule" => [None::<u8>; 10],
    }
    .unwrap();
    let study = scoring_study(&counts(df.lazy()).unwrap());
    assert_eq!(study.events, 2, "{study:?}");
    assert_eq!(
        (study.round_robins, study.matches, study.unequal_games),
        (2, 1, 0)
    );
    let football = &study.changes[&System::Football];
    assert_eq!(football.different_winner, 1);
    assert_eq!(
        football.different_winner_multi, 1,
        "the round robin, not the match"
    );
    assert_eq!(football.examples[0].classical, ["X", "Y"]);
    assert_eq!(football.examples[0].other, ["X"]);
    let children = &study.changes[&System::Children];
    assert_eq!(children.different_winner, 0);
    assert_eq!(children.different_winner_unequal, 0);
}

/// `ScoringCounts::absorb` looks only at the events the absorbed counts
/// name; the standings it keeps are those of every event within the
/// games' limit and not left out, as looking at them all would keep.
#[test]
fn absorbed_standings_are_those_within_the_limit_and_not_left_out() {
    let event = |name: &str| (name.to_string(), Some(2001));
    let standings = |names: &[&str]| {
        EventStandings::from_entries(
            names
                .iter()
                .map(|n| (Player::from(*n), [1, 1, 1, 1, 1]))
                .collect(),
        )
    };
    let counts = |games: &[(&str, u64)], ranked: &[&str], left_out: &[&str]| ScoringCounts {
        event_games: games.iter().map(|&(e, n)| (event(e), n)).collect(),
        standings: ranked
            .iter()
            .map(|&e| (event(e), standings(&["A", "B"])))
            .collect(),
        left_out: left_out.iter().map(|&e| event(e)).collect(),
        ..ScoringCounts::default()
    };
    let limit = STANDINGS_MAX_GAMES;
    let mut total = ScoringCounts::default();
    // Every event's standings start within the limit ("Gone" has none
    // of its games counted: nothing to keep them by).
    total.absorb(counts(
        &[
            ("Grows", limit - 1),
            ("Stays", 10),
            ("Dropped", 10),
            ("Later", 5),
        ],
        &["Grows", "Stays", "Dropped", "Later", "Gone"],
        &[],
    ));
    let ranked =
        |c: &ScoringCounts| -> Vec<String> { c.standings.keys().map(|(e, _)| e.clone()).collect() };
    assert_eq!(ranked(&total), ["Dropped", "Grows", "Later", "Stays"]);
    // "Grows" passes the limit with two more games, "Dropped" is left
    // out, "Later" brings more standings, "Stays" is not named.
    total.absorb(counts(
        &[("Grows", 2), ("Later", 3)],
        &["Later"],
        &["Dropped"],
    ));
    assert_eq!(ranked(&total), ["Later", "Stays"]);
    assert_eq!(total.event_games[&event("Grows")], limit + 1);
    // A left-out event's later standings stay out.
    total.absorb(counts(&[("Dropped", 1)], &["Dropped"], &[]));
    assert_eq!(ranked(&total), ["Later", "Stays"]);
}
