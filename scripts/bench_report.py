"""make bench-report: time `remis report` and `remis stats` over 1, 10 and
100 copies of a real games table given as shards of one dataset (symbolic
links to one table, each with its summary file), from the rows and from the
summaries; and Parquet input against the PGN it came from. Prints wall time
and peak RSS (GNU time's %e and %M), the median of --runs runs.

    python scripts/bench_report.py [--shared ../shared/data] [--runs 3]
        [--copies 1,10,100] [--out target/bench-report]

Needs the release binary (REMIS, default target/release/remis) and
../shared/data (the master games and the lichess users' games); says so and
exits 0 when that data is absent."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def timed(command, runs):
    """Median wall seconds and peak RSS (MiB) of `command` over `runs` runs."""
    walls, peaks = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as stats:
            done = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", stats.name, *command],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                sys.exit(f"bench-report: {' '.join(command)} failed:\n{done.stderr[-2000:]}")
            wall, peak_kb = stats.read().split()[-2:]
        walls.append(float(wall))
        peaks.append(int(peak_kb) / 1024)
    return statistics.median(walls), statistics.median(peaks)


def dataset(base, table, summaries, copies):
    """A folder of `copies` shards, each a link to `table` and its summary."""
    folder = base / f"shards-{copies}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for i in range(copies):
        (folder / f"shard-{i:03d}.parquet").symlink_to(table.resolve())
        for summary in summaries:
            suffix = summary.name[len("games"):]
            (folder / f"shard-{i:03d}{suffix}").symlink_to(summary.resolve())
    return folder


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", default="../shared/data")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--copies", default="1,10,100")
    parser.add_argument("--out", default="target/bench-report")
    args = parser.parse_args()
    remis = os.environ.get("REMIS", "target/release/remis")
    shared = Path(args.shared)
    masters = shared / "pgnmentor-players"
    users = shared / "lichess" / "lichess_users_2018-2022.pgn.zst"
    if not masters.is_dir() or not users.is_file():
        print(f"bench-report: {shared} is absent (the master games and the lichess users' games); nothing measured")
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    table_dir = out / "masters"
    if not (table_dir / "games.parquet").is_file():
        subprocess.run([remis, "classify", str(masters), "--out", str(table_dir)], check=True,
                       stderr=subprocess.DEVNULL)
    table = table_dir / "games.parquet"
    summaries = sorted(table_dir.glob("games.summary-*.json.zst"))
    printed = subprocess.run([remis, "stats", str(table_dir)], check=True, capture_output=True,
                             text=True).stdout
    rows = int(next(l for l in printed.splitlines() if l.startswith("rows read")).split()[2].rstrip(","))
    print(f"bench-report: {table} ({rows:,} rows), {args.runs} runs each, median; remis {remis}")
    print()
    print("| command | shards | rows | source | wall s | peak RSS MiB |")
    print("|---|---:|---:|---|---:|---:|")
    for copies in [int(c) for c in args.copies.split(",")]:
        folder = dataset(out, table, summaries, copies)
        for name, command in [
            ("report", [remis, "report", str(folder), "--out", str(out / "report.html")]),
            ("stats --by-band", [remis, "stats", str(folder), "--by-band"]),
        ]:
            for source in ["rows", "summaries"]:
                wall, peak = timed(command + ["--source", source], args.runs)
                print(f"| {name} | {copies} | {rows * copies:,} | {source} | {wall:.2f} | {peak:.0f} |", flush=True)

    # Parquet input against the PGN it came from, and many small row groups.
    python = sys.executable
    print()
    print("| input (lichess users, 48,234 games) | wall s | peak RSS MiB |")
    print("|---|---:|---:|")
    layouts = {"one row group": 1_000_000, "groups of 10,000 rows": 10_000, "groups of 25 rows": 25}
    files = {}
    for label, group_rows in layouts.items():
        path = out / f"users-{group_rows}.parquet"
        if not path.is_file():
            subprocess.run([python, "scripts/pgn_to_lichess_parquet.py", str(users), str(path),
                            "--row-group-rows", str(group_rows)], check=True, stdout=subprocess.DEVNULL)
        files[label] = path
    for label, path in [("PGN (.pgn.zst)", users)] + [(f"Parquet, {k}", v) for k, v in files.items()]:
        wall, peak = timed([remis, "classify", str(path), "--no-summary", "--out", str(out / "parquet-run")],
                           args.runs)
        print(f"| {label} | {wall:.2f} | {peak:.0f} |", flush=True)


if __name__ == "__main__":
    main()
