//! Datasets of Parquet files in the lichess hub's layout
//! (`year=YYYY/month=MM/...parquet`, every month's file with the same name):
//! every month kept whichever way it is classified, and a shard in the way
//! refused unless it is its own input's.

use std::{fs::File, path::Path};

use polars::prelude::*;

use crate::common;
use common::{pgn_games as games, read_table, remis, scratch, succeeded, write_lichess_layout};

/// Three months of games in the hub's layout, each month's file with the
/// same name: `year=2025/month=0M/train-00000-of-00001.parquet`.
fn hub_tree(dir: &Path) -> (std::path::PathBuf, Vec<std::path::PathBuf>, usize) {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/lichess-sample.pgn.zst");
    let pgn = String::from_utf8(zstd::decode_all(File::open(sample).unwrap()).unwrap()).unwrap();
    // Games of every year of the sample, so that a `year` read from the
    // folder names (all 2025) instead of the rows shows.
    let all: Vec<_> = games(&pgn)
        .into_iter()
        .filter(|(tags, _)| !tags.iter().any(|(n, v)| n == "Variant" && v != "Standard"))
        .step_by(8)
        .take(438)
        .collect();
    let years: std::collections::BTreeSet<&str> = all
        .iter()
        .filter_map(|(tags, _)| tags.iter().find(|(n, _)| n == "UTCDate"))
        .map(|(_, v)| &v[..4])
        .collect();
    assert!(years.len() >= 4, "{years:?}");
    let root = dir.join("data");
    let mut files = Vec::new();
    for (m, part) in all.chunks(146).enumerate() {
        let folder = root.join(format!("year=2025/month=0{}", m + 1));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join("train-00000-of-00001.parquet");
        write_lichess_layout(&file, part, &[]);
        files.push(file);
    }
    (root, files, all.len())
}

fn rows_below(dir: &Path) -> (usize, Vec<String>) {
    let mut tables = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "parquet") {
                tables.push(p);
            }
        }
    }
    tables.sort();
    let rows = tables.iter().map(|t| read_table(t).height()).sum();
    let names = tables
        .iter()
        .map(|t| t.strip_prefix(dir).unwrap().display().to_string())
        .collect();
    (rows, names)
}

