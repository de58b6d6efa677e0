//! `remis sofia` end to end on generated games: a series that adopted a
//! rule against draws by agreement, its editions before and a control
//! series, counted again from the table.

use crate::common;
use common::{read_table, remis, scratch, strings, succeeded, synthetic_pgn};

#[test]
fn sofia_study_compares_rule_events_with_controls() {
    let dir = scratch("sofia");
    // Two of the generated series play a series that adopted a rule in
    // 2004 and a control.
    let pgn = String::from_utf8(synthetic_pgn())
        .unwrap()
        .replace("Synthetic Open", "Rule Masters")
        .replace("Synthetic Round Robin", "Control Round Robin");
    std::fs::write(dir.join("games.pgn"), pgn).unwrap();
    succeeded(
        remis()
            .arg("classify")
            .arg(dir.join("games.pgn"))
            .arg("--out")
            .arg(dir.join("out"))
            .output()
            .unwrap(),
    );
    let table = read_table(&dir.join("out/games.parquet"));
    std::fs::write(
        dir.join("events.toml"),
        "[[event]]\nseries = 'Rule'\nevent = 'rule masters'\nyears = [2004, 2012]\nno_draw_offers = true\nsource = 'test'\n\n\
         [[event]]\nseries = 'Rule'\nevent = 'rule masters'\nyears = [1995, 2003]\ncontrol = true\nsource = 'test'\n\n\
         [[event]]\nseries = 'Control'\nevent = 'control round robin'\nyears = [1995, 2012]\ncontrol = true\nsource = 'test'\n",
    )
    .unwrap();
    let output = remis()
        .args(["sofia", "--format", "json", "--events"])
        .arg(dir.join("events.toml"))
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let study: serde_json::Value = serde_json::from_slice(&succeeded(output).stdout).unwrap();
    // Independently: the games and draws of each group, from the table.
    let events = strings(&table, "event");
    let results = strings(&table, "result");
    let years: Vec<Option<i16>> = table
        .column("year")
        .unwrap()
        .i16()
        .unwrap()
        .iter()
        .collect();
    let group = |prefix: &str, range: std::ops::RangeInclusive<i16>| -> (f64, f64) {
        let (mut n, mut d) = (0.0, 0.0);
        for i in 0..events.len() {
            let event = events[i].as_deref().unwrap_or_default();
            if event.starts_with(prefix) && years[i].is_some_and(|y| range.contains(&y)) {
                n += 1.0;
                if results[i].as_deref() == Some("1/2-1/2") {
                    d += 1.0;
                }
            }
        }
        (n, d)
    };
    let (rule_n, rule_d) = group("Rule Masters", 2004..=2012);
    let (before_n, before_d) = group("Rule Masters", 1995..=2003);
    let (control_after_n, control_after_d) = group("Control Round Robin", 2004..=2012);
    let (control_before_n, control_before_d) = group("Control Round Robin", 1995..=2003);
    assert_eq!(study["regimes"]["sofia"]["games"].as_f64().unwrap(), rule_n);
    assert_eq!(
        study["regimes"]["none"]["games"].as_f64().unwrap(),
        before_n + control_after_n + control_before_n
    );
    let change = &study["changes"][0];
    assert_eq!(change["series"], "Rule");
    let did = (rule_d / rule_n - before_d / before_n)
        - (control_after_d / control_after_n - control_before_d / control_before_n);
    let raw = change["effects"][0]["raw"]["estimate"].as_f64().unwrap();
    assert!((raw - did).abs() < 1e-9, "{raw} against {did}");
    // Eighteen yearly editions per group: intervals exist and hold the estimate.
    let low = change["effects"][0]["raw"]["ci95_low"].as_f64().unwrap();
    let high = change["effects"][0]["raw"]["ci95_high"].as_f64().unwrap();
    assert!(low <= raw && raw <= high, "{low} {raw} {high}");
    // Against the controls: every rule pooled, then Sofia rules on their
    // own; the raw difference is the rule editions' draw rate minus all
    // control editions'.
    let estimates = study["estimates"].as_array().unwrap();
    assert_eq!(estimates[0]["regime"], "pooled");
    let sofia = estimates
        .iter()
        .find(|e| e["regime"] == "sofia")
        .expect("a Sofia-only estimate");
    let controls_n = before_n + control_after_n + control_before_n;
    let controls_d = before_d + control_after_d + control_before_d;
    let expected = rule_d / rule_n - controls_d / controls_n;
    let draws = &sofia["measures"][0];
    assert_eq!(draws["measure"], "Draw rate");
    let raw = draws["raw"]["estimate"].as_f64().unwrap();
    assert!((raw - expected).abs() < 1e-9, "{raw} against {expected}");
    assert_eq!(draws["raw"]["editions_rule"], 9);
    assert_eq!(draws["raw"]["editions_control"], 27);
    for kind in ["raw", "adjusted"] {
        let e = &draws[kind];
        let (lo, mid, hi) = (
            e["ci95_low"].as_f64().unwrap(),
            e["estimate"].as_f64().unwrap(),
            e["ci95_high"].as_f64().unwrap(),
        );
        assert!(lo <= mid && mid <= hi, "{kind}: {lo} {mid} {hi}");
    }
    // The matching is stated: the window and what it kept.
    assert_eq!(study["match_window"]["years"], 2);
    assert!(sofia["matched_controls"].as_u64().unwrap() <= 27);
    // The primary model's interval follows its own coverage simulation
    // (issue 49): shown exactly when the regime's identifying editions
    // reach the minimum it sets, the data's own count among those
    // simulated.
    let primary = &study["primary"];
    let interval = &primary["interval"];
    let by_count = interval["coverage_simulation"]["by_count"]
        .as_array()
        .unwrap();
    let identifying = primary["identifying_editions"]["sofia"].as_u64().unwrap();
    assert!(
        by_count
            .iter()
            .any(|c| c["identifying_editions"].as_u64() == Some(identifying)),
        "{interval}"
    );
    let minimum = interval["min_editions"].as_u64();
    let draw_rate = &primary["effects"][0];
    assert_eq!(draw_rate["measure"], "Draw rate");
    assert_eq!(
        draw_rate["effect"]["ci95_low"].is_number(),
        minimum.is_some_and(|m| identifying >= m),
        "{interval}"
    );
    // The report shows the same Sofia-only numbers as `remis sofia`.
    let page = dir.join("report.html");
    succeeded(
        remis()
            .args(["report", "--events"])
            .arg(dir.join("events.toml"))
            .arg(dir.join("out"))
            .arg("--out")
            .arg(&page)
            .output()
            .unwrap(),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"rule-model-coverage\""));
    let effects = &html[html
        .find("id=\"rule-effects\"")
        .expect("the estimates' table")..];
    let effects = &effects[..effects.find("</table>").unwrap()];
    let sofia_rows = &effects[effects
        .find("No draw offers (Sofia rules)")
        .expect("a Sofia block")..];
    let point = |v: &serde_json::Value| format!("{:+.1}", v.as_f64().unwrap() * 100.0);
    for kind in ["raw", "adjusted"] {
        let shown = point(&draws[kind]["estimate"]);
        assert!(
            sofia_rows.contains(&shown),
            "{kind} {shown} not in the report's Sofia rows"
        );
    }
    // The text output says what the estimate means and cannot show.
    let text = remis()
        .args(["sofia", "--events"])
        .arg(dir.join("events.toml"))
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("difference in differences")
            && text.contains("cannot show")
            && text.contains("No draw offers (Sofia rules): 9 rule editions")
            && text.contains("within pairs"),
        "{text}"
    );
}
