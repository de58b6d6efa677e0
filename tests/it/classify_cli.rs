//! The `remis classify` command end to end: every input form, one row per
//! game in input order, damage reported without losing games, and the same
//! table whatever the thread count; and the games `remis generate` writes
//! for it.

use std::{
    fs::File,
    io::Write,
    path::{Path, PathBuf},
    process::{Output, Stdio},
};

use polars::prelude::*;
use remis_core::rules::Ending;

use crate::common;
use common::{read_table, remis, scratch, strings, succeeded, synthetic_pgn};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Counts games the simple way: tag sections that begin with `[Event `.
fn count_games(pgn: &[u8]) -> usize {
    pgn.split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"[Event "))
        .count()
}

fn classify(args: &[&str], out: &Path) -> (Output, DataFrame) {
    classify_expecting(args, out, 0)
}

/// Classifies and checks the exit status: 0 clean, 1 damaged inputs.
fn classify_expecting(args: &[&str], out: &Path, status: i32) -> (Output, DataFrame) {
    let output = remis()
        .arg("classify")
        .args(args)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(status),
        "remis: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (output, read_table(&out.join("games.parquet")))
}

/// Classifies `pgn` given on standard input into `out`; it must succeed.
fn classify_stdin(pgn: &[u8], out: &Path) {
    let mut child = remis()
        .args(["classify", "-", "--out"])
        .arg(out)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(pgn).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn last_ends_with(sources: &[Option<String>], suffix: &str) -> bool {
    sources
        .last()
        .and_then(|s| s.as_deref())
        .is_some_and(|s| s.ends_with(suffix))
}

#[test]
fn rows_equal_games_for_every_compression_and_thread_count() {
    let dir = scratch("compression");
    let pgn = synthetic_pgn();
    let games = count_games(&pgn);
    assert_eq!(games, 3000);

    std::fs::write(dir.join("plain.pgn"), &pgn).unwrap();
    let mut gz = flate2::write::GzEncoder::new(
        File::create(dir.join("games.pgn.gz")).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(&pgn).unwrap();
    gz.finish().unwrap();
    let mut bz = bzip2::write::BzEncoder::new(
        File::create(dir.join("games.pgn.bz2")).unwrap(),
        bzip2::Compression::fast(),
    );
    bz.write_all(&pgn).unwrap();
    bz.finish().unwrap();
    std::fs::write(
        dir.join("games.pgn.zst"),
        zstd::encode_all(&pgn[..], 1).unwrap(),
    )
    .unwrap();
    // Compression is told from the magic bytes, not the name.
    std::fs::copy(dir.join("games.pgn.gz"), dir.join("misnamed.pgn")).unwrap();

    let (_, reference) = classify(
        &[dir.join("plain.pgn").to_str().unwrap(), "--threads", "1"],
        &dir.join("out-plain"),
    );
    assert_eq!(reference.height(), games);
    // The generated games are legal and end by the Laws: every one is
    // replayed to an ending remis names, none is invalid, and their
    // results are not all alike.
    let endings: Vec<Ending> = strings(&reference, "ending")
        .iter()
        .map(|e| {
            e.as_deref()
                .and_then(Ending::from_name)
                .expect("a known ending")
        })
        .collect();
    assert!(!endings.contains(&Ending::Invalid));
    assert!(endings.contains(&Ending::Checkmate) && endings.contains(&Ending::Agreed));
    let game_no: Vec<u32> = reference
        .column("game_no")
        .unwrap()
        .u32()
        .unwrap()
        .into_no_null_iter()
        .collect();
    assert_eq!(game_no, (1..=games as u32).collect::<Vec<_>>());

    for (name, threads) in [
        ("games.pgn.gz", "2"),
        ("games.pgn.bz2", "2"),
        ("games.pgn.zst", "2"),
        ("misnamed.pgn", "2"),
        ("plain.pgn", "2"),
    ] {
        let (_, table) = classify(
            &[
                dir.join(name).to_str().unwrap(),
                "--threads",
                threads,
                "--chunk-bytes",
                "20000",
            ],
            &dir.join(format!("out-{name}-{threads}")),
        );
        assert_eq!(table.height(), games, "{name}");
        let without_source = |df: &DataFrame| df.drop("source").unwrap();
        assert!(
            without_source(&table).equals_missing(&without_source(&reference)),
            "{name} with {threads} threads differs from plain single-threaded"
        );
    }
}

/// `remis generate`: the same seed gives the same games, byte for byte
/// (the tests' `synthetic-3000.pgn.zst` was made by this command), and
/// another seed other games.
#[test]
fn generated_games_are_the_seeds_own() {
    let generate = |seed: &str| {
        let output = remis()
            .args(["generate", "--games", "3000", "--seed", seed])
            .output()
            .unwrap();
        succeeded(output).stdout
    };
    let first = generate("1");
    assert!(
        first == synthetic_pgn(),
        "remis generate --games 3000 --seed 1 no longer gives tests/data/synthetic-3000.pgn.zst"
    );
    assert!(generate("1") == first);
    let other = generate("2");
    assert_eq!(count_games(&other), 3000);
    assert!(other != first);
}

#[test]
fn folders_zip_members_and_stdin_keep_input_order() {
    let dir = scratch("sources");
    let pgn = synthetic_pgn();
    let cut = pgn
        .windows(8)
        .skip(pgn.len() / 2)
        .position(|w| w == b"\n[Event ")
        .unwrap()
        + pgn.len() / 2
        + 1;
    let (first, second) = pgn.split_at(cut);
    let zip_path = dir.join("twic9999g.zip");
    {
        let mut zip = ::zip::ZipWriter::new(File::create(&zip_path).unwrap());
        let options = ::zip::write::SimpleFileOptions::default()
            .compression_method(::zip::CompressionMethod::Deflated);
        zip.start_file("b-second.pgn", options).unwrap();
        zip.write_all(second).unwrap();
        zip.start_file("readme.txt", options).unwrap();
        zip.write_all(b"not a PGN file").unwrap();
        zip.start_file("a-first.pgn", options).unwrap();
        zip.write_all(first).unwrap();
        zip.finish().unwrap();
    }
    let (_, table) = classify(&[zip_path.to_str().unwrap()], &dir.join("out-zip"));
    assert_eq!(table.height(), count_games(&pgn));
    let sources = strings(&table, "source");
    let zip_name = zip_path.display().to_string();
    // Archive order, not name order; the text member is not a game source.
    assert_eq!(
        sources.first().unwrap().as_deref(),
        Some(format!("{zip_name}!b-second.pgn").as_str())
    );
    assert_eq!(
        sources.last().unwrap().as_deref(),
        Some(format!("{zip_name}!a-first.pgn").as_str())
    );

    // Standard input.
    classify_stdin(first, &dir.join("out-stdin"));
    let table = read_table(&dir.join("out-stdin/games.parquet"));
    assert_eq!(table.height(), count_games(first));
    assert_eq!(strings(&table, "source")[0].as_deref(), Some("-"));

    // A folder: every PGN file below it, in sorted order.
    let folder = dir.join("folder");
    std::fs::create_dir_all(folder.join("sub")).unwrap();
    std::fs::write(folder.join("sub/b.pgn"), second).unwrap();
    std::fs::write(folder.join("a.pgn"), first).unwrap();
    std::fs::write(folder.join("notes.txt"), b"ignored").unwrap();
    let (_, table) = classify(&[folder.to_str().unwrap()], &dir.join("out-folder"));
    assert_eq!(table.height(), count_games(&pgn));
    let sources = strings(&table, "source");
    assert!(sources[0].as_deref().unwrap().ends_with("a.pgn"));
    assert!(last_ends_with(&sources, "b.pgn"));
}

#[test]
fn truncated_archives_keep_every_game_before_the_damage() {
    let dir = scratch("truncated");
    let pgn = synthetic_pgn();
    let zst = zstd::encode_all(&pgn[..], 3).unwrap();
    let broken = dir.join("broken.pgn.zst");
    std::fs::write(&broken, &zst[..zst.len() / 2]).unwrap();
    std::fs::write(dir.join("after.pgn"), &pgn[..2000]).unwrap();

    let (output, table) = classify_expecting(
        &[
            broken.to_str().unwrap(),
            dir.join("after.pgn").to_str().unwrap(),
        ],
        &dir.join("out"),
        1,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken.pgn.zst"), "{stderr}");
    assert!(stderr.contains("1 input problem,"), "{stderr}");

    let sources = strings(&table, "source");
    let from_broken = sources
        .iter()
        .filter(|s| s.as_deref().unwrap().ends_with("broken.pgn.zst"))
        .count();
    assert!(from_broken > 100, "only {from_broken} games kept");
    // The run carried on with the next input.
    assert!(last_ends_with(&sources, "after.pgn"));
    // Every game before the damage matches the undamaged run.
    let full_dir = dir.join("full");
    std::fs::write(dir.join("full.pgn"), &pgn).unwrap();
    let (_, full) = classify(&[dir.join("full.pgn").to_str().unwrap()], &full_dir);
    let kept = from_broken - 1; // the last one may be cut
    let head = |df: &DataFrame| df.head(Some(kept)).drop("source").unwrap();
    assert!(head(&table).equals_missing(&head(&full)));
    // The game at the break is marked.
    let errors = strings(&table, "error");
    assert!(
        errors[from_broken - 1]
            .as_deref()
            .is_some_and(|e| e.contains("breaks off")),
        "{:?}",
        errors[from_broken - 1]
    );

    // A zip cut short: its central directory is gone.
    let zip_path = dir.join("cut.zip");
    {
        let mut zip = ::zip::ZipWriter::new(File::create(&zip_path).unwrap());
        let options = ::zip::write::SimpleFileOptions::default()
            .compression_method(::zip::CompressionMethod::Deflated);
        zip.start_file("first.pgn", options).unwrap();
        zip.write_all(&pgn[..pgn.len() / 3]).unwrap();
        zip.start_file("second.pgn", options).unwrap();
        zip.write_all(&pgn[pgn.len() / 3..]).unwrap();
        zip.finish().unwrap();
    }
    let bytes = std::fs::read(&zip_path).unwrap();
    std::fs::write(&zip_path, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let (output, table) =
        classify_expecting(&[zip_path.to_str().unwrap()], &dir.join("out-zip"), 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cut.zip"), "{stderr}");
    let sources = strings(&table, "source");
    assert!(
        sources
            .iter()
            .any(|s| s.as_deref().unwrap().ends_with("!first.pgn"))
    );
    assert!(table.height() > 1000, "only {} games kept", table.height());
}

#[test]
fn a_missing_input_fails_before_any_work() {
    let dir = scratch("missing");
    let output = remis()
        .args(["classify", "data", "no/such/file.pgn", "--out"])
        .arg(dir.join("out"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no/such/file.pgn"), "{stderr}");
    assert!(!dir.join("out/games.parquet").exists());
}

#[test]
fn schema_and_fixture_rows() {
    let dir = scratch("schema");
    let (_, table) = classify(
        &[repo("crates/core/tests/fixtures").to_str().unwrap()],
        &dir.join("out"),
    );
    let schema = table.schema();
    for (name, dtype) in [
        ("source", DataType::String),
        ("game_no", DataType::UInt32),
        ("year", DataType::Int16),
        ("white_elo", DataType::UInt16),
        ("black_elo", DataType::UInt16),
        ("plies", DataType::UInt32),
        ("ending", DataType::String),
        ("draw_type", DataType::String),
        ("halfmove_clock", DataType::UInt16),
        ("repetitions", DataType::UInt8),
        ("threefold_claimable", DataType::Boolean),
        ("fifty_claimable", DataType::Boolean),
        ("result_mismatch", DataType::Boolean),
        ("movetext_hash", DataType::UInt64),
        ("error", DataType::String),
    ] {
        assert_eq!(schema.get(name), Some(&dtype), "column {name}");
    }
    // Plus-remise on drawn fixtures: bare kings go to Black by rule 3; the
    // stored points are those of the deciding rule.
    let u8s =
        |c: &str| -> Vec<Option<u8>> { table.column(c).unwrap().u8().unwrap().iter().collect() };
    let (wm, bm, rule) = (
        u8s("white_material"),
        u8s("black_material"),
        u8s("plus_remise_rule"),
    );
    let (wp, bp) = (
        u8s("plus_remise_white_points"),
        u8s("plus_remise_black_points"),
    );
    let winner = strings(&table, "plus_remise_winner");
    let draw_types = strings(&table, "draw_type");
    let mut bare_kings = 0;
    for i in 0..table.height() {
        if draw_types[i].is_some() && wm[i] == Some(0) && bm[i] == Some(0) {
            bare_kings += 1;
            assert_eq!(
                (winner[i].as_deref(), rule[i], wp[i], bp[i]),
                (Some("black"), Some(3), Some(0), Some(1))
            );
        }
        if rule[i] == Some(1) {
            assert_eq!((wp[i], bp[i]), (wm[i], bm[i]), "row {i}");
            let white_more = wm[i] > bm[i];
            assert_eq!(
                winner[i].as_deref(),
                Some(if white_more { "white" } else { "black" })
            );
        }
    }
    assert!(bare_kings >= 1);
    // draw_type equals ending for drawn, replayed games and is null otherwise.
    let results = strings(&table, "result");
    let endings = strings(&table, "ending");
    let draw_types = strings(&table, "draw_type");
    for i in 0..table.height() {
        let drawn = results[i].as_deref() == Some("1/2-1/2")
            && !matches!(
                endings[i].as_deref(),
                Some("invalid" | "unsupported_variant")
            );
        if drawn {
            let ending = endings[i].as_deref().unwrap();
            let expected = match ending {
                "abandoned" | "adjudication" | "rules_infraction" => "other",
                e => e,
            };
            assert_eq!(draw_types[i].as_deref(), Some(expected), "row {i}");
        } else {
            assert_eq!(draw_types[i], None, "row {i}");
        }
    }
}

#[test]
fn dedup_marks_later_copies_and_report_needs_the_marks() {
    let dir = scratch("dedup");
    let pgn = synthetic_pgn();
    let games = count_games(&pgn);
    std::fs::write(dir.join("a.pgn"), &pgn).unwrap();
    // The same games again, with names spelled the other way round.
    let respelled = String::from_utf8_lossy(&pgn).replace(", ", ",");
    std::fs::write(dir.join("b.pgn"), respelled.as_bytes()).unwrap();
    let (output, table) = classify(&["--dedup", dir.to_str().unwrap()], &dir.join("out"));
    assert_eq!(table.height(), 2 * games);
    let duplicate: Vec<Option<bool>> = table
        .column("duplicate")
        .unwrap()
        .bool()
        .unwrap()
        .iter()
        .collect();
    let first_copies = duplicate[..games]
        .iter()
        .filter(|d| **d == Some(false))
        .count();
    let later_copies = duplicate[games..]
        .iter()
        .filter(|d| **d == Some(true))
        .count();
    // The generator may repeat a game by chance; every second copy is marked.
    assert!(first_copies > games * 99 / 100, "{first_copies}");
    assert_eq!(later_copies, games);
    let of_row: Vec<Option<u64>> = table
        .column("duplicate_of_row")
        .unwrap()
        .u64()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(of_row[games], Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("later copies"), "{stderr}");

    // Without marks, report --dedup refuses instead of silently keeping them.
    let (_, _) = classify(&[dir.join("a.pgn").to_str().unwrap()], &dir.join("plain"));
    let refused = remis()
        .args(["report", "--dedup", "--out"])
        .arg(dir.join("r.html"))
        .arg(dir.join("plain"))
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--dedup"));
    let stats = remis()
        .args([
            "stats",
            "--dedup",
            "--by-band",
            "--play",
            "all",
            "--format",
            "csv",
        ])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(stats.status.success());
    let text = String::from_utf8_lossy(&stats.stdout);
    let all = text.lines().find(|l| l.starts_with("all,")).unwrap();
    let used: usize = all.split(',').nth(2).unwrap().parse().unwrap();
    // Half the rows are copies: at most one row per distinct game is used.
    assert!(
        used <= games && used >= games * 99 / 100,
        "{used} used of {} rows",
        2 * games
    );
}

#[test]
fn a_users_alias_file_joins_transliterations_for_dedup_and_players() {
    // One game from two databases that transliterate a surname apart
    // ("Swjeschnikow" and "Sveshnikov" are in no built-in table).
    let dir = scratch("player-aliases");
    let game = |white: &str| {
        format!(
            "[Event \"Hastings\"]\n[Date \"1975.08.05\"]\n[White \"{white}\"]\n[Black \"Lasker, Emanuel\"]\n\
             [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
        )
    };
    std::fs::write(dir.join("a.pgn"), game("Swjeschnikow, Evgeny")).unwrap();
    std::fs::write(dir.join("b.pgn"), game("Sveshnikov,E")).unwrap();
    let aliases = dir.join("aliases.toml");
    std::fs::write(&aliases, "[aliases]\nswjeschnikow = \"sveshnikov\"\n").unwrap();
    let marked = |extra: &[&str], out: &str| {
        let mut args = vec!["--dedup", dir.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (_, table) = classify(&args, &dir.join(out));
        table
            .column("duplicate")
            .unwrap()
            .bool()
            .unwrap()
            .iter()
            .filter(|d| *d == Some(true))
            .count()
    };
    assert_eq!(marked(&[], "plain"), 0, "the two spellings differ");
    assert_eq!(
        marked(&["--player-aliases", aliases.to_str().unwrap()], "aliased"),
        1,
        "the alias makes the second copy a duplicate"
    );
    let players = |extra: &[&str]| {
        let output = remis()
            .args(["stats", dir.join("plain").to_str().unwrap()])
            .args(["--view", "players", "--play", "all", "--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        let rows: serde_json::Value = serde_json::from_slice(&succeeded(output).stdout).unwrap();
        rows.as_array().unwrap().len()
    };
    // Lasker and two Sveshnikovs, then Lasker and one.
    assert_eq!(players(&[]), 3);
    assert_eq!(players(&["--player-aliases", aliases.to_str().unwrap()]), 2);
}

/// SHA-256 of `bytes`, lower-case hex, computed in one piece (the reader
/// hashes as it streams).
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn the_manifest_holds_each_sources_sha256_as_stored() {
    let dir = scratch("digests");
    let pgn = synthetic_pgn();
    let plain = dir.join("a-plain.pgn");
    std::fs::write(&plain, &pgn).unwrap();
    let gz = dir.join("b-games.pgn.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&pgn).unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
    // A zip archive is read by position, not as a stream: its digest is
    // still of the whole file.
    let zip_path = dir.join("c-archive.zip");
    {
        let mut zip = ::zip::ZipWriter::new(File::create(&zip_path).unwrap());
        zip.start_file("games.pgn", ::zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&pgn[..pgn.len() / 3]).unwrap();
        zip.finish().unwrap();
    }
    // A truncated download: damaged, and its digest is of the bytes as
    // they are, so the damage can be told from the published file.
    let zst = zstd::encode_all(&pgn[..], 1).unwrap();
    let truncated = dir.join("d-cut.pgn.zst");
    std::fs::write(&truncated, &zst[..zst.len() / 2]).unwrap();

    let inputs = [&plain, &gz, &zip_path, &truncated];
    let args: Vec<&str> = inputs.iter().map(|p| p.to_str().unwrap()).collect();
    let out = dir.join("out");
    let (_, table) = classify_expecting(&args, &out, 1);
    assert!(table.height() > 2 * count_games(&pgn));
    let manifest = remis_table::writer::Manifest::read(&out.join("games.parquet"))
        .unwrap()
        .expect("a manifest");
    assert_eq!(manifest.inputs.len(), inputs.len());
    for (stamp, path) in manifest.inputs.iter().zip(inputs) {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(stamp.bytes, Some(bytes.len() as u64), "{}", path.display());
        assert_eq!(
            stamp.sha256.as_deref(),
            Some(sha256_hex(&bytes).as_str()),
            "{}",
            path.display()
        );
    }
    // The footer was rewritten, not the rows: the table reads whole, and
    // polars still finds its schema.
    assert_eq!(
        read_table(&out.join("games.parquet")).schema(),
        table.schema()
    );

    // Standard input: the digest of the bytes that came in.
    classify_stdin(&pgn, &dir.join("out-stdin"));
    let manifest = remis_table::writer::Manifest::read(&dir.join("out-stdin/games.parquet"))
        .unwrap()
        .expect("a manifest");
    assert_eq!(
        manifest.inputs[0].sha256.as_deref(),
        Some(sha256_hex(&pgn).as_str())
    );
}
