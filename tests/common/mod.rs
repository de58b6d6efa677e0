//! Helpers shared by the integration tests that run the `remis` binary.
// Each test crate uses its own subset of these.
#![allow(dead_code)]

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
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "remis-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
