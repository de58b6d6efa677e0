//! The progress count of bytes read (the progress bar of `classify`): a
//! file read to its end is counted about once, whatever its form.

use std::{
    io::Write,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use remis_core::input::{Input, Limits, NoColumnarSource, read_chunks};

/// Games enough for a file well past the reader's 256 KiB first look.
fn games() -> String {
    (0..12_000)
        .map(|i| {
            format!(
                "[Event \"p{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
            )
        })
        .collect()
}

/// Reads `path` to its end; returns the bytes counted and the games seen.
fn count(path: &Path) -> (u64, usize) {
    let bytes = Arc::new(AtomicU64::new(0));
    let mut games = 0;
    let report = read_chunks(
        &[Input::File(path.to_path_buf())],
        64 << 10,
        Limits::default(),
        &NoColumnarSource,
        bytes.clone(),
        &mut |chunk| {
            games += chunk.games.len();
            true
        },
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    (bytes.load(Ordering::Relaxed), games)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("remis-progress-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A zip archive is read again from its start (its directory is at the
/// end); that second reading used to go uncounted, and the bar stopped at
/// the first 256 KiB.
#[test]
fn a_zip_archive_is_counted_once() {
    let dir = scratch("zip");
    let path = dir.join("twic.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("twic1.pgn", stored).unwrap();
    zip.write_all(games().as_bytes()).unwrap();
    zip.finish().unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 512 << 10, "{size}");

    let (counted, games) = count(&path);
    assert_eq!(games, 12_000);
    assert!(
        counted >= size && counted <= size + (64 << 10),
        "{counted} bytes counted of {size}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The plain and compressed streams, for comparison: counted once.
#[test]
fn a_stream_is_counted_once() {
    let dir = scratch("stream");
    let plain = dir.join("games.pgn");
    std::fs::write(&plain, games()).unwrap();
    let packed = dir.join("games.pgn.zst");
    std::fs::write(&packed, zstd::encode_all(games().as_bytes(), 1).unwrap()).unwrap();
    for path in [plain, packed] {
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(count(&path), (size, 12_000), "{}", path.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
