//! Parquet input in the lichess dataset's layout (issue 13): the project
//! writes small Parquet files itself, from its own PGN games, and remis must
//! give the same endings as on the PGN they came from, one row per input
//! row, with clear errors for files that are not in that layout.

use std::{fs::File, path::Path};

use polars::prelude::*;

mod common;
use common::{read_table, remis, scratch, strings as column, succeeded};

/// The tags and movetext of each game of a PGN text, split the simple way.
fn games(pgn: &str) -> Vec<(Vec<(String, String)>, String)> {
    let mut out = Vec::new();
    for block in pgn.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let block = if block.starts_with('[') {
            block.to_string()
        } else {
            format!("[{block}")
        };
        let (head, moves) = block.split_once("\n\n").unwrap_or((&block, ""));
        let tags = head
            .lines()
            .filter_map(|l| {
                let l = l.trim().strip_prefix('[')?.strip_suffix(']')?;
                let (name, value) = l.split_once(' ')?;
                Some((name.to_string(), value.trim_matches('"').to_string()))
            })
            .collect();
        out.push((tags, moves.split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    out
}

/// A Parquet file in the lichess layout: string tags, int16 ratings.
fn write_lichess_layout(path: &Path, games: &[(Vec<(String, String)>, String)], drop: &[&str]) {
    let tag = |name: &str| -> Vec<Option<String>> {
        games
            .iter()
            .map(|(tags, _)| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()))
            .collect()
    };
    let elo = |name: &str| -> Vec<Option<i16>> {
        tag(name)
            .into_iter()
            .map(|v| v.and_then(|v| v.parse().ok()))
            .collect()
    };
    let mut columns: Vec<polars::prelude::Column> = Vec::new();
    for name in [
        "Event",
        "Site",
        "White",
        "Black",
        "Result",
        "UTCDate",
        "ECO",
        "Opening",
        "Termination",
        "TimeControl",
    ] {
        if !drop.contains(&name) {
            columns.push(Series::new(name.into(), tag(name)).into_column());
        }
    }
    for name in ["WhiteElo", "BlackElo"] {
        if !drop.contains(&name) {
            columns.push(Series::new(name.into(), elo(name)).into_column());
        }
    }
    let moves: Vec<String> = games.iter().map(|(_, m)| m.clone()).collect();
    columns.push(Series::new("movetext".into(), moves).into_column());
    let mut df = DataFrame::new(games.len(), columns).unwrap();
    ParquetWriter::new(File::create(path).unwrap())
        .with_row_group_size(Some(700))
        .finish(&mut df)
        .unwrap();
}

fn classify(input: &Path, out: &Path) -> DataFrame {
    let output = remis()
        .args([
            "classify",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    succeeded(output);
    read_table(&out.join("games.parquet"))
}

#[test]
fn parquet_in_the_lichess_layout_gives_the_endings_of_its_pgn() {
    let dir = scratch("layout");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/lichess-sample.pgn.zst");
    let pgn = String::from_utf8(zstd::decode_all(File::open(sample).unwrap()).unwrap()).unwrap();
    // Standard games only: the dataset has no Variant or FEN column.
    let games: Vec<_> = games(&pgn)
        .into_iter()
        .filter(|(tags, _)| !tags.iter().any(|(n, v)| n == "Variant" && v != "Standard"))
        .take(2000)
        .collect();
    let from_pgn: String = games
        .iter()
        .map(|(tags, moves)| {
            let mut g: String = tags
                .iter()
                .map(|(n, v)| format!("[{n} \"{v}\"]\n"))
                .collect();
            g += &format!("\n{moves}\n\n");
            g
        })
        .collect();
    std::fs::write(dir.join("games.pgn"), from_pgn).unwrap();
    write_lichess_layout(&dir.join("games.parquet"), &games, &[]);
    let pgn_table = classify(&dir.join("games.pgn"), &dir.join("out-pgn"));
    let parquet_table = classify(&dir.join("games.parquet"), &dir.join("out-parquet"));
    assert_eq!(parquet_table.height(), games.len(), "rows = input rows");
    for name in [
        "ending",
        "draw_type",
        "plies",
        "white_elo",
        "white_clock",
        "result",
        "site",
        "year",
    ] {
        assert_eq!(
            column(&pgn_table, name),
            column(&parquet_table, name),
            "column {name}"
        );
    }
    // Parquet input streams through the parallel reader in input order.
    let numbers: Vec<u32> = parquet_table
        .column("game_no")
        .unwrap()
        .u32()
        .unwrap()
        .iter()
        .flatten()
        .collect();
    assert_eq!(numbers, (1..=games.len() as u32).collect::<Vec<_>>());

    // A missing column: no tag, same endings.
    write_lichess_layout(
        &dir.join("missing.parquet"),
        &games,
        &["Opening", "WhiteElo"],
    );
    let missing = classify(&dir.join("missing.parquet"), &dir.join("out-missing"));
    assert_eq!(column(&missing, "ending"), column(&pgn_table, "ending"));
    assert!(column(&missing, "white_elo").iter().all(Option::is_none));
}

#[test]
fn parquet_files_outside_the_layout_are_refused_with_a_reason() {
    let dir = scratch("refused");
    // An unexpected type: movetext as numbers.
    let mut df = df!("Event" => ["a", "b"], "movetext" => [1i64, 2]).unwrap();
    ParquetWriter::new(File::create(dir.join("numbers.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    // No movetext at all: a remis table, say.
    let mut df = df!("white" => ["x"], "year" => [2000i16]).unwrap();
    ParquetWriter::new(File::create(dir.join("table.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    for (name, reason) in [
        ("numbers.parquet", "has type"),
        ("table.parquet", "no `movetext` column"),
    ] {
        let out = dir.join(format!("out-{name}"));
        let output = remis()
            .args([
                "classify",
                dir.join(name).to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{name}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(name) && err.contains(reason), "{err}");
    }
    // A number where text is expected elsewhere is read as text.
    let mut df = df!("Event" => [7i64], "Result" => ["1-0"], "movetext" => ["1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"]).unwrap();
    ParquetWriter::new(File::create(dir.join("event.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    let table = classify(&dir.join("event.parquet"), &dir.join("out-event"));
    assert_eq!(column(&table, "event"), [Some("7".to_string())]);
    assert_eq!(column(&table, "ending"), [Some("checkmate".to_string())]);
}

#[test]
fn shards_per_input_read_back_as_one_dataset() {
    let dir = scratch("shards");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/lichess-sample.pgn.zst");
    let pgn = String::from_utf8(zstd::decode_all(File::open(sample).unwrap()).unwrap()).unwrap();
    let all = games(&pgn);
    let inputs = dir.join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let text = |part: &[(Vec<(String, String)>, String)]| -> String {
        part.iter()
            .map(|(tags, moves)| {
                let head: String = tags
                    .iter()
                    .map(|(n, v)| format!("[{n} \"{v}\"]\n"))
                    .collect();
                format!("{head}\n{moves}\n\n")
            })
            .collect()
    };
    for (i, part) in all.chunks(all.len() / 3 + 1).enumerate() {
        std::fs::write(inputs.join(format!("part{i}.pgn")), text(part)).unwrap();
    }
    let run = |args: &[&str]| {
        let output = succeeded(remis().args(args).output().unwrap());
        String::from_utf8(output.stdout).unwrap()
    };
    let shards = dir.join("dataset");
    let single = dir.join("single");
    run(&[
        "classify",
        inputs.to_str().unwrap(),
        "--shard-per-input",
        "--out",
        shards.to_str().unwrap(),
    ]);
    run(&[
        "classify",
        inputs.to_str().unwrap(),
        "--out",
        single.to_str().unwrap(),
    ]);
    let names: Vec<String> = std::fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let tables = names.iter().filter(|n| n.ends_with(".parquet")).count();
    assert_eq!(tables, 3, "{names:?}");
    let stats = |table: &str| run(&["stats", table, "--format", "csv", "--view", "outcomes"]);
    let reference = stats(single.to_str().unwrap());
    assert_eq!(stats(shards.to_str().unwrap()), reference);
    assert_eq!(
        stats(shards.join("part*.parquet").to_str().unwrap()),
        reference
    );
    // A shard rerun alone leaves the others untouched.
    let before = std::fs::metadata(shards.join("part0.parquet"))
        .unwrap()
        .modified()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    run(&[
        "classify",
        inputs.join("part1.pgn").to_str().unwrap(),
        "--shard-per-input",
        "--out",
        shards.to_str().unwrap(),
    ]);
    let after = std::fs::metadata(shards.join("part0.parquet"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);
    assert_eq!(stats(shards.to_str().unwrap()), reference);
}
