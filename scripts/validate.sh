#!/usr/bin/env bash
# make validate: classify every collection in ../shared/data and check that
# the table has one row per game of the input, counted independently (tag
# sections that open with [Event, or python-chess for the small test files).
# Prints the ending and draw-type distribution of each collection.
set -uo pipefail
cd "$(dirname "$0")/.."
SHARED="${1:-../shared/data}"
REMIS="${REMIS:-target/release/remis}"
PY="${VENV:-.venv}/bin/python"
OUT="${VALIDATE_OUT:-target/validate}"

if [ ! -d "$SHARED" ]; then
  echo "validate: SKIPPED — $SHARED is absent. It holds the real game collections" \
       "(pgnmentor-players, twic, lichess, misc) that this check needs; the" \
       "project's own tests (make test) do not need it."
  exit 0
fi
mkdir -p "$OUT"
failures=0

count_event_tags() { # file → number of lines starting with [Event
  case "$1" in
    *.zst) zstd -dc -- "$1" ;;
    *.gz) gzip -dc -- "$1" ;;
    *) cat -- "$1" ;;
  esac | grep -a -c '^\[Event '
}

check() { # name, expected games, inputs...
  local name=$1 expected=$2; shift 2
  echo "== $name"
  "$REMIS" classify "$@" --out "$OUT/$name" 2>&1 | grep -v '^remis: warning' | sed 's/^/   /'
  local rows
  rows=$("$PY" -c "import polars as pl; print(pl.scan_parquet('$OUT/$name/games.parquet').select(pl.len()).collect().item())")
  if [ "$rows" = "$expected" ]; then
    echo "   rows = games: $rows"
  else
    echo "   MISMATCH: $rows rows for $expected games"
    failures=$((failures + 1))
  fi
  "$PY" scripts/distribution.py "$OUT/$name/games.parquet" | sed 's/^/   /'
  # remis resolves SAN with its own code; shakmaty's San::to_move must give
  # the very same table, every row and every column.
  "$REMIS" classify "$@" --san-resolver shakmaty --out "$OUT/$name-shakmaty-san" >/dev/null 2>&1
  if "$PY" - "$OUT/$name/games.parquet" "$OUT/$name-shakmaty-san/games.parquet" <<'PYEOF'
import sys
import polars as pl
a, b = (pl.read_parquet(p) for p in sys.argv[1:])
if a.equals(b, null_equal=True):
    print(f"   SAN resolvers agree: {a.height} rows x {a.width} columns identical")
    sys.exit(0)
print("   SAN resolvers DIFFER:")
if a.shape != b.shape:
    print(f"   shapes {a.shape} vs {b.shape}")
else:
    for c in a.columns:
        differ = ~(a[c].eq_missing(b[c]))
        if differ.any():
            print(f"   column {c}: {differ.sum()} rows, first at row {differ.arg_max()}")
sys.exit(1)
PYEOF
  then :; else failures=$((failures + 1)); fi
}

expected=0
for f in "$SHARED"/pgnmentor-players/*.pgn.zst; do
  expected=$((expected + $(count_event_tags "$f")))
done
check pgnmentor-players "$expected" "$SHARED/pgnmentor-players"
check twic "$(count_event_tags "$SHARED/twic/twic1599.pgn")" "$SHARED/twic/twic1599.pgn"
check lichess-users "$(count_event_tags "$SHARED/lichess/lichess_users_2018-2022.pgn.zst")" \
  "$SHARED/lichess/lichess_users_2018-2022.pgn.zst"
check lichess-2025-05 "$(count_event_tags "$SHARED/lichess/lichess_2025-05_sample.pgn")" \
  "$SHARED/lichess/lichess_2025-05_sample.pgn"
check chesscom "$(count_event_tags "$SHARED/misc/chesscom-sample/all.pgn")" "$SHARED/misc/chesscom-sample/all.pgn"
# Edge-case files: some games there have no Event tag; python-chess counts.
pc_games=$("$PY" - "$SHARED/misc/python-chess-testdata" <<'PYEOF'
import sys, pathlib
import chess.pgn
n = 0
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.pgn")):
    with open(f, encoding="utf-8", errors="replace") as h:
        while chess.pgn.read_game(h) is not None:
            n += 1
print(n)
PYEOF
)
check python-chess-testdata "$pc_games" "$SHARED/misc/python-chess-testdata"

if [ "$failures" -gt 0 ]; then
  echo "validate: $failures collection(s) with rows != games"
  exit 1
fi
echo "validate: every collection has one row per game"
