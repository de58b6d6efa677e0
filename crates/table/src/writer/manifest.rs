//! A table's manifest: what it was made from (each input's path, size, times
//! and SHA-256) and by which run, kept in its Parquet footer; and the
//! rewrite of that footer once the inputs' digests are known.

use super::*;

/// Rewrites the footer of the finished Parquet file `file` with the
/// manifest `json` in place of the one it holds. polars writes the footer's
/// key-value metadata when the writer is created, before the inputs have
/// been read; the footer is the file's tail (Thrift metadata, its length,
/// `PAR1`), so it is cut off and written again, the row groups untouched.
pub(super) fn replace_footer_manifest(file: &File, json: &str) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom, Write};
    let (mut metadata, meta_start) = read_footer(file)?;
    set_manifest(&mut metadata, json);
    let mut file = file;
    file.set_len(meta_start)?;
    file.seek(SeekFrom::Start(meta_start))?;
    write_footer(&mut file, &metadata)?;
    file.flush()
}

fn invalid(what: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
}

/// The footer of the Parquet file `file` (its Thrift metadata), and where
/// it starts: the row groups' bytes are those from 4 (after `PAR1`) to it.
pub(super) fn read_footer(
    file: &File,
) -> std::io::Result<(polars_parquet_format::FileMetaData, u64)> {
    use polars_parquet_format::thrift::protocol::TCompactInputProtocol;
    use std::io::{Read, Seek, SeekFrom};
    let mut file = file;
    let len = file.seek(SeekFrom::End(0))?;
    if len < 12 {
        return Err(invalid("a Parquet file too short for a footer".into()));
    }
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::Start(len - 8))?;
    file.read_exact(&mut tail)?;
    if &tail[4..] != b"PAR1" {
        return Err(invalid("no Parquet footer".into()));
    }
    let meta_len = u64::from(u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")));
    let meta_start = len
        .checked_sub(8 + meta_len)
        .filter(|&start| start >= 4)
        .ok_or_else(|| invalid("a footer longer than the file".into()))?;
    let mut bytes = vec![0u8; meta_len as usize];
    file.seek(SeekFrom::Start(meta_start))?;
    file.read_exact(&mut bytes)?;
    let mut input = TCompactInputProtocol::new(bytes.as_slice(), bytes.len() * 2 + 1024);
    let metadata = polars_parquet_format::FileMetaData::read_from_in_protocol(&mut input)
        .map_err(|e| invalid(format!("the footer cannot be read: {e}")))?;
    Ok((metadata, meta_start))
}

/// Puts the manifest `json` in the footer, in place of any it holds.
pub(super) fn set_manifest(metadata: &mut polars_parquet_format::FileMetaData, json: &str) {
    let entries = metadata.key_value_metadata.get_or_insert_with(Vec::new);
    entries.retain(|kv| kv.key != MANIFEST_KEY);
    entries.push(polars_parquet_format::KeyValue {
        key: MANIFEST_KEY.to_string(),
        value: Some(json.to_string()),
    });
}

/// Writes the footer (Thrift metadata, its length, `PAR1`) at the
/// writer's place.
pub(super) fn write_footer(
    out: &mut impl std::io::Write,
    metadata: &polars_parquet_format::FileMetaData,
) -> std::io::Result<()> {
    use polars_parquet_format::thrift::protocol::TCompactOutputProtocol;
    let mut bytes = Vec::new();
    let written = metadata
        .write_to_out_protocol(&mut TCompactOutputProtocol::new(&mut bytes))
        .map_err(|e| invalid(format!("the footer cannot be written: {e}")))?;
    debug_assert_eq!(written, bytes.len());
    let written = u32::try_from(bytes.len()).map_err(|_| invalid("a footer over 4 GiB".into()))?;
    bytes.extend_from_slice(&written.to_le_bytes());
    bytes.extend_from_slice(b"PAR1");
    out.write_all(&bytes)
}

/// The key of the manifest in a table's Parquet footer.
pub const MANIFEST_KEY: &str = "remis.manifest";

