//! Where `classify` writes: one table (`--out x.parquet`, or a folder's
//! `games.parquet`), or a dataset of shards, one per input, each in its
//! input's place (`--shard-per-input`), and the policy for a shard already
//! there: replaced when it came from the same input, left alone when current
//! (`--skip-current`), refused when it came from another input or from no
//! remis run.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use remis_core::input::Input;

use crate::writer::{InputStamp, Manifest};

/// Where the table goes: `--out x.parquet` is the file itself, any other
/// name a folder for `games.parquet`.
pub fn table_path(out: &std::path::Path) -> Result<PathBuf> {
    let is_file_name = remis_core::input::is_parquet_name(out);
    if is_file_name && !out.is_dir() {
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating folder {}", parent.display()))?;
        }
        return Ok(out.to_path_buf());
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating folder {}", out.display()))?;
    Ok(out.join("games.parquet"))
}

/// The shard of an input, below the dataset folder: where the input sits
/// in what was named (see `remis_core::input::Resolved::placed`), or below
/// `--shard-root`, with the PGN, archive and compression suffixes replaced
/// by `.parquet`.
pub fn shard_path(input: &Input, placed: &Path, root: Option<&Path>) -> Result<PathBuf> {
    let placed = match (input, root) {
        (Input::File(path), Some(root)) => {
            let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            let (file, root) = (canonical(path), canonical(root));
            file.strip_prefix(&root)
                .map(Path::to_path_buf)
                .map_err(|_| {
                    anyhow::anyhow!(
                        "{}: not below --shard-root {}",
                        path.display(),
                        root.display()
                    )
                })?
        }
        _ => placed.to_path_buf(),
    };
    // Bytes, not text: a file name need not be UTF-8 (the suffixes are
    // ASCII, so cutting them keeps the rest as it was).
    use std::os::unix::ffi::OsStrExt;
    let name = placed.file_name().map_or(&b"input"[..], |n| n.as_bytes());
    let mut stem = name;
    for suffix in [".gz", ".bz2", ".zst", ".zip", ".pgn", ".parquet"] {
        if stem.len() >= suffix.len()
            && stem[stem.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
        {
            stem = &stem[..stem.len() - suffix.len()];
        }
    }
    // A long name is shortened with a hash, so that it fits; its summary
    // and temporary names fit themselves the same way.
    let shard = crate::safe_file::fit_name(stem, b".parquet");
    Ok(placed.with_file_name(shard))
}

/// The output must never replace an input: `classify in.parquet --out
/// in.parquet` would lose the user's data (also through a symlink or a
/// hard link).
pub fn refuse_overwriting_an_input(out: &Path, inputs: &[Input]) -> Result<()> {
    let files = inputs.iter().filter_map(|i| match i {
        Input::File(path) => Some(path.as_path()),
        Input::Stdin => None,
    });
    crate::safe_file::refuse_input_as_output(out, files)?;
    Ok(())
}

/// What to do with a shard that is already there.
pub enum Existing {
    /// None there, or one from this same input: (re)write it.
    Write,
    /// One from this input, current (same size, time and remis): skip it
    /// under --skip-current.
    Current,
}

/// Refuses to replace a shard that came from another input (or whose
/// origin cannot be told); says whether one from this input is current.
pub fn check_existing(shard: &Path, input: &Input) -> Result<Existing> {
    if !shard.exists() {
        return Ok(Existing::Write);
    }
    let stamp = match input {
        Input::File(path) => InputStamp::of_path(path),
        Input::Stdin => InputStamp::stdin(),
    };
    match Manifest::read(shard)? {
        None => anyhow::bail!(
            "{}: a table without a remis manifest is in the way of the shard of {}; \
             remove it or choose another --out",
            shard.display(),
            input.name()
        ),
        Some(m) if m.inputs.len() != 1 || m.inputs[0].path != stamp.path => anyhow::bail!(
            "{}: this shard came from {}, not from {}: two inputs would share it; \
             refusing to replace it (rename one input, or use --shard-root)",
            shard.display(),
            m.inputs
                .iter()
                .map(|i| i.path.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            stamp.path
        ),
        Some(m)
            if m.inputs[0].same_file(&stamp)
                && stamp.bytes.is_some()
                && m.remis == Manifest::new(vec![]).remis =>
        {
            Ok(Existing::Current)
        }
        Some(_) => Ok(Existing::Write),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_keeps_its_inputs_place_and_drops_its_suffixes() {
        let input = Input::File(PathBuf::from("/data/2025/twic1599g.PGN.zst"));
        let placed = Path::new("2025/twic1599g.PGN.zst");
        assert_eq!(
            shard_path(&input, placed, None).unwrap(),
            PathBuf::from("2025/twic1599g.parquet")
        );
        // An input outside --shard-root is refused, by name.
        let outside = shard_path(&input, placed, Some(Path::new("/elsewhere")));
        assert!(
            outside
                .unwrap_err()
                .to_string()
                .contains("not below --shard-root")
        );
    }
}
