//! Every number of the statistician's analyses (outcomes and expected
//! score, rating gap, openings, time classes, clocks) checked against an
//! independent polars computation on a hand-built table.

use std::{fs::File, path::Path};

use polars::lazy::dsl::min_horizontal;
use polars::prelude::*;
use remis_table::schema::Column as C;

use crate::common;
use common::{Lcg, Scratch, remis, scratch, succeeded};

/// Differences at which FIDE's table departs from the rounded normal curve.
const TABLE_EXCEPTIONS: [i32; 6] = [54, 343, 344, 358, 392, 620];

fn hand_built_table(path: &Path) -> DataFrame {
    let n = 3000;
    let mut rng = Lcg(7);
    let (mut white_elo, mut black_elo, mut result, mut ending, mut draw_type) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (
        mut eco,
        mut opening,
        mut time_class,
        mut white_clock,
        mut black_clock,
        mut year,
        mut moves,
        mut plies,
    ) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for _ in 0..n {
        let w = 1800 + rng.below(900) as i32;
        let mut b = w + rng.below(900) as i32 - 450;
        while TABLE_EXCEPTIONS.contains(&(w - b).abs()) {
            b += 1;
        }
        let unrated = rng.below(20) == 0;
        white_elo.push((!unrated).then_some(w as u16));
        black_elo.push((!unrated).then_some(b as u16));
        let r = rng.below(10);
        let (res, end, kind) = match r {
            0..=3 => (
                "1-0",
                if r == 0 {
                    "time_forfeit"
                } else {
                    "resignation"
                },
                None,
            ),
            4..=6 => (
                "0-1",
                if r == 4 { "time_forfeit" } else { "checkmate" },
                None,
            ),
            7 => ("1/2-1/2", "agreed", Some("agreed")),
            8 => (
                "1/2-1/2",
                "threefold_repetition",
                Some("threefold_repetition"),
            ),
            _ => ("1/2-1/2", "stalemate", Some("stalemate")),
        };
        result.push(res);
        ending.push(end);
        draw_type.push(kind);
        eco.push(["B12", "C42", "D37", "A00"][rng.below(4) as usize]);
        opening.push(["Caro-Kann", "Petrov", "Queen's Gambit", "Other"][rng.below(4) as usize]);
        time_class.push(["blitz", "bullet", "rapid"][rng.below(3) as usize]);
        let clock = |rng: &mut Lcg| (rng.below(5) != 0).then(|| rng.below(700) as f32 + 0.5);
        white_clock.push(clock(&mut rng));
        black_clock.push(clock(&mut rng));
        year.push(2018 + rng.below(4) as i16);
        let m = 10 + rng.below(80) as u32;
        moves.push(m);
        plies.push(2 * m);
    }
    common::write_table(path, n, |c, name| match c {
        C::WhiteElo => Some(Series::new(name, white_elo.clone())),
        C::BlackElo => Some(Series::new(name, black_elo.clone())),
        C::Result => Some(Series::new(name, result.clone())),
        C::Ending => Some(Series::new(name, ending.clone())),
        C::DrawType => Some(Series::new(name, draw_type.clone())),
        C::Eco => Some(Series::new(name, eco.clone())),
        C::Opening => Some(Series::new(name, opening.clone())),
        C::TimeClass | C::Speed => Some(Series::new(name, time_class.clone())),
        C::SpeedBy => Some(Series::new(name, vec!["time control"; n])),
        C::Play => Some(Series::new(name, vec!["online"; n])),
        C::PlayBy => Some(Series::new(name, vec!["site platform"; n])),
        C::Ratings => Some(Series::new(name, vec!["lichess"; n])),
        C::RatingsBy => Some(Series::new(name, vec!["platform export"; n])),
        C::WhiteClock => Some(Series::new(name, white_clock.clone())),
        C::BlackClock => Some(Series::new(name, black_clock.clone())),
        C::Year => Some(Series::new(name, year.clone())),
        C::Moves => Some(Series::new(name, moves.clone())),
        C::Plies => Some(Series::new(name, plies.clone())),
        C::Event => Some(Series::new(name, vec!["Hand-built Test"; n])),
        C::Site => Some(Series::new(name, vec!["https://lichess.org/test"; n])),
        _ => None,
    })
}

