//! Issue 49: the expected-draw model on a hand-built table whose draws
//! follow a known model with a planted rise by year. `stats --view
//! expected` lists the cells it is fitted on, and they are the table's,
//! counted again here by polars; the year and series rows add up from the
//! cells; the excess recovers the rise; the report's section shows the same
//! numbers in its table and CSV, under the lead population's line. Each
//! player's games, draws and expected draws are counted again from the
//! table and the listed cells' probabilities.

use std::path::Path;

use polars::prelude::*;
use remis_table::schema::Column as C;

use crate::common;
use common::{Lcg, remis, scratch, succeeded};

/// The planted rise: two draws more per hundred games each year.
const RISE: f64 = 0.02;

/// The players, paired at random (their own sequence, so that the games
/// are those the rise was planted in without them).
const PLAYERS: [&str; 12] = [
    "Anand, Viswanathan",
    "Kramnik, Vladimir",
    "Topalov, Veselin",
    "Leko, Peter",
    "Svidler, Peter",
    "Morozevich, Alexander",
    "Ivanchuk, Vassily",
    "Gelfand, Boris",
    "Adams, Michael",
    "Shirov, Alexei",
    "Polgar, Judit",
    "Kasimdzhanov, Rustam",
];

/// Over-the-board classical games, 2000–2009, rated 1900–2799, drawn with
/// probability logistic(−0.4 + 0.35·m − 0.45·g) + RISE·(year − 2004.5)
/// (m the mean rating from 2000, g the gap, per 100); every fifth game at
/// Linares (a series of the built-in catalogue).
fn planted_table(path: &Path) -> DataFrame {
    let n = 12_000;
    let mut rng = Lcg(49);
    let mut pairing = Lcg(4949);
    let (mut white, mut black) = (Vec::new(), Vec::new());
    let (mut white_elo, mut black_elo, mut result, mut year, mut event, mut site) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for i in 0..n {
        let w = 1900 + rng.below(900) as i64;
        let b = (w + rng.below(500) as i64 - 250).clamp(1700, 2850);
        let y = 2000 + rng.below(10) as i16;
        let m = ((w + b) as f64 / 2.0 - 2000.0) / 100.0;
        let g = (w - b).abs() as f64 / 100.0;
        let p = 1.0 / (1.0 + (0.4 - 0.35 * m + 0.45 * g).exp()) + RISE * (f64::from(y) - 2004.5);
        let drawn = (rng.below(1_000_000) as f64) < p * 1e6;
        let white_won = rng.below(2) == 0;
        white_elo.push(w as u16);
        black_elo.push(b as u16);
        let first = pairing.below(12) as usize;
        let second = (first + 1 + pairing.below(11) as usize) % 12;
        white.push(PLAYERS[first]);
        black.push(PLAYERS[second]);
        year.push(y);
        result.push(match (drawn, white_won) {
            (true, _) => "1/2-1/2",
            (false, true) => "1-0",
            (false, false) => "0-1",
        });
        let linares = i % 5 == 0;
        event.push(if linares {
            "Linares SuperGM"
        } else {
            "Test Open"
        });
        site.push(if linares { "Linares ESP" } else { "Testville" });
    }
    let ending: Vec<&str> = result
        .iter()
        .map(|r| {
            if *r == "1/2-1/2" {
                "agreed"
            } else {
                "resignation"
            }
        })
        .collect();
    let draw_type: Vec<Option<&str>> = result
        .iter()
        .map(|r| (*r == "1/2-1/2").then_some("agreed"))
        .collect();
    common::write_table(path, n, |c, name| match c {
        C::White => Some(Series::new(name, white.clone())),
        C::Black => Some(Series::new(name, black.clone())),
        C::WhiteElo => Some(Series::new(name, white_elo.clone())),
        C::BlackElo => Some(Series::new(name, black_elo.clone())),
        C::Result => Some(Series::new(name, result.clone())),
        C::Ending => Some(Series::new(name, ending.clone())),
        C::DrawType => Some(Series::new(name, draw_type.clone())),
        C::TimeClass | C::Speed => Some(Series::new(name, vec!["classical"; n])),
        C::SpeedBy => Some(Series::new(name, vec!["time control"; n])),
        C::Play => Some(Series::new(name, vec!["over-the-board"; n])),
        C::PlayBy => Some(Series::new(name, vec!["site venue"; n])),
        C::Ratings => Some(Series::new(name, vec!["elo"; n])),
        C::RatingsBy => Some(Series::new(name, vec!["no platform"; n])),
        C::Year => Some(Series::new(name, year.clone())),
        C::Moves => Some(Series::new(name, vec![40u32; n])),
        C::Plies => Some(Series::new(name, vec![80u32; n])),
        C::Event => Some(Series::new(name, event.clone())),
        C::Site => Some(Series::new(name, site.clone())),
        _ => None,
    })
}

