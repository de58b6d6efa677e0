//! Summaries that merge: every count a report, `stats`, `sofia` or
//! `scoring` needs, computed once per games table and added up across
//! tables. The summary of a union of tables equals the merged summaries of
//! the tables (every part is a sum of counts over games, or a bounded list
//! kept in table order; the one exception, an event split between tables,
//! is in [`super::crosstable`]), so a dataset of any number of shards is
//! reported from small per-shard files and never from all its rows at
//! once. One table's summary is itself added up from batches of its rows
//! ([`super::build`]): `classify` counts each chunk's rows as they are numbered.
//!
//! A summary belongs to one set of filters, band scheme, event patterns and
//! rule catalogue ([`Config`]); its file beside the table names that set by
//! a hash, and records the table's size and modification time, so that a
//! stale, foreign or corrupt file is refused and the rows are read instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use remis_table::safe_file::{AtomicFile, fit_name, open_regular, read_bounded};

use super::audit::Audit;
use super::format_audit::FormatAudit;
use super::games::{Clocks, FormatCounts, OpeningCounts, RatingGap, TimeClasses};
use super::merge::{Merge, pairs};
use super::outcomes::OutcomeCells;
use super::players::PlayerCounts;
use super::population::ByFormat;
use super::rule_study::RuleStudyCounts;
use super::scoring::ScoringCounts;
use super::table::{CubeKey, Filters};
use crate::study::EventPatterns;
use crate::study::events::EventCatalogue;

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
    /// Results from White's side by band and year, by format.
    pub outcomes: ByFormat<OutcomeCells>,
    /// Draws by mean rating and gap, by format.
    pub rating_gap: ByFormat<RatingGap>,
    /// Draws by opening, by format.
    pub openings: ByFormat<OpeningCounts>,
    pub time_classes: TimeClasses,
    pub clocks: Clocks,
    pub format: FormatCounts,
    pub format_audit: FormatAudit,
    pub scoring: ScoringCounts,
    pub audit: Audit,
    pub rule_study: RuleStudyCounts,
    /// The players of every game used.
    pub players: PlayerCounts,
    /// The players of the over-the-board classical games: the lead
    /// population's whenever the data hold any (`LeadFormat::of`), so that
    /// the Players section counts the games the band tables count.
    #[serde(default)]
    pub classical_players: PlayerCounts,
    /// Games by format and band, and those with a player their source file
    /// is named after: what kind of sample the table is.
    #[serde(default)]
    pub collection: ByFormat<super::collection::CollectedCounts>,
    /// Games and draws by band of the games whose speed was decided by
    /// evidence, not presumed: the sensitivity check of the lead figures.
    #[serde(default)]
    pub evidence_bands: ByFormat<super::collection::EvidenceBands>,
    /// Games and draws of rated games by cell of mean rating, gap and
    /// year, by format: what the expected-draw model is fitted on.
    #[serde(default)]
    pub expected: ByFormat<super::expected::DrawCells>,
}

impl Summary {
    /// Rows read.
    pub fn rows(&self) -> u64 {
        self.coverage.values().sum()
    }

    /// Rows read, or `None` when the counts overflow (a corrupt summary).
    pub fn checked_rows(&self) -> Option<u64> {
        self.coverage
            .values()
            .try_fold(0u64, |sum, &n| sum.checked_add(n))
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
        self.format_audit.absorb(other.format_audit);
        self.scoring.absorb(other.scoring);
        self.audit.absorb(other.audit);
        self.rule_study.absorb(other.rule_study);
        self.players.absorb(other.players);
        self.classical_players.absorb(other.classical_players);
        self.collection.absorb(other.collection);
        self.evidence_bands.absorb(other.evidence_bands);
        self.expected.absorb(other.expected);
        // The players' cells go with the players kept by name.
        super::expected::cells::keep_named_players(&mut self.expected, &self.players);
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
    pub aliases: &'a remis_table::players::Aliases,
}

impl Config<'_> {
    /// Every setting, in words: equal texts, equal configurations.
    pub fn fingerprint(&self) -> String {
        let f = self.filters;
        format!(
            "summary format {FORMAT_VERSION}; years {:?}; min_elo {:?}; basis {:?}; max gap {}; band edges {:?}; \
             time class {:?}; event {:?}; exclude event {:?}; variant {:?}; dedup {}; no bots {}; \
             play {:?}; short draws {:?}; event patterns {:016x}; catalogue {:016x}; player aliases {:016x}",
            f.years,
            f.min_elo,
            f.basis,
            f.max_gap,
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
            self.aliases.hash(),
        )
    }

