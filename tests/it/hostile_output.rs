//! Hostile input, third round (issue 30): what remis writes, where, and
//! what it prints. Each test reproduces a case that the third trial found
//! breaking a promise of docs/reliability.md.

use std::{
    os::unix::ffi::OsStrExt,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use crate::common;
use common::{games, read_table, remis, scratch, stderr, succeeded};

fn run(args: &[&std::ffi::OsStr]) -> Output {
    remis().args(args).stdin(Stdio::null()).output().unwrap()
}

/// `remis classify INPUT --out OUT`, which must succeed.
fn classify_ok(input: &Path, out: &Path) -> Output {
    succeeded(run(&[
        os("classify"),
        input.as_os_str(),
        os("--out"),
        out.as_os_str(),
    ]))
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// Games with ratings and a date, so that the reading commands use them.
fn rated_games(n: usize, event: &str, opening: &str) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"{event}\"]\n[Date \"2020.01.01\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"1/2-1/2\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2010\"]\n[Opening \"{opening}\"]\n\n1. e4 e5 1/2-1/2\n\n"
            )
        })
        .collect()
}

/// Files in `dir` whose names start with a dot (temporary files).
fn hidden_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().as_bytes().starts_with(b"."))
        .collect()
}

#[test]
fn symlinks_planted_in_the_output_folder_are_never_followed() {
    let dir = scratch("planted");
    let input = dir.join("in.pgn");
    std::fs::write(&input, games(5)).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    // The old temporary names (`.games.parquet.PID.tmp`) for the next
    // thousand process ids, each a link to a file outside --out, and a
    // link at the table's own name.
    let me = std::process::id();
    for pid in me..me + 1000 {
        let victim = outside.join(format!("victim-{pid}"));
        std::fs::write(&victim, b"keep").unwrap();
        std::os::unix::fs::symlink(&victim, out.join(format!(".games.parquet.{pid}.tmp"))).unwrap();
    }
    let table_victim = outside.join("table-victim");
    std::fs::write(&table_victim, b"keep").unwrap();
    std::os::unix::fs::symlink(&table_victim, out.join("games.parquet")).unwrap();

    classify_ok(&input, &out);
    for entry in std::fs::read_dir(&outside).unwrap() {
        let path = entry.unwrap().path();
        assert_eq!(std::fs::read(&path).unwrap(), b"keep", "{}", path.display());
    }
    let table = out.join("games.parquet");
    assert!(!std::fs::symlink_metadata(&table).unwrap().is_symlink());
    assert_eq!(read_table(&table).height(), 5);
}