fn stats(table: &Path, view: &str) -> serde_json::Value {
    let output = remis()
        .args([
            "stats",
            table.to_str().unwrap(),
            "--view",
            view,
            "--by-band",
            // Bands of the lower-rated player, as the oracles below count.
            "--elo-basis",
            "min",
            // Every format in the draws view (it holds one by default).
            "--play",
            "all",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    serde_json::from_slice(&succeeded(output).stdout).unwrap()
}

/// A hand-built table written to `games.parquet` in a folder of its own
/// (kept while the returned `Scratch` lives).
fn table(name: &str) -> (Scratch, std::path::PathBuf, DataFrame) {
    let dir = scratch(name);
    let path = dir.join("games.parquet");
    let df = hand_built_table(&path);
    (dir, path, df)
}

/// The band label of a rating, as the report writes it (100 wide).
fn band_label(elo: i64) -> String {
    let lo = elo / 100 * 100;
    if lo >= 3000 {
        "≥ 3000".into()
    } else {
        format!("{lo}–{}", lo + 99)
    }
}

fn rows(df: DataFrame) -> Vec<Vec<AnyValue<'static>>> {
    (0..df.height())
        .map(|i| {
            df.get_row(i)
                .unwrap()
                .0
                .into_iter()
                .map(|v| v.into_static())
                .collect()
        })
        .collect()
}

#[test]
fn outcomes_and_expected_score() {
    let (_dir, path, df) = table("outcomes");
    let got = stats(&path, "outcomes");
    // Independently: counts by band of the lower rating, and FIDE's
    // table as the rounded normal curve with sigma = 2000/7, capped at 400.
    let expected = df
        .lazy()
        .filter(
            col("white_elo")
                .is_not_null()
                .and(col("black_elo").is_not_null()),
        )
        .with_columns([
            min_horizontal([
                col("white_elo").cast(DataType::Int64),
                col("black_elo").cast(DataType::Int64),
            ])
            .unwrap()
            .alias("low"),
            (col("white_elo").cast(DataType::Int64) - col("black_elo").cast(DataType::Int64))
                .alias("d"),
        ])
        .with_column((col("low") / lit(100) * lit(100)).alias("band"))
        .group_by([col("band")])
        .agg([
            len().alias("games"),
            col("result").eq(lit("1-0")).sum().alias("white_wins"),
            col("result").eq(lit("1/2-1/2")).sum().alias("draws"),
            col("d").alias("diffs"),
        ])
        .sort(["band"], Default::default())
        .collect()
        .unwrap();
    let phi = |x: f64| 0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2));
    let fide = |d: i64| -> f64 {
        let capped = d.abs().min(400) as f64;
        let p = (100.0 * phi(capped / (2000.0 / 7.0))).round() / 100.0;
        if d >= 0 { p } else { 1.0 - p }
    };
    let mut checked = 0;
    for row in rows(expected) {
        let band = match &row[0] {
            AnyValue::Int64(b) => *b,
            v => panic!("{v:?}"),
        };
        let label = band_label(band);
        let entry = got
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["band"] == label.as_str())
            .unwrap_or_else(|| panic!("band {label} missing"));
        let games = match &row[1] {
            AnyValue::UInt32(n) => *n as u64,
            v => panic!("{v:?}"),
        };
        assert_eq!(entry["games"].as_u64().unwrap(), games, "{label}");
        let count = |v: &AnyValue| match v {
            AnyValue::UInt32(n) => *n as u64,
            AnyValue::UInt64(n) => *n,
            v => panic!("{v:?}"),
        };
        assert_eq!(
            entry["white_wins"].as_u64().unwrap(),
            count(&row[2]),
            "{label}"
        );
        assert_eq!(entry["draws"].as_u64().unwrap(), count(&row[3]), "{label}");
        let diffs: Vec<i64> = match &row[4] {
            AnyValue::List(s) => s.i64().unwrap().into_no_null_iter().collect(),
            v => panic!("{v:?}"),
        };
        let mean = diffs.iter().map(|&d| fide(d)).sum::<f64>() / diffs.len() as f64;
        let remis = entry["expected_score"].as_f64().unwrap();
        assert!(
            (remis - mean).abs() < 1e-9,
            "{label}: expected {mean}, remis {remis}"
        );
        let score = (count(&row[2]) as f64 + 0.5 * count(&row[3]) as f64) / games as f64;
        assert!((entry["white_score"].as_f64().unwrap() - score).abs() < 1e-9);
        checked += 1;
    }
    assert!(checked >= 8, "{checked} bands");
}

#[test]
fn bands_by_the_mean_rating() {
    // `--elo-basis average` panicked in polars (floor division needs a
    // feature remis does not build): the mean is integer division.
    let (_dir, path, df) = table("average");
    let output = remis()
        .args(["stats", path.to_str().unwrap(), "--elo-basis", "average"])
        .args(["--by-band", "--play", "all", "--format", "json"])
        .output()
        .unwrap();
    let got: serde_json::Value = serde_json::from_slice(&succeeded(output).stdout).unwrap();
    let expected = df
        .lazy()
        .filter(
            col("white_elo")
                .is_not_null()
                .and(col("black_elo").is_not_null())
                .and(col("ending").neq(lit("invalid"))),
        )
        .with_column(
            ((col("white_elo").cast(DataType::Int64) + col("black_elo").cast(DataType::Int64))
                / lit(2i64)
                / lit(100i64)
                * lit(100i64))
            .alias("band"),
        )
        .group_by([col("band")])
        .agg([len().alias("games")])
        .collect()
        .unwrap();
    let checked = band_games_agree(&got, expected);
    assert!(checked >= 5, "{checked} bands");
}