    /// The summary file of a table under this configuration:
    /// `games.parquet` → `games.summary-1a2b3c4d.json.zst`. The name is
    /// the table's own bytes (two names that differ in one byte that is not
    /// UTF-8 keep two summaries), shortened with a hash when it would not
    /// fit in a file name.
    pub fn file_of(&self, table: &Path) -> PathBuf {
        use std::os::unix::ffi::OsStrExt;
        let name = table.file_name().map_or(&b""[..], |n| n.as_bytes());
        let stem = name.strip_suffix(b".parquet").unwrap_or(name);
        let hash = remis_core::fnv::fnv1a(self.fingerprint().as_bytes());
        let suffix = format!(".summary-{:08x}.json.zst", hash as u32);
        table.with_file_name(fit_name(stem, suffix.as_bytes()))
    }
}

/// Bumped whenever the counts a summary holds change meaning.
pub const FORMAT_VERSION: u32 = 16;
const FORMAT_NAME: &str = "remis-summary";

/// The table a summary was made from, by its content: its size, its row
/// count and the SHA-256 of its Parquet footer (the schema, every row
/// group's place, size, row count and column statistics, and the manifest
/// of its inputs). A table rewritten with other rows has another footer,
/// whatever its size and time; reading the footer costs a few kilobytes,
/// not the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableStamp {
    pub bytes: u64,
    pub rows: u64,
    pub footer_sha256: String,
}

/// A footer larger than this is no remis table's (a table of 100 million
/// rows has a footer of a few MiB).
const MAX_FOOTER_BYTES: u64 = 256 << 20;

impl TableStamp {
    pub fn of(table: &Path) -> std::io::Result<TableStamp> {
        use sha2::Digest;
        use std::io::{Read, Seek, SeekFrom};
        let invalid =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
        let mut file = open_regular(table).map_err(std::io::Error::other)?;
        let bytes = file.metadata()?.len();
        if bytes < 12 {
            return Err(invalid("too short for a Parquet file"));
        }
        let mut tail = [0u8; 8];
        file.seek(SeekFrom::Start(bytes - 8))?;
        file.read_exact(&mut tail)?;
        if &tail[4..] != b"PAR1" {
            return Err(invalid("not a Parquet file (no PAR1 at its end)"));
        }
        let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
        if footer_len > MAX_FOOTER_BYTES || footer_len + 12 > bytes {
            return Err(invalid("its Parquet footer length is impossible"));
        }
        file.seek(SeekFrom::Start(bytes - 8 - footer_len))?;
        let mut hasher = sha2::Sha256::new();
        std::io::copy(&mut (&mut file).take(footer_len), &mut hasher)?;
        let footer_sha256 = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let rows = remis_table::parquet_input::checked_row_count(table)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()))?;
        Ok(TableStamp {
            bytes,
            rows,
            footer_sha256,
        })
    }
}

/// A summary file: read with its summary owned, written with it borrowed
/// (a summary is tens of megabytes of maps on a large table: no copy).
#[derive(Serialize, Deserialize)]
struct SummaryFile<S = Summary> {
    format: String,
    version: u32,
    remis: String,
    config: String,
    table: TableStamp,
    summary: S,
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
    #[error(
        "{path}: the table changed after this summary was made (its size, rows or footer differ)"
    )]
    Stale { path: PathBuf },
}

