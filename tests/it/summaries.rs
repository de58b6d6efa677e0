//! Summaries that merge (issue 17): a dataset's report, `stats`, `sofia`
//! and `scoring` are made from small per-table summary files, and equal
//! those made from the rows. The sample's games are classified once as one
//! table and once as shards of a dataset; every output must agree, and a
//! summary file that cannot be trusted is refused with its path named.

use std::io::Read;
use std::path::{Path, PathBuf};

use polars::prelude::SerReader;
use remis_report::analysis::{self, Merge, Settings, Summary, summary};

use crate::common;
use common::{Scratch, remis, scratch, succeeded};

/// The sample's PGN text, cut into `parts` files of whole games in order.
fn sample_in_parts(dir: &Path, parts: usize) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let packed = std::fs::read(root.join("data/lichess-sample.pgn.zst")).unwrap();
    let text = String::from_utf8(zstd::decode_all(packed.as_slice()).unwrap()).unwrap();
    let games: Vec<&str> = text
        .split("\n\n[Event ")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert!(games.len() > 3000, "{} games", games.len());
    let per_part = games.len().div_ceil(parts);
    games
        .chunks(per_part)
        .enumerate()
        .map(|(i, chunk)| {
            let mut out = String::new();
            for (k, game) in chunk.iter().enumerate() {
                if i > 0 || k > 0 {
                    out.push_str("[Event ");
                }
                out.push_str(game.trim_end());
                out.push_str("\n\n");
            }
            let path = dir.join(format!("part-{i}.pgn"));
            std::fs::write(&path, out).unwrap();
            path
        })
        .collect()
}

/// The sample as one table and as a dataset of `parts` shards, each with
/// the summary `classify` writes.
fn one_and_sharded(name: &str, parts: usize) -> (Scratch, PathBuf, PathBuf) {
    let dir = scratch(name);
    let inputs = dir.join("pgn");
    std::fs::create_dir_all(&inputs).unwrap();
    sample_in_parts(&inputs, parts);
    let one = dir.join("one");
    let shards = dir.join("shards");
    succeeded(
        remis()
            .args(["classify", "--out"])
            .arg(&one)
            .arg(&inputs)
            .output()
            .unwrap(),
    );
    succeeded(
        remis()
            .args(["classify", "--shard-per-input", "--out"])
            .arg(&shards)
            .arg(&inputs)
            .output()
            .unwrap(),
    );
    (dir, one, shards)
}