/// Every band of `expected` (band's lower edge, games) has its games in
/// `got`'s all-years rows; returns the bands checked.
fn band_games_agree(got: &serde_json::Value, expected: DataFrame) -> usize {
    let mut checked = 0;
    for row in rows(expected) {
        let (AnyValue::Int64(band), AnyValue::UInt32(games)) = (&row[0], &row[1]) else {
            panic!("{row:?}");
        };
        let label = band_label(*band);
        let entry = got
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["band"] == label.as_str() && r["year"] == "all")
            .unwrap_or_else(|| panic!("band {label} missing: {got}"));
        assert_eq!(entry["games"].as_u64(), Some(u64::from(*games)), "{label}");
        checked += 1;
    }
    checked
}

#[test]
fn bands_by_default_hold_players_of_the_bands_strength() {
    // In a collection of one player's games, bands by the lower-rated
    // player measure mismatches. By default a game is in the band of its
    // mean rating when the gap is at most 200, and in no band otherwise;
    // an Elo above 2900 is implausible and in no band either.
    let (_dir, _, df) = table("close");
    let elo_dir = scratch("close-elo");
    let elo_path = elo_dir.join("games.parquet");
    let mut df = df
        .lazy()
        .with_column(lit("elo").alias("ratings"))
        .collect()
        .unwrap();
    ParquetWriter::new(File::create(&elo_path).unwrap())
        .finish(&mut df)
        .unwrap();
    let output = remis()
        .args(["stats", elo_path.to_str().unwrap(), "--by-band"])
        .args(["--play", "all", "--format", "json"])
        .output()
        .unwrap();
    let got: serde_json::Value = serde_json::from_slice(&succeeded(output).stdout).unwrap();
    let w = col("white_elo").cast(DataType::Int64);
    let b = col("black_elo").cast(DataType::Int64);
    let counted = df
        .clone()
        .lazy()
        .filter(
            col("ending")
                .neq(lit("invalid"))
                .and(col("result").is_not_null()),
        )
        .with_columns([
            when(w.clone().is_null().or(b.clone().is_null()))
                .then(lit("unrated"))
                .when(w.clone().gt(lit(2900i64)).or(b.clone().gt(lit(2900i64))))
                .then(lit("implausible rating"))
                .when(
                    (w.clone() - b.clone())
                        .gt(lit(200i64))
                        .or((b.clone() - w.clone()).gt(lit(200i64))),
                )
                .then(lit("players apart"))
                .otherwise(lit("in a band"))
                .alias("kind"),
            ((w.clone() + b.clone()) / lit(2i64) / lit(100i64) * lit(100i64)).alias("band"),
        ])
        .collect()
        .unwrap();
    let by_kind = counted
        .clone()
        .lazy()
        .group_by([col("kind")])
        .agg([len().alias("games")])
        .collect()
        .unwrap();
    let mut checked = 0;
    for row in rows(by_kind) {
        let (AnyValue::StringOwned(kind), AnyValue::UInt32(games)) = (&row[0], &row[1]) else {
            panic!("{row:?}");
        };
        if kind.as_str() == "in a band" {
            continue;
        }
        let entry = got
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["band"] == kind.as_str() && r["year"] == "all")
            .unwrap_or_else(|| panic!("{kind} missing: {got}"));
        assert_eq!(entry["games"].as_u64(), Some(u64::from(*games)), "{kind}");
        assert!(*games > 0, "the table has games that are {kind}");
        checked += 1;
    }
    assert_eq!(checked, 3, "unrated, apart and implausible all counted");
    let in_bands = counted
        .lazy()
        .filter(col("kind").eq(lit("in a band")))
        .group_by([col("band")])
        .agg([len().alias("games")])
        .collect()
        .unwrap();
    checked += band_games_agree(&got, in_bands);
    assert!(checked >= 8, "{checked} bands");
}

/// The error function, for the normal curve (Abramowitz and Stegun 7.1.26
/// is too coarse for rounding to hundredths; this series converges).
fn erf(x: f64) -> f64 {
    let mut sum = 0.0;
    let mut term = x;
    let mut n = 0.0;
    while term.abs() > 1e-17 || n < 5.0 {
        sum += term / (2.0 * n + 1.0);
        n += 1.0;
        term *= -x * x / n;
        if n > 200.0 {
            break;
        }
    }
    2.0 / std::f64::consts::PI.sqrt() * sum
}

