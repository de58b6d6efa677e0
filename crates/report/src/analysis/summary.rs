//! Summaries that merge: every count a report, `stats`, `sofia` or
//! `scoring` needs, computed once per games table and added up across
//! tables. The summary of a union of tables equals the merged summaries of
//! the tables (every part is a sum of counts over games, or a bounded list
//! kept in table order), so a dataset of any number of shards is reported
//! from small per-shard files and never from all its rows at once.
//!
//! A summary belongs to one set of filters, band scheme, event patterns and
//! rule catalogue ([`Config`]); its file beside the table names that set by
//! a hash, and records the table's size and modification time, so that a
//! stale, foreign or corrupt file is refused and the rows are read instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::audit::Audit;
use super::games::{Clocks, FormatCounts, OpeningCounts, RatingGap, TimeClasses};
use super::merge::{Merge, pairs};
use super::outcomes::OutcomeCounts;
use super::players::PlayerCounts;
use super::rule_study::RuleStudyCounts;
use super::scoring::ScoringCounts;
use super::table::{CubeKey, Filters};
use crate::study::events::EventCatalogue;
use crate::study::{Band, EventPatterns};

/// The counts behind every analysis, for one table or merged over many.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Rows read, and the rows left out by reason (`used` for the rest).
    pub coverage: BTreeMap<String, u64>,
    /// Rows made by `remis generate`.
    pub synthetic: u64,
    /// Rows with duplicate marks (`classify --dedup`): `--dedup` needs
    /// them in every table.
    pub dedup_marked: u64,
    /// The draw cube: games used by band, year, result kind, draw type and
    /// the length of drawn games.
    #[serde(with = "pairs")]
    pub cube: BTreeMap<CubeKey, u64>,
    /// Results from White's side by band and year.
    #[serde(with = "pairs")]
    pub outcomes: BTreeMap<(Band, Option<i16>), OutcomeCounts>,
    pub rating_gap: RatingGap,
    pub openings: OpeningCounts,
    pub time_classes: TimeClasses,
    pub clocks: Clocks,
    pub format: FormatCounts,
    pub scoring: ScoringCounts,
    pub audit: Audit,
    pub rule_study: RuleStudyCounts,
    pub players: PlayerCounts,
}

impl Summary {
    /// Rows read.
    pub fn rows(&self) -> u64 {
        self.coverage.values().sum()
    }
}

impl Merge for Summary {
    fn absorb(&mut self, other: Summary) {
        self.coverage.absorb(other.coverage);
        self.synthetic += other.synthetic;
        self.dedup_marked += other.dedup_marked;
        self.cube.absorb(other.cube);
        self.outcomes.absorb(other.outcomes);
        self.rating_gap.absorb(other.rating_gap);
        self.openings.absorb(other.openings);
        self.time_classes.absorb(other.time_classes);
        self.clocks.absorb(other.clocks);
        self.format.absorb(other.format);
        self.scoring.absorb(other.scoring);
        self.audit.absorb(other.audit);
        self.rule_study.absorb(other.rule_study);
        self.players.absorb(other.players);
    }
}

// ---------------------------------------------------------------------------
// What a summary is for.

/// The settings a summary's counts depend on. Two summaries merge only
/// when their configurations are equal.
pub struct Config<'a> {
    pub filters: &'a Filters,
    pub patterns: &'a EventPatterns,
    pub catalogue: &'a EventCatalogue,
}

impl Config<'_> {
    /// Every setting, in words: equal texts, equal configurations.
    pub fn fingerprint(&self) -> String {
        let f = self.filters;
        format!(
            "summary format {FORMAT_VERSION}; years {:?}; min_elo {:?}; basis {:?}; band edges {:?}; \
             time class {:?}; event {:?}; exclude event {:?}; variant {:?}; dedup {}; no bots {}; \
             play {:?}; short draws {:?}; event patterns {:016x}; catalogue {:016x}",
            f.years,
            f.min_elo,
            f.basis,
            f.bands.edge_list(),
            f.time_class,
            f.event.as_ref().map(|r| r.as_str()),
            f.exclude_event.as_ref().map(|r| r.as_str()),
            f.variant,
            f.dedup,
            f.no_bots,
            f.play,
            f.short_draws,
            self.patterns.source_hash(),
            self.catalogue.source_hash(),
        )
    }

    /// The summary file of a table under this configuration:
    /// `games.parquet` → `games.summary-1a2b3c4d.json.zst`.
    pub fn file_of(&self, table: &Path) -> PathBuf {
        let name = table
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = name.strip_suffix(".parquet").unwrap_or(&name);
        let hash = remis_core::fnv::fnv1a(self.fingerprint().as_bytes());
        table.with_file_name(format!("{stem}.summary-{:08x}.json.zst", hash as u32))
    }
}

