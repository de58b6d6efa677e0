#!/usr/bin/env bash
# make scale-test: a local Ray cluster on this machine classifies a tree in
# the lichess dataset's hub layout (every month's file has the same name)
# with scripts/ray_classify.py, while one task's remis process is killed
# mid-run. The checks: rows = games, every shard at its partition path, no
# temporary file left, every view of the dataset equal to a single-process
# run, the report made from the shards' summaries equal to the single run's
# report (but for its provenance lines), and a rerun that skips every shard.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
REMIS="${REMIS:-target/debug/remis}"
OUT="${SCALE_OUT:-target/scale-test}"
"$VENV/bin/pip" install -q --disable-pip-version-check -r scripts/requirements-scale.txt
rm -rf "$OUT"
mkdir -p "$OUT/data"
# The sample in 8 months, and a ninth month of generated games, large
# enough to be killed mid-run.
"$VENV/bin/python" - "$OUT/data" <<'PY'
import re, subprocess, sys, pathlib
text = subprocess.run(["zstd", "-dc", "data/lichess-sample.pgn.zst"], check=True, capture_output=True).stdout.decode()
games = [g for g in re.split(r"\n\n(?=\[Event )", text) if g.strip()]
out = pathlib.Path(sys.argv[1])
for i in range(8):
    month = out / f"year=2025/month={i + 1:02d}"
    month.mkdir(parents=True)
    (month / "train-00000-of-00001.pgn").write_text("\n\n".join(games[i::8]) + "\n\n")
print(f"scale-test: {len(games)} sample games in 8 months")
PY
mkdir -p "$OUT/data/year=2025/month=09"
"$REMIS" generate --games 40000 --seed 9 --out "$OUT/data/year=2025/month=09/train-00000-of-00001.pgn.zst"

"$VENV/bin/ray" stop --force >/dev/null 2>&1 || true
"$VENV/bin/ray" start --head --num-cpus 2 --include-dashboard=false --disable-usage-stats >/dev/null
trap '"$VENV/bin/ray" stop --force >/dev/null 2>&1 || true' EXIT

"$VENV/bin/python" scripts/ray_classify.py "$OUT/data/year=*/month=*/train-*" --out "$OUT/dataset" \
  --threads 1 --remis "$REMIS" --report "$OUT/report.html" > "$OUT/run.log" 2>&1 &
RUN=$!
# Kill the remis process of the large month once it has been running a while.
victim=""
for _ in $(seq 1 600); do
  victim=$(pgrep -f "remis classify .*month=09" | head -1 || true)
  [ -n "$victim" ] && break
  sleep 0.1
done
[ -n "$victim" ] || { cat "$OUT/run.log"; echo "scale-test: the task to kill never started" >&2; exit 1; }
sleep 1.5
kill -9 "$victim"
echo "scale-test: killed remis (process $victim) classifying month 09 mid-run"
wait "$RUN" || { cat "$OUT/run.log"; exit 1; }
cat "$OUT/run.log"

# The single run names its inputs by absolute path too, as the tasks do.
"$REMIS" classify "$(cd "$OUT/data" && pwd)" --out "$OUT/single" 2>/dev/null
"$REMIS" report "$OUT/single" --out "$OUT/single-report.html" 2>/dev/null
"$VENV/bin/python" - "$REMIS" "$OUT" <<'PY'
import json, pathlib, re, subprocess, sys
remis, out = sys.argv[1], pathlib.Path(sys.argv[2])
def stats(table, *args):
    return json.loads(subprocess.run([remis, "stats", str(table), *args, "--format", "json"],
                                     check=True, capture_output=True, text=True).stdout)
import polars as pl
shards = sorted(p.relative_to(out / "dataset").as_posix() for p in (out / "dataset").rglob("*.parquet"))
want = [f"year=2025/month={m:02d}/train-00000-of-00001.parquet" for m in range(1, 10)]
assert shards == want, f"shards {shards}"
left = [p.name for p in (out / "dataset").rglob(".*.tmp")]
assert not left, f"temporary files left: {left}"
games = sum(p.read_text().count("[Event ") for p in (out / "data").rglob("*.pgn")) + 40000
rows = pl.scan_parquet(str(out / "dataset" / "**" / "*.parquet")).select(pl.len()).collect().item()
assert rows == games, f"{rows} rows for {games} games"
def same_sources(audit):
    # The tasks name their inputs by absolute path, the single run as given.
    text = json.dumps(audit)
    return json.loads(re.sub(r'"source": "[^"]*?/data/', '"source": "data/', text))
for view in ["draws", "outcomes", "gap", "openings", "time-classes", "clocks", "audit"]:
    a = stats(out / "dataset", "--view", view, "--source", "summaries")
    b = stats(out / "single", "--view", view, "--source", "rows")
    if view == "audit":
        a, b = same_sources(a), same_sources(b)
    assert a == b, f"{view}: the dataset's numbers differ from the single run's"
def body(page):
    # Without the provenance (command, time, inputs, how counts were read)
    # and the citation (which carries the time).
    return re.sub(r'<section id="(provenance|cite)">.*?</section>', "", page, flags=re.S)
a, b = (out / "report.html").read_text(), (out / "single-report.html").read_text()
assert "read from the summary files of 9 tables" in a, "the report was not made from summaries"
assert body(a) == body(b), "the report from summaries differs from the single run's"
print(f"scale-test: {games} games = {rows} rows in 9 shards at their partition paths; "
      "every view and the report from summaries equal the single run")
PY
# A rerun resumes: every shard is current and skipped.
"$VENV/bin/python" scripts/ray_classify.py "$OUT/data/year=*/month=*/train-*" --out "$OUT/dataset" \
  --threads 1 --remis "$REMIS" > "$OUT/rerun.log" 2>&1
grep -q "9 shards (9 already current)" "$OUT/rerun.log" || { cat "$OUT/rerun.log"; exit 1; }
echo "scale-test: passed (a rerun skipped all 9 current shards)"
