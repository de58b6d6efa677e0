//! Parquet input in the lichess dataset's layout (issue 13): the project
//! writes small Parquet files itself, from its own PGN games, and remis must
//! give the same endings as on the PGN they came from, one row per input
//! row, with clear errors for files that are not in that layout.

use std::{fs::File, path::Path};

use polars::prelude::*;

use crate::common;
use common::{
    pgn_games as games, read_table, remis, scratch, strings as column, succeeded,
    write_lichess_layout,
};

fn classify(input: &Path, out: &Path) -> DataFrame {
    classify_with(input, out, &[])
}

/// The table of a run that must succeed, with `flags` added.
fn classify_with(input: &Path, out: &Path, flags: &[&str]) -> DataFrame {
    let output = remis()
        .arg("classify")
        .args(flags)
        .arg(input)
        .arg("--out")
        .arg(out)
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

/// Writes a frame as Parquet with `rows_per_group` rows in each group.
fn write_grouped(path: &Path, df: &mut DataFrame, rows_per_group: usize) {
    ParquetWriter::new(File::create(path).unwrap())
        .with_row_group_size(Some(rows_per_group))
        .finish(df)
        .unwrap();
}

#[test]
fn a_movetext_cell_is_one_game_whatever_it_holds() {
    // A lone CR and a tag line inside a movetext made a second, fake game
    // when rows went through the PGN framer (issues 18 and 19).
    let dir = scratch("cell");
    let mut df = df!(
        "Event" => ["one", "two", "three"],
        "Result" => ["1-0", "1/2-1/2", "0-1"],
        "movetext" => [
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
            "1. d4 d5\r[Event \"injected\"]\r\n[Result \"1-0\"]\n\n1. e4 1/2-1/2",
            "1. f3 e5 2. g4 Qh4# 0-1",
        ]
    )
    .unwrap();
    write_grouped(&dir.join("cells.parquet"), &mut df, 2);
    let table = classify_allowing_damage(&dir.join("cells.parquet"), &dir.join("out"));
    assert_eq!(table.height(), 3, "one row per Parquet row");
    assert_eq!(
        column(&table, "event"),
        [Some("one".into()), Some("two".into()), Some("three".into())]
    );
    let ending = column(&table, "ending");
    assert_eq!(ending[0].as_deref(), Some("checkmate"));
    assert_eq!(ending[1].as_deref(), Some("invalid"));
    assert_eq!(ending[2].as_deref(), Some("checkmate"));
    let error = column(&table, "error");
    assert!(
        error[1].as_deref().is_some_and(|e| e.contains("[Event")),
        "{error:?}"
    );
}

#[test]
fn a_fault_in_a_parquet_movetext_is_placed_by_its_row() {
    // An error in a row's movetext named a "line" (the row's number, as if
    // the table were a PGN text).
    let dir = scratch("row-place");
    let mut df = df!(
        "Event" => ["one", "two", "three"],
        "Result" => ["1-0", "1/2-1/2", "0-1"],
        "movetext" => [
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
            "1. d4 { never closed 1/2-1/2",
            "1. f3 e5\n2. g4 ) Qh4# 0-1",
        ]
    )
    .unwrap();
    write_grouped(&dir.join("rows.parquet"), &mut df, 2);
    let table = classify_allowing_damage(&dir.join("rows.parquet"), &dir.join("out"));
    let error = column(&table, "error");
    let (second, third) = (error[1].as_deref(), error[2].as_deref());
    assert!(
        second.is_some_and(|e| e.starts_with("row 2: unterminated comment")),
        "{error:?}"
    );
    assert!(
        third.is_some_and(|e| e.starts_with("row 3, line 2 of its movetext: )")),
        "{error:?}"
    );
}

fn classify_allowing_damage(input: &Path, out: &Path) -> DataFrame {
    classify_with(input, out, &["--allow-damaged"])
}

#[test]
fn tag_values_keep_quotes_and_backslashes() {
    let dir = scratch("escapes");
    let names = [
        r#"Cup "A" \ 2024"#,
        r"C:\chess\games",
        "plain",
        r#"trailing\"#,
    ];
    let mut df = df!(
        "Event" => names,
        "Result" => ["1-0"; 4],
        "movetext" => ["1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"; 4]
    )
    .unwrap();
    write_grouped(&dir.join("escapes.parquet"), &mut df, 3);
    let table = classify(&dir.join("escapes.parquet"), &dir.join("out"));
    let events: Vec<Option<String>> = names.iter().map(|n| Some(n.to_string())).collect();
    assert_eq!(column(&table, "event"), events);
}

#[test]
fn many_small_row_groups_are_read_whole_and_in_order() {
    // Streaming writers leave files of thousands of small groups; each
    // group used to reopen and rescan the file (quadratic time).
    let dir = scratch("groups");
    let n = 3000;
    let events: Vec<String> = (1..=n).map(|i| format!("game {i}")).collect();
    let mut df = df!(
        "Event" => events.clone(),
        "Result" => vec!["0-1"; n],
        "movetext" => vec!["1. f3 e5 2. g4 Qh4# 0-1"; n]
    )
    .unwrap();
    write_grouped(&dir.join("groups.parquet"), &mut df, 7);
    let groups = ParquetReader::new(File::open(dir.join("groups.parquet")).unwrap())
        .get_metadata()
        .unwrap()
        .row_groups
        .len();
    assert!(groups >= n / 7, "{groups} row groups");
    let table = classify(&dir.join("groups.parquet"), &dir.join("out"));
    assert_eq!(table.height(), n);
    let got: Vec<Option<String>> = column(&table, "event");
    assert_eq!(got, events.into_iter().map(Some).collect::<Vec<_>>());
    let numbers: Vec<u32> = table
        .column("game_no")
        .unwrap()
        .u32()
        .unwrap()
        .iter()
        .flatten()
        .collect();
    assert_eq!(numbers, (1..=n as u32).collect::<Vec<_>>());
}

/// The progress bar counts a Parquet input's bytes as its rows are read
/// (it used to count only the first look at the file, and stopped there).
#[test]
fn a_parquet_input_counts_its_bytes_as_rows_are_read() {
    use std::sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    };
    let dir = scratch("progress");
    let path = dir.join("games.parquet");
    // Distinct comments keep the file past the reader's 256 KiB first look.
    let n = 100_000u64;
    let moves: Vec<String> = (0..n)
        .map(|i| {
            let noise = remis_core::fnv::fnv1a(&i.to_le_bytes());
            format!("1. f3 {{ {noise:016x} }} e5 2. g4 Qh4# 0-1")
        })
        .collect();
    let mut df = df!("Result" => vec!["0-1"; n as usize], "movetext" => moves).unwrap();
    write_grouped(&path, &mut df, 10_000);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 512 << 10, "{size}");

    let bytes = Arc::new(AtomicU64::new(0));
    let (mut games, mut seen) = (0u64, Vec::new());
    let report = remis_core::input::read_chunks(
        &[remis_core::input::Input::File(path.clone())],
        64 << 10,
        remis_core::input::Limits::default(),
        &remis_table::parquet_input::ParquetSource,
        bytes.clone(),
        &mut |chunk| {
            games += chunk.games.len() as u64;
            seen.push(bytes.load(Ordering::Relaxed));
            true
        },
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(games, n);
    assert_eq!(bytes.load(Ordering::Relaxed), size);
    // The digest is of the whole file, though the games were read by
    // position, and the bytes hashed after them are not counted twice.
    let digest = {
        use sha2::Digest;
        let bytes = std::fs::read(&path).unwrap();
        sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    assert_eq!(report.sha256, vec![Some(digest)]);
    // Counted along the way, never past the file's size.
    assert!(seen.windows(2).all(|w| w[0] <= w[1]) && seen.iter().all(|&b| b <= size));
    assert!(seen.iter().any(|&b| b > 0 && b < size), "{seen:?}");
}

/// Issue 30, class 8: ratings stored as Float64 (pandas writes an integer
/// column with gaps so, NaN for the gaps) were read as null in silence.
#[test]
fn float_ratings_are_read_as_whole_numbers_and_fractions_refused() {
    let dir = scratch("float-elo");
    let mut df = df!(
        "Event" => ["one", "two", "three"],
        "Result" => ["1-0", "1/2-1/2", "0-1"],
        "WhiteElo" => [2412.0f64, f64::NAN, 1500.0],
        "BlackElo" => [Some(2398.0f64), None, Some(1499.0)],
        "movetext" => [
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
            "1. d4 d5 1/2-1/2",
            "1. f3 e5 2. g4 Qh4# 0-1",
        ]
    )
    .unwrap();
    write_grouped(&dir.join("floats.parquet"), &mut df, 2);
    let table = classify(&dir.join("floats.parquet"), &dir.join("out"));
    assert_eq!(
        column(&table, "white_elo"),
        [Some("2412".into()), None, Some("1500".into())]
    );
    assert_eq!(
        column(&table, "black_elo"),
        [Some("2398".into()), None, Some("1499".into())]
    );

    let mut df = df!(
        "Event" => ["one"],
        "WhiteElo" => [2412.5f64],
        "movetext" => ["1. e4 e5 1/2-1/2"]
    )
    .unwrap();
    write_grouped(&dir.join("fraction.parquet"), &mut df, 2);
    let output = remis()
        .arg("classify")
        .arg(dir.join("fraction.parquet"))
        .arg("--out")
        .arg(dir.join("out2"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("fraction.parquet") && err.contains("WhiteElo") && err.contains("2412.5"),
        "{err}"
    );
}

/// Issue 30, class 8: a footer whose row count disagrees with its row
/// groups (5 against 300) was believed: 5 rows, exit 0.
#[test]
fn a_footer_whose_row_count_disagrees_with_its_row_groups_is_refused() {
    let dir = scratch("footer-rows");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, common::games(300)).unwrap();
    let out = dir.join("out");
    let table = classify(&pgn, &out);
    assert_eq!(table.height(), 300);
    let path = out.join("games.parquet");
    let bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let footer = &bytes[n - 8 - footer_len..n - 8];
    // FileMetaData field 3, num_rows, in Thrift's compact protocol: the
    // header 0x16 (one field on, i64), then zigzag(300) = 600 as a varint
    // (0xd8 0x04), then field 4's list header (0x19).
    let at = footer
        .windows(4)
        .position(|w| w == [0x16, 0xd8, 0x04, 0x19])
        .expect("num_rows = 300 in the footer");
    let mut patched_footer = footer[..at].to_vec();
    patched_footer.extend_from_slice(&[0x16, 0x0a, 0x19]); // zigzag(5) = 10
    patched_footer.extend_from_slice(&footer[at + 4..]);
    let mut patched = bytes[..n - 8 - footer_len].to_vec();
    patched.extend_from_slice(&patched_footer);
    patched.extend_from_slice(&(patched_footer.len() as u32).to_le_bytes());
    patched.extend_from_slice(b"PAR1");
    std::fs::write(&path, &patched).unwrap();

    let output = remis().arg("stats").arg(&out).output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("games.parquet"), "{err}");
    assert!(err.contains("300"), "{err}");
}