fn report(tables: &Path, out: &Path, extra: &[&str]) -> (String, String) {
    let output = succeeded(
        remis()
            .arg("report")
            .arg(tables)
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap(),
    );
    (
        std::fs::read_to_string(out).unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The page without its provenance section (the command, the time, the
/// input tables and the line that says how counts were read) and its
/// citation (which carries the time).
fn without_provenance(page: &str) -> String {
    let mut out = page.to_string();
    for id in ["provenance", "cite"] {
        let start = out.find(&format!("<section id=\"{id}\">")).unwrap();
        let end = out[start..].find("</section>").unwrap() + start + "</section>".len();
        out.replace_range(start..end, "");
    }
    out
}

fn counts_line(page: &str) -> &str {
    let at = page.find("id=\"counts-from\">").unwrap();
    let rest = &page[at..];
    &rest[..rest.find("</p>").unwrap()]
}

#[test]
fn the_report_from_shard_summaries_equals_the_report_from_rows() {
    let (dir, one, shards) = one_and_sharded("report", 4);
    let shard_files: Vec<_> = std::fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        shard_files
            .iter()
            .filter(|n| n.ends_with(".parquet"))
            .count(),
        4
    );
    assert_eq!(
        shard_files
            .iter()
            .filter(|n| n.contains(".summary-"))
            .count(),
        4,
        "{shard_files:?}"
    );

    let (rows, _) = report(&one, &dir.join("rows.html"), &["--source", "rows"]);
    let (from_one, _) = report(&one, &dir.join("one.html"), &[]);
    let (from_shards, _) = report(
        &shards,
        &dir.join("shards.html"),
        &["--source", "summaries"],
    );
    let (shard_rows, _) = report(&shards, &dir.join("shard-rows.html"), &["--source", "rows"]);
    assert!(counts_line(&rows).contains("from the rows of 1 table"));
    assert!(counts_line(&from_one).contains("from the summary files of 1 table"));
    assert!(counts_line(&from_shards).contains("from the summary files of 4 tables"));
    assert!(counts_line(&shard_rows).contains("from the rows of 4 tables"));
    // Byte for byte but for the provenance lines.
    assert!(rows.len() > 10_000, "{} bytes", rows.len());
    assert_eq!(without_provenance(&rows), without_provenance(&from_one));
    assert_eq!(without_provenance(&rows), without_provenance(&from_shards));
    assert_eq!(without_provenance(&rows), without_provenance(&shard_rows));
    // One table against itself: only the counts line differs.
    assert_ne!(rows, from_one);

    // With filters the default summaries do not hold, the rows are read.
    let filtered = ["--years", "2020-2022", "--time-class", "blitz"];
    let (a, _) = report(&one, &dir.join("f1.html"), &filtered);
    let (b, _) = report(&shards, &dir.join("f2.html"), &filtered);
    assert!(counts_line(&b).contains("from the rows of 4 tables"));
    assert_eq!(without_provenance(&a), without_provenance(&b));
    // remis summarize writes them; then no rows are read.
    let mut summarize = remis();
    summarize.arg("summarize").arg(&shards).args(filtered);
    succeeded(summarize.output().unwrap());
    let mut args = filtered.to_vec();
    args.extend(["--source", "summaries"]);
    let (c, _) = report(&shards, &dir.join("f3.html"), &args);
    assert_eq!(without_provenance(&a), without_provenance(&c));
}

#[test]
fn merged_summaries_equal_the_summary_of_the_union() {
    let (_dir, one, shards) = one_and_sharded("merge", 3);
    let settings = Settings::default();
    let config = settings.config();
    let union = analysis::summarize_rows(&one.join("games.parquet"), &config).unwrap();
    let mut merged = Summary::default();
    for table in analysis::table::table_paths(&[shards]).unwrap() {
        let part = summary::read(&table, &config).unwrap();
        assert_eq!(part, analysis::summarize_rows(&table, &config).unwrap());
        merged.absorb(part);
    }
    assert_eq!(merged.rows(), 3820);
    assert!(!union.cube.is_empty() && !union.audit.mismatches.is_empty());
    assert_eq!(merged, union);
}

#[test]
fn every_reading_command_agrees_on_summaries_and_rows() {
    let (_dir, one, shards) = one_and_sharded("commands", 4);
    let run = |args: &[&str], table: &Path, source: &str| -> String {
        let output = succeeded(
            remis()
                .args(args)
                .arg(table)
                .args(["--source", source])
                .output()
                .unwrap(),
        );
        String::from_utf8(output.stdout).unwrap()
    };
    for view in [
        "draws",
        "outcomes",
        "gap",
        "openings",
        "time-classes",
        "clocks",
        "audit",
    ] {
        let args = ["stats", "--format", "json", "--view", view];
        let rows = run(&args, &one, "rows");
        assert_eq!(
            rows,
            run(&args, &shards, "summaries"),
            "stats --view {view}"
        );
        assert!(rows.len() > 20, "{view}: {rows}");
    }
    for args in [
        &["scoring", "--format", "json"][..],
        &["sofia", "--format", "json"][..],
    ] {
        assert_eq!(
            run(args, &one, "rows"),
            run(args, &shards, "summaries"),
            "{args:?}"
        );
    }
}

#[test]
fn a_summary_that_cannot_be_trusted_is_refused_by_name() {
    let (dir, _one, shards) = one_and_sharded("refused", 2);
    let summaries: Vec<PathBuf> = std::fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".summary-"))
        .collect();
    assert_eq!(summaries.len(), 2);
    let (truth, _) = report(&shards, &dir.join("truth.html"), &["--source", "rows"]);
    let truth = without_provenance(&truth);

    // Corrupt: not zstd at all.
    std::fs::write(&summaries[0], b"this is not a summary").unwrap();
    let (page, stderr) = report(&shards, &dir.join("corrupt.html"), &[]);
    let name = summaries[0].display().to_string();
    assert!(
        stderr.contains(&name) && stderr.contains("not a readable remis summary"),
        "{stderr}"
    );
    assert!(
        stderr.contains("reading the table's rows instead"),
        "{stderr}"
    );
    assert_eq!(without_provenance(&page), truth);
    assert!(counts_line(&page).contains("summary files of 1 and the rows of 1 of 2"));
    let strict = remis()
        .arg("report")
        .arg(&shards)
        .args(["--source", "summaries", "--out"])
        .arg(dir.join("strict.html"))
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&strict.stderr).contains(&name));

    // Foreign: a valid summary of other settings under this name.
    let other = zstd::encode_all(
        serde_json::json!({"format": "remis-summary", "version": 999, "remis": "9",
                           "config": "other", "table": {}, "summary": {}})
        .to_string()
        .as_bytes(),
        3,
    )
    .unwrap();
    std::fs::write(&summaries[0], other).unwrap();
    let (page, stderr) = report(&shards, &dir.join("foreign.html"), &[]);
    assert!(
        stderr.contains(&name) && stderr.contains("other settings"),
        "{stderr}"
    );
    assert_eq!(without_provenance(&page), truth);

    // The same table written again (a copy, a touch): its content is
    // the same, and so is its footer, so its summary still holds.
    succeeded(remis().arg("summarize").arg(&shards).output().unwrap());
    let tables: Vec<PathBuf> = summaries
        .iter()
        .map(|s| {
            let stem = s
                .to_string_lossy()
                .split(".summary-")
                .next()
                .unwrap()
                .to_string();
            PathBuf::from(format!("{stem}.parquet"))
        })
        .collect();
    let bytes = std::fs::read(&tables[1]).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&tables[1], &bytes).unwrap();
    let (page, stderr) = report(&shards, &dir.join("same.html"), &[]);
    assert!(!stderr.contains("warning"), "{stderr}");
    assert_eq!(without_provenance(&page), truth);

    // Stale: another table put in its place, its time set back to the
    // old one's (the summary was trusted by size and time before).
    let old_time = std::fs::metadata(&tables[1]).unwrap().modified().unwrap();
    let other = std::fs::read(&tables[0]).unwrap();
    std::fs::write(&tables[1], &other).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&tables[1])
        .unwrap()
        .set_modified(old_time)
        .unwrap();
    let (_, stderr) = report(&shards, &dir.join("stale.html"), &[]);
    assert!(
        stderr.contains(&summaries[1].display().to_string()) && stderr.contains("changed"),
        "{stderr}"
    );
    std::fs::write(&tables[1], &bytes).unwrap();
    let (page, _) = report(&shards, &dir.join("restored.html"), &[]);
    assert_eq!(without_provenance(&page), truth);
}

