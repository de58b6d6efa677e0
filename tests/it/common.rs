//! Helpers shared by the integration tests that run the `remis` binary.

use std::{
    fs::File,
    path::{Path, PathBuf},
    process::{Command, Output},
};

use polars::prelude::*;

pub fn remis() -> Command {
    Command::new(env!("CARGO_BIN_EXE_remis"))
}

/// An empty folder for one test, named after the test crate, the process
/// and `name`, so that test binaries running at once do not collide.
///
/// The folder is removed when the returned [`Scratch`] is dropped, unless
/// the test is failing: its files are kept for a look, and the path is
/// printed. Keep the `Scratch` alive while its paths are in use.
#[track_caller]
pub fn scratch(name: &str) -> Scratch {
    // Named after the calling module's file (all the modules are one test
    // executable now, whose threads run at once): two modules may use the
    // same name.
    let caller = std::path::Path::new(std::panic::Location::caller().file())
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let dir = std::env::temp_dir().join(format!("remis-{caller}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A test's folder under the system's temporary folder, removed when
/// dropped (a passing `make test` used to leave hundreds of MB there on
/// every run).
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for a look: {}", self.0.display());
        } else {
            // A folder still mounted on (the full-disk test) or already
            // gone is left to the test that made it so.
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

/// `remis COMMAND INPUT --out OUT`, which must succeed (a `classify` of
/// files or a folder, a `report` of tables into a page).
pub fn succeed(command: &str, input: &Path, out: &Path) -> Output {
    succeeded(
        remis()
            .arg(command)
            .arg(input)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap(),
    )
}

/// The output of a run that must have succeeded; its stderr otherwise.
pub fn succeeded(output: Output) -> Output {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The tests' generated games (`remis generate --games 3000 --seed 1`) as
/// plain PGN bytes.
pub fn synthetic_pgn() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/synthetic-3000.pgn.zst");
    zstd::stream::decode_all(File::open(path).unwrap()).unwrap()
}

pub fn read_table(path: &Path) -> DataFrame {
    ParquetReader::new(File::open(path).unwrap())
        .finish()
        .unwrap()
}

/// A column as text, whatever its type.
pub fn strings(df: &DataFrame, column: &str) -> Vec<Option<String>> {
    df.column(column)
        .unwrap()
        .cast(&DataType::String)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|s| s.map(str::to_string))
        .collect()
}

/// `n` short legal games named g0, g1, …, each a mate in four.
pub fn games(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"g{i}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            )
        })
        .collect()
}

/// A run's standard error, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

// Parquet files in the lichess dataset's layout, made from PGN games.

/// The tags and movetext of each game of a PGN text, split the simple way.
pub fn pgn_games(pgn: &str) -> Vec<(Vec<(String, String)>, String)> {
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
pub fn write_lichess_layout(path: &Path, games: &[(Vec<(String, String)>, String)], drop: &[&str]) {
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

/// A small deterministic generator (the tests must not depend on luck).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// A hand-built table of `n` rows written to `path` in the table's schema:
/// each column from `column` where it gives one, else the defaults every
/// such table shares (source "hand-built", games numbered from 1, standard
/// chess, not synthetic, no mismatch) or nulls.
pub fn write_table(
    path: &Path,
    n: usize,
    column: impl Fn(remis_table::schema::Column, PlSmallStr) -> Option<Series>,
) -> DataFrame {
    use remis_table::schema::Column as C;
    let mut columns = Vec::new();
    for c in C::ALL {
        let name: PlSmallStr = c.name().into();
        let series = column(c, name.clone()).unwrap_or_else(|| match c {
            C::Variant => Series::new(name, vec!["standard"; n]),
            C::Source => Series::new(name, vec!["hand-built"; n]),
            C::GameNo => Series::new(name, (1..=n as u32).collect::<Vec<_>>()),
            C::Synthetic | C::ResultMismatch => Series::new(name, vec![false; n]),
            _ => Series::full_null(name, n, &c.dtype()),
        });
        columns.push(series.cast(&c.dtype()).unwrap().into_column());
    }
    let mut df = DataFrame::new(n, columns).unwrap();
    ParquetWriter::new(std::fs::File::create(path).unwrap())
        .finish(&mut df)
        .unwrap();
    df
}
