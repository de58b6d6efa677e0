//! Hostile and broken input (issue 9): every case a bad-input trial found
//! losing games, taking super-linear time or losing tables, reproduced
//! here. The promise under test: every tag section is a row, damage is
//! named, the run carries on, and the previous table survives a failure.

use std::{
    fs::File,
    io::Write,
    path::Path,
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use polars::prelude::*;

use crate::common;
use common::{games, read_table, remis, scratch, stderr, strings as column};

fn run(args: &[&str]) -> Output {
    remis().args(args).stdin(Stdio::null()).output().unwrap()
}

/// Classifies one file; returns the process output and the table.
fn classify_file(dir: &Path, name: &str, bytes: &[u8], extra: &[&str]) -> (Output, DataFrame) {
    let input = dir.join(name);
    std::fs::write(&input, bytes).unwrap();
    let out = dir.join(format!("out-{name}"));
    let mut args = vec![
        "classify",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = run(&args);
    let table = out.join("games.parquet");
    assert!(table.exists(), "no table: {}", stderr(&output));
    (output, read_table(&table))
}

#[test]
fn an_unterminated_comment_loses_no_later_game() {
    let dir = scratch("brace");
    let pgn = games(300).replacen("2. Qh5", "2. Qh5 { a comment that never ends", 7);
    // Only the first replacement matters: make it one stray brace.
    let pgn = {
        let first = pgn.find("{ a comment").unwrap();
        let rest = pgn[first + 1..].replace("{ a comment that never ends", "");
        format!("{}{}", &pgn[..first + 1], rest)
    };
    let (output, df) = classify_file(&dir, "brace.pgn", pgn.as_bytes(), &[]);
    assert_eq!(df.height(), 300, "{}", stderr(&output));
    let events = column(&df, "event");
    assert_eq!(events[299].as_deref(), Some("g299"));
    let errors = column(&df, "error");
    let broken: Vec<_> = errors.iter().flatten().collect();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].contains("unterminated comment"), "{}", broken[0]);
    assert!(
        stderr(&output).contains("300 games read"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn unterminated_variation_and_tag_string_end_at_the_next_game() {
    let dir = scratch("variation");
    let pgn = games(3).replacen("3. Bc4", "3. Bc4 ( 3. Nf3", 1).replacen(
        "[White \"W2\"]",
        "[White \"W2]",
        1,
    );
    let (_, df) = classify_file(&dir, "var.pgn", pgn.as_bytes(), &[]);
    assert_eq!(df.height(), 3);
    let errors = column(&df, "error");
    assert!(
        errors[0]
            .as_deref()
            .unwrap()
            .contains("unterminated variation")
    );
    assert_eq!(errors[1], None);
    assert!(
        errors[2].as_deref().unwrap().contains("malformed tag line"),
        "{errors:?}"
    );
    assert_eq!(column(&df, "ending")[1].as_deref(), Some("checkmate"));
}

#[test]
fn a_game_with_tags_but_no_movetext_is_its_own_row() {
    let dir = scratch("tagsonly");
    let pgn = "[Event \"forfeit\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n".to_string()
        + &games(2);
    let (_, df) = classify_file(&dir, "tags.pgn", pgn.as_bytes(), &[]);
    assert_eq!(df.height(), 3);
    assert_eq!(
        column(&df, "event"),
        [Some("forfeit".into()), Some("g0".into()), Some("g1".into())]
    );
    let plies = df.column("plies").unwrap().u32().unwrap().get(0);
    assert_eq!(plies, Some(0));
}

#[test]
fn chessbase_blank_lines_inside_a_tag_section_stay_one_game() {
    let dir = scratch("chessbase");
    let pgn = "[Event \"AlphaZero vs. Stockfish\"]\n\n[Date \"2017.12.04\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
    let (_, df) = classify_file(&dir, "cb.pgn", pgn.as_bytes(), &[]);
    assert_eq!(df.height(), 1);
    assert_eq!(column(&df, "date")[0].as_deref(), Some("2017.12.04"));
}

#[test]
fn old_mac_line_endings_are_line_breaks() {
    let dir = scratch("cr");
    let pgn = games(3).replace('\n', "\r");
    let (_, df) = classify_file(&dir, "mac.pgn", pgn.as_bytes(), &[]);
    assert_eq!(df.height(), 3);
    assert!(
        column(&df, "ending")
            .iter()
            .all(|e| e.as_deref() == Some("checkmate"))
    );
}

#[test]
fn utf16_with_a_byte_order_mark_is_transcoded() {
    let dir = scratch("utf16");
    let text = games(3).replace("W0", "Sørensen");
    for (name, bytes) in [
        ("le.pgn", {
            let mut b = vec![0xff, 0xfe];
            b.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
            b
        }),
        ("be.pgn", {
            let mut b = vec![0xfe, 0xff];
            b.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
            b
        }),
    ] {
        let (_, df) = classify_file(&dir, name, &bytes, &[]);
        assert_eq!(df.height(), 3, "{name}");
        assert_eq!(column(&df, "white")[0].as_deref(), Some("Sørensen"));
        assert!(
            column(&df, "ending")
                .iter()
                .all(|e| e.as_deref() == Some("checkmate"))
        );
    }
}

#[test]
fn unknown_tokens_make_their_game_invalid_and_are_named() {
    let dir = scratch("tokens");
    let mut pgn = String::new();
    for token in ["Zz9", "e9", "P-K4", "$$", "e4x", "1-", "!!!"] {
        pgn += &format!("[Event \"{token}\"]\n[Result \"*\"]\n\n1. e4 {token} *\n\n");
    }
    let (_, df) = classify_file(&dir, "tokens.pgn", pgn.as_bytes(), &[]);
    assert_eq!(df.height(), 7);
    for (event, (ending, error)) in column(&df, "event")
        .iter()
        .zip(column(&df, "ending").iter().zip(column(&df, "error")))
    {
        let token = event.as_deref().unwrap();
        assert_eq!(ending.as_deref(), Some("invalid"), "{token}");
        let error = error.unwrap();
        assert!(
            error.contains(&format!("unknown token \"{token}\"")),
            "{token}: {error}"
        );
    }
}

#[test]
fn caps_make_invalid_rows_that_name_the_cap_and_reading_resumes() {
    let dir = scratch("caps");
    let mut pgn = games(1);
    // A tag section of 200,000 tags.
    pgn += "[Event \"many tags\"]\n";
    for i in 0..200_000 {
        pgn += &format!("[Tag{i} \"x\"]\n");
    }
    pgn += "\n1. e4 *\n\n";
    // One token of 3 MB, a comment of 3 MB, a game of 3,000 plies.
    pgn += &format!("[Event \"long token\"]\n\n1. {} *\n\n", "a".repeat(3 << 20));
    pgn += &format!(
        "[Event \"long comment\"]\n\n1. e4 {{{}}} *\n\n",
        "c".repeat(3 << 20)
    );
    pgn += "[Event \"long game\"]\n\n";
    pgn += &"Nf3 Nf6 Ng1 Ng8 ".repeat(750);
    pgn += "*\n\n";
    pgn += &games(1).replace("g0", "last");
    let (output, df) = classify_file(
        &dir,
        "caps.pgn",
        pgn.as_bytes(),
        &[
            "--max-game-bytes",
            "2097152",
            "--max-comment-bytes",
            "65536",
            "--max-plies",
            "2000",
        ],
    );
    assert_eq!(df.height(), 6, "{}", stderr(&output));
    let errors = column(&df, "error");
    assert_eq!(errors[0], None);
    assert!(
        errors[1].as_deref().unwrap().contains("--max-header-bytes"),
        "{errors:?}"
    );
    assert!(
        errors[2].as_deref().unwrap().contains("--max-game-bytes"),
        "{errors:?}"
    );
    assert!(
        errors[3].as_deref().unwrap().contains("--max-game-bytes"),
        "{errors:?}"
    );
    assert!(
        errors[4].as_deref().unwrap().contains("--max-plies"),
        "{errors:?}"
    );
    assert_eq!(errors[5], None);
    assert_eq!(column(&df, "event")[5].as_deref(), Some("last"));
    // Within the game cap, the comment and token caps name themselves.
    let pgn = format!(
        "[Event \"c\"]\n\n1. e4 {{{}}} *\n\n[Event \"t\"]\n\n1. {} *\n",
        "c".repeat(100_000),
        "a".repeat(300)
    );
    let (_, df) = classify_file(
        &dir,
        "small.pgn",
        pgn.as_bytes(),
        &["--max-comment-bytes", "65536"],
    );
    let errors = column(&df, "error");
    assert!(
        errors[0]
            .as_deref()
            .unwrap()
            .contains("--max-comment-bytes"),
        "{errors:?}"
    );
    assert!(
        errors[1]
            .as_deref()
            .unwrap()
            .contains("token longer than 255 bytes"),
        "{errors:?}"
    );
}

#[test]
fn a_symlink_to_the_parent_folder_reads_each_file_once() {
    let dir = scratch("symlink");
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("sub")).unwrap();
    std::fs::write(data.join("a.pgn"), games(4)).unwrap();
    std::fs::write(data.join("sub/b.pgn"), games(3)).unwrap();
    std::os::unix::fs::symlink(&data, data.join("sub/loop")).unwrap();
    std::os::unix::fs::symlink(data.join("a.pgn"), data.join("sub/again.pgn")).unwrap();
    let out = dir.join("out");
    let output = run(&[
        "classify",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(read_table(&out.join("games.parquet")).height(), 7);
    assert!(stderr(&output).contains("skipped"), "{}", stderr(&output));
}

#[test]
fn a_fifo_in_a_folder_is_skipped_with_a_warning() {
    let dir = scratch("fifo");
    std::fs::write(dir.join("a.pgn"), games(2)).unwrap();
    let fifo = dir.join("pipe.pgn");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let out = dir.join("out");
    let mut child = remis()
        .args([
            "classify",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("remis blocked on a FIFO in its input folder");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("not a regular file"),
        "{}",
        stderr(&output)
    );
    assert_eq!(read_table(&out.join("games.parquet")).height(), 2);
}

#[test]
fn thousands_of_threads_are_clamped_with_a_warning() {
    let dir = scratch("threads");
    let (output, df) = classify_file(&dir, "t.pgn", games(5).as_bytes(), &["--threads", "5000"]);
    assert_eq!(df.height(), 5);
    assert!(
        stderr(&output).contains("--threads 5000"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn input_that_is_not_pgn_gives_no_games_and_says_so() {
    let dir = scratch("notpgn");
    let random: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("hello.pgn", b"hello world\n".to_vec()),
        ("ls.pgn", std::fs::read("/bin/ls").unwrap()),
        ("random.pgn.zst", zstd::encode_all(&random[..], 1).unwrap()),
        ("table.pgn", b"PAR1\x15\x04\x15\x10\x15\x14".to_vec()),
    ];
    for (name, bytes) in cases {
        let (output, df) = classify_file(&dir, name, &bytes, &[]);
        assert_eq!(df.height(), 0, "{name}: {}", stderr(&output));
        assert_eq!(
            output.status.code(),
            Some(1),
            "{name}: damaged input exits 1"
        );
        let err = stderr(&output);
        assert!(
            err.contains(&format!("{name}: no PGN games")) || err.contains("Parquet"),
            "{name}: {err}"
        );
    }
    // The same input accepted by a pipeline that allows damage.
    let (output, _) = classify_file(&dir, "hello2.pgn", b"hello world\n", &["--allow-damaged"]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_failed_or_killed_run_leaves_the_previous_table_intact() {
    let dir = scratch("crash");
    let out = dir.join("out");
    std::fs::write(dir.join("first.pgn"), games(3)).unwrap();
    let output = run(&[
        "classify",
        dir.join("first.pgn").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let before = std::fs::read(out.join("games.parquet")).unwrap();

    // Killed mid-run: remis waits for more games on standard input.
    let mut child = remis()
        .args(["classify", "-", "--out", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(games(200_000).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    assert_eq!(std::fs::read(out.join("games.parquet")).unwrap(), before);
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.contains(&"games.parquet".to_string()), "{names:?}");

    // An unwritable output is refused before any work, naming the path
    // and giving the system's reason once.
    std::fs::write(dir.join("a-file"), "x").unwrap();
    let bad_out = dir.join("a-file/out");
    let output = run(&[
        "classify",
        dir.join("first.pgn").to_str().unwrap(),
        "--out",
        bad_out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("a-file"), "{err}");
    assert_eq!(err.matches("Not a directory").count(), 1, "{err}");
}

#[test]
fn out_with_a_parquet_name_writes_that_file() {
    let dir = scratch("outfile");
    std::fs::write(dir.join("g.pgn"), games(2)).unwrap();
    let target = dir.join("tables/mine.parquet");
    let output = run(&[
        "classify",
        dir.join("g.pgn").to_str().unwrap(),
        "--out",
        target.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(target.is_file());
    assert_eq!(read_table(&target).height(), 2);
}

#[test]
fn report_side_errors_name_the_file_and_empty_cells_read_as_a_dash() {
    let dir = scratch("reportside");
    // Not Parquet at all.
    std::fs::write(dir.join("fake.parquet"), "hello").unwrap();
    let output = run(&["stats", dir.join("fake.parquet").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("fake.parquet: not a games table"),
        "{}",
        stderr(&output)
    );
    // Parquet, but another schema.
    let mut df = df!("white" => ["a"], "year" => [2000i16]).unwrap();
    ParquetWriter::new(File::create(dir.join("foreign.parquet")).unwrap())
        .finish(&mut df)
        .unwrap();
    let output = run(&["stats", dir.join("foreign.parquet").to_str().unwrap()]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        err.contains("foreign.parquet") && err.contains("columns missing: source, game_no, event"),
        "{err}"
    );
    // An empty table: no NaN anywhere.
    let (_, empty) = classify_file(&dir, "none.pgn", b"\n", &["--allow-damaged"]);
    assert_eq!(empty.height(), 0);
    let table = dir.join("out-none.pgn");
    let output = run(&["stats", table.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(!text.contains("NaN") && text.contains('–'), "{text}");
    assert!(
        stderr(&output).contains("no games matched"),
        "{}",
        stderr(&output)
    );
    let html = dir.join("empty.html");
    let output = run(&[
        "report",
        table.to_str().unwrap(),
        "--out",
        html.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!std::fs::read_to_string(&html).unwrap().contains("NaN"));
    // Invalid filter values are refused, with the accepted ones listed.
    let output = run(&["stats", table.to_str().unwrap(), "--band-width", "0"]);
    assert_eq!(output.status.code(), Some(2));
    let output = run(&["stats", table.to_str().unwrap(), "--variant", "atomic"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("standard, chess960"),
        "{}",
        stderr(&output)
    );
}

/// Unmounts a tmpfs when dropped, so that a failed assertion does not
/// leave it mounted.
struct Unmount(Option<std::path::PathBuf>);

impl Drop for Unmount {
    fn drop(&mut self) {
        if let Some(path) = &self.0 {
            let _ = Command::new("umount").arg(path).status();
        }
    }
}

#[test]
fn a_full_disk_is_named_and_leaves_the_previous_table() {
    // A small filesystem: a 256 KiB tmpfs, which only root may mount.
    // Elsewhere the same run is made under a file-size limit (`ulimit -f`):
    // the write fails with EFBIG instead of ENOSPC, and the promise is the
    // same. Either way the case runs; it is never skipped.
    let mount_point = scratch("fulldisk");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&mount_point)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let guard = Unmount(mounted.then(|| mount_point.to_path_buf()));
    let inputs = scratch("fulldisk-inputs");
    std::fs::write(inputs.join("small.pgn"), games(2)).unwrap();
    std::fs::write(inputs.join("big.pgn"), games(60_000)).unwrap();
    let out = mount_point.join("out");
    let first = run(&[
        "classify",
        inputs.join("small.pgn").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let before = std::fs::read(out.join("games.parquet"));
    let big = inputs.join("big.pgn");
    let second = if mounted {
        run(&[
            "classify",
            big.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    } else {
        // 256 KiB in blocks of 512 bytes.
        Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 512 && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_remis"))
            .args([
                "classify",
                big.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let after = std::fs::read(out.join("games.parquet"));
    let mut leftovers: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    leftovers.sort();
    drop(guard);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    let err = stderr(&second);
    let why = if mounted {
        "No space left on device"
    } else {
        "File too large"
    };
    assert!(err.contains(why) && err.contains("games.parquet"), "{err}");
    assert_eq!(before.unwrap(), after.unwrap());
    // Only the previous table and its summary are left: no temporary file.
    assert_eq!(leftovers.len(), 2, "{leftovers:?}");
    assert_eq!(leftovers[0], "games.parquet");
    assert!(leftovers[1].starts_with("games.summary-"), "{leftovers:?}");
}
