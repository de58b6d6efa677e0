//! Opening inputs: compression told by magic bytes, zip archives member by
//! member, damage reported without losing the games before it.

use std::{
    fs::File,
    io::{self, BufRead, BufReader, Read, Seek},
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use super::{
    Chunk, ColumnarGames, ColumnarSource, Input, Rows, TagTable,
    chunk::{MAX_CHUNK_GAMES, chunk_stream},
    limits::Limits,
};

/// A damaged input: reported on stderr and in the summary; the games read
/// before the damage are kept.
#[derive(Clone, Debug)]
pub struct InputProblem {
    pub source: String,
    pub message: String,
}

impl std::fmt::Display for InputProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

/// What a file holds, told by its magic bytes: PGN text, plain or
/// compressed, a zip archive of PGN files, or a Parquet table.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum FileKind {
    Plain,
    Gzip,
    Bzip2,
    Zstd,
    Zip,
    Parquet,
}

impl FileKind {
    fn sniff(head: &[u8]) -> FileKind {
        match head {
            [0x1f, 0x8b, ..] => FileKind::Gzip,
            [b'B', b'Z', b'h', ..] => FileKind::Bzip2,
            // A zstd frame, or a skippable frame (0x184D2A50 to 0x184D2A5F,
            // little-endian) before one: pzstd and the seekable format
            // start so; the decoder skips them.
            [0x28, 0xb5, 0x2f, 0xfd, ..] | [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => FileKind::Zstd,
            [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => FileKind::Zip,
            [b'P', b'A', b'R', b'1', ..] => FileKind::Parquet,
            _ => FileKind::Plain,
        }
    }
}

/// Counts the compressed bytes read, for the progress bar, and hashes them
/// (SHA-256) for the table's provenance: the digest is of the bytes as
/// stored, computed in the same pass that reads the games.
struct Counting<R> {
    inner: R,
    bytes: Arc<AtomicU64>,
    /// None for a second read of an input whose digest its first reader
    /// takes (a zip archive's directory read by position).
    sha256: Option<sha2::Sha256>,
}

impl<R: Read> Counting<R> {
    fn new(inner: R, bytes: Arc<AtomicU64>) -> Counting<R> {
        use sha2::Digest;
        Counting {
            inner,
            bytes,
            sha256: Some(sha2::Sha256::new()),
        }
    }

    /// Counted for the progress bar, not hashed.
    fn unhashed(inner: R, bytes: Arc<AtomicU64>) -> Counting<R> {
        Counting {
            inner,
            bytes,
            sha256: None,
        }
    }

    fn hash(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        if let Some(sha256) = &mut self.sha256 {
            sha256.update(bytes);
        }
    }

    /// The digest of the whole input (of a reader made by `new`): what the
    /// games' reader left unread (a zip archive's or a Parquet file's
    /// bytes, read by position elsewhere; padding after the last frame) is
    /// hashed here, uncounted.
    fn finish(mut self) -> io::Result<String> {
        use sha2::Digest;
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            match self.inner.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => self.hash(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.sha256.map_or_else(String::new, |h| hex(&h.finalize())))
    }
}

/// Lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

impl<R: io::Seek> io::Seek for Counting<R> {
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        self.inner.seek(to)
    }
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        self.hash(&buf[..n]);
        Ok(n)
    }
}

/// The next chunk of a source, numbered in reading order.
fn next_chunk(
    seq: &mut u64,
    source: &Arc<str>,
    (data, games, tags): (Vec<u8>, Vec<super::GameSpan>, Option<TagTable>),
    damage: Option<Arc<str>>,
    last: bool,
) -> Chunk {
    let chunk = Chunk {
        seq: *seq,
        source: source.clone(),
        data,
        games,
        damage,
        last,
        tags,
    };
    *seq += 1;
    chunk
}

