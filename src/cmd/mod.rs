//! One module per subcommand: each parses its flags and calls the crates.

pub mod classify;
pub mod explain;
pub mod filters;
pub mod generate;
pub mod report;
pub mod scoring;
pub mod sofia;
pub mod stats;
pub mod summarize;

/// The commit remis was built from (`build.rs`; empty outside a git
/// checkout, `+changes` when built from a tree with uncommitted changes).
pub const COMMIT: &str = env!("REMIS_COMMIT");

/// remis's version and commit, for provenance.
pub fn version() -> String {
    match COMMIT {
        "" => format!("remis {}", env!("CARGO_PKG_VERSION")),
        commit => format!("remis {} (commit {commit})", env!("CARGO_PKG_VERSION")),
    }
}

/// The command line as typed, for provenance.
pub fn command_line() -> String {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The run recorded in a table's manifest: this remis's commit and the
/// command line.
pub fn run_info() -> remis_table::writer::RunInfo {
    remis_table::writer::RunInfo {
        commit: COMMIT.to_string(),
        command: command_line(),
    }
}
