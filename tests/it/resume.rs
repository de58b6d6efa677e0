//! `classify --resume` (issue 34): a run killed at any point (SIGKILL: no
//! chance to tidy up) and started again with `--resume` replays only the
//! games after its last checkpoint, and ends with the table and summary
//! of a run never interrupted; a checkpoint of another run is refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use remis_report::analysis::summary;

use crate::common;
use common::{read_table, remis, scratch, stderr, succeeded};
use remis_report::analysis::Settings;

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/lichess-sample.pgn.zst")
}

/// `classify` of `input` in small chunks, row groups and parts, so that
/// the sample makes many checkpoints.
fn classify(input: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut command = remis();
    command
        .args([
            "classify",
            "--threads",
            "1",
            "--chunk-bytes",
            "65536",
            "--row-group-rows",
            "300",
            "--part-rows",
            "600",
        ])
        .args(extra)
        .arg("--out")
        .arg(out)
        .arg(input);
    command
}

/// Parts named in a checkpoint, 0 when there is none yet.
fn parts_committed(folder: &Path) -> usize {
    std::fs::read_to_string(folder.join("checkpoint.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|json| json["parts"].as_array().map(Vec::len))
        .unwrap_or(0)
}

/// The files in `dir` and below, as paths relative to it.
fn files_below(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// Kills the run once its checkpoint names `parts` parts, and `delay`
/// later; returns whether it was still running when killed.
fn kill_after(mut command: Command, folder: &Path, parts: usize, delay: Duration) -> bool {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    while parts_committed(folder) < parts && Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(delay);
    let running = child.try_wait().unwrap().is_none();
    // SIGKILL, then reaped: the process is gone, as after a power loss.
    let _ = child.kill();
    child.wait().unwrap();
    running
}

/// The rows of each row group of a table.
fn group_rows(table: &Path) -> Vec<usize> {
    use polars::prelude::SerReader;
    let mut reader = polars::prelude::ParquetReader::new(std::fs::File::open(table).unwrap());
    let metadata = reader.get_metadata().unwrap();
    metadata.row_groups.iter().map(|g| g.num_rows()).collect()
}

fn assert_same_run(table: &Path, want: &polars::prelude::DataFrame, what: &str) {
    let got = read_table(table);
    assert!(
        got.equals_missing(want),
        "{what}: the table differs from the uninterrupted run's ({} rows against {})",
        got.height(),
        want.height()
    );
}

#[test]
fn a_run_killed_anywhere_resumes_to_the_uninterrupted_table() {
    let dir = scratch("killed");
    let input = sample();
    let settings = Settings::default();
    let config = settings.config();
    // Never interrupted, with checkpoints and without.
    let plain = dir.join("plain");
    succeeded(classify(&input, &plain, &[]).output().unwrap());
    let want = read_table(&plain.join("games.parquet"));
    let want_summary = summary::read(&plain.join("games.parquet"), &config).unwrap();
    assert_eq!(want.height(), 3820);
    let whole = dir.join("whole");
    succeeded(classify(&input, &whole, &["--resume"]).output().unwrap());
    assert_same_run(&whole.join("games.parquet"), &want, "--resume, not killed");
    // The parts' row groups, copied as they are: the uninterrupted run's.
    let groups = group_rows(&plain.join("games.parquet"));
    assert!(groups.len() >= 10, "{groups:?}");
    assert_eq!(group_rows(&whole.join("games.parquet")), groups);
    assert!(summary::read(&whole.join("games.parquet"), &config).unwrap() == want_summary);
    assert!(
        !whole.join("games.parquet.resume").exists(),
        "the parts outlive the table: {:?}",
        files_below(&whole)
    );

    // Killed after 1, 3, 5 and 6 parts (the sample makes about 7), at
    // once or up to 60 ms later, then resumed.
    let mut resumed = 0;
    for (i, (parts, delay_ms)) in [(1, 0), (3, 37), (5, 11), (6, 60)].into_iter().enumerate() {
        let out = dir.join(format!("killed-{i}"));
        let folder = out.join("games.parquet.resume");
        let killed = kill_after(
            classify(&input, &out, &["--resume"]),
            &folder,
            parts,
            Duration::from_millis(delay_ms),
        );
        let committed = parts_committed(&folder);
        let output = succeeded(classify(&input, &out, &["--resume"]).output().unwrap());
        let what = format!("killed after {parts} parts and {delay_ms} ms ({committed} committed)");
        if killed && committed > 0 {
            resumed += 1;
            assert!(
                stderr(&output).contains("resumed after the"),
                "{what}: {}",
                stderr(&output)
            );
        }
        assert_same_run(&out.join("games.parquet"), &want, &what);
        assert_eq!(group_rows(&out.join("games.parquet")), groups, "{what}");
        assert!(
            summary::read(&out.join("games.parquet"), &config).unwrap() == want_summary,
            "{what}: the summary differs"
        );
        // Nothing left behind: no parts, no temporary files.
        let left = files_below(&out);
        assert!(
            left.len() == 2
                && left
                    .iter()
                    .all(|f| !f.contains(".resume") && !f.ends_with(".tmp")),
            "{what}: {left:?}"
        );
    }
    assert!(resumed >= 3, "only {resumed} runs were killed mid-way");
}

#[test]
fn duplicates_found_before_the_stop_are_found_after_it() {
    let dir = scratch("dedup");
    // The sample twice: every game of the second copy is a duplicate of
    // one in the first, across the checkpoints.
    let input = dir.join("twice.pgn");
    let text = zstd::decode_all(std::fs::read(sample()).unwrap().as_slice()).unwrap();
    std::fs::write(&input, [text.as_slice(), b"\n\n", text.as_slice()].concat()).unwrap();
    let plain = dir.join("plain");
    succeeded(classify(&input, &plain, &["--dedup"]).output().unwrap());
    let want = read_table(&plain.join("games.parquet"));
    assert_eq!(want.height(), 7640);
    let out = dir.join("resumed");
    let killed = kill_after(
        classify(&input, &out, &["--dedup", "--resume"]),
        &out.join("games.parquet.resume"),
        8,
        Duration::ZERO,
    );
    assert!(killed, "the run ended before its 8th part");
    let output = succeeded(
        classify(&input, &out, &["--dedup", "--resume"])
            .output()
            .unwrap(),
    );
    assert!(stderr(&output).contains("resumed after the"));
    assert!(stderr(&output).contains("are later copies"));
    assert_same_run(&out.join("games.parquet"), &want, "--dedup");
}

#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let dir = scratch("other");
    let input = dir.join("sample.pgn.zst");
    std::fs::copy(sample(), &input).unwrap();
    let out = dir.join("out");
    let folder = out.join("games.parquet.resume");
    assert!(kill_after(
        classify(&input, &out, &["--resume"]),
        &folder,
        2,
        Duration::ZERO
    ));
    let before = files_below(&out);
    // Other options that shape the rows.
    let output = classify(&input, &out, &["--resume", "--search-nodes", "1000"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("the checkpoint is of another run"),
        "{}",
        stderr(&output)
    );
    // The input changed since.
    let mut changed = std::fs::read(&input).unwrap();
    changed.extend_from_slice(b"\n");
    std::fs::write(&input, changed).unwrap();
    let output = classify(&input, &out, &["--resume"]).output().unwrap();
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("is not the file it read"),
        "{}",
        stderr(&output)
    );
    // Refused runs wrote nothing.
    assert_eq!(files_below(&out), before);
    // Standard input cannot be checked to be the same.
    let output = remis()
        .args(["classify", "--resume", "--out"])
        .arg(dir.join("stdin"))
        .arg("-")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(stderr(&output).contains("standard input cannot be resumed"));
}

#[test]
fn the_checkpoint_folder_is_never_followed_through_a_symlink() {
    let dir = scratch("symlink");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("games.parquet.resume")).unwrap();
    let output = classify(&sample(), &out, &["--resume"]).output().unwrap();
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("not a folder of checkpoints"),
        "{}",
        stderr(&output)
    );
    assert!(files_below(&elsewhere).is_empty());
    assert!(!out.join("games.parquet").exists());
}

#[test]
fn two_runs_never_write_the_same_checkpoints() {
    let dir = scratch("busy");
    let out = dir.join("out");
    let folder = out.join("games.parquet.resume");
    let mut first = classify(&sample(), &out, &["--resume"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    while parts_committed(&folder) < 1 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    // Stopped (SIGSTOP), the first run holds its checkpoints but writes
    // nothing: the second must not start on them.
    let stop = |signal: &str| {
        let status = Command::new("kill")
            .args([signal, &first.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    };
    stop("-STOP");
    let second = classify(&sample(), &out, &["--resume"]).output().unwrap();
    stop("-CONT");
    let _ = first.kill();
    first.wait().unwrap();
    assert!(!second.status.success(), "{}", stderr(&second));
    assert!(
        stderr(&second).contains("another run is writing these checkpoints"),
        "{}",
        stderr(&second)
    );
    // Once the first is gone, its checkpoint is free to resume.
    let output = succeeded(classify(&sample(), &out, &["--resume"]).output().unwrap());
    assert!(
        stderr(&output).contains("3820 games read"),
        "{}",
        stderr(&output)
    );
}