/// Everything the reading thread needs to hand chunks on.
struct Chunker<'a> {
    target: usize,
    tables: &'a dyn ColumnarSource,
    /// Bytes read of all inputs, for the progress bar.
    bytes_read: Arc<AtomicU64>,
    limits: Limits,
    seq: u64,
    emit: &'a mut dyn FnMut(Chunk) -> bool,
    problems: Vec<InputProblem>,
    stopped: bool,
}

impl Chunker<'_> {
    fn stream(&mut self, source: &str, reader: &mut dyn Read) {
        if self.stopped {
            return;
        }
        let name: Arc<str> = Arc::from(source);
        let Chunker {
            target,
            limits,
            seq,
            emit,
            stopped,
            ..
        } = self;
        let failure = chunk_stream(reader, *target, *limits, |data, games, last, damage| {
            let damage = damage.map(|e| Arc::from(format!("input breaks off: {e}")));
            let chunk = next_chunk(seq, &name, (data, games, None), damage, last);
            let go_on = emit(chunk);
            *stopped |= !go_on;
            go_on
        });
        if let Some(e) = failure {
            self.problem(
                source,
                format!("truncated or corrupt, read up to the damage: {e}"),
            );
        }
    }

    /// Hands on a Parquet file's rows, a slice at a time. The progress
    /// bar counts the file's bytes in proportion to its rows read.
    fn columnar(&mut self, source: &str, games: &mut dyn ColumnarGames, size: u64) {
        if self.stopped {
            return;
        }
        let name: Arc<str> = Arc::from(source);
        let Chunker {
            target,
            limits,
            seq,
            emit,
            stopped,
            bytes_read,
            ..
        } = self;
        let mut counted = 0u64;
        let mut count = |fraction: f64| {
            let now = (size as f64 * fraction.clamp(0.0, 1.0)) as u64;
            bytes_read.fetch_add(now.saturating_sub(counted), Ordering::Relaxed);
            counted = counted.max(now);
        };
        let mut hand_on = |rows: Rows| {
            let chunk = next_chunk(
                seq,
                &name,
                (rows.data, rows.games, Some(rows.tags)),
                None,
                false,
            );
            let go_on = emit(chunk);
            *stopped |= !go_on;
            go_on
        };
        let failure = loop {
            let read = games.next_slice(*target, MAX_CHUNK_GAMES, limits, &mut hand_on);
            count(games.fraction_read());
            match read {
                Ok(true) => {}
                Ok(false) => break None,
                Err(e) => break Some(e),
            }
        };
        if failure.is_none() {
            count(1.0);
        }
        if !*stopped {
            // The source's last chunk, empty: marks its end (and a file
            // without rows).
            let damage = failure
                .as_ref()
                .map(|e| Arc::from(format!("input breaks off: {e}")));
            let chunk = next_chunk(seq, &name, (Vec::new(), Vec::new(), None), damage, true);
            *stopped |= !emit(chunk);
        }
        if let Some(e) = failure {
            self.problem(
                source,
                format!("a Parquet file, unreadable from here on; rows before it kept: {e}"),
            );
        }
    }

    /// Takes bytes back from the progress count: they will be read, and
    /// counted, again.
    fn uncount(&self, bytes: usize) {
        let _ = self
            .bytes_read
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                Some(n.saturating_sub(bytes as u64))
            });
    }

    fn problem(&mut self, source: &str, message: String) {
        let problem = InputProblem {
            source: source.to_string(),
            message,
        };
        self.problems.push(problem);
    }
}

/// What reading the inputs found, besides the games.
#[derive(Clone, Debug, Default)]
pub struct ReadReport {
    /// The damaged inputs.
    pub problems: Vec<InputProblem>,
    /// Each input's SHA-256 (lower-case hex), in the order of the inputs;
    /// `None` when it could not be read to its end (unopenable, a read
    /// error, or the run stopped early).
    pub sha256: Vec<Option<String>>,
}

