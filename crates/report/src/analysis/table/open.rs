//! Finding and opening tables: the Parquet files behind the paths given
//! (folders, wildcards), each opened for a scan of its own columns, and the
//! batches that run many queries over one scan.

use super::*;

/// `DIR` stands for `DIR/games.parquet`.
/// The table files behind the command line's tables: a `games.parquet`
/// file; a folder holding one; a dataset folder of shards (every
/// `.parquet` file below it, in sorted order: `classify --shard-per-input`
/// writes one per input, and a cluster run writes many); or a pattern with
/// `*` and `?` in its last part (`tables/2024-*.parquet`).
pub fn table_paths(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in inputs {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.contains(['*', '?']) {
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.is_file()
                        && f.file_name()
                            .is_some_and(|n| wildcard_match(&name, &n.to_string_lossy()))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                bail!("{}: no file matches", p.display());
            }
            out.extend(found);
        } else if p.is_dir() && p.join("games.parquet").is_file() {
            out.push(p.join("games.parquet"));
        } else if p.is_dir() {
            let before = out.len();
            parquet_below(p, &mut out)?;
            if out.len() == before {
                bail!(
                    "{}: no games table (run `remis classify` first)",
                    p.display()
                );
            }
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            bail!(
                "{}: no games table (run `remis classify` first)",
                p.display()
            );
        }
    }
    Ok(out)
}

/// Every `*.parquet` file below `dir`, hidden ones too (a shard of the
/// input `.x.pgn` is `.x.parquet`; remis's temporary files end in `.tmp`,
/// so none is taken). Only regular files are taken, so a FIFO or a device
/// named like a table cannot block or flood a run, and each folder is
/// walked once, by its device and inode, so a symlink loop is walked once.
pub(super) fn parquet_below(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    parquet_below_once(dir, out, &mut seen)
}

pub(super) fn parquet_below_once(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<(u64, u64)>,
) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    if !seen.insert((meta.dev(), meta.ino())) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            parquet_below_once(&path, out, seen)?;
        } else if meta.is_file() && remis_core::input::is_parquet_name(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// `*` matches any run of characters, `?` any one.
pub(super) fn wildcard_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A games table opened for lazy queries.
pub struct OpenTable {
    pub lf: LazyFrame,
    /// Held open for as long as the queries run: polars takes paths as
    /// text, so a path that is not UTF-8 is given to it as this open
    /// file's `/proc/self/fd` name.
    _file: std::fs::File,
}

/// Opens a games table lazily, after checking that it is a Parquet file
/// written by `remis classify`: every error names the file.
pub fn scan_one(path: &Path) -> Result<OpenTable> {
    let unreadable = |e: &dyn std::fmt::Display| {
        anyhow::anyhow!(
            "{}: not a games table written by `remis classify` (not a readable Parquet file: {e})",
            path.display()
        )
    };
    let file = std::fs::File::open(path).map_err(|e| unreadable(&e))?;
    let schema = file
        .try_clone()
        .map_err(PolarsError::from)
        .and_then(|f| ParquetReader::new(f).schema())
        .map_err(|e| unreadable(&e))?;
    // The footer checked before polars reads a page by it: a table cut
    // under its footer would be read past its end on polars' threads.
    remis_table::parquet_input::checked_metadata(&file).map_err(|e| unreadable(&e))?;
    let missing: Vec<&str> = Column::ALL
        .into_iter()
        .map(Column::name)
        .filter(|c| !schema.contains(c))
        .collect();
    if !missing.is_empty() {
        bail!(
            "{}: not a games table written by this version of `remis classify` (classify again): columns missing: {}",
            path.display(),
            missing.join(", ")
        );
    }
    let name = match path.to_str() {
        Some(name) => name.to_string(),
        None => {
            use std::os::fd::AsRawFd;
            format!("/proc/self/fd/{}", file.as_raw_fd())
        }
    };
    // Only the file's own columns: a dataset's `year=2025/` folders name
    // where a shard lies, and must not override the rows' `year`.
    let args = ScanArgsParquet {
        hive_options: HiveOptions {
            enabled: Some(false),
            ..HiveOptions::default()
        },
        glob: false,
        ..ScanArgsParquet::default()
    };
    let lf = LazyFrame::scan_parquet(PlRefPath::new(name.as_str()), args)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    Ok(OpenTable { lf, _file: file })
}

/// Runs a query on polars' streaming engine: the table is read in
/// batches, so memory holds the query's groups, never the table's rows.
pub fn collect(lf: LazyFrame) -> PolarsResult<DataFrame> {
    Ok(lf.collect_with_engine(Engine::Streaming)?.unwrap_single())
}

/// Queries run together on the streaming engine: their common part (the
/// scan and the preparation of the rows) is computed once for all of them.
#[derive(Default)]
pub struct Batch {
    plans: Vec<DslPlan>,
}

/// A query's place in a [`Batch`], to find its result.
#[derive(Copy, Clone, Debug)]
pub struct Ticket(usize);

impl Batch {
    pub fn add(&mut self, query: LazyFrame) -> Ticket {
        self.plans.push(query.logical_plan);
        Ticket(self.plans.len() - 1)
    }

    pub fn run(self) -> PolarsResult<Results> {
        // The summary's batches in the default path hold no query (their
        // counts are made in Rust): nothing for the engine to start.
        if self.plans.is_empty() {
            return Ok(Results(Vec::new()));
        }
        let frames =
            LazyFrame::collect_all_with_engine(self.plans, Engine::Streaming, OptFlags::default())?;
        Ok(Results(frames))
    }
}

/// The frames of a [`Batch`], by ticket.
pub struct Results(Vec<DataFrame>);

impl Results {
    pub fn get(&self, ticket: Ticket) -> &DataFrame {
        &self.0[ticket.0]
    }
}
