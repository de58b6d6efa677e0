//! A zip archive's central directory, walked one entry at a time.
//!
//! The zip crate's `ZipArchive` keys its members by name, so an archive
//! holding two members of the same name gives only the last one (the
//! first one's games would be lost in silence), and it holds the whole
//! directory in memory. This walker reads one entry at a time, in
//! directory order, duplicates included: memory does not grow with the
//! number of members. Each member is then read from its local header,
//! with the directory's compressed size, so members written by a
//! streaming zipper (sizes only in a data descriptor after the data) are
//! read too.

use std::io::{self, Read, Seek, SeekFrom};

const EOCD: u32 = 0x0605_4b50;
const ZIP64_LOCATOR: u32 = 0x0706_4b50;
const ZIP64_EOCD: u32 = 0x0606_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
/// The end record is 22 bytes, and its comment at most 65,535.
const EOCD_SEARCH: u64 = 22 + 65_535;

/// One member as the central directory describes it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) struct Entry {
    /// The name as stored (not UTF-8 is shown lossily).
    pub name: String,
    /// Where its local header starts, from the start of the file.
    pub local_header: u64,
    pub compressed_size: u64,
    pub uncompressed_size: u64,
    pub crc32: u32,
}

impl Entry {
    pub fn is_dir(&self) -> bool {
        self.name.ends_with('/')
    }
}

/// The central directory of an archive: where its entries are and how
/// many; [`CentralDirectory::next`] reads them in order.
#[derive(Debug)]
pub(super) struct CentralDirectory {
    /// Entries in the directory, as its end record says.
    pub entries: u64,
    /// The bytes of the directory and the records after it, to the end of
    /// the file.
    pub tail_bytes: u64,
    read: u64,
    /// Where the next entry starts.
    next: u64,
    end: u64,
    /// Bytes before the archive proper (a self-extracting stub): added to
    /// every offset the directory records.
    shift: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn invalid(message: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.into())
}

impl CentralDirectory {
    /// Finds the directory from the end record (and its zip64 form).
    pub fn open<R: Read + Seek>(file: &mut R) -> io::Result<CentralDirectory> {
        let len = file.seek(SeekFrom::End(0))?;
        let tail_start = len.saturating_sub(EOCD_SEARCH);
        file.seek(SeekFrom::Start(tail_start))?;
        let mut tail = Vec::with_capacity((len - tail_start) as usize);
        file.take(EOCD_SEARCH).read_to_end(&mut tail)?;
        let at = (0..tail.len().saturating_sub(21))
            .rev()
            .find(|&i| u32_at(&tail, i) == EOCD)
            .ok_or_else(|| invalid("no end of central directory record"))?;
        let eocd = &tail[at..];
        let eocd_pos = tail_start + at as u64;
        let mut entries = u64::from(u16_at(eocd, 10));
        let mut size = u64::from(u32_at(eocd, 12));
        let mut offset = u64::from(u32_at(eocd, 16));
        // The directory ends where its end record (or the zip64 records)
        // begin: its true start is `end - size`, whatever offset it records.
        let mut end = eocd_pos;
        let saturated = entries == 0xffff || size == 0xffff_ffff || offset == 0xffff_ffff;
        if let Some(zip64) = saturated
            .then(|| Self::zip64_end(file, eocd_pos))
            .transpose()?
        {
            (entries, size, offset, end) = zip64.unwrap_or((entries, size, offset, end));
        }
        let start = end
            .checked_sub(size)
            .ok_or_else(|| invalid("central directory larger than the file"))?;
        let shift = start
            .checked_sub(offset)
            .ok_or_else(|| invalid("central directory offset past its place"))?;
        // Each entry takes at least 46 bytes: a count the size cannot hold
        // is a lie, not an allocation to make.
        if entries > size / 46 {
            return Err(invalid(format!(
                "central directory of {size} bytes claims {entries} entries"
            )));
        }
        Ok(CentralDirectory {
            entries,
            tail_bytes: len - start,
            read: 0,
            next: start,
            end,
            shift,
        })
    }

    /// The zip64 end record's (entries, size, offset, its own position).
    fn zip64_end<R: Read + Seek>(
        file: &mut R,
        eocd_pos: u64,
    ) -> io::Result<Option<(u64, u64, u64, u64)>> {
        let Some(locator_pos) = eocd_pos.checked_sub(20) else {
            return Ok(None);
        };
        let mut locator = [0u8; 20];
        file.seek(SeekFrom::Start(locator_pos))?;
        file.read_exact(&mut locator)?;
        if u32_at(&locator, 0) != ZIP64_LOCATOR {
            return Ok(None);
        }
        // The zip64 end record sits just before its locator (56 bytes
        // without extensible data); its recorded offset may be shifted.
        let recorded = u64_at(&locator, 8);
        let mut record = [0u8; 56];
        for pos in [locator_pos.saturating_sub(56), recorded] {
            file.seek(SeekFrom::Start(pos))?;
            if file.read_exact(&mut record).is_ok() && u32_at(&record, 0) == ZIP64_EOCD {
                let entries = u64_at(&record, 32);
                let size = u64_at(&record, 40);
                let offset = u64_at(&record, 48);
                return Ok(Some((entries, size, offset, pos)));
            }
        }
        Err(invalid("zip64 end of central directory record not found"))
    }