#[test]
fn the_hub_layout_keeps_every_month_whichever_way_it_is_classified() {
    let dir = scratch("hub");
    let (root, files, games) = hub_tree(&dir);
    assert_eq!(games, 438);
    let months: Vec<String> = (1..=3)
        .map(|m| format!("year=2025/month=0{m}/train-00000-of-00001.parquet"))
        .collect();

    // One process for the tree.
    let one = dir.join("one");
    succeeded(
        remis()
            .args(["classify", "--shard-per-input", "--out"])
            .arg(&one)
            .arg(&root)
            .output()
            .unwrap(),
    );
    assert_eq!(rows_below(&one), (games, months.clone()));

    // One process per file, as every Ray task runs.
    let each = dir.join("each");
    for file in &files {
        succeeded(
            remis()
                .args(["classify", "--shard-per-input", "--out"])
                .arg(&each)
                .arg(file)
                .output()
                .unwrap(),
        );
    }
    assert_eq!(rows_below(&each), (games, months.clone()));

    // Both equal the single table of all three files.
    let single = dir.join("single");
    succeeded(
        remis()
            .args(["classify", "--out"])
            .arg(&single)
            .arg(&root)
            .output()
            .unwrap(),
    );
    let stats = |table: &Path| {
        let output = succeeded(
            remis()
                .arg("stats")
                .arg(table)
                .args(["--format", "json", "--view", "outcomes"])
                .output()
                .unwrap(),
        );
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(stats(&one), stats(&single));
    assert_eq!(stats(&each), stats(&single));
}

#[test]
fn a_shard_in_the_way_is_refused_and_its_own_rerun_replaces_it() {
    let dir = scratch("in-the-way");
    let (_, files, _) = hub_tree(&dir);
    let out = dir.join("ds");
    let run = |file: &Path, extra: &[&str]| {
        remis()
            .args(["classify", "--shard-per-input", "--out"])
            .arg(&out)
            .args(extra)
            .arg(file)
            .output()
            .unwrap()
    };
    succeeded(run(&files[0], &[]));
    let shard = |m: usize| out.join(format!("year=2025/month=0{m}/train-00000-of-00001.parquet"));
    // Another input's shard where month 2's goes: refused, untouched.
    std::fs::create_dir_all(shard(2).parent().unwrap()).unwrap();
    std::fs::copy(shard(1), shard(2)).unwrap();
    let before = std::fs::read(shard(2)).unwrap();
    let refused = run(&files[1], &[]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains(&shard(2).display().to_string()) && err.contains("came from"),
        "{err}"
    );
    assert_eq!(std::fs::read(shard(2)).unwrap(), before);

    // A table without a manifest in the way: refused too.
    let mut plain = df!("white" => ["x"], "year" => [2000i16]).unwrap();
    ParquetWriter::new(File::create(shard(2)).unwrap())
        .finish(&mut plain)
        .unwrap();
    let refused = run(&files[1], &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("without a remis manifest"));

    // A corrupt manifest: named.
    ParquetWriter::new(File::create(shard(2)).unwrap())
        .with_key_value_metadata(Some(KeyValueMetadata::from_static(vec![(
            "remis.manifest".into(),
            "{not json".into(),
        )])))
        .finish(&mut plain)
        .unwrap();
    let refused = run(&files[1], &[]);
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains(&shard(2).display().to_string()) && err.contains("manifest is corrupt"),
        "{err}"
    );

    // Its own rerun replaces a shard; --skip-current leaves a current one.
    std::fs::remove_file(shard(2)).unwrap();
    succeeded(run(&files[1], &[]));
    let written = std::fs::metadata(shard(2)).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let skipped = succeeded(run(&files[1], &["--skip-current"]));
    assert!(String::from_utf8_lossy(&skipped.stderr).contains("already current"));
    assert_eq!(
        std::fs::metadata(shard(2)).unwrap().modified().unwrap(),
        written
    );
    succeeded(run(&files[1], &[]));
    assert_ne!(
        std::fs::metadata(shard(2)).unwrap().modified().unwrap(),
        written
    );

    // A temporary file of a dead run is removed by the next run.
    let stale = shard(3).with_file_name(".train-00000-of-00001.parquet.4194399.tmp");
    std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
    std::fs::write(&stale, b"half a table").unwrap();
    let cleaned = succeeded(run(&files[2], &[]));
    assert!(!stale.exists());
    assert!(String::from_utf8_lossy(&cleaned.stderr).contains("left by an interrupted run"));
}

#[test]
fn a_shard_named_only_by_its_extension_is_read_back() {
    // An input named `.pgn` gives the shard `.parquet`: a name that is all
    // suffix (no "extension" to Rust's Path) must still be a table to every
    // reading command.
    let dir = scratch("dot-shard");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join(".pgn"), common::games(13)).unwrap();
    std::fs::write(input.join("b.pgn"), common::games(2)).unwrap();
    let out = dir.join("out");
    succeeded(
        remis()
            .arg("classify")
            .arg(&input)
            .arg("--shard-per-input")
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap(),
    );
    assert!(out.join(".parquet").is_file());
    for source in ["rows", "summaries"] {
        let output = succeeded(
            remis()
                .arg("stats")
                .arg(&out)
                .args(["--view", "outcomes", "--format", "json", "--source", source])
                .output()
                .unwrap(),
        );
        let text = String::from_utf8_lossy(&output.stdout);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let all = json
            .as_array()
            .and_then(|rows| rows.iter().find(|r| r["band"] == "all"))
            .unwrap_or_else(|| panic!("--source {source}: no row for all bands: {text}"));
        assert_eq!(all["games"], 15, "--source {source}: {text}");
    }
}
