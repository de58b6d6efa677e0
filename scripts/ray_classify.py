"""Classify many shards of games on a Ray cluster into one dataset, then
write its report.

    python scripts/ray_classify.py SHARD_OR_GLOB... --out DATASET [--threads 2]
        [--remis PATH] [--report FILE] [--address auto] [--retries 3]

Each shard (a PGN file, compressed or not, or a lichess-layout Parquet file
on storage every node can read) is one Ray task that runs

    remis classify SHARD --shard-per-input --out DATASET --threads T

with `num_cpus=T`. A shard's table replaces DATASET/<shard>.parquet only
when its task succeeds, so a failed task is retried (Ray's `max_retries`,
for crashed workers, and `retry_exceptions`, for a failed remis) without
touching the other shards. When every task is done, `remis report DATASET`
reads all the shards lazily and writes the report.

Needs the `remis` binary at the same path on every node (or --remis), and
`pip install -r scripts/requirements-scale.txt`. docs/scale.md tells how to
run it on a real cluster."""
import argparse
import glob
import os
import subprocess
import sys
import time

import ray


@ray.remote
def classify(remis, shard, out, threads):
    started = time.time()
    done = subprocess.run(
        [remis, "classify", shard, "--shard-per-input", "--out", out, "--threads", str(threads),
         "--allow-damaged"],
        capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"remis classify {shard} failed ({done.returncode}): {done.stderr[-2000:]}")
    summary = next((l for l in done.stderr.splitlines() if " games read, " in l), "")
    return shard, time.time() - started, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shards", nargs="+", help="shard files or glob patterns")
    parser.add_argument("--out", required=True, help="the dataset folder (shared storage)")
    parser.add_argument("--threads", type=int, default=2, help="replay threads and CPUs per task")
    parser.add_argument("--remis", default=os.environ.get("REMIS", "remis"))
    parser.add_argument("--report", help="write the dataset's report here")
    parser.add_argument("--address", default="auto", help="Ray cluster address ('auto': the one started here)")
    parser.add_argument("--retries", type=int, default=3)
    args = parser.parse_args()

    shards = sorted({s for pattern in args.shards for s in (glob.glob(pattern) or [pattern])})
    missing = [s for s in shards if not os.path.exists(s)]
    if missing:
        sys.exit(f"ray_classify: no such shard: {', '.join(missing)}")
    os.makedirs(args.out, exist_ok=True)
    remis = os.path.abspath(args.remis) if os.path.exists(args.remis) else args.remis
    out = os.path.abspath(args.out)

    ray.init(address=args.address, log_to_driver=False)
    task = classify.options(num_cpus=args.threads, max_retries=args.retries, retry_exceptions=True)
    started = time.time()
    futures = [task.remote(remis, os.path.abspath(s), out, args.threads) for s in shards]
    for shard, seconds, summary in ray.get(futures):
        print(f"ray_classify: {os.path.basename(shard)}: {seconds:.1f} s  {summary}", flush=True)
    print(f"ray_classify: {len(shards)} shards in {time.time() - started:.1f} s -> {out}", flush=True)
    ray.shutdown()

    if args.report:
        subprocess.run([remis, "report", out, "--out", args.report], check=True)


if __name__ == "__main__":
    main()
