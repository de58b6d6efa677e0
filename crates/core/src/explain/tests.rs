use super::*;

#[test]
fn a_source_named_from_another_folder_is_found_by_its_manifest_path() {
    let dir = std::env::temp_dir().join(format!("remis-locate-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data/players")).unwrap();
    let file = dir.join("data/players/Tal.pgn");
    std::fs::write(&file, "").unwrap();
    let known = vec![file.display().to_string()];
    assert_eq!(
        locate("../../data/players/Tal.pgn", &known),
        Some(file.clone())
    );
    assert_eq!(locate("../data/players/Petrosian.pgn", &known), None);
    // A name that is only a folder's tail does not match a file.
    assert_eq!(locate("players", &known), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unsearched_position_is_not_said_to_be_searched() {
    use shakmaty::{CastlingMode, fen::Fen};
    let pos: Chess = "8/8/8/4k3/8/8/3RK3/8 w - - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let default = SearchOptions::default();
    let reason = dead_reason(
        &pos,
        deadness(&pos, pos.legal_moves().len(), &default),
        &default,
    );
    assert_eq!(reason, DeadReason::PresumedAlive);
    // Searched, the same position is what the search found.
    let everywhere = SearchOptions {
        everywhere: true,
        ..SearchOptions::default()
    };
    let verdict = deadness(&pos, pos.legal_moves().len(), &everywhere);
    assert_eq!(dead_reason(&pos, verdict, &everywhere), DeadReason::Alive);
}
