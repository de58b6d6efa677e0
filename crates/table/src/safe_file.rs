//! The one way remis writes a file, and the one way it opens a file it
//! reads back (tables, summaries).
//!
//! Writing ([`AtomicFile`]): the bytes go to a temporary file created
//! exclusively in the target's own folder (`O_CREAT|O_EXCL|O_NOFOLLOW`, a
//! name with 64 random bits, so a planted file or symlink is never opened
//! and never followed), are flushed to disk, and are renamed over the
//! target only when whole; the folder is then flushed too. Until then the
//! previous file stays as it was; on any failure or early return the
//! temporary file is removed. `rename` replaces a symlink at the target
//! itself, never the file it points to.
//!
//! Reading ([`open_regular`]): a file is opened without blocking and must
//! be a regular file, so a FIFO or a device (`/dev/zero`) in place of a
//! table or summary is refused at once instead of hanging or reading
//! forever.

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The longest file name Linux file systems take (`NAME_MAX`).
pub const NAME_MAX: usize = 255;

/// Why a file could not be written or read safely.
#[derive(Debug, thiserror::Error)]
pub enum SafeFileError {
    #[error("{path}: cannot create a temporary file beside it: {cause}")]
    Create {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: not a regular file; refusing to read it")]
    NotRegular { path: PathBuf },
    #[error("{path}: is a folder; give a file name")]
    IsFolder { path: PathBuf },
    #[error(
        "{output}: the output is one of the inputs ({input}); refusing to overwrite it (choose another --out)"
    )]
    OutputIsInput { output: PathBuf, input: PathBuf },
}