/// `bytes` of a Parquet file with its data cut at `keep` bytes but its
/// footer intact: what a reader that read the footer sees when the file is
/// cut while it reads (the footer's places point past the end).
fn cut_under_its_footer(bytes: &[u8], keep: usize) -> Vec<u8> {
    let n = bytes.len();
    let footer_len = u32::from_le_bytes(bytes[n - 8..n - 4].try_into().unwrap()) as usize;
    let mut cut = bytes[..keep].to_vec();
    cut.extend_from_slice(&bytes[n - 8 - footer_len..]);
    cut
}

#[test]
fn a_parquet_file_cut_while_it_is_read_is_named_and_no_panic_is_printed() {
    // Issue 48, class 7: polars panicked on its own threads (range.rs);
    // the run must name the file and say what happened, keep the rows
    // before the damage, and print no panic.
    let dir = scratch("cut-while-read");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/lichess-sample.pgn.zst");
    let pgn = String::from_utf8(zstd::decode_all(File::open(sample).unwrap()).unwrap()).unwrap();
    let all: Vec<_> = games(&pgn).into_iter().take(2_800).collect();
    let whole = dir.join("whole.parquet");
    write_lichess_layout(&whole, &all, &[]);
    let bytes = std::fs::read(&whole).unwrap();
    let input = dir.join("cut.parquet");
    std::fs::write(&input, cut_under_its_footer(&bytes, bytes.len() / 2)).unwrap();

    let out = dir.join("out");
    let output = remis()
        .arg("classify")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    assert!(err.contains("cut.parquet"), "{err}");
    let table = read_table(&out.join("games.parquet"));
    assert!(
        table.height() > 0 && table.height() < 2_800,
        "{}",
        table.height()
    );

    // The reading commands on a table cut the same way: an error naming it,
    // no panic.
    let table_path = out.join("games.parquet");
    let bytes = std::fs::read(&table_path).unwrap();
    std::fs::write(&table_path, cut_under_its_footer(&bytes, bytes.len() / 2)).unwrap();
    for args in [
        &["stats", "--source", "rows"][..],
        &["report", "--source", "rows", "--out"],
    ] {
        let mut command = remis();
        command.args(args);
        if args[0] == "report" {
            command.arg(dir.join("r.html"));
        }
        let output = command.arg(&out).output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("games.parquet"), "{args:?}: {err}");
    }
}
