#!/usr/bin/env bash
# make bench: installs the peers (Debian's pgn-extract, python-chess in the
# project venv), builds remis and the bare replay loop in release mode, and
# runs scripts/bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/games/pgn-extract ] && ! command -v pgn-extract >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgn-extract zstd >/dev/null
  else
    echo "bench: needs Debian's pgn-extract: sudo apt-get install pgn-extract" >&2
    exit 1
  fi
fi
cargo build --release --bin remis
cargo build --release -p remis-core --example bare_replay
"${VENV:-.venv}/bin/python" scripts/bench.py "$@"
# Where each game's time goes, stage by stage (needs Linux perf and a build
# with line tables).
if command -v perf >/dev/null; then
  cargo build --profile profiling --bin remis
  python3 scripts/stage_budget.py target/bench/pgnmentor-players.pgn target/bench/lichess-users.pgn
else
  echo "bench: no perf on this machine (Debian's linux-perf): the stage budget is not measured"
fi