/// Issue 30, class 3: summaries that would wrap a count, unpack to
/// gigabytes, block or never end are refused by name, and the rows read.
#[test]
fn hostile_summaries_are_refused_not_followed() {
    let (dir, _one, shards) = one_and_sharded("hostile-summaries", 2);
    let summaries: Vec<PathBuf> = std::fs::read_dir(&shards)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".summary-"))
        .collect();
    let (truth, _) = report(&shards, &dir.join("truth.html"), &["--source", "rows"]);
    let truth = without_provenance(&truth);
    let original = std::fs::read(&summaries[0]).unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&zstd::decode_all(original.as_slice()).unwrap()).unwrap();
    let pack = |v: &serde_json::Value| zstd::encode_all(v.to_string().as_bytes(), 3).unwrap();
    let refused = |label: &str, why: &str| {
        let (page, stderr) = report(&shards, &dir.join(format!("{label}.html")), &[]);
        assert!(
            stderr.contains(&summaries[0].display().to_string()) && stderr.contains(why),
            "{label}: {stderr}"
        );
        assert_eq!(without_provenance(&page), truth, "{label}");
    };

    // A count near 2^64: 200 games would have read as 50 once added.
    let mut wrapped = json.clone();
    let coverage = wrapped["summary"]["coverage"].as_object_mut().unwrap();
    let used = coverage["used"].as_u64().unwrap();
    coverage.insert("used".into(), serde_json::json!(u64::MAX - 100));
    std::fs::write(&summaries[0], pack(&wrapped)).unwrap();
    refused("wrapped", "not a readable remis summary");

    // Counts that do not add up to the table's rows.
    let mut edited = json.clone();
    let coverage = edited["summary"]["coverage"].as_object_mut().unwrap();
    coverage.insert("used".into(), serde_json::json!(used + 1000));
    std::fs::write(&summaries[0], pack(&edited)).unwrap();
    refused("edited", "not a readable remis summary");

    // A small file that unpacks to 600 MiB.
    let bomb = zstd::encode_all(std::io::repeat(b' ').take(600 << 20), 19).unwrap();
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    std::fs::write(&summaries[0], &bomb).unwrap();
    refused("bomb", "unpacks to more than");

    // Within that cap, but far more than a table of a few hundred rows can
    // justify: a valid summary padded with 200 MiB of white space inside
    // it (it would be parsed whole, peaking at gigabytes).
    let mut padded = json.to_string().into_bytes();
    let close = padded.iter().rposition(|&b| b == b'}').unwrap();
    padded.splice(close..close, std::iter::repeat_n(b' ', 200 << 20));
    let padded = zstd::encode_all(padded.as_slice(), 19).unwrap();
    assert!(padded.len() < 1 << 20, "{}", padded.len());
    std::fs::write(&summaries[0], &padded).unwrap();
    refused("padded", "more than its table's rows can hold");

    // A FIFO and a link to /dev/zero in its place: refused at once.
    std::fs::remove_file(&summaries[0]).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&summaries[0])
            .status()
            .unwrap()
            .success()
    );
    refused("fifo", "not a regular file");
    std::fs::remove_file(&summaries[0]).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &summaries[0]).unwrap();
    refused("zero", "not a regular file");
}