#[test]
fn rating_gap_openings_time_classes_and_clocks() {
    let (_dir, path, df) = table("others");
    // Rating gap: mean rating band × gap bin.
    let gap = stats(&path, "gap");
    let by_cell = df
        .clone()
        .lazy()
        .filter(
            col("white_elo")
                .is_not_null()
                .and(col("black_elo").is_not_null()),
        )
        .with_columns([
            ((col("white_elo").cast(DataType::Int64) + col("black_elo").cast(DataType::Int64))
                / lit(2)
                / lit(100)
                * lit(100))
            .alias("mean"),
            (col("white_elo").cast(DataType::Int64) - col("black_elo").cast(DataType::Int64))
                .alias("d"),
        ])
        .group_by([col("mean"), col("d")])
        .agg([
            len().alias("n"),
            col("result").eq(lit("1/2-1/2")).sum().alias("draws"),
        ])
        .collect()
        .unwrap();
    let edges = [50, 100, 150, 200, 300, 400];
    let mut cells: std::collections::BTreeMap<(String, usize), (u64, u64)> = Default::default();
    for row in rows(by_cell) {
        let (AnyValue::Int64(mean), AnyValue::Int64(d)) = (&row[0], &row[1]) else {
            panic!()
        };
        let bin = edges.iter().take_while(|&&e| d.abs() >= e).count();
        let n = match &row[2] {
            AnyValue::UInt32(n) => *n as u64,
            v => panic!("{v:?}"),
        };
        let draws = match &row[3] {
            AnyValue::UInt32(n) => *n as u64,
            AnyValue::UInt64(n) => *n,
            v => panic!("{v:?}"),
        };
        let cell = cells.entry((band_label(*mean), bin)).or_default();
        cell.0 += n;
        cell.1 += draws;
    }
    let labels = [
        "0–49",
        "50–99",
        "100–149",
        "150–199",
        "200–299",
        "300–399",
        "≥ 400",
    ];
    let got: Vec<((String, usize), (u64, u64))> = gap
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let bin = labels.iter().position(|l| r["gap"] == *l).unwrap();
            (
                (r["mean_rating"].as_str().unwrap().to_string(), bin),
                (r["games"].as_u64().unwrap(), r["draws"].as_u64().unwrap()),
            )
        })
        .collect();
    assert_eq!(got, cells.into_iter().collect::<Vec<_>>());

    // Openings: every ECO group's games and draws.
    let openings = stats(&path, "openings");
    for eco in ["B12", "C42", "D37", "A00"] {
        let counts = df
            .clone()
            .lazy()
            .filter(col("eco").eq(lit(eco)))
            .select([
                len().alias("n"),
                col("result").eq(lit("1/2-1/2")).sum().alias("d"),
            ])
            .collect()
            .unwrap();
        let n = counts.column("n").unwrap().u32().unwrap().get(0).unwrap() as u64;
        let d = counts.column("d").unwrap().u32().unwrap().get(0).unwrap() as u64;
        let row = openings
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["by"] == "eco" && r["opening"] == eco)
            .unwrap();
        assert_eq!(
            (
                row["games"].as_u64().unwrap(),
                row["draws"].as_u64().unwrap()
            ),
            (n, d),
            "{eco}"
        );
    }

    // Time classes: every class's games and draws.
    let classes = stats(&path, "time-classes");
    for class in ["blitz", "bullet", "rapid"] {
        let counts = df
            .clone()
            .lazy()
            .filter(col("time_class").eq(lit(class)))
            .select([
                len().alias("n"),
                col("result").eq(lit("1/2-1/2")).sum().alias("d"),
            ])
            .collect()
            .unwrap();
        let n = counts.column("n").unwrap().u32().unwrap().get(0).unwrap() as u64;
        let row = classes
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["time_class"] == class && r["band"] == "all")
            .unwrap();
        assert_eq!(row["games"].as_u64().unwrap(), n, "{class}");
    }

    // Clocks: agreed draws by the lower clock, games won on time by the
    // winner's clock.
    let clocks = stats(&path, "clocks");
    let edges = [10.0f32, 30.0, 60.0, 180.0, 600.0];
    let bin = |s: f32| edges.iter().take_while(|&&e| s >= e).count();
    let (mut agreed, mut flags) = ([0u64; 7], [0u64; 7]);
    let white_clock: Vec<Option<f32>> = df
        .column("white_clock")
        .unwrap()
        .f32()
        .unwrap()
        .iter()
        .collect();
    let black_clock: Vec<Option<f32>> = df
        .column("black_clock")
        .unwrap()
        .f32()
        .unwrap()
        .iter()
        .collect();
    let ending: Vec<Option<&str>> = df.column("ending").unwrap().str().unwrap().iter().collect();
    let result: Vec<Option<&str>> = df.column("result").unwrap().str().unwrap().iter().collect();
    for i in 0..df.height() {
        if ending[i] == Some("agreed") {
            match white_clock[i].zip(black_clock[i]) {
                Some((w, b)) => agreed[bin(w.min(b))] += 1,
                None if white_clock[i].is_none() || black_clock[i].is_none() => {
                    // One clock missing: the lower clock is the other one's
                    // or none; remis takes the comparison as missing.
                    agreed[6] += 1;
                }
                None => unreachable!(),
            }
        } else if ending[i] == Some("time_forfeit") {
            let winner = if result[i] == Some("1-0") {
                white_clock[i]
            } else {
                black_clock[i]
            };
            match winner {
                Some(s) => flags[bin(s)] += 1,
                None => flags[6] += 1,
            }
        }
    }
    let got = |what: &str, k: usize| -> u64 {
        clocks
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["games"].as_str().unwrap().starts_with(what))
            .nth(k)
            .unwrap()["count"]
            .as_u64()
            .unwrap()
    };
    for k in 0..7 {
        assert_eq!(got("agreed", k), agreed[k], "agreed bin {k}");
        assert_eq!(got("won on time", k), flags[k], "flag bin {k}");
    }
}

