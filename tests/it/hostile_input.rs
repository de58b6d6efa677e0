//! Hostile input, second round (issue 19): the cases a second trial found
//! breaking the promises of docs/reliability.md, each reproduced here.
//! (Parquet cells and row groups are in tests/it/parquet_input.rs.)

use std::{
    fs::File,
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use polars::prelude::*;

use crate::common;
use common::{Scratch, games, read_table, remis, scratch, stderr, strings as column};

fn classify(input: &Path, out: &Path, extra: &[&str]) -> Output {
    remis()
        .arg("classify")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(extra)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Classifies `bytes` as one file; the run must succeed.
fn table_of(dir: &Path, name: &str, bytes: &[u8]) -> DataFrame {
    let input = dir.join(name);
    std::fs::write(&input, bytes).unwrap();
    let out = dir.join(format!("out-{name}"));
    let output = classify(&input, &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    read_table(&out.join("games.parquet"))
}

#[test]
fn leading_nul_bytes_or_spaces_without_a_line_break_are_not_a_game() {
    // A download whose first piece is missing is zero-filled: 20 MiB of
    // NUL (more than a game may hold) before the games, on no line of its
    // own. The games are read whole; nothing is "longer than 16 MiB".
    let dir = scratch("leading");
    for (name, fill) in [("nul.pgn", 0u8), ("spaces.pgn", b' '), ("mixed.pgn", 0x0c)] {
        let mut bytes = vec![fill; 20 << 20];
        bytes.extend_from_slice(games(20).as_bytes());
        let table = table_of(&dir, name, &bytes);
        assert_eq!(table.height(), 20, "{name}");
        assert!(
            column(&table, "error").iter().all(Option::is_none),
            "{name}: {:?}",
            column(&table, "error")
        );
        assert_eq!(column(&table, "event")[0].as_deref(), Some("g0"), "{name}");
    }
}

#[test]
fn nul_padding_before_a_tag_line_starts_the_next_game() {
    let dir = scratch("nul-tag");
    let mut text = games(1);
    text.push_str("\0\0\0\0\0\0");
    text.push_str(&games(2)[games(1).len()..]);
    // And NULs at the end of a tag line and before a second game's tags.
    text.push_str("[Event \"last\"]\0\0\n\0\0[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    let table = table_of(&dir, "padded.pgn", text.as_bytes());
    assert_eq!(table.height(), 3);
    assert_eq!(
        column(&table, "event"),
        [Some("g0".into()), Some("g1".into()), Some("last".into())]
    );
    assert!(column(&table, "error").iter().all(Option::is_none));
    assert_eq!(
        column(&table, "ending"),
        [
            Some("checkmate".into()),
            Some("checkmate".into()),
            Some("checkmate".into())
        ]
    );
}

/// A zstd skippable frame (magic 0x184D2A5?, little-endian) with `payload`.
fn skippable(magic_low: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![magic_low, 0x2a, 0x4d, 0x18];
    frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    frame.extend_from_slice(payload);
    frame
}

#[test]
fn zstd_files_that_start_with_a_skippable_frame_are_read() {
    // pzstd writes a skippable frame before each frame; the seekable
    // format ends with one holding its seek table.
    let dir = scratch("pzstd");
    let text = games(300);
    let (a, b) = text.as_bytes().split_at(text.len() / 2);
    let mut bytes = skippable(0x50, &[4, 0, 0, 0]);
    bytes.extend(zstd::encode_all(a, 3).unwrap());
    bytes.extend(skippable(0x50, &[4, 0, 0, 0]));
    bytes.extend(zstd::encode_all(b, 3).unwrap());
    bytes.extend(skippable(0x5e, &[0u8; 17]));
    let table = table_of(&dir, "parallel.pgn.zst", &bytes);
    assert_eq!(table.height(), 300);
    // The real pzstd (Debian's zstd package; `make setup` installs it):
    // missing, the test fails and says so, never skips in silence.
    assert!(
        Command::new("pzstd").arg("--version").output().is_ok(),
        "pzstd is missing: install Debian's zstd package (make setup does)"
    );
    {
        std::fs::write(dir.join("plain.pgn"), &text).unwrap();
        let status = Command::new("pzstd")
            .args(["-q", "-f", "-p", "2"])
            .arg(dir.join("plain.pgn"))
            .arg("-o")
            .arg(dir.join("real.pgn.zst"))
            .status()
            .unwrap();
        assert!(status.success());
        let packed = std::fs::read(dir.join("real.pgn.zst")).unwrap();
        assert_eq!(
            &packed[1..4],
            &[0x2a, 0x4d, 0x18],
            "pzstd starts with a skippable frame"
        );
        assert_eq!(table_of(&dir, "real.pgn.zst", &packed).height(), 300);
    }
}

#[test]
fn a_zip_without_games_says_so_and_fails() {
    let dir = scratch("zips");
    let write_zip = |name: &str, members: &[(&str, &str)]| -> PathBuf {
        let path = dir.join(name);
        let mut zip = ::zip::ZipWriter::new(File::create(&path).unwrap());
        for (member, text) in members {
            zip.start_file(*member, ::zip::write::SimpleFileOptions::default())
                .unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
        zip.finish().unwrap();
        path
    };
    for (zip, members, says) in [
        ("empty.zip", vec![], "an empty zip archive"),
        (
            "readme.zip",
            vec![("README.txt", "no games here"), ("notes.md", "# none")],
            "without a .pgn member (2 other members)",
        ),
    ] {
        let path = write_zip(zip, &members);
        let output = classify(&path, &dir.join(format!("out-{zip}")), &[]);
        assert_eq!(output.status.code(), Some(1), "{zip}: {}", stderr(&output));
        let err = stderr(&output);
        assert!(err.contains(zip) && err.contains(says), "{err}");
        // From standard input too.
        let piped = remis()
            .args(["classify", "-", "--out"])
            .arg(dir.join(format!("piped-{zip}")))
            .stdin(File::open(&path).unwrap())
            .output()
            .unwrap();
        assert_eq!(
            piped.status.code(),
            Some(1),
            "{zip} piped: {}",
            stderr(&piped)
        );
    }
}

#[test]
fn the_output_never_overwrites_an_input() {
    let dir = scratch("overwrite");
    let input = dir.join("in.pgn");
    std::fs::write(&input, games(3)).unwrap();
    let first = classify(&input, &dir.join("in.parquet"), &[]);
    assert!(first.status.success());
    // A table as input and as output: the user's file stays.
    let before = std::fs::read(dir.join("in.parquet")).unwrap();
    let output = classify(&dir.join("in.parquet"), &dir.join("in.parquet"), &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("the output is one of the inputs"));
    assert_eq!(std::fs::read(dir.join("in.parquet")).unwrap(), before);
    // A PGN file as the output of a folder that holds it.
    let pgn_out = classify(&dir, &input, &[]);
    assert_eq!(pgn_out.status.code(), Some(2), "{}", stderr(&pgn_out));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), games(3));
}

#[test]
fn a_rerun_into_the_input_folder_does_not_read_its_own_table() {
    let dir = scratch("rerun");
    std::fs::write(dir.join("games.pgn"), games(5)).unwrap();
    for run in 0..3 {
        let output = classify(&dir, &dir, &[]);
        assert!(output.status.success(), "run {run}: {}", stderr(&output));
        let table = read_table(&dir.join("games.parquet"));
        assert_eq!(table.height(), 5, "run {run}");
        if run > 0 {
            assert!(stderr(&output).contains("a games table written by remis"));
        }
    }
}

/// Sends `signal` to the run once its temporary table exists; returns its
/// output and its folder (the table's is `out` in it).
fn interrupt(signal: &str, name: &str) -> (Output, Scratch) {
    let dir = scratch(name);
    let fifo = dir.join("games.fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = dir.join("out");
    let child = remis()
        .arg("classify")
        .arg(&fifo)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The writer keeps the FIFO open: the run waits for more games.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    writer.write_all(games(50).as_bytes()).unwrap();
    let started = Instant::now();
    let temporary = || {
        std::fs::read_dir(&out)
            .ok()
            .and_then(|mut e| e.find_map(|e| e.ok().map(|e| e.path())))
            .filter(|p| p.to_string_lossy().ends_with(".tmp"))
    };
    while temporary().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    drop(writer);
    (output, dir)
}

#[test]
fn an_interrupted_run_removes_its_temporary_file_and_says_so() {
    for (signal, code, name) in [("-INT", 130, "SIGINT"), ("-TERM", 143, "SIGTERM")] {
        let (output, dir) = interrupt(signal, &format!("signal{code}"));
        let out = dir.join("out");
        assert_eq!(output.status.code(), Some(code), "{}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!("interrupted ({name})")),
            "{}",
            stderr(&output)
        );
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{signal}: left {left:?}");
    }
}

#[test]
fn file_names_that_are_not_utf8_work_on_the_command_line() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("latin1");
    let name = std::ffi::OsStr::from_bytes(b"partie-\xe9t\xe9.pgn");
    let input = dir.join(name);
    std::fs::write(&input, games(4)).unwrap();
    let out = dir.join("out");
    let output = classify(&input, &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(read_table(&out.join("games.parquet")).height(), 4);
    // And as a shard.
    let shards = dir.join("shards");
    let output = classify(&input, &shards, &["--shard-per-input"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let shard = shards.join(std::ffi::OsStr::from_bytes(b"partie-\xe9t\xe9.parquet"));
    assert_eq!(read_table(&shard).height(), 4);
}

#[test]
fn numbers_that_are_not_times_or_ratings_are_null() {
    let dir = scratch("numbers");
    let game = |tc: &str, elo: &str, clock: &str| {
        format!(
            "[Event \"x\"]\n[WhiteElo \"{elo}\"]\n[BlackElo \"1500\"]\n[TimeControl \"{tc}\"]\n[Result \"1-0\"]\n\n\
             1. e4 {{ [%clk {clock}] }} e5 {{ [%clk 0:03:00] }} 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        )
    };
    let text: String = [
        game("NaN", "-1500", "-1:00:00"),
        game("inf+0", "NaN", "NaN"),
        game("-300+0", "1e3", "inf"),
        game("180+2", "1500", "0:02:59"),
    ]
    .concat();
    let table = table_of(&dir, "numbers.pgn", text.as_bytes());
    assert_eq!(
        column(&table, "time_class"),
        [None, None, None, Some("blitz".into())]
    );
    assert_eq!(
        column(&table, "white_elo"),
        [None, None, None, Some("1500".into())]
    );
    assert_eq!(
        column(&table, "black_clock"),
        [
            Some("180.0".into()),
            Some("180.0".into()),
            Some("180.0".into()),
            Some("180.0".into())
        ]
    );
    let white_clock = column(&table, "white_clock");
    assert_eq!(white_clock[..3], [None, None, None]);
    assert_eq!(white_clock[3].as_deref(), Some("179.0"));
}

mod output_paths {
    //! The output path equal to an input, or inside an input folder, in
    //! random layouts: no input is ever changed, and a run that succeeds
    //! read every game of the PGN inputs and nothing of its own output.
    use super::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Out {
        /// One of the inputs itself (a PGN file, or an earlier table).
        Input(usize),
        /// The input folder.
        Folder,
        /// A new folder, or a new `.parquet` file, inside the input folder.
        Inside(bool),
    }

    fn out_strategy() -> impl Strategy<Value = Out> {
        prop_oneof![
            (0usize..8).prop_map(Out::Input),
            Just(Out::Folder),
            any::<bool>().prop_map(Out::Inside),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 12,
            failure_persistence: None,
            rng_seed: proptest::test_runner::RngSeed::Fixed(2026),
            ..ProptestConfig::default()
        })]

        #[test]
        fn no_input_is_ever_overwritten(
            sizes in prop::collection::vec(1usize..6, 1..4),
            with_table in any::<bool>(),
            out in out_strategy(),
            shards in any::<bool>(),
            case in any::<u32>(),
        ) {
            let dir = scratch(&format!("outpath-{case}"));
            let folder = dir.join("in");
            std::fs::create_dir_all(folder.join("sub")).unwrap();
            let mut inputs: Vec<PathBuf> = Vec::new();
            for (i, n) in sizes.iter().enumerate() {
                let path = if i % 2 == 0 { folder.join(format!("g{i}.pgn")) } else { folder.join(format!("sub/g{i}.pgn")) };
                std::fs::write(&path, games(*n)).unwrap();
                inputs.push(path);
            }
            if with_table {
                let first = classify(&inputs[0], &folder.join("earlier.parquet"), &[]);
                prop_assert!(first.status.success());
                inputs.push(folder.join("earlier.parquet"));
            }
            let before: Vec<Vec<u8>> = inputs.iter().map(|p| std::fs::read(p).unwrap()).collect();
            let out_path = match &out {
                Out::Input(i) => inputs[i % inputs.len()].clone(),
                Out::Folder => folder.clone(),
                Out::Inside(true) => folder.join("out.parquet"),
                Out::Inside(false) => folder.join("sub/out"),
            };
            let extra: &[&str] = if shards { &["--shard-per-input"] } else { &[] };
            let output = classify(&folder, &out_path, extra);
            let code = output.status.code();
            prop_assert!(code == Some(0) || code == Some(2), "{:?}: {}", code, stderr(&output));
            for (path, bytes) in inputs.iter().zip(&before) {
                // An earlier table of remis is not an input (it is never
                // read); replacing it as the output is a rerun.
                if *path == out_path && path.extension().is_some_and(|e| e == "parquet") {
                    continue;
                }
                prop_assert_eq!(&std::fs::read(path).unwrap(), bytes, "{} changed", path.display());
            }
            if code == Some(0) && !shards {
                let table = if out_path.extension().is_some_and(|e| e == "parquet") {
                    out_path.clone()
                } else {
                    out_path.join("games.parquet")
                };
                let games: usize = sizes.iter().sum();
                prop_assert_eq!(read_table(&table).height(), games, "{}", stderr(&output));
            }
        }
    }
}

// Issue 48: zip members named twice, streaming zippers, explain's --source.

/// A zip archive written by hand, as a streaming zipper writes one: each
/// member deflated, and with `descriptors` its sizes and CRC only in a data
/// descriptor after the data (flag bit 3, zeros in the local header), as
/// `zip -` does on a pipe. Member names may repeat (the zip crate's writer
/// refuses that; other zippers do not).
fn raw_zip(members: &[(&str, &[u8])], descriptors: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let mut deflater =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        deflater.write_all(data).unwrap();
        let packed = deflater.finish().unwrap();
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let (crc, csize, usize) = (crc.sum(), packed.len() as u32, data.len() as u32);
        let flags: u16 = if descriptors { 8 } else { 0 };
        let offset = out.len() as u32;
        let (lcrc, lcsize, lusize) = if descriptors {
            (0, 0, 0)
        } else {
            (crc, csize, usize)
        };
        out.extend(0x0403_4b50u32.to_le_bytes());
        out.extend(20u16.to_le_bytes());
        out.extend(flags.to_le_bytes());
        out.extend(8u16.to_le_bytes()); // deflate
        out.extend([0u8; 4]); // time, date
        out.extend(lcrc.to_le_bytes());
        out.extend(lcsize.to_le_bytes());
        out.extend(lusize.to_le_bytes());
        out.extend((name.len() as u16).to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out.extend(name.as_bytes());
        out.extend(&packed);
        if descriptors {
            out.extend(0x0807_4b50u32.to_le_bytes());
            out.extend(crc.to_le_bytes());
            out.extend(csize.to_le_bytes());
            out.extend(usize.to_le_bytes());
        }
        central.extend(0x0201_4b50u32.to_le_bytes());
        central.extend(20u16.to_le_bytes());
        central.extend(20u16.to_le_bytes());
        central.extend(flags.to_le_bytes());
        central.extend(8u16.to_le_bytes());
        central.extend([0u8; 4]);
        central.extend(crc.to_le_bytes());
        central.extend(csize.to_le_bytes());
        central.extend(usize.to_le_bytes());
        central.extend((name.len() as u16).to_le_bytes());
        central.extend([0u8; 12]); // extra, comment, disk, attributes
        central.extend(offset.to_le_bytes());
        central.extend(name.as_bytes());
    }
    let start = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((members.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// `n` games whose events are `prefix0`, `prefix1`, …
fn named_games(prefix: &str, n: usize) -> String {
    games(n).replace("[Event \"g", &format!("[Event \"{prefix}"))
}

#[test]
fn zip_members_of_the_same_name_are_all_read_each_its_own_source() {
    let dir = scratch("zip-duplicates");
    let (first, middle, second) = (
        named_games("first", 3),
        named_games("mid", 2),
        named_games("second", 4),
    );
    for descriptors in [false, true] {
        let bytes = raw_zip(
            &[
                ("a.pgn", first.as_bytes()),
                ("b.pgn", middle.as_bytes()),
                ("a.pgn", second.as_bytes()),
            ],
            descriptors,
        );
        let name = format!("dup-{descriptors}.zip");
        let table = table_of(&dir, &name, &bytes);
        assert_eq!(table.height(), 9, "descriptors {descriptors}");
        let events: Vec<_> = column(&table, "event").into_iter().flatten().collect();
        assert_eq!(
            events,
            [
                "first0", "first1", "first2", "mid0", "mid1", "second0", "second1", "second2",
                "second3"
            ]
        );
        let mut sources: Vec<_> = column(&table, "source").into_iter().flatten().collect();
        sources.dedup();
        assert_eq!(sources.len(), 3, "{sources:?}");
        assert!(sources[0].ends_with("!a.pgn"), "{sources:?}");
        assert!(sources[2].ends_with("!a.pgn#3"), "{sources:?}");
    }
}

#[test]
fn a_zip_from_a_streaming_zipper_is_read_on_standard_input() {
    let dir = scratch("zip-stdin");
    let bytes = raw_zip(
        &[
            ("one.pgn", named_games("one", 3).as_bytes()),
            ("two.pgn", named_games("two", 2).as_bytes()),
        ],
        true,
    );
    let out = dir.join("out");
    let mut child = remis()
        .args(["classify", "-", "--out"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let table = read_table(&out.join("games.parquet"));
    let events: Vec<_> = column(&table, "event").into_iter().flatten().collect();
    assert_eq!(events, ["one0", "one1", "one2", "two0", "two1"]);
    assert_eq!(column(&table, "source")[4].as_deref(), Some("-!two.pgn"));
}

fn explain(archive: &Path, source: &str, game: u64) -> Output {
    remis()
        .arg("explain")
        .arg(archive)
        .args([
            "--source",
            source,
            "--game",
            &game.to_string(),
            "--format",
            "json",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn explain_names_a_member_exactly_or_unambiguously_and_refuses_an_ambiguous_name() {
    let dir = scratch("explain-source");
    let archive = dir.join("twic.zip");
    std::fs::write(
        &archive,
        raw_zip(
            &[
                ("ba.pgn", named_games("ba", 2).as_bytes()),
                ("a.pgn", named_games("a", 2).as_bytes()),
                ("x/c.pgn", named_games("xc", 1).as_bytes()),
                ("y/c.pgn", named_games("yc", 1).as_bytes()),
                ("a.pgn", named_games("again", 2).as_bytes()),
            ],
            false,
        ),
    )
    .unwrap();
    let event = |output: &Output| -> String {
        assert!(output.status.success(), "{}", stderr(output));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        format!(
            "{} {}",
            json["source"].as_str().unwrap(),
            json["event"].as_str().unwrap_or("?")
        )
    };
    let name = archive.display().to_string();
    // A member's name, not the end of another's.
    assert_eq!(
        event(&explain(&archive, "a.pgn", 2)),
        format!("{name}!a.pgn a1")
    );
    assert_eq!(
        event(&explain(&archive, "ba.pgn", 2)),
        format!("{name}!ba.pgn ba1")
    );
    // The table's own source, whole, and a repeated member by its number.
    assert_eq!(
        event(&explain(&archive, &format!("{name}!a.pgn#5"), 2)),
        format!("{name}!a.pgn#5 again1")
    );
    assert_eq!(
        event(&explain(&archive, "a.pgn#5", 2)),
        format!("{name}!a.pgn#5 again1")
    );
    assert_eq!(
        event(&explain(&archive, "x/c.pgn", 1)),
        format!("{name}!x/c.pgn xc0")
    );
    // Two members end so: refused, naming both.
    let output = explain(&archive, "c.pgn", 1);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("x/c.pgn") && message.contains("y/c.pgn"),
        "{message}"
    );
    // No member of that name.
    let output = explain(&archive, "b.pgn", 1);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("ba.pgn"), "{}", stderr(&output));
}