#[test]
fn a_summary_survives_its_file_format() {
    let (_dir, one, _) = one_and_sharded("roundtrip", 1);
    let settings = Settings::default();
    let config = settings.config();
    let table = one.join("games.parquet");
    let counts = analysis::summarize_rows(&table, &config).unwrap();
    let path = summary::write(&table, &config, &counts).unwrap();
    assert!(path.to_string_lossy().ends_with(".json.zst"));
    assert_eq!(summary::read(&table, &config).unwrap(), counts);
}

/// A double round robin of four players (12 games), as PGN games in round
/// order.
fn double_round_robin() -> Vec<String> {
    let players = ["Able, A", "Baker, B", "Cole, C", "Dunn, D"];
    // Berger pairings for four players, twice with colours reversed.
    let rounds: [[(usize, usize); 2]; 3] = [[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]];
    let results = ["1-0", "1/2-1/2", "0-1", "1/2-1/2", "1-0", "1/2-1/2"];
    let mut games = Vec::new();
    for cycle in 0..2 {
        for (r, pairs) in rounds.iter().enumerate() {
            for (board, &(w, b)) in pairs.iter().enumerate() {
                let (w, b) = if cycle == 0 { (w, b) } else { (b, w) };
                let round = cycle * 3 + r + 1;
                let result = results[(round + board) % results.len()];
                games.push(format!(
                    "[Event \"Split Round Robin\"]\n[Site \"Here\"]\n[Date \"2024.03.{round:02}\"]\n\
                     [Round \"{round}.{}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\
                     [WhiteElo \"2500\"]\n[BlackElo \"2510\"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n\n",
                    board + 1,
                    players[w],
                    players[b],
                ));
            }
        }
    }
    games
}

/// A table's summary in batches of `sizes` rows, each against the
/// summary in one batch.
fn same_in_batches(table: &Path, settings: &Settings, sizes: &[usize]) -> Summary {
    let config = settings.config();
    let whole = analysis::summarize_rows_in(table, &config, usize::MAX).unwrap();
    for &rows in sizes {
        let batched = analysis::summarize_rows_in(table, &config, rows).unwrap();
        assert_eq!(batched.scoring, whole.scoring, "batches of {rows} rows");
        assert_eq!(batched.players, whole.players, "batches of {rows} rows");
        assert_eq!(
            batched.rule_study, whole.rule_study,
            "batches of {rows} rows"
        );
        assert!(
            batched == whole,
            "batches of {rows} rows: the summaries differ"
        );
    }
    whole
}

/// Row groups in a Parquet file.
fn row_groups(table: &Path) -> usize {
    let mut reader = polars::prelude::ParquetReader::new(std::fs::File::open(table).unwrap());
    reader.get_metadata().unwrap().row_groups.len()
}

/// Classifies `input` into `out` in row groups of about `games_per_chunk`
/// chunks' games (a chunk of `chunk_bytes`), and checks that the summary
/// `classify` counted from its row groups as it wrote them equals the
/// table's summary read back in one batch, and in batches of `sizes`.
/// `built_in`: the settings' catalogue is the built-in one, which
/// classify's own summary uses.
fn classified_in_groups(
    input: &Path,
    out: &Path,
    (chunk_bytes, min_groups): (u32, usize),
    (settings, built_in): (&Settings, bool),
    sizes: &[usize],
) -> Summary {
    let mut command = remis();
    command
        .args(["classify", "--row-group-rows", "1", "--chunk-bytes"])
        .arg(chunk_bytes.to_string())
        .arg("--out")
        .arg(out)
        .arg(input);
    if !built_in {
        command.arg("--no-summary");
    }
    succeeded(command.output().unwrap());
    let table = out.join("games.parquet");
    assert!(
        row_groups(&table) >= min_groups,
        "{} row groups",
        row_groups(&table)
    );
    let whole = same_in_batches(&table, settings, sizes);
    if built_in {
        assert_eq!(summary::read(&table, &settings.config()).unwrap(), whole);
    }
    // Row groups handed over as `classify` hands them, counted in batches
    // of other sizes than the groups'.
    let frame = polars::prelude::ParquetReader::new(std::fs::File::open(&table).unwrap())
        .finish()
        .unwrap();
    let groups: &[(usize, usize)] = if frame.height() < 100 {
        &[(1, 2), (3, 5)]
    } else {
        &[(500, 1200), (1000, 999)]
    };
    for &(group, batch) in groups {
        let config = settings.config();
        let mut builder = analysis::SummaryBuilder::new(&config).with_batch_rows(batch);
        let mut offset = 0;
        while offset < frame.height() {
            builder
                .add_frame(&frame.slice(offset as i64, group))
                .unwrap();
            offset += group;
        }
        assert!(
            builder.finish().unwrap() == whole,
            "groups of {group}, batches of {batch}"
        );
    }
    whole
}

