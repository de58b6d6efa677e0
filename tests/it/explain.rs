//! `remis explain`: the trail's verdict is the classification's own, game
//! for game, on every rules fixture; the page and the errors. The trails'
//! moves, positions, repetitions and helpmates are checked against
//! python-chess in tests/python/test_explain.py.

use crate::common;

use common::{remis, scratch, succeeded};
use remis_core::replay::GameReplayer;

fn fixtures() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir("crates/core/tests/fixtures")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_fixture_game_explains_with_the_ending_classify_gives() {
    let mut explained = 0;
    for file in fixtures() {
        let records = GameReplayer::new().replay_all(&std::fs::read(&file).unwrap());
        for (i, record) in records.iter().enumerate() {
            let output = succeeded(
                remis()
                    .arg("explain")
                    .arg(&file)
                    .args(["--game", &(i + 1).to_string(), "--format", "json"])
                    .output()
                    .unwrap(),
            );
            let trail: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(
                trail["ending"],
                record.ending.as_str(),
                "{} game {}",
                file.display(),
                i + 1
            );
            assert_eq!(
                trail["article"],
                remis_core::explain::article(record.ending),
                "{} game {}",
                file.display(),
                i + 1
            );
            assert!(!trail["events"].as_array().unwrap().is_empty());
            explained += 1;
        }
        // One past the last game is an error that names the count.
        let past = remis()
            .arg("explain")
            .arg(&file)
            .args(["--game", &(records.len() + 1).to_string()])
            .output()
            .unwrap();
        assert!(!past.status.success());
        let message = String::from_utf8_lossy(&past.stderr);
        assert!(
            message.contains("there is no game") || message.contains("no games read"),
            "{message}"
        );
    }
    assert!(explained > 150, "{explained}");
}

#[test]
fn the_page_has_a_board_at_each_event_and_is_written_safely() {
    let dir = scratch("explain-page");
    let page = dir.join("game.html");
    succeeded(
        remis()
            .args([
                "explain",
                "crates/core/tests/fixtures/repetition.pgn",
                "--game",
                "1",
            ])
            .args(["--format", "html", "--out"])
            .arg(&page)
            .output()
            .unwrap(),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<svg class=\"board\"").count(), 3, "{html}");
    assert!(html.contains("article 9.2 of the FIDE Laws"));
    assert!(!html.contains("<script"));
    // Never over its input.
    let input = dir.join("input.pgn");
    std::fs::copy("crates/core/tests/fixtures/repetition.pgn", &input).unwrap();
    let refused = remis()
        .arg("explain")
        .arg(&input)
        .args(["--game", "1", "--format", "html", "--out"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert_eq!(
        std::fs::read(&input).unwrap(),
        std::fs::read("crates/core/tests/fixtures/repetition.pgn").unwrap()
    );
}

#[test]
fn games_are_numbered_as_the_table_numbers_them_text_that_is_not_pgn_included() {
    // explain finds game N by framing only (issue 50): text that is not
    // PGN (no row), a game without tags (a row) and broken games (rows)
    // must count as the table counts them.
    let dir = scratch("explain-numbering");
    let input = dir.join("mixed.pgn");
    std::fs::write(
        &input,
        "This file was downloaded from somewhere.\n\n\
         [Event \"first\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
         not a game either, just words\n\n\
         1. d4 d5 2. c4 *\n\n\
         [Event \"broken\"]\n[Result \"*\"]\n\n1. e4 Zz9 *\n\n\
         [Event \"last\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2\n\n",
    )
    .unwrap();
    let out = dir.join("out");
    succeeded(
        remis()
            .arg("classify")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .arg("--allow-damaged")
            .output()
            .unwrap(),
    );
    let table = common::read_table(&out.join("games.parquet"));
    let events = common::strings(&table, "event");
    let numbers: Vec<u32> = table
        .column("game_no")
        .unwrap()
        .u32()
        .unwrap()
        .into_no_null_iter()
        .collect();
    // However the framer cuts the text, the table numbers its rows 1..n.
    assert!(numbers.len() >= 3, "{events:?}");
    assert_eq!(numbers, (1..=numbers.len() as u32).collect::<Vec<_>>());
    for (n, event) in numbers.iter().zip(&events) {
        let output = succeeded(
            remis()
                .arg("explain")
                .arg(&input)
                .args(["--game", &n.to_string(), "--format", "json"])
                .output()
                .unwrap(),
        );
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["event"].as_str(), event.as_deref(), "game {n}");
    }
    let beyond = remis()
        .arg("explain")
        .arg(&input)
        .args(["--game", &(numbers.len() + 1).to_string()])
        .output()
        .unwrap();
    assert!(!beyond.status.success());
    let message = common::stderr(&beyond);
    assert!(
        message.contains(&format!("has {} games", numbers.len())),
        "{message}"
    );
}