/// Issue 47: the page says whose games each section counts, and counts
/// them. On the sample (lichess games of several speeds, so the lead
/// population is one format of several): every section that counts games
/// says whose under its heading; the lead sections' totals are the lead
/// population's, the same number in the headline, in "How to cite", in
/// the outcomes table's "all" row and in `stats` (every view names its
/// population in JSON and CSV), and that number is what polars counts in
/// the table for the lead format.
#[test]
fn every_section_counts_the_population_it_names() {
    let dir = scratch("populations");
    let out = dir.join("sample");
    common::succeed(
        "classify",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &out,
    );
    let page_path = dir.join("report.html");
    common::succeed("report", &out, &page_path);
    let page = std::fs::read_to_string(&page_path).unwrap();
    let number = |text: &str| -> u64 {
        text.chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap_or_else(|_| panic!("no number in {text:?}"))
    };
    let attribute = |text: &str, name: &str| -> Option<String> {
        let at = text.find(&format!("{name}=\""))? + name.len() + 2;
        Some(text[at..at + text[at..].find('"')?].to_string())
    };

    // The lead format and its games, as the table holds them.
    let drawn = default_stats(&out.join("games.parquet"), "draws");
    let rows = drawn.as_array().unwrap();
    let all = rows
        .iter()
        .find(|r| r["band"] == "all" && r["year"] == "all")
        .expect("an all/all row");
    let lead_games = all["games"].as_u64().unwrap();
    let statement = all["population"]
        .as_str()
        .expect("draws JSON names its population");
    assert!(statement.starts_with("online "), "{statement}");
    let speed = statement["online ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let table = common::read_table(&out.join("games.parquet"));
    let counted = table
        .lazy()
        .filter(
            col("play")
                .eq(lit("online"))
                .and(col("speed").eq(lit(speed.as_str())))
                .and(col("ending").neq(lit("invalid")))
                .and(col("ending").neq(lit("unfinished")))
                .and(col("ending").neq(lit("unsupported_variant")))
                .and(
                    col("variant")
                        .is_null()
                        .or(col("variant").eq(lit("standard"))),
                ),
        )
        .collect()
        .unwrap()
        .height() as u64;
    let used = rows
        .iter()
        .filter(|r| r["year"] == "all" && r["band"] != "all")
        .map(|r| r["games"].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(used, lead_games, "the bands add up to the all row");
    assert!(
        counted >= lead_games && lead_games > 0,
        "polars {counted}, remis {lead_games}"
    );

    // Every section that counts games says whose, once, under its heading.
    let mut whose_seen = 0;
    for part in page.split("<section id=\"").skip(1) {
        let id = &part[..part.find('"').unwrap()];
        let body = &part[..part.find("</section>").unwrap_or(part.len())];
        let lines = body.matches("<p class=\"population\"").count();
        // The sample's lead (one online format) is not over-the-board classical:
        // its Players section counts every game used.
        let expected = remis_report::render::html::whose(id, false);
        assert_eq!(
            lines,
            usize::from(expected.is_some()),
            "section {id}: {lines} population lines"
        );
        let Some(expected) = expected else { continue };
        whose_seen += 1;
        let line = &body[body.find("<p class=\"population\"").unwrap()..];
        let games: u64 = attribute(line, "data-games").unwrap().parse().unwrap();
        let who = attribute(line, "data-whose").unwrap();
        match expected {
            remis_report::render::html::Whose::Lead => {
                assert_eq!(who, "lead", "{id}");
                assert_eq!(games, lead_games, "{id}");
            }
            _ => assert_ne!(
                games, lead_games,
                "{id}: the sample's lead is not every game"
            ),
        }
        // A lead table's "all" row counts the lead population.
        if id == "outcomes" {
            let row = &body[body
                .find("<td class=\"l\">All</td>")
                .expect("outcomes' All row")..];
            let cell = &row[row.find("<td>").unwrap() + 4..];
            let cell = &cell[..cell.find("</td>").unwrap()];
            assert_eq!(number(cell), lead_games, "outcomes' all row: {cell}");
        }
    }
    assert!(whose_seen >= 15, "{whose_seen} sections say whose");

    // The headline, How to cite and every stats view agree.
    let headline = &page[page.find("Games counted<b>").unwrap() + 16..];
    assert_eq!(
        number(&headline[..headline.find("</b>").unwrap()]),
        lead_games
    );
    let cite = &page[page.find("Draw report of ").unwrap() + 15..];
    assert_eq!(
        number(&cite[..cite.find(" games").unwrap()]),
        lead_games,
        "How to cite"
    );
    for view in [
        "outcomes",
        "gap",
        "openings",
        "time-classes",
        "players",
        "clocks",
    ] {
        let json = default_stats(&out.join("games.parquet"), view);
        for row in json.as_array().unwrap() {
            assert!(row["population"].is_string(), "{view}: {row}");
        }
    }
    // The audit is one document, not rows: it names its population too.
    let audit = default_stats(&out.join("games.parquet"), "audit");
    assert!(
        audit["population"]
            .as_str()
            .is_some_and(|p| p.contains("every game used")),
        "{audit}"
    );
    let outcomes = default_stats(&out.join("games.parquet"), "outcomes");
    let all = outcomes
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["band"] == "all" && r["year"] == "all")
        .unwrap();
    assert_eq!(
        all["games"].as_u64().unwrap(),
        lead_games,
        "stats --view outcomes"
    );
}

/// `remis stats TABLE --view VIEW --format json` with the default flags.
fn default_stats(table: &Path, view: &str) -> serde_json::Value {
    let output = remis()
        .args([
            "stats",
            table.to_str().unwrap(),
            "--view",
            view,
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    serde_json::from_slice(&succeeded(output).stdout).unwrap()
}

/// The charts of a page (`<figure>`s holding a chart's `<svg>`) that have
/// no numbers beside them: in each section, every chart needs a CSV
/// download of its own, or a link to the part of the page that holds its
/// numbers with one. Returns "section: n charts, m tables" for each
/// section short of tables.
fn charts_without_numbers(page: &str) -> Vec<String> {
    let sections: Vec<(&str, &str)> = page
        .split("<section id=\"")
        .skip(1)
        .map(|s| {
            let id = &s[..s.find('"').unwrap()];
            let body = &s[..s.find("</section>").unwrap_or(s.len())];
            (id, body)
        })
        .collect();
    let csv = "<p class=\"csv\"><a download=";
    // Where every part of the page with a CSV is: its section and any id
    // inside it.
    let with_csv: Vec<&str> = sections
        .iter()
        .filter(|(_, body)| body.contains(csv))
        .map(|(id, _)| *id)
        .collect();
    let mut short = Vec::new();
    for (id, body) in &sections {
        let charts = body
            .split("<figure")
            .skip(1)
            .filter(|f| {
                let f = &f[..f.find("</figure>").unwrap()];
                f.contains("<svg role=\"img\"")
            })
            .count();
        let links = body
            .split("<a href=\"#")
            .skip(1)
            .filter(|l| with_csv.contains(&&l[..l.find('"').unwrap()]))
            .count();
        let tables = body.matches(csv).count() + links;
        if charts > tables {
            short.push(format!("{id}: {charts} charts, {tables} tables"));
        }
    }
    short
}

#[test]
fn every_chart_has_its_table_and_csv() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("chart-tables");
    let mut ids = std::collections::BTreeSet::new();
    for (name, source, extra) in [
        // Lichess games: time classes, online play, every game's length.
        ("sample", root.join("data/lichess-sample.pgn.zst"), vec![]),
        // Generated games over three decades, with the rule study's events,
        // and decades as bins.
        (
            "synthetic",
            root.join("tests/data/synthetic-3000.pgn.zst"),
            vec![
                "--events".to_string(),
                root.join("tests/data/events-synthetic.toml")
                    .to_string_lossy()
                    .into_owned(),
                "--year-bins".into(),
                "10:2010".into(),
            ],
        ),
    ] {
        let out = dir.join(name);
        common::succeed("classify", &source, &out);
        let page_path = out.join("report.html");
        succeeded(
            remis()
                .arg("report")
                .arg(&out)
                .arg("--out")
                .arg(&page_path)
                .args(&extra)
                .output()
                .unwrap(),
        );
        let page = std::fs::read_to_string(&page_path).unwrap();
        let short = charts_without_numbers(&page);
        assert!(
            short.is_empty(),
            "{name}: charts without a table: {short:?}"
        );
        for chart in page.split("aria-labelledby=\"").skip(1) {
            ids.insert(chart[..chart.find("-title").unwrap()].to_string());
        }
    }
    // Every chart of the page was seen, so that the check is not empty.
    for id in [
        "chart-year",
        "chart-year-standardised",
        "chart-band",
        "chart-mix",
        "chart-length",
        "chart-all-lengths",
        "chart-score",
        "chart-gap",
        "chart-expected",
        "chart-time-class",
        "chart-mix-class",
        "chart-play",
        "chart-rules",
    ] {
        assert!(ids.contains(id), "{id} not drawn: {ids:?}");
    }
    // The check finds a chart without a table.
    let bare = "<section id=\"x\"><figure><svg role=\"img\"></svg></figure></section>";
    assert_eq!(charts_without_numbers(bare), ["x: 1 charts, 0 tables"]);
}

/// Issue 47: the page says what kind of sample it counts. A folder of
/// players' files (each named after the player whose games it holds) is
/// said to be one, with each band's share of games of a collected player;
/// the lichess sample is a platform's export.
#[test]
fn the_page_says_what_kind_of_sample_it_is() {
    let dir = scratch("sample-kind");
    let files = dir.join("players");
    std::fs::create_dir_all(&files).unwrap();
    let game = |white: &str, black: &str, round: usize| {
        format!(
            "[Event \"Open\"]\n[Site \"Riga\"]\n[Date \"1960.01.01\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"1/2-1/2\"]\n[WhiteElo \"2600\"]\n[BlackElo \"2620\"]\n\n\
             1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n"
        )
    };
    let tal: String = (0..40)
        .map(|i| game("Tal, Mikhail", &format!("Opponent{i}, A"), i))
        .collect();
    let keres: String = (0..40)
        .map(|i| game(&format!("Rival{i}, B"), "Keres,P", i))
        .collect();
    let other: String = (0..10)
        .map(|i| game(&format!("X{i}, C"), &format!("Y{i}, D"), i))
        .collect();
    std::fs::write(files.join("Tal.pgn"), tal + &other).unwrap();
    std::fs::write(files.join("Keres.pgn"), keres).unwrap();
    let out = dir.join("out");
    common::succeed("classify", &files, &out);
    let page = dir.join("report.html");
    common::succeed("report", &out, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    let note = &html[html.find("id=\"sample-kind\"").expect("a sample note")..];
    assert!(
        note.contains("a collection of players' files"),
        "{}",
        &note[..400]
    );
    // 80 of the 90 games have Tal or Keres.
    assert!(note.contains("80 of its 90 games"), "{}", &note[..400]);
    let share = &html[html.find("id=\"sample-share\"").expect("the share by band")..];
    assert!(share.contains("sample-share-by-band.csv"));

    let sample = dir.join("sample");
    common::succeed(
        "classify",
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &sample,
    );
    let page = dir.join("sample.html");
    common::succeed("report", &sample, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("a platform's export"));
    assert!(!html.contains("id=\"sample-share\""));
}

/// Issue 47: the lead band table with and without the games classical
/// only by presumption. Forty over-the-board games with a classical time
/// control (all drawn) and forty with none (all decisive): the table gives
/// both rates for their band.
#[test]
fn the_band_table_is_shown_without_the_presumed_classical_games() {
    let dir = scratch("sensitivity");
    let game = |i: usize, time_control: Option<&str>, result: &str| {
        let tc = time_control.map_or(String::new(), |t| format!("[TimeControl \"{t}\"]\n"));
        format!(
            "[Event \"Club ch\"]\n[Site \"Riga LAT\"]\n[Date \"2010.01.01\"]\n[Round \"{i}\"]\n[White \"W{i}, A\"]\n\
             [Black \"B{i}, B\"]\n[Result \"{result}\"]\n[WhiteElo \"2200\"]\n[BlackElo \"2210\"]\n{tc}\n\
             1. e4 e5 2. Nf3 Nc6 {result}\n\n"
        )
    };
    let text: String = (0..40)
        .map(|i| game(i, Some("5400+30"), "1/2-1/2"))
        .chain((40..80).map(|i| game(i, None, "1-0")))
        .collect();
    let input = dir.join("club.pgn");
    std::fs::write(&input, text).unwrap();
    let out = dir.join("out");
    common::succeed("classify", &input, &out);
    let table = common::read_table(&out.join("games.parquet"));
    let by = common::strings(&table, "speed_by");
    assert_eq!(
        by.iter()
            .filter(|b| b.as_deref() == Some("presumed"))
            .count(),
        40,
        "{by:?}"
    );
    let page = dir.join("report.html");
    common::succeed("report", &out, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    let table = &html[html
        .find("id=\"sensitivity-table\"")
        .expect("a sensitivity table")..];
    let row = &table[table.find("2200–2299").expect("the band's row")..];
    let row = &row[..row.find("</tr>").unwrap()];
    // 80 games at 50 %; by evidence 40 at 100 %: +50 points.
    assert!(
        row.contains("<td>80</td><td>50.0%</td><td>40</td><td>100.0%</td><td>+50.0</td>"),
        "{row}"
    );
}

/// Issue 47: the Players section and the length chart count the lead
/// population, as the band tables do. Two players meet in three
/// over-the-board classical games and four blitz games of the same club,
/// two others in two classical games: by default each player's games are
/// her classical ones (the blitz draws left out, as the lead figures
/// leave them out), and with `--play all` every game; the page's Players
/// section says it counts the lead population, and its length table adds
/// up to the lead's games.
#[test]
fn the_players_and_the_lengths_are_the_lead_populations() {
    let dir = scratch("lead-players");
    let game = |white: &str, black: &str, result: &str, control: &str, round: usize| {
        format!(
            "[Event \"Club\"]\n[Site \"Berlin GER\"]\n[Date \"2001.05.01\"]\n[Round \"{round}\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[WhiteElo \"2600\"]\n\
             [BlackElo \"2610\"]\n[TimeControl \"{control}\"]\n\n1. e4 e5 2. Nf3 Nc6 {result}\n\n"
        )
    };
    let mut pgn = String::new();
    for (round, result) in ["1/2-1/2", "1-0", "0-1"].into_iter().enumerate() {
        pgn += &game("Alpha, Anna", "Beta, Berta", result, "5400+30", round);
    }
    for (round, result) in ["1/2-1/2", "1/2-1/2", "1-0", "0-1"].into_iter().enumerate() {
        pgn += &game("Alpha, Anna", "Beta, Berta", result, "180+2", 10 + round);
    }
    for (round, result) in ["1/2-1/2", "1-0"].into_iter().enumerate() {
        pgn += &game("Gamma, Carl", "Delta, Dora", result, "5400+30", 20 + round);
    }
    let source = dir.join("games.pgn");
    std::fs::write(&source, pgn).unwrap();
    let out = dir.join("out");
    common::succeed("classify", &source, &out);

    // Each player's games and draws, as polars counts them in the table.
    let df = LazyFrame::scan_parquet(
        PlRefPath::new(out.join("games.parquet").to_str().unwrap()),
        Default::default(),
    )
    .unwrap()
    .collect()
    .unwrap();
    let counted = |player: &str, classical_only: bool| -> (u64, u64) {
        let mut rows = df.clone().lazy().filter(
            col("white")
                .eq(lit(player))
                .or(col("black").eq(lit(player))),
        );
        if classical_only {
            rows = rows.filter(col("speed").eq(lit("classical")));
        }
        let rows = rows.collect().unwrap();
        let results = rows
            .column("result")
            .unwrap()
            .cast(&DataType::String)
            .unwrap();
        let results = results.str().unwrap();
        let draws = (0..results.len())
            .filter(|&i| results.get(i) == Some("1/2-1/2"))
            .count() as u64;
        (rows.height() as u64, draws)
    };
    let players = |extra: &[&str]| -> serde_json::Value {
        let output = remis()
            .args(["stats", out.to_str().unwrap(), "--view", "players"])
            .args(["--format", "json"])
            .args(extra)
            .output()
            .unwrap();
        serde_json::from_slice(&succeeded(output).stdout).unwrap()
    };
    let row = |rows: &serde_json::Value, player: &str| -> (u64, u64, String) {
        let row = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["player"] == player)
            .unwrap_or_else(|| panic!("{player} in {rows}"));
        (
            row["games"].as_u64().unwrap(),
            row["draws"].as_u64().unwrap(),
            row["population"].as_str().unwrap().to_string(),
        )
    };
    let lead = players(&[]);
    let (games, draws, population) = row(&lead, "Alpha, Anna");
    assert_eq!((games, draws), counted("Alpha, Anna", true));
    assert_eq!(games, 3, "her classical games only");
    assert!(
        population.starts_with("over-the-board classical games: 5 of the 9"),
        "{population}"
    );
    let every = players(&["--play", "all"]);
    let (games, draws, _) = row(&every, "Alpha, Anna");
    assert_eq!((games, draws), counted("Alpha, Anna", false));
    assert_eq!(games, 7);

    let page = dir.join("report.html");
    common::succeed("report", &out, &page);
    let html = std::fs::read_to_string(&page).unwrap();
    let section = &html[html
        .find("<section id=\"players\">")
        .expect("players of the lead")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(
        section.contains("data-whose=\"lead\" data-games=\"5\""),
        "{section}"
    );
    assert!(section.contains("play the 5 games counted"), "{section}");
    // The length chart's numbers: the lead's 5 games, not the 9 used.
    let table_start = html
        .find("The chart's numbers: the games counted by length")
        .expect("the length chart's table");
    let table = &html[table_start..];
    let table = &table[..table.find("</table>").unwrap()];
    let games_column: u64 = table
        .split("<tr>")
        .skip(2)
        .filter_map(|row| {
            let cell = row.split("<td>").nth(1)?;
            cell[..cell.find("</td>")?]
                .replace(',', "")
                .parse::<u64>()
                .ok()
        })
        .sum();
    assert_eq!(games_column, 5, "{table}");
}