/// A file being written: a temporary file beside its target until
/// [`AtomicFile::commit`] renames it into place.
#[derive(Debug)]
pub struct AtomicFile {
    file: File,
    temp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl AtomicFile {
    /// Creates the temporary file for `target` (whose folder must exist).
    pub fn create(target: &Path) -> Result<AtomicFile, SafeFileError> {
        if target.is_dir() {
            return Err(SafeFileError::IsFolder {
                path: target.to_path_buf(),
            });
        }
        let name = target
            .file_name()
            .map_or_else(|| OsString::from("output"), OsStr::to_os_string);
        let create_error = |cause| SafeFileError::Create {
            path: target.to_path_buf(),
            cause,
        };
        // A clash is a planted file or a (vanishingly unlikely) equal
        // draw: draw again, a few times.
        let mut last = None;
        for _ in 0..8 {
            let temp = target.with_file_name(temporary_name(&name, std::process::id(), random()));
            // Readable too: a table's footer is read back and rewritten
            // once its sources' digests are known.
            match OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o666)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&temp)
            {
                Ok(file) => {
                    register_temporary(&temp);
                    return Ok(AtomicFile {
                        file,
                        temp,
                        target: target.to_path_buf(),
                        committed: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(create_error(e)),
            }
        }
        Err(create_error(last.unwrap_or_else(|| {
            std::io::Error::other("no free temporary name")
        })))
    }

    /// The open temporary file (for writers that want their own handle:
    /// `file().try_clone()`).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The target this file will replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temporary file's path (to read it back before it is committed).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Flushes the file to disk, renames it over the target and flushes the
    /// folder, so that the new file survives a power loss once this returns.
    pub fn commit(mut self) -> Result<(), SafeFileError> {
        let io_error = |cause| SafeFileError::Io {
            path: self.target.clone(),
            cause,
        };
        self.file.flush().map_err(io_error)?;
        self.file.sync_all().map_err(io_error)?;
        std::fs::rename(&self.temp, &self.target).map_err(io_error)?;
        self.committed = true;
        forget_temporary(&self.temp);
        sync_folder(&self.target);
        Ok(())
    }

    /// Writes `bytes` as the whole content of `target`, safely.
    pub fn write_all(target: &Path, bytes: &[u8]) -> Result<(), SafeFileError> {
        let mut file = AtomicFile::create(target)?;
        file.write_all(bytes).map_err(|cause| SafeFileError::Io {
            path: target.to_path_buf(),
            cause,
        })?;
        file.commit()
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            // Failed or abandoned: the target stays as it was.
            let _ = std::fs::remove_file(&self.temp);
            forget_temporary(&self.temp);
        }
    }
}

/// Flushes the folder of `path`, so that a rename in it is on disk. Some
/// file systems refuse to sync a folder; the rename has happened anyway.
fn sync_folder(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// `.NAME.PID-RANDOM.tmp`, with NAME shortened (and hashed) when the whole
/// would not fit in a file name.
fn temporary_name(name: &OsStr, pid: u32, random: u64) -> OsString {
    let tail = format!(".{pid}-{random:016x}.tmp");
    let mut out = b".".to_vec();
    out.extend_from_slice(fit_name(name.as_bytes(), tail.as_bytes()).as_bytes());
    OsString::from_vec(out)
}

/// The pid of a temporary file name made by `temporary_name` for a
/// target named `name`, or `None` when the file is no such name.
pub fn temporary_pid(file: &OsStr, name: &OsStr) -> Option<u32> {
    let file = file.as_bytes();
    let rest = file.strip_prefix(b".")?.strip_suffix(b".tmp")?;
    let dot = rest.iter().rposition(|&b| b == b'.')?;
    let (head, pid_random) = (&rest[..dot], &rest[dot + 1..]);
    let pid_random = std::str::from_utf8(pid_random).ok()?;
    // `PID-RANDOM`, or `PID` alone as remis wrote them before 0.1's safe
    // writes: both are this target's temporary files.
    let (pid, tail) = match pid_random.split_once('-') {
        Some((pid, random)) => (pid, format!(".{pid}-{random}.tmp")),
        None => (pid_random, format!(".{pid_random}.tmp")),
    };
    let expected = fit_name(name.as_bytes(), tail.as_bytes());
    let expected = expected.as_bytes();
    (expected.len() == head.len() + tail.len() && &expected[..head.len()] == head)
        .then(|| pid.parse().ok())
        .flatten()
}

/// A file name made of `stem` and `suffix` that fits in [`NAME_MAX`]
/// bytes: `stem` whole when it fits, otherwise its first bytes, `~` and a
/// hash of the whole stem, so that two long stems never share a name.
pub fn fit_name(stem: &[u8], suffix: &[u8]) -> OsString {
    // Room for the leading dot of a temporary name.
    let room = NAME_MAX - 1;
    let mut out = Vec::with_capacity(room);
    if stem.len() + suffix.len() <= room {
        out.extend_from_slice(stem);
    } else {
        let hash = format!("~{:016x}", remis_core::fnv::fnv1a(stem));
        let keep = room.saturating_sub(suffix.len() + hash.len());
        let mut cut = keep.min(stem.len());
        // Whole characters where the name is UTF-8.
        if let Ok(text) = std::str::from_utf8(stem) {
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
        }
        out.extend_from_slice(&stem[..cut]);
        out.extend_from_slice(hash.as_bytes());
    }
    out.extend_from_slice(suffix);
    OsString::from_vec(out)
}

/// 64 bits that another local user cannot guess: from the kernel, or,
/// where that fails, from the clock and the process.
fn random() -> u64 {
    use std::io::Read;
    let mut bytes = [0u8; 8];
    if File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok()
    {
        return u64::from_le_bytes(bytes);
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    remis_core::fnv::fnv1a(format!("{nanos}.{}", std::process::id()).as_bytes())
}

/// Opens a file for reading only if it is a regular file: the open does
/// not block (a FIFO), and anything but a regular file (a FIFO, a device,
/// a socket) is refused, naming the path.
pub fn open_regular(path: &Path) -> Result<File, SafeFileError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|cause| SafeFileError::Io {
            path: path.to_path_buf(),
            cause,
        })?;
    let meta = file.metadata().map_err(|cause| SafeFileError::Io {
        path: path.to_path_buf(),
        cause,
    })?;
    if !meta.is_file() {
        return Err(SafeFileError::NotRegular {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

/// Reads a regular file of at most `max` bytes whole; a larger one is an
/// error naming it.
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, SafeFileError> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|cause| SafeFileError::Io {
            path: path.to_path_buf(),
            cause,
        })?;
    if bytes.len() as u64 > max {
        return Err(SafeFileError::Io {
            path: path.to_path_buf(),
            cause: std::io::Error::other(format!("larger than {max} bytes")),
        });
    }
    Ok(bytes)
}

/// Refuses an output that is, or resolves to, one of the inputs: the same
/// path, a symlink to it, or another name of the same file (a hard link).
pub fn refuse_input_as_output<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), SafeFileError> {
    let identity = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    let Some(out) = identity(output) else {
        return Ok(());
    };
    for input in inputs {
        if identity(input) == Some(out) {
            return Err(SafeFileError::OutputIsInput {
                output: output.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Whether process `pid` is running (Linux's /proc tells). A killed
/// process that no one has reaped yet (a zombie, as under a container's
/// first process) writes nothing more: not running.
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // `PID (NAME) STATE ...`: the state follows the last parenthesis.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_none_or(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => Path::new(&format!("/proc/{pid}")).exists(),
    }
}

/// Temporary files being written, so that an interrupted run (SIGINT,
/// SIGTERM) can remove them before it exits.
static TEMPORARIES: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Notes a temporary file that must not outlive an interrupted run.
pub fn register_temporary(path: &Path) {
    if let Ok(mut list) = TEMPORARIES.lock() {
        list.push(path.to_path_buf());
    }
}

/// The temporary file is gone (renamed over its table, or removed).
pub fn forget_temporary(path: &Path) {
    if let Ok(mut list) = TEMPORARIES.lock() {
        list.retain(|p| p != path);
    }
}

/// Removes every temporary file still being written; returns them. For
/// the signal handler: the tables they would have replaced stay as they
/// were.
pub fn remove_temporaries() -> Vec<std::path::PathBuf> {
    let Ok(mut list) = TEMPORARIES.lock() else {
        return Vec::new();
    };
    let removed: Vec<_> = list
        .drain(..)
        .filter(|p| std::fs::remove_file(p).is_ok())
        .collect();
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "remis-safe-file-{name}-{}-{:x}",
            std::process::id(),
            random()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_committed_file_replaces_the_target_and_leaves_no_temporary() {
        let dir = scratch("commit");
        let target = dir.join("t.txt");
        std::fs::write(&target, b"old").unwrap();
        AtomicFile::write_all(&target, b"new").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_abandoned_file_leaves_the_target_as_it_was() {
        let dir = scratch("abandon");
        let target = dir.join("t.txt");
        std::fs::write(&target, b"old").unwrap();
        {
            let mut file = AtomicFile::create(&target).unwrap();
            file.write_all(b"half").unwrap();
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_symlink_at_the_target_is_replaced_not_followed() {
        let dir = scratch("link");
        let outside = dir.join("outside.txt");
        std::fs::write(&outside, b"keep").unwrap();
        let target = dir.join("t.txt");
        std::os::unix::fs::symlink(&outside, &target).unwrap();
        AtomicFile::write_all(&target, b"new").unwrap();
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
        assert!(!std::fs::symlink_metadata(&target).unwrap().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names_are_unpredictable_and_fit() {
        let long = OsString::from("x".repeat(300));
        let a = temporary_name(&long, 7, random());
        let b = temporary_name(&long, 7, random());
        assert_ne!(a, b);
        assert!(a.len() <= NAME_MAX, "{}", a.len());
        assert_eq!(temporary_pid(&a, &long), Some(7));
        let short = OsString::from("games.parquet");
        let t = temporary_name(&short, 42, 0xabc);
        assert_eq!(t, ".games.parquet.42-0000000000000abc.tmp");
        assert_eq!(temporary_pid(&t, &short), Some(42));
        assert_eq!(temporary_pid(&t, OsStr::new("other.parquet")), None);
        assert_eq!(
            temporary_pid(OsStr::new(".games.parquet.9.tmp"), &short),
            Some(9)
        );
    }

    #[test]
    fn long_names_that_differ_keep_different_names() {
        let a = fit_name(&[b'a'; 300], b".parquet");
        let mut other = [b'a'; 300];
        other[299] = b'b';
        let b = fit_name(&other, b".parquet");
        assert_ne!(a, b);
        assert!(a.len() < NAME_MAX && b.len() < NAME_MAX);
        assert!(a.as_bytes().ends_with(b".parquet"));
        assert_eq!(fit_name(b"short", b".parquet"), "short.parquet");
    }

    #[test]
    fn special_files_are_not_read() {
        assert!(matches!(
            open_regular(Path::new("/dev/zero")),
            Err(SafeFileError::NotRegular { .. })
        ));
        let dir = scratch("fifo");
        let fifo = dir.join("x.parquet");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        assert!(matches!(
            open_regular(&fifo),
            Err(SafeFileError::NotRegular { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_output_that_resolves_to_an_input_is_refused() {
        let dir = scratch("input");
        let input = dir.join("in.parquet");
        std::fs::write(&input, b"data").unwrap();
        let link = dir.join("link.html");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        assert!(refuse_input_as_output(&input, [input.as_path()]).is_err());
        assert!(refuse_input_as_output(&link, [input.as_path()]).is_err());
        assert!(refuse_input_as_output(&dir.join("new.html"), [input.as_path()]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