#[test]
fn a_round_robin_split_between_batches_is_ranked_whole() {
    // Able's games with White and one game of round 2 come first: in no
    // batch of fewer than the twelve games do the players have about
    // equal numbers of games.
    let dir = scratch("split-crosstable");
    let games = double_round_robin();
    let (first, second): (Vec<&String>, Vec<&String>) = games
        .iter()
        .partition(|g| g.contains("[White \"Able, A\"]") || g.contains("[Round \"2.1\"]"));
    let pgn: String = first.into_iter().chain(second).cloned().collect();
    std::fs::write(dir.join("rr.pgn"), pgn).unwrap();
    let whole = classified_in_groups(
        &dir.join("rr.pgn"),
        &dir.join("table"),
        (200, 1),
        (&Settings::default(), true),
        &[1, 2, 4, 5, 7, 11, 12],
    );
    let study = remis_report::analysis::scoring::scoring_study(&whole.scoring);
    assert_eq!((study.round_robins, study.events), (1, 1));

    // Past the pairings kept, the later batches are judged on their own:
    // the standings still add up, the split event is left out, the rest
    // is unchanged.
    let settings = Settings::default();
    let config = settings.config();
    let builder = analysis::SummaryBuilder::new(&config).with_pairings_kept(3);
    let in_parts = analysis::summarize_with(&dir.join("table/games.parquet"), builder, 2).unwrap();
    assert_eq!(in_parts.scoring.standings, whole.scoring.standings);
    assert_eq!(in_parts.scoring.event_games, whole.scoring.event_games);
    let study = remis_report::analysis::scoring::scoring_study(&in_parts.scoring);
    assert_eq!((study.round_robins, study.events), (0, 0));
    let mut same = in_parts.clone();
    same.scoring.pairings = whole.scoring.pairings.clone();
    assert!(same == whole);
}

#[test]
fn the_pairings_counted_in_rust_equal_those_of_the_polars_queries() {
    // Two complete events, one with its rounds numbered and one without,
    // judged whole and, past the pairings kept, batch by batch: the
    // pairings kept and judged in Rust (`build::standings`) against those
    // of the polars queries, which no fixture's events exercise.
    let dir = scratch("pairings-in-rust");
    let numbered = double_round_robin();
    let unnumbered: Vec<String> = numbered
        .iter()
        .map(|g| {
            let round = g
                .split("[Round \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            g.replace("Split Round Robin", "Unnumbered Round Robin")
                .replace(&format!("[Round \"{round}\"]"), "[Round \"?\"]")
        })
        .collect();
    let pgn: String = numbered
        .iter()
        .zip(&unnumbered)
        .map(|(a, b)| format!("{a}{b}"))
        .collect();
    std::fs::write(dir.join("events.pgn"), pgn).unwrap();
    succeeded(
        remis()
            .args(["classify", "--out"])
            .arg(dir.join("table"))
            .arg(dir.join("events.pgn"))
            .output()
            .unwrap(),
    );
    let table = dir.join("table/games.parquet");
    let settings = Settings::default();
    let config = settings.config();
    for kept in [analysis::build::PAIRINGS_KEPT, 5] {
        for batch in [3, 7, 100] {
            let builder = || analysis::SummaryBuilder::new(&config).with_pairings_kept(kept);
            let by_queries =
                analysis::summarize_with(&table, builder().with_queries(), batch).unwrap();
            let in_rust = analysis::summarize_with(&table, builder(), batch).unwrap();
            assert_eq!(
                in_rust.scoring, by_queries.scoring,
                "{kept} pairings kept, batches of {batch}"
            );
            if kept == analysis::build::PAIRINGS_KEPT && batch == 100 {
                let study = remis_report::analysis::scoring::scoring_study(&in_rust.scoring);
                assert_eq!((study.round_robins, study.events), (2, 2));
                assert!(!in_rust.scoring.pairings.unnumbered.is_empty());
            }
        }
    }
}

#[test]
fn every_fixture_is_summarized_alike_in_any_batches() {
    let dir = scratch("batches");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let whole = classified_in_groups(
        &root.join("data/lichess-sample.pgn.zst"),
        &dir.join("sample"),
        (1 << 18, 5),
        (&Settings::default(), true),
        &[1000, 3333],
    );
    assert_eq!(whole.rows(), 3820);
    // The generated games with their catalogue: the rule study's events
    // and their pairings.
    let catalogue = remis_report::study::events::EventCatalogue::from_toml(
        &std::fs::read_to_string(root.join("tests/data/events-synthetic.toml")).unwrap(),
    )
    .unwrap();
    let settings = Settings {
        catalogue,
        ..Settings::default()
    };
    let whole = classified_in_groups(
        &root.join("tests/data/synthetic-3000.pgn.zst"),
        &dir.join("synthetic"),
        (1 << 18, 5),
        (&settings, false),
        &[700, 1024],
    );
    assert!(!whole.rule_study.groups.is_empty());
    assert!(!whole.rule_study.pairings.is_empty());
    // And with the built-in catalogue, classify's own summary.
    classified_in_groups(
        &root.join("tests/data/synthetic-3000.pgn.zst"),
        &dir.join("synthetic-built-in"),
        (1 << 18, 5),
        (&Settings::default(), true),
        &[1500],
    );
}

/// A short drawn game of `event` in round `round`, `white` against a
/// player of that round's own.
fn drawn_game(event: &str, white: &str, round: usize) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"Here\"]\n[Date \"2024.03.01\"]\n[Round \"{round}\"]\n\
         [White \"{white}\"]\n[Black \"Black, {round}\"]\n[Result \"1/2-1/2\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n"
    )
}