/// What a table was made from, stored in its Parquet footer (the footer
/// also holds its row count): the inputs as the file system saw them, and
/// the remis that read them. A shard names the one input it came from, so
/// that another input never replaces it, and a rerun can tell whether it is
/// still current.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub remis: String,
    pub inputs: Vec<InputStamp>,
    /// The run that wrote the table, for the report's provenance: remis's
    /// commit and the command line (absent in tables of older remis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RunInfo>,
}

/// The run that wrote a table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunInfo {
    /// The commit remis was built from (empty outside a git checkout).
    pub commit: String,
    /// The command line, as typed.
    pub command: String,
}

/// One input: its path (canonical where it exists), size, modification
/// time and status-change time; standard input has none of them. The
/// status-change time (ctime) is the kernel's: no user can set it back, so
/// a file rewritten at the same size with its modification time reset
/// still differs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InputStamp {
    pub path: String,
    pub bytes: Option<u64>,
    pub modified_ns: Option<u128>,
    #[serde(default)]
    pub changed_ns: Option<u128>,
    /// The SHA-256 of the input's bytes as stored (lower-case hex),
    /// computed while its games were read; absent when it was not read to
    /// its end, and in tables of older remis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

impl InputStamp {
    pub fn of_path(path: &Path) -> InputStamp {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let meta = std::fs::metadata(path).ok();
        use std::os::unix::fs::MetadataExt;
        InputStamp {
            path: canonical.to_string_lossy().into_owned(),
            bytes: meta.as_ref().map(|m| m.len()),
            modified_ns: meta
                .as_ref()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos()),
            changed_ns: meta.and_then(|m| {
                let seconds = u128::try_from(m.ctime()).ok()?;
                Some(seconds * 1_000_000_000 + u128::try_from(m.ctime_nsec()).ok()?)
            }),
            sha256: None,
        }
    }

    /// The same file as it was: path, size and times (the digest aside,
    /// which only a read gives).
    pub fn same_file(&self, other: &InputStamp) -> bool {
        self.path == other.path
            && self.bytes == other.bytes
            && self.modified_ns == other.modified_ns
            && self.changed_ns == other.changed_ns
    }

    pub fn stdin() -> InputStamp {
        InputStamp {
            path: "-".into(),
            bytes: None,
            modified_ns: None,
            changed_ns: None,
            sha256: None,
        }
    }
}

/// Why a table's manifest could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("{path}: not a readable Parquet file: {cause}")]
    Unreadable {
        path: std::path::PathBuf,
        cause: PolarsError,
    },
    #[error("{path}: its remis manifest is corrupt: {cause}")]
    Corrupt {
        path: std::path::PathBuf,
        cause: String,
    },
}

impl Manifest {
    pub fn new(inputs: Vec<InputStamp>) -> Manifest {
        Manifest {
            remis: env!("CARGO_PKG_VERSION").to_string(),
            inputs,
            run: None,
        }
    }

    pub(super) fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a manifest is plain data")
    }

    /// The manifest of an existing table: `None` when the file has none
    /// (not written by remis, or by a remis before manifests).
    pub fn read(path: &Path) -> Result<Option<Manifest>, ManifestError> {
        let unreadable = |cause| ManifestError::Unreadable {
            path: path.to_path_buf(),
            cause,
        };
        let file = File::open(path).map_err(|e| unreadable(e.into()))?;
        let mut reader = ParquetReader::new(file);
        let metadata = reader.get_metadata().map_err(unreadable)?;
        let Some(value) = metadata
            .key_value_metadata
            .as_ref()
            .and_then(|kv| kv.iter().find(|kv| kv.key == MANIFEST_KEY))
            .map(|kv| kv.value.clone().unwrap_or_default())
        else {
            return Ok(None);
        };
        serde_json::from_str(&value)
            .map(Some)
            .map_err(|e| ManifestError::Corrupt {
                path: path.to_path_buf(),
                cause: e.to_string(),
            })
    }
}