fn rows_of<'a>(json: &'a serde_json::Value, part: &str) -> Vec<&'a serde_json::Value> {
    json.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["part"] == part)
        .collect()
}

fn f(row: &serde_json::Value, field: &str) -> f64 {
    row[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {row}"))
}

#[test]
fn the_model_is_fitted_on_the_tables_cells_and_finds_the_planted_rise() {
    let dir = scratch("expected");
    let path = dir.join("games.parquet");
    let df = planted_table(&path);
    let output = remis()
        .args(["stats", path.to_str().unwrap(), "--view", "expected"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&succeeded(output).stdout).unwrap();
    let all = rows_of(&json, "all");
    assert_eq!(all.len(), 1, "{json}");
    let population = all[0]["population"].as_str().unwrap();
    assert!(
        population.starts_with("over-the-board classical games"),
        "{population}"
    );

    // The cells, counted again: 50-point bins of the mean rating and the
    // gap (gaps of 600 and more together), by year.
    let w = col("white_elo").cast(DataType::Int64);
    let b = col("black_elo").cast(DataType::Int64);
    let gap = when(w.clone().gt_eq(b.clone()))
        .then(w.clone() - b.clone())
        .otherwise(b.clone() - w.clone());
    let oracle = df
        .clone()
        .lazy()
        .with_columns([
            ((w.clone() + b.clone()) / lit(100) * lit(50)).alias("mean_bin"),
            when(gap.clone().gt_eq(lit(600)))
                .then(lit(600i64))
                .otherwise(gap.clone() / lit(50) * lit(50))
                .alias("gap_bin"),
            (w + b).alias("rating_sum"),
            gap.alias("gap"),
            col("result").eq(lit("1/2-1/2")).alias("drawn"),
        ])
        .group_by([col("mean_bin"), col("gap_bin"), col("year")])
        .agg([
            len().cast(DataType::UInt64).alias("games"),
            col("drawn").cast(DataType::UInt64).sum().alias("draws"),
            col("rating_sum").sum().alias("rating_sum"),
            col("gap").sum().alias("gap_sum"),
        ])
        .collect()
        .unwrap();
    let cells = rows_of(&json, "cell");
    assert_eq!(cells.len(), oracle.height());
    let get = |name: &str| {
        oracle
            .column(name)
            .unwrap()
            .cast(&DataType::Float64)
            .unwrap()
    };
    let (mean_bin, gap_bin, year, games, draws, rating_sum, gap_sum) = (
        get("mean_bin"),
        get("gap_bin"),
        get("year"),
        get("games"),
        get("draws"),
        get("rating_sum"),
        get("gap_sum"),
    );
    let value = |s: &polars::prelude::Column, i: usize| s.f64().unwrap().get(i).unwrap();
    for i in 0..oracle.height() {
        let (m, g) = (value(&mean_bin, i), value(&gap_bin, i));
        let label = format!("mean {m}–{}, gap {g}–{}", m + 49.0, g + 49.0);
        let y = format!("{}", value(&year, i));
        let row = cells
            .iter()
            .find(|r| r["group"] == label.as_str() && r["year"] == y.as_str())
            .unwrap_or_else(|| panic!("no cell {label} {y}"));
        let n = value(&games, i);
        assert_eq!(f(row, "games"), n, "{label} {y}");
        assert_eq!(f(row, "draws"), value(&draws, i), "{label} {y}");
        assert!((f(row, "mean_rating") - value(&rating_sum, i) / (2.0 * n)).abs() < 1e-9);
        assert!((f(row, "gap") - value(&gap_sum, i) / n).abs() < 1e-9);
    }

    // Each year's row adds up from its cells; the expected draws of all
    // years add up to the observed (no year term: the excess is the
    // years' spread around the model).
    let years = rows_of(&json, "year");
    assert_eq!(years.len(), 10);
    let mut excess_rates = Vec::new();
    for row in &years {
        let y = row["year"].as_str().unwrap();
        let of_year: Vec<&&serde_json::Value> = cells.iter().filter(|c| c["year"] == y).collect();
        let sum = |field: &str| of_year.iter().map(|c| f(c, field)).sum::<f64>();
        assert_eq!(f(row, "games"), sum("games"), "{y}");
        assert_eq!(f(row, "draws"), sum("draws"), "{y}");
        assert!((f(row, "expected_draws") - sum("expected_draws")).abs() < 1e-6);
        assert!(
            (f(row, "excess_draws") - (f(row, "draws") - f(row, "expected_draws"))).abs() < 1e-6
        );
        assert!(f(row, "excess_ci95_low") < f(row, "excess_rate"));
        excess_rates.push(f(row, "excess_rate"));
    }
    let total: f64 = years.iter().map(|r| f(r, "excess_draws")).sum();
    assert!(total.abs() < 1e-3, "{total}");
    // The planted rise: 2 points a year, 18 from the first to the last.
    let rise = excess_rates[9] - excess_rates[0];
    assert!((rise - 9.0 * RISE).abs() < 0.08, "{excess_rates:?}");
    let slope = excess_rates
        .iter()
        .enumerate()
        .map(|(i, r)| (i as f64 - 4.5) * r)
        .sum::<f64>()
        / (0..10).map(|i| (i as f64 - 4.5).powi(2)).sum::<f64>();
    assert!((slope - RISE).abs() < 0.005, "slope {slope}");

    // Linares: every fifth game, by the catalogue's series.
    let series = rows_of(&json, "series");
    assert_eq!(series.len(), 1, "{series:?}");
    assert_eq!(series[0]["group"], "Linares");
    assert_eq!(f(series[0], "games"), 2400.0);

    // The model's probability falls with the gap, as planted: in each
    // year, at a mean of 2300–2349, close games against 200–249 apart.
    let rate = |label: &str, y: &str| {
        let c = cells
            .iter()
            .find(|c| c["group"] == label && c["year"] == y)
            .unwrap();
        f(c, "expected_draws") / f(c, "games")
    };
    for y in 2000..2010 {
        let y = y.to_string();
        let close = rate("mean 2300–2349, gap 0–49", &y);
        let apart = rate("mean 2300–2349, gap 200–249", &y);
        assert!(close - apart > 0.1, "{y}: {close} vs {apart}");
    }
    assert_eq!(rows_of(&json, "coefficient").len(), 2 + 5 + 2);

    // By player: each one's games and draws counted again from the table,
    // and her expected draws as the sum over her games of the listed
    // probability of the game's cell. Every side is named: none is left
    // out.
    let players = rows_of(&json, "player");
    assert_eq!(players.len(), PLAYERS.len(), "{players:?}");
    let probability = |label: &str, y: &str| {
        let c = cells
            .iter()
            .find(|c| c["group"] == label && c["year"] == y)
            .unwrap_or_else(|| panic!("no cell {label} {y}"));
        f(c, "expected_draws") / f(c, "games")
    };
    let column = |name: &str| df.column(name).unwrap().as_materialized_series().clone();
    let (whites, blacks) = (column("white"), column("black"));
    let (whites, blacks) = (whites.str().unwrap(), blacks.str().unwrap());
    let (welo, belo) = (column("white_elo"), column("black_elo"));
    let (welo, belo) = (welo.u16().unwrap(), belo.u16().unwrap());
    let (game_years, results) = (column("year"), column("result"));
    let (game_years, results) = (game_years.i16().unwrap(), results.str().unwrap());
    for name in PLAYERS {
        let row = players
            .iter()
            .find(|r| r["group"] == name)
            .unwrap_or_else(|| panic!("{name} in {players:?}"));
        let (mut games, mut draws, mut expected) = (0.0, 0.0, 0.0);
        for i in 0..df.height() {
            if whites.get(i) != Some(name) && blacks.get(i) != Some(name) {
                continue;
            }
            let (w, b) = (
                i64::from(welo.get(i).unwrap()),
                i64::from(belo.get(i).unwrap()),
            );
            let mean = (w + b) / 100 * 50;
            let gap = if (w - b).abs() >= 600 {
                600
            } else {
                (w - b).abs() / 50 * 50
            };
            let label = if gap == 600 {
                format!("mean {mean}–{}, gap ≥ 600", mean + 49)
            } else {
                format!("mean {mean}–{}, gap {gap}–{}", mean + 49, gap + 49)
            };
            games += 1.0;
            draws += f64::from(u8::from(results.get(i) == Some("1/2-1/2")));
            expected += probability(&label, &game_years.get(i).unwrap().to_string());
        }
        assert_eq!(f(row, "games"), games, "{name}");
        assert_eq!(f(row, "draws"), draws, "{name}");
        assert!((f(row, "expected_draws") - expected).abs() < 1e-6, "{name}");
        assert!(f(row, "excess_ci95_low") < f(row, "excess_rate"));
        assert!(f(row, "excess_rate") < f(row, "excess_ci95_high"));
    }
    let sides: f64 = players.iter().map(|r| f(r, "games")).sum();
    assert_eq!(sides, 2.0 * f(all[0], "games"));

    // The report's section: under the lead population's line, its table by
    // year and the same numbers in its CSV.
    let page_path = dir.join("report.html");
    common::succeed("report", &path, &page_path);
    let page = std::fs::read_to_string(&page_path).unwrap();
    let at = page.find("<section id=\"expected\">").expect("the section");
    let section = &page[at..at + page[at..].find("</section>").unwrap()];
    assert!(
        section.contains("data-whose=\"lead\""),
        "{}",
        &section[..600]
    );
    assert!(section.contains("<svg"), "a chart");
    let csv = csv_of(section, "excess-draws-by-year.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut seen = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let row = years
            .iter()
            .find(|r| r["year"] == cells[column("year")])
            .unwrap();
        assert_eq!(
            cells[column("games")].parse::<f64>().unwrap(),
            f(row, "games")
        );
        let expected: f64 = cells[column("expected_draws")].parse().unwrap();
        assert!((expected - f(row, "expected_draws")).abs() < 0.006);
        let excess: f64 = cells[column("excess_rate")].parse().unwrap();
        assert!((excess - f(row, "excess_rate")).abs() < 6e-5);
        seen += 1;
    }
    assert_eq!(seen, 10);

    // And its players, most games first, as `stats` gives them.
    let csv = csv_of(section, "excess-draws-by-player.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut seen = 0;
    for (line, row) in lines.zip(&players) {
        let cells = csv_fields(line);
        assert_eq!(cells[column("player")], row["group"]);
        let expected: f64 = cells[column("expected_draws")].parse().unwrap();
        assert!((expected - f(row, "expected_draws")).abs() < 0.006);
        seen += 1;
    }
    assert_eq!(seen, PLAYERS.len());
}

/// A CSV line's fields, a name with a comma in quotes.
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    fields
}

/// The CSV a page's download link `file` holds, decoded.
fn csv_of(page: &str, file: &str) -> String {
    let at = page
        .find(&format!("download=\"{file}\""))
        .unwrap_or_else(|| panic!("no {file}"));
    let data = &page[at..];
    let start = data.find(",").unwrap() + 1;
    let encoded = &data[start..start + data[start..].find('"').unwrap()];
    let mut bytes = Vec::new();
    let mut chars = encoded.bytes();
    while let Some(c) = chars.next() {
        if c == b'%' {
            let hex = [chars.next().unwrap(), chars.next().unwrap()];
            bytes.push(u8::from_str_radix(std::str::from_utf8(&hex).unwrap(), 16).unwrap());
        } else {
            bytes.push(c);
        }
    }
    String::from_utf8(bytes).unwrap()
}