/// Reads every input in order and hands out chunks of whole games through
/// `emit` (which returns false to stop). Files of games stored as columns
/// are opened through `tables`.
pub fn read_chunks(
    inputs: &[Input],
    target: usize,
    limits: Limits,
    tables: &dyn ColumnarSource,
    bytes_read: Arc<AtomicU64>,
    emit: &mut dyn FnMut(Chunk) -> bool,
) -> ReadReport {
    let mut chunker = Chunker {
        target,
        tables,
        bytes_read: bytes_read.clone(),
        limits,
        seq: 0,
        emit,
        problems: Vec::new(),
        stopped: false,
    };
    let mut sha256 = Vec::with_capacity(inputs.len());
    for input in inputs {
        let name = input.name();
        let result = match input {
            Input::File(path) => File::open(path).and_then(|f| {
                let mut counted = Counting::new(f, bytes_read.clone());
                read_one(&mut chunker, &name, &mut counted, Some(path))?;
                // A stopped run leaves the rest unread: no digest of a part.
                (!chunker.stopped).then(|| counted.finish()).transpose()
            }),
            Input::Stdin => {
                let mut counted = Counting::new(io::stdin(), bytes_read.clone());
                read_one(&mut chunker, &name, &mut counted, None)
                    .and_then(|()| (!chunker.stopped).then(|| counted.finish()).transpose())
            }
        };
        sha256.push(result.unwrap_or_else(|e| {
            chunker.problem(&name, format!("cannot read: {e}"));
            None
        }));
    }
    ReadReport {
        problems: chunker.problems,
        sha256,
    }
}

fn read_one(
    chunker: &mut Chunker<'_>,
    name: &str,
    raw: impl Read,
    path: Option<&Path>,
) -> io::Result<()> {
    let mut buffered = BufReader::with_capacity(256 * 1024, raw);
    let kind = FileKind::sniff(buffered.fill_buf()?);
    match kind {
        FileKind::Plain => chunker.stream(name, &mut buffered),
        FileKind::Gzip => chunker.stream(name, &mut flate2::bufread::MultiGzDecoder::new(buffered)),
        FileKind::Bzip2 => chunker.stream(name, &mut bzip2::bufread::MultiBzDecoder::new(buffered)),
        FileKind::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(buffered)?;
            chunker.stream(name, &mut decoder)
        }
        FileKind::Zip => match path {
            Some(path) => {
                // Read again from the start, and counted there.
                chunker.uncount(buffered.buffer().len());
                read_zip_file(chunker, name, path, buffered.into_inner())?
            }
            None => read_zip_stdin(chunker, name, &mut buffered),
        },
        FileKind::Parquet => match path {
            Some(path) => {
                let size = std::fs::metadata(path).map_or(0, |m| m.len());
                // The reader opens the file itself and is counted in
                // proportion to rows, not by the bytes sniffed here.
                chunker.uncount(buffered.buffer().len());
                match chunker.tables.open(path) {
                    Ok(mut games) => chunker.columnar(name, games.as_mut(), size),
                    Err(e) => chunker.problem(name, format!("a Parquet file, {e}; nothing read")),
                }
            }
            None => chunker.problem(
                name,
                "a Parquet file on standard input: give its path instead (Parquet needs to seek)"
                    .to_string(),
            ),
        },
    }
    Ok(())
}

/// A zip archive that yields no game at all says so (and the run exits 1).
fn no_pgn_members(members: usize) -> String {
    match members {
        0 => "an empty zip archive: no games".to_string(),
        n => format!("a zip archive without a .pgn member ({n} other members): no games"),
    }
}

fn is_pgn_member(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".pgn")
}

/// The `source` of each PGN member of one archive: `archive!member`, and
/// for a member whose name an earlier member already had,
/// `archive!member#N` with N its place among the archive's PGN members
/// (1-based), so that no two members share a source and none is dropped.
struct MemberNames {
    /// Hashes of the names met so far: a collision only adds a `#N`.
    seen: std::collections::HashSet<u64>,
    position: u64,
}

impl MemberNames {
    fn new() -> MemberNames {
        MemberNames {
            seen: std::collections::HashSet::new(),
            position: 0,
        }
    }

