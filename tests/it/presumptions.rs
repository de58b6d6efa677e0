//! What the search filter presumes without searching (docs/rules.md, "Where
//! remis searches") is said so in the table, counted by the audit, and
//! never overturns a recorded result.

use crate::common;

use common::*;

fn game(round: u32, result: &str, termination: &str, fen: &str, moves: &str) -> String {
    format!(
        "[Event \"Presumptions\"]\n[Site \"remis tests\"]\n[Date \"2024.01.09\"]\n[Round \"{round}\"]\n\
         [White \"White, {round}\"]\n[Black \"Black, {round}\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2000\"]\n\
         [Result \"{result}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n[Termination \"{termination}\"]\n\n{moves} {result}\n\n"
    )
}

#[test]
fn presumptions_are_labelled_counted_and_never_overturn_a_record() {
    let dir = scratch("presumed");
    let rook = "8/8/4k3/8/8/3K4/5R2/8 w - - 0 60";
    // Black's six pawns are blocked or step into blocked files, its bishops
    // are shut in, and White's king keeps Black's in: Black can never mate
    // (one of CHA-Solver's known-answer positions, after 60...a5).
    let walled = "Bb1k1b2/bKp1p1p1/ppP1P1P1/1P6/6P1/P7/8/8 b - - 0 60";
    let pgn = [
        // 1. A resignation in an open rook ending: alive, presumed so.
        game(1, "1-0", "Normal", rook, "60. Rf3"),
        // 2. A win on time with that rook: White presumed able to mate.
        game(2, "1-0", "Time forfeit", rook, "60. Rf3"),
        // 3. A draw on time with the walled pawns: searched, kept.
        game(3, "1/2-1/2", "Time forfeit", walled, "60... a5"),
        // 4. A draw on time where the rook's side can mate: searched, and
        //    the helpmate found overturns the draw.
        game(4, "1/2-1/2", "Time forfeit", rook, "60. Rf3"),
    ]
    .concat();
    let input = dir.join("games.pgn");
    std::fs::write(&input, pgn).unwrap();
    let table = dir.join("games.parquet");
    succeeded(
        remis()
            .args(["classify", input.to_str().unwrap(), "--out"])
            .arg(&table)
            .output()
            .unwrap(),
    );
    let df = read_table(&table);
    let deadness = strings(&df, "final_position_deadness");
    let flag = strings(&df, "flag_opponent_can_mate");
    let reason = strings(&df, "mismatch_reason");
    let some = |s: &str| Some(s.to_string());
    assert_eq!(deadness[0], some("presumed_alive"));
    assert_eq!(flag[0], None);
    assert_eq!(flag[1], some("presumed_possible"));
    assert_eq!(reason[1], None, "a presumed win on time stands");
    assert_eq!(flag[2], some("impossible"));
    assert_eq!(reason[2], None, "the draw on time stands");
    assert_eq!(flag[3], some("possible"));
    assert_eq!(reason[3], some("draw_on_time_with_mate"));

    // The audit counts the presumptions the table holds.
    let count = |column: &[Option<String>], value: &str| {
        column
            .iter()
            .filter(|v| v.as_deref() == Some(value))
            .count()
    };
    let out = succeeded(
        remis()
            .args(["stats", table.to_str().unwrap(), "--audit"])
            .output()
            .unwrap(),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let line = format!(
        "not searched, presumed: {} final positions alive, {} flag falls with the opponent able to mate",
        count(&deadness, "presumed_alive"),
        count(&flag, "presumed_possible")
    );
    assert!(text.contains(&line), "{line}\n{text}");
    let json = succeeded(
        remis()
            .args([
                "stats",
                table.to_str().unwrap(),
                "--audit",
                "--format",
                "json",
            ])
            .output()
            .unwrap(),
    );
    let audit: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(audit["presumed_mateable"], 1);

    // --exact (issue 50): the full search everywhere at the solver's
    // budget, as --search-everywhere --search-nodes 16777216 is: no verdict
    // is presumed, and the two give the same table.
    let classify = |name: &str, flags: &[&str]| {
        let out = dir.join(name);
        succeeded(
            remis()
                .args(["classify", input.to_str().unwrap(), "--out"])
                .arg(&out)
                .args(flags)
                .output()
                .unwrap(),
        );
        read_table(&out)
    };
    let exact = classify("exact.parquet", &["--exact"]);
    let spelled = classify(
        "spelled.parquet",
        &["--search-everywhere", "--search-nodes", "16777216"],
    );
    for column in [
        "final_position_deadness",
        "flag_opponent_can_mate",
        "mismatch_reason",
        "ending",
    ] {
        assert_eq!(
            strings(&exact, column),
            strings(&spelled, column),
            "{column}"
        );
    }
    let exact_deadness = strings(&exact, "final_position_deadness");
    let exact_flag = strings(&exact, "flag_opponent_can_mate");
    assert_eq!(count(&exact_deadness, "presumed_alive"), 0);
    assert_eq!(count(&exact_flag, "presumed_possible"), 0);
    assert_eq!(exact_flag[1], some("possible"), "searched, not presumed");
    let clash = remis()
        .args([
            "classify",
            input.to_str().unwrap(),
            "--exact",
            "--no-search",
            "--out",
        ])
        .arg(dir.join("never.parquet"))
        .output()
        .unwrap();
    assert!(
        !clash.status.success(),
        "--exact with --no-search is refused"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