#[test]
fn a_report_never_replaces_a_table_it_reads() {
    let dir = scratch("report-over-input");
    let input = dir.join("in.pgn");
    std::fs::write(&input, rated_games(4, "e", "o")).unwrap();
    let out = dir.join("out");
    classify_ok(&input, &out);
    let table = out.join("games.parquet");
    let before = std::fs::read(&table).unwrap();
    let link = dir.join("link.html");
    std::os::unix::fs::symlink(&table, &link).unwrap();
    for target in [&table, &link] {
        let output = run(&[
            os("report"),
            out.as_os_str(),
            os("--out"),
            target.as_os_str(),
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("one of the inputs"),
            "{}",
            stderr(&output)
        );
        assert_eq!(std::fs::read(&table).unwrap(), before);
    }
}

#[test]
fn hidden_inputs_and_long_or_odd_names_each_keep_their_own_shard_and_summary() {
    let dir = scratch("names");
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::write(inputs.join("a.pgn"), rated_games(5, "a", "o")).unwrap();
    std::fs::write(inputs.join(".hidden.pgn"), rated_games(8, "h", "o")).unwrap();
    let long = format!("{}.pgn", "x".repeat(240));
    std::fs::write(inputs.join(&long), rated_games(3, "l", "o")).unwrap();
    // Two names that are not UTF-8 and differ in one byte.
    for byte in [0xe9u8, 0xe8] {
        let mut name = b"caf".to_vec();
        name.push(byte);
        name.extend_from_slice(b".pgn");
        std::fs::write(
            inputs.join(std::ffi::OsStr::from_bytes(&name)),
            rated_games(2, "n", "o"),
        )
        .unwrap();
    }
    let out = dir.join("shards");
    let output = run(&[
        os("classify"),
        os("--shard-per-input"),
        inputs.as_os_str(),
        os("--out"),
        out.as_os_str(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let names: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let summaries = names
        .iter()
        .filter(|p| {
            p.file_name()
                .unwrap()
                .as_bytes()
                .windows(9)
                .any(|w| w == b".summary-")
        })
        .count();
    assert_eq!(summaries, 5, "{names:?}");
    for name in &names {
        assert!(name.file_name().unwrap().len() <= 255);
    }
    // Every game counted, from the summaries and from the rows.
    for source in ["summaries", "rows"] {
        let output = succeeded(run(&[
            os("stats"),
            out.as_os_str(),
            os("--source"),
            os(source),
        ]));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("rows read 20,"), "{source}: {text}");
    }
}

#[test]
fn csv_cells_and_terminal_text_from_tags_are_made_harmless() {
    let dir = scratch("injection");
    let input = dir.join("in.pgn");
    std::fs::write(
        &input,
        rated_games(
            30,
            "evil\u{1b}]52;c;aGk=\u{7} \u{1b}[2J \u{9b}31m",
            "=cmd|' /C calc'!A0",
        ),
    )
    .unwrap();
    let out = dir.join("out");
    classify_ok(&input, &out);
    let csv = succeeded(run(&[
        os("stats"),
        out.as_os_str(),
        os("--view"),
        os("openings"),
        os("--format"),
        os("csv"),
    ]));
    let text = String::from_utf8_lossy(&csv.stdout);
    assert!(text.contains("calc"), "{text}");
    for line in text.lines() {
        for cell in line.split(',') {
            let cell = cell.trim_start_matches('"');
            assert!(!cell.starts_with(['=', '+', '@']), "{line}");
        }
    }
    // A complete round robin under a hostile name: scoring names it.
    let players = ["Anna", "Bert", "Carl", "Dora"];
    let mut round_robin = String::new();
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            round_robin.push_str(&format!(
                "[Event \"evil\u{1b}]52;c;aGk=\u{7} \u{1b}[2J \u{9b}31m\"]\n[Date \"2020.01.01\"]\n[White \"{a}\"]\n[Black \"{b}\"]\n[Result \"1/2-1/2\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2010\"]\n\n1. e4 e5 1/2-1/2\n\n"
            ));
        }
    }
    let rr = dir.join("rr.pgn");
    std::fs::write(&rr, round_robin).unwrap();
    let rr_out = dir.join("rr");
    classify_ok(&rr, &rr_out);
    for command in ["scoring", "sofia"] {
        for format in ["table", "json"] {
            let output = run(&[os(command), rr_out.as_os_str(), os("--format"), os(format)]);
            let printed = String::from_utf8_lossy(&output.stdout);
            assert!(
                !printed
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t'),
                "{command} {format}: {printed:?}"
            );
            if command == "scoring" && format == "table" {
                assert!(printed.contains("evil\\u001b]52"), "{printed}");
            }
        }
    }
    // A file name with escapes, in classify's own messages.
    let named = dir.join("x\u{1b}[31mred.pgn");
    std::fs::write(&named, "not pgn at all\n").unwrap();
    let output = run(&[
        os("classify"),
        named.as_os_str(),
        os("--out"),
        dir.join("o2").as_os_str(),
    ]);
    let err = stderr(&output);
    assert!(err.contains("red.pgn"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
}

#[test]
fn a_file_size_limit_is_an_error_that_names_the_file_and_keeps_the_old_table() {
    let dir = scratch("fsize");
    let input = dir.join("in.pgn");
    std::fs::write(&input, games(3000)).unwrap();
    let out = dir.join("out");
    classify_ok(&input, &out);
    let table = out.join("games.parquet");
    let before = std::fs::read(&table).unwrap();
    // 8 blocks of 512 bytes: less than the table needs.
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 8; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_remis"))
        .args([
            os("classify"),
            input.as_os_str(),
            os("--out"),
            out.as_os_str(),
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("games.parquet") && stderr(&output).contains("File too large"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&table).unwrap(), before);
    assert!(hidden_files(&out).is_empty(), "{:?}", hidden_files(&out));

    // The report is written whole or not at all.
    let page = dir.join("report.html");
    succeeded(run(&[
        os("report"),
        out.as_os_str(),
        os("--out"),
        page.as_os_str(),
    ]));
    let previous = std::fs::read(&page).unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_remis"))
        .args([os("report"), out.as_os_str(), os("--out"), page.as_os_str()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("report.html"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&page).unwrap(), previous);
    assert!(hidden_files(&dir).is_empty(), "{:?}", hidden_files(&dir));
}

#[test]
fn special_files_and_loops_in_a_dataset_neither_block_nor_count_twice() {
    let dir = scratch("dataset");
    let input = dir.join("in.pgn");
    std::fs::write(&input, rated_games(6, "e", "o")).unwrap();
    let data = dir.join("data");
    let shard_dir = data.join("a");
    std::fs::create_dir_all(&shard_dir).unwrap();
    succeeded(run(&[
        os("classify"),
        input.as_os_str(),
        os("--out"),
        shard_dir.join("t.parquet").as_os_str(),
    ]));
    assert!(
        Command::new("mkfifo")
            .arg(data.join("fifo.parquet"))
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", data.join("zero.parquet")).unwrap();
    std::os::unix::fs::symlink(&data, shard_dir.join("loop")).unwrap();
    let started = Instant::now();
    let mut child = remis()
        .arg("stats")
        .arg(&data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("stats blocked on a special file");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(text.contains("rows read 6,"), "{text}");
}

#[test]
fn an_input_rewritten_at_the_same_size_and_time_is_not_current() {
    let dir = scratch("skip-current");
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let file = inputs.join("a.pgn");
    std::fs::write(&file, rated_games(4, "e", "o")).unwrap();
    let out = dir.join("shards");
    let classify = || {
        run(&[
            os("classify"),
            os("--shard-per-input"),
            os("--skip-current"),
            inputs.as_os_str(),
            os("--out"),
            out.as_os_str(),
        ])
    };
    succeeded(classify());
    let time = std::fs::metadata(&file).unwrap().modified().unwrap();
    // Same size, other games (a decisive result), time set back.
    let original = rated_games(4, "e", "o");
    let mut text = original.replace("1/2-1/2", "1-0");
    text.push_str(&" ".repeat(original.len() - text.len()));
    assert_eq!(text.len(), original.len());
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&file, &text).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(time)
        .unwrap();
    let output = succeeded(classify());
    assert!(
        !stderr(&output).contains("already current"),
        "{}",
        stderr(&output)
    );
    let table = read_table(&out.join("a.parquet"));
    let results = common::strings(&table, "result");
    assert!(
        results.iter().all(|r| r.as_deref() == Some("1-0")),
        "{results:?}"
    );
}

/// Issue 30, class 7: an Event tag over the tag-line cap (64 KiB) made the
/// game before it invalid, and its own game lost the Event in silence.
#[test]
fn a_tag_over_the_line_cap_stays_in_its_own_game() {
    let dir = scratch("long-tag");
    let game = |event: &str, white: &str| {
        format!(
            "[Event \"{event}\"]\n[White \"{white}\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        )
    };
    for (label, length, kept) in [("70k", 70_000, true), ("300k", 300_000, false)] {
        let long = "x".repeat(length);
        let text = game("first", "a") + &game(&long, "c") + &game("third", "a");
        let input = dir.join(format!("{label}.pgn"));
        std::fs::write(&input, text).unwrap();
        let out = dir.join(label);
        classify_ok(&input, &out);
        let table = read_table(&out.join("games.parquet"));
        assert_eq!(table.height(), 3, "{label}");
        let events = common::strings(&table, "event");
        let endings = common::strings(&table, "ending");
        let errors = common::strings(&table, "error");
        assert_eq!(events[0].as_deref(), Some("first"), "{label}");
        assert_eq!(
            endings[0].as_deref(),
            Some("checkmate"),
            "{label}: {errors:?}"
        );
        assert_eq!(events[2].as_deref(), Some("third"), "{label}");
        if kept {
            // Within the tag section's cap: read whole, in its own game.
            assert_eq!(events[1].as_deref(), Some(long.as_str()), "{label}");
            assert_eq!(endings[1].as_deref(), Some("checkmate"), "{label}");
        } else {
            // Past it: its own game is cut and says which cap it broke.
            assert_eq!(endings[1].as_deref(), Some("invalid"), "{label}");
            assert!(
                errors[1]
                    .as_deref()
                    .is_some_and(|e| e.contains("--max-header-bytes")),
                "{label}: {errors:?}"
            );
        }
    }
}

/// Issue 30, class 6: a PGN truncated while it was read gave exit 0, "0
/// input problems", a torn last game as a clean row, and a manifest with
/// the old size.
#[test]
fn an_input_truncated_while_read_is_damage() {
    let dir = scratch("truncated");
    let input = dir.join("big.pgn");
    std::fs::write(&input, games(200_000)).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut child = remis()
        .arg("classify")
        .arg(&input)
        .args(["--threads", "1", "--no-summary", "--out"])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary table exists once the inputs' stamps are taken.
    let started = Instant::now();
    while hidden_files(&out).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no table begun"
        );
        assert!(child.try_wait().unwrap().is_none(), "classify ended early");
        std::thread::sleep(Duration::from_millis(5));
    }
    let file = std::fs::File::options().write(true).open(&input).unwrap();
    file.set_len(std::fs::metadata(&input).unwrap().len() / 2 + 17)
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("big.pgn") && err.contains("changed while it was read"),
        "{err}"
    );
}

/// The tests' own folders: `make test` left hundreds of MB under the
/// system's temporary folder on every run (16 GB of `remis-*` folders had
/// piled up on the development machine). A passing test's folder goes; a
/// failing test's stays for a look.
#[test]
fn a_passing_test_leaves_no_folder_behind_and_a_failing_one_keeps_its_own() {
    let dir = scratch("passing");
    std::fs::write(dir.join("games.pgn"), games(2)).unwrap();
    let passing = dir.to_path_buf();
    drop(dir);
    assert!(!passing.exists(), "{} left behind", passing.display());

    let failing = std::sync::Mutex::new(None);
    let outcome = std::panic::catch_unwind(|| {
        let dir = scratch("failing");
        *failing.lock().unwrap() = Some(dir.to_path_buf());
        panic!("a failing test");
    });
    assert!(outcome.is_err());
    let failing = failing.into_inner().unwrap().unwrap();
    assert!(failing.is_dir(), "{} removed", failing.display());
    std::fs::remove_dir_all(&failing).unwrap();
}

// Issue 48, class 9: lines forged on the terminal. A file name or a cell
// holding a line feed printed lines of its own ("FORGED…", or a fake
// "remis: 0 input problems"), and notices printed the escape sequences
// of names raw. Every name, path, tag and cell shown on a terminal is
// escaped, line feeds included (docs/reliability.md).

/// A name that would start a line of its own, colour the terminal and
/// return the cursor to the start of the line.
const HOSTILE: &str = "\nFORGED line \u{1b}[31mred\u{9b}1m\r";

/// What `what` printed, on both streams: no line that a value started
/// (none begins with "FORGED"), no escape sequence, no carriage return.
fn assert_no_forged_line(what: &str, output: &Output) {
    for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !bytes.contains(&0x1b) && !text.contains('\u{9b}') && !text.contains('\r'),
            "{what}, {stream}: {text:?}"
        );
        // CSV keeps a line feed in a quoted field (RFC 4180): its records
        // are checked instead.
        if stream == "stdout" && what.ends_with("csv") {
            let records = rfc4180(&text);
            assert!(
                records.iter().all(|r| r.len() == records[0].len()),
                "{what}: {records:?}"
            );
            continue;
        }
        for line in text.lines() {
            assert!(
                !line.trim_start().starts_with("FORGED"),
                "{what}, {stream}: a forged line: {text}"
            );
        }
    }
}

/// `remis ARGS`, checked by [`assert_no_forged_line`]; its output.
fn shown_safely(what: &str, args: &[&std::ffi::OsStr]) -> Output {
    let output = run(args);
    assert_no_forged_line(what, &output);
    output
}

fn out_text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Games between two players under `event` and `opening`, the last one
/// with a result the Laws contradict (White mates, 0-1 recorded), so that
/// the audit names it.
fn hostile_games(n: usize, white: &str, black: &str, event: &str, opening: &str) -> String {
    let mut text = String::new();
    for i in 0..n {
        let (result, moves) = if i + 1 == n {
            ("0-1", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1")
        } else {
            ("1/2-1/2", "1. e4 e5 1/2-1/2")
        };
        text.push_str(&format!(
            "[Event \"{event}\"]\n[Site \"here\"]\n[Date \"2020.01.01\"]\n[UTCDate \"2020.01.01\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2010\"]\n[ECO \"C20\"]\n[Opening \"{opening}\"]\n[TimeControl \"600+0\"]\n\n{moves}\n\n"
        ));
    }
    text
}

/// Every reading command on `table`, each checked.
fn read_commands_show_safely(dir: &Path, table: &Path, label: &str) {
    for view in ["draws", "players", "openings", "audit", "outcomes"] {
        for format in ["table", "csv", "json"] {
            let what = format!("{label}: stats --view {view} --format {format}");
            let output = shown_safely(
                &what,
                &[
                    os("stats"),
                    table.as_os_str(),
                    os("--view"),
                    os(view),
                    os("--format"),
                    os(format),
                ],
            );
            assert!(output.status.success(), "{what}: {}", stderr(&output));
        }
    }
    for command in ["scoring", "sofia"] {
        for format in ["table", "json"] {
            let what = format!("{label}: {command} --format {format}");
            let output = shown_safely(
                &what,
                &[os(command), table.as_os_str(), os("--format"), os(format)],
            );
            assert!(output.status.success(), "{what}: {}", stderr(&output));
        }
    }
    // Notices name the files written.
    let summarized = shown_safely(
        &format!("{label}: summarize"),
        &[os("summarize"), table.as_os_str(), os("--force")],
    );
    assert!(
        stderr(&summarized).contains("rows -> ") && stderr(&summarized).contains("\\u000aFORGED"),
        "{}",
        stderr(&summarized)
    );
    let page = dir.join(format!("report{HOSTILE}.html"));
    let report = shown_safely(
        &format!("{label}: report"),
        &[
            os("report"),
            table.as_os_str(),
            os("--out"),
            page.as_os_str(),
        ],
    );
    assert!(report.status.success(), "{}", stderr(&report));
    assert!(
        stderr(&report).contains("report\\u000aFORGED"),
        "{}",
        stderr(&report)
    );
    // A summary file that cannot be used: a warning that names it.
    for entry in std::fs::read_dir(table).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .as_bytes()
            .windows(9)
            .any(|w| w == b".summary-")
        {
            std::fs::write(&path, b"not a summary").unwrap();
        }
    }
    let warned = shown_safely(
        &format!("{label}: stats, a bad summary"),
        &[os("stats"), table.as_os_str()],
    );
    assert!(
        stderr(&warned).contains("warning") && stderr(&warned).contains("\\u000aFORGED"),
        "{}",
        stderr(&warned)
    );
}

#[test]
fn file_names_and_tags_never_forge_a_line_or_send_an_escape() {
    let dir = scratch("forged-names");
    let input = dir.join(format!("games{HOSTILE}.pgn"));
    let tag = "\u{1b}]52;c;aGk=\u{7} \u{1b}[2J \u{9b}31m";
    std::fs::write(
        &input,
        hostile_games(
            30,
            &format!("Anna{tag}"),
            &format!("Bert{tag}"),
            &format!("Open{tag}"),
            &format!("Italian{tag}"),
        ),
    )
    .unwrap();
    let out = dir.join(format!("out{HOSTILE}"));
    std::fs::create_dir_all(&out).unwrap();
    // A temporary file of a run that died: removed, and said so.
    std::fs::write(out.join(".games.parquet.2147483646.tmp"), b"stale").unwrap();
    let classified = shown_safely(
        "classify",
        &[
            os("classify"),
            input.as_os_str(),
            os("--out"),
            out.as_os_str(),
        ],
    );
    assert!(classified.status.success(), "{}", stderr(&classified));
    let err = stderr(&classified);
    assert!(
        err.contains("removed")
            && err.contains("-> ")
            && err.contains("out\\u000aFORGED line \\u001b[31m"),
        "{err}"
    );
    read_commands_show_safely(&dir, &out, "pgn");

    // explain: the source's name and the tags, as text and as a page.
    let explained = shown_safely(
        "explain",
        &[os("explain"), input.as_os_str(), os("--game"), os("30")],
    );
    assert!(explained.status.success(), "{}", stderr(&explained));
    assert!(
        out_text(&explained).contains("games\\u000aFORGED"),
        "{}",
        out_text(&explained)
    );
    let page = dir.join(format!("explain{HOSTILE}.html"));
    let explained = shown_safely(
        "explain --format html",
        &[
            os("explain"),
            input.as_os_str(),
            os("--game"),
            os("1"),
            os("--format"),
            os("html"),
            os("--out"),
            page.as_os_str(),
        ],
    );
    assert!(explained.status.success(), "{}", stderr(&explained));
    assert!(
        stderr(&explained).contains("explain\\u000aFORGED"),
        "{}",
        stderr(&explained)
    );

    // Damage, errors and warnings name the file.
    let junk = dir.join(format!("junk{HOSTILE}.pgn"));
    std::fs::write(&junk, "not pgn at all\n").unwrap();
    let damaged = shown_safely(
        "classify, damaged input",
        &[
            os("classify"),
            junk.as_os_str(),
            os("--out"),
            dir.join("o-junk").as_os_str(),
        ],
    );
    assert!(
        stderr(&damaged).contains("junk\\u000aFORGED"),
        "{}",
        stderr(&damaged)
    );
    let missing = dir.join(format!("missing{HOSTILE}"));
    let page = dir.join("page.html");
    for command in ["stats", "summarize", "report", "scoring", "sofia"] {
        let failed = shown_safely(
            &format!("{command}, missing table"),
            &[
                os(command),
                missing.as_os_str(),
                os("--out"),
                page.as_os_str(),
            ][..if command == "report" { 4 } else { 2 }],
        );
        assert_eq!(
            failed.status.code(),
            Some(2),
            "{command}: {}",
            stderr(&failed)
        );
        assert!(
            stderr(&failed).contains("missing\\u000aFORGED"),
            "{command}: {}",
            stderr(&failed)
        );
    }
    for (what, args) in [
        (
            "classify, missing input",
            vec![
                os("classify"),
                missing.as_os_str(),
                os("--out"),
                dir.join("o-missing").as_os_str(),
            ],
        ),
        (
            "explain, missing input",
            vec![os("explain"), missing.as_os_str(), os("--game"), os("1")],
        ),
        (
            "explain, an argument too many",
            vec![
                os("explain"),
                input.as_os_str(),
                missing.as_os_str(),
                os("--game"),
                os("1"),
            ],
        ),
        (
            "explain, no such game",
            vec![os("explain"), input.as_os_str(), os("--game"), os("99")],
        ),
    ] {
        let failed = shown_safely(what, &args);
        assert!(!failed.status.success(), "{what}");
        assert!(
            stderr(&failed).contains("\\u000aFORGED"),
            "{what}: {}",
            stderr(&failed)
        );
    }
    // A folder with a file that is skipped, and shards whose names clash.
    let folder = dir.join(format!("folder{HOSTILE}"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(&input, folder.join(format!("a{HOSTILE}.pgn"))).unwrap();
    std::fs::copy(
        out.join("games.parquet"),
        folder.join(format!("t{HOSTILE}.parquet")),
    )
    .unwrap();
    shown_safely(
        "classify, a folder",
        &[
            os("classify"),
            folder.as_os_str(),
            os("--out"),
            dir.join("o-folder").as_os_str(),
        ],
    );
    shown_safely(
        "classify --shard-per-input",
        &[
            os("classify"),
            os("--shard-per-input"),
            folder.as_os_str(),
            input.as_os_str(),
            os("--out"),
            dir.join(format!("shards{HOSTILE}")).as_os_str(),
        ],
    );
}

#[test]
fn parquet_cells_with_line_feeds_never_forge_a_line() {
    let dir = scratch("forged-cells");
    let plain = hostile_games(30, "ANNA", "BERT", "EVENT", "OPENING");
    let mut games = common::pgn_games(&plain);
    for (tags, _) in &mut games {
        for (name, value) in tags.iter_mut() {
            *value = match name.as_str() {
                "White" => "Anna\nFORGED line".into(),
                "Black" => "Bert\r\nFORGED line".into(),
                "Event" => "Open\nFORGED line\u{1b}[31m".into(),
                "Opening" => "Italian\nFORGED line".into(),
                _ => value.clone(),
            };
        }
    }
    let input = dir.join(format!("lichess{HOSTILE}.parquet"));
    common::write_lichess_layout(&input, &games, &[]);
    let out = dir.join(format!("cells{HOSTILE}"));
    let classified = shown_safely(
        "classify parquet",
        &[
            os("classify"),
            input.as_os_str(),
            os("--out"),
            out.as_os_str(),
        ],
    );
    assert!(classified.status.success(), "{}", stderr(&classified));
    assert_eq!(
        common::strings(&read_table(&out.join("games.parquet")), "white")[0].as_deref(),
        Some("Anna\nFORGED line"),
        "the table keeps the cell as it is"
    );
    read_commands_show_safely(&dir, &out, "parquet");
    let explained = shown_safely(
        "explain parquet",
        &[os("explain"), input.as_os_str(), os("--game"), os("30")],
    );
    assert!(explained.status.success(), "{}", stderr(&explained));
    let text = out_text(&explained);
    assert!(
        text.contains("Anna\\u000aFORGED line") && text.contains("Open\\u000aFORGED"),
        "{text}"
    );

    // CSV keeps the line feed inside a quoted field (RFC 4180), JSON
    // escapes it: each a faithful copy for a program.
    let csv = succeeded(run(&[
        os("stats"),
        out.as_os_str(),
        os("--view"),
        os("players"),
        os("--format"),
        os("csv"),
    ]));
    let records = rfc4180(&out_text(&csv));
    let width = records[0].len();
    assert!(records.iter().all(|r| r.len() == width), "{records:?}");
    assert!(
        records
            .iter()
            .flatten()
            .any(|cell| cell.contains("Anna\nFORGED line")),
        "{records:?}"
    );
    let json = succeeded(run(&[
        os("stats"),
        out.as_os_str(),
        os("--view"),
        os("openings"),
        os("--format"),
        os("json"),
    ]));
    assert!(
        out_text(&json).contains("Italian\\nFORGED line"),
        "{}",
        out_text(&json)
    );
    let rows: serde_json::Value = serde_json::from_str(&out_text(&json)).unwrap();
    assert!(rows.to_string().contains("Italian\\nFORGED line"), "{rows}");
}

/// The records of a CSV text, by RFC 4180: fields in double quotes may
/// hold commas, line feeds and doubled quotes.
fn rfc4180(text: &str) -> Vec<Vec<String>> {
    let (mut records, mut record, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted && field.is_empty() && record.is_empty(), "{text}");
    records
}