/// The summary of the games `pgn`, classified in `dir` a game a row group,
/// and held equal to the table's in batches of `sizes` rows
/// ([`classified_in_groups`]).
fn summarized_in_batches(dir: &Path, pgn: &str, sizes: &[usize]) -> Summary {
    std::fs::write(dir.join("games.pgn"), pgn).unwrap();
    classified_in_groups(
        &dir.join("games.pgn"),
        &dir.join("table"),
        (1 << 18, 1),
        (&Settings::default(), true),
        sizes,
    )
}

/// A format label's largest series are the table's, whatever the batches:
/// a series met once among more than the series kept, then often, used to
/// be dropped from the first batch and counted only from the next.
#[test]
fn the_largest_series_are_the_tables_in_any_batches() {
    use remis_report::analysis::format_audit::SERIES_KEPT;
    let dir = scratch("largest-series");
    // Series names without digits or months: "Open Ba", "Open Bb", ...
    let name = |i: usize| {
        let letters = b"abcdefghijklmnopqrstuvwxyz";
        format!(
            "Open {}{}",
            (b'B' + (i / 26) as u8) as char,
            letters[i % 26] as char
        )
    };
    let game = |event: &str, n: usize| drawn_game(event, &format!("White, {n}"), n);
    // "Open Zz" sorts last: among series of one game each, the first
    // batch's ties drop it.
    let mut pgn = String::new();
    for i in 0..SERIES_KEPT + 10 {
        pgn.push_str(&game(&name(i), i));
    }
    for n in 0..5 {
        pgn.push_str(&game("Open Zz", 1000 + n));
    }
    let last = SERIES_KEPT + 10;
    pgn.insert_str(0, &game("Open Zz", last));
    let whole = summarized_in_batches(&dir, &pgn, &[1, 7, SERIES_KEPT + 11]);
    let series: Vec<u64> = whole
        .format_audit
        .series
        .values()
        .filter_map(|series| series.get("open zz").copied())
        .collect();
    assert_eq!(series, [6], "every game of the series, in one label");
}

/// The standings of `events` (name, players), each player with one game.
fn standings_of(events: &[(&str, usize)]) -> analysis::scoring::ScoringCounts {
    let mut counts = analysis::scoring::ScoringCounts::default();
    for &(event, players) in events {
        let key = (event.to_string(), Some(2025));
        counts.event_games.insert(key.clone(), players as u64);
        let entries = (0..players)
            .map(|p| (format!("{event} player {p}").into(), [2, 0, 0, 0, 1]))
            .collect();
        counts.standings.insert(
            key,
            analysis::scoring::EventStandings::from_entries(entries),
        );
    }
    counts
}