/// Writes a table's summary beside it (to a temporary file, renamed when
/// whole, so a reader never sees half a summary).
pub fn write(table: &Path, config: &Config, summary: &Summary) -> Result<PathBuf> {
    let file = prepare(table, table, config, summary)?;
    let path = file.target().to_path_buf();
    file.commit()?;
    Ok(path)
}

/// The summary of the table that will be `table`, now readable at
/// `written` (a table not yet renamed into place), as a file whole but not
/// yet in place: commit it after the table.
pub fn prepare(
    table: &Path,
    written: &Path,
    config: &Config,
    summary: &Summary,
) -> Result<AtomicFile> {
    use std::io::Write;
    let path = config.file_of(table);
    let file = SummaryFile {
        format: FORMAT_NAME.into(),
        version: FORMAT_VERSION,
        remis: env!("CARGO_PKG_VERSION").into(),
        config: config.fingerprint(),
        table: TableStamp::of(written).with_context(|| format!("reading {}", table.display()))?,
        summary,
    };
    let out = AtomicFile::create(&path)?;
    // The text packed on a second thread as it is written, in blocks: the
    // summary is written once the last rows are counted, when the replay's
    // threads are done and a core is free (on the master games A-F the
    // text took 60 ms and its packing 45 ms).
    let (blocks, packed) = std::sync::mpsc::sync_channel::<Vec<u8>>(4);
    let written = std::thread::scope(|scope| {
        let packer = std::thread::Builder::new()
            .name("remis-pack".into())
            .spawn_scoped(scope, move || -> std::io::Result<AtomicFile> {
                let mut packer = zstd::stream::write::Encoder::new(out, 3)?;
                for block in packed {
                    packer.write_all(&block)?;
                }
                packer.finish()
            })
            .context("starting the thread that packs the summary")?;
        let mut text = std::io::BufWriter::with_capacity(BLOCK_BYTES, ToPacker(blocks));
        let wrote = serde_json::to_writer(&mut text, &file)
            .map_err(anyhow::Error::from)
            .and_then(|()| Ok(text.flush()?));
        // Closed, so that the packer ends (early, on an error).
        drop(text);
        // The packer's error first: the text's then only says it stopped.
        let packed = packer.join().expect("the summary's packer panicked")?;
        wrote?;
        anyhow::Ok(packed)
    });
    written.with_context(|| format!("writing {}", path.display()))
}

/// Bytes of the summary's text handed to its packer at a time.
const BLOCK_BYTES: usize = 1 << 20;

/// Sends the summary's text to its packer, a block at a time (what the
/// buffer in front of it holds).
struct ToPacker(std::sync::mpsc::SyncSender<Vec<u8>>);

impl std::io::Write for ToPacker {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(bytes.to_vec())
            .map_err(|_| std::io::Error::other("the summary's packer stopped"))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The largest summary file read, packed and unpacked. The summary of the
/// master games (120,000 games, 30,000 players) is 2.4 MB unpacked; the
/// players' part is bounded, so no table's summary comes near these.
const MAX_PACKED_BYTES: u64 = 64 << 20;
const MAX_UNPACKED_BYTES: u64 = 512 << 20;

/// The most a summary of a table of `rows` rows may unpack to: what its
/// rows can justify (a fixed part for the headings and the bounded
/// players' lists, and a generous share for each row's names and counts),
/// never more than [`MAX_UNPACKED_BYTES`]. A 16 KB file that unpacks to
/// hundreds of megabytes beside a table of 13 rows is refused, not parsed.
fn unpacked_cap(rows: u64) -> u64 {
    const FIXED: u64 = 4 << 20;
    const PER_ROW: u64 = 8 << 10;
    FIXED
        .saturating_add(rows.saturating_mul(PER_ROW))
        .min(MAX_UNPACKED_BYTES)
}

/// A zstd frame unpacked as it is read, with a window of at most 2^27
/// bytes (128 MiB, zstd's default limit for a decoder), failing once it
/// passes `max` bytes: a small file that unpacks to gigabytes is refused,
/// not followed, and the text is parsed as it comes, never held whole.
struct Unpacked<'a> {
    decoder: zstd::stream::read::Decoder<'static, std::io::BufReader<&'a [u8]>>,
    read: u64,
    max: u64,
}

