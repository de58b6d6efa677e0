"""Classify many shards of games on a Ray cluster into one dataset, then
write its report from the shards' summaries.

    python scripts/ray_classify.py SHARD_OR_GLOB... --out DATASET [--threads 2]
        [--remis PATH] [--report FILE] [--address auto] [--retries 3]
        [--root FOLDER] [--force]

Each shard (a PGN file, compressed or not, or a lichess-layout Parquet file
on storage every node can read) is one Ray task that runs

    remis classify SHARD --shard-per-input --shard-root ROOT --out DATASET
        --threads T --skip-current

with `num_cpus=T`. ROOT is the folder the shards share, above any
`key=value` partition folder (or --root), so the dataset keeps their tree: `data/year=2025/month=01/train-00000-of-00001.parquet`
becomes `DATASET/year=2025/month=01/train-00000-of-00001.parquet`, and shards
of the same file name in different months never collide. A shard's table
(with its summary file) replaces its previous one only when its task
succeeds, and never one that came from another input.

The run can fail and resume:
- a task whose remis process dies (a killed worker, a crash) is retried
  (Ray's `max_retries`, and `retry_exceptions` for a failed remis); the
  temporary file the dead process left is removed by the retry;
- a rerun skips every shard whose table is complete and current (its
  manifest names this input, with its size and time, and this remis),
  unless --force.

Progress over the whole job (shards done, games per second, an ETA from the
bytes of input done) is printed as tasks finish. With --report, the head
node writes the dataset's report from the shards' summary files only
(`remis report --source summaries`): it never reads the rows.

Needs the `remis` binary at the same path on every node (or --remis), and
`pip install -r scripts/requirements-scale.txt`. docs/scale.md tells how to
run it on a real cluster."""
import argparse
import glob
import os
import re
import subprocess
import sys
import time

import ray


@ray.remote
def classify(remis, shard, root, out, threads, force):
    started = time.time()
    command = [remis, "classify", shard, "--shard-per-input", "--shard-root", root,
               "--out", out, "--threads", str(threads), "--allow-damaged"]
    if not force:
        command.append("--skip-current")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        # Ray retries the task (retry_exceptions): a killed remis (-9) too.
        raise RuntimeError(f"remis classify {shard} failed ({done.returncode}): {done.stderr[-2000:]}")
    line = next((l for l in done.stderr.splitlines() if " games read, " in l), "")
    games = int(m.group(1)) if (m := re.search(r"(\d+) games read", line)) else 0
    skipped = "already current" in done.stderr
    return shard, time.time() - started, games, skipped, line


def duration(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shards", nargs="+", help="shard files or glob patterns")
    parser.add_argument("--out", required=True, help="the dataset folder (shared storage)")
    parser.add_argument("--threads", type=int, default=2, help="replay threads and CPUs per task")
    parser.add_argument("--remis", default=os.environ.get("REMIS", "remis"))
    parser.add_argument("--report", help="write the dataset's report here, from the shards' summaries")
    parser.add_argument("--address", default="auto", help="Ray cluster address ('auto': the one started here)")
    parser.add_argument("--retries", type=int, default=3)
    parser.add_argument("--root", help="the folder the shards' tree starts at (default: the folder they share)")
    parser.add_argument("--force", action="store_true", help="classify every shard again, current or not")
    args = parser.parse_args()

    shards = sorted({os.path.abspath(s) for pattern in args.shards for s in (glob.glob(pattern) or [pattern])})
    missing = [s for s in shards if not os.path.exists(s)]
    if missing:
        sys.exit(f"ray_classify: no such shard: {', '.join(missing)}")
    if args.root:
        root = os.path.abspath(args.root)
    else:
        # The folder the shards share, above any key=value partition folder.
        root = os.path.commonpath([os.path.dirname(s) for s in shards])
        while "=" in os.path.basename(root):
            root = os.path.dirname(root)
    os.makedirs(args.out, exist_ok=True)
    remis = os.path.abspath(args.remis) if os.path.exists(args.remis) else args.remis
    out = os.path.abspath(args.out)
    sizes = {s: os.path.getsize(s) for s in shards}
    total_bytes = sum(sizes.values())

    ray.init(address=args.address, log_to_driver=False)
    task = classify.options(num_cpus=args.threads, max_retries=args.retries, retry_exceptions=True)
    started = time.time()
    pending = [task.remote(remis, s, root, out, args.threads, args.force) for s in shards]
    done_shards = done_bytes = games = skipped = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        shard, seconds, n, was_skipped, line = ray.get(ready[0])
        done_shards += 1
        skipped += was_skipped
        games += n
        if was_skipped:
            total_bytes -= sizes[shard]
        else:
            done_bytes += sizes[shard]
        elapsed = time.time() - started
        rate = games / elapsed if elapsed > 0 else 0.0
        eta = (elapsed / done_bytes * (total_bytes - done_bytes)) if done_bytes else float("nan")
        state = "current, skipped" if was_skipped else f"{seconds:.1f} s, {n} games"
        print(f"ray_classify: [{done_shards}/{len(shards)}] {os.path.relpath(shard, root)}: {state}; "
              f"{games} games, {rate:.0f} games/s, ETA {duration(eta) if eta == eta else '?'}", flush=True)
    print(f"ray_classify: {len(shards)} shards ({skipped} already current) in {time.time() - started:.1f} s, "
          f"{games} games classified -> {out}", flush=True)
    ray.shutdown()

    if args.report:
        subprocess.run([remis, "report", out, "--source", "summaries", "--out", args.report], check=True)


if __name__ == "__main__":
    main()
