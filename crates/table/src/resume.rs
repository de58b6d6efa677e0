//! Resuming a `classify` that was stopped (`--resume`): a kill, a power
//! loss, a full disk. The rows go to *parts* committed one at a time
//! beside the table, each followed by a *checkpoint* that says how far
//! the input was read; a run started again with `--resume` skips the
//! games the parts already hold, and the table is made from the parts
//! once the last game is in one.
//!
//! The folder `NAME.resume` beside the table `NAME` holds `000000.part`,
//! `000001.part`, … (Parquet files, named so that no reader of a dataset
//! takes them for tables) and `checkpoint.json`. A part, then the
//! checkpoint naming it, are written through [`AtomicFile`]: flushed to
//! disk and renamed into place whole. So whenever the run stops, the last
//! checkpoint and every part it names are whole; a part it does not name
//! (the run stopped between the two) is written again.
//!
//! A checkpoint belongs to one run: the same inputs as they were (path,
//! size, modification and status-change times), the same remis and the
//! same options that shape the rows. Any other run refuses it and says
//! why, rather than mix rows of two runs in one table.

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
    sync::Arc,
};

use polars::prelude::DataFrame;
use remis_core::{input::InputProblem, rules::Ending};

use crate::{
    safe_file::{AtomicFile, SafeFileError},
    writer::{InputStamp, Manifest, ParquetSink, SinkError},
};

/// Rows per part by default: a stop loses at most this many games' work
/// (some 5 s of work on two cores).
pub const PART_ROWS: usize = 1 << 18;

/// The checkpoint file's name in the folder.
const CHECKPOINT: &str = "checkpoint.json";

/// A checkpoint is small (a few numbers per source); a larger file is not
/// one remis wrote.
const CHECKPOINT_MAX_BYTES: u64 = 256 << 20;

/// Why a run cannot resume, or cannot keep its checkpoints.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("{path}: cannot keep checkpoints here: {cause}")]
    Folder {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: not a folder of checkpoints (a symlink or a file); refusing to use it")]
    NotAFolder { path: PathBuf },
    #[error("{path}: not a checkpoint remis can read ({cause}); remove its folder to start again")]
    Corrupt { path: PathBuf, cause: String },
    #[error(
        "{path}: the checkpoint is of another run ({what}); classify the same inputs with the same options and remis, or remove its folder to start again"
    )]
    OtherRun { path: PathBuf, what: String },
    #[error(
        "{path}: a part the checkpoint names is missing or changed; remove the folder to start again"
    )]
    PartChanged { path: PathBuf },
    #[error(
        "{path}: another run is writing these checkpoints now; wait for it, or give this run another --out"
    )]
    Busy { path: PathBuf },
    #[error(
        "standard input cannot be resumed (it cannot be checked to be the same): give the file itself"
    )]
    Stdin,
    #[error(transparent)]
    Sink(#[from] SinkError),
    #[error(transparent)]
    Safe(#[from] SafeFileError),
}

/// One committed part.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Part {
    pub name: String,
    pub rows: u64,
    pub bytes: u64,
}

/// How far a run got: what the parts hold and where reading resumes.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    /// What the rows depend on besides the inputs: remis and the options.
    pub run: String,
    pub inputs: Vec<InputStamp>,
    pub parts: Vec<Part>,
    /// Rows in the parts: the games classified.
    pub rows: u64,
    /// Game texts read, in reading order, those that became rows and the
    /// stretches that were not PGN alike: the reader skips this many.
    pub spans: u64,
    /// Games numbered so far in each source.
    pub games_per_source: BTreeMap<String, u32>,
    /// Rows by ending (`ending` column names).
    pub endings: BTreeMap<String, u64>,
    /// What the games' text showed so far (source, message); the inputs'
    /// own problems are found again as they are read.
    pub problems: Vec<(String, String)>,
}

impl Checkpoint {
    /// The rows by ending.
    pub fn endings(&self) -> BTreeMap<Ending, u64> {
        Ending::ALL
            .into_iter()
            .filter_map(|e| self.endings.get(e.as_str()).map(|&n| (e, n)))
            .collect()
    }

    /// The games' problems.
    pub fn problems(&self) -> Vec<InputProblem> {
        self.problems
            .iter()
            .map(|(source, message)| InputProblem {
                source: source.clone(),
                message: message.clone(),
            })
            .collect()
    }
}