impl<'a> Unpacked<'a> {
    fn new(packed: &'a [u8], max: u64) -> std::io::Result<Unpacked<'a>> {
        let mut decoder = zstd::stream::read::Decoder::new(packed)?;
        decoder.window_log_max(27)?;
        Ok(Unpacked {
            decoder,
            read: 0,
            max,
        })
    }
}

impl std::io::Read for Unpacked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.decoder.read(buf)?;
        self.read += n as u64;
        if self.read > self.max {
            return Err(std::io::Error::other(format!(
                "unpacks to more than {} bytes, more than its table's rows can hold",
                self.max
            )));
        }
        Ok(n)
    }
}

/// Reads the summary of `table` for `config`, checking that it is one,
/// that it was made for these settings by this format, and that the table
/// is still the one it was made from.
pub fn read(table: &Path, config: &Config) -> Result<Summary, SummaryFileError> {
    let path = config.file_of(table);
    if std::fs::symlink_metadata(&path).is_err() {
        return Err(SummaryFileError::Missing(path));
    }
    let packed = match read_bounded(&path, MAX_PACKED_BYTES) {
        Ok(bytes) => bytes,
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
    // The table first: its rows bound what its summary may unpack to.
    let Ok(stamp) = TableStamp::of(table) else {
        return Err(SummaryFileError::Stale { path });
    };
    let max = unpacked_cap(stamp.rows);
    let unpacked = || {
        Unpacked::new(&packed, max)
            .map(std::io::BufReader::new)
            .map_err(|e| corrupt(format!("not a zstd-compressed summary: {e}")))
    };
    let parse_error = |e: serde_json::Error, what: &str| match e.io_error_kind() {
        Some(_) => corrupt(format!("not a zstd-compressed summary, or too large: {e}")),
        None => corrupt(format!("{what}{e}")),
    };
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
        serde_json::from_reader(unpacked()?).map_err(|e| parse_error(e, "not a summary: "))?;
    if header.format != FORMAT_NAME {
        return Err(corrupt(format!("format \"{}\"", header.format)));
    }
    if header.version != FORMAT_VERSION || header.config != config.fingerprint() {
        return Err(SummaryFileError::Foreign {
            path,
            found: format!("remis {}, format {}", header.remis, header.version),
        });
    }
    let file: SummaryFile = serde_json::from_reader(unpacked()?).map_err(|e| parse_error(e, ""))?;
    if stamp != file.table {
        return Err(SummaryFileError::Stale { path });
    }
    // Its counts must add up to the table's rows: a count that was edited
    // (or would wrap when added) is refused here, before any merge.
    let cube = file
        .summary
        .cube
        .values()
        .try_fold(0u64, |sum, &n| sum.checked_add(n));
    let used = file
        .summary
        .coverage
        .get(super::table::USED)
        .copied()
        .unwrap_or(0);
    if cube != Some(used) {
        return Err(corrupt(format!(
            "its draw counts hold {} games, its coverage {used} used",
            cube.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
        )));
    }
    match file.summary.checked_rows() {
        Some(rows) if rows == file.table.rows => Ok(file.summary),
        Some(rows) => Err(corrupt(format!(
            "it counts {rows} rows, the table has {}",
            file.table.rows
        ))),
        None => Err(corrupt("its row counts overflow".into())),
    }
}
