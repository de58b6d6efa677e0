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
