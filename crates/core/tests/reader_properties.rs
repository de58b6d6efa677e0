//! Property tests of the reader on random and mutated PGN (issue 9): the
//! chunked reader gives exactly the rows of a whole-text read, never
//! panics, and makes one row per tag section. `make test` runs a bounded
//! number of cases; `make fuzz` runs many more (PROPTEST_CASES).

use std::sync::LazyLock;

use proptest::prelude::*;
use remis_core::{
    input::{Limits, chunk_stream},
    replay::{GameRecord, GameReplayer},
};

/// `make test` runs the same cases every time (a fixed seed: a red CI
/// is never chance); `make fuzz` (PROPTEST_CASES set) draws new ones.
fn seed() -> proptest::test_runner::RngSeed {
    match std::env::var("PROPTEST_CASES") {
        Ok(_) => proptest::test_runner::RngSeed::Random,
        Err(_) => proptest::test_runner::RngSeed::Fixed(2026),
    }
}

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
        // White space PGN reading shares: NUL padding, vertical tab and
        // form feed around tag lines (issue 19).
        Just(b"\0\0\0".to_vec()),
        Just(b"\x0b\x0c ".to_vec()),
        Just(b"\0\0[Event \"padded\"]\0\n".to_vec()),
        Just(b"[Result \"0-1\"] \x0b\0\n".to_vec()),
        (
            0usize..3000,
            prop::sample::select(vec![0u8, b' ', b'\t', 0x0b, 0x0c])
        )
            .prop_map(|(n, b)| vec![b; n]),
        prop::collection::vec(any::<u8>(), 0..12),
    ]
}

fn document() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(fragment(), 0..40).prop_map(|parts| parts.concat())
}

/// Leading garbage of any length before real games: white space (a
/// zero-filled first piece of a download), junk bytes, or both.
fn leading_garbage() -> impl Strategy<Value = Vec<u8>> {
    (
        0usize..200_000,
        prop::sample::select(vec![0u8, b' ', b'\n', b'x', 0xff]),
        prop::collection::vec(any::<u8>(), 0..64),
        0usize..4,
    )
        .prop_map(|(n, fill, junk, games)| {
            let mut bytes = vec![fill; n];
            bytes.extend(junk);
            bytes.push(b'\n');
            bytes.extend(GAME.repeat(games).into_bytes());
            bytes
        })
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
        let chunk = remis_core::input::Chunk {
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
        std::io::Read::read_to_end(&mut remis_core::input::NormalizedText::new(bytes), &mut out)
            .unwrap();
        out
    };
    let mut sections = 0;
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut in_tags = false;
    for raw in text.split(|&b| b == b'\n') {
        let line = trim_pgn(raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw));
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

/// PGN white space, as documented: ASCII white space, vertical tab and NUL.
fn is_pgn_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b || b == 0
}

fn trim_pgn(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|&b| !is_pgn_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_pgn_space(b))
        .map_or(start, |e| e + 1);
    &line[start..end]
}

/// The names of a tag line read by a regular expression, independent of
/// the reader's own code.
fn tag_line_names(line: &[u8]) -> Option<Vec<Vec<u8>>> {
    if line.len() > remis_core::input::MAX_TAG_LINE_BYTES {
        return None;
    }
    let text = std::str::from_utf8(line)
        .ok()
        .map(str::to_string)
        .unwrap_or_else(|| line.iter().map(|&b| char::from(b)).collect());
    static STRICT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"^(\[([A-Za-z0-9_]+)[ \t\n\x0B\x0C\r\x00]*"((?:[^"\\]|\\(?s:.))*)"[ \t\n\x0B\x0C\r\x00]*\][ \t\n\x0B\x0C\r\x00]*)+$"#).unwrap()
    });
    static PAIR: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r#"\[([A-Za-z0-9_]+)[ \t\n\x0B\x0C\r\x00]*"(?:[^"\\]|\\(?s:.))*"[ \t\n\x0B\x0C\r\x00]*\]"#,
        )
        .unwrap()
    });
    static LENIENT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r#"^\[([A-Za-z0-9_]+)[ \t\n\x0B\x0C\r\x00]*"(?s:.)*"[ \t\n\x0B\x0C\r\x00]*\]$"#,
        )
        .unwrap()
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
        rng_seed: seed(),
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

    #[test]
    fn leading_garbage_of_any_length_loses_no_game(doc in leading_garbage(), target in 1usize..65536) {
        check(&doc, target)?;
        // The games after the garbage are read whole, none of them capped.
        let records = GameReplayer::new().replay_all(&doc);
        let games = doc.windows(7).filter(|w| w == b"[Event ").count();
        let read = records.iter().filter(|r| r.error().is_none()).count();
        prop_assert!(read >= games, "{} clean games of {}", read, games);
    }
}

/// Every game of a file, read as the pipeline reads inputs (compression
/// told by magic bytes), replayed in order.
fn read_file(path: &std::path::Path) -> (Vec<GameRecord>, usize) {
    let mut records = Vec::new();
    let mut replayer = GameReplayer::new();
    let report = remis_core::input::read_chunks(
        &[remis_core::input::Input::File(path.to_path_buf())],
        4096,
        Limits::default(),
        &remis_core::input::NoColumnarSource,
        std::sync::Arc::default(),
        &mut |chunk| {
            replayer.replay_chunk(&chunk, &mut records);
            true
        },
    );
    (records, report.problems.len())
}

/// A zstd file of `text` cut into frames at `cuts`, with skippable frames
/// (as pzstd and the seekable format write) before, between and after.
fn zstd_layout(text: &[u8], cuts: &[usize], skippable: &[(u8, Vec<u8>)]) -> Vec<u8> {
    let mut points: Vec<usize> = cuts.iter().map(|&c| c % (text.len() + 1)).collect();
    points.push(0);
    points.push(text.len());
    points.sort_unstable();
    points.dedup();
    let mut out = Vec::new();
    let mut extra = skippable.iter().cycle().take(points.len() + 1);
    for pair in points.windows(2) {
        if let Some((low, payload)) = extra.next() {
            out.extend([0x50 | (low & 0x0f), 0x2a, 0x4d, 0x18]);
            out.extend((payload.len() as u32).to_le_bytes());
            out.extend(payload);
        }
        out.extend(zstd::encode_all(&text[pair[0]..pair[1]], 1).unwrap());
    }
    if let Some((low, payload)) = extra.next() {
        out.extend([0x50 | (low & 0x0f), 0x2a, 0x4d, 0x18]);
        out.extend((payload.len() as u32).to_le_bytes());
        out.extend(payload);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse::<u32>().ok()).map_or(64, |c| c / 16),
        failure_persistence: None,
        rng_seed: seed(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_zstd_frame_layout_reads_like_the_plain_text(
        cuts in prop::collection::vec(any::<usize>(), 0..6),
        skippable in prop::collection::vec((any::<u8>(), prop::collection::vec(any::<u8>(), 0..40)), 0..4),
    ) {
        let text = GAME.repeat(12).into_bytes();
        let dir = std::env::temp_dir().join(format!("remis-zstd-layout-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("plain.pgn");
        let packed = dir.join("packed.pgn.zst");
        std::fs::write(&plain, &text).unwrap();
        std::fs::write(&packed, zstd_layout(&text, &cuts, &skippable)).unwrap();
        let (want, _) = read_file(&plain);
        let (got, problems) = read_file(&packed);
        prop_assert_eq!(problems, 0);
        prop_assert_eq!(want.len(), 12);
        prop_assert_eq!(rows(&got), rows(&want));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