#[test]
fn standings_past_their_bound_leave_out_the_largest_events_and_say_so() {
    // A lichess month's arenas, each under 10,000 games, made the standings
    // of a 20M-game table grow to 3.9 GB: past a bound, the events with the
    // most players are left out (to half the bound), and stay out.
    let mut counts = standings_of(&[("Arena", 5), ("Swiss", 3), ("Match", 2)]);
    counts.keep_within(12);
    assert!(counts.left_out.is_empty(), "10 entries are within 12");
    counts.keep_within(8);
    let left_out: Vec<&str> = counts.left_out.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(left_out, ["Arena", "Swiss"]);
    assert_eq!(counts.standings.len(), 1);
    // A later table's games of a left-out event do not bring it back.
    counts.absorb(standings_of(&[("Arena", 2), ("Open", 2)]));
    let events: Vec<&str> = counts.standings.keys().map(|(e, _)| e.as_str()).collect();
    assert_eq!(events, ["Match", "Open"]);
    let study = analysis::scoring::scoring_study(&counts);
    assert_eq!((study.left_out_events, study.left_out_games), (2, 10));
    // Within the bound, nothing is left out whatever the order.
    let mut small = standings_of(&[("Match", 2)]);
    small.absorb(standings_of(&[("Open", 2)]));
    assert!(small.left_out.is_empty());
}

/// The filters the prepared rows are compared under: the default, and
/// each filter `prepare` reads set at least once.
fn filter_sets() -> Vec<analysis::Filters> {
    use analysis::table::Play;
    use remis_report::study::{BandScheme, EloBasis};
    let default = analysis::Filters::default;
    vec![
        default(),
        analysis::Filters {
            min_elo: Some(1900),
            basis: EloBasis::Average,
            dedup: true,
            no_bots: true,
            bands: BandScheme::width(50),
            ..default()
        },
        analysis::Filters {
            basis: EloBasis::Min,
            min_elo: Some(2400),
            time_class: Some("blitz".into()),
            play: Some(Play::Online),
            years: Some((2000, 2015)),
            ..default()
        },
        analysis::Filters {
            basis: EloBasis::Both,
            max_gap: 50,
            event: Some(regex::Regex::new("(?i)rated|open|ch").unwrap()),
            exclude_event: Some(regex::Regex::new("(?i)blitz").unwrap()),
            variant: Some("chess960".into()),
            play: Some(Play::OverTheBoard),
            ..default()
        },
        analysis::Filters {
            exclude_event: Some(regex::Regex::new("(?i)arena").unwrap()),
            time_class: Some("classical".into()),
            ..default()
        },
    ]
}

#[test]
fn the_rows_prepared_in_rust_equal_polars_prepare_row_by_row() {
    // The summary derives each row's band, basis rating, reason, result
    // kind, format and event selection in Rust (`table::prepare_frame`);
    // `table::prepare` is the lazy query every other reader runs. Every
    // column of the two, in row order, on every fixture and on freshly
    // generated games, under every filter.
    let dir = scratch("prepared");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let generated = dir.join("generated.pgn");
    let games = succeeded(
        remis()
            .args(["generate", "--games", "2000", "--seed", "50"])
            .output()
            .unwrap(),
    )
    .stdout;
    std::fs::write(&generated, games).unwrap();
    let inputs = [
        root.join("data/lichess-sample.pgn.zst"),
        root.join("tests/data/synthetic-3000.pgn.zst"),
        generated,
    ];
    let mut compared = 0;
    let mut seen = std::collections::BTreeSet::new();
    for (k, input) in inputs.iter().enumerate() {
        let out = dir.join(format!("table-{k}"));
        succeeded(
            remis()
                .args(["classify", "--dedup", "--no-summary", "--out"])
                .arg(&out)
                .arg(input)
                .output()
                .unwrap(),
        );
        let rows = common::read_table(&out.join("games.parquet"));
        for filters in filter_sets() {
            let (differ, in_rust) = analysis::table::prepared_differences(&rows, &filters).unwrap();
            assert!(
                differ.is_empty(),
                "{}: {differ:?} differ under {filters:?}",
                input.display()
            );
            let reasons = in_rust
                .column(analysis::table::REASON)
                .unwrap()
                .str()
                .unwrap();
            seen.extend(reasons.iter().flatten().map(str::to_string));
            compared += 1;
        }
    }
    assert_eq!(compared, 15);
    // The rows met most of the reasons a row can be left out for.
    assert!(seen.len() >= 8, "{seen:?}");
}