    /// The source of the next member of the archive `archive`.
    fn next(&mut self, archive: &str, member: &str) -> String {
        self.position += 1;
        if self.seen.insert(crate::fnv::fnv1a(member.as_bytes())) {
            format!("{archive}!{member}")
        } else {
            format!("{archive}!{member}#{}", self.position)
        }
    }
}

/// A zip archive on disk: its PGN members in the order of its central
/// directory, duplicates included, each read from its local header with
/// the directory's size (so members with data descriptors are read). When
/// the directory is unreadable (a truncated download), the members are
/// read one after another from the start instead.
fn read_zip_file(
    chunker: &mut Chunker<'_>,
    name: &str,
    path: &Path,
    file: impl Read,
) -> io::Result<()> {
    drop(file);
    // The archive is read again from its start: its directory is at the end.
    // Hashed by the input's first reader, which reads the file to its end.
    // The members are counted as they are read, the directory once.
    let counted_file = Counting::unhashed(File::open(path)?, chunker.bytes_read.clone());
    read_zip_seekable(
        chunker,
        name,
        BufReader::new(counted_file),
        File::open(path)?,
        true,
    );
    Ok(())
}

/// Reads the members through `members`, found by walking the directory
/// through `directory` (another handle on the same file, read uncounted:
/// its bytes are added to the progress once when `count_directory`).
fn read_zip_seekable<R: Read + Seek>(
    chunker: &mut Chunker<'_>,
    name: &str,
    mut file: R,
    mut directory_file: File,
    count_directory: bool,
) {
    let mut directory = match super::zip_dir::CentralDirectory::open(&mut directory_file) {
        Ok(directory) => directory,
        Err(e) => {
            chunker.problem(
                name,
                format!("zip directory unreadable ({e}); reading members in stored order"),
            );
            if file.seek(io::SeekFrom::Start(0)).is_ok() {
                read_zip_stream(chunker, name, &mut file);
            }
            return;
        }
    };
    if count_directory {
        chunker
            .bytes_read
            .fetch_add(directory.tail_bytes, Ordering::Relaxed);
    }
    let mut names = MemberNames::new();
    let (mut members, mut pgn) = (0u64, 0u64);
    while let Some(entry) = directory.next(&mut directory_file) {
        if chunker.stopped {
            return;
        }
        members += 1;
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                chunker.problem(
                    name,
                    format!(
                        "zip directory damaged at member {members} of {}: {e}; members after it not read",
                        directory.entries
                    ),
                );
                return;
            }
        };
        if entry.is_dir() || !is_pgn_member(&entry.name) {
            continue;
        }
        pgn += 1;
        let source = names.next(name, &entry.name);
        if let Err(e) = file.seek(io::SeekFrom::Start(entry.local_header)) {
            chunker.problem(&source, format!("zip member unreadable: {e}"));
            continue;
        }
        // The directory's sizes and CRC, which a streaming zipper writes
        // only after the data.
        let options = zip::read::ZipReadOptions::default()
            .override_compressed_size(entry.compressed_size)
            .override_uncompressed_size(entry.uncompressed_size)
            .override_crc(entry.crc32);
        match zip::read::read_zipfile_from_stream_with_options(&mut file, options) {
            Ok(Some(mut member)) => chunker.stream(&source, &mut member),
            Ok(None) => chunker.problem(
                &source,
                "zip member unreadable: no local header where the directory says".to_string(),
            ),
            Err(e) => chunker.problem(&source, format!("zip member unreadable: {e}")),
        }
    }
    if pgn == 0 {
        chunker.problem(name, no_pgn_members(members as usize));
    }
}

