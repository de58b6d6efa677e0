//! Where games come from: files, folders and standard input; compression
//! told by magic bytes (gzip, bzip2, zstd, zip members); the byte stream cut
//! into chunks of whole games for the workers.

mod chunk;
mod open;

pub use chunk::{Chunk, find_game_boundary};
pub use open::{InputProblem, read_chunks};

use std::path::{Path, PathBuf};

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
    #[error("{path}: cannot list folder: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}: no PGN files (.pgn, .pgn.gz, .pgn.bz2, .pgn.zst, .zip) in this folder")]
    EmptyFolder(PathBuf),
}

/// Resolves command-line inputs: `-` is standard input, a folder stands for
/// every PGN file below it in sorted order. A missing input is an error
/// before any work starts.
pub fn resolve(args: &[String]) -> Result<Vec<Input>, InputError> {
    let mut inputs = Vec::new();
    for arg in args {
        if arg == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let path = PathBuf::from(arg);
        if path.is_dir() {
            let before = inputs.len();
            walk(&path, &mut inputs)?;
            if inputs.len() == before {
                return Err(InputError::EmptyFolder(path));
            }
        } else if path.exists() {
            inputs.push(Input::File(path));
        } else {
            return Err(InputError::Missing(path));
        }
    }
    Ok(inputs)
}

fn walk(dir: &Path, out: &mut Vec<Input>) -> Result<(), InputError> {
    let folder_error = |source| InputError::Folder {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(folder_error)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(folder_error)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else if is_pgn_file_name(&path) {
            out.push(Input::File(path));
        }
    }
    Ok(())
}

/// A file name remis reads when it finds it in a folder.
pub fn is_pgn_file_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    [".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.zst", ".zip"]
        .iter()
        .any(|ext| name.ends_with(ext))
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
