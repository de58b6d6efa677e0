//! Property tests of the reader on random and mutated PGN (issue 9): the
//! chunked reader gives exactly the rows of a whole-text read, never
//! panics, and makes one row per tag section. `make test` runs a bounded
//! number of cases; `make fuzz` runs many more (PROPTEST_CASES).

use std::sync::LazyLock;

use proptest::prelude::*;
use remis::{
    input::{Limits, chunk_stream},
    replay::{GameRecord, GameReplayer},
};

/// A valid game to mutate.
const GAME: &str = "[Event \"Fuzz \\\"Open\\\"\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. e4 {a [%clk 0:01:00]} e5 2. Nf3 (2. f4 exf4 $1) Nc6 ; line comment\n3. Bb5 a6! 4. Ba4?! 1/2-1/2\n\n";

/// Fragments random documents are assembled from: good and broken tag
/// lines, movetext, comments, variations, blank lines, odd line endings
/// and junk.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"[Event \"e\"]\n".to_vec()),
        Just(b"[Site \"s\"]\n".to_vec()),
        Just(b"[Result \"1-0\"]\n".to_vec()),
        Just(b"[White \"W\"][Black \"B\"]\n".to_vec()),
        Just(b"[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n".to_vec()),
        Just(b"[Event \"unterminated\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"1. e4 e5 2. Nf3 Nc6 ".to_vec()),
        Just(b"{ comment ".to_vec()),
        Just(b"} ".to_vec()),
        Just(b"( 1. d4 ".to_vec()),
        Just(b") ".to_vec()),
        Just(b"1-0\n".to_vec()),
        Just(b"*\n".to_vec()),
        Just(b"% escape\n".to_vec()),
        Just(b"; rest of line\n".to_vec()),
        Just(b"\xef\xbb\xbf".to_vec()),
        Just(GAME.as_bytes().to_vec()),
        prop::collection::vec(any::<u8>(), 0..12),
    ]
}

fn document() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(fragment(), 0..40).prop_map(|parts| parts.concat())
}

/// A valid collection with random byte edits.
fn mutated() -> impl Strategy<Value = Vec<u8>> {
    let base = GAME.repeat(6).into_bytes();
    let len = base.len();
    prop::collection::vec((0..len, any::<u8>(), 0..3u8), 1..12).prop_map(move |edits| {
        let mut bytes = base.clone();
        for (at, byte, kind) in edits {
            let at = at.min(bytes.len().saturating_sub(1));
            match kind {
                0 => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ => {
                    bytes.remove(at);
                }
            }
        }
        bytes
    })
}

/// What a row holds, for comparing two reads.
fn rows(records: &[GameRecord]) -> Vec<String> {
    records.iter().map(|r| format!("{r:?}")).collect()
}

/// The text read in chunks of about `target` bytes, each chunk replayed
/// by its own replayer as the pipeline's workers do.
fn chunked(bytes: &[u8], target: usize, limits: Limits) -> Vec<GameRecord> {
    let mut records = Vec::new();
    let failure = chunk_stream(&mut &bytes[..], target, limits, |data, games, last, _| {
        let chunk = remis::input::Chunk {
            seq: 0,
            source: "fuzz".into(),
            data,
            games,
            damage: None,
            last,
            tags: None,
        };
        GameReplayer::with_limits(limits).replay_chunk(&chunk, &mut records);
        true
    });
    assert!(failure.is_none());
    records
}

/// Tag sections counted the simple way, from the documented rules: a
/// well-formed tag line starts a game after movetext, at the start, or
/// when it repeats a tag name of the section it is in.
fn tag_sections(bytes: &[u8]) -> usize {
    let text = {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut remis::input::NormalizedText::new(bytes), &mut out)
            .unwrap();
        out
    };
    let mut sections = 0;
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut in_tags = false;
    for raw in text.split(|&b| b == b'\n') {
        let line = raw
            .strip_prefix(b"\xef\xbb\xbf")
            .unwrap_or(raw)
            .trim_ascii();
        if line.is_empty() || line[0] == b'%' {
            continue;
        }
        match tag_line_names(line) {
            Some(line_names) => {
                if !in_tags || line_names.iter().any(|n| names.contains(n)) {
                    sections += 1;
                    names.clear();
                }
                names.extend(line_names);
                in_tags = true;
            }
            // A line trying to be a tag stays in a tag section.
            None if in_tags
                && line.get(1).is_some_and(u8::is_ascii_alphabetic)
                && line[0] == b'[' => {}
            None => in_tags = false,
        }
    }
    sections
}

/// The names of a tag line read by a regular expression, independent of
/// the reader's own code.
fn tag_line_names(line: &[u8]) -> Option<Vec<Vec<u8>>> {
    if line.len() > remis::input::MAX_TAG_LINE_BYTES {
        return None;
    }
    let text = std::str::from_utf8(line)
        .ok()
        .map(str::to_string)
        .unwrap_or_else(|| line.iter().map(|&b| char::from(b)).collect());
    static STRICT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"^(\[([A-Za-z0-9_]+)[ \t\n\x0C\r]*"((?:[^"\\]|\\(?s:.))*)"[ \t\n\x0C\r]*\][ \t\n\x0C\r]*)+$"#).unwrap()
    });
    static PAIR: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r#"\[([A-Za-z0-9_]+)[ \t\n\x0C\r]*"(?:[^"\\]|\\(?s:.))*"[ \t\n\x0C\r]*\]"#,
        )
        .unwrap()
    });
    static LENIENT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"^\[([A-Za-z0-9_]+)[ \t\n\x0C\r]*"(?s:.)*"[ \t\n\x0C\r]*\]$"#).unwrap()
    });
    if STRICT.is_match(&text) {
        Some(
            PAIR.captures_iter(&text)
                .map(|c| c[1].as_bytes().to_vec())
                .collect(),
        )
    } else {
        LENIENT
            .captures(&text)
            .map(|c| vec![c[1].as_bytes().to_vec()])
    }
}

fn check(bytes: &[u8], target: usize) -> Result<(), TestCaseError> {
    let limits = Limits {
        max_game_bytes: 600,
        max_header_bytes: 200,
        max_comment_bytes: 40,
        max_plies: 30,
    };
    let whole = GameReplayer::with_limits(limits).replay_all(bytes);
    let pieces = chunked(bytes, target, limits);
    prop_assert_eq!(rows(&whole), rows(&pieces));
    // Caps aside (a capped game's tag lines are still counted), every
    // tag section is a row; headerless text adds at most one.
    let generous = Limits::default();
    let all = GameReplayer::with_limits(generous).replay_all(bytes);
    let sections = tag_sections(bytes);
    prop_assert!(
        all.len() == sections || all.len() == sections + 1,
        "{} rows for {} tag sections",
        all.len(),
        sections
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(1000),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_documents_read_alike_whole_or_chunked(doc in document(), target in 1usize..2048) {
        check(&doc, target)?;
    }

    #[test]
    fn mutated_games_read_alike_whole_or_chunked(doc in mutated(), target in 1usize..2048) {
        check(&doc, target)?;
    }
}
