#!/bin/bash
# Every output remis makes from the project's own fixtures, for checking that a
# restructuring changes none: run it with the binary before and after, then
#   diff -r BEFORE AFTER   (tables: compare as frames; their manifests record the run).
# usage: scripts/snapshot_outputs.sh BIN OUTDIR

set -e
B=$(realpath "$1"); O=$(realpath -m "$2"); rm -rf "$O"; mkdir -p "$O"
cd "$(dirname "$0")/.."
$B classify data --out $O/sample 2>/dev/null
$B classify tests/data/synthetic-3000.pgn.zst --dedup --out $O/syn 2>/dev/null
$B classify crates/core/tests/fixtures --out $O/fx 2>/dev/null || true
$B report $O/sample --out $O/sample.html 2>/dev/null
$B report $O/syn --events tests/data/events-synthetic.toml --play all --elo-basis min --out $O/syn.html 2>/dev/null
for v in draws outcomes gap openings time-classes clocks audit players; do for f in table csv json; do $B stats $O/syn --view $v --format $f > $O/stats-$v.$f 2>&1 || true; done; done
$B stats $O/fx --view audit > $O/fx-audit.txt 2>&1 || true
$B sofia $O/syn --events tests/data/events-synthetic.toml > $O/sofia.txt 2>&1 || true
$B scoring $O/syn > $O/scoring.txt 2>&1 || true
$B sofia $O/syn --events tests/data/events-synthetic.toml --format json > $O/sofia.json 2>&1 || true
$B scoring $O/syn --format json > $O/scoring.json 2>&1 || true
for f in $O/*.html; do sed -i -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}( \(UTC\))?//g; s/commit [0-9a-f]+(\+changes)?//g; s#'"$O"'#OUT#g' $f; done
for f in $O/*.txt $O/*.json $O/stats-*; do sed -i 's#'"$O"'#OUT#g' $f; done
(cd $O && sha256sum sample/games.parquet syn/games.parquet fx/games.parquet > tables.sha)
