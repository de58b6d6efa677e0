//! Every fixture game in `tests/fixtures/` carries its expected
//! classification in `Expect…` tags, written from the FIDE Laws. This test
//! replays each file and compares, game by game.

use std::{collections::BTreeMap, ops::ControlFlow, path::Path};

use pgn_reader::{RawTag, Reader, Visitor};
use remis_core::replay::{Field, GameRecord, GameReplayer};

/// Reads only the `Expect…` tags of each game, independently of remis.
struct Expectations;

impl Visitor for Expectations {
    type Tags = BTreeMap<String, String>;
    type Movetext = BTreeMap<String, String>;
    type Output = BTreeMap<String, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(BTreeMap::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).into_owned();
        if name.starts_with("Expect") || name == "Event" {
            tags.insert(name, String::from_utf8_lossy(&value.decode()).into_owned());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags)
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        movetext
    }
}

fn expectations(pgn: &[u8]) -> Vec<BTreeMap<String, String>> {
    Reader::new(pgn)
        .read_games(&mut Expectations)
        .collect::<Result<_, _>>()
        .expect("fixture readable")
}

/// Every `Expect…` tag a fixture may carry: [`check`] compares each.
const KNOWN: [&str; 11] = [
    "ExpectEnding",
    "ExpectPlies",
    "ExpectResultMismatch",
    "ExpectMismatchReason",
    "ExpectAutomaticDrawPly",
    "ExpectDead",
    "ExpectFlagOpponentCanMate",
    "ExpectThreefoldClaimable",
    "ExpectFiftyClaimable",
    "ExpectRepetitions",
    "ExpectWhite",
];

fn check(game: &GameRecord, expect: &BTreeMap<String, String>) -> Vec<String> {
    let mut wrong = Vec::new();
    // A tag no comparison reads (a typo, "ExpectDraw") would check nothing
    // and pass: it is an error.
    for tag in expect.keys().filter(|t| t.starts_with("Expect")) {
        if !KNOWN.contains(&tag.as_str()) {
            wrong.push(format!(
                "{tag}: no such expectation (known: {})",
                KNOWN.join(", ")
            ));
        }
    }
    let board = game.board;
    let mut compared = Vec::new();
    let mut compare = |what: &str, got: String| {
        compared.push(what.to_string());
        if let Some(want) = expect.get(what)
            && *want != got
        {
            wrong.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    compare("ExpectEnding", game.ending.as_str().to_string());
    compare("ExpectPlies", game.plies.to_string());
    compare("ExpectResultMismatch", game.result_mismatch().to_string());
    compare(
        "ExpectMismatchReason",
        game.mismatch.map_or("none", |m| m.as_str()).to_string(),
    );
    compare(
        "ExpectAutomaticDrawPly",
        game.first_event
            .map_or("none".to_string(), |(ply, _)| ply.to_string()),
    );
    compare(
        "ExpectDead",
        match game.dead {
            Some(d) if d.is_dead() => "true",
            Some(remis_core::rules::Deadness::Unknown) => "unknown",
            _ => "false",
        }
        .to_string(),
    );
    compare(
        "ExpectFlagOpponentCanMate",
        game.flag_opponent
            .map_or("none", |m| m.as_str())
            .to_string(),
    );
    compare(
        "ExpectThreefoldClaimable",
        board.is_some_and(|b| b.threefold_claimable).to_string(),
    );
    compare(
        "ExpectFiftyClaimable",
        board.is_some_and(|b| b.fifty_claimable).to_string(),
    );
    compare(
        "ExpectRepetitions",
        board.map_or(0, |b| b.repetitions).to_string(),
    );
    compare(
        "ExpectWhite",
        game.text.get(Field::White).unwrap_or_default().to_string(),
    );
    debug_assert_eq!(compared, KNOWN, "every known tag is compared");
    wrong
}

#[test]
fn an_unknown_expectation_is_an_error_not_a_pass() {
    let pgn = b"[Event \"typo\"]\n[Result \"1-0\"]\n[ExpectEnding \"checkmate\"]\n[ExpectDraw \"true\"]\n\n\
        1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let expected = expectations(pgn);
    let games = GameReplayer::new().replay_all(pgn);
    let problems = check(&games[0], &expected[0]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("ExpectDraw: no such expectation"),
        "{problems:?}"
    );
}

#[test]
fn every_fixture_game_is_classified_as_the_laws_say() {
    let dir = std::env::var("REMIS_FIXTURES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "fixtures missing in {}", dir.display());

    let mut failures = Vec::new();
    let mut checked = 0;
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let expected = expectations(&bytes);
        let games = GameReplayer::new().replay_all(&bytes);
        let name = file.file_name().unwrap().to_string_lossy();
        assert_eq!(games.len(), expected.len(), "{name}: one record per game");
        for (i, (game, expect)) in games.iter().zip(&expected).enumerate() {
            assert!(
                expect.contains_key("ExpectEnding"),
                "{name} game {}: no ExpectEnding tag",
                i + 1
            );
            checked += 1;
            for problem in check(game, expect) {
                failures.push(format!(
                    "{name} game {} ({}): {problem}{}",
                    i + 1,
                    expect.get("Event").map_or("", String::as_str),
                    game.error()
                        .map(|e| format!(" [error: {e}]"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    assert!(checked >= files.len(), "only {checked} fixture games");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
