//! Every help text matches the behaviour (issue 20): the value lists that
//! `--help` shows are the values the program takes and the user's docs
//! list (the README and docs/usage.md, which holds every command's flags),
//! and the input kinds `classify --help` names are those a folder's walk
//! reads.

use remis_core::input::FOLDER_SUFFIXES;

use crate::common;
use common::{remis, succeeded};

/// The short help, where each option's values are listed on one line.
fn help(command: &str) -> String {
    let output = succeeded(remis().args([command, "-h"]).output().unwrap());
    String::from_utf8(output.stdout).unwrap()
}

/// The README and docs/usage.md, where a user reads the commands.
fn readme() -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    ["README.md", "docs/usage.md"]
        .map(|doc| std::fs::read_to_string(format!("{root}/{doc}")).unwrap())
        .join("\n")
}

/// The values `--help` lists for an option, from "[possible values: …]"
/// after the option's name.
fn possible_values(help: &str, option: &str) -> Vec<String> {
    let at = help
        .find(&format!("{option} <"))
        .unwrap_or_else(|| panic!("{option} not in:\n{help}"));
    let rest = &help[at..];
    let start = rest.find("[possible values: ").expect("a value list") + 18;
    let end = rest[start..].find(']').unwrap() + start;
    rest[start..end].split(", ").map(str::to_string).collect()
}

/// Whether a run with `--format value` is accepted.
fn accepts(command: &str, value: &str) -> bool {
    let output = remis()
        .args([command, "/nonexistent-table", "--format", value])
        .output()
        .unwrap();
    // Refused values fail in argument parsing, before the missing table.
    !String::from_utf8_lossy(&output.stderr).contains("invalid value")
}

#[test]
fn format_values_in_help_are_the_accepted_ones() {
    for (command, want) in [
        ("stats", &["table", "csv", "json"][..]),
        ("sofia", &["table", "json"][..]),
        ("scoring", &["table", "json"][..]),
    ] {
        let text = help(command);
        let listed = possible_values(&text, "--format");
        assert_eq!(listed, want, "{command}");
        for value in ["table", "csv", "json", "text", "yaml"] {
            assert_eq!(
                accepts(command, value),
                listed.iter().any(|v| v == value),
                "{command} --format {value}"
            );
        }
        assert!(!text.contains("text, or JSON"), "{command}");
    }
    // The README's usage line for stats lists the same values.
    assert!(readme().contains("[--format table|csv|json]"));
}

#[test]
fn views_and_sources_in_help_and_readme_agree() {
    let views = possible_values(&help("stats"), "--view");
    assert_eq!(
        views,
        [
            "draws",
            "outcomes",
            "gap",
            "openings",
            "time-classes",
            "clocks",
            "audit",
            "expected",
            "players"
        ]
    );
    let readme = readme();
    for view in &views {
        assert!(
            readme.contains(&format!("`{view}`")) || readme.contains(&format!("--view {view}")),
            "README lacks view {view}"
        );
    }
    for command in ["report", "stats", "sofia", "scoring"] {
        assert_eq!(
            possible_values(&help(command), "--source"),
            ["auto", "rows", "summaries"],
            "{command}"
        );
    }
    for source in ["auto", "rows", "summaries"] {
        assert!(
            readme.contains(&format!("`{source}`"))
                || readme.contains(&format!("--source {source}")),
            "README lacks --source {source}"
        );
    }
}

#[test]
fn classify_help_names_what_a_folder_walk_reads() {
    let text = help("classify");
    let readme = readme();
    for suffix in FOLDER_SUFFIXES {
        assert!(
            text.contains(&format!("*{suffix}")),
            "classify --help lacks {suffix}"
        );
        assert!(
            readme.contains(&format!("`*{suffix}`")),
            "README lacks *{suffix}"
        );
    }
    assert!(text.contains("magic bytes") && text.contains("Parquet"));
    assert!(text.contains("0 means one per core"));
}
