#!/usr/bin/env bash
# make scale-test: a local Ray cluster on this machine classifies the sample
# split into 8 shards with scripts/ray_classify.py; the check is that rows =
# games and that the dataset's numbers equal a single-process run on the
# same games.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
REMIS="${REMIS:-target/debug/remis}"
OUT="${SCALE_OUT:-target/scale-test}"
"$VENV/bin/pip" install -q --disable-pip-version-check -r scripts/requirements-scale.txt
rm -rf "$OUT"
mkdir -p "$OUT/shards"
# The sample, split into 8 shards of whole games.
"$VENV/bin/python" - "$OUT/shards" <<'PY'
import re, subprocess, sys, pathlib
text = subprocess.run(["zstd", "-dc", "data/lichess-sample.pgn.zst"], check=True, capture_output=True).stdout.decode()
games = [g for g in re.split(r"\n\n(?=\[Event )", text) if g.strip()]
out = pathlib.Path(sys.argv[1])
for i in range(8):
    (out / f"shard-{i}.pgn").write_text("\n\n".join(games[i::8]) + "\n\n")
print(f"scale-test: {len(games)} games in 8 shards")
PY
"$VENV/bin/ray" stop --force >/dev/null 2>&1 || true
"$VENV/bin/ray" start --head --num-cpus 2 --include-dashboard=false --disable-usage-stats >/dev/null
trap '"$VENV/bin/ray" stop --force >/dev/null 2>&1 || true' EXIT
"$VENV/bin/python" scripts/ray_classify.py "$OUT/shards/*.pgn" --out "$OUT/dataset" --threads 1 \
  --remis "$REMIS" --report "$OUT/report.html"
"$REMIS" classify "$OUT/shards" --out "$OUT/single" 2>/dev/null
"$VENV/bin/python" - "$REMIS" "$OUT" <<'PY'
import json, subprocess, sys
remis, out = sys.argv[1], sys.argv[2]
def stats(table, view):
    return json.loads(subprocess.run([remis, "stats", table, "--view", view, "--format", "json"],
                                     check=True, capture_output=True, text=True).stdout)
import polars as pl
games = sum(open(f"{out}/shards/shard-{i}.pgn").read().count("[Event ") for i in range(8))
rows = pl.scan_parquet(f"{out}/dataset/*.parquet").select(pl.len()).collect().item()
assert rows == games, f"{rows} rows for {games} games"
for view in ["draws", "outcomes", "gap", "openings", "time-classes", "clocks"]:
    a, b = stats(f"{out}/dataset", view), stats(f"{out}/single", view)
    assert a == b, f"{view}: the dataset's numbers differ from the single run's"
audit_a = json.loads(subprocess.run([remis, "stats", f"{out}/dataset", "--audit", "--format", "json"], check=True, capture_output=True, text=True).stdout)
audit_b = json.loads(subprocess.run([remis, "stats", f"{out}/single", "--audit", "--format", "json"], check=True, capture_output=True, text=True).stdout)
for key in ["games", "dead_final", "dead_mid_game", "search_unknown"]:
    assert audit_a[key] == audit_b[key], key
print(f"scale-test: passed: {games} games = {rows} rows; every view of the 8-shard dataset equals the single run")
PY