/// Where the writing stands after a row group: what a checkpoint records.
pub struct Position<'a> {
    pub spans: u64,
    pub games_per_source: &'a HashMap<Arc<str>, u32>,
    pub endings: &'a BTreeMap<Ending, u64>,
    pub problems: &'a [InputProblem],
}

/// The parts of a run that can resume, and their checkpoint.
pub struct Parts {
    /// Held while the run lasts: see [`ResumeError::Busy`].
    _lock: std::fs::File,
    dir: PathBuf,
    checkpoint: Checkpoint,
    /// Rows per part, about (a part closes at the first row group that
    /// reaches it).
    every: u64,
    current: Option<ParquetSink>,
    current_rows: u64,
    manifest: Manifest,
}

impl Parts {
    /// The folder of the table's parts and checkpoint: `NAME.resume`.
    pub fn folder_of(table: &Path) -> PathBuf {
        use std::os::unix::ffi::OsStrExt;
        let name = table.file_name().map_or(&b"games"[..], |n| n.as_bytes());
        table.with_file_name(crate::safe_file::fit_name(name, b".resume"))
    }

    /// Opens the checkpoint of the table's run, or starts one: `run` names
    /// remis and the options that shape the rows, `inputs` the inputs as
    /// they are now; both must be those of the checkpoint found.
    pub fn open(
        table: &Path,
        run: String,
        inputs: &[InputStamp],
        manifest: Manifest,
        every: usize,
    ) -> Result<Parts, ResumeError> {
        if inputs.iter().any(|i| i.bytes.is_none()) {
            return Err(ResumeError::Stdin);
        }
        let dir = Parts::folder_of(table);
        let folder_error = |cause| ResumeError::Folder {
            path: dir.clone(),
            cause,
        };
        match std::fs::create_dir(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                // Never through a symlink: the parts stay beside the table.
                let meta = std::fs::symlink_metadata(&dir).map_err(folder_error)?;
                if !meta.file_type().is_dir() {
                    return Err(ResumeError::NotAFolder { path: dir });
                }
            }
            Err(e) => return Err(folder_error(e)),
        }
        // One run at a time: two would write the same parts. The lock is
        // the kernel's, on the folder itself, so it goes with the process
        // however it ends (a kill included) and leaves no file behind.
        let lock = std::fs::File::open(&dir).map_err(|cause| ResumeError::Folder {
            path: dir.clone(),
            cause,
        })?;
        lock.try_lock()
            .map_err(|_| ResumeError::Busy { path: dir.clone() })?;
        let path = dir.join(CHECKPOINT);
        let checkpoint = match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Checkpoint {
                run,
                inputs: inputs.to_vec(),
                ..Checkpoint::default()
            },
            Err(e) => return Err(ResumeError::Folder { path, cause: e }),
            Ok(_) => {
                let bytes = crate::safe_file::read_bounded(&path, CHECKPOINT_MAX_BYTES)?;
                let found: Checkpoint =
                    serde_json::from_slice(&bytes).map_err(|e| ResumeError::Corrupt {
                        path: path.clone(),
                        cause: e.to_string(),
                    })?;
                check_same_run(&path, &found, &run, inputs)?;
                check_parts(&dir, &found)?;
                found
            }
        };
        Ok(Parts {
            _lock: lock,
            dir,
            checkpoint,
            every: every.max(1) as u64,
            current: None,
            current_rows: 0,
            manifest,
        })
    }

    /// What the committed parts hold.
    pub fn committed(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// The committed parts, in table order.
    pub fn part_paths(&self) -> Vec<PathBuf> {
        self.checkpoint
            .parts
            .iter()
            .map(|p| self.dir.join(&p.name))
            .collect()
    }

    /// Writes a row group; commits the part (and a checkpoint at `at`)
    /// when it has reached its rows.
    pub fn write(&mut self, group: &DataFrame, at: &Position<'_>) -> Result<(), ResumeError> {
        let sink = match &mut self.current {
            Some(sink) => sink,
            None => {
                let name = self.part_name();
                self.current
                    .insert(ParquetSink::create(&self.dir.join(name), &self.manifest)?)
            }
        };
        sink.write(group)?;
        self.current_rows += group.height() as u64;
        if self.current_rows >= self.every {
            self.commit(at)?;
        }
        Ok(())
    }

    /// Commits the part being written, if it has rows, and the checkpoint.
    pub fn finish(&mut self, at: &Position<'_>) -> Result<(), ResumeError> {
        if self.current.is_some() {
            self.commit(at)?;
        }
        Ok(())
    }

    /// Removes the parts and the checkpoint, and the folder when nothing
    /// else is in it: once the table is in place, they are not needed.
    pub fn remove(self) -> Result<(), ResumeError> {
        // The checkpoint, the parts, and the temporary files of either
        // that a stopped run left.
        let own: Vec<&str> = std::iter::once(CHECKPOINT)
            .chain(self.checkpoint.parts.iter().map(|p| p.name.as_str()))
            .collect();
        let entries = std::fs::read_dir(&self.dir).map_err(|cause| ResumeError::Folder {
            path: self.dir.clone(),
            cause,
        })?;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let ours = own.iter().any(|&o| {
                name == o || crate::safe_file::temporary_pid(&name, o.as_ref()).is_some()
            });
            if ours {
                // `remove_file` removes a symlink itself, never what it
                // points to.
                let _ = std::fs::remove_file(entry.path());
            }
        }
        std::fs::remove_dir(&self.dir).map_err(|cause| ResumeError::Folder {
            path: self.dir.clone(),
            cause,
        })
    }

    fn part_name(&self) -> String {
        format!("{:06}.part", self.checkpoint.parts.len())
    }

    fn commit(&mut self, at: &Position<'_>) -> Result<(), ResumeError> {
        let Some(sink) = self.current.take() else {
            return Ok(());
        };
        let name = self.part_name();
        let table = sink.finish()?;
        let bytes = table
            .readable_path()
            .metadata()
            .map_err(|cause| ResumeError::Folder {
                path: table.readable_path().to_path_buf(),
                cause,
            })?
            .len();
        table.commit()?;
        let checkpoint = &mut self.checkpoint;
        checkpoint.parts.push(Part {
            name,
            rows: self.current_rows,
            bytes,
        });
        checkpoint.rows += self.current_rows;
        self.current_rows = 0;
        checkpoint.spans = at.spans;
        checkpoint.games_per_source = at
            .games_per_source
            .iter()
            .map(|(source, &n)| (source.to_string(), n))
            .collect();
        checkpoint.endings = at
            .endings
            .iter()
            .map(|(e, &n)| (e.as_str().to_string(), n))
            .collect();
        checkpoint.problems = at
            .problems
            .iter()
            .map(|p| (p.source.clone(), p.message.clone()))
            .collect();
        let json = serde_json::to_vec(checkpoint).expect("a checkpoint is plain data");
        AtomicFile::write_all(&self.dir.join(CHECKPOINT), &json)?;
        Ok(())
    }
}

