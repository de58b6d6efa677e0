"""Memory that does not follow what a hostile input holds (issue 48):
peak RSS of `remis classify`, measured by the kernel (ru_maxrss of a
child that runs only remis), against bounds well above what the fixed
reader needs and well below what the unbounded one took.

- Fat Parquet cells: 1,500 rows of 256 KiB movetext each (375 MiB) in
  one row group. Slices were bounded in rows only (4,096 first), so the
  whole group was decoded and copied at once: 1.38 GB for 3,000 such rows
  (debug build). Bounded in bytes too (64 MiB a slice): 294 MiB.
- Many one-game sources: 6,000 one-game files in a folder, then the same
  as members of one zip archive. The row group being filled held each
  one-game chunk's ~70 column allocations until it was full (631 MiB for
  20,000 files); now they are made compact 64 at a time."""
import base64
import os
import pathlib
import subprocess
import sys
import zipfile

import polars as pl

ROOT = pathlib.Path(__file__).resolve().parents[2]
REMIS = os.environ.get("REMIS", str(ROOT / "target" / "debug" / "remis"))
MIB = 1 << 20

# A fresh interpreter runs remis and reports its children's peak RSS: the
# peak of pytest's own earlier children would otherwise be counted.
PEAK = """
import resource, subprocess, sys
run = subprocess.run(sys.argv[1:], capture_output=True)
sys.stderr.write(run.stderr.decode(errors="replace"))
print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_mib(*args):
    out = subprocess.run([sys.executable, "-c", PEAK, REMIS, *map(str, args)],
                         capture_output=True, text=True)
    code, kib = out.stdout.split()
    return int(code), int(kib) // 1024, out.stderr


def rows_of(table):
    return pl.read_parquet(table, columns=["event"]).height


def test_fat_parquet_cells_are_read_in_slices_bounded_by_bytes(tmp_path):
    rows, cell = 1_500, 256 * 1024
    moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 "
    # Random text in a comment: every cell distinct, so no dictionary
    # shares them (identical cells decode to one shared buffer).
    def movetext():
        pad = base64.b64encode(os.urandom(cell * 3 // 4)).decode()[: cell - 60]
        return f"{moves}{{{pad}}} 1-0"
    frame = pl.DataFrame({
        "Event": ["fat"] * rows, "Site": ["https://lichess.org/x"] * rows,
        "White": ["a"] * rows, "Black": ["b"] * rows, "Result": ["1-0"] * rows,
        "UTCDate": ["2024.01.01"] * rows, "TimeControl": ["600+0"] * rows,
        "movetext": [movetext() for _ in range(rows)],
    })
    source = tmp_path / "fat.parquet"
    frame.write_parquet(source, row_group_size=rows)
    del frame
    code, peak, err = peak_mib("classify", source, "--out", tmp_path / "out")
    assert code == 0, err
    assert rows_of(tmp_path / "out" / "games.parquet") == rows
    # 375 MiB of cells; the reader holds a few 64 MiB slices at most.
    assert peak < 400, f"peak {peak} MiB for {rows} cells of 256 KiB"


GAME = ('[Event "g"]\n[White "W"]\n[Black "B"]\n[Result "1-0"]\n\n'
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n")


def test_many_one_game_sources_do_not_hold_a_frame_each(tmp_path):
    n = 6_000
    folder = tmp_path / "files"
    folder.mkdir()
    for i in range(n):
        (folder / f"{i:05d}.pgn").write_text(GAME)
    archive = tmp_path / "members.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(n):
            z.writestr(f"m{i:05d}.pgn", GAME)
    peaks = {}
    for name, source in [("folder", folder), ("zip", archive)]:
        code, peak, err = peak_mib("classify", source, "--out", tmp_path / name)
        assert code == 0, err
        assert rows_of(tmp_path / name / "games.parquet") == n
        peaks[name] = peak
    # Held a frame each, 6,000 sources took some 180 MiB (about 30 KB a
    # source) over the run's own ~110 MiB; compact, they add a few MiB.
    assert max(peaks.values()) < 200, peaks
