//! Random file-system races against the safe writes (issue 30): whatever
//! a hostile local user plants in the output folder — files, symlinks to
//! files outside it, symlinks to folders, FIFOs, at the target's name or
//! at names a temporary file could take — and whatever they do while the
//! file is written (replace the target, plant more), the write either
//! lands whole at the target or fails leaving it as it was, nothing
//! outside the folder changes, and no temporary file is left.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use remis_table::safe_file::AtomicFile;

#[derive(Clone, Debug)]
enum Plant {
    File,
    LinkOutside,
    LinkToFolder,
    DanglingLink,
    Fifo,
    Folder,
}

#[derive(Clone, Debug)]
enum Name {
    Target,
    /// A temporary name as remis wrote them before: `.NAME.PID.tmp`.
    OldTemporary(u32),
    /// The shape of today's temporary names with a guessed random part.
    Guessed(u32, u64),
    Other(u8),
}

fn plant() -> impl Strategy<Value = Plant> {
    prop_oneof![
        Just(Plant::File),
        Just(Plant::LinkOutside),
        Just(Plant::LinkToFolder),
        Just(Plant::DanglingLink),
        Just(Plant::Fifo),
        Just(Plant::Folder),
    ]
}

fn name() -> impl Strategy<Value = Name> {
    prop_oneof![
        Just(Name::Target),
        (0u32..4).prop_map(|d| Name::OldTemporary(std::process::id() + d)),
        (0u32..4, any::<u64>()).prop_map(|(d, r)| Name::Guessed(std::process::id() + d, r)),
        any::<u8>().prop_map(Name::Other),
    ]
}

fn file_name(name: &Name) -> OsString {
    match name {
        Name::Target => "games.parquet".into(),
        Name::OldTemporary(pid) => format!(".games.parquet.{pid}.tmp").into(),
        Name::Guessed(pid, r) => format!(".games.parquet.{pid}-{r:016x}.tmp").into(),
        Name::Other(n) => format!("other-{n}").into(),
    }
}

fn put(dir: &Path, outside: &Path, name: &Name, what: &Plant) {
    let path = dir.join(file_name(name));
    if std::fs::symlink_metadata(&path).is_ok() {
        return;
    }
    match what {
        Plant::File => std::fs::write(&path, b"planted").unwrap(),
        Plant::LinkOutside => std::os::unix::fs::symlink(outside.join("victim"), &path).unwrap(),
        Plant::LinkToFolder => std::os::unix::fs::symlink(outside, &path).unwrap(),
        Plant::DanglingLink => {
            std::os::unix::fs::symlink(outside.join("nowhere/x"), &path).unwrap()
        }
        Plant::Fifo => {
            let ok = std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success();
            assert!(ok);
        }
        Plant::Folder => std::fs::create_dir(&path).unwrap(),
    }
}

/// Everything below `dir`: names and, for regular files, contents.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let bytes = meta.is_file().then(|| std::fs::read(&path).unwrap());
        out.push((path, bytes));
    }
    out.sort();
    out
}

fn case_dir() -> PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("remis-safe-races-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(dir.join("outside/victim"), b"keep").unwrap();
    dir
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_safe_write_lands_whole_or_not_at_all_and_only_at_its_target(
        before in prop::collection::vec((name(), plant()), 0..6),
        during in prop::collection::vec((name(), plant()), 0..4),
        content in prop::collection::vec(any::<u8>(), 0..5000),
    ) {
        let root = case_dir();
        let (dir, outside) = (root.join("out"), root.join("outside"));
        for (name, what) in &before {
            put(&dir, &outside, name, what);
        }
        let outside_before = snapshot(&outside);
        let target = dir.join("games.parquet");
        let target_before = std::fs::symlink_metadata(&target).ok().map(|m| m.file_type());
        let folder_before = std::fs::metadata(&target).is_ok_and(|m| m.is_dir());
        let result = AtomicFile::create(&target).and_then(|mut file| {
            file.write_all(&content[..content.len() / 2]).unwrap();
            for (name, what) in &during {
                if !matches!(name, Name::Target) {
                    put(&dir, &outside, name, what);
                }
            }
            file.write_all(&content[content.len() / 2..]).unwrap();
            file.commit()
        });
        match result {
            Ok(()) => {
                let meta = std::fs::symlink_metadata(&target).unwrap();
                prop_assert!(meta.is_file());
                prop_assert_eq!(std::fs::read(&target).unwrap(), content);
            }
            Err(_) => {
                // Refused (a folder, or a link to one, in the way): the
                // target as it was.
                prop_assert!(folder_before);
                prop_assert_eq!(
                    std::fs::symlink_metadata(&target).ok().map(|m| m.file_type()),
                    target_before
                );
            }
        }
        prop_assert_eq!(snapshot(&outside), outside_before);
        // No temporary file of this process is left (planted ones may be).
        let planted: Vec<OsString> = before.iter().chain(&during).map(|(n, _)| file_name(n)).collect();
        for (path, _) in snapshot(&dir) {
            let name = path.file_name().unwrap().to_os_string();
            let mine = format!(".games.parquet.{}-", std::process::id());
            prop_assert!(
                planted.contains(&name) || !name.to_string_lossy().starts_with(&mine),
                "left behind: {:?}", name
            );
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}
