//! The lead figures never mix formats (issue 29): by default the draws
//! view and the report's by-year chart and band × year table are of
//! over-the-board classical games, equal to a run filtered to them, and
//! say so; `--play all` mixes every format.

use std::path::Path;

use crate::common;
use common::{remis, scratch, succeeded};

/// Over-the-board classical games at a venue (mostly drawn) and online
/// blitz games on a platform (mostly decisive), in the same years.
fn mixed_games() -> String {
    let mut out = String::new();
    for i in 0..120 {
        let (site, event, tc, result, moves) = if i % 3 == 0 {
            (
                "Wijk aan Zee NED",
                "Hoogovens",
                None,
                "1/2-1/2",
                "1. e4 e5 1/2-1/2",
            )
        } else {
            (
                "https://lichess.org/abc",
                "Rated Blitz game",
                Some("180+0"),
                "1-0",
                "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
            )
        };
        out.push_str(&format!(
            "[Event \"{event}\"]\n[Site \"{site}\"]\n[Date \"{}.01.01\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"{result}\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n{}\n{moves}\n\n",
            2018 + i % 3,
            2400 + i % 5 * 10,
            2405 + i % 5 * 10,
            tc.map_or(String::new(), |t| format!("[TimeControl \"{t}\"]"))
        ));
    }
    out
}

fn stats(table: &Path, extra: &[&str]) -> String {
    let output = remis()
        .arg("stats")
        .arg(table)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    String::from_utf8(succeeded(output).stdout).unwrap()
}

fn section(page: &str, id: &str) -> String {
    let start = page.find(&format!("<section id=\"{id}\">")).unwrap();
    let end = start + page[start..].find("</section>").unwrap();
    page[start..end].to_string()
}

#[test]
fn the_lead_figures_are_over_the_board_classical_unless_asked() {
    let dir = scratch("lead");
    let input = dir.join("mixed.pgn");
    std::fs::write(&input, mixed_games()).unwrap();
    let out = dir.join("out");
    succeeded(
        remis()
            .arg("classify")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap(),
    );
    let filtered = ["--play", "over-the-board", "--time-class", "classical"];
    // The same figures; their populations are worded each by its filters
    // ("40 of the 120 games used" against "all 40 games used, played over
    // the board only"), and both name the format.
    let figures = |json: &str| -> (serde_json::Value, Vec<String>) {
        let mut value: serde_json::Value = serde_json::from_str(json).unwrap();
        let mut populations = Vec::new();
        for row in value.as_array_mut().unwrap() {
            let population = row.as_object_mut().unwrap().remove("population");
            populations.push(population.unwrap().as_str().unwrap().to_string());
        }
        (value, populations)
    };
    for by_band in [&[][..], &["--by-band"][..]] {
        let (lead, named) = figures(&stats(&out, by_band));
        let (only, named_only) = figures(&stats(&out, &[by_band, &filtered[..]].concat()));
        assert_eq!(lead, only, "{by_band:?}");
        for population in named.iter().chain(&named_only) {
            assert!(
                population.starts_with("over-the-board classical games: "),
                "{population}"
            );
        }
        let lead = stats(&out, by_band);
        let all = stats(&out, &[by_band, &["--play", "all"][..]].concat());
        assert_ne!(lead, all, "{by_band:?}");
    }
    // Every over-the-board game is drawn: the lead draw rate is 100 %.
    let lead: serde_json::Value = serde_json::from_str(&stats(&out, &["--by-band"])).unwrap();
    let total = lead
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["band"] == "all")
        .unwrap();
    assert_eq!(total["games"], 40);
    assert_eq!(total["draws"], 40);

    // The report: the by-year chart and the band × year table equal those
    // of the filtered run, and their titles name the format.
    let report = |name: &str, extra: &[&str]| {
        let page = dir.join(name);
        succeeded(
            remis()
                .arg("report")
                .arg(&out)
                .arg("--out")
                .arg(&page)
                .args(extra)
                .output()
                .unwrap(),
        );
        std::fs::read_to_string(page).unwrap()
    };
    let default = report("default.html", &[]);
    let only = report("only.html", &filtered);
    for id in ["by-year", "table"] {
        let (a, b) = (section(&default, id), section(&only, id));
        assert!(a.contains("over-the-board classical games"), "{a}");
        // The same figures; the population line under the heading counts
        // "40 of the 120 games used" against "all 40 games used".
        let strip = |s: &str| {
            let s = s.replace(": over-the-board classical games", "");
            let start = s
                .find("<p class=\"population\"")
                .expect("a population line");
            let end = start + s[start..].find("</p>").unwrap();
            format!("{}{}", &s[..start], &s[end..])
        };
        assert_eq!(strip(&a), strip(&b), "{id}");
    }
    assert!(default.contains("id=\"lead-format\""));
    let mixed = report("all.html", &["--play", "all"]);
    assert!(!mixed.contains("id=\"lead-format\""));
    assert_ne!(section(&mixed, "table"), section(&default, "table"));
}