fn check_same_run(
    path: &Path,
    found: &Checkpoint,
    run: &str,
    inputs: &[InputStamp],
) -> Result<(), ResumeError> {
    let other = |what: String| ResumeError::OtherRun {
        path: path.to_path_buf(),
        what,
    };
    if found.run != run {
        return Err(other(format!(
            "it was made by `{}`, this run is `{run}`",
            found.run
        )));
    }
    if found.inputs.len() != inputs.len() {
        return Err(other(format!(
            "{} inputs, this run has {}",
            found.inputs.len(),
            inputs.len()
        )));
    }
    for (was, now) in found.inputs.iter().zip(inputs) {
        if !was.same_file(now) {
            return Err(other(format!(
                "{} is not the file it read (path, size or times differ)",
                now.path
            )));
        }
    }
    Ok(())
}

fn check_parts(dir: &Path, found: &Checkpoint) -> Result<(), ResumeError> {
    for part in &found.parts {
        let path = dir.join(&part.name);
        let whole = part.name.ends_with(".part")
            && !part.name.contains('/')
            && std::fs::symlink_metadata(&path)
                .is_ok_and(|m| m.file_type().is_file() && m.len() == part.bytes);
        if !whole {
            return Err(ResumeError::PartChanged { path });
        }
    }
    if found.parts.iter().map(|p| p.rows).sum::<u64>() != found.rows {
        return Err(ResumeError::Corrupt {
            path: dir.join(CHECKPOINT),
            cause: "its parts' rows do not add up".into(),
        });
    }
    Ok(())
}
