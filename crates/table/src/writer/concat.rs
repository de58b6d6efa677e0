//! Tables joined end to end without decoding them: the parts of a run
//! that can resume become its table by copying their row groups' bytes
//! and writing one footer that names them all.
//!
//! A Parquet file is `PAR1`, the row groups' bytes (column chunks, and any
//! page indexes), then the footer: Thrift metadata whose offsets are
//! counted from the file's start. The parts were written by one encoder
//! with one schema, so their row groups can follow one another as they
//! are; only the offsets in their metadata move, by where each part's
//! bytes land in the table.

use std::io::{Read, Seek, SeekFrom, Write};

use super::*;

/// Joins the Parquet files `parts` (written by [`ParquetSink`], one
/// schema) into the table `out`, written whole but not yet in place, with
/// `manifest` in its footer. With no parts, the table is empty.
pub fn concatenate(
    parts: &[std::path::PathBuf],
    out: &Path,
    manifest: &Manifest,
) -> Result<WrittenTable, SinkError> {
    if parts.is_empty() {
        return ParquetSink::create(out, manifest)?.finish();
    }
    remove_stale_temporaries(out);
    let mut table = AtomicFile::create(out)?;
    let written = |cause| SinkError::Io {
        path: out.to_path_buf(),
        cause,
    };
    table.write_all(b"PAR1").map_err(written)?;
    let mut at: u64 = 4;
    let mut joined: Option<polars_parquet_format::FileMetaData> = None;
    for part in parts {
        let read = |cause| SinkError::Io {
            path: part.clone(),
            cause,
        };
        let mut file = crate::safe_file::open_regular(part)?;
        let (mut metadata, footer) = read_footer(&file).map_err(read)?;
        file.seek(SeekFrom::Start(4)).map_err(read)?;
        let bytes = footer - 4;
        let copied = std::io::copy(&mut (&mut file).take(bytes), &mut table).map_err(written)?;
        if copied != bytes {
            return Err(read(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the part is shorter than its footer says",
            )));
        }
        let shift = i64::try_from(at - 4).map_err(|_| read(std::io::Error::other("over 8 EiB")))?;
        for group in &mut metadata.row_groups {
            shift_offsets(group, shift);
        }
        at += bytes;
        match &mut joined {
            None => joined = Some(metadata),
            Some(joined) => {
                if joined.schema != metadata.schema {
                    return Err(read(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "the part's columns are not the table's",
                    )));
                }
                joined.num_rows += metadata.num_rows;
                joined.row_groups.append(&mut metadata.row_groups);
            }
        }
    }
    let mut metadata = joined.expect("at least one part");
    for (i, group) in metadata.row_groups.iter_mut().enumerate() {
        if group.ordinal.is_some() {
            group.ordinal = i16::try_from(i).ok();
        }
    }
    set_manifest(&mut metadata, &manifest.to_json());
    write_footer(&mut table, &metadata).map_err(written)?;
    table.flush().map_err(written)?;
    Ok(WrittenTable(table))
}

/// Moves every offset of a row group's metadata by `shift` bytes.
fn shift_offsets(group: &mut polars_parquet_format::RowGroup, shift: i64) {
    let by = |offset: &mut Option<i64>| {
        if let Some(o) = offset {
            *o += shift;
        }
    };
    by(&mut group.file_offset);
    for column in &mut group.columns {
        column.file_offset += shift;
        by(&mut column.offset_index_offset);
        by(&mut column.column_index_offset);
        if let Some(meta) = &mut column.meta_data {
            meta.data_page_offset += shift;
            by(&mut meta.index_page_offset);
            by(&mut meta.dictionary_page_offset);
            by(&mut meta.bloom_filter_offset);
        }
    }
}