/// Bumped whenever the counts a summary holds change meaning.
pub const FORMAT_VERSION: u32 = 3;
const FORMAT_NAME: &str = "remis-summary";

/// The table a summary was made from, as the file system saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableStamp {
    pub bytes: u64,
    pub modified_ns: u128,
}

impl TableStamp {
    pub fn of(table: &Path) -> std::io::Result<TableStamp> {
        let meta = std::fs::metadata(table)?;
        let modified_ns = meta
            .modified()?
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Ok(TableStamp {
            bytes: meta.len(),
            modified_ns,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct SummaryFile {
    format: String,
    version: u32,
    remis: String,
    config: String,
    table: TableStamp,
    summary: Summary,
}

/// Why a summary file was not used.
#[derive(Debug, thiserror::Error)]
pub enum SummaryFileError {
    #[error("{0}: no summary file")]
    Missing(PathBuf),
    #[error("{path}: not a readable remis summary ({cause})")]
    Corrupt { path: PathBuf, cause: String },
    #[error("{path}: a summary for other settings or another version of remis ({found})")]
    Foreign { path: PathBuf, found: String },
    #[error("{path}: the table changed after this summary was made (its size or time differs)")]
    Stale { path: PathBuf },
}

/// Writes a table's summary beside it (to a temporary file, then renamed,
/// so a reader never sees half a summary).
pub fn write(table: &Path, config: &Config, summary: &Summary) -> Result<PathBuf> {
    let path = config.file_of(table);
    let file = SummaryFile {
        format: FORMAT_NAME.into(),
        version: FORMAT_VERSION,
        remis: env!("CARGO_PKG_VERSION").into(),
        config: config.fingerprint(),
        table: TableStamp::of(table).with_context(|| format!("reading {}", table.display()))?,
        summary: summary.clone(),
    };
    let json = serde_json::to_vec(&file)?;
    let packed = zstd::encode_all(json.as_slice(), 3)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    remis_table::writer::register_temporary(&temp);
    let written = std::fs::write(&temp, packed)
        .with_context(|| format!("writing {}", temp.display()))
        .and_then(|()| {
            std::fs::rename(&temp, &path).with_context(|| format!("writing {}", path.display()))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    remis_table::writer::forget_temporary(&temp);
    written.map(|()| path)
}

/// Reads the summary of `table` for `config`, checking that it is one,
/// that it was made for these settings by this format, and that the table
/// is still the one it was made from.
pub fn read(table: &Path, config: &Config) -> Result<Summary, SummaryFileError> {
    let path = config.file_of(table);
    let packed = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(SummaryFileError::Missing(path));
        }
        Err(e) => {
            return Err(SummaryFileError::Corrupt {
                path,
                cause: e.to_string(),
            });
        }
    };
    let corrupt = |cause: String| SummaryFileError::Corrupt {
        path: path.clone(),
        cause,
    };
    let json = zstd::decode_all(packed.as_slice())
        .map_err(|e| corrupt(format!("not zstd-compressed: {e}")))?;
    // The header first: a file of another format is told as such, not as
    // a parse error deep inside.
    #[derive(Deserialize)]
    struct Header {
        format: String,
        version: u32,
        remis: String,
        config: String,
    }
    let header: Header =
        serde_json::from_slice(&json).map_err(|e| corrupt(format!("not a summary: {e}")))?;
    if header.format != FORMAT_NAME {
        return Err(corrupt(format!("format \"{}\"", header.format)));
    }
    if header.version != FORMAT_VERSION || header.config != config.fingerprint() {
        return Err(SummaryFileError::Foreign {
            path,
            found: format!("remis {}, format {}", header.remis, header.version),
        });
    }
    let file: SummaryFile = serde_json::from_slice(&json).map_err(|e| corrupt(e.to_string()))?;
    match TableStamp::of(table) {
        Ok(stamp) if stamp == file.table => Ok(file.summary),
        _ => Err(SummaryFileError::Stale { path }),
    }
}