    /// The next entry, or `None` after the last. Each entry is read at its
    /// place (a seek, then the read), so `file` may be shared with a reader
    /// of the members that moves it in between.
    pub fn next<R: Read + Seek>(&mut self, file: &mut R) -> Option<io::Result<Entry>> {
        if self.read >= self.entries {
            return None;
        }
        self.read += 1;
        Some(self.read_entry(file))
    }

    fn read_entry<R: Read + Seek>(&mut self, file: &mut R) -> io::Result<Entry> {
        let mut fixed = [0u8; 46];
        if self.next + 46 > self.end {
            return Err(invalid("central directory entry past the directory's end"));
        }
        file.seek(SeekFrom::Start(self.next))?;
        file.read_exact(&mut fixed)?;
        if u32_at(&fixed, 0) != CENTRAL_HEADER {
            return Err(invalid("central directory entry without its signature"));
        }
        let name_len = usize::from(u16_at(&fixed, 28));
        let extra_len = usize::from(u16_at(&fixed, 30));
        let comment_len = u64::from(u16_at(&fixed, 32));
        let mut name_extra = vec![0u8; name_len + extra_len];
        file.read_exact(&mut name_extra)?;
        self.next += 46 + (name_len + extra_len) as u64 + comment_len;
        let (name, extra) = name_extra.split_at(name_len);
        let mut compressed_size = u64::from(u32_at(&fixed, 20));
        let crc32 = u32_at(&fixed, 16);
        let mut uncompressed_size = u64::from(u32_at(&fixed, 24));
        let mut local_header = u64::from(u32_at(&fixed, 42));
        // The zip64 extra field holds, in this order, only the values
        // whose 32-bit fields are saturated.
        if let Some(mut zip64) = extra_field(extra, 0x0001) {
            let mut take = || -> io::Result<u64> {
                let (value, rest) = zip64
                    .split_first_chunk::<8>()
                    .ok_or_else(|| invalid("zip64 extra field too short"))?;
                zip64 = rest;
                Ok(u64::from_le_bytes(*value))
            };
            if uncompressed_size == 0xffff_ffff {
                uncompressed_size = take()?;
            }
            if compressed_size == 0xffff_ffff {
                compressed_size = take()?;
            }
            if local_header == 0xffff_ffff {
                local_header = take()?;
            }
        }
        Ok(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            local_header: local_header + self.shift,
            compressed_size,
            uncompressed_size,
            crc32,
        })
    }
}

/// The data of the extra field `id`, if present.
fn extra_field(mut extra: &[u8], id: u16) -> Option<&[u8]> {
    while extra.len() >= 4 {
        let (this, len) = (u16_at(extra, 0), usize::from(u16_at(extra, 2)));
        let data = extra.get(4..4 + len)?;
        if this == id {
            return Some(data);
        }
        extra = &extra[4 + len..];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};
    use zip::write::SimpleFileOptions;

    fn archive(members: &[(&str, &str)]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, text) in members {
            w.start_file(*name, SimpleFileOptions::default()).unwrap();
            w.write_all(text.as_bytes()).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    fn names(bytes: Vec<u8>) -> Vec<String> {
        let mut file = Cursor::new(bytes);
        let mut dir = CentralDirectory::open(&mut file).unwrap();
        std::iter::from_fn(|| dir.next(&mut file))
            .map(|e| e.unwrap().name)
            .collect()
    }

    #[test]
    fn entries_in_directory_order() {
        let bytes = archive(&[("b.pgn", "1"), ("dir/", ""), ("a.pgn", "22")]);
        assert_eq!(names(bytes), ["b.pgn", "dir/", "a.pgn"]);
    }

    #[test]
    fn a_stub_before_the_archive_shifts_every_offset() {
        let mut bytes = b"#!/bin/sh\nexit 0\n".to_vec();
        let stub = bytes.len() as u64;
        bytes.extend(archive(&[("a.pgn", "x")]));
        let mut file = Cursor::new(bytes);
        let mut dir = CentralDirectory::open(&mut file).unwrap();
        let entry = dir.next(&mut file).unwrap().unwrap();
        assert_eq!(entry.local_header, stub);
    }

    #[test]
    fn a_count_the_directory_cannot_hold_is_refused() {
        let mut bytes = archive(&[("a.pgn", "x")]);
        let eocd = bytes.len() - 22;
        bytes[eocd + 10..eocd + 12].copy_from_slice(&60_000u16.to_le_bytes());
        let err = CentralDirectory::open(&mut Cursor::new(bytes)).unwrap_err();
        assert!(err.to_string().contains("claims 60000 entries"), "{err}");
    }
}