/// A zip archive on standard input: spooled to an unnamed temporary file
/// (nothing left behind, whatever happens to the run), then read by its
/// central directory like a file, so that what a streaming zipper writes
/// (sizes after the data) and repeated member names are read as from a
/// path. An archive larger than the cap is read front to back instead.
fn read_zip_stdin(chunker: &mut Chunker<'_>, name: &str, reader: &mut dyn Read) {
    let mut spool = match spool_file() {
        Ok(file) => file,
        Err(e) => {
            chunker.problem(
                name,
                format!(
                    "no temporary file for the zip archive ({e}); reading members in stored order"
                ),
            );
            return read_zip_stream(chunker, name, reader);
        }
    };
    let copied = io::copy(&mut reader.take(MAX_SPOOLED_ZIP), &mut spool);
    match copied {
        Ok(n) if n < MAX_SPOOLED_ZIP => {
            // The bytes were counted as they were read from standard input.
            // One file, two handles: each read by the directory's walk and
            // by the members' reader starts with a seek of its own.
            match spool.try_clone() {
                Ok(directory) => {
                    read_zip_seekable(chunker, name, BufReader::new(spool), directory, false)
                }
                Err(e) => chunker.problem(name, format!("zip archive unreadable: {e}")),
            }
        }
        Ok(_) => {
            chunker.problem(
                name,
                format!(
                    "a zip archive on standard input larger than {} GiB: give its path instead",
                    MAX_SPOOLED_ZIP >> 30
                ),
            );
        }
        Err(e) => chunker.problem(name, format!("zip archive breaks off: {e}")),
    }
}

/// The largest zip archive read from standard input (spooled to disk).
const MAX_SPOOLED_ZIP: u64 = 64 << 30;

/// An unnamed file in the temporary folder (`O_TMPFILE`), or, where the
/// file system cannot make one, a new file removed at once.
fn spool_file() -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = std::env::temp_dir();
    let unnamed = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_TMPFILE)
        .open(&dir);
    match unnamed {
        Ok(file) => Ok(file),
        Err(_) => {
            let path = dir.join(format!(
                ".remis-zip-{}-{:x}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            ));
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)?;
            std::fs::remove_file(&path)?;
            Ok(file)
        }
    }
}

/// A zip archive read front to back (damaged archives, and standard input
/// when it cannot be spooled).
fn read_zip_stream(chunker: &mut Chunker<'_>, name: &str, mut reader: &mut dyn Read) {
    let (mut members, mut pgn) = (0, 0);
    let mut names = MemberNames::new();
    loop {
        match zip::read::read_zipfile_from_stream(&mut reader) {
            Ok(Some(mut member)) => {
                members += 1;
                let member_name = member.name().map(|n| n.to_string()).unwrap_or_default();
                if member.is_file() && is_pgn_member(&member_name) {
                    pgn += 1;
                    let source = names.next(name, &member_name);
                    chunker.stream(&source, &mut member);
                }
            }
            Ok(None) => {
                if pgn == 0 {
                    chunker.problem(name, no_pgn_members(members));
                }
                break;
            }
            Err(e) => {
                chunker.problem(name, format!("zip archive breaks off: {e}"));
                break;
            }
        }
    }
}

/// The sources an input file holds, named as `classify` names them in the
/// table's `source` (a zip archive's PGN members, in directory order); for
/// any other file, the file itself. `None` when they cannot be listed
/// without reading the games (standard input, a zip archive whose
/// directory is damaged).
pub fn source_names(input: &Input) -> io::Result<Option<Vec<String>>> {
    let Input::File(path) = input else {
        return Ok(None);
    };
    let name = input.name();
    let mut file = BufReader::new(File::open(path)?);
    if FileKind::sniff(file.fill_buf()?) != FileKind::Zip {
        return Ok(Some(vec![name]));
    }
    let Ok(mut directory) = super::zip_dir::CentralDirectory::open(&mut file) else {
        return Ok(None);
    };
    let mut names = MemberNames::new();
    let mut sources = Vec::new();
    while let Some(entry) = directory.next(&mut file) {
        let Ok(entry) = entry else {
            return Ok(None);
        };
        if !entry.is_dir() && is_pgn_member(&entry.name) {
            sources.push(names.next(&name, &entry.name));
        }
    }
    Ok(Some(sources))
}