#[test]
fn the_summary_counted_in_rust_equals_the_one_counted_by_the_polars_queries() {
    // `classify`'s summary (rows prepared and counted in Rust, at one and
    // two threads) and summaries read back in batches of several sizes,
    // against the same table summarized with the lazy `table::prepare`
    // and the polars queries only (`SummaryBuilder::with_queries`): every
    // count equal, on every fixture and on generated games, with the
    // built-in catalogue and with the generated games'.
    let dir = scratch("prepared-summaries");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let generated = dir.join("generated.pgn");
    let games = succeeded(
        remis()
            .args(["generate", "--games", "1500", "--seed", "51"])
            .output()
            .unwrap(),
    )
    .stdout;
    std::fs::write(&generated, games).unwrap();
    let synthetic_catalogue = Settings {
        catalogue: remis_report::study::events::EventCatalogue::from_toml(
            &std::fs::read_to_string(root.join("tests/data/events-synthetic.toml")).unwrap(),
        )
        .unwrap(),
        ..Settings::default()
    };
    let inputs = [
        root.join("data/lichess-sample.pgn.zst"),
        root.join("tests/data/synthetic-3000.pgn.zst"),
        generated,
    ];
    for (k, input) in inputs.iter().enumerate() {
        for threads in ["1", "2"] {
            let out = dir.join(format!("table-{k}-{threads}"));
            succeeded(
                remis()
                    .args(["classify", "--dedup", "--threads", threads, "--out"])
                    .arg(&out)
                    .arg(input)
                    .output()
                    .unwrap(),
            );
            let table = out.join("games.parquet");
            let settings = Settings::default();
            let config = settings.config();
            let reference = analysis::summarize_with(
                &table,
                analysis::SummaryBuilder::new(&config).with_queries(),
                1 << 20,
            )
            .unwrap();
            assert!(reference.rows() > 1000);
            // The players' expected-draw cells are among the counts held
            // equal (issue 49).
            assert!(
                reference
                    .expected
                    .parts
                    .values()
                    .any(|p| !p.players.is_empty()),
                "{}",
                input.display()
            );
            assert!(summary::read(&table, &config).unwrap() == reference);
            for batch in [999, 4096] {
                let in_rust = analysis::summarize_rows_in(&table, &config, batch).unwrap();
                assert!(
                    in_rust == reference,
                    "{}: batches of {batch}",
                    input.display()
                );
            }
            let config = synthetic_catalogue.config();
            let reference = analysis::summarize_with(
                &table,
                analysis::SummaryBuilder::new(&config).with_queries(),
                1 << 20,
            )
            .unwrap();
            assert!(analysis::summarize_rows_in(&table, &config, 777).unwrap() == reference);
        }
    }
}

#[test]
fn players_folded_between_batches_are_counted_alike_by_number_and_by_the_queries() {
    // Past its bound of named players the builder folds them (a table of
    // millions of players, here a bound of a few hundred): counted in
    // Rust, by number, the players are then folded as the maps are and
    // numbered again from those kept; counted by the queries, the maps
    // are folded. The same summary, in batches of several sizes, with
    // players folded more than once.
    let dir = scratch("players-folded");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = dir.join("table");
    succeeded(
        remis()
            .args(["classify", "--no-summary", "--out"])
            .arg(&out)
            .arg(root.join("data/lichess-sample.pgn.zst"))
            .output()
            .unwrap(),
    );
    let table = out.join("games.parquet");
    let settings = Settings::default();
    let config = settings.config();
    for (batch, bound) in [(999, 300), (4096, 1000)] {
        let builder = || analysis::SummaryBuilder::new(&config).with_players_unfolded(bound);
        let reference = analysis::summarize_with(&table, builder().with_queries(), batch).unwrap();
        let in_rust = analysis::summarize_with(&table, builder(), batch).unwrap();
        // Folded along the way: more named players met than the bound,
        // and some folded with their cells dropped.
        assert!(reference.players.folded_players > 0, "bound {bound}");
        assert!(
            reference
                .expected
                .parts
                .values()
                .any(|p| !p.players.is_empty())
        );
        assert!(in_rust.players == reference.players, "bound {bound}");
        assert!(
            in_rust.classical_players == reference.classical_players,
            "bound {bound}"
        );
        assert!(in_rust.expected == reference.expected, "bound {bound}");
        assert!(in_rust == reference, "bound {bound}");
    }
}

#[test]
fn a_players_spellings_are_the_tables_in_any_batches() {
    // One player written 70 ways, one game each, "Korchnoi, V (zz)"
    // among them; then 10 more games under that spelling. Over the whole
    // table it has 11 games and is listed; a batch that bounded the
    // spellings between the first games and the last (keeping the first
    // names among the ties) dropped its first game.
    let dir = scratch("spellings");
    let mut pgn = String::new();
    for i in 0..69 {
        pgn.push_str(&drawn_game("Club", &format!("Korchnoi, V ({i})"), i));
    }
    for n in 0..11 {
        pgn.push_str(&drawn_game("Club", "Korchnoi, V (zz)", 100 + n));
    }
    let whole = summarized_in_batches(&dir, &pgn, &[1, 7, 70]);
    let spellings = &whole.players.spellings["korchnoi v"];
    let zz = spellings.iter().find(|s| s.name == "Korchnoi, V (zz)");
    assert_eq!(
        zz.map(|s| s.games.n),
        Some(11),
        "every game of the spelling"
    );
}
