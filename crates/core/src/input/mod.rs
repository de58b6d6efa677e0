//! Where games come from: files, folders and standard input; what a file
//! holds told by its magic bytes (gzip, bzip2, zstd, zip members, Parquet);
//! each input's SHA-256 computed as it is read; the byte stream cut into
//! chunks of whole games for the workers.

mod chunk;
mod columnar;
mod frame;
mod limits;
mod open;
pub mod pgn;
mod tag_line;
mod text;
mod zip_dir;

pub use chunk::{Chunk, chunk_stream};
pub use columnar::{
    ColumnarError, ColumnarGames, ColumnarSource, NoColumnarSource, Rows, TagTable,
};
pub use frame::{Framer, GameSpan};
pub use limits::{Cap, Limits, MAX_TAG_LINE_BYTES};
pub use open::{InputProblem, ReadReport, read_chunks, source_names};
pub use text::NormalizedText;

use std::{
    collections::HashSet,
    path::{Path, PathBuf},
};

/// One input named on the command line, after folders are expanded.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Input {
    File(PathBuf),
    Stdin,
}

impl Input {
    pub fn name(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin => "-".to_string(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{0}: no such file or folder")]
    Missing(PathBuf),
    #[error("{path}: cannot list folder: {cause}")]
    Folder {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error(
        "{0}: no PGN or Parquet files (.pgn, .pgn.gz, .pgn.bz2, .pgn.zst, .zip, .parquet) in this folder"
    )]
    EmptyFolder(PathBuf),
}

/// The inputs of a run, in reading order, and what was passed over.
#[derive(Debug, Default)]
pub struct Resolved {
    pub inputs: Vec<Input>,
    /// Where each input sits in what was named, for naming its shard: a
    /// file found in a folder, its path below that folder; a file named
    /// itself, its name below the `key=value` partition folders that hold
    /// it (`year=2025/month=01/train-00000-of-00001.parquet`); standard
    /// input, `stdin`.
    pub placed: Vec<PathBuf>,
    /// Paths passed over, each with the reason: special files met in a
    /// folder, a file reached a second time (by a symlink or named twice).
    pub skipped: Vec<(PathBuf, &'static str)>,
}

/// Resolves command-line inputs: `-` is standard input, a folder stands for
/// every PGN file below it in sorted order. A missing input is an error
/// before any work starts. Each file is read once, however often it is
/// reached; in folders, FIFOs, sockets and devices are passed over (named
/// on the command line, a FIFO is read like standard input).
pub fn resolve(args: &[PathBuf], tables: &dyn ColumnarSource) -> Result<Resolved, InputError> {
    let mut resolved = Resolved::default();
    let mut seen = HashSet::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            resolved.inputs.push(Input::Stdin);
            resolved.placed.push(PathBuf::from("stdin"));
            continue;
        }
        let path = arg.clone();
        let Ok(meta) = std::fs::metadata(&path) else {
            return Err(InputError::Missing(path));
        };
        if meta.is_dir() {
            let before = resolved.inputs.len();
            walk(&path, &path, tables, &mut resolved, &mut seen)?;
            if resolved.inputs.len() == before {
                return Err(InputError::EmptyFolder(path));
            }
        } else if seen.insert(canonical(&path)) {
            resolved.placed.push(partition_path(&path));
            resolved.inputs.push(Input::File(path));
        } else {
            resolved
                .skipped
                .push((path, "named more than once; read once"));
        }
    }
    Ok(resolved)
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A file's name below the `key=value` folders that hold it.
fn partition_path(path: &Path) -> PathBuf {
    let mut parts: Vec<&std::ffi::OsStr> = path.file_name().into_iter().collect();
    for folder in path.parent().into_iter().flat_map(Path::ancestors) {
        match folder.file_name() {
            Some(name) if name.to_string_lossy().contains('=') => parts.push(name),
            _ => break,
        }
    }
    parts.iter().rev().collect()
}

fn walk(
    root: &Path,
    dir: &Path,
    tables: &dyn ColumnarSource,
    out: &mut Resolved,
    seen: &mut HashSet<PathBuf>,
) -> Result<(), InputError> {
    if !seen.insert(canonical(dir)) {
        out.skipped.push((
            dir.to_path_buf(),
            "a folder already visited (symlink loop?)",
        ));
        return Ok(());
    }
    let folder_error = |cause| InputError::Folder {
        path: dir.to_path_buf(),
        cause,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(folder_error)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(folder_error)?;
    entries.sort();
    for path in entries {
        let Ok(meta) = std::fs::metadata(&path) else {
            out.skipped.push((path, "unreadable or a broken symlink"));
            continue;
        };
        if meta.is_dir() {
            walk(root, &path, tables, out, seen)?;
        } else if !is_input_file_name(&path) {
            continue;
        } else if !meta.is_file() {
            out.skipped
                .push((path, "not a regular file (FIFO, socket or device)"));
        } else if is_parquet_name(&path) && tables.is_games_table(&path) {
            // A rerun into the input folder (`classify d --out d`) must not
            // read the table the last run wrote there.
            out.skipped
                .push((path, "a games table written by remis, not read as input"));
        } else if seen.insert(canonical(&path)) {
            let placed = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            out.placed.push(placed);
            out.inputs.push(Input::File(path));
        } else {
            out.skipped
                .push((path, "a file already read under another name"));
        }
    }
    Ok(())
}

/// Where a game, or a fault in it, is in its source: a line of PGN text,
/// or a row of a table of games stored as rows (and a line of that row's
/// movetext, which may hold line breaks).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Place {
    /// The row (from 1), for games stored as rows.
    pub row: Option<u64>,
    /// The line (from 1): of the source's text, or of the row's movetext.
    pub line: u64,
}

impl Place {
    /// A line of PGN text.
    pub const fn line(line: u64) -> Place {
        Place { row: None, line }
    }

    /// The first line of a row's movetext.
    pub const fn row(row: u64) -> Place {
        Place {
            row: Some(row),
            line: 1,
        }
    }

    /// The place `lines` lines further down.
    pub const fn down(self, lines: u64) -> Place {
        Place {
            line: self.line + lines,
            ..self
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.row {
            None => write!(f, "line {}", self.line),
            Some(row) if self.line == 1 => write!(f, "row {row}"),
            Some(row) => write!(f, "row {row}, line {} of its movetext", self.line),
        }
    }
}

/// The names of the files a folder's walk reads (`classify --help` and the
/// README list them; `tests/it/help_texts.rs` checks they agree).
pub const FOLDER_SUFFIXES: [&str; 6] = [
    ".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.zst", ".zip", ".parquet",
];

/// A file name remis reads when it finds it in a folder.
pub fn is_input_file_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    FOLDER_SUFFIXES.iter().any(|ext| name.ends_with(ext))
}

/// Whether a file's name ends in `.parquet` (any case). Not
/// `Path::extension`: the shard of an input named `.pgn` is `.parquet`, a
/// name that is all suffix and has no extension to it, and it is a table
/// all the same, to the commands that read tables and to the folder walk
/// that must pass over them.
pub fn is_parquet_name(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    path.file_name()
        .is_some_and(|n| n.as_bytes().to_ascii_lowercase().ends_with(b".parquet"))
}

/// Total size in bytes of the inputs, when every one is a file.
pub fn total_size(inputs: &[Input]) -> Option<u64> {
    inputs
        .iter()
        .map(|i| match i {
            Input::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Input::Stdin => None,
        })
        .sum()
}
